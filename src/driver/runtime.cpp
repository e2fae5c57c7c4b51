// The C++ runtime (include/ventus/runtime.h) over driver::Context.
#include "ventus/runtime.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <atomic>
#include <fstream>
#include <sstream>
#include <utility>

#include "context.h"
#include "print_buffer.h"
#include "ventus/error.h"

namespace ventus::rt {
namespace {

// Word offsets of the kernel metadata buffer (the guide's KNL_* / 4).
enum KnlWord : uint32_t {
  kKnlEntry = 0,
  kKnlArgBase = 1,
  kKnlWorkDim = 2,
  kKnlGlobalSize = 3,
  kKnlLocalSize = 6,
  kKnlGlobalOffset = 9,
  kKnlPrintAddr = 12,
  kKnlPrintSize = 13,
  kKnlWords = 16,
};

uint64_t next_program_id() {
  static std::atomic<uint64_t> counter{0};
  return ++counter;
}

// Symbols of the start code, which are not kernels.
bool is_start_code_symbol(std::string_view name) {
  return name == "_start" || name == "spike_end";
}

}  // namespace

// ---- Device ----

Device::Device(const sim::DeviceConfig& config)
    : context_(std::make_unique<driver::Context>(config)) {}
Device::~Device() = default;

const sim::DeviceConfig& Device::config() const {
  return context_->config();
}
uint32_t Device::allocate(uint64_t bytes) {
  return context_->allocate(bytes);
}
void Device::free(uint32_t address) {
  context_->free(address);
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
  context_->set_trace_sink(std::move(sink));
}

void Device::set_progress_handler(sim::ProgressHandler handler, double interval) {
  context_->set_progress_handler(std::move(handler), interval);
}
std::optional<sim::Fault> Device::last_fault() const {
  return context_->last_fault();
}

void Device::load(const Program& program) {
  if (loaded_program_ == program.id()) return;
  context_->load_program(program.image());
  loaded_program_ = program.id();
}

// ---- Buffer ----

Buffer::Buffer(Device& device, uint64_t bytes)
    : device_(&device), address_(device.allocate(bytes)), size_(bytes) {}

Buffer::~Buffer() {
  if (device_ == nullptr) return;
  try {
    device_->free(address_);
  } catch (const Error&) {
    // The device is going away or the buffer was released with it; nothing to undo.
  }
}

Buffer::Buffer(Buffer&& other) noexcept
    : device_(std::exchange(other.device_, nullptr)),
      address_(other.address_),
      size_(other.size_) {}

Buffer& Buffer::operator=(Buffer&& other) noexcept {
  if (this != &other) {
    Buffer old(std::move(*this));
    device_ = std::exchange(other.device_, nullptr);
    address_ = other.address_;
    size_ = other.size_;
  }
  return *this;
}

void Buffer::write(uint64_t offset, const void* data, uint64_t bytes) {
  if (device_ == nullptr) throw Error("buffer: write to a moved-from buffer");
  if (offset > size_ || bytes > size_ - offset)
    throw Error(
        fmt::format("buffer at 0x{:08x}: write of {} bytes at offset {} exceeds its {} bytes",
                    address_, bytes, offset, size_));
  if (bytes != 0) device_->write(static_cast<uint32_t>(address_ + offset), data, bytes);
}

void Buffer::read(uint64_t offset, void* data, uint64_t bytes) const {
  if (device_ == nullptr) throw Error("buffer: read from a moved-from buffer");
  if (offset > size_ || bytes > size_ - offset)
    throw Error(
        fmt::format("buffer at 0x{:08x}: read of {} bytes at offset {} exceeds its {} bytes",
                    address_, bytes, offset, size_));
  if (bytes != 0) device_->read(static_cast<uint32_t>(address_ + offset), data, bytes);
}

// ---- Program ----

namespace {

constexpr uint32_t kMaxArgumentBytes = 64 * 1024;
// The start code's stack per warp in local memory (src/asm/start_file.cpp).
constexpr uint32_t kWarpStackBytes = 1024;

// The `.ventus.kernels` section of a compiled program (JSON, docs/compiler.md).
std::vector<KernelInfo> parse_kernel_info(const elf::Image& image) {
  std::vector<KernelInfo> kernels;
  for (const elf::Section& section : image.sections) {
    if (section.name != ".ventus.kernels") continue;
    try {
      const nlohmann::json doc = nlohmann::json::parse(section.bytes.begin(), section.bytes.end());
      for (const nlohmann::json& k : doc.at("kernels")) {
        KernelInfo info;
        info.name = k.at("name").get<std::string>();
        info.local_bytes = k.at("local_bytes").get<uint32_t>();
        info.private_bytes = k.at("private_bytes").get<uint32_t>();
        info.sgpr = k.at("sgpr").get<uint32_t>();
        info.vgpr = k.at("vgpr").get<uint32_t>();
        if (k.contains("reqd_work_group_size"))
          for (int d = 0; d < 3; ++d) info.reqd_work_group_size[d] = k.at("reqd_work_group_size").at(d).get<uint32_t>();
        for (const nlohmann::json& a : k.at("args"))
          info.args.push_back({a.at("name").get<std::string>(), a.at("type").get<std::string>(),
                               a.at("address_space").get<std::string>(), a.value("qualifiers", std::string()),
                               a.at("offset").get<uint32_t>(), a.at("size").get<uint32_t>()});
        // The argument buffer is built from these numbers: refuse absurd ones rather than
        // allocate gigabytes for a corrupted section.
        for (const KernelArgInfo& a : info.args)
          if (a.offset > kMaxArgumentBytes || a.size > kMaxArgumentBytes)
            throw Error(fmt::format("malformed .ventus.kernels section: argument '{}' of kernel '{}' at "
                                    "offset {} with {} bytes (at most {})",
                                    a.name, info.name, a.offset, a.size, kMaxArgumentBytes));
        kernels.push_back(std::move(info));
      }
    } catch (const nlohmann::json::exception& e) {
      throw Error(fmt::format("malformed .ventus.kernels section: {}", e.what()));
    }
  }
  return kernels;
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
  return from_image(elf::read(bytes, name));
}

Program Program::from_elf_file(const std::string& path) {
  return from_image(elf::read_file(path));
}

Program Program::from_assembly(const std::vector<assembler::SourceFile>& sources,
                               const assembler::Options& options) {
  return from_image(assembler::assemble(sources, options));
}

Program Program::from_assembly_files(const std::vector<std::string>& paths,
                                     const assembler::Options& options) {
  std::vector<assembler::SourceFile> sources;
  for (const std::string& path : paths) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(fmt::format("{}: cannot open file", path));
    std::ostringstream text;
    text << in.rdbuf();
    sources.push_back({path, text.str()});
  }
  return from_assembly(sources, options);
}

std::vector<std::string> Program::kernel_names() const {
  std::vector<std::string> names;
  for (const elf::Symbol& s : image_.symbols)
    if (s.function && s.global && !is_start_code_symbol(s.name)) names.push_back(s.name);
  return names;
}

uint32_t Program::kernel_address(std::string_view name) const {
  for (const elf::Symbol& s : image_.symbols)
    if (s.name == name && !s.section.empty()) return s.value;
  const std::vector<std::string> names = kernel_names();
  throw Error(
      fmt::format("no kernel '{}' in the program (kernels: {})", name,
                  names.empty() ? std::string("none") : fmt::format("{}", fmt::join(names, ", "))));
}

// ---- launch ----

LaunchShape launch_shape(const sim::DeviceConfig& config, const Range& global, const Range& local,
                         const LaunchOptions& options) {
  LaunchShape shape;
  if (global.dims < 1 || global.dims > 3)
    throw Error(fmt::format("global size has {} dimensions (1 to 3)", global.dims));
  if (local.dims > global.dims)
    throw Error(
        fmt::format("local size has {} dimensions, the global size {}", local.dims, global.dims));
  shape.work_dim = global.dims;
  static constexpr char kAxis[] = "xyz";
  for (int i = 0; i < 3; ++i) {
    if (global.size[i] == 0) throw Error(fmt::format("global size {} is 0", kAxis[i]));
    if (local.size[i] == 0) throw Error(fmt::format("local size {} is 0", kAxis[i]));
    if (global.size[i] % local.size[i] != 0)
      throw Error(fmt::format("global size {} = {} is not a multiple of local size {} = {}",
                              kAxis[i], global.size[i], kAxis[i], local.size[i]));
    shape.grid[i] = global.size[i] / local.size[i];
  }
  if (options.threads_per_warp == 0 || options.threads_per_warp > config.max_threads_per_warp)
    throw Error(fmt::format("{} threads per warp (1 to {})", options.threads_per_warp,
                            config.max_threads_per_warp));
  shape.threads_per_warp = options.threads_per_warp;
  const uint64_t items = local.total();
  const uint64_t warps = (items + shape.threads_per_warp - 1) / shape.threads_per_warp;
  if (warps > config.warp_slots_per_sm)
    throw Error(
        fmt::format("a workgroup of {} work-items needs {} warps of {} threads; an SM holds {}",
                    items, warps, shape.threads_per_warp, config.warp_slots_per_sm));
  shape.warps_per_workgroup = static_cast<uint32_t>(warps);
  // The start code gives every warp a 1 KiB stack in local memory; local data follows.
  const uint64_t lds = uint64_t{kWarpStackBytes} * warps + options.local_memory_bytes;
  if (lds > config.lds_bytes_per_sm)
    throw Error(
        fmt::format("a workgroup needs {} bytes of local memory ({} warps x 1 KiB stack + {} "
                    "bytes of local data); an SM has {}",
                    lds, warps, options.local_memory_bytes, config.lds_bytes_per_sm));
  shape.lds_bytes = static_cast<uint32_t>(lds);
  return shape;
}

Stats launch_impl(Device& device, const Program& program, std::string_view kernel,
                  const Range& global, const Range& local, std::span<const Arg> args,
                  const LaunchOptions& options) {
  try {
    const KernelInfo* info = program.kernel_info(kernel);
    LaunchOptions effective = options;
    if (info) {
      if (args.size() != info->args.size())
        throw Error(fmt::format("the kernel takes {} arguments, {} given", info->args.size(), args.size()));
      effective.private_bytes_per_thread = std::max(options.private_bytes_per_thread, info->private_bytes);
      effective.sgpr_usage = info->sgpr;
      effective.vgpr_usage = info->vgpr;
    }
    // Local memory: the warps' stacks, the kernel's __local variables, then the __local
    // buffers of the arguments, each 16-byte aligned; an argument holds its buffer's offset
    // from the workgroup's local memory base (CSR_LDS).
    uint32_t local_data = info ? (info->local_bytes + 15) & ~15u : 0;
    std::vector<uint32_t> local_offsets(args.size(), 0);
    for (size_t i = 0; i < args.size(); ++i) {
      if (!args[i].is_local) continue;
      if (args[i].local_bytes == 0) throw Error(fmt::format("argument {}: a __local buffer of 0 bytes", i));
      local_offsets[i] = local_data;
      local_data += (args[i].local_bytes + 15) & ~15u;
    }
    effective.local_memory_bytes = options.local_memory_bytes + local_data;
    const LaunchShape shape = launch_shape(device.config(), global, local, effective);
    const uint32_t entry = program.kernel_address(kernel);
    device.load(program);

    std::vector<uint8_t> arg_bytes;
    for (size_t i = 0; i < args.size(); ++i) {
      const Arg& a = args[i];
      uint32_t offset = info ? info->args[i].offset : static_cast<uint32_t>(4 * i);
      uint32_t size = info ? info->args[i].size : 4;
      std::vector<uint8_t> value(4);
      uint32_t word =
          a.is_local ? kWarpStackBytes * shape.warps_per_workgroup + local_offsets[i] : a.bits;
      std::memcpy(value.data(), &word, 4);
      if (!a.data.empty()) value = a.data;
      if (info) {
        const KernelArgInfo& expected = info->args[i];
        bool wants_local = expected.address_space == "local";
        if (wants_local != a.is_local)
          throw Error(fmt::format("argument {} ('{}'): the kernel expects {}", i, expected.name,
                                  wants_local ? "a __local buffer size (Arg::local)" : "a value or buffer, not local memory"));
        if (!a.data.empty() && a.data.size() != size)
          throw Error(fmt::format("argument {} ('{}', {}): {} bytes given, the kernel takes {}", i, expected.name,
                                  expected.type, a.data.size(), size));
        if (a.data.empty() && size > 4)
          throw Error(fmt::format("argument {} ('{}', {}): a {}-byte value needs Arg::bytes", i, expected.name,
                                  expected.type, size));
      }
      if (arg_bytes.size() < offset + std::max<size_t>(4, value.size())) arg_bytes.resize(offset + std::max<size_t>(4, value.size()));
      std::memcpy(arg_bytes.data() + offset, value.data(), value.size());
    }
    Buffer arg_buffer(device, std::max<uint64_t>(4, arg_bytes.size()));
    if (!arg_bytes.empty()) arg_buffer.write(0, arg_bytes.data(), arg_bytes.size());

    std::optional<Buffer> print_buffer;
    if (options.print_buffer_bytes != 0) {
      print_buffer.emplace(device, options.print_buffer_bytes);
      driver::Context& context = device.context();
      const uint32_t header[4] = {driver::kPrintHeaderBytes, 0, 0, 0};
      context.copy_to_device(print_buffer->address(), header, sizeof header);
    }

    const uint64_t workgroups = uint64_t{shape.grid[0]} * shape.grid[1] * shape.grid[2];
    const uint64_t private_bytes = workgroups * shape.warps_per_workgroup * shape.threads_per_warp *
                                   uint64_t{effective.private_bytes_per_thread};
    if (private_bytes > (uint64_t{1} << 30))
      throw Error(
          fmt::format("private memory of {} workgroups x {} threads x {} bytes exceeds 1 GiB; "
                      "lower the private memory per thread",
                      workgroups, shape.warps_per_workgroup * shape.threads_per_warp,
                      effective.private_bytes_per_thread));
    std::optional<Buffer> private_memory;
    if (private_bytes != 0) private_memory.emplace(device, private_bytes);

    uint32_t knl[kKnlWords] = {};
    knl[kKnlEntry] = entry;
    knl[kKnlArgBase] = arg_buffer.address();
    knl[kKnlWorkDim] = shape.work_dim;
    for (int i = 0; i < 3; ++i) {
      knl[kKnlGlobalSize + i] = global.size[i];
      knl[kKnlLocalSize + i] = local.size[i];
      knl[kKnlGlobalOffset + i] = options.global_offset[i];
    }
    knl[kKnlPrintAddr] = print_buffer ? print_buffer->address() : 0;
    knl[kKnlPrintSize] = options.print_buffer_bytes;
    Buffer knl_buffer(device, sizeof knl);
    knl_buffer.write(0, knl, sizeof knl);

    driver::QueuedLaunch q;
    sim::KernelLaunch& l = q.launch;
    l.kernel_name = std::string(kernel);
    l.start_pc = device.context().start_pc();
    for (int i = 0; i < 3; ++i) l.grid[i] = shape.grid[i];
    l.threads_per_warp = shape.threads_per_warp;
    l.warps_per_workgroup = shape.warps_per_workgroup;
    l.knl_address = knl_buffer.address();
    l.lds_bytes = shape.lds_bytes;
    l.pds_bytes_per_thread = effective.private_bytes_per_thread;
    l.pds_base = private_memory ? private_memory->address() : 0;
    l.sgpr_usage = effective.sgpr_usage;
    l.vgpr_usage = effective.vgpr_usage;
    l.warp_stack_bytes = kWarpStackBytes;
    q.cancel = options.cancel;
    device.context().start(q);
    device.context().wait(driver::Context::kWaitForever);

    if (print_buffer) {
      uint32_t dropped = 0;
      device.context().copy_from_device(print_buffer->address() + 4, &dropped, sizeof dropped);
      if (dropped != 0) {
        std::string note =
            fmt::format("[vt_printf: {} record(s) dropped: the {}-byte print buffer is full]\n",
                        dropped, options.print_buffer_bytes);
        device.context().emit_print_text(note);
      }
    }
    return device.context().last_stats();
  } catch (const Error& e) {
    throw Error(fmt::format("launch of kernel '{}': {}", kernel, e.what()));
  }
}

}  // namespace ventus::rt
