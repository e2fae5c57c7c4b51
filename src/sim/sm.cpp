#include "sm.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <utility>

#include "trace.h"

namespace ventus::sim {

Sm::Sm(uint32_t index, const DeviceConfig& config, Memory& memory, LocalMemory& lds)
    : index_(index),
      config_(config),
      memory_(memory),
      lds_(lds),
      memsys_(memory, lds_),
      cache_(memory) {}

void Sm::start(LaunchShared& shared, uint64_t first, uint64_t step, uint64_t end, uint32_t slots) {
  shared_ = &shared;
  slots_ = slots;
  defer_prints_ = !shared.options.timing;
  faulted_ = false;
  prints_.clear();
  memsys_.page_cache.clear();
  next_group_ = first;
  group_step_ = step;
  groups_end_ = end;
  resident_.clear();
  // What a faulted launch left behind.
  for (auto& group : groups_) group_pool_.push_back(std::move(group));
  groups_.clear();
  warp_pool_.clear();
  for (auto& w : all_warps_) {
    w->resume_block = nullptr;  // where a faulted launch left it (its blocks may be gone)
    w->inside_block = false;
    warp_pool_.push_back(w.get());
  }
  cursor_ = 0;
  free_warps_ = config_.warp_slots_per_sm;
  free_sgprs_ = config_.sgprs_per_sm;
  free_vgprs_ = config_.vgprs_per_sm;
  used_slots_ = 0;
  stats_ = {};
  retired_ = 0;
  // Code that may have changed is decoded afresh, so a launch sees every store made before
  // it (Device::run clears the local memory).
  const bool decoded_kept = cache_.begin_launch(shared.launch.threads_per_warp);
  memcheck_.reset();
  if (shared.memcheck) memcheck_.emplace(*shared.memcheck, memory_, index_);
  memsys_.memcheck = memcheck_ ? &*memcheck_ : nullptr;
  // Traced launches run no translated code; the commit log is only set while they run.
  memsys_.page_cache.global_pages = memcheck_ ? nullptr : memory_.page_table();
  jit_ = shared.translator;
  jit_threshold_ = shared.jit_threshold;
  const uint32_t tier_up_at = jit_threshold_ + jit::Translator::kTierUpStarts;
  if (tier_up_at != jit_tier_up_at_) jit_settled_.fill({});  // counted on to another number
  jit_tier_up_at_ = tier_up_at;
  // The start counts stay: a program of many short launches (a sort's passes) gets hot over
  // its launches, not within one. The blocks, refusals and compiles the slots hold stay too
  // while the translator and this SM's decoded code are as the last launch left them (cfd's
  // 14,004 launches asked again 409,000 times); otherwise they are asked for again.
  const std::optional<uint64_t> epoch = jit_ ? std::optional(jit_->epoch()) : std::nullopt;
  if (!epoch || !decoded_kept || epoch != jit_epoch_) {
    for (auto& [pc, slot] : jit_blocks_) slot = JitSlot{.count = slot.count};
    jit_recent_.fill(nullptr);
    jit_settled_.fill({});
  }
  jit_epoch_ = epoch;
  admit();
}

// A workgroup needs W warp slots, W * sgpr_usage scalar and W * vgpr_usage vector
// registers, a free workgroup slot whose local-memory window fits the SM.
bool Sm::fits(uint32_t& slot) const {
  const KernelLaunch& l = shared_->launch;
  const uint32_t w = l.warps_per_workgroup;
  if (w > free_warps_ || w * l.sgpr_usage > free_sgprs_ || w * l.vgpr_usage > free_vgprs_)
    return false;
  for (uint32_t k = 0; k < config_.max_workgroups_per_sm && k < 32; ++k) {
    if ((used_slots_ & (1u << k)) || !(slots_ & (1u << k))) continue;
    if (uint64_t{k + 1} * shared_->lds_stride > config_.lds_bytes_per_sm) return false;
    slot = k;
    return true;
  }
  return false;
}

void Sm::admit() {
  uint32_t slot = 0;
  while (next_group_ < groups_end_ && fits(slot)) {
    place(static_cast<uint32_t>(next_group_), slot);
    next_group_ += group_step_;
  }
}

void Sm::place(uint32_t linear, uint32_t slot) {
  const KernelLaunch& l = shared_->launch;
  const uint32_t W = l.warps_per_workgroup, T = l.threads_per_warp;
  std::unique_ptr<WorkgroupState> group;
  if (group_pool_.empty()) {
    group = std::make_unique<WorkgroupState>();
  } else {
    // A retired workgroup's state, reset to a new one's but keeping its list's memory.
    group = std::move(group_pool_.back());
    group_pool_.pop_back();
    LineVector<Warp*> warps = std::move(group->warps);
    warps.clear();
    *group = WorkgroupState{};
    group->warps = std::move(warps);
  }
  group->linear = linear;
  group->id[0] = linear % l.grid[0];
  group->id[1] = (linear / l.grid[0]) % l.grid[1];
  group->id[2] = linear / (l.grid[0] * l.grid[1]);
  group->slot = slot;
  group->live = W;
  used_slots_ |= 1u << slot;
  free_warps_ -= W;
  free_sgprs_ -= W * l.sgpr_usage;
  free_vgprs_ -= W * l.vgpr_usage;
  for (uint32_t wid = 0; wid < W; ++wid) {
    Warp* reused = nullptr;
    if (warp_pool_.empty()) {
      all_warps_.push_back(std::make_unique<Warp>());
      reused = all_warps_.back().get();
    } else {
      reused = warp_pool_.back();
      warp_pool_.pop_back();
      // The size hidden from the compiler: GCC inlined the constant one as `rep stos`, whose
      // start-up cost the library's vector stores do not have.
      size_t x_bytes = sizeof reused->x;
      asm("" : "+r"(x_bytes));
      std::memset(reused->x, 0, x_bytes);
      // Only registers some decoded instruction can write may be non-zero (a whole register
      // file is 32 KiB, more than short kernels execute).
      cache_.each_vector_register_run([reused](unsigned first, unsigned end) {
        std::memset(reused->v[first], 0, (end - first) * sizeof reused->v[0]);
      });
      reused->simt_stack.clear();
      reused->async_copies.clear();  // what a faulted launch left pending
    }
    Warp& w = *reused;
    w.pc = l.start_pc;
    w.lanes = T;
    w.lane_mask = T >= 32 ? ~0u : (1u << T) - 1;
    w.mask = w.lane_mask;
    w.vcfg = {0xd0, T, 32, 1};  // e32, m1, ta, ma; vl = threads per warp
    w.frm = w.fflags = w.vxrm = w.vxsat = 0;
    w.rpc = w.print = w.csr_gds = 0;
    w.csr_tid = wid * T;
    w.csr_numw = W;
    w.csr_numt = T;
    w.csr_knl = l.knl_address;
    w.csr_wgid = slot;
    w.csr_wid = wid;
    w.csr_lds = kLdsWindowBase + slot * shared_->lds_stride;
    w.csr_pds = shared_->private_memory.of_warp(linear, index_, slot, wid);
    for (int d = 0; d < 3; ++d) w.csr_gid[d] = group->id[d];
    w.mstatus = w.mtvec = w.mscratch = 0;
    w.status = WarpStatus::Ready;
    w.warp_in_group = wid;
    w.stack_base = w.csr_lds + wid * l.warp_stack_bytes;
    w.stack_end = l.warp_stack_bytes == 0 ? 0 : w.stack_base + l.warp_stack_bytes;
    w.reservation_valid = false;
    group->warps.push_back(&w);
  }
  for (Warp* w : group->warps) resident_.push_back({w, group.get()});
  groups_.push_back(std::move(group));
  ++stats_.workgroups;
}

void Sm::retire(WorkgroupState* group) {
  ++retired_;
  const KernelLaunch& l = shared_->launch;
  const uint32_t W = l.warps_per_workgroup;
  // Drop its warps from the round, keeping the cursor on the same next warp.
  size_t kept = 0;
  size_t new_cursor = 0;
  for (size_t i = 0; i < resident_.size(); ++i) {
    if (i == cursor_) new_cursor = kept;
    if (resident_[i].group != group) resident_[kept++] = resident_[i];
  }
  if (cursor_ >= resident_.size()) new_cursor = kept;
  resident_.resize(kept);
  cursor_ = kept == 0 ? 0 : new_cursor % kept;
  for (Warp* w : group->warps) warp_pool_.push_back(w);
  used_slots_ &= ~(1u << group->slot);
  free_warps_ += W;
  free_sgprs_ += W * l.sgpr_usage;
  free_vgprs_ += W * l.vgpr_usage;
  for (auto it = groups_.begin(); it != groups_.end(); ++it)
    if (it->get() == group) {
      group_pool_.push_back(std::move(*it));
      groups_.erase(it);
      break;
    }
  admit();
}

// A barrier arrival or an end of warp: when every live warp waits, the barrier completes,
// provided they all wait at the same barrier (same resume pc); otherwise it never can.
void Sm::arrive_or_end(WorkgroupState& group) {
  if (group.live == 0 || group.waiting < group.live) return;
  uint32_t pc = 0;
  bool first = true;
  for (const Warp* w : group.warps) {
    if (w->status != WarpStatus::AtBarrier) continue;
    if (!first && w->pc != pc) {
      report_deadlock(group);
      return;
    }
    pc = w->pc;
    first = false;
  }
  for (Warp* w : group.warps)
    if (w->status == WarpStatus::AtBarrier) w->status = WarpStatus::Ready;
  group.waiting = 0;
}

void Sm::report_deadlock(const WorkgroupState& group) {
  std::string where;
  for (const Warp* w : group.warps)
    if (w->status == WarpStatus::AtBarrier)
      where += fmt::format("{}warp {} at {:#010x}", where.empty() ? "" : ", ", w->warp_in_group,
                           w->pc - 4);
  const Warp& first = *group.warps.front();
  report(
      first, group, first.pc - 4, nullptr,
      "deadlock: every live warp of the workgroup waits at a barrier, but not at the same one (" +
          where + "); the barrier can never complete");
}

void Sm::report(const Warp& warp, const WorkgroupState& group, uint32_t pc, const CachedInsn* entry,
                const std::string& message, bool cancelled) {
  Fault f;
  f.message = message;
  f.kernel = shared_->launch.kernel_name;
  for (int d = 0; d < 3; ++d) f.workgroup[d] = group.id[d];
  f.warp = warp.warp_in_group;
  f.sm = index_;
  f.pc = pc;
  if (entry && entry->fn) {
    f.pc = pc + 4 * entry->prefixed;
    f.instruction = entry->insn.raw;
    f.disassembly = disassemble(*entry, pc);
  } else {
    describe_instruction(memory_, pc, f);
  }
  // Without the cycle model, a fault stops this slot only: the others finish the round, so
  // that which fault is reported does not depend on host threads. Cancellation stops all.
  faulted_ = true;
  shared_->record(std::move(f), group.linear, !defer_prints_ || cancelled);
}

void describe_instruction(const Memory& memory, uint32_t pc, Fault& f) {
  uint32_t word = 0;
  if (!memory.read(pc, &word, 4)) return;
  f.instruction = word;
  CachedInsn plain;
  if (auto d = isa::decode(word)) plain.insn = *d;
  plain.insn.raw = word;
  f.disassembly = disassemble(plain, pc);
}

void LaunchShared::record(Fault f, uint32_t workgroup, bool stop_all) {
  {
    std::lock_guard lock(mutex);
    if (!fault || workgroup < fault_workgroup) {
      fault = std::move(f);
      fault_workgroup = workgroup;
    }
  }
  if (stop_all) stop.store(true);
}

std::string describe_host_exception(std::exception_ptr error, std::string_view activity) {
  try {
    std::rethrow_exception(error);
  } catch (const std::bad_alloc&) {
    return fmt::format("out of memory: host memory was exhausted while simulating {}", activity);
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "unknown exception";
  }
}

size_t Sm::next_ready() const {
  for (size_t looked = 0, i = cursor_; looked < resident_.size(); ++looked) {
    if (resident_[i].warp->status == WarpStatus::Ready) return i;
    i = i + 1 == resident_.size() ? 0 : i + 1;
  }
  return resident_.size();
}

uint64_t Sm::run(uint64_t instructions) {
  uint64_t done = 0;
  const uint64_t quantum = std::max<uint32_t>(1, config_.schedule_quantum);
  while (done < instructions && busy()) {
    if (shared_->stop.load(std::memory_order_relaxed)) break;
    if (shared_->options.cancel.stop_requested()) {
      const Resident& r = resident_[cursor_];
      report(*r.warp, *r.group, r.warp->pc, nullptr, "launch cancelled by the host", true);
      break;
    }
    const size_t i = next_ready();
    if (i == resident_.size()) {
      // Every barrier completes when its last live warp arrives (arrive_or_end), so no
      // ready warp means warps that wait for the host, or a fault already reported.
      const bool at_host = std::any_of(resident_.begin(), resident_.end(), [](const Resident& r) {
        return r.warp->status == WarpStatus::AtHost;
      });
      if (!at_host && !faulted_) report_deadlock(*resident_.front().group);
      break;
    }
    Resident r = resident_[i];
    cursor_ = (i + 1) % resident_.size();
    const uint64_t left = budget_left(*r.group);
    if (left == 0) {
      report_budget(*r.warp, *r.group);
      break;
    }
    const uint64_t turn = std::min({quantum, instructions - done, left});
    const uint64_t ran = shared_->options.trace ? run_warp<true>(*r.warp, *r.group, turn)
                                                : run_warp<false>(*r.warp, *r.group, turn);
    done += ran;
    r.group->executed += ran;
    if (r.group->live == 0) retire(r.group);
  }
  return done;
}

void Sm::deliver_print(const PendingPrint& p) {
  Warp& w = *p.warp;
  try {
    const PrintRequest request{p.group->linear, w.warp_in_group, w.print};
    shared_->options.on_print(request);
    w.print = 0;
    w.status = WarpStatus::Ready;
  } catch (...) {
    // The fault of the instruction that wrote CSR_PRINT.
    report(w, *p.group, p.pc, p.entry,
           describe_host_exception(std::current_exception(), "this instruction"));
  }
}

namespace {

// The thread instructions an executed entry counts: its active lanes for a vector
// instruction (one for a scalar one), plus one for a prefix.
inline uint64_t thread_instructions(const CachedInsn& entry, uint32_t mask_before) {
  return (entry.counts_lanes ? lanes::count(mask_before) : 1u) + entry.prefixed;
}

}  // namespace

template <bool kTrace>
uint64_t Sm::run_warp(Warp& w, WorkgroupState& group, uint64_t limit) {
  Exec ctx{w, &group, &memsys_, &memsys_.page_cache};
  memsys_.exec = &ctx;
  uint32_t pc = w.pc;
  uint64_t n = 0, lanes = 0;
  const CachedInsn* entry = nullptr;
  // A block may start at pc: a turn that ended inside one goes on in it. Counted as a start
  // there, a pc where turns end (every warp's first turn ends at the same instruction) would
  // become a block of its own, compiling code that its block already translates.
  bool leader = !std::exchange(w.inside_block, false);
  uint32_t run_start = w.block_start;  // where the block that the interpreter runs starts
  const jit::Block* resume = std::exchange(w.resume_block, nullptr);
  uint32_t resume_first = w.resume_entry;
  if (jit_ && !leader && !resume) {
    // Interpreted up to pc last turn: that block's translation, made since, goes on there.
    if (const jit::Block* block = jit_block_at(run_start)) {
      const auto at = std::find(block->pcs.begin(), block->pcs.end(), pc);
      if (at != block->pcs.end()) {
        resume = block;
        resume_first = static_cast<uint32_t>(at - block->pcs.begin());
      }
    }
  }
  try {
    while (n < limit) {
      if constexpr (!kTrace) {
        // Translations start where blocks start: here, after a jump, or after an instruction
        // that ends blocks (jit::ends_block).
        if (resume) {
          const jit::Block* block = std::exchange(resume, nullptr);
          if (block->pcs[resume_first] == pc) {
            leader = false;
            if (block->starts_within(limit - n, resume_first)) {
              if (run_block(block, resume_first, limit, ctx, group, pc, entry, n, lanes, leader))
                break;
              run_start = pc;  // asked there, unless the warp is in the block or at a start
              continue;
            }
          }
        }
        if (jit_ && leader) {
          leader = false;
          run_start = pc;
          const jit::Block* block = jit_block(pc);
          if (block && block->starts_within(limit - n)) {
            if (run_block(block, 0, limit, ctx, group, pc, entry, n, lanes, leader)) break;
            run_start = pc;
            continue;
          }
        }
      }
      entry = nullptr;  // a fetch fault has no entry
      entry = &cache_.at(pc);
      ctx.pc = pc + 4 * entry->prefixed;
      ctx.next_pc = ctx.pc + entry->length;
      const uint32_t mask_before = w.mask;
      if constexpr (kTrace) trace_.before(w, memsys_, *entry, pc);
      entry->fn(ctx, entry->insn);
      n += 1 + entry->prefixed;
      lanes += thread_instructions(*entry, mask_before);
      if constexpr (kTrace) trace_.after(*shared_->options.trace, w, memsys_, index_, group.linear);
      if constexpr (!kTrace) {
        if (jit_)
          leader = entry->ends_block ||
                   (ctx.next_pc != ctx.pc + entry->length && !entry->jumps_within_block);
      }
      if (ctx.flow != Flow::Next) [[unlikely]] {
        const Flow flow = ctx.flow;
        ctx.flow = Flow::Next;
        if (flow == Flow::Print) {
          // Before pc moves on: a handler that fails is this instruction's fault.
          after_flow(w, group, Flow::Print, pc, entry);
          pc = ctx.next_pc;
          if (w.status == WarpStatus::AtHost) break;  // the turn ends until the host served it
          continue;
        }
        pc = ctx.next_pc;
        w.pc = pc;
        after_flow(w, group, flow);
        break;
      }
      pc = ctx.next_pc;
    }
    w.pc = pc;
    if constexpr (!kTrace) {
      w.inside_block = jit_ && !leader && !w.resume_block;
      w.block_start = run_start;
    }
  } catch (const ExecFault& e) {
    w.pc = pc;
    if constexpr (kTrace) memsys_.log = nullptr;
    report(w, group, pc, entry && entry->fn ? entry : nullptr, e.what());
  } catch (...) {
    // The host failed while this warp ran (no memory for a page or a print record, a trace
    // sink that throws): a fault at this instruction, never an exception out of a worker.
    w.pc = pc;
    if constexpr (kTrace) memsys_.log = nullptr;
    report(w, group, pc, entry && entry->fn ? entry : nullptr,
           describe_host_exception(std::current_exception(), "this instruction"));
  }
  stats_.warp_instructions += n;
  stats_.thread_instructions += lanes;
  stats_.divergences += ctx.divergences;
  return n;
}

// Inline at run_warp's two calls, once per turn: a call of ten arguments, five of them
// outputs by reference (pc, entry, n, lanes, leader) that the compiler may then keep in
// registers (docs/performance.md, "Fewer calls per warp").
[[gnu::always_inline]] inline bool Sm::run_block(const jit::Block* block, uint32_t first,
                                                 uint64_t limit, Exec& ctx, WorkgroupState& group,
                                                 uint32_t& pc, const CachedInsn*& entry,
                                                 uint64_t& n, uint64_t& lanes, bool& leader) {
  Warp& w = ctx.warp;
  for (;; first = 0) {
    const uint64_t active = lanes::count(w.mask);  // at the start (Tally: where it changed)
    const jit::Block::Before& skipped = block->before(first);
    jit::Block::Tally tally;
    const uint32_t result = block->fn.load(std::memory_order_acquire)(
        &ctx, &w, &jit_error_, limit - n + skipped.warp, &tally, first);
    if (result == jit::Block::kNotRun) {  // interpreted from here, the block not asked again
      pc = block->pcs[first];
      leader = false;
      return false;
    }
    const size_t done = result >> 2;
    const jit::Block::Before& upto = block->before(done);
    if ((first | tally.rounds | tally.repeats | tally.change | tally.change_at) == 0) [[likely]] {
      // Entries 0 .. done - 1, once, under the mask at the start.
      n += upto.warp;
      lanes += upto.scalar_lanes + upto.vector * active;
    } else {
      // Counted from entry 0 of the first round, less the entries before `first`; the vector
      // entries up to `vectors` ran under the mask at the start, corrected by the mask's changes
      // (the unsigned arithmetic wraps back to the count).
      const jit::Block::Before& round = block->exits.back().counts;
      const uint64_t rounds = tally.rounds;
      n += rounds * round.warp + upto.warp - skipped.warp + tally.repeats;
      const uint64_t vectors = rounds * round.vector + upto.vector;
      lanes += rounds * round.scalar_lanes + upto.scalar_lanes - skipped.scalar_lanes +
               (vectors - skipped.vector) * active + static_cast<uint64_t>(tally.change) * vectors -
               static_cast<uint64_t>(tally.change_at) + tally.repeats;
    }
    if (tally.rounds != 0) count_rounds(*block, tally.rounds);
    const uint32_t how = result & 3;
    if (how == jit::Block::kFaulted) {
      pc = block->pcs[done];
      entry = &block->insns[done];
      std::rethrow_exception(std::exchange(jit_error_, nullptr));
    }
    if (done == 0) {  // the budget ended where a round would start
      pc = block->pcs[0];
      leader = true;
      return false;
    }
    const size_t last = done - 1;
    if (how == jit::Block::kWentOn) {
      pc = block->exits[last].next_pc;
      if (done < block->insns.size()) {  // the budget ended inside the block: resume there
        w.resume_block = block;
        w.resume_entry = static_cast<uint32_t>(done);
        leader = false;
        return false;
      }
    } else if (how == jit::Block::kJumped) {
      pc = block->exits[last].taken_pc;
    } else {
      // The interpreter's steps after an instruction's semantics ran (run_warp).
      pc = block->pcs[last];
      entry = &block->insns[last];
      if (ctx.flow == Flow::Print) {
        ctx.flow = Flow::Next;
        after_flow(w, group, Flow::Print, pc, entry);
        if (w.status == WarpStatus::AtHost) {  // the turn ends until the host served it
          pc = ctx.next_pc;
          leader = true;
          return true;
        }
      }
      pc = ctx.next_pc;
      if (ctx.flow != Flow::Next) {
        const Flow flow = ctx.flow;
        ctx.flow = Flow::Next;
        w.pc = pc;
        leader = true;
        after_flow(w, group, flow);
        return true;
      }
    }
    // Where the interpreter would look for a block next (a block ends where one may start):
    // the next block runs from here without going back through run_warp.
    leader = true;
    if (n >= limit) return false;
    leader = false;  // asked here
    block = jit_block(pc);
    if (!block || !block->starts_within(limit - n)) return false;
  }
}

[[gnu::always_inline]] inline const jit::Block* Sm::jit_block(uint32_t pc) {
  SettledPc& settled = jit_settled_[(pc >> 2) % jit_settled_.size()];
  if (settled.pc == pc) [[likely]]
    return settled.block;
  return jit_block_asked(pc, settled);
}

const jit::Block* Sm::jit_block_asked(uint32_t pc, SettledPc& settled) {
  auto*& recent = jit_recent_[(pc >> 2) % jit_recent_.size()];
  if (!recent || recent->first != pc) recent = &*jit_blocks_.try_emplace(pc).first;
  JitSlot& slot = recent->second;
  const jit::Block* block = jit_block_from(slot, pc);
  if (slot.refused || (block && slot.count >= jit_tier_up_at_)) settled = {pc, block};
  return block;
}

const jit::Block* Sm::jit_block_from(JitSlot& slot, uint32_t pc) {
  if (slot.block) {
    count_starts(slot, 1);
    return slot.block;
  }
  if (slot.refused) return nullptr;
  if (slot.compiling) return jit_compiled(slot);
  if (slot.count++ < jit_threshold_) return nullptr;
  const jit::Translation found = jit_->find_or_translate(pc, cache_, slot.count);
  if (found.block) {
    jit_install(slot, *found.block);
  } else {
    slot.refused = found.settled;
    slot.compiling = found.compiling;
    // Not decoded yet, not paid for yet, or the compile queue is full: ask again after
    // another threshold.
    if (!found.settled && !found.compiling) slot.count = 0;
  }
  return slot.block;
}

void Sm::count_starts(JitSlot& slot, uint64_t starts) {
  if (slot.count >= jit_tier_up_at_) return;
  slot.count = static_cast<uint32_t>(std::min<uint64_t>(jit_tier_up_at_, slot.count + starts));
  if (slot.count == jit_tier_up_at_) report_starts(slot);
}

void Sm::report_starts(JitSlot& slot) {
  if (jit_->tier_up(*slot.block, jit::Translator::kTierUpStarts))
    slot.count = jit_threshold_;  // counts the next report's starts
}

void Sm::count_rounds(const jit::Block& block, uint64_t rounds) {
  // A block that loops runs its rounds within one start (aluloop's, once per 64-instruction
  // turn): its starts alone undercount its work, and left it in quick code for most of a
  // launch. Each round counts as a start would.
  if (JitSlot* slot = known_slot(block.pcs[0]); slot && slot->block == &block)
    count_starts(*slot, rounds);
}

Sm::JitSlot* Sm::known_slot(uint32_t pc) {
  // Asked for at its start in this or the last turn: most likely still in the recent slots.
  auto* recent = jit_recent_[(pc >> 2) % jit_recent_.size()];
  if (!recent || recent->first != pc) {
    const auto found = jit_blocks_.find(pc);
    if (found == jit_blocks_.end()) return nullptr;
    recent = &*found;
  }
  return &recent->second;
}

const jit::Block* Sm::jit_block_at(uint32_t start) {
  JitSlot* slot = known_slot(start);
  if (!slot) return nullptr;
  return slot->compiling ? jit_compiled(*slot) : slot->block;
}

const jit::Block* Sm::jit_compiled(JitSlot& slot) {
  // Interpret until the compile thread is done; the block then runs from its next start.
  if (const jit::Block* compiled = slot.compiling->load(std::memory_order_acquire)) {
    slot.compiling = nullptr;
    jit_install(slot, *compiled);
  }
  return slot.block;
}

void Sm::jit_install(JitSlot& slot, const jit::Block& block) {
  switch (block.fit(cache_)) {
    case jit::Block::Fit::Runs:
      slot.block = &block;
      // Hot already (in an earlier launch, maybe as a block dropped since).
      if (slot.count >= jit_tier_up_at_) report_starts(slot);
      break;
    case jit::Block::Fit::NotDecodedYet: break;
    case jit::Block::Fit::OtherCode: slot.refused = true; break;
  }
}

void Sm::after_flow(Warp& w, WorkgroupState& group, Flow flow, uint32_t pc,
                    const CachedInsn* entry) {
  if (flow == Flow::Print) {
    if (shared_->options.on_print && defer_prints_) {
      // Served between rounds, in workgroup order (Device::run).
      prints_.push_back({&w, &group, pc, entry});
      w.status = WarpStatus::AtHost;
    } else if (shared_->options.on_print) {
      const PrintRequest request{group.linear, w.warp_in_group, w.print};
      std::lock_guard lock(shared_->mutex);
      shared_->options.on_print(request);
      w.print = 0;
    }
    return;
  }
  if (flow == Flow::Barrier) {
    ++stats_.barriers;
    w.status = WarpStatus::AtBarrier;
    ++group.waiting;
  } else {  // End
    w.status = WarpStatus::Ended;
    --group.live;
  }
  arrive_or_end(group);
}

uint64_t Sm::budget_left(const WorkgroupState& group) const {
  const uint64_t budget = config_.instruction_budget;
  if (budget == 0) return UINT64_MAX;
  // A prefixed instruction counts two, so a warp can pass the budget by one.
  return budget - std::min(budget, group.executed);
}

void Sm::report_budget(const Warp& w, const WorkgroupState& group) {
  report(w, group, w.pc, nullptr,
         fmt::format("instruction budget exhausted: {} warp instructions executed by this "
                     "workgroup (DeviceConfig::instruction_budget, per workgroup); does the "
                     "kernel loop forever?",
                     config_.instruction_budget));
}

bool Sm::charge_instruction(const Warp& w, WorkgroupState& group) {
  if (budget_left(group) == 0) {
    report_budget(w, group);
    return false;
  }
  ++group.executed;
  return true;
}

Sm::Step Sm::execute(Warp& w, WorkgroupState& group, std::vector<MemAccess>* accesses) {
  Exec ctx{w, &group, &memsys_, &memsys_.page_cache};
  memsys_.exec = &ctx;
  Step step;
  step.pc = w.pc;
  step.active_before = w.mask;
  const bool tracing = static_cast<bool>(shared_->options.trace);
  try {
    const CachedInsn& entry = cache_.at(w.pc);
    step.entry = &entry;
    ctx.pc = w.pc + 4 * entry.prefixed;
    ctx.next_pc = ctx.pc + entry.length;
    if (tracing)
      trace_.before(w, memsys_, entry, w.pc);
    else
      memsys_.log = accesses;
    entry.fn(ctx, entry.insn);
    memsys_.log = nullptr;
    stats_.warp_instructions += 1 + entry.prefixed;
    stats_.thread_instructions += thread_instructions(entry, step.active_before);
    stats_.divergences += ctx.divergences;
    if (tracing) {
      if (accesses)
        accesses->insert(accesses->end(), trace_.accesses().begin(), trace_.accesses().end());
      trace_.after(*shared_->options.trace, w, memsys_, index_, group.linear);
    }
    if (ctx.flow == Flow::Print) {
      ctx.flow = Flow::Next;
      after_flow(w, group, Flow::Print);
    }
    w.pc = ctx.next_pc;
    step.flow = ctx.flow;
    if (ctx.flow != Flow::Next) after_flow(w, group, ctx.flow);
    step.ok = true;
  } catch (const ExecFault& e) {
    memsys_.log = nullptr;
    report(w, group, w.pc, step.entry && step.entry->fn ? step.entry : nullptr, e.what());
  } catch (...) {
    memsys_.log = nullptr;
    report(w, group, w.pc, step.entry && step.entry->fn ? step.entry : nullptr,
           describe_host_exception(std::current_exception(), "this instruction"));
  }
  return step;
}

template uint64_t Sm::run_warp<true>(Warp&, WorkgroupState&, uint64_t);
template uint64_t Sm::run_warp<false>(Warp&, WorkgroupState&, uint64_t);

}  // namespace ventus::sim
