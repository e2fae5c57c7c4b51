// The C driver API (include/ventus/ventus.h) over driver::Context. Every entry point turns
// a ventus::Error (or any other exception) into -1 and keeps the message for
// vt_ext_last_error; no exception crosses the C boundary.
#include <fmt/format.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "context.h"
#include "ventus/elf.h"
#include "ventus/error.h"
#include "ventus/file.h"
#include "ventus/ventus.h"

namespace {

using ventus::Error;
using ventus::driver::Context;

struct DeviceHandle {
  explicit DeviceHandle(const ventus::sim::DeviceConfig& config) : context(config) {}
  Context context;
  std::string last_error;
  vt_ext_launch_error last_launch_error = {VT_EXT_LIMIT_NONE, 0, 0};
};

// VT_EXT_LIMIT_*: the limit's position in sim::LaunchLimit, plus one.
constexpr uint32_t c_limit(ventus::sim::LaunchLimit limit) {
  return static_cast<uint32_t>(limit) + 1;
}
static_assert(c_limit(ventus::sim::LaunchLimit::grid) == VT_EXT_LIMIT_GRID);
static_assert(c_limit(ventus::sim::LaunchLimit::threads_per_warp) == VT_EXT_LIMIT_THREADS_PER_WARP);
static_assert(c_limit(ventus::sim::LaunchLimit::work_group_size) == VT_EXT_LIMIT_WORK_GROUP_SIZE);
static_assert(c_limit(ventus::sim::LaunchLimit::scalar_registers) == VT_EXT_LIMIT_SCALAR_REGISTERS);
static_assert(c_limit(ventus::sim::LaunchLimit::vector_registers) == VT_EXT_LIMIT_VECTOR_REGISTERS);
static_assert(c_limit(ventus::sim::LaunchLimit::local_memory) == VT_EXT_LIMIT_LOCAL_MEMORY);
static_assert(c_limit(ventus::sim::LaunchLimit::private_memory) == VT_EXT_LIMIT_PRIVATE_MEMORY);

thread_local std::string g_error_without_device;

ventus::sim::DeviceConfig to_device_config(const vt_ext_config& c) {
  ventus::sim::DeviceConfig config;
  config.num_sms = c.num_sms;
  config.warp_slots_per_sm = c.warp_slots_per_sm;
  config.max_threads_per_warp = c.max_threads_per_warp;
  config.vgprs_per_sm = c.vgprs_per_sm;
  config.sgprs_per_sm = c.sgprs_per_sm;
  config.lds_bytes_per_sm = c.lds_bytes_per_sm;
  config.max_workgroups_per_sm = c.max_workgroups_per_sm;
  config.instruction_budget = c.instruction_budget;
  config.host_threads = c.host_threads;
  return config;
}

void check_config(const vt_ext_config& c) {
  if (c.num_sms == 0) throw Error("device configuration: num_sms must be at least 1");
  if (c.warp_slots_per_sm == 0)
    throw Error("device configuration: warp_slots_per_sm must be at least 1");
  if (c.max_threads_per_warp == 0 || c.max_threads_per_warp > 32)
    throw Error(fmt::format("device configuration: max_threads_per_warp {} (1 to 32)",
                            c.max_threads_per_warp));
  if (c.max_workgroups_per_sm == 0)
    throw Error("device configuration: max_workgroups_per_sm must be at least 1");
  if (c.host_threads == 0) throw Error("device configuration: host_threads must be at least 1");
}

// Runs body, returning 0, or records the failure and returns -1.
template <typename Body>
int guarded(vt_device_h hdevice, const char* function, Body&& body) {
  std::string* error =
      hdevice ? &static_cast<DeviceHandle*>(hdevice)->last_error : &g_error_without_device;
  try {
    body();
    return 0;
  } catch (const std::exception& e) {
    *error = fmt::format("{}: {}", function, e.what());
  } catch (...) {
    *error = fmt::format("{}: unknown failure", function);
  }
  return -1;
}

Context& context_of(vt_device_h hdevice) {
  if (hdevice == nullptr) throw Error("device handle is NULL");
  return static_cast<DeviceHandle*>(hdevice)->context;
}

uint64_t caps_value(const ventus::sim::DeviceConfig& config, uint64_t id) {
  switch (id) {
    case VT_CAPS_VERSION: return 1;
    case VT_CAPS_MAX_CORES: return config.num_sms;
    case VT_CAPS_MAX_WARPS: return config.warp_slots_per_sm;
    case VT_CAPS_MAX_THREADS: return config.max_threads_per_warp;
    case VT_CAPS_CACHE_LINE_SIZE: return 64;  // no caches are modelled; the RTL's line size
    case VT_CAPS_LOCAL_MEM_SIZE: return config.lds_bytes_per_sm;
    case VT_CAPS_ALLOC_BASE_ADDR: return ventus::sim::kBufferBase;
    case VT_CAPS_KERNEL_BASE_ADDR: return ventus::sim::kCodeBase;
    case VT_CAPS_MAX_WG_SLOTS: return config.max_workgroups_per_sm;
  }
  throw Error(fmt::format("unknown caps id {}", id));
}

void upload_bytes(Context& context, const uint8_t* bytes, uint64_t size, const std::string& name) {
  const std::span<const uint8_t> image(bytes, static_cast<size_t>(size));
  if (ventus::elf::has_magic(image))
    context.load_program(ventus::elf::read(image, name));
  else
    context.load_raw_code(image);
}

}  // namespace

extern "C" {

void vt_ext_default_config(vt_ext_config* config) {
  if (config == nullptr) return;
  const ventus::sim::DeviceConfig d;
  *config = {d.num_sms,      d.warp_slots_per_sm, d.max_threads_per_warp,  d.vgprs_per_sm,
             d.sgprs_per_sm, d.lds_bytes_per_sm,  d.max_workgroups_per_sm, d.instruction_budget,
             d.host_threads};
}

int vt_ext_dev_open_config(vt_device_h* hdevice, const vt_ext_config* config) {
  return guarded(nullptr, "vt_dev_open", [&] {
    if (hdevice == nullptr) throw Error("device handle pointer is NULL");
    if (config == nullptr) throw Error("configuration is NULL");
    check_config(*config);
    *hdevice = new DeviceHandle(to_device_config(*config));
  });
}

int vt_dev_open(vt_device_h* hdevice) {
  vt_ext_config config;
  vt_ext_default_config(&config);
  return vt_ext_dev_open_config(hdevice, &config);
}

int vt_dev_close(vt_device_h hdevice) {
  return guarded(nullptr, "vt_dev_close", [&] {
    if (hdevice == nullptr) throw Error("device handle is NULL");
    delete static_cast<DeviceHandle*>(hdevice);
  });
}

int vt_dev_caps(vt_device_h* hdevice, uint64_t caps_id, uint64_t* value) {
  vt_device_h device = hdevice ? *hdevice : nullptr;
  return guarded(device, "vt_dev_caps", [&] {
    if (value == nullptr) throw Error("value pointer is NULL");
    // Like the public driver, answers without a device (for the default configuration).
    const ventus::sim::DeviceConfig config =
        device ? context_of(device).config() : ventus::sim::DeviceConfig{};
    *value = caps_value(config, caps_id);
  });
}

int vt_root_mem_alloc(vt_device_h hdevice, int taskID) {
  return guarded(hdevice, "vt_root_mem_alloc", [&] {
    context_of(hdevice);
    if (taskID < 0) throw Error(fmt::format("task id {} is negative", taskID));
  });
}

int vt_root_mem_free(vt_device_h hdevice, int taskID) {
  return guarded(hdevice, "vt_root_mem_free", [&] {
    if (taskID < 0) throw Error(fmt::format("task id {} is negative", taskID));
    context_of(hdevice).free_task(static_cast<uint64_t>(taskID));
  });
}

int vt_buf_alloc(vt_device_h hdevice, uint64_t size, uint64_t* vaddr, int BUF_TYPE, uint64_t taskID,
                 uint64_t kernelID) {
  (void)BUF_TYPE;
  (void)kernelID;
  return guarded(hdevice, "vt_buf_alloc", [&] {
    if (vaddr == nullptr) throw Error("vaddr pointer is NULL");
    *vaddr = context_of(hdevice).allocate(size, taskID);
  });
}

int vt_buf_free(vt_device_h hdevice, uint64_t size, uint64_t* vaddr, uint64_t taskID,
                uint64_t kernelID) {
  (void)size;
  (void)vaddr;
  (void)kernelID;
  return guarded(hdevice, "vt_buf_free", [&] { context_of(hdevice).free_task(taskID); });
}

int vt_one_buf_free(vt_device_h hdevice, uint64_t size, uint64_t* vaddr, uint64_t taskID,
                    uint64_t kernelID) {
  (void)size;
  (void)taskID;
  (void)kernelID;
  return guarded(hdevice, "vt_one_buf_free", [&] {
    if (vaddr == nullptr) throw Error("vaddr pointer is NULL");
    context_of(hdevice).free(*vaddr);
  });
}

int vt_copy_to_dev(vt_device_h hdevice, uint64_t dev_vaddr, const void* src_addr, uint64_t size,
                   uint64_t taskID, uint64_t kernelID) {
  (void)taskID;
  (void)kernelID;
  return guarded(hdevice, "vt_copy_to_dev",
                 [&] { context_of(hdevice).copy_to_device(dev_vaddr, src_addr, size); });
}

int vt_copy_from_dev(vt_device_h hdevice, uint64_t dev_vaddr, void* dst_addr, uint64_t size,
                     uint64_t taskID, uint64_t kernelID) {
  (void)taskID;
  (void)kernelID;
  return guarded(hdevice, "vt_copy_from_dev",
                 [&] { context_of(hdevice).copy_from_device(dev_vaddr, dst_addr, size); });
}

int vt_start(vt_device_h hdevice, void* metaData, uint64_t taskID) {
  return guarded(hdevice, "vt_start", [&] {
    Context& context = context_of(hdevice);
    vt_ext_launch_error& refusal = static_cast<DeviceHandle*>(hdevice)->last_launch_error;
    refusal = {VT_EXT_LIMIT_NONE, 0, 0};
    if (metaData == nullptr) throw Error("metaData is NULL");
    const meta_data& m = *static_cast<const meta_data*>(metaData);
    const auto narrow = [](uint64_t v, const char* field) {
      if (v > UINT32_MAX)
        throw Error(fmt::format("meta_data.{} = 0x{:x} does not fit 32 bits", field, v));
      return static_cast<uint32_t>(v);
    };
    ventus::sim::KernelLaunch l;
    l.kernel_name = fmt::format("kernel {}", m.kernel_id);
    l.start_pc = context.start_pc();
    for (int i = 0; i < 3; ++i) l.grid[i] = narrow(m.kernel_size[i], "kernel_size");
    l.threads_per_warp = narrow(m.wf_size, "wf_size");
    l.warps_per_workgroup = narrow(m.wg_size, "wg_size");
    l.knl_address = narrow(m.metaDataBaseAddr, "metaDataBaseAddr");
    l.lds_bytes = narrow(m.ldsSize, "ldsSize");
    l.pds_bytes_per_thread = narrow(m.pdsSize, "pdsSize");
    l.sgpr_usage = narrow(m.sgprUsage, "sgprUsage");
    l.vgpr_usage = narrow(m.vgprUsage, "vgprUsage");
    l.pds_base = narrow(m.pdsBaseAddr, "pdsBaseAddr");
    if (const ventus::elf::Image* program = context.program()) {
      // Name the kernel after the symbol the KNL buffer's entry word points at.
      uint32_t entry = 0;
      try {
        context.peek(l.knl_address, &entry, sizeof entry);
      } catch (const Error& e) {
        throw Error(fmt::format("metaDataBaseAddr 0x{:08x}: {}", l.knl_address, e.what()));
      }
      if (const ventus::elf::Symbol* s = program->symbol_at(entry)) l.kernel_name = s->name;
    }
    try {
      context.start(l, static_cast<int>((taskID << 4) | (m.kernel_id & 0xf)));
    } catch (const ventus::sim::LaunchRefused& e) {
      refusal = {c_limit(e.error().limit), e.error().requested, e.error().available};
      throw;
    }
  });
}

int vt_ready_wait(vt_device_h hdevice, uint64_t timeout) {
  return guarded(hdevice, "vt_ready_wait", [&] {
    if (!context_of(hdevice).wait(timeout))
      throw Error(fmt::format("kernels still running after {} ms", timeout));
  });
}

int vt_finish_all_kernel(vt_device_h hdevice, vt_kernel_queue* finished_list) {
  return guarded(hdevice, "vt_finish_all_kernel", [&] {
    if (finished_list == nullptr) throw Error("finished_list is NULL");
    Context& context = context_of(hdevice);
    std::string failure;
    try {
      context.wait(Context::kWaitForever);
    } catch (const Error& e) {
      failure = e.what();
    }
    for (int id : context.take_finished()) finished_list->push(id);
    if (!failure.empty()) throw Error(failure);
  });
}

int vt_upload_kernel_bytes(vt_device_h device, const void* content, uint64_t size, int taskID) {
  (void)taskID;
  return guarded(device, "vt_upload_kernel_bytes", [&] {
    if (content == nullptr || size == 0) throw Error("no content");
    upload_bytes(context_of(device), static_cast<const uint8_t*>(content), size, "<kernel bytes>");
  });
}

int vt_upload_kernel_file(vt_device_h device, const char* filename, int kernelID) {
  (void)kernelID;
  return guarded(device, "vt_upload_kernel_file", [&] {
    if (filename == nullptr) throw Error("filename is NULL");
    const std::vector<uint8_t> bytes = ventus::read_input_bytes(filename, {.accept_streams = true});
    if (bytes.empty()) throw Error(fmt::format("{}: file is empty", filename));
    upload_bytes(context_of(device), bytes.data(), bytes.size(), filename);
  });
}

int vt_dump_perf(vt_device_h device, FILE* stream) {
  return guarded(device, "vt_dump_perf", [&] {
    if (stream == nullptr) throw Error("stream is NULL");
    const ventus::sim::LaunchStats s = context_of(device).last_stats();
    fmt::print(stream,
               "warp instructions {}\nthread instructions {}\ndivergences {}\nbarriers {}\n"
               "workgroups {}\nseconds {:.6f}\n",
               s.warp_instructions, s.thread_instructions, s.divergences, s.barriers, s.workgroups,
               s.seconds);
    if (const auto timing = context_of(device).last_timing())
      fmt::print(stream, "cycles {}\nipc {:.3f}\n", timing->cycles, timing->ipc());
  });
}

const char* vt_ext_last_error(vt_device_h hdevice) {
  return hdevice ? static_cast<DeviceHandle*>(hdevice)->last_error.c_str()
                 : g_error_without_device.c_str();
}

int vt_ext_get_launch_stats(vt_device_h hdevice, vt_ext_launch_stats* stats) {
  return guarded(hdevice, "vt_ext_get_launch_stats", [&] {
    if (stats == nullptr) throw Error("stats pointer is NULL");
    const ventus::sim::LaunchStats s = context_of(hdevice).last_stats();
    *stats = {s.warp_instructions, s.thread_instructions, s.divergences,
              s.barriers,          s.workgroups,          s.seconds};
  });
}

int vt_ext_symbol_address(vt_device_h hdevice, const char* name, uint64_t* address) {
  return guarded(hdevice, "vt_ext_symbol_address", [&] {
    if (name == nullptr || address == nullptr) throw Error("name or address pointer is NULL");
    const ventus::elf::Image* program = context_of(hdevice).program();
    if (program == nullptr) throw Error("no ELF program was uploaded");
    const auto value = program->symbol_address(name);
    if (!value) throw Error(fmt::format("the program has no symbol '{}'", name));
    *address = *value;
  });
}

int vt_ext_set_print_callback(vt_device_h hdevice, vt_ext_text_callback callback, void* user) {
  return guarded(hdevice, "vt_ext_set_print_callback", [&] {
    ventus::driver::TextSink sink;
    if (callback)
      sink = [callback, user](std::string_view text) { callback(std::string(text).c_str(), user); };
    context_of(hdevice).set_print_sink(std::move(sink));
  });
}

int vt_ext_set_trace_callback(vt_device_h hdevice, vt_ext_text_callback callback, void* user) {
  return guarded(hdevice, "vt_ext_set_trace_callback", [&] {
    std::shared_ptr<ventus::sim::TraceSink> sink;
    if (callback)
      sink = ventus::sim::trace_lines(
          [callback, user](std::string_view text) { callback(std::string(text).c_str(), user); });
    context_of(hdevice).set_trace_sink(std::move(sink));
  });
}

int vt_ext_get_launch_error(vt_device_h hdevice, vt_ext_launch_error* error) {
  return guarded(hdevice, "vt_ext_get_launch_error", [&] {
    if (error == nullptr) throw Error("error pointer is NULL");
    context_of(hdevice);
    *error = static_cast<DeviceHandle*>(hdevice)->last_launch_error;
  });
}

int vt_ext_set_timing(vt_device_h hdevice, const char* preset_or_file) {
  return guarded(hdevice, "vt_ext_set_timing", [&] {
    Context& context = context_of(hdevice);
    if (preset_or_file == nullptr || *preset_or_file == '\0')
      context.set_timing(std::nullopt);
    else
      context.set_timing(ventus::timing::load(preset_or_file));
  });
}

int vt_ext_set_timing_parameter(vt_device_h hdevice, const char* assignment) {
  return guarded(hdevice, "vt_ext_set_timing_parameter", [&] {
    if (assignment == nullptr) throw Error("assignment is NULL");
    Context& context = context_of(hdevice);
    std::optional<ventus::timing::Config> config = context.timing_config();
    if (!config) throw Error("the device runs without timing (vt_ext_set_timing first)");
    ventus::timing::set_parameter(*config, assignment);
    context.set_timing(std::move(config));
  });
}

int vt_ext_get_last_cycles(vt_device_h hdevice, uint64_t* cycles) {
  return guarded(hdevice, "vt_ext_get_last_cycles", [&] {
    if (cycles == nullptr) throw Error("cycles pointer is NULL");
    const std::optional<ventus::timing::LaunchTiming> timing = context_of(hdevice).last_timing();
    if (!timing) throw Error("the last launch ran without timing (vt_ext_set_timing)");
    *cycles = timing->cycles;
  });
}

int vt_ext_set_memcheck(vt_device_h hdevice, int enable) {
  return guarded(hdevice, "vt_ext_set_memcheck",
                 [&] { context_of(hdevice).set_memcheck(enable != 0); });
}

int vt_ext_cancel(vt_device_h hdevice) {
  return guarded(hdevice, "vt_ext_cancel", [&] { context_of(hdevice).cancel(); });
}

}  // extern "C"
