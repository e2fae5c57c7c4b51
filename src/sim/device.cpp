// The device: SMs, the placement of a launch's workgroups and the host threads that run
// the SMs (docs/simulator.md, "Dispatch").
#include "ventus/device.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "model.h"
#include "sm.h"
#include "ventus/error.h"

namespace ventus::sim {

std::string Fault::describe() const {
  if (!at_warp) return fmt::format("kernel '{}': {}", kernel, message);
  std::string where = fmt::format("kernel '{}' workgroup ({},{},{}) warp {} (SM {}) pc {:#010x}",
                                  kernel, workgroup[0], workgroup[1], workgroup[2], warp, sm, pc);
  if (!disassembly.empty()) where += fmt::format(" [{:08x} {}]", instruction, disassembly);
  return where + ": " + message;
}

struct Device::Impl {
  DeviceConfig config;
  Memory memory;
  std::vector<std::unique_ptr<Sm>> sms;
};

Device::Device(const DeviceConfig& config) : impl_(std::make_unique<Impl>()) {
  impl_->config = config;
  if (config.num_sms == 0) throw Error("device configuration: num_sms must be at least 1");
  if (config.max_threads_per_warp == 0 || config.max_threads_per_warp > kMaxLanes)
    throw Error(fmt::format("device configuration: max_threads_per_warp must be 1..{}", kMaxLanes));
  if (config.max_workgroups_per_sm == 0 || config.max_workgroups_per_sm > 32)
    throw Error("device configuration: max_workgroups_per_sm must be 1..32");
  for (uint32_t s = 0; s < config.num_sms; ++s)
    impl_->sms.push_back(std::make_unique<Sm>(s, impl_->config, impl_->memory));
}

Device::~Device() = default;

const DeviceConfig& Device::config() const {
  return impl_->config;
}
Memory& Device::memory() {
  return impl_->memory;
}

const char* to_string(LaunchLimit limit) {
  switch (limit) {
    case LaunchLimit::work_dimensions: return "work dimensions";
    case LaunchLimit::global_size: return "global size";
    case LaunchLimit::local_size: return "local size";
    case LaunchLimit::work_item_size: return "work-item size";
    case LaunchLimit::work_group_size: return "work-group size";
    case LaunchLimit::grid: return "grid";
    case LaunchLimit::threads_per_warp: return "threads per warp";
    case LaunchLimit::scalar_registers: return "scalar registers";
    case LaunchLimit::vector_registers: return "vector registers";
    case LaunchLimit::local_memory: return "local memory";
    case LaunchLimit::private_memory: return "private memory";
    case LaunchLimit::arguments: return "arguments";
    case LaunchLimit::argument_bytes: return "argument bytes";
  }
  return "unknown limit";
}

namespace {

// The workgroups of the grid; UINT64_MAX when the product does not fit 64 bits.
uint64_t workgroup_count(const KernelLaunch& l) {
  const uint64_t xy = uint64_t{l.grid[0]} * l.grid[1];
  if (l.grid[2] != 0 && xy > UINT64_MAX / l.grid[2]) return UINT64_MAX;
  return xy * l.grid[2];
}

// Local memory bytes of one workgroup slot: lds_bytes rounded up to words.
uint64_t local_memory_stride(const KernelLaunch& l) {
  return (l.lds_bytes + 3u) & ~uint64_t{3};
}

// The workgroups of this launch an SM can hold at once. An SM places a workgroup in its
// lowest free slot (Sm::fits), so slot k is taken only while k + 1 workgroups are resident:
// every slot an SM gives this launch is below this count.
uint64_t resident_workgroups_per_sm(const KernelLaunch& l, const DeviceConfig& c) {
  const uint64_t W = std::max<uint32_t>(l.warps_per_workgroup, 1);
  uint64_t n = std::min<uint64_t>(c.max_workgroups_per_sm, c.warp_slots_per_sm / W);
  if (l.sgpr_usage != 0) n = std::min<uint64_t>(n, c.sgprs_per_sm / (W * l.sgpr_usage));
  if (l.vgpr_usage != 0) n = std::min<uint64_t>(n, c.vgprs_per_sm / (W * l.vgpr_usage));
  if (const uint64_t stride = local_memory_stride(l); stride != 0)
    n = std::min<uint64_t>(n, c.lds_bytes_per_sm / stride);
  return std::max<uint64_t>(n, 1);
}

// The private areas the launch uses (see private_memory_bytes) and whether area = workgroup.
struct PrivateAreas {
  uint64_t count = 0;
  uint64_t per_sm = 0;
  bool one_per_workgroup = false;
};

PrivateAreas private_areas(const KernelLaunch& l, const DeviceConfig& c) {
  PrivateAreas a;
  a.per_sm = resident_workgroups_per_sm(l, c);
  const uint64_t resident = a.per_sm * c.num_sms;
  const uint64_t groups = workgroup_count(l);
  a.one_per_workgroup = groups <= resident;
  a.count = std::min(groups, resident);
  return a;
}

// W * T * pds_bytes_per_thread; 96 bits for a launch check_launch has not yet checked.
unsigned __int128 private_area_bytes(const KernelLaunch& l) {
  return static_cast<unsigned __int128>(uint64_t{l.warps_per_workgroup} * l.threads_per_warp) *
         l.pds_bytes_per_thread;
}

}  // namespace

uint64_t private_memory_bytes(const KernelLaunch& l, const DeviceConfig& c) {
  const unsigned __int128 area = private_area_bytes(l), count = private_areas(l, c).count;
  if (area != 0 && count > UINT64_MAX / area) return UINT64_MAX;
  return static_cast<uint64_t>(count * area);
}

uint32_t private_memory_of_warp(const KernelLaunch& l, const DeviceConfig& c, uint32_t linear,
                                uint32_t sm, uint32_t slot, uint32_t warp) {
  const PrivateAreas areas = private_areas(l, c);
  const uint64_t area = areas.one_per_workgroup ? linear : uint64_t{sm} * areas.per_sm + slot;
  const uint64_t per_warp = uint64_t{l.threads_per_warp} * l.pds_bytes_per_thread;
  // Within the address space (check_launch), so no product wraps.
  return static_cast<uint32_t>(l.pds_base + area * static_cast<uint64_t>(private_area_bytes(l)) +
                               warp * per_warp);
}

std::optional<LaunchError> check_launch(const KernelLaunch& l, const DeviceConfig& c) {
  const auto refuse = [](LaunchLimit limit, uint64_t requested, uint64_t available,
                         std::string message) {
    return std::optional<LaunchError>(LaunchError{limit, requested, available, std::move(message)});
  };
  const uint64_t groups = workgroup_count(l);
  if (groups == 0)
    return refuse(
        LaunchLimit::grid, 0, UINT32_MAX,
        fmt::format("the grid {}x{}x{} has no workgroup", l.grid[0], l.grid[1], l.grid[2]));
  if (groups > UINT32_MAX)
    return refuse(LaunchLimit::grid, groups, UINT32_MAX,
                  fmt::format("the grid {}x{}x{} has more than 2^32 - 1 workgroups", l.grid[0],
                              l.grid[1], l.grid[2]));
  const uint64_t W = l.warps_per_workgroup, T = l.threads_per_warp;
  if (T == 0 || T > c.max_threads_per_warp)
    return refuse(
        LaunchLimit::threads_per_warp, T, c.max_threads_per_warp,
        fmt::format("{} threads per warp; the device has 1..{}", T, c.max_threads_per_warp));
  const uint64_t max_warps = c.max_warps_per_workgroup();
  if (W == 0 || W > max_warps)
    return refuse(LaunchLimit::work_group_size, W, max_warps,
                  W > c.warp_slots_per_sm
                      ? fmt::format("a workgroup of {} warps needs more than the {} warp slots "
                                    "of an SM",
                                    W, c.warp_slots_per_sm)
                      : fmt::format("a workgroup of {} warps; 1..{} are possible", W, max_warps));
  if (W * l.sgpr_usage > c.sgprs_per_sm)
    return refuse(LaunchLimit::scalar_registers, W * l.sgpr_usage, c.sgprs_per_sm,
                  fmt::format("a workgroup needs {} warps x {} scalar registers; an SM has {}", W,
                              l.sgpr_usage, c.sgprs_per_sm));
  if (W * l.vgpr_usage > c.vgprs_per_sm)
    return refuse(LaunchLimit::vector_registers, W * l.vgpr_usage, c.vgprs_per_sm,
                  fmt::format("a workgroup needs {} warps x {} vector registers; an SM has {}", W,
                              l.vgpr_usage, c.vgprs_per_sm));
  // The warps' stacks are part of the workgroup's local memory.
  const uint64_t stacks = uint64_t{l.warp_stack_bytes} * W;
  if (stacks > l.lds_bytes || l.lds_bytes > c.lds_bytes_per_sm) {
    const uint64_t needed = std::max<uint64_t>(stacks, l.lds_bytes);
    return refuse(LaunchLimit::local_memory, needed, c.lds_bytes_per_sm,
                  stacks > l.lds_bytes
                      ? fmt::format("{} warp stacks of {} bytes do not fit the workgroup's {} "
                                    "bytes of local memory",
                                    W, l.warp_stack_bytes, l.lds_bytes)
                      : fmt::format("a workgroup needs {} bytes of local memory ({} warps x {} "
                                    "bytes of stack + {} bytes of local data); an SM has {}: {} "
                                    "bytes too many",
                                    l.lds_bytes, W, l.warp_stack_bytes, l.lds_bytes - stacks,
                                    c.lds_bytes_per_sm, l.lds_bytes - c.lds_bytes_per_sm));
  }
  // The last private area must end within the 32-bit address space (a wrapped CSR_PDS
  // would alias another workgroup's private memory).
  const uint64_t private_bytes = private_memory_bytes(l, c);
  const uint64_t room = (uint64_t{1} << 32) - l.pds_base;
  if (private_bytes > room)
    return refuse(LaunchLimit::private_memory, private_bytes, room,
                  fmt::format("the private memory of the resident workgroups ({} x {} bytes: "
                              "pdsSize {} x {} threads) from pds_base {:#010x} goes beyond the "
                              "32-bit address space",
                              private_areas(l, c).count, W * T * l.pds_bytes_per_thread,
                              l.pds_bytes_per_thread, W * T, l.pds_base));
  return std::nullopt;
}

std::string describe(const LaunchProgress& p) {
  return fmt::format("kernel '{}': {:.0f} s, {:.1f} M warp-instructions, {} of {} workgroups done",
                     p.kernel, p.seconds, p.warp_instructions / 1e6, p.workgroups_done,
                     p.workgroups);
}

LaunchResult Device::run(const KernelLaunch& launch, const RunOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  const DeviceConfig& config = impl_->config;
  LaunchResult result;
  if (const std::optional<LaunchError> refused = check_launch(launch, config)) {
    Fault f;
    f.kernel = launch.kernel_name;
    f.at_warp = false;
    f.message = "the launch cannot run: " + refused->message;
    result.fault = std::move(f);
    return result;
  }

  const uint64_t groups = workgroup_count(launch);
  LaunchShared shared{launch, options, config};
  // Workgroup slot k owns [k * stride, (k + 1) * stride) of the SM's local memory.
  shared.lds_stride = static_cast<uint32_t>(local_memory_stride(launch));  // checked
  shared.unlimited_budget = config.instruction_budget == 0;
  shared.budget_left = config.instruction_budget;

  // No exception leaves the launch or a worker (one in a thread would terminate the
  // process): an exception outside any warp (no memory for a workgroup, a progress handler
  // that throws) stops the launch and becomes its fault.
  const auto stop_for_host_error = [&](uint32_t sm) {
    {
      std::lock_guard lock(shared.mutex);
      if (!shared.host_error) {
        shared.host_error = std::current_exception();
        shared.host_error_sm = sm;
      }
    }
    shared.stop.store(true);
  };

  // Workgroup i runs on SM i mod num_sms, and each SM admits its workgroups in order:
  // placement depends only on the launch and the configuration. The ids are generated as
  // workgroups are admitted (a grid of 2^32 workgroups lists nothing up front).
  const uint32_t num_sms = config.num_sms;
  std::vector<Sm*> active;
  for (uint32_t s = 0; s < num_sms && s < groups; ++s) {
    try {
      active.push_back(impl_->sms[s].get());
      impl_->sms[s]->start(shared, s, num_sms, groups);
    } catch (...) {
      stop_for_host_error(s);
      break;
    }
  }

  // Each host thread runs a fixed group of SMs, a slice at a time in turn, so that SMs that
  // wait on each other through global memory make progress on one thread too. A trace
  // runs on one thread so that its lines come in a reproducible order.
  constexpr uint64_t kSlice = 1 << 16;
  const unsigned threads = options.trace ? 1u
                                         : std::clamp<unsigned>(config.host_threads, 1u,
                                                                std::max<size_t>(active.size(), 1));
  // Progress is reported between rounds of slices by whichever worker first finds the
  // interval over (so one report per interval, whichever SMs are still running).
  using Seconds = std::chrono::duration<double>;
  std::atomic<double> next_report{options.progress_interval};
  auto report_progress = [&] {
    const double now = Seconds(std::chrono::steady_clock::now() - started).count();
    double due = next_report.load(std::memory_order_relaxed);
    if (now < due || !next_report.compare_exchange_strong(due, now + options.progress_interval))
      return;
    // The time is read again under the lock: two workers that both won a report deliver
    // them in lock order, and their times must grow in that order too.
    std::lock_guard lock(shared.mutex);
    options.on_progress({launch.kernel_name, shared.executed.load(std::memory_order_relaxed),
                         shared.retired.load(std::memory_order_relaxed), groups,
                         Seconds(std::chrono::steady_clock::now() - started).count()});
  };
  auto worker = [&](unsigned index) {
    uint32_t sm_index = 0;
    try {
      std::vector<Sm*> mine;
      for (size_t s = index; s < active.size(); s += threads) mine.push_back(active[s]);
      while (!mine.empty() && !shared.stop.load(std::memory_order_relaxed)) {
        std::erase_if(mine, [&](Sm* sm) {
          sm_index = sm->index();
          return !sm->run(kSlice);
        });
        if (options.on_progress) report_progress();
      }
    } catch (...) {
      stop_for_host_error(sm_index);
    }
  };
  if (options.timing) {
    // The cycle model advances every SM together, one cycle at a time, on this thread: the
    // L2 and memory they share see their requests in simulated-time order whatever the
    // number of host threads (docs/timing.md).
    try {
      result.timing = timing::run_launch(
          *options.timing, active, shared, options.timeline,
          options.on_progress ? std::function<void()>(report_progress) : std::function<void()>());
    } catch (...) {
      stop_for_host_error(0);
    }
  } else if (threads == 1) {
    worker(0);
  } else {
    std::vector<std::jthread> pool;
    for (unsigned t = 0; t < threads; ++t) {
      try {
        pool.emplace_back(worker, t);
      } catch (...) {  // std::system_error: the host cannot start another thread
        stop_for_host_error(0);
        break;
      }
    }
  }

  for (Sm* sm : active) {
    const LaunchStats& s = sm->stats();
    result.stats.warp_instructions += s.warp_instructions;
    result.stats.thread_instructions += s.thread_instructions;
    result.stats.divergences += s.divergences;
    result.stats.barriers += s.barriers;
    result.stats.workgroups += s.workgroups;
    result.stats.decodes += sm->decodes();
  }
  result.fault = std::move(shared.fault);
  if (!result.fault && shared.host_error) {
    Fault f;
    f.kernel = launch.kernel_name;
    f.at_warp = false;
    f.sm = shared.host_error_sm;
    f.message = describe_host_exception(shared.host_error, "the launch");
    result.fault = std::move(f);
  }
  if (shared.memcheck) shared.memcheck->finish(result);
  result.stats.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return result;
}

}  // namespace ventus::sim
