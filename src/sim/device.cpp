// The device: SMs, the placement of a launch's workgroups and the host threads that run
// the SMs (docs/simulator.md, "Dispatch").
#include "ventus/device.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <functional>
#include <thread>
#include <tuple>

#include "host_pool.h"
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

// Executions of a block start on one slot before JitMode::On asks the translator for it, and
// again between asks while the translator holds it back (Translator::find_or_translate: while
// every core simulates, until the device's starts have cost what its compile will). Asking
// at every start would take the translator's lock for each.
constexpr uint32_t kJitThreshold = 200;

struct Device::Impl {
  DeviceConfig config;
  Memory memory;
  std::vector<std::unique_ptr<LocalMemory>> lds;  // one per SM
  // The workgroup slots that run a launch: slot u / num_sms of SM u mod num_sms, made on
  // first use and kept (with their decoded code) from launch to launch. The cycle model
  // uses the first num_sms, each as a whole SM.
  std::vector<std::unique_ptr<Sm>> slots;
  // The translations of this device's code (src/jit), shared by every slot and host thread;
  // made at the first launch that translates.
  std::unique_ptr<jit::Translator> translator;
  // The host threads that run the slots with this one; last, so that they are joined before
  // anything they could touch is destroyed.
  HostPool pool;
  Sm& slot(uint32_t u) {
    while (slots.size() <= u) {
      const auto sm = static_cast<uint32_t>(slots.size() % config.num_sms);
      slots.push_back(std::make_unique<Sm>(sm, config, memory, *lds[sm]));
    }
    return *slots[u];
  }
};

Device::Device(const DeviceConfig& config) : impl_(std::make_unique<Impl>()) {
  impl_->config = config;
  if (config.num_sms == 0) throw Error("device configuration: num_sms must be at least 1");
  if (config.max_threads_per_warp == 0 || config.max_threads_per_warp > kMaxLanes)
    throw Error(fmt::format("device configuration: max_threads_per_warp must be 1..{}", kMaxLanes));
  if (config.max_workgroups_per_sm == 0 || config.max_workgroups_per_sm > 32)
    throw Error("device configuration: max_workgroups_per_sm must be 1..32");
  for (uint32_t s = 0; s < config.num_sms; ++s)
    impl_->lds.push_back(std::make_unique<LocalMemory>());
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

// The workgroups of this launch an SM can hold at once, R: Device::run gives workgroup i slot
// (i / num_sms) mod R, and with the cycle model an SM takes its lowest free slot (Sm::fits),
// which is below R since at most R fit: every slot an SM gives this launch is below R.
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

// A slot's grant in a round after one that served print requests (otherwise
// kRoundWarpInstructions): a warp that waits for room in a full print buffer retries (65,536
// times at most, src/compiler/lib/printf.s), and the host makes room between rounds.
constexpr uint64_t kPrintRound = 1 << 9;

// Which host thread runs which workgroup slot in a round. Consecutive slots run consecutive
// workgroups, which mostly use neighbouring memory: a kernel that streams through its
// buffers (saxpy, vecadd) gives each workgroup a few hundred bytes to a few KiB, so slots
// u and u + 1 read and write the same pages, often the same 4 KiB. Taken one after the
// other from one counter, the slots alternated between two threads, so both cores streamed
// through the same pages, each writing lines that the other's prefetchers had just fetched
// (and the other then had to give up): on 2 threads saxpy's slots cost up to 60 % more CPU
// time than on one (docs/performance.md, "Two host threads and the commit log's writes").
// So each thread that joins a round takes a contiguous range of the slots, one range per
// thread the round expects, from its front; a thread whose range is done takes what is left
// of the others' from their backs, so that a thread that joins late (or never,
// HostPool::run) holds nobody up, and the two threads of a shared range stay apart. With one
// thread the slots run in ascending order (what a trace's line order relies on).
class SlotRanges {
 public:
  // A new round of `slots` slots for `threads` threads.
  void reset(size_t slots, unsigned threads) {
    count_ = std::max<size_t>(1, std::min<size_t>({threads, slots, kMaxRanges}));
    for (size_t r = 0; r < count_; ++r)
      ranges_[r].ends.store(pack(slots * r / count_, slots * (r + 1) / count_),
                            std::memory_order_relaxed);
    joined_.store(0, std::memory_order_relaxed);
  }
  // Calls run(u) for each slot u that this thread takes, until none is left.
  template <class Run>
  void take(Run run) {
    const size_t own = joined_.fetch_add(1, std::memory_order_relaxed) % count_;
    for (size_t u; (u = pop(ranges_[own], true)) != kNone;) run(u);
    for (size_t r = (own + 1) % count_; r != own; r = (r + 1) % count_)
      for (size_t u; (u = pop(ranges_[r], false)) != kNone;) run(u);
  }

 private:
  static constexpr size_t kMaxRanges = 64, kNone = ~size_t{0};
  // [front, back) of a range's slots not taken yet, in one word.
  struct alignas(kCacheLine) Range {
    std::atomic<uint64_t> ends{0};
  };
  static uint64_t pack(size_t front, size_t back) { return uint64_t{back} << 32 | front; }
  // The slot taken from the front (or back) of r; kNone when r is empty.
  static size_t pop(Range& r, bool front) {
    uint64_t ends = r.ends.load(std::memory_order_relaxed);
    while (true) {
      const size_t first = ends & 0xffffffff, end = ends >> 32;
      if (first >= end) return kNone;
      const uint64_t after = front ? pack(first + 1, end) : pack(first, end - 1);
      if (r.ends.compare_exchange_weak(ends, after, std::memory_order_relaxed))
        return front ? first : end - 1;
    }
  }

  std::array<Range, kMaxRanges> ranges_;
  size_t count_ = 1;
  alignas(kCacheLine) std::atomic<size_t> joined_{0};
};

// Runs the workgroup slots of a launch without the cycle model (docs/simulator.md, "Host
// threads"), in rounds: in each, every slot that has work runs exactly its grant of warp
// instructions (kRoundWarpInstructions), unless its workgroups end, it faults (a workgroup that
// runs out of its instruction budget, too) or its warps all wait for the host; this thread and the
// device's pool threads take the slots in parallel (SlotRanges). Between rounds, on one thread:
// the round's faults end the launch (the lowest workgroup id's is reported), print requests are
// served in workgroup order and progress is reported. What a slot does in a round depends only on
// the slot and global memory, so the results are the same for any number of host threads.
void run_rounds(const std::vector<Sm*>& slots, LaunchShared& shared, HostPool& pool,
                const std::function<void()>& report_progress,
                const std::function<void(uint32_t)>& stop_for_host_error) {
  std::vector<uint64_t> grant(slots.size()), ran(slots.size());
  // A trace runs on one thread, so that its lines come in a reproducible order.
  const unsigned threads =
      shared.options.trace
          ? 1u
          : std::clamp<unsigned>(shared.config.host_threads, 1u, std::max<size_t>(slots.size(), 1));
  SlotRanges claims;
  bool printed = false;  // the last round served print requests
  // Grants the next round; false when the launch is over.
  const auto prepare = [&] {
    const uint64_t round = printed ? kPrintRound : kRoundWarpInstructions;
    bool any = false;
    for (size_t u = 0; u < slots.size(); ++u) {
      ran[u] = 0;
      grant[u] = slots[u]->busy() ? round : 0;
      any = any || slots[u]->busy();
    }
    claims.reset(slots.size(), threads);
    return any && !shared.stop.load();
  };
  // Settles a round; false when the launch is over.
  const auto finish = [&] {
    uint64_t total = 0;
    for (const uint64_t n : ran) total += n;
    shared.executed.fetch_add(total, std::memory_order_relaxed);
    if (shared.stop.load() || shared.fault) return false;
    struct Request {
      uint32_t workgroup, warp;
      Sm* slot;
      size_t index;
    };
    std::vector<Request> requests;
    for (Sm* slot : slots)
      for (size_t i = 0; i < slot->pending_prints().size(); ++i) {
        const Sm::PendingPrint& p = slot->pending_prints()[i];
        requests.push_back({p.group->linear, p.warp->warp_in_group, slot, i});
      }
    std::sort(requests.begin(), requests.end(), [](const Request& a, const Request& b) {
      return std::tie(a.workgroup, a.warp) < std::tie(b.workgroup, b.warp);
    });
    for (const Request& r : requests) {
      r.slot->deliver_print(r.slot->pending_prints()[r.index]);
      if (shared.fault) return false;
    }
    for (Sm* slot : slots) slot->clear_prints();
    printed = !requests.empty();
    if (report_progress) report_progress();
    return true;
  };
  // Taken by this thread and the pool's (HostPool::run): slot by slot until none is left.
  const std::function<void()> work = [&] {
    claims.take([&](size_t u) {
      if (grant[u] == 0) return;
      try {
        ran[u] = slots[u]->run(grant[u]);
      } catch (...) {
        stop_for_host_error(slots[u]->index());
      }
    });
  };
  const auto between_rounds = [&] {
    try {
      return finish() && prepare();
    } catch (...) {
      stop_for_host_error(0);
      return false;
    }
  };

  bool go = false;
  try {
    go = prepare();
  } catch (...) {
    stop_for_host_error(0);
  }
  while (go) {
    pool.run(threads - 1, work);
    go = between_rounds();
  }
}

}  // namespace

uint64_t private_memory_bytes(const KernelLaunch& l, const DeviceConfig& c) {
  const unsigned __int128 area = private_area_bytes(l), count = private_areas(l, c).count;
  if (area != 0 && count > UINT64_MAX / area) return UINT64_MAX;
  return static_cast<uint64_t>(count * area);
}

PrivateLayout private_layout(const KernelLaunch& l, const DeviceConfig& c) {
  const PrivateAreas areas = private_areas(l, c);
  PrivateLayout p;
  p.base = l.pds_base;
  // Within the address space (check_launch), so no product wraps.
  p.area_bytes = static_cast<uint64_t>(private_area_bytes(l));
  p.warp_bytes = uint64_t{l.threads_per_warp} * l.pds_bytes_per_thread;
  p.areas_per_sm = areas.per_sm;
  p.one_per_workgroup = areas.one_per_workgroup;
  return p;
}

uint32_t private_memory_of_warp(const KernelLaunch& l, const DeviceConfig& c, uint32_t linear,
                                uint32_t sm, uint32_t slot, uint32_t warp) {
  return private_layout(l, c).of_warp(linear, sm, slot, warp);
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
  shared.private_memory = private_layout(launch, config);

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

  // Local memory starts zeroed at every launch (its contents are undefined for a kernel).
  for (const std::unique_ptr<LocalMemory>& lds : impl_->lds) lds->clear();
  // Traced and timed launches interpret (the commit log and the cycle model see every
  // instruction); the others translate as the mode says.
  try {
    const JitMode mode = options.jit.value_or(jit_mode_from_environment());
    if (mode != JitMode::Off && !options.trace && !options.timing) {
      if (!impl_->translator) impl_->translator = std::make_unique<jit::Translator>();
      // The compile thread's CPU comes out of a launch that keeps every core busy. (The
      // count once per process: glibc reads it from /sys at every call, 3 system calls.)
      static const unsigned host_cores = std::thread::hardware_concurrency();
      const bool every_core_busy = config.host_threads >= host_cores;
      impl_->translator->begin_launch(impl_->memory, mode, every_core_busy);
      shared.translator = impl_->translator.get();
      shared.jit_threshold = mode == JitMode::On ? kJitThreshold : 0;
    }
  } catch (...) {
    stop_for_host_error(0);
  }
  const uint32_t num_sms = config.num_sms;
  // Without the cycle model, the unit of work is a workgroup slot (docs/simulator.md,
  // "Host threads"): workgroup i runs in slot u = i mod U of the U = num_sms x (workgroups
  // an SM holds) slots, i.e. on SM u mod num_sms in its slot u / num_sms, after workgroup
  // i - U of that slot ended. Placement depends only on the launch and the configuration.
  // The cycle model keeps its own rule: SM s admits s, s + num_sms, ... into its lowest free
  // slot as the model retires workgroups.
  const uint64_t units =
      options.timing ? num_sms : num_sms * resident_workgroups_per_sm(launch, config);
  std::vector<Sm*> active;
  for (uint32_t u = 0; u < units && u < groups; ++u) {
    try {
      Sm& slot = impl_->slot(u);
      active.push_back(&slot);
      if (options.timing)
        slot.start(shared, u, num_sms, groups, ~0u);
      else
        slot.start(shared, u, units, groups, 1u << (u / num_sms));
    } catch (...) {
      stop_for_host_error(u % num_sms);
      break;
    }
  }

  // Progress is reported between rounds (or the cycle model's steps) when the interval is
  // over.
  using Seconds = std::chrono::duration<double>;
  double next_report = options.progress_interval;
  auto report_progress = [&] {
    const double now = Seconds(std::chrono::steady_clock::now() - started).count();
    if (now < next_report) return;
    next_report = now + options.progress_interval;
    uint64_t retired = 0;
    for (const Sm* slot : active) retired += slot->retired();
    std::lock_guard lock(shared.mutex);
    options.on_progress({launch.kernel_name, shared.executed.load(std::memory_order_relaxed),
                         retired, groups, now});
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
  } else {
    run_rounds(
        active, shared, impl_->pool,
        options.on_progress ? std::function<void()>(report_progress) : std::function<void()>(),
        stop_for_host_error);
  }
  if (shared.translator) shared.translator->end_launch();

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
