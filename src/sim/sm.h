// One streaming multiprocessor: its resident workgroups and warps, its local memory, its
// decode cache, and the scheduler that interleaves its warps (docs/simulator.md,
// "Scheduling").
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "decode_cache.h"
#include "memsys.h"
#include "trace.h"
#include "translator.h"
#include "ventus/device.h"
#include "warp.h"

namespace ventus::sim {

struct WorkgroupState {
  uint32_t id[3] = {0, 0, 0};
  uint32_t linear = 0;   // x + gx * (y + gy * z)
  uint32_t slot = 0;     // CSR_WGID; its local memory is slot * lds_stride
  uint32_t live = 0;     // warps that have not ended
  uint32_t waiting = 0;  // live warps waiting at a barrier
  std::vector<Warp*> warps;
};

// What all SMs of one launch share.
struct LaunchShared {
  LaunchShared(const KernelLaunch& l, const RunOptions& o, const DeviceConfig& c)
      : launch(l), options(o), config(c) {}
  const KernelLaunch& launch;
  const RunOptions& options;
  const DeviceConfig& config;
  uint32_t lds_stride = 0;  // local memory bytes per workgroup slot
  bool unlimited_budget = false;
  std::atomic<uint64_t> budget_left{0};  // warp instructions not yet handed to an SM
  std::atomic<bool> stop{false};         // a fault happened: every SM stops
  // For RunOptions::on_progress: updated once per slice and per retired workgroup.
  std::atomic<uint64_t> executed{0};
  std::atomic<uint64_t> retired{0};
  std::mutex mutex;  // fault, print handler, trace sink, host_error
  std::optional<Fault> fault;
  // An exception a worker caught outside any warp (reported when no fault was); kept as it
  // is, since describing it could need the memory that ran out.
  std::exception_ptr host_error;
  uint32_t host_error_sm = 0;
  // Records the first fault and stops every SM.
  void stop_with(Fault f);
};

// What a host exception means to the user: "out of memory: host memory was exhausted while
// simulating <activity>" for std::bad_alloc, else its message (a trace sink or print
// handler that failed, ...).
std::string describe_host_exception(std::exception_ptr error, std::string_view activity);

class Sm {
 public:
  Sm(uint32_t index, const DeviceConfig& config, Memory& memory);

  // Prepares a launch: this SM runs the linear workgroup ids first, first + step, ... below
  // end, in order (generated as they are admitted, never listed).
  void start(LaunchShared& shared, uint64_t first, uint64_t step, uint64_t end);
  // Runs up to about `instructions` warp instructions; false once everything it was given
  // has ended (or the launch stopped).
  bool run(uint64_t instructions);
  const LaunchStats& stats() const { return stats_; }

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
  const std::vector<std::unique_ptr<WorkgroupState>>& groups() const { return groups_; }
  // A workgroup whose warps all ended leaves (the model decides when): the SM admits the
  // next ones that fit.
  void finish(WorkgroupState* group) { retire(group); }
  // Takes one instruction from the launch's budget; false (and the fault reported) when it
  // is exhausted.
  bool charge_instruction(const Warp& w, const WorkgroupState& group);
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
  // Runs the first `count` instructions of a translated block from pc (they fit the warp's
  // limit) and does what the interpreter does after the last one executed; true when the
  // warp stops (barrier, end). A fault is rethrown with pc and entry at the faulting
  // instruction.
  bool run_block(const jit::Block& block, uint32_t count, Exec& ctx, WorkgroupState& group,
                 uint32_t& pc, const CachedInsn*& entry, uint64_t& n, uint64_t& lanes);
  void arrive_or_end(WorkgroupState& group);
  // What follows an instruction whose semantics asked for a flow other than Next: a print
  // request is served, a barrier or an end stops the warp. w.pc is already next_pc.
  void after_flow(Warp& w, WorkgroupState& group, Flow flow);
  // The budget-exhausted fault.
  void report_budget(const Warp& w, const WorkgroupState& group);
  bool take_budget(uint64_t want, uint64_t& granted);
  void report(const Warp& warp, const WorkgroupState& group, uint32_t pc, const CachedInsn* entry,
              const std::string& message);
  void report_deadlock(const WorkgroupState& group);

  uint32_t index_;
  const DeviceConfig& config_;
  Memory& memory_;
  LocalMemory lds_;
  MemorySystem memsys_;
  DecodeCache cache_;
  std::vector<std::unique_ptr<Warp>> all_warps_;  // every warp this SM ever created
  std::vector<Warp*> warp_pool_;                  // the free ones, reused across workgroups
  std::vector<std::unique_ptr<WorkgroupState>> groups_;
  std::vector<Resident> resident_;  // in admission order; the scheduler goes round
  size_t cursor_ = 0;
  uint64_t next_group_ = 0, group_step_ = 1, groups_end_ = 0;  // workgroups not yet admitted
  uint32_t free_warps_ = 0, free_sgprs_ = 0, free_vgprs_ = 0;
  uint32_t used_slots_ = 0;  // bit k: workgroup slot k is taken
  uint64_t credit_ = 0;      // budget this SM holds
  LaunchShared* shared_ = nullptr;
  LaunchStats stats_;
  // The translating tier (null: off for this launch); its translations live as long as the
  // decoded code they came from.
  std::unique_ptr<jit::Translator> jit_;
  JitMode jit_mode_ = JitMode::Off;
  // The commit log's state for execute(), kept so that an instruction constructs nothing.
  TraceState trace_;
};

}  // namespace ventus::sim
