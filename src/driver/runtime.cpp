// The C++ runtime (include/ventus/runtime.h) over driver::Context.
#include "ventus/runtime.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <utility>

#include "context.h"
#include "print_buffer.h"
#include "ventus/error.h"
#include "ventus/file.h"

namespace ventus::rt {
namespace {

uint64_t next_program_id() {
  static std::atomic<uint64_t> counter{0};
  return ++counter;
}

uint64_t next_device_id() {
  static std::atomic<uint64_t> counter{0};
  return ++counter;
}

// A Buffer's id is the task of its allocation; Device::allocate's buffers have task 0.
constexpr uint64_t kRawBufferTask = 0;
uint64_t next_buffer_id() {
  static std::atomic<uint64_t> counter{kRawBufferTask};
  return ++counter;
}

// Symbols of the start code, which are not kernels.
bool is_start_code_symbol(std::string_view name) {
  return name == "_start" || name == "spike_end";
}

}  // namespace

// ---- Device ----

Device::Device(const sim::DeviceConfig& config)
    : context_(std::make_shared<driver::Context>(config)), id_(next_device_id()) {}
Device::~Device() = default;

const sim::DeviceConfig& Device::config() const {
  return context_->config();
}
uint32_t Device::allocate(uint64_t bytes) {
  return context_->allocate(bytes, kRawBufferTask);
}
void Device::free(uint32_t address) {
  // Freeing a Buffer's memory here would let a later allocation reuse the address, which
  // the Buffer would then write and release.
  const std::optional<uint64_t> task = context_->task_of(address);
  if (task && *task != kRawBufferTask)
    throw Error(
        fmt::format("free: the buffer at 0x{:08x} belongs to an rt::Buffer, which "
                    "releases it when destroyed",
                    address));
  context_->free(address, kRawBufferTask);
}
void Device::write(uint32_t address, const void* data, uint64_t bytes) {
  context_->copy_to_device(address, data, bytes);
}
void Device::read(uint32_t address, void* data, uint64_t bytes) const {
  context_->copy_from_device(address, data, bytes);
}
size_t Device::buffer_count() const {
  return context_->buffer_count();
}
void Device::set_print_sink(TextSink sink) {
  context_->set_print_sink(std::move(sink));
}
void Device::set_trace_sink(TextSink sink) {
  context_->set_trace_sink(sink ? sim::trace_lines(std::move(sink)) : nullptr);
}
void Device::set_trace_sink(std::shared_ptr<sim::TraceSink> sink) {
  context_->set_trace_sink(std::move(sink));
}

void Device::set_progress_handler(sim::ProgressHandler handler, double interval) {
  context_->set_progress_handler(std::move(handler), interval);
}
std::optional<sim::Fault> Device::last_fault() const {
  return context_->last_fault();
}
void Device::set_jit(std::optional<sim::JitMode> mode) {
  context_->set_jit(mode);
}
void Device::set_timing(std::optional<timing::Config> config) {
  context_->set_timing(std::move(config));
}
std::optional<timing::Config> Device::timing() const {
  return context_->timing_config();
}
void Device::set_timeline(timing::TimelineSink* sink) {
  context_->set_timeline(sink);
}
std::optional<timing::LaunchTiming> Device::last_timing() const {
  return context_->last_timing();
}
void Device::set_memcheck(bool on) {
  context_->set_memcheck(on);
}
std::vector<sim::MemcheckError> Device::last_memcheck_errors() const {
  return context_->last_memcheck_errors();
}

void Device::load(const Program& program) {
  if (loaded_program_ == program.id()) return;
  context_->load_program(program.image());
  loaded_program_ = program.id();
}

// ---- Buffer ----

Buffer::Buffer(Device& device, uint64_t bytes)
    : context_(device.context_),
      device_id_(device.id()),
      id_(next_buffer_id()),
      address_(device.context_->allocate(bytes, id_)),
      size_(bytes) {}

Buffer::~Buffer() {
  const std::shared_ptr<driver::Context> context = context_.lock();
  if (context == nullptr) return;  // moved from, or the device is gone with its memory
  try {
    context->free(address_, id_);
  } catch (const Error&) {
    // Released already (free_task through the driver's context); nothing to undo.
  }
}

Buffer::Buffer(Buffer&& other) noexcept
    : context_(std::exchange(other.context_, {})),
      device_id_(std::exchange(other.device_id_, 0)),
      id_(std::exchange(other.id_, 0)),
      address_(other.address_),
      size_(other.size_) {}

Buffer& Buffer::operator=(Buffer&& other) noexcept {
  if (this != &other) {
    Buffer old(std::move(*this));
    context_ = std::exchange(other.context_, {});
    device_id_ = std::exchange(other.device_id_, 0);
    id_ = std::exchange(other.id_, 0);
    address_ = other.address_;
    size_ = other.size_;
  }
  return *this;
}

std::shared_ptr<driver::Context> Buffer::context_for(const char* operation) const {
  if (device_id_ == 0) throw Error(fmt::format("buffer: {} a moved-from buffer", operation));
  std::shared_ptr<driver::Context> context = context_.lock();
  if (context == nullptr)
    throw Error(fmt::format("buffer at 0x{:08x}: {} a buffer whose device was destroyed", address_,
                            operation));
  return context;
}

void Buffer::write(uint64_t offset, const void* data, uint64_t bytes) {
  const std::shared_ptr<driver::Context> context = context_for("write to");
  if (offset > size_ || bytes > size_ - offset)
    throw Error(
        fmt::format("buffer at 0x{:08x}: write of {} bytes at offset {} exceeds its {} bytes",
                    address_, bytes, offset, size_));
  if (bytes != 0) context->copy_to_device(address_ + offset, data, bytes);
}

void Buffer::read(uint64_t offset, void* data, uint64_t bytes) const {
  const std::shared_ptr<driver::Context> context = context_for("read from");
  if (offset > size_ || bytes > size_ - offset)
    throw Error(
        fmt::format("buffer at 0x{:08x}: read of {} bytes at offset {} exceeds its {} bytes",
                    address_, bytes, offset, size_));
  if (bytes != 0) context->copy_from_device(address_ + offset, data, bytes);
}

// ---- Program ----

namespace {

// The `.ventus.kernels` section of a compiled program (JSON, docs/compiler.md).
std::vector<KernelInfo> parse_kernel_info(const elf::Image& image) {
  const elf::Section* metadata = nullptr;
  for (const elf::Section& section : image.sections) {
    if (section.name != ".ventus.kernels") continue;
    if (metadata != nullptr) throw Error("the program has two .ventus.kernels sections");
    metadata = &section;
  }
  if (metadata == nullptr) return {};
  return parse_kernel_metadata(std::string_view(
      reinterpret_cast<const char*>(metadata->bytes.data()), metadata->bytes.size()));
}

}  // namespace

Program Program::from_image(elf::Image image) {
  Program p;
  p.kernels_ = parse_kernel_info(image);
  p.image_ = std::move(image);
  p.id_ = next_program_id();
  return p;
}

const KernelInfo* Program::kernel_info(std::string_view name) const {
  for (const KernelInfo& k : kernels_)
    if (k.name == name) return &k;
  return nullptr;
}

Program Program::from_elf_bytes(std::span<const uint8_t> bytes, const std::string& name) {
  elf::Image image = elf::read(bytes, name);  // its errors name the file
  try {
    return from_image(std::move(image));
  } catch (const Error& e) {
    throw Error(fmt::format("{}: {}", name, e.what()));
  }
}

Program Program::from_elf_file(const std::string& path) {
  return from_elf_bytes(read_input_bytes(path, {.accept_streams = true}), path);
}

Program Program::from_assembly(const std::vector<assembler::SourceFile>& sources,
                               const assembler::Options& options) {
  return from_image(assembler::assemble(sources, options));
}

Program Program::from_assembly_files(const std::vector<std::string>& paths,
                                     const assembler::Options& options) {
  std::vector<assembler::SourceFile> sources;
  for (const std::string& path : paths) {
    sources.push_back({path, read_input_file(path, {.accept_streams = true})});
  }
  return from_assembly(sources, options);
}

std::vector<std::string> Program::kernel_names() const {
  std::vector<std::string> names;
  for (const elf::Symbol& s : image_.symbols)
    if (s.function && s.global && !is_start_code_symbol(s.name) &&
        (kernels_.empty() || kernel_info(s.name) != nullptr))
      names.push_back(s.name);
  return names;
}

uint32_t Program::kernel_address(std::string_view name) const {
  // A compiled program says which of its functions are kernels: the others (vt_printf, a
  // library's helpers) take no NDRange and no argument buffer.
  if (kernels_.empty() || kernel_info(name) != nullptr)
    for (const elf::Symbol& s : image_.symbols)
      if (s.name == name && !s.section.empty()) return s.value;
  const std::vector<std::string> names = kernel_names();
  throw Error(
      fmt::format("no kernel '{}' in the program (kernels: {})", name,
                  names.empty() ? std::string("none") : fmt::format("{}", fmt::join(names, ", "))));
}

// ---- launch ----

namespace {

uint64_t saturating_add(uint64_t a, uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

[[noreturn]] void refuse(sim::LaunchLimit limit, uint64_t requested, uint64_t available,
                         std::string message) {
  throw sim::LaunchRefused({limit, requested, available, std::move(message)});
}

// What a launch of the kernel needs of an SM besides its warp count: threads per warp,
// registers and the warp stacks the kernel declares (check_launch's inputs). Programs
// without metadata run on the start code's stacks.
sim::KernelLaunch workgroup_resources(const KernelInfo* info, const LaunchOptions& options) {
  sim::KernelLaunch l;
  l.threads_per_warp = options.threads_per_warp;
  l.sgpr_usage = info ? info->sgpr : options.sgpr_usage;
  l.vgpr_usage = info ? info->vgpr : options.vgpr_usage;
  l.warp_stack_bytes = info ? info->stack_bytes : kWarpStackBytes;
  return l;
}

// The workgroup's local memory for `l.warps_per_workgroup` warps and `local_data` bytes of
// local data: the warps' stacks first.
uint64_t local_memory_bytes(const sim::KernelLaunch& l, uint64_t local_data) {
  return saturating_add(uint64_t{l.warp_stack_bytes} * l.warps_per_workgroup, local_data);
}

}  // namespace

uint32_t max_work_group_size(const sim::DeviceConfig& config, const KernelInfo* info,
                             uint64_t local_data_bytes, const LaunchOptions& options) {
  // check_launch is the rule: the largest warp count it accepts (every limit grows with
  // the warps, so a binary search finds it).
  sim::KernelLaunch l = workgroup_resources(info, options);
  const auto fits = [&](uint32_t warps) {
    l.warps_per_workgroup = warps;
    l.lds_bytes = local_memory_bytes(l, local_data_bytes);
    return !sim::check_launch(l, config);
  };
  uint32_t low = 0, high = config.warp_slots_per_sm;  // fits(low) or low == 0
  while (low < high) {
    const uint32_t middle = low + (high - low + 1) / 2;
    if (fits(middle))
      low = middle;
    else
      high = middle - 1;
  }
  return static_cast<uint32_t>(
      std::min<uint64_t>(uint64_t{low} * options.threads_per_warp, UINT32_MAX));
}

LaunchPlan plan_launch(const sim::DeviceConfig& config, const Program& program,
                       std::string_view kernel, const Range& global, const Range& local,
                       std::span<const Arg> args, const LaunchOptions& options) {
  using sim::LaunchLimit;
  const uint32_t entry = program.kernel_address(kernel);  // no such kernel: an Error first
  const KernelInfo* info = program.kernel_info(kernel);
  LaunchPlan plan;
  sim::KernelLaunch& l = plan.device;
  l = workgroup_resources(info, options);
  l.kernel_name = std::string(kernel);
  l.pds_bytes_per_thread = info ? std::max(options.private_bytes_per_thread, info->private_bytes)
                                : options.private_bytes_per_thread;
  if (info && args.size() != info->args.size())
    refuse(LaunchLimit::arguments, args.size(), info->args.size(),
           fmt::format("the kernel takes {} arguments, {} given", info->args.size(), args.size()));

  // The NDRange.
  if (global.dims < 1 || global.dims > 3)
    refuse(LaunchLimit::work_dimensions, global.dims, 3,
           fmt::format("global size has {} dimensions (1 to 3)", global.dims));
  if (local.dims > global.dims)
    refuse(
        LaunchLimit::local_size, local.dims, global.dims,
        fmt::format("local size has {} dimensions, the global size {}", local.dims, global.dims));
  plan.work_dim = global.dims;
  // CL_DEVICE_MAX_WORK_ITEM_SIZES: the device's largest workgroup in every dimension.
  const uint64_t max_items =
      uint64_t{config.max_warps_per_workgroup()} * config.max_threads_per_warp;
  static constexpr char kAxis[] = "xyz";
  for (int i = 0; i < 3; ++i) {
    if (global.size[i] == 0)
      refuse(LaunchLimit::global_size, 0, 1, fmt::format("global size {} is 0", kAxis[i]));
    if (local.size[i] == 0)
      refuse(LaunchLimit::local_size, 0, 1, fmt::format("local size {} is 0", kAxis[i]));
    if (global.size[i] % local.size[i] != 0)
      refuse(LaunchLimit::local_size, local.size[i], global.size[i],
             fmt::format("global size {} = {} is not a multiple of local size {} = {}", kAxis[i],
                         global.size[i], kAxis[i], local.size[i]));
    if (info && info->reqd_work_group_size[0] != 0 &&
        local.size[i] != info->reqd_work_group_size[i])
      refuse(LaunchLimit::local_size, local.size[i], info->reqd_work_group_size[i],
             fmt::format("local size {} = {}; the kernel's reqd_work_group_size is {}x{}x{}",
                         kAxis[i], local.size[i], info->reqd_work_group_size[0],
                         info->reqd_work_group_size[1], info->reqd_work_group_size[2]));
    if (local.size[i] > max_items)
      refuse(LaunchLimit::work_item_size, local.size[i], max_items,
             fmt::format("local size {} = {}; a workgroup holds at most {} work-items", kAxis[i],
                         local.size[i], max_items));
    plan.global_size[i] = global.size[i];
    plan.local_size[i] = local.size[i];
    l.grid[i] = global.size[i] / local.size[i];
  }
  // local.total() saturates; a warp count past 32 bits is one check_launch refuses, and
  // the products below stay within 64 bits.
  const uint64_t items = local.total();
  const uint64_t threads = std::max<uint32_t>(l.threads_per_warp, 1);
  const uint64_t warps = std::min<uint64_t>(items / threads + (items % threads != 0), UINT32_MAX);
  l.warps_per_workgroup = static_cast<uint32_t>(warps);

  // Local memory: the warps' stacks, the options' and the kernel's __local variables, then
  // the __local buffers of the arguments, each kLocalDataAlign-aligned; an argument holds
  // its buffer's offset from the workgroup's local memory base (CSR_LDS).
  uint64_t local_data =
      align_local_data(uint64_t{options.local_memory_bytes} + (info ? info->local_bytes : 0));
  plan.local_argument_offsets.assign(args.size(), 0);
  for (size_t i = 0; i < args.size(); ++i) {
    if (!args[i].is_local) continue;
    if (args[i].local_bytes == 0)
      refuse(LaunchLimit::arguments, 0, 1,
             fmt::format("argument {}: a __local buffer of 0 bytes", i));
    const uint64_t offset = local_memory_bytes(l, local_data);
    plan.local_argument_offsets[i] = static_cast<uint32_t>(std::min<uint64_t>(offset, UINT32_MAX));
    local_data = saturating_add(local_data, align_local_data(args[i].local_bytes));
  }
  l.lds_bytes = local_memory_bytes(l, local_data);
  if (std::optional<sim::LaunchError> refused = sim::check_launch(l, config))
    throw sim::LaunchRefused(std::move(*refused));

  // Private memory for the workgroups the device holds at once (sim::private_memory_bytes),
  // whatever the grid.
  const uint64_t private_bytes = sim::private_memory_bytes(l, config);
  if (private_bytes > kMaxPrivateBytes)
    refuse(LaunchLimit::private_memory, private_bytes, kMaxPrivateBytes,
           fmt::format("private memory of {} bytes for the resident workgroups ({} threads x {} "
                       "bytes each) exceeds 1 GiB; lower the private memory per thread",
                       private_bytes, l.warps_per_workgroup * l.threads_per_warp,
                       l.pds_bytes_per_thread));
  plan.private_bytes = private_bytes;

  // The argument buffer: the compiler's layout, or one word per argument.
  for (size_t i = 0; i < args.size(); ++i) {
    const Arg& a = args[i];
    const uint32_t offset = info ? info->args[i].offset : static_cast<uint32_t>(4 * i);
    const uint32_t size = info ? info->args[i].size : 4;
    if (info) {
      const KernelArgInfo& expected = info->args[i];
      const bool wants_local = expected.address_space == AddressSpace::local;
      if (wants_local != a.is_local)
        refuse(LaunchLimit::arguments, i, args.size(),
               fmt::format("argument {} ('{}'): the kernel expects {}", i, expected.name,
                           wants_local ? "a __local buffer size (Arg::local)"
                                       : "a value or buffer, not local memory"));
      if (!a.data.empty() && a.data.size() != size)
        refuse(LaunchLimit::arguments, a.data.size(), size,
               fmt::format("argument {} ('{}', {}): {} bytes given, the kernel takes {}", i,
                           expected.name, expected.type, a.data.size(), size));
      if (a.data.empty() && size > 4)
        refuse(LaunchLimit::arguments, 4, size,
               fmt::format("argument {} ('{}', {}): a {}-byte value needs Arg::bytes", i,
                           expected.name, expected.type, size));
    }
    std::vector<uint8_t> value(4);
    const uint32_t word = a.is_local ? plan.local_argument_offsets[i] : a.bits;
    std::memcpy(value.data(), &word, 4);
    if (!a.data.empty()) value = a.data;
    const uint64_t end = uint64_t{offset} + std::max<size_t>(4, value.size());
    if (end > kMaxArgumentBytes)
      refuse(LaunchLimit::argument_bytes, end, kMaxArgumentBytes,
             fmt::format("argument {} ends at byte {} of the argument buffer; it has at most {}", i,
                         end, kMaxArgumentBytes));
    if (plan.argument_bytes.size() < end) plan.argument_bytes.resize(end);
    std::memcpy(plan.argument_bytes.data() + offset, value.data(), value.size());
  }

  plan.print_buffer_bytes = options.print_buffer_bytes;
  plan.knl[abi::knl::ENTRY] = entry;
  plan.knl[abi::knl::WORK_DIM] = plan.work_dim;
  for (int i = 0; i < 3; ++i) {
    plan.knl[abi::knl::GLOBAL_SIZE + i] = plan.global_size[i];
    plan.knl[abi::knl::LOCAL_SIZE + i] = plan.local_size[i];
    plan.knl[abi::knl::GLOBAL_OFFSET + i] = options.global_offset[i];
  }
  plan.knl[abi::knl::PRINT_SIZE] = options.print_buffer_bytes;
  plan.cancel = options.cancel;
  return plan;
}

Stats execute(Device& device, const Program& program, const LaunchPlan& plan) {
  device.load(program);
  driver::Context& context = device.context();
  Buffer arg_buffer(device, std::max<uint64_t>(4, plan.argument_bytes.size()));
  if (!plan.argument_bytes.empty())
    arg_buffer.write(0, plan.argument_bytes.data(), plan.argument_bytes.size());

  std::optional<Buffer> print_buffer;
  if (plan.print_buffer_bytes != 0) {
    print_buffer.emplace(device, plan.print_buffer_bytes);
    uint32_t header[abi::kPrintHeaderBytes / 4] = {};
    header[abi::kPrintNextFree / 4] = abi::kPrintHeaderBytes;
    context.copy_to_device(print_buffer->address(), header, sizeof header);
  }
  std::optional<Buffer> private_memory;
  if (plan.private_bytes != 0) private_memory.emplace(device, plan.private_bytes);

  uint32_t knl[abi::kKnlWords];
  std::copy(std::begin(plan.knl), std::end(plan.knl), knl);
  knl[abi::knl::ARG_BASE] = arg_buffer.address();
  knl[abi::knl::PRINT_ADDR] = print_buffer ? print_buffer->address() : 0;
  Buffer knl_buffer(device, sizeof knl);
  knl_buffer.write(0, knl, sizeof knl);

  sim::KernelLaunch launch = plan.device;
  launch.start_pc = context.start_pc();
  launch.knl_address = knl_buffer.address();
  launch.pds_base = private_memory ? private_memory->address() : 0;
  const Stats stats = context.run(launch, plan.cancel);

  if (print_buffer) {
    uint32_t dropped = 0;
    context.copy_from_device(print_buffer->address() + abi::kPrintDropped, &dropped,
                             sizeof dropped);
    if (dropped != 0)
      context.emit_print_text(
          fmt::format("[vt_printf: {} record(s) dropped: the {}-byte print buffer is full]\n",
                      dropped, plan.print_buffer_bytes));
  }
  return stats;
}

Stats launch_impl(Device& device, const Program& program, std::string_view kernel,
                  const Range& global, const Range& local, std::span<const Arg> args,
                  const LaunchOptions& options) {
  try {
    for (size_t i = 0; i < args.size(); ++i) {
      const Arg& a = args[i];
      if (!a.is_buffer) continue;
      if (a.buffer_device != device.id())
        throw Error(a.buffer_device == 0
                        ? fmt::format("argument {}: a moved-from buffer", i)
                        : fmt::format("argument {}: a buffer of another device (device {}; this "
                                      "launch runs on device {})",
                                      i, a.buffer_device, device.id()));
      if (device.context().task_of(a.bits) != a.buffer_id)
        throw Error(fmt::format("argument {}: its buffer was destroyed", i));
    }
    const LaunchPlan plan =
        plan_launch(device.config(), program, kernel, global, local, args, options);
    return execute(device, program, plan);
  } catch (const sim::LaunchRefused& e) {
    sim::LaunchError error = e.error();
    error.message = fmt::format("launch of kernel '{}': {}", kernel, error.message);
    throw sim::LaunchRefused(std::move(error));
  } catch (const Error& e) {
    throw Error(fmt::format("launch of kernel '{}': {}", kernel, e.what()));
  }
}

}  // namespace ventus::rt
