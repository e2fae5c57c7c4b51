// One streaming multiprocessor: its resident workgroups and warps, its local memory, its
// decode cache, and the scheduler that interleaves its warps (docs/simulator.md,
// "Scheduling").
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "decode_cache.h"
#include "host_pool.h"
#include "memcheck.h"
#include "memsys.h"
#include "trace.h"
#include "translator.h"
#include "ventus/device.h"
#include "warp.h"

namespace ventus::sim {

// Aligned to cache lines: a slot changes its workgroups' counts at every warp's turn, and
// the workgroups of other slots run on other host threads (LineAllocator).
struct alignas(kCacheLine) WorkgroupState {
  uint32_t id[3] = {0, 0, 0};
  uint32_t linear = 0;   // x + gx * (y + gy * z)
  uint32_t slot = 0;     // CSR_WGID; its local memory is slot * lds_stride
  uint32_t live = 0;     // warps that have not ended
  uint32_t waiting = 0;  // live warps waiting at a barrier
  // Warp instructions its warps executed: the instruction budget is per workgroup, like a
  // hardware watchdog's, so a launch of many short workgroups is never refused as hung.
  uint64_t executed = 0;
  LineVector<Warp*> warps;
};

// Where a checked launch's warps find their private memory (private_memory_of_warp's rule),
// worked out once per launch rather than at every placement.
struct PrivateLayout {
  uint64_t base = 0;        // KernelLaunch::pds_base
  uint64_t area_bytes = 0;  // of one workgroup: W * T * pds_bytes_per_thread
  uint64_t warp_bytes = 0;  // T * pds_bytes_per_thread
  uint64_t areas_per_sm = 0;
  bool one_per_workgroup = false;  // area = workgroup id, else sm * areas_per_sm + slot
  uint32_t of_warp(uint32_t linear, uint32_t sm, uint32_t slot, uint32_t warp) const {
    const uint64_t area = one_per_workgroup ? linear : sm * areas_per_sm + slot;
    return static_cast<uint32_t>(base + area * area_bytes + warp * warp_bytes);
  }
};
PrivateLayout private_layout(const KernelLaunch& launch, const DeviceConfig& config);

// What all SMs of one launch share.
struct LaunchShared {
  LaunchShared(const KernelLaunch& l, const RunOptions& o, const DeviceConfig& c)
      : launch(l), options(o), config(c) {
    if (o.memcheck) memcheck = std::make_unique<MemcheckLaunch>(*o.memcheck, l);
  }
  const KernelLaunch& launch;
  const RunOptions& options;
  const DeviceConfig& config;
  uint32_t lds_stride = 0;  // local memory bytes per workgroup slot
  PrivateLayout private_memory;
  // Every SM stops at its next warp switch: the launch was cancelled, the host failed, or
  // (with the cycle model) a fault happened. Without the cycle model, a warp's fault stops
  // only its workgroup slot, and the launch ends with the round (Device::run). Every host
  // thread reads it at every warp switch: what the threads write lies on other cache lines.
  alignas(kCacheLine) std::atomic<bool> stop{false};
  // For RunOptions::on_progress: updated once per round (the workgroups done are counted
  // per Sm, Sm::retired: a counter that every host thread bumped at every retired workgroup
  // cost the threads a cache line moved between cores each time).
  alignas(kCacheLine) std::atomic<uint64_t> executed{0};
  alignas(kCacheLine) std::mutex mutex;  // fault, print handler, host_error
  std::optional<Fault> fault;
  uint32_t fault_workgroup = 0;  // the linear id of fault's workgroup
  // An exception a worker caught outside any warp (reported when no fault was); kept as it
  // is, since describing it could need the memory that ran out.
  std::exception_ptr host_error;
  uint32_t host_error_sm = 0;
  std::unique_ptr<MemcheckLaunch> memcheck;  // with RunOptions::memcheck
  // The translating tier (the device's translations; null: every SM interprets) and how
  // often an SM starts a block at a pc before it runs the translation (0: at once).
  jit::Translator* translator = nullptr;
  uint32_t jit_threshold = 0;
  // Keeps the fault of the lowest workgroup id (docs/simulator.md, "Faults"); with
  // stop_all, every SM stops.
  void record(Fault f, uint32_t workgroup, bool stop_all);
};

// What a host exception means to the user: "out of memory: host memory was exhausted while
// simulating <activity>" for std::bad_alloc, else its message (a trace sink or print
// handler that failed, ...).
std::string describe_host_exception(std::exception_ptr error, std::string_view activity);

// Fills the fault's instruction and disassembly from the word at pc (when it is mapped).
void describe_instruction(const Memory& memory, uint32_t pc, Fault& f);

// Aligned to cache lines: the Sm objects of a launch run on different host threads.
class alignas(kCacheLine) Sm {
 public:
  // SM `index`, whose local memory is `lds` (shared by the Sm objects of one SM).
  Sm(uint32_t index, const DeviceConfig& config, Memory& memory, LocalMemory& lds);

  // Prepares a launch: this SM runs the linear workgroup ids first, first + step, ... below
  // end, in order (generated as they are admitted, never listed), each in the lowest free
  // workgroup slot among `slots` (bit k: slot k). Device::run gives each Sm object one
  // slot of an SM; the cycle model one Sm object per SM with every slot.
  void start(LaunchShared& shared, uint64_t first, uint64_t step, uint64_t end, uint32_t slots);
  // Runs `instructions` warp instructions (one more when the last is prefixed), or fewer
  // when every workgroup it was given has ended, it faulted, the launch stopped, or its
  // warps all wait for the host (a print request, deliver_print); returns how many ran.
  uint64_t run(uint64_t instructions);
  // Whether it has a workgroup left to run (false after a fault).
  bool busy() const { return !resident_.empty() && !faulted_; }
  // The print requests (CSR_PRINT writes) of warps that wait for the host, oldest first.
  struct PendingPrint {
    Warp* warp;
    WorkgroupState* group;
    uint32_t pc;  // the instruction that wrote CSR_PRINT, for a fault
    const CachedInsn* entry;
  };
  const std::vector<PendingPrint>& pending_prints() const { return prints_; }
  // Serves a pending print: the handler runs, the CSR reads 0 again and the warp goes on
  // (a handler that throws is the warp's fault). Once every pending print is served, the
  // list is cleared by clear_prints().
  void deliver_print(const PendingPrint& p);
  void clear_prints() { prints_.clear(); }
  const LaunchStats& stats() const { return stats_; }
  // The workgroups of this launch that ended here (read between rounds, or by the cycle
  // model's thread).
  uint64_t retired() const { return retired_; }

  // The cycle model's access (src/timing): it decides which warp runs in which cycle and
  // executes one instruction at a time; everything functional stays here.
  struct Step {
    const CachedInsn* entry = nullptr;  // the instruction executed (nullptr: a fetch fault)
    uint32_t pc = 0;                    // its address (of the prefix when prefixed)
    Flow flow = Flow::Next;             // Barrier, End, or Next (Print is handled here)
    uint32_t active_before = 0;         // the SIMT mask it ran under
    bool ok = false;                    // false: it faulted (reported, the launch stops)
  };
  // Executes warp w's next instruction (at w.pc); with accesses set, the memory it touched is
  // appended there. Counts the instruction in the statistics.
  Step execute(Warp& w, WorkgroupState& group, std::vector<MemAccess>* accesses);
  // The decoded instruction at pc (ExecFault for a misaligned or unmapped pc).
  const CachedInsn& decoded(uint32_t pc) { return cache_.at(pc); }
  // The workgroups resident now, in admission order.
  const LineVector<std::unique_ptr<WorkgroupState>>& groups() const { return groups_; }
  // A workgroup whose warps all ended leaves (the model decides when): the SM admits the
  // next ones that fit.
  void finish(WorkgroupState* group) { retire(group); }
  // Takes one instruction from the workgroup's budget; false (and the fault reported) when
  // it is exhausted.
  bool charge_instruction(const Warp& w, WorkgroupState& group);
  // Stops the launch with this fault at warp w.
  void fault_at(const Warp& w, const WorkgroupState& group, const std::string& message) {
    report(w, group, w.pc, nullptr, message);
  }
  LaunchShared& shared() { return *shared_; }
  uint64_t decodes() const { return cache_.decodes(); }
  uint32_t index() const { return index_; }

 private:
  struct Resident {
    Warp* warp;
    WorkgroupState* group;
  };
  void admit();
  bool fits(uint32_t& slot) const;
  void place(uint32_t linear, uint32_t slot);
  void retire(WorkgroupState* group);
  template <bool kTrace>
  uint64_t run_warp(Warp& warp, WorkgroupState& group, uint64_t limit);
  // The translated block to run at pc, counting this start (nullptr: interpret). Inline in
  // sm.cpp, from jit_settled_ (every block transition of a hot kernel); jit_block_asked looks
  // up pc's slot otherwise, and settles pc in `settled`, jit_settled_'s entry for it, once
  // its answer no longer changes.
  const jit::Block* jit_block(uint32_t pc);
  struct SettledPc;
  const jit::Block* jit_block_asked(uint32_t pc, SettledPc& settled);
  // The translated block that starts at start, if this SM has one that runs, without counting
  // a start there (nullptr: none yet).
  const jit::Block* jit_block_at(uint32_t start);
  // Counts the rounds a run of a block that loops completed toward its tier-up, as starts.
  void count_rounds(const jit::Block& block, uint64_t rounds);
  // Runs a translated block from its entry `first` (at pc) while n < limit (that entry fits),
  // does what the interpreter does after the last one executed, and goes on with the block at
  // the pc that follows, if any, until none is there or fits (jit_block was asked for that
  // pc: the caller interprets from it); true when the warp stops (barrier, end, print
  // request). leader: whether a block may start at the pc it leaves at, not yet asked for.
  // A turn that ends inside a block leaves it in Warp::resume_block. A fault is rethrown with
  // pc and entry at the faulting instruction.
  bool run_block(const jit::Block* block, uint32_t first, uint64_t limit, Exec& ctx,
                 WorkgroupState& group, uint32_t& pc, const CachedInsn*& entry, uint64_t& n,
                 uint64_t& lanes, bool& leader);
  void arrive_or_end(WorkgroupState& group);
  // What follows an instruction whose semantics asked for a flow other than Next: a print
  // request is served, a barrier or an end stops the warp. w.pc is already next_pc.
  // pc and entry: the instruction that asked (a deferred print request keeps them).
  void after_flow(Warp& w, WorkgroupState& group, Flow flow, uint32_t pc = 0,
                  const CachedInsn* entry = nullptr);
  // The warp instructions the workgroup may still execute (UINT64_MAX: no budget).
  uint64_t budget_left(const WorkgroupState& group) const;
  // The budget-exhausted fault of the workgroup, at its warp w.
  void report_budget(const Warp& w, const WorkgroupState& group);
  // The next ready warp in the round from cursor_ (resident_.size() when none is).
  size_t next_ready() const;
  void report(const Warp& warp, const WorkgroupState& group, uint32_t pc, const CachedInsn* entry,
              const std::string& message, bool cancelled = false);
  void report_deadlock(const WorkgroupState& group);

  uint32_t index_;
  const DeviceConfig& config_;
  Memory& memory_;
  LocalMemory& lds_;
  MemorySystem memsys_;
  std::optional<Memchecker> memcheck_;  // of the launch, with RunOptions::memcheck
  DecodeCache cache_;
  // The lists that change as workgroups come and go are LineVectors (LineAllocator).
  std::vector<std::unique_ptr<Warp>> all_warps_;  // every warp this SM ever created
  LineVector<Warp*> warp_pool_;                   // the free ones, reused across workgroups
  LineVector<std::unique_ptr<WorkgroupState>> groups_;
  LineVector<std::unique_ptr<WorkgroupState>> group_pool_;  // retired, reused by place()
  LineVector<Resident> resident_;  // in admission order; the scheduler goes round
  size_t cursor_ = 0;
  uint64_t next_group_ = 0, group_step_ = 1, groups_end_ = 0;  // workgroups not yet admitted
  uint32_t free_warps_ = 0, free_sgprs_ = 0, free_vgprs_ = 0;
  uint32_t slots_ = 0;         // bit k: this Sm object may use workgroup slot k
  uint32_t used_slots_ = 0;    // bit k: workgroup slot k is taken
  bool defer_prints_ = false;  // print requests wait for deliver_print (Device::run's rounds)
  bool faulted_ = false;
  std::vector<PendingPrint> prints_;
  LaunchShared* shared_ = nullptr;
  LaunchStats stats_;
  uint64_t retired_ = 0;
  // The translating tier for this launch (LaunchShared::translator; null: interpret) and
  // this SM's index of its blocks: how often each pc started one (counted on to
  // jit_tier_up_at_ once translated, when the block is hot enough to compile again:
  // Translator::tier_up), and the block once it is translated and fits this SM's decoded code
  // (refused: interpret from that pc); compiling: where the compile thread puts it
  // (jit::Translation::compiling).
  struct JitSlot {
    uint32_t count = 0;
    bool refused = false;
    const jit::Block* block = nullptr;
    const std::atomic<const jit::Block*>* compiling = nullptr;
  };
  // Sets slot.block to `block` when it fits this SM's decoded code.
  void jit_install(JitSlot& slot, const jit::Block& block);
  // slot.block, installed first when the compile thread has published it.
  const jit::Block* jit_compiled(JitSlot& slot);
  // jit_block_asked's answer from pc's slot, counting the start.
  const jit::Block* jit_block_from(JitSlot& slot, uint32_t pc);
  // The slot of the block that starts at pc, if this SM has asked for one there, without
  // counting a start (nullptr: none).
  JitSlot* known_slot(uint32_t pc);
  // Counts `starts` toward the tier-up of the slot's translated block: each time they reach
  // jit_tier_up_at_, they are reported to Translator::tier_up, until it says to stop.
  void count_starts(JitSlot& slot, uint64_t starts);
  // Reports the slot's block's last Translator::kTierUpStarts starts to Translator::tier_up.
  void report_starts(JitSlot& slot);
  jit::Translator* jit_ = nullptr;
  uint32_t jit_threshold_ = 0, jit_tier_up_at_ = 0;
  // The slots below hold what the translator gave in its epoch jit_epoch_ and still fit the
  // decoded code (Sm::start); none: the last launch did not translate.
  std::optional<uint64_t> jit_epoch_;
  std::unordered_map<uint32_t, JitSlot> jit_blocks_;
  // The slots of recently started pcs, by pc (a direct-mapped cache in front of the map).
  std::array<std::pair<const uint32_t, JitSlot>*, 512> jit_recent_{};
  // What jit_block returns at once, by pc: blocks whose starts count_starts counts no more,
  // and pcs refused (block null), set by jit_block_asked; emptied with the slots or when
  // jit_tier_up_at_ changes. One load per block transition, where the slot was two more.
  struct SettledPc {
    uint32_t pc = ~0u;  // no pc: pcs are even
    const jit::Block* block = nullptr;
  };
  std::array<SettledPc, 512> jit_settled_{};
  std::exception_ptr jit_error_;  // where a translated block leaves its fault
  // The commit log's state, kept so that a traced instruction constructs nothing.
  TraceState trace_;
};

}  // namespace ventus::sim
