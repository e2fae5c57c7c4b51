// Object lifetime (registry, reference counts, destruction) and the event and queue
// machinery shared by the API files.
#include "objects.h"

#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <unordered_map>

namespace ventus::cl {
namespace {

struct Registry {
  std::mutex lock;
  std::unordered_map<const void*, Kind> live;
};
Registry& registry() {
  // Never destroyed: queue threads may release objects while the process exits.
  static Registry* instance = new Registry;
  return *instance;
}

}  // namespace

void register_object(Object* object) {
  Registry& r = registry();
  std::lock_guard guard(r.lock);
  r.live[object] = object->kind;
}

void unregister_object(Object* object) {
  Registry& r = registry();
  std::lock_guard guard(r.lock);
  r.live.erase(object);
}

bool is_live(const void* handle, Kind kind) {
  if (handle == nullptr) return false;
  Registry& r = registry();
  std::lock_guard guard(r.lock);
  auto it = r.live.find(handle);
  return it != r.live.end() && it->second == kind;
}

void retain(Object* object) {
  if (object->kind == Kind::platform || object->kind == Kind::device) return;
  object->references.fetch_add(1, std::memory_order_relaxed);
}

void release(Object* object) {
  if (object == nullptr) return;  // an object destroyed before it was complete
  if (object->kind == Kind::platform || object->kind == Kind::device) return;
  if (object->references.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  unregister_object(object);
  switch (object->kind) {
    case Kind::context:
      delete static_cast<_cl_context*>(object);
      break;
    case Kind::queue:
      delete static_cast<_cl_command_queue*>(object);
      break;
    case Kind::mem:
      delete static_cast<_cl_mem*>(object);
      break;
    case Kind::program:
      delete static_cast<_cl_program*>(object);
      break;
    case Kind::kernel:
      delete static_cast<_cl_kernel*>(object);
      break;
    case Kind::event:
      delete static_cast<_cl_event*>(object);
      break;
    case Kind::platform:
    case Kind::device:
      break;
  }
}

cl_ulong now_ns() {
  return static_cast<cl_ulong>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                   std::chrono::steady_clock::now().time_since_epoch())
                                   .count());
}

// ---- queue worker ----

void QueueCore::execute(Command& command) {
  bool dependency_failed = false;
  for (const Ref<_cl_event>& e : command.wait_list)
    if (e->wait() < 0) dependency_failed = true;
  _cl_event& event = *command.event.get();
  event.set_status(CL_SUBMITTED);
  event.set_status(CL_RUNNING);
  cl_int status = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  if (!dependency_failed) {
    try {
      status = command.work();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "Ventus OpenCL: a command failed: %s\n", e.what());
      status = CL_OUT_OF_RESOURCES;
    }
  }
  event.set_status(status);
  // The command's references (its event, the objects its work captured) go now, before
  // the queue counts as idle: clFinish returns only when they are released.
  command = Command{};
}

bool QueueCore::try_run_inline(Command& command) {
  {
    std::lock_guard guard(lock);
    if (!pending.empty() || running) return false;
    for (const Ref<_cl_event>& e : command.wait_list) {
      std::lock_guard event_guard(e->lock);
      if (e->status > CL_COMPLETE) return false;
    }
    running = true;
  }
  execute(command);
  std::lock_guard guard(lock);
  running = false;
  changed.notify_all();
  return true;
}

void QueueCore::run() {
  std::unique_lock guard(lock);
  for (;;) {
    // A command run inline by the application's thread finishes before the next starts.
    changed.wait(guard, [&] { return (stopping && !running) || (!pending.empty() && !running); });
    if (pending.empty()) return;  // stopping, and nothing left
    Command command = std::move(pending.front());
    pending.pop_front();
    running = true;
    guard.unlock();
    execute(command);
    guard.lock();
    running = false;
    changed.notify_all();
  }
}

}  // namespace ventus::cl

using ventus::cl::Ref;

_cl_context::~_cl_context() {
  for (auto it = destructor_callbacks.rbegin(); it != destructor_callbacks.rend(); ++it)
    it->first(this, it->second);
}

void _cl_context::report(const std::string& message) {
  std::fprintf(stderr, "Ventus OpenCL: %s\n", message.c_str());
  if (notify) notify(message.c_str(), nullptr, 0, notify_data);
}

void _cl_context::application_retained() {
  std::lock_guard guard(abandon_lock);
  ++application_references;
}

void _cl_context::application_released() {
  std::lock_guard guard(abandon_lock);
  if (application_references == 0) return;  // an over-release: the reference count says so
  --application_references;
  cancel_kernels_if_abandoned();
}

void _cl_context::object_held() {
  std::lock_guard guard(abandon_lock);
  // A queue created again (through a handle the context's objects still give) starts over.
  if (cancel_kernels.stop_requested()) cancel_kernels = std::stop_source();
  ++held_objects;
}

void _cl_context::object_let_go() {
  std::lock_guard guard(abandon_lock);
  if (held_objects == 0) return;
  --held_objects;
  cancel_kernels_if_abandoned();
}

std::stop_token _cl_context::kernel_cancel_token() {
  std::lock_guard guard(abandon_lock);
  return cancel_kernels.get_token();
}

void _cl_context::cancel_kernels_if_abandoned() {
  if (application_references == 0 && held_objects == 0) cancel_kernels.request_stop();
}

namespace ventus::cl {

void application_release(std::atomic<cl_uint>& references, cl_context context) {
  cl_uint held = references.load();
  while (held != 0 && !references.compare_exchange_weak(held, held - 1)) {
  }
  if (held == 1) context->object_let_go();
}

}  // namespace ventus::cl

uint8_t* _cl_mem::host_mirror() {
  if (uses_host_ptr()) return static_cast<uint8_t*>(host_ptr);
  _cl_mem* r = root();
  std::lock_guard guard(r->lock);
  if (!r->shadow) {
    const size_t bytes = (r->size + 127) & ~size_t{127};
    r->shadow = {static_cast<uint8_t*>(std::aligned_alloc(128, bytes)), std::free};
    if (!r->shadow) throw std::bad_alloc();
  }
  return r->shadow.get() + origin;
}

_cl_mem::~_cl_mem() {
  for (auto it = destructor_callbacks.rbegin(); it != destructor_callbacks.rend(); ++it)
    it->first(this, it->second);
  if (parent) {
    ventus::cl::release(parent);
  } else if (address != 0) {
    _cl_device_id* device = ventus::cl::the_device();
    std::lock_guard guard(device->lock);
    try {
      device->device->free(address);
    } catch (const std::exception&) {
      // Nothing to undo: the allocation is gone either way.
    }
  }
  ventus::cl::release(context);
}

_cl_program::~_cl_program() {
  ventus::cl::release(context);
}

_cl_kernel::~_cl_kernel() {
  program->kernels.fetch_sub(1);
  ventus::cl::release(program);
}

_cl_command_queue::~_cl_command_queue() {
  {
    std::lock_guard guard(core->lock);
    core->stopping = true;
    core->changed.notify_all();
  }
  // The last reference can go on the worker itself (a command's event was the last
  // holder); it cannot join itself, and it leaves on its own once `stopping` is seen.
  if (worker.get_id() == std::this_thread::get_id())
    worker.detach();
  else if (worker.joinable())
    worker.join();
  ventus::cl::release(context);
}

_cl_event::~_cl_event() {
  if (queue) ventus::cl::release(queue);
  ventus::cl::release(context);
}

void _cl_event::set_status(cl_int new_status) {
  std::vector<Callback> to_call;
  {
    std::lock_guard guard(lock);
    if (status <= CL_COMPLETE) return;  // final already
    status = new_status;
    const cl_ulong t = ventus::cl::now_ns();
    if (new_status == CL_SUBMITTED) submitted = t;
    if (new_status == CL_RUNNING) started = t;
    if (new_status <= CL_COMPLETE) {
      ended = t;
      if (started == 0) started = t;
      if (submitted == 0) submitted = t;
    }
    // A callback registered for a state runs when the event reaches it or a later one
    // (an error status counts as complete).
    std::vector<Callback> keep;
    for (const Callback& c : callbacks)
      (std::max(new_status, CL_COMPLETE) <= c.trigger ? to_call : keep).push_back(c);
    callbacks = std::move(keep);
    changed.notify_all();
  }
  for (const Callback& c : to_call) c.function(this, new_status, c.data);
}

cl_int _cl_event::wait() {
  std::unique_lock guard(lock);
  changed.wait(guard, [&] { return status <= CL_COMPLETE; });
  return status;
}
