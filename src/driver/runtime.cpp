// The C++ runtime (include/ventus/runtime.h) over driver::Context.
#include "ventus/runtime.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <utility>

#include "context.h"
#include "ventus/file.h"
#include "print_buffer.h"
#include "ventus/error.h"

namespace ventus::rt {
namespace {

// The private memory of one launch (LaunchOptions::private_bytes_per_thread x its threads).
constexpr uint64_t kMaxPrivateBytes = uint64_t{1} << 30;

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

// Limits of the `.ventus.kernels` metadata (docs/driver.md, "Kernel metadata").
constexpr uint64_t kMetadataVersion = 1;
constexpr uint64_t kMaxArgumentBytes = 64 * 1024;  // the argument buffer
// Every workgroup slot's local memory lies in the LDS window below the code.
constexpr uint64_t kMaxLocalBytes = sim::kCodeBase - sim::kLdsWindowBase;
constexpr uint64_t kMaxScalarRegisters = 64;   // x0..x63 (docs/isa.md, regext)
constexpr uint64_t kMaxVectorRegisters = 256;  // v0..v255

using Json = nlohmann::json;

// place: where in the metadata ("kernel 'k'", "argument 1 ('x') of kernel 'k'", "" for the
// top level).
[[noreturn]] void metadata_error(const std::string& place, const std::string& why) {
  throw Error(fmt::format("malformed .ventus.kernels section: {}{}{}", place,
                          place.empty() ? "" : ": ", why));
}

// An object with exactly the required keys and any of the optional ones.
void check_keys(const Json& object, std::initializer_list<std::string_view> required,
                std::initializer_list<std::string_view> optional, const std::string& place) {
  if (!object.is_object())
    metadata_error(place, fmt::format("not an object but {}", object.type_name()));
  for (const auto& item : object.items()) {
    // Not a structured binding: clang 15 (the fuzz build) cannot capture one.
    const std::string& key = item.key();
    const auto is_key = [&key](std::string_view k) { return k == key; };
    if (std::none_of(required.begin(), required.end(), is_key) &&
        std::none_of(optional.begin(), optional.end(), is_key))
      metadata_error(place, fmt::format("unknown field \"{}\"", key));
  }
  for (std::string_view key : required)
    if (!object.contains(key)) metadata_error(place, fmt::format("missing field \"{}\"", key));
}

uint64_t unsigned_field(const Json& object, std::string_view key, uint64_t max,
                        const std::string& place) {
  const Json& value = object.at(key);
  if (!value.is_number_unsigned())
    metadata_error(place, fmt::format("\"{}\" is {}, not an unsigned integer", key, value.dump()));
  const uint64_t number = value.get<uint64_t>();
  if (number > max)
    metadata_error(place, fmt::format("\"{}\" is {} (at most {})", key, number, max));
  return number;
}

std::string string_field(const Json& object, std::string_view key, const std::string& place) {
  const Json& value = object.at(key);
  if (!value.is_string())
    metadata_error(place, fmt::format("\"{}\" is {}, not a string", key, value.dump()));
  return value.get<std::string>();
}

const Json& array_field(const Json& object, std::string_view key, const std::string& place) {
  const Json& value = object.at(key);
  if (!value.is_array()) metadata_error(place, fmt::format("\"{}\" is not an array", key));
  return value;
}

// The name of an object that has a string "name", for messages; "" if none.
std::string name_for_messages(const Json& object) {
  if (!object.is_object()) return "";
  const auto name = object.find("name");
  return name != object.end() && name->is_string() ? name->get<std::string>() : "";
}

KernelArgInfo parse_argument(const Json& a, size_t index, const std::string& kernel) {
  const std::string name = name_for_messages(a);
  const std::string place =
      name.empty() ? fmt::format("argument {} of kernel '{}'", index, kernel)
                   : fmt::format("argument {} ('{}') of kernel '{}'", index, name, kernel);
  check_keys(a, {"name", "type", "address_space", "offset", "size"}, {"qualifiers"}, place);
  KernelArgInfo arg;
  arg.name = string_field(a, "name", place);
  arg.type = string_field(a, "type", place);
  arg.address_space = string_field(a, "address_space", place);
  if (arg.address_space != "global" && arg.address_space != "constant" &&
      arg.address_space != "local" && arg.address_space != "private")
    metadata_error(place, fmt::format("address space \"{}\" (global, constant, local or private)",
                                      arg.address_space));
  if (a.contains("qualifiers")) arg.qualifiers = string_field(a, "qualifiers", place);
  const uint64_t offset = unsigned_field(a, "offset", kMaxArgumentBytes, place);
  const uint64_t size = unsigned_field(a, "size", kMaxArgumentBytes, place);
  if (size == 0) metadata_error(place, "\"size\" is 0");
  if (offset + size > kMaxArgumentBytes)
    metadata_error(place, fmt::format("bytes [{}, {}) leave the {}-byte argument buffer", offset,
                                      offset + size, kMaxArgumentBytes));
  arg.offset = static_cast<uint32_t>(offset);
  arg.size = static_cast<uint32_t>(size);
  return arg;
}

KernelInfo parse_kernel(const Json& k, size_t index) {
  const std::string name = name_for_messages(k);
  const std::string place =
      name.empty() ? fmt::format("kernel {}", index) : fmt::format("kernel '{}'", name);
  check_keys(k, {"name", "local_bytes", "private_bytes", "sgpr", "vgpr", "args"},
             {"reqd_work_group_size"}, place);
  KernelInfo info;
  info.name = string_field(k, "name", place);
  if (info.name.empty()) metadata_error(place, "empty name");
  info.local_bytes = static_cast<uint32_t>(unsigned_field(k, "local_bytes", kMaxLocalBytes, place));
  info.private_bytes =
      static_cast<uint32_t>(unsigned_field(k, "private_bytes", kMaxPrivateBytes, place));
  info.sgpr = static_cast<uint32_t>(unsigned_field(k, "sgpr", kMaxScalarRegisters, place));
  info.vgpr = static_cast<uint32_t>(unsigned_field(k, "vgpr", kMaxVectorRegisters, place));
  if (k.contains("reqd_work_group_size")) {
    const Json& sizes = array_field(k, "reqd_work_group_size", place);
    if (sizes.size() != 3)
      metadata_error(place,
                     fmt::format("\"reqd_work_group_size\" has {} elements, not 3", sizes.size()));
    for (int d = 0; d < 3; ++d) {
      const Json& size = sizes[d];
      if (!size.is_number_unsigned() || size.get<uint64_t>() == 0 ||
          size.get<uint64_t>() > UINT32_MAX)
        metadata_error(place, fmt::format("\"reqd_work_group_size\" element {} is {} (1 to {})", d,
                                          size.dump(), UINT32_MAX));
      info.reqd_work_group_size[d] = size.get<uint32_t>();
    }
  }
  const Json& args = array_field(k, "args", place);
  for (size_t i = 0; i < args.size(); ++i)
    info.args.push_back(parse_argument(args[i], i, info.name));
  return info;
}

}  // namespace

std::vector<KernelInfo> parse_kernel_metadata(std::string_view json) {
  Json doc;
  try {
    doc = Json::parse(json);
  } catch (const Json::exception& e) {
    throw Error(fmt::format("malformed .ventus.kernels section: {}", e.what()));
  }
  const std::string top;
  check_keys(doc, {"version", "kernels"}, {}, top);
  const Json& version = doc.at("version");
  if (!version.is_number_unsigned() || version.get<uint64_t>() != kMetadataVersion)
    metadata_error(top, fmt::format("version {} (this runtime reads version {})", version.dump(),
                                    kMetadataVersion));
  const Json& kernels = array_field(doc, "kernels", top);
  std::vector<KernelInfo> result;
  for (size_t i = 0; i < kernels.size(); ++i) {
    KernelInfo info = parse_kernel(kernels[i], i);
    for (const KernelInfo& earlier : result)
      if (earlier.name == info.name)
        metadata_error(top, fmt::format("kernel '{}' is described twice", info.name));
    result.push_back(std::move(info));
  }
  return result;
}

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

namespace {
uint64_t align_local(uint64_t bytes) {
  return (bytes + kLocalDataAlign - 1) / kLocalDataAlign * kLocalDataAlign;
}
}  // namespace

LaunchShape launch_shape(const sim::DeviceConfig& config, const Range& global, const Range& local,
                         const LaunchOptions& options, uint64_t kernel_local_bytes) {
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
  const uint64_t items = local.total();  // UINT64_MAX: more than fits 64 bits
  const uint64_t warps = items / shape.threads_per_warp + (items % shape.threads_per_warp != 0);
  if (warps > config.warp_slots_per_sm)
    throw Error(fmt::format(
        "a workgroup of {} work-items needs {} warps of {} threads; an SM holds {}",
        items == UINT64_MAX
            ? fmt::format("more than 2^64 ({}x{}x{})", local.size[0], local.size[1], local.size[2])
            : std::to_string(items),
        items == UINT64_MAX ? "more than 2^32" : std::to_string(warps), shape.threads_per_warp,
        config.warp_slots_per_sm));
  const Range grid(shape.grid[0], shape.grid[1], shape.grid[2]);
  if (grid.total() > UINT32_MAX)
    throw Error(fmt::format("the NDRange has {}x{}x{} workgroups; a launch has at most 2^32 - 1",
                            shape.grid[0], shape.grid[1], shape.grid[2]));
  shape.warps_per_workgroup = static_cast<uint32_t>(warps);
  // The start code gives every warp a stack in local memory; local data follows, its
  // total a multiple of kLocalDataAlign so that every workgroup's base is aligned.
  const uint64_t local_data = align_local(uint64_t{options.local_memory_bytes} + kernel_local_bytes);
  const uint64_t lds = uint64_t{kWarpStackBytes} * warps + local_data;
  if (lds > config.lds_bytes_per_sm)
    throw Error(
        fmt::format("a workgroup needs {} bytes of local memory ({} warps x {} bytes of stack + {} "
                    "bytes of local data); an SM has {}: {} bytes too many",
                    lds, warps, kWarpStackBytes, local_data, config.lds_bytes_per_sm,
                    lds - config.lds_bytes_per_sm));
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
    // buffers of the arguments, each kLocalDataAlign-aligned; an argument holds its buffer's
    // offset from the workgroup's local memory base (CSR_LDS). 64-bit sums: launch_shape
    // rejects a total past the SM's local memory.
    const uint64_t lds_per_sm = device.config().lds_bytes_per_sm;
    uint64_t local_data = info ? align_local(info->local_bytes) : 0;
    std::vector<uint64_t> local_offsets(args.size(), 0);
    for (size_t i = 0; i < args.size(); ++i) {
      if (!args[i].is_local) continue;
      if (args[i].local_bytes == 0) throw Error(fmt::format("argument {}: a __local buffer of 0 bytes", i));
      if (args[i].local_bytes > lds_per_sm)
        throw Error(
            fmt::format("argument {}: a __local buffer of {} bytes; an SM has {} bytes of local "
                        "memory: {} bytes too many",
                        i, args[i].local_bytes, lds_per_sm, args[i].local_bytes - lds_per_sm));
      local_offsets[i] = local_data;
      local_data += align_local(args[i].local_bytes);
    }
    const LaunchShape shape = launch_shape(device.config(), global, local, effective, local_data);
    const uint32_t entry = program.kernel_address(kernel);
    device.load(program);

    std::vector<uint8_t> arg_bytes;
    for (size_t i = 0; i < args.size(); ++i) {
      const Arg& a = args[i];
      uint32_t offset = info ? info->args[i].offset : static_cast<uint32_t>(4 * i);
      uint32_t size = info ? info->args[i].size : 4;
      std::vector<uint8_t> value(4);
      // Below lds_bytes_per_sm (launch_shape checked the total), so 32 bits hold it.
      const uint32_t word =
          a.is_local ? static_cast<uint32_t>(kWarpStackBytes * shape.warps_per_workgroup + local_offsets[i])
                     : a.bits;
      if (a.is_buffer && a.buffer_device != device.id())
        throw Error(a.buffer_device == 0
                        ? fmt::format("argument {}: a moved-from buffer", i)
                        : fmt::format("argument {}: a buffer of another device (device {}; this "
                                      "launch runs on device {})",
                                      i, a.buffer_device, device.id()));
      if (a.is_buffer && device.context().task_of(a.bits) != a.buffer_id)
        throw Error(fmt::format("argument {}: its buffer was destroyed", i));
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
      uint32_t header[abi::kPrintHeaderBytes / 4] = {};
      header[abi::kPrintNextFree / 4] = abi::kPrintHeaderBytes;
      context.copy_to_device(print_buffer->address(), header, sizeof header);
    }

    // At most 2^32 - 1 workgroups (launch_shape) x 2^37 threads x 2^32 bytes: 128 bits.
    const uint64_t workgroups = uint64_t{shape.grid[0]} * shape.grid[1] * shape.grid[2];
    const unsigned __int128 private_bytes = static_cast<unsigned __int128>(workgroups) *
                                            shape.warps_per_workgroup * shape.threads_per_warp *
                                            effective.private_bytes_per_thread;
    if (private_bytes > kMaxPrivateBytes)
      throw Error(
          fmt::format("private memory of {} workgroups x {} threads x {} bytes exceeds 1 GiB; "
                      "lower the private memory per thread",
                      workgroups, shape.warps_per_workgroup * shape.threads_per_warp,
                      effective.private_bytes_per_thread));
    std::optional<Buffer> private_memory;
    if (private_bytes != 0) private_memory.emplace(device, static_cast<uint64_t>(private_bytes));

    uint32_t knl[abi::kKnlWords] = {};
    knl[abi::knl::ENTRY] = entry;
    knl[abi::knl::ARG_BASE] = arg_buffer.address();
    knl[abi::knl::WORK_DIM] = shape.work_dim;
    for (int i = 0; i < 3; ++i) {
      knl[abi::knl::GLOBAL_SIZE + i] = global.size[i];
      knl[abi::knl::LOCAL_SIZE + i] = local.size[i];
      knl[abi::knl::GLOBAL_OFFSET + i] = options.global_offset[i];
    }
    knl[abi::knl::PRINT_ADDR] = print_buffer ? print_buffer->address() : 0;
    knl[abi::knl::PRINT_SIZE] = options.print_buffer_bytes;
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
