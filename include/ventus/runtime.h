// The C++ runtime: devices, buffers, programs and kernel launches in the OpenCL manner.
//
//   ventus::rt::Device device;                       // the simulated GPU
//   auto program = ventus::rt::Program::from_assembly_files({"saxpy.s"});
//   auto x = ventus::rt::Buffer::from(device, host_x);   // std::vector<float>
//   auto y = ventus::rt::Buffer::from(device, host_y);
//   ventus::rt::launch(device, program, "saxpy", {n}, {64}, x, y, 2.0f, n);
//   std::vector<float> result = y.download<float>();
//
// launch() plans the launch once (plan_launch: the grid, the warps, the local-memory layout,
// the argument buffer, the private memory and the kernel metadata words, checked against
// the device's rule), then builds what the public Ventus runtime builds (docs/driver.md):
// the argument buffer, the 16-word kernel metadata buffer (KNL), the private memory and the
// print buffer, and runs the kernel in the calling thread. A launch the device cannot run
// raises sim::LaunchRefused (which limit, requested and available); a fault raises
// ventus::Error with the device's description (kernel, workgroup, warp, pc, instruction);
// the device stays usable.
//
// A Buffer belongs to the Device it was created on: a launch on another device rejects it,
// and once its device is destroyed every operation on it throws ventus::Error (destroying
// it is still safe). Programs belong to no device; any device can launch them.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <stop_token>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "ventus/abi.h"
#include "ventus/asm.h"
#include "ventus/device.h"
#include "ventus/elf.h"
#include "ventus/kernel_metadata.h"

namespace ventus::driver {
class Context;
}  // namespace ventus::driver

namespace ventus::rt {

using Stats = sim::LaunchStats;
// Receives kernel printf output (already formatted) or trace lines.
using TextSink = std::function<void(std::string_view text)>;

class Device {
 public:
  explicit Device(const sim::DeviceConfig& config = {});
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  const sim::DeviceConfig& config() const;

  // Raw device memory (Buffer is the RAII way). free() refuses a Buffer's memory.
  uint32_t allocate(uint64_t bytes);
  void free(uint32_t address);
  void write(uint32_t address, const void* data, uint64_t bytes);
  void read(uint32_t address, void* data, uint64_t bytes) const;
  size_t buffer_count() const;  // allocated buffers (for leak checks)

  // Kernel printf output; empty: stdout. Trace: the commit log of later launches, a line at
  // a time (without '\n'), or written straight into a sim::TraceSink; empty or null: none.
  void set_print_sink(TextSink sink);
  void set_trace_sink(TextSink sink);
  void set_trace_sink(std::shared_ptr<sim::TraceSink> sink);
  // Called every `interval` seconds while a later launch runs (from a simulating thread).
  void set_progress_handler(sim::ProgressHandler handler, double interval = 2.0);

  // The fault of the last launch, if it faulted.
  std::optional<sim::Fault> last_fault() const;

  // Later launches run with the cycle model of this configuration (docs/timing.md: results
  // are the same, and each launch also says how many cycles the hardware would take);
  // nullopt: functional only. ventus::Error when the configuration cannot run
  // (timing::validate).
  //   device.set_timing(ventus::timing::load("verilog-release"));
  //   ventus::rt::launch(device, ...);
  //   uint64_t cycles = device.last_timing()->cycles;
  void set_timing(std::optional<timing::Config> config);
  std::optional<timing::Config> timing() const;
  // Receives the timeline of later timed launches; call sink->begin_launch(kernel, offset)
  // before each. nullptr: none. The sink must outlive those launches.
  void set_timeline(timing::TimelineSink* sink);
  // What the cycle model said of the last launch (also of one that faulted: the cycles up to
  // the fault); nullopt when it ran without timing.
  std::optional<timing::LaunchTiming> last_timing() const;

  // Later launches run with the memory checker (sim::Memcheck, docs/driver.md "Memory
  // checking"): a launch that accesses memory outside every buffer, the program, its
  // workgroup's local memory or its threads' private memory runs to its end and then
  // raises ventus::Error listing each invalid access.
  void set_memcheck(bool on);
  // The invalid accesses of the last launch (with memcheck on; at most 100).
  std::vector<sim::MemcheckError> last_memcheck_errors() const;
  // The translating tier for later launches (sim::JitMode); nullopt: VENTUS_JIT decides.
  void set_jit(std::optional<sim::JitMode> mode);

  // Puts the program into device memory unless it is already there (launch does this).
  void load(const class Program& program);

  driver::Context& context() { return *context_; }
  // Unique in the process: which device a Buffer belongs to.
  uint64_t id() const { return id_; }

 private:
  friend class Buffer;
  std::shared_ptr<driver::Context> context_;  // Buffers hold weak references
  uint64_t id_ = 0;
  uint64_t loaded_program_ = 0;  // Program::id() of the program in device memory
};

// A device buffer, released on destruction.
class Buffer {
 public:
  Buffer(Device& device, uint64_t bytes);
  ~Buffer();
  Buffer(Buffer&& other) noexcept;
  Buffer& operator=(Buffer&& other) noexcept;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  template <typename T>
  static Buffer from(Device& device, std::span<const T> data) {
    static_assert(std::is_trivially_copyable_v<T>);
    Buffer buffer(device, std::max<uint64_t>(data.size_bytes(), 1));
    if (!data.empty()) buffer.write(0, data.data(), data.size_bytes());
    return buffer;
  }
  template <typename T>
  static Buffer from(Device& device, const std::vector<T>& data) {
    return from(device, std::span<const T>(data));
  }

  uint32_t address() const { return address_; }
  uint64_t size() const { return size_; }
  uint64_t device_id() const { return device_id_; }  // Device::id(); 0 once moved from
  uint64_t id() const { return id_; }                // unique in the process; 0 once moved from

  void write(uint64_t offset, const void* data, uint64_t bytes);
  void read(uint64_t offset, void* data, uint64_t bytes) const;
  template <typename T>
  void upload(std::span<const T> data, uint64_t first_element = 0) {
    write(first_element * sizeof(T), data.data(), data.size_bytes());
  }
  template <typename T>
  std::vector<T> download() const {
    std::vector<T> out(size_ / sizeof(T));
    if (!out.empty()) read(0, out.data(), out.size() * sizeof(T));
    return out;
  }

 private:
  // The device's context, for an access; ventus::Error when moved from or the device is gone.
  std::shared_ptr<driver::Context> context_for(const char* operation) const;

  std::weak_ptr<driver::Context> context_;
  uint64_t device_id_ = 0;
  uint64_t id_ = 0;  // also the task of its allocation (driver::Context)
  uint32_t address_ = 0;
  uint64_t size_ = 0;
};

// A linked kernel program (ELF) and its kernels.
class Program {
 public:
  static Program from_elf_file(const std::string& path);
  static Program from_elf_bytes(std::span<const uint8_t> bytes,
                                const std::string& name = "<memory>");
  static Program from_image(elf::Image image);
  // Assembles and links with the default start code (ventus as).
  static Program from_assembly(const std::vector<assembler::SourceFile>& sources,
                               const assembler::Options& options = {});
  static Program from_assembly_files(const std::vector<std::string>& paths,
                                     const assembler::Options& options = {});

  const elf::Image& image() const { return image_; }
  // Entry address of a kernel; ventus::Error naming the available kernels when there is
  // none. The kernels are those of the compiler's metadata (.ventus.kernels) when the
  // program has it, else every global function symbol but the start code's.
  uint32_t kernel_address(std::string_view name) const;
  std::vector<std::string> kernel_names() const;
  // The compiler's description of a kernel; nullptr for programs without one (assembly).
  const KernelInfo* kernel_info(std::string_view name) const;
  uint64_t id() const { return id_; }

 private:
  elf::Image image_;
  std::vector<KernelInfo> kernels_;
  uint64_t id_ = 0;
};

// The start code's stack per warp in local memory: the first kWarpStackBytes x warps bytes
// of a workgroup's local memory (KernelInfo::stack_bytes x warps for a kernel that
// declares more, and 1 KiB for programs without metadata).
using abi::kWarpStackBytes;

// A workgroup's local memory holds the warps' stacks, the kernel's __local
// variables, then the __local buffers of the arguments; the variables and each buffer
// start at a multiple of this, the size of the largest OpenCL C type (long16), so every
// object in them is naturally aligned (CL_DEVICE_MEM_BASE_ADDR_ALIGN reports it).
inline constexpr uint32_t kLocalDataAlign = 128;

// One kernel argument: a buffer's address, a scalar's raw 32 bits, the bytes of a larger
// value (a vector, a struct), or the size of a __local buffer the runtime places in the
// workgroup's local memory.
struct Arg {
  uint32_t bits = 0;
  std::vector<uint8_t> data;     // by-value bytes (when set, instead of bits)
  uint64_t local_bytes = 0;      // with is_local: bytes of local memory
  bool is_local = false;
  bool is_buffer = false;  // bits is the address of Buffer buffer_id of buffer_device
  uint64_t buffer_device = 0;
  uint64_t buffer_id = 0;

  Arg(const Buffer& buffer)
      : bits(buffer.address()),
        is_buffer(true),
        buffer_device(buffer.device_id()),
        buffer_id(buffer.id()) {}
  Arg(int32_t value) : bits(static_cast<uint32_t>(value)) {}
  Arg(uint32_t value) : bits(value) {}
  Arg(float value) { std::memcpy(&bits, &value, sizeof bits); }
  Arg(double) = delete;  // say 2.0f: kernels take fp32
  static Arg raw(uint32_t bits) { return Arg(bits); }
  static Arg bytes(std::span<const uint8_t> value) {
    Arg a(0u);
    a.data.assign(value.begin(), value.end());
    return a;
  }
  template <typename T>
  static Arg value(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    return bytes(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(&v), sizeof v));
  }
  static Arg local(uint64_t bytes) {
    Arg a(0u);
    a.is_local = true;
    a.local_bytes = bytes;
    return a;
  }
};

// An NDRange of 1 to 3 dimensions.
struct Range {
  uint32_t dims = 1;
  uint32_t size[3] = {1, 1, 1};
  Range(uint32_t x) : dims(1), size{x, 1, 1} {}
  Range(uint32_t x, uint32_t y) : dims(2), size{x, y, 1} {}
  Range(uint32_t x, uint32_t y, uint32_t z) : dims(3), size{x, y, z} {}
  // The product of the sizes; UINT64_MAX when it does not fit 64 bits.
  uint64_t total() const {
    uint64_t xy = 0, xyz = 0;
    if (__builtin_mul_overflow(uint64_t{size[0]}, uint64_t{size[1]}, &xy) ||
        __builtin_mul_overflow(xy, uint64_t{size[2]}, &xyz))
      return UINT64_MAX;
    return xyz;
  }
};

struct LaunchOptions {
  uint32_t threads_per_warp = 32;            // wf_size; warps = ceil(local items / this)
  uint32_t global_offset[3] = {0, 0, 0};     // KNL global offset x/y/z
  uint32_t local_memory_bytes = 0;           // the kernel's own local data, after the stacks
  uint32_t private_bytes_per_thread = 1024;  // pdsSize (the guide's default: 1 KiB)
  uint32_t print_buffer_bytes = 1 << 20;     // 0: no print buffer
  uint32_t sgpr_usage = 32;
  uint32_t vgpr_usage = 32;
  std::stop_token cancel;  // a stop request ends the launch with "launch cancelled by the host"
};

// Everything a launch is, computed once from the kernel, the sizes, the arguments and the
// options, and checked against the device's rule (sim::check_launch). execute() only
// places it in device memory and runs it.
struct LaunchPlan {
  // What the device runs. Its addresses (knl_address, pds_base) are execute()'s to fill.
  sim::KernelLaunch device;
  uint32_t work_dim = 1;
  uint32_t global_size[3] = {1, 1, 1};
  uint32_t local_size[3] = {1, 1, 1};
  // The workgroup's local memory: the warps' stacks, then local data; for every argument,
  // the offset of its __local buffer from the workgroup's base (CSR_LDS), or 0.
  std::vector<uint32_t> local_argument_offsets;
  // The argument buffer's bytes, __local arguments' offsets written in.
  std::vector<uint8_t> argument_bytes;
  uint64_t private_bytes = 0;  // of the resident workgroups (sim::private_memory_bytes)
  uint32_t print_buffer_bytes = 0;
  // The kernel metadata words (KNL); execute() fills in the argument buffer's and the print
  // buffer's addresses.
  uint32_t knl[abi::kKnlWords] = {};
  std::stop_token cancel;
};

// `bytes` of local data rounded up to kLocalDataAlign; UINT64_MAX past 64 bits. Inline: the
// compiler checks its kernels' local memory with the runtime's layout.
constexpr uint64_t align_local_data(uint64_t bytes) {
  constexpr uint64_t align = kLocalDataAlign;
  return bytes > UINT64_MAX - (align - 1) ? UINT64_MAX : (bytes + align - 1) / align * align;
}

// Plans a launch of `kernel` for a device of `config`. A launch the device cannot run is a
// sim::LaunchRefused that says which limit, by how much; other bad input (no such kernel)
// a ventus::Error.
LaunchPlan plan_launch(const sim::DeviceConfig& config, const Program& program,
                       std::string_view kernel, const Range& global, const Range& local,
                       std::span<const Arg> args, const LaunchOptions& options = {});
// Places the plan in device memory (argument, KNL, private and print buffers) and runs it
// in the calling thread.
Stats execute(Device& device, const Program& program, const LaunchPlan& plan);

// The largest workgroup (work-items) a kernel with `info` (nullptr: the options' registers)
// can run with, `local_data_bytes` of __local data besides the warps' stacks: the same rule
// plan_launch applies. 0 when no workgroup fits.
uint32_t max_work_group_size(const sim::DeviceConfig& config, const KernelInfo* info,
                             uint64_t local_data_bytes, const LaunchOptions& options = {});

// Plans, checks the buffers belong to `device`, and executes.
Stats launch_impl(Device& device, const Program& program, std::string_view kernel,
                  const Range& global, const Range& local, std::span<const Arg> args,
                  const LaunchOptions& options);

inline Stats launch(Device& device, const Program& program, std::string_view kernel,
                    const Range& global, const Range& local, std::span<const Arg> args,
                    const LaunchOptions& options = {}) {
  return launch_impl(device, program, kernel, global, local, args, options);
}
inline Stats launch(Device& device, const Program& program, std::string_view kernel,
                    const Range& global, const Range& local, std::initializer_list<Arg> args,
                    const LaunchOptions& options = {}) {
  return launch_impl(device, program, kernel, global, local,
                     std::span<const Arg>(args.begin(), args.size()), options);
}
// launch(device, program, "saxpy", {n}, {64}, x, y, 2.0f, n)
template <typename... Args>
requires(sizeof...(Args) > 0 && (std::is_constructible_v<Arg, const Args&> && ...)) Stats
    launch(Device& device, const Program& program, std::string_view kernel, const Range& global,
           const Range& local, const Args&... args) {
  const Arg list[] = {Arg(args)...};
  return launch_impl(device, program, kernel, global, local, list, {});
}

}  // namespace ventus::rt
