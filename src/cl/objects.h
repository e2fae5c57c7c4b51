// The OpenCL objects of the Ventus platform (docs/opencl.md). Every handle the API hands
// out points at one of these structs; its first member is the ICD dispatch table, as the
// cl_khr_icd extension requires, so that the ICD loader can route calls to this library.
#pragma once

#include "cl_headers.h"

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
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "ventus/runtime.h"

struct _cl_platform_id;
struct _cl_device_id;

namespace ventus::cl {

extern const cl_icd_dispatch kDispatch;

enum class Kind : uint32_t {
  platform = 0x564e5450,  // "PTNV": tags make a stale or foreign pointer recognizable
  device,
  context,
  queue,
  mem,
  program,
  kernel,
  event,
};

// No virtual functions: the dispatch pointer must be the first word of every object
// (a vtable pointer would take its place). release() deletes through the kind tag.
struct Object {
  const cl_icd_dispatch* dispatch = &kDispatch;
  Kind kind;
  std::atomic<cl_uint> references{1};
  explicit Object(Kind k) : kind(k) {}
};

// Live objects, so that a released or foreign handle yields CL_INVALID_* instead of a crash.
void register_object(Object* object);
void unregister_object(Object* object);
bool is_live(const void* handle, Kind kind);

// The application's release of a queue or event: the context learns when the application
// lets go of the last one (_cl_context::object_let_go). Call before release().
void application_release(std::atomic<cl_uint>& references, cl_context context);

// Reference counting shared by every object kind but the platform and the root device.
void retain(Object* object);
void release(Object* object);

// clRetainX / clReleaseX: `invalid` (CL_INVALID_CONTEXT, ...) for a handle that is not a
// live object of that kind.
inline cl_int retain_handle(Object* handle, Kind kind, cl_int invalid) {
  if (!is_live(handle, kind)) return invalid;
  retain(handle);
  return CL_SUCCESS;
}
inline cl_int release_handle(Object* handle, Kind kind, cl_int invalid) {
  if (!is_live(handle, kind)) return invalid;
  release(handle);
  return CL_SUCCESS;
}

// An owning reference (retain on copy, release on destruction), for commands that must keep
// their objects alive until they have run.
template <typename T>
class Ref {
 public:
  Ref() = default;
  explicit Ref(T* object) : object_(object) {
    if (object_) retain(object_);
  }
  Ref(const Ref& other) : Ref(other.object_) {}
  Ref(Ref&& other) noexcept : object_(std::exchange(other.object_, nullptr)) {}
  Ref& operator=(Ref other) noexcept {
    std::swap(object_, other.object_);
    return *this;
  }
  ~Ref() {
    if (object_) release(object_);
  }
  T* get() const { return object_; }
  T* operator->() const { return object_; }
  explicit operator bool() const { return object_ != nullptr; }

 private:
  T* object_ = nullptr;
};

// The platform and its one device (created on first use, never destroyed: queue threads
// may still use the device while the process exits).
_cl_platform_id* the_platform();
_cl_device_id* the_device();

// Monotonic nanoseconds, the clock of profiling timestamps.
cl_ulong now_ns();

}  // namespace ventus::cl

struct _cl_platform_id : ventus::cl::Object {
  _cl_platform_id() : Object(ventus::cl::Kind::platform) {}
};

// The one simulated Ventus device. Every device-memory access and launch holds `lock`:
// queues run on their own threads and share the device.
struct _cl_device_id : ventus::cl::Object {
  _cl_device_id() : Object(ventus::cl::Kind::device) {}
  std::unique_ptr<ventus::rt::Device> device;
  std::mutex lock;
  ventus::sim::DeviceConfig config;
};

struct _cl_context : ventus::cl::Object {
  _cl_context() : Object(ventus::cl::Kind::context) {}
  ~_cl_context();
  std::vector<cl_context_properties> properties;  // as given, 0-terminated (empty: none)
  void(CL_CALLBACK* notify)(const char*, const void*, size_t, void*) = nullptr;
  void* notify_data = nullptr;
  std::mutex destructor_lock;
  std::vector<std::pair<void(CL_CALLBACK*)(cl_context, void*), void*>> destructor_callbacks;
  // Reports an error that happened outside an API call (a kernel fault) to the
  // application's callback, and to stderr.
  void report(const std::string& message);

  // Kernels nobody can wait for any more are cancelled: once the application holds
  // nothing of the context (no reference to it, to a queue of it or to an event of it, and
  // no event callback of it), its running and queued kernels stop (docs/opencl.md,
  // "Execution"). The counts are the application's own references, not the internal ones
  // that queued commands hold.
  void application_retained();
  void application_released();
  void object_held();                     // a queue or an event handed to the application
  void object_let_go();                   // the application released its last reference to one
  std::stop_token kernel_cancel_token();  // for a kernel command, when it is enqueued

 private:
  void cancel_kernels_if_abandoned();  // with abandon_lock held
  std::mutex abandon_lock;
  cl_uint application_references = 1;
  cl_uint held_objects = 0;
  std::stop_source cancel_kernels;
};

struct _cl_mem : ventus::cl::Object {
  _cl_mem() : Object(ventus::cl::Kind::mem) {}
  ~_cl_mem();
  cl_context context = nullptr;
  cl_mem_flags flags = 0;
  size_t size = 0;
  void* host_ptr = nullptr;  // the application's memory (CL_MEM_USE_HOST_PTR; as given)
  cl_mem parent = nullptr;   // sub-buffers: the buffer they are part of
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

  _cl_mem* root() { return parent ? parent : this; }
  // The host memory mirroring this buffer: the application's with USE_HOST_PTR, else the
  // root's shadow (allocated here).
  uint8_t* host_mirror();
  bool uses_host_ptr() const { return (flags & CL_MEM_USE_HOST_PTR) != 0; }
};

struct _cl_program : ventus::cl::Object {
  _cl_program() : Object(ventus::cl::Kind::program) {}
  ~_cl_program();
  cl_context context = nullptr;
  std::mutex lock;
  std::string source;               // programs from source
  std::vector<uint8_t> binary;      // the ELF of the executable, or an object (bitcode)
  std::shared_ptr<const ventus::rt::Program> executable;
  cl_build_status build_status = CL_BUILD_NONE;
  cl_program_binary_type binary_type = CL_PROGRAM_BINARY_TYPE_NONE;
  std::string build_options, build_log;
  bool from_binary = false;
  std::atomic<int> kernels{0};  // kernel objects attached (a rebuild is then refused)
};

struct _cl_kernel : ventus::cl::Object {
  _cl_kernel() : Object(ventus::cl::Kind::kernel) {}
  ~_cl_kernel();
  cl_program program = nullptr;
  std::shared_ptr<const ventus::rt::Program> executable;
  const ventus::rt::KernelInfo* info = nullptr;  // inside *executable
  struct Arg {
    enum class Type { unset, value, mem, local } type = Type::unset;
    std::vector<uint8_t> bytes;  // value
    cl_mem mem = nullptr;        // mem (nullptr: a NULL buffer)
    size_t local_bytes = 0;      // local
  };
  std::mutex lock;
  std::vector<Arg> args;
};

namespace ventus::cl {

// What a queue runs: one command and the events it waits for.
struct Command {
  Ref<_cl_event> event;
  std::vector<Ref<_cl_event>> wait_list;
  std::function<cl_int()> work;  // returns CL_COMPLETE or a negative status
};

// A queue's state, shared with its worker thread (which may outlive the queue object when
// the last reference goes away on the worker itself).
struct QueueCore {
  std::mutex lock;
  std::condition_variable changed;
  std::deque<Command> pending;
  bool running = false;  // a command is being executed
  bool stopping = false;
  void run();  // the worker thread
  // A blocking command on an idle queue whose wait list is complete runs in the calling
  // thread (no hand-over to the worker and back); false when it has to be queued.
  bool try_run_inline(Command& command);
  static void execute(Command& command);
};

}  // namespace ventus::cl

struct _cl_command_queue : ventus::cl::Object {
  _cl_command_queue() : Object(ventus::cl::Kind::queue) {}
  ~_cl_command_queue();
  cl_context context = nullptr;
  cl_device_id device = nullptr;
  cl_command_queue_properties properties = 0;
  std::shared_ptr<ventus::cl::QueueCore> core;
  std::thread worker;
  std::atomic<cl_uint> application_references{1};  // see _cl_context::object_let_go
  bool profiling() const { return (properties & CL_QUEUE_PROFILING_ENABLE) != 0; }
};

struct _cl_event : ventus::cl::Object {
  _cl_event() : Object(ventus::cl::Kind::event) {}
  ~_cl_event();
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;  // nullptr for user events
  cl_command_type type = CL_COMMAND_USER;
  std::mutex lock;
  std::condition_variable changed;
  cl_int status = CL_QUEUED;
  cl_ulong queued = 0, submitted = 0, started = 0, ended = 0;
  // The application's references (0: only commands hold it); an event with a callback
  // counts as held for good (_cl_context::object_let_go).
  std::atomic<cl_uint> application_references{0};
  struct Callback {
    cl_int trigger;
    void(CL_CALLBACK* function)(cl_event, cl_int, void*);
    void* data;
  };
  std::vector<Callback> callbacks;

  // Moves to `new_status` (stamping the time) and runs the callbacks it triggers.
  void set_status(cl_int new_status);
  // Blocks until the event is complete or failed; returns its final status.
  cl_int wait();
};

// A vtable pointer would displace the dispatch pointer from the first word.
static_assert(!std::is_polymorphic_v<_cl_context> && !std::is_polymorphic_v<_cl_mem> &&
                  !std::is_polymorphic_v<_cl_event> && !std::is_polymorphic_v<_cl_kernel> &&
                  !std::is_polymorphic_v<_cl_program> && !std::is_polymorphic_v<_cl_command_queue>,
              "cl_khr_icd: the dispatch table pointer must come first");
