// The OpenCL objects of the Ventus platform (docs/opencl.md).
//
// A handle the application holds is one word, the ICD dispatch table pointer (cl_khr_icd:
// the loader reads it to route a call to this library). The object behind it (its "body":
// Context, Queue, Mem, ...) is a separate allocation that the registry maps the handle to.
// Bodies are freed when their last reference goes; handles never are: a released handle
// stays a tombstone of one word with a valid dispatch pointer, unknown to the registry, so
// that any later call with it reaches this library through the loader and gets
// CL_INVALID_<OBJECT> instead of a use after free (docs/opencl.md, "Limits and errors").
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <utility>
#include <vector>

#include "cl_headers.h"
#include "ventus/runtime.h"
#include "ventus/timing.h"

namespace ventus::cl {

extern const cl_icd_dispatch kDispatch;

enum class Kind : uint32_t {
  platform,
  device,
  context,
  queue,
  mem,
  program,
  kernel,
  event,
};

}  // namespace ventus::cl

// The handle types of <CL/cl.h>: the dispatch pointer and nothing else (the tombstone).
struct _cl_context {
  const cl_icd_dispatch* dispatch;
};
struct _cl_command_queue {
  const cl_icd_dispatch* dispatch;
};
struct _cl_mem {
  const cl_icd_dispatch* dispatch;
};
struct _cl_program {
  const cl_icd_dispatch* dispatch;
};
struct _cl_kernel {
  const cl_icd_dispatch* dispatch;
};
struct _cl_event {
  const cl_icd_dispatch* dispatch;
};

// The platform and its one device are never released: their handles are the objects.
struct _cl_platform_id {
  const cl_icd_dispatch* dispatch = &ventus::cl::kDispatch;
};

// The one simulated Ventus device, run through the C++ runtime (`runtime`). Every
// device-memory access and launch holds `lock`: commands of several queues run on several
// threads and share the device.
struct _cl_device_id {
  const cl_icd_dispatch* dispatch = &ventus::cl::kDispatch;
  std::unique_ptr<ventus::rt::Device> runtime;
  std::mutex lock;
  ventus::sim::DeviceConfig config;
  // VENTUS_TIMING (docs/opencl.md, "Timing"): every launch runs with the cycle model, and
  // profiling reports simulated device time. timing_error: why the timing variables cannot
  // be used; contexts are then refused (CL_DEVICE_NOT_AVAILABLE).
  std::optional<ventus::timing::Config> timing;
  std::string timing_error;
  // VENTUS_STATS_JSON: rewritten after every timed kernel command. Under `lock`.
  std::string stats_json;
  bool stats_json_failed = false;  // reported once on stderr
  uint64_t timed_launches = 0;
  ventus::timing::LaunchTiming timing_total;
};

namespace ventus::cl {

// What every body shares. Reference counts are guarded by the registry's lock:
// - app: the application's references (the create call's, clRetain*); clRelease* with none
//   left is an over-release (CL_INVALID_<OBJECT>), never a release of someone else's.
// - attached: other objects that refer to this one (a buffer its context, an event its
//   queue). `app + attached` is what CL_*_REFERENCE_COUNT reports.
// - pins: commands in flight that use the object.
// The body is destroyed when all three are zero; its handle then becomes a tombstone.
struct Object {
  explicit Object(Kind k) : kind(k) {}
  virtual ~Object() = default;
  Object(const Object&) = delete;
  Object& operator=(const Object&) = delete;

  const Kind kind;
  void* cell = nullptr;  // the handle (publish() allocates it)
  uint32_t app = 1, attached = 0, pins = 0;
};

template <typename Handle, Kind K>
struct Typed : Object {
  using HandleType = Handle;
  static constexpr Kind kKind = K;
  Typed() : Object(K) {}
  Handle* handle() const { return static_cast<Handle*>(cell); }
};

// Gives a completely built object its handle and makes it visible to the API, with
// `app_references` references of the application (0 for an event no one asked for).
void publish(Object* object, uint32_t app_references = 1);
// The platform and the device (handles that are their own objects).
void publish_static(const void* handle, Kind kind);

// The live object of `kind` behind `handle`; nullptr for NULL, a foreign pointer, an object
// of another kind or a released one.
Object* lookup(const void* handle, Kind kind);
template <typename Body>
Body* live(const typename Body::HandleType* handle) {
  return static_cast<Body*>(lookup(handle, Body::kKind));
}
bool is_live(const void* handle, Kind kind);
// The handle of an object that may be absent (a sub-buffer's parent, a user event's queue).
template <typename Body>
typename Body::HandleType* handle_of(const Body* object) {
  return object != nullptr ? object->handle() : nullptr;
}

// clRetainX / clReleaseX: `invalid` for a handle that is not a live object of `kind`, and
// for a release when the application holds no reference any more.
cl_int retain_handle(const void* handle, Kind kind, cl_int invalid);
cl_int release_handle(const void* handle, Kind kind, cl_int invalid);
cl_uint reference_count(const Object* object);

// References of other objects (`attached`) and of commands (`pins`).
void attach(Object* object);
void detach(Object* object);
void pin(Object* object);
void unpin(Object* object);

// An owning pin (pinned on copy, unpinned on destruction), for commands that must keep
// their objects alive until they have run.
template <typename T>
class Ref {
 public:
  Ref() = default;
  explicit Ref(T* object) : object_(object) {
    if (object_) pin(object_);
  }
  Ref(const Ref& other) : Ref(other.object_) {}
  Ref(Ref&& other) noexcept : object_(std::exchange(other.object_, nullptr)) {}
  Ref& operator=(Ref other) noexcept {
    std::swap(object_, other.object_);
    return *this;
  }
  ~Ref() {
    if (object_) unpin(object_);
  }
  T* get() const { return object_; }
  T* operator->() const { return object_; }
  explicit operator bool() const { return object_ != nullptr; }

 private:
  T* object_ = nullptr;
};

// The platform and its one device (created on first use, never destroyed: pool threads
// may still use the device while the process exits).
_cl_platform_id* the_platform();
_cl_device_id* the_device();

// Monotonic nanoseconds, the clock of profiling timestamps.
cl_ulong now_ns();

struct Context : Typed<_cl_context, Kind::context> {
  ~Context() override;
  std::vector<cl_context_properties> properties;  // as given, 0-terminated (empty: none)
  void(CL_CALLBACK* notify)(const char*, const void*, size_t, void*) = nullptr;
  void* notify_data = nullptr;
  std::mutex destructor_lock;
  std::vector<std::pair<void(CL_CALLBACK*)(cl_context, void*), void*>> destructor_callbacks;
  // Reports an error that happened outside an API call (a kernel fault) to the
  // application's callback, and to stderr.
  void report(const std::string& message);
  // Tells only the application's callback: why a call was refused (the call's error code
  // says what; refusals are the application's to handle), or that a kernel of an abandoned
  // context was cancelled (nobody waits for it: programs that exit without clFinish, such
  // as PyOpenCL's at garbage collection, would print a line for each queued launch).
  void notify_callback_only(const std::string& message);

  // Kernels nobody can wait for any more are cancelled: once the application holds
  // nothing of the context (no reference to it, to a queue of it or to an event of it, and
  // no event callback of it), its running and queued kernels stop (docs/opencl.md,
  // "Execution"). The counts follow the application's own references (Object::app), not
  // the ones other objects and queued commands hold; the registry calls these when an
  // object's `app` count reaches or leaves zero.
  void application_retained();            // the context's own `app` count left zero
  void application_released();            // ... reached zero
  void object_held();                     // a queue, an event or an event callback
  void object_let_go();                   // the application released its last reference to one
  std::stop_token kernel_cancel_token();  // for a kernel command, when it is enqueued

 private:
  void cancel_kernels_if_abandoned();  // with abandon_lock held
  std::mutex abandon_lock;
  bool application_holds_context = true;  // its create call's reference
  cl_uint held_objects = 0;
  std::stop_source cancel_kernels;
};

struct Mem : Typed<_cl_mem, Kind::mem> {
  ~Mem() override;
  Context* context = nullptr;
  cl_mem_flags flags = 0;
  size_t size = 0;
  void* host_ptr = nullptr;  // the application's memory (CL_MEM_USE_HOST_PTR; as given)
  Mem* parent = nullptr;     // sub-buffers: the buffer they are part of
  size_t origin = 0;         // sub-buffers: the offset in the parent
  uint32_t address = 0;      // device address of byte 0
  // Root buffers: host memory that maps of buffers without CL_MEM_USE_HOST_PTR return
  // (allocated on the first map, 128-byte aligned).
  std::unique_ptr<uint8_t, void (*)(void*)> shadow{nullptr, nullptr};
  struct Mapping {
    void* pointer;
    size_t offset, size;
    cl_map_flags flags;
  };
  std::mutex lock;
  std::vector<Mapping> mappings;
  std::vector<std::pair<void(CL_CALLBACK*)(cl_mem, void*), void*>> destructor_callbacks;

  Mem* root() { return parent ? parent : this; }
  // The host memory mirroring this buffer: the application's with USE_HOST_PTR, else the
  // root's shadow (allocated here).
  uint8_t* host_mirror();
  bool uses_host_ptr() const { return (flags & CL_MEM_USE_HOST_PTR) != 0; }
};

struct Program : Typed<_cl_program, Kind::program> {
  ~Program() override;
  Context* context = nullptr;
  std::mutex lock;
  std::string source;           // programs from source
  std::vector<uint8_t> binary;  // the ELF of the executable, or an object (bitcode)
  std::shared_ptr<const ventus::rt::Program> executable;
  cl_build_status build_status = CL_BUILD_NONE;
  cl_program_binary_type binary_type = CL_PROGRAM_BINARY_TYPE_NONE;
  std::string build_options, build_log;
  bool from_binary = false;
  std::atomic<int> kernels{0};  // kernel objects attached (a rebuild is then refused)
};

struct Kernel : Typed<_cl_kernel, Kind::kernel> {
  ~Kernel() override;
  Program* program = nullptr;
  std::shared_ptr<const ventus::rt::Program> executable;
  const ventus::rt::KernelInfo* info = nullptr;  // inside *executable
  struct Arg {
    enum class Type { unset, value, mem, local } type = Type::unset;
    std::vector<uint8_t> bytes;  // value
    cl_mem mem = nullptr;        // mem: the handle, resolved at each launch (NULL: a NULL buffer)
    uint64_t local_bytes = 0;    // local
  };
  std::mutex lock;
  std::vector<Arg> args;
};

struct Queue;

struct Event : Typed<_cl_event, Kind::event> {
  ~Event() override;
  Context* context = nullptr;
  Queue* queue = nullptr;  // nullptr for user events
  cl_command_type type = CL_COMMAND_USER;
  std::mutex lock;
  std::condition_variable changed;
  cl_int status = CL_QUEUED;
  cl_ulong queued = 0, submitted = 0, started = 0, ended = 0;
  // A kernel command run with timing: its simulated device time; it ends this long after
  // it started (profiling END - START), whatever the host took.
  std::optional<cl_ulong> device_duration_ns;
  struct Callback {
    cl_int trigger;
    void(CL_CALLBACK* function)(cl_event, cl_int, void*);
    void* data;
  };
  std::vector<Callback> callbacks;
  std::vector<std::function<void()>> final_hooks;  // the platform's own, see when_final

  // What a status change triggered: run it (run_triggered) once no lock is held, so
  // that a callback may make any call, blocking ones included.
  struct Triggered {
    cl_int status;
    std::vector<Callback> callbacks;
    std::vector<std::function<void()>> hooks;
  };
  // Moves to `new_status` (stamping the time); false when the status was final already.
  bool advance(cl_int new_status, Triggered& triggered);
  void run_triggered(Triggered& triggered);
  void set_status(cl_int new_status);
  bool is_final();
  // Calls `hook` once the event is complete or failed; false (hook not kept) when it is
  // already.
  bool when_final(std::function<void()> hook);
  // Blocks until the event is complete or failed; returns its final status. On a pool
  // thread (a callback's blocking call), runs other commands meanwhile.
  cl_int wait();
};

// What a queue runs: one command and the events it waits for.
struct Command {
  Ref<Event> event;
  std::vector<Ref<Event>> wait_list;
  std::function<cl_int(Event&)> work;  // returns CL_COMPLETE or a negative status
};

// A command queue. Its commands run one after the other, in the order they were queued,
// on the threads of a pool that all queues share (a queue has no thread of its own), or in
// the application's thread (a blocking command on an idle queue, see submit).
struct Queue : Typed<_cl_command_queue, Kind::queue> {
  ~Queue() override;
  Context* context = nullptr;
  cl_device_id device = nullptr;
  cl_command_queue_properties properties = 0;
  bool profiling() const { return (properties & CL_QUEUE_PROFILING_ENABLE) != 0; }

  // Guarded by `lock`.
  std::mutex lock;
  std::condition_variable changed;  // the queue became idle and empty (drain waits for it)
  std::deque<Command> pending;
  bool busy = false;     // a thread is running the head command
  bool queued = false;   // a pool task will look at the queue
  bool blocked = false;  // the head waits for an event, which will reschedule the queue
  // The profiling END of the queue's last command: the next one starts no earlier (with
  // timing a kernel's END may lie ahead of the host clock).
  std::atomic<cl_ulong> last_end{0};

  // Queues `command` and lets the pool run it.
  void enqueue(Command command);
  // Runs a blocking command at once in the calling thread when the queue is idle and its
  // wait list complete (no hand-over to a pool thread and back); false when it has to be
  // queued instead.
  bool try_run_inline(Command& command);
  // Blocks until every command queued so far has run (helping the pool on a pool thread).
  void drain();
  // A pool task: runs the head command if it may run now.
  void serve();
  // Lets the pool look at the queue (under `lock`).
  void schedule_locked();
  // Runs `command` (its wait list is complete) and makes the queue idle again. With
  // may_go_on (a pool task), true when the caller is to serve the queue again itself: the
  // next command can run and no callback of this one ran on the way.
  bool execute(Command& command, bool may_go_on);
};

// The threads that run every queue's commands (and the callbacks of their events): a
// fixed number, however many queues, started with the first command.
constexpr unsigned kPoolThreads = 4;
// Waits for `done` (checked under `lock`, notified through `changed`); on a pool thread it
// runs pool tasks meanwhile, so that a blocking call made by a callback cannot stall the
// commands it waits for.
void wait_helping(std::unique_lock<std::mutex>& lock, std::condition_variable& changed,
                  const std::function<bool()>& done);

}  // namespace ventus::cl
