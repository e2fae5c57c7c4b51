// Object lifetime (handles, the registry, reference counts, destruction), events, and the
// pool of threads that runs the queues' commands.
#include "objects.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <unordered_map>
#include <vector>

namespace ventus::cl {
namespace {

struct Registry {
  std::mutex lock;
  // Live handles: the body behind each (nullptr for the platform and the device).
  std::unordered_map<const void*, std::pair<Kind, Object*>> live;
  // Handle cells are carved from chunks that are never freed: a released handle stays a
  // valid dispatch pointer (8 bytes a handle for the life of the process). Every chunk stays
  // listed, so that leak checkers see the tombstones as reachable.
  static constexpr size_t kChunkCells = 4096;
  std::vector<std::unique_ptr<const cl_icd_dispatch*[]>> chunks;
  size_t used = kChunkCells;  // cells taken from the last chunk
};

Registry& registry() {
  // Never destroyed: pool threads may release objects while the process exits.
  static Registry* instance = new Registry;
  return *instance;
}

// Under the registry's lock: forgets an object that nothing references any more, which the
// caller then deletes (after unlocking: destructors run the application's callbacks and
// release what the object referred to).
Object* take_if_unreferenced(Registry& r, Object* object) {
  if (object->app + object->attached + object->pins != 0) return nullptr;
  if (object->cell != nullptr) r.live.erase(object->cell);
  return object;
}

// The application's hold on a context's kernels (Context::object_held and friends): a
// queue or an event it holds, or the context itself. Called without the registry's lock.
void application_holds(Object& object) {
  switch (object.kind) {
    case Kind::context: static_cast<Context&>(object).application_retained(); break;
    case Kind::queue: static_cast<Queue&>(object).context->object_held(); break;
    case Kind::event: static_cast<Event&>(object).context->object_held(); break;
    default: break;
  }
}

void application_lets_go(Object& object) {
  switch (object.kind) {
    case Kind::context: static_cast<Context&>(object).application_released(); break;
    case Kind::queue: static_cast<Queue&>(object).context->object_let_go(); break;
    case Kind::event: static_cast<Event&>(object).context->object_let_go(); break;
    default: break;
  }
}

}  // namespace

void publish(Object* object, uint32_t app_references) {
  Registry& r = registry();
  std::unique_lock guard(r.lock);
  if (r.used == Registry::kChunkCells) {
    r.chunks.push_back(std::make_unique<const cl_icd_dispatch*[]>(Registry::kChunkCells));
    r.used = 0;
  }
  const cl_icd_dispatch** cell = &r.chunks.back()[r.used++];
  *cell = &kDispatch;
  object->cell = cell;
  object->app = app_references;
  r.live[cell] = {object->kind, object};
  guard.unlock();
  if (app_references != 0 && object->kind != Kind::context) application_holds(*object);
}

void publish_static(const void* handle, Kind kind) {
  Registry& r = registry();
  std::lock_guard guard(r.lock);
  r.live[handle] = {kind, nullptr};
}

Object* lookup(const void* handle, Kind kind) {
  if (handle == nullptr) return nullptr;
  Registry& r = registry();
  std::lock_guard guard(r.lock);
  auto it = r.live.find(handle);
  return it != r.live.end() && it->second.first == kind ? it->second.second : nullptr;
}

bool is_live(const void* handle, Kind kind) {
  if (handle == nullptr) return false;
  Registry& r = registry();
  std::lock_guard guard(r.lock);
  auto it = r.live.find(handle);
  return it != r.live.end() && it->second.first == kind;
}

cl_int retain_handle(const void* handle, Kind kind, cl_int invalid) {
  if (handle == nullptr) return invalid;
  Registry& r = registry();
  Object* held_again = nullptr;  // its application count left zero
  {
    std::lock_guard guard(r.lock);
    auto it = r.live.find(handle);
    if (it == r.live.end() || it->second.first != kind) return invalid;
    Object* object = it->second.second;
    if (object == nullptr) return CL_SUCCESS;  // platform, device: no count
    if (object->app++ == 0) held_again = object;
  }
  if (held_again != nullptr) application_holds(*held_again);
  return CL_SUCCESS;
}

cl_int release_handle(const void* handle, Kind kind, cl_int invalid) {
  if (handle == nullptr) return invalid;
  Registry& r = registry();
  Object* doomed = nullptr;
  Object* let_go = nullptr;  // its application count reached zero
  {
    std::lock_guard guard(r.lock);
    auto it = r.live.find(handle);
    if (it == r.live.end() || it->second.first != kind) return invalid;
    Object* object = it->second.second;
    if (object == nullptr) return CL_SUCCESS;  // platform, device
    if (object->app == 0) return invalid;      // only other objects' references are left
    if (--object->app == 0) let_go = object;
    doomed = take_if_unreferenced(r, object);
  }
  // Before the deletion: a queue or an event keeps its context attached until then. A
  // context being deleted has no queue left, so no kernel to cancel.
  if (let_go != nullptr && !(let_go == doomed && let_go->kind == Kind::context))
    application_lets_go(*let_go);
  delete doomed;
  return CL_SUCCESS;
}

cl_uint reference_count(const Object* object) {
  Registry& r = registry();
  std::lock_guard guard(r.lock);
  return object->app + object->attached;
}

namespace {

// One more reference of the kind `count` (Object::attached or Object::pins).
void add_reference(Object* object, uint32_t Object::*count) {
  Registry& r = registry();
  std::lock_guard guard(r.lock);
  ++(object->*count);
}

// One reference of the kind `count` less; the object is deleted when it was the last.
void drop_reference(Object* object, uint32_t Object::*count) {
  Registry& r = registry();
  Object* doomed = nullptr;
  {
    std::lock_guard guard(r.lock);
    --(object->*count);
    doomed = take_if_unreferenced(r, object);
  }
  delete doomed;
}

}  // namespace

void attach(Object* object) {
  add_reference(object, &Object::attached);
}

void detach(Object* object) {
  if (object == nullptr) return;  // an object destroyed before it was complete
  drop_reference(object, &Object::attached);
}

void pin(Object* object) {
  add_reference(object, &Object::pins);
}

void unpin(Object* object) {
  drop_reference(object, &Object::pins);
}

cl_ulong now_ns() {
  return static_cast<cl_ulong>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                   std::chrono::steady_clock::now().time_since_epoch())
                                   .count());
}

// ---- the pool ----

namespace {

class Pool {
 public:
  void post(std::function<void()> task) {
    std::lock_guard guard(lock_);
    if (threads_.empty()) {
      for (unsigned i = 0; i < kPoolThreads; ++i) {
        std::thread thread([this] { work(); });
        threads_.push_back(thread.get_id());
        thread.detach();
      }
    }
    tasks_.push_back(std::move(task));
    available_.notify_one();
  }

  // Whether the calling thread is one of the pool's. (Not a thread_local: LeakSanitizer's
  // exit-time scan crashes on the dynamic TLS of a dlopen'ed library's threads.)
  bool owns_calling_thread() {
    std::lock_guard guard(lock_);
    return std::find(threads_.begin(), threads_.end(), std::this_thread::get_id()) !=
           threads_.end();
  }

  // Whether no task waits for a thread (a queue's next command may then keep this one).
  bool nothing_waiting() {
    std::lock_guard guard(lock_);
    return tasks_.empty();
  }

  // Runs one waiting task in the calling thread; false when there is none.
  bool run_one() {
    std::function<void()> task;
    {
      std::lock_guard guard(lock_);
      if (tasks_.empty()) return false;
      task = std::move(tasks_.front());
      tasks_.pop_front();
    }
    task();
    return true;
  }

 private:
  void work() {
    for (;;) {
      std::function<void()> task;
      {
        std::unique_lock guard(lock_);
        available_.wait(guard, [&] { return !tasks_.empty(); });
        task = std::move(tasks_.front());
        tasks_.pop_front();
      }
      task();  // destroyed here too, outside the lock (it may hold the last pin of a queue)
    }
  }

  std::mutex lock_;
  std::condition_variable available_;
  std::deque<std::function<void()>> tasks_;
  std::vector<std::thread::id> threads_;
};

Pool& pool() {
  // Never destroyed: its threads run until the process exits.
  static Pool* instance = new Pool;
  return *instance;
}

}  // namespace

void wait_helping(std::unique_lock<std::mutex>& lock, std::condition_variable& changed,
                  const std::function<bool()>& done) {
  if (!pool().owns_calling_thread()) {
    changed.wait(lock, done);
    return;
  }
  // A pool thread (a callback making a blocking call) must not sleep while the commands it
  // waits for need a pool thread: it runs them itself. A task may finish elsewhere without
  // a notification this thread sees in time, hence the short timed wait.
  while (!done()) {
    lock.unlock();
    const bool ran = pool().run_one();
    lock.lock();
    if (!ran && !done()) changed.wait_for(lock, std::chrono::milliseconds(1));
  }
}

// ---- queues ----

void Queue::schedule_locked() {
  if (queued || busy || blocked || pending.empty()) return;
  queued = true;
  pool().post([queue = Ref<Queue>(this)] { queue->serve(); });
}

void Queue::enqueue(Command command) {
  std::lock_guard guard(lock);
  pending.push_back(std::move(command));
  schedule_locked();
}

void Queue::serve() {
  // A command that leaves the next one ready to run has this thread run it too (execute):
  // handing it to another pool thread cost a wake-up per command (tens of microseconds in a
  // virtual machine, against a short launch's few hundred) and moved the device's state to
  // another core.
  for (bool again = true; again;) {
    std::unique_lock guard(lock);
    queued = false;
    if (busy || blocked || pending.empty()) return;
    // A head waiting for an event does not hold a pool thread: the event reschedules the
    // queue when it completes.
    for (const Ref<Event>& e : pending.front().wait_list) {
      auto unblock = [queue = Ref<Queue>(this)] {
        std::lock_guard queue_guard(queue->lock);
        queue->blocked = false;
        queue->schedule_locked();
      };
      if (e->when_final(std::move(unblock))) {
        blocked = true;
        return;
      }
    }
    busy = true;
    Command command = std::move(pending.front());
    pending.pop_front();
    guard.unlock();
    again = execute(command, true);
  }
}

bool Queue::try_run_inline(Command& command) {
  {
    std::lock_guard guard(lock);
    if (!pending.empty() || busy) return false;
    for (const Ref<Event>& e : command.wait_list)
      if (!e->is_final()) return false;
    busy = true;
  }
  execute(command, false);
  return true;
}

bool Queue::execute(Command& command, bool may_go_on) {
  bool dependency_failed = false;
  for (const Ref<Event>& e : command.wait_list) {
    std::lock_guard guard(e->lock);
    dependency_failed |= e->status < 0;
  }
  Event& event = *command.event.get();
  for (cl_int step : {CL_SUBMITTED, CL_RUNNING}) {
    Event::Triggered triggered;
    // The callbacks of these states run on another thread: this one holds the queue, and
    // a callback may wait for the queue (clFinish).
    if (event.advance(step, triggered) && !triggered.callbacks.empty())
      pool().post([keep = command.event, triggered = std::move(triggered)]() mutable {
        keep->run_triggered(triggered);
      });
  }
  cl_int status = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  if (!dependency_failed) {
    try {
      status = command.work(event);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "Ventus OpenCL: a command failed: %s\n", e.what());
      status = CL_OUT_OF_RESOURCES;
    }
  }
  Event::Triggered done;
  event.advance(status, done);
  // The next command is this thread's unless a callback runs first (one that blocks on this
  // queue, clFinish, waits for a pool thread to run its commands) or other work waits for a
  // pool thread (other queues' commands, callbacks: they keep their turn).
  bool go_on = may_go_on && done.callbacks.empty() && pool().nothing_waiting();
  {
    // The queue is free before any callback runs: a callback may block on it.
    std::lock_guard guard(lock);
    busy = false;
    go_on = go_on && !queued && !blocked && !pending.empty();
    if (go_on)
      queued = true;  // claimed by this thread: nobody else schedules the queue meanwhile
    else
      schedule_locked();
    // drain (clFinish) waits for an idle, empty queue: woken after every command instead,
    // it cost a host program that queues many short launches a futex call and two context
    // switches per launch.
    if (pending.empty()) changed.notify_all();
  }
  event.run_triggered(done);
  // The command's pins (its event, the objects its work captured) go last.
  command = Command{};
  return go_on;
}

void Queue::drain() {
  std::unique_lock guard(lock);
  wait_helping(guard, changed, [&] { return pending.empty() && !busy; });
}

Queue::~Queue() {
  detach(context);
}

// ---- events ----

bool Event::advance(cl_int new_status, Triggered& triggered) {
  std::lock_guard guard(lock);
  if (status <= CL_COMPLETE) return false;  // final already
  status = new_status;
  const cl_ulong t = std::max(now_ns(), queue != nullptr ? queue->last_end.load() : 0);
  if (new_status == CL_SUBMITTED) submitted = t;
  if (new_status == CL_RUNNING) started = t;
  if (new_status <= CL_COMPLETE) {
    if (started == 0) started = t;
    if (submitted == 0) submitted = t;
    ended = device_duration_ns ? started + *device_duration_ns : t;
    if (queue != nullptr) queue->last_end = ended;
    triggered.hooks = std::move(final_hooks);
    final_hooks.clear();
  }
  triggered.status = new_status;
  // A callback registered for a state runs when the event reaches it or a later one
  // (an error status counts as complete).
  std::vector<Callback> keep;
  for (const Callback& c : callbacks)
    (std::max(new_status, CL_COMPLETE) <= c.trigger ? triggered.callbacks : keep).push_back(c);
  callbacks = std::move(keep);
  if (new_status <= CL_COMPLETE) changed.notify_all();  // Event::wait waits for a final one
  return true;
}

void Event::run_triggered(Triggered& triggered) {
  for (const std::function<void()>& hook : triggered.hooks) hook();
  for (const Callback& c : triggered.callbacks) c.function(handle(), triggered.status, c.data);
  triggered = Triggered{};
}

void Event::set_status(cl_int new_status) {
  Triggered triggered;
  if (advance(new_status, triggered)) run_triggered(triggered);
}

bool Event::is_final() {
  std::lock_guard guard(lock);
  return status <= CL_COMPLETE;
}

bool Event::when_final(std::function<void()> hook) {
  std::lock_guard guard(lock);
  if (status <= CL_COMPLETE) return false;
  final_hooks.push_back(std::move(hook));
  return true;
}

cl_int Event::wait() {
  std::unique_lock guard(lock);
  wait_helping(guard, changed, [&] { return status <= CL_COMPLETE; });
  return status;
}

Event::~Event() {
  if (queue) detach(queue);
  detach(context);
}

// ---- the other objects ----

Context::~Context() {
  for (auto it = destructor_callbacks.rbegin(); it != destructor_callbacks.rend(); ++it)
    it->first(handle(), it->second);
}

void Context::report(const std::string& message) {
  std::fprintf(stderr, "Ventus OpenCL: %s\n", message.c_str());
  if (notify) notify(message.c_str(), nullptr, 0, notify_data);
}

void Context::notify_callback_only(const std::string& message) {
  if (notify) notify(message.c_str(), nullptr, 0, notify_data);
}

void Context::application_retained() {
  std::lock_guard guard(abandon_lock);
  application_holds_context = true;
}

void Context::application_released() {
  std::lock_guard guard(abandon_lock);
  application_holds_context = false;
  cancel_kernels_if_abandoned();
}

void Context::object_held() {
  std::lock_guard guard(abandon_lock);
  // A queue created again (through a handle the context's objects still give) starts over.
  if (cancel_kernels.stop_requested()) cancel_kernels = std::stop_source();
  ++held_objects;
}

void Context::object_let_go() {
  std::lock_guard guard(abandon_lock);
  if (held_objects == 0) return;
  --held_objects;
  cancel_kernels_if_abandoned();
}

std::stop_token Context::kernel_cancel_token() {
  std::lock_guard guard(abandon_lock);
  return cancel_kernels.get_token();
}

void Context::cancel_kernels_if_abandoned() {
  if (!application_holds_context && held_objects == 0) cancel_kernels.request_stop();
}

uint8_t* Mem::host_mirror() {
  if (uses_host_ptr()) return static_cast<uint8_t*>(host_ptr);
  Mem* r = root();
  std::lock_guard guard(r->lock);
  if (!r->shadow) {
    const size_t bytes = (r->size + 127) & ~size_t{127};
    r->shadow = {static_cast<uint8_t*>(std::aligned_alloc(128, bytes)), std::free};
    if (!r->shadow) throw std::bad_alloc();
  }
  return r->shadow.get() + origin;
}

Mem::~Mem() {
  for (auto it = destructor_callbacks.rbegin(); it != destructor_callbacks.rend(); ++it)
    it->first(handle(), it->second);
  if (parent) {
    detach(parent);
  } else if (address != 0) {
    _cl_device_id* device = the_device();
    std::lock_guard guard(device->lock);
    try {
      device->runtime->free(address);
    } catch (const std::exception&) {
      // Nothing to undo: the allocation is gone either way.
    }
  }
  detach(context);
}

Program::~Program() {
  detach(context);
}

Kernel::~Kernel() {
  if (program == nullptr) return;  // destroyed before it was complete
  program->kernels.fetch_sub(1);
  detach(program);
}

}  // namespace ventus::cl
