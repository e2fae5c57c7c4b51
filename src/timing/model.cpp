#include "model.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <unordered_map>

#include "insn_timing.h"
#include "memory_model.h"
#include "sm.h"

namespace ventus::timing {
namespace {

constexpr uint64_t kNever = UINT64_MAX;
constexpr uint32_t kRegisters = InsnTiming::kVectorBase + sim::kNumVRegs;

// One use per cycle of each of `ways` resources (a register bank, a writeback port), for
// the cycles ahead of now: reserve() takes the first free cycle from `from` on.
class Reservations {
 public:
  explicit Reservations(uint32_t ways) : ways_(ways), stamp_(size_t{kCycles} * ways, 0) {}
  uint64_t reserve(uint64_t from, uint32_t way) {
    for (uint64_t c = from;; ++c) {
      uint64_t& s = stamp_[(c % kCycles) * ways_ + way];
      if (s != c + 1) {
        s = c + 1;
        return c;
      }
    }
  }

 private:
  static constexpr uint64_t kCycles = 4096;
  uint32_t ways_;
  std::vector<uint64_t> stamp_;  // cycle + 1 of the use, per (cycle mod kCycles, way)
};

// The model's description of each decoded instruction, by pc, made on first use.
class TimingCache {
 public:
  const InsnTiming& at(uint32_t pc, sim::Sm& sm) {
    if ((pc >> sim::kPageShift) != last_page_number_) {
      std::unique_ptr<Page>& page = pages_[pc >> sim::kPageShift];
      if (!page) page = std::make_unique<Page>();
      last_page_ = page.get();
      last_page_number_ = pc >> sim::kPageShift;
    }
    const uint32_t i = (pc & (sim::kPageSize - 1)) >> 2;
    if (!last_page_->known[i]) {
      last_page_->slots[i] = describe(sm.decoded(pc));  // ExecFault for a bad pc
      last_page_->known[i] = true;
    }
    return last_page_->slots[i];
  }

 private:
  struct Page {
    InsnTiming slots[sim::kPageSize / 4];
    bool known[sim::kPageSize / 4] = {};
  };
  std::unordered_map<uint32_t, std::unique_ptr<Page>> pages_;
  uint32_t last_page_number_ = ~0u;
  Page* last_page_ = nullptr;
};

// The timing state of one hardware warp slot.
struct Slot {
  sim::Warp* warp = nullptr;
  sim::WorkgroupState* group = nullptr;
  bool occupied = false;
  bool ended = false;       // its endprg issued
  bool at_barrier = false;  // waits for the rest of its workgroup
  uint64_t start = 0;       // dispatched: fetches and issues from this cycle
  uint64_t end = 0;         // its last result or memory operation is done
  // Fetch and instruction buffer (4-byte words, oldest first).
  uint32_t fetch_pc = 0;
  uint64_t fetch_after = 0;     // a taken branch: no fetch before this cycle
  bool icache_waiting = false;  // its last fetch missed
  uint32_t buffered = 0;        // words in the buffer
  uint32_t buffer_head = 0;     // index of the oldest in the ring
  uint32_t buffer_pc[16] = {};
  uint64_t buffer_ready[16] = {};  // when the word is in the buffer
  // Issue.
  uint64_t next_issue = 0;          // its collector entry is free / its branch resolved
  Stall waiting = Stall::Dispatch;  // why next_issue is ahead
  bool fence_pending = false;
  uint64_t memory_done[8] = {};  // completion cycles of its memory instructions in flight
  uint32_t memory_count = 0;
  // Why it does not issue, from `since` on, until the model looks again at `recheck`
  // (nothing this warp waits for changes before then; fetch and barrier releases that
  // change it set recheck to 0). Its cycles are counted when the reason changes.
  Stall current = Stall::Dispatch;
  uint64_t since = 0;
  uint64_t recheck = 0;
  std::string_view issued;  // the instruction of an Issued cycle, for the timeline
  bool used = false;
  WarpSlotStats stats;
};

struct GroupTiming {
  sim::WorkgroupState* group = nullptr;
  std::vector<uint32_t> slots;
  uint32_t ended = 0;
  uint64_t last_end = 0;
  uint64_t done_at = kNever;  // the host sees it done (all warps ended, reported)
};

class SmModel {
 public:
  SmModel(const Config& config, sim::Sm& sm, MemoryHierarchy& l2, TimelineSink* timeline)
      : c_(config),
        sm_(sm),
        slots_(sm.shared().config.warp_slots_per_sm),
        register_ready_(slots_.size()),
        icache_(config, config.icache_sets, config.icache_ways, config.icache_line_bytes,
                config.icache_mshrs, config.icache_hit_latency, l2),
        dcache_(config, config.dcache_sets, config.dcache_ways, config.dcache_line_bytes,
                config.dcache_mshrs, config.dcache_hit_latency, l2),
        banks_(2 * config.register_banks),
        writeback_(2),
        timeline_(timeline) {
    stats_.sm = sm.index();
    unit_free_.fill(0);
    admit(0);
  }

  bool done() const { return groups_.empty(); }
  bool stopped() const { return sm_.shared().stop.load(std::memory_order_relaxed); }
  uint64_t instructions() const { return stats_.instructions; }
  sim::Sm& sm() { return sm_; }

  // One cycle: workgroups that are done leave (and new ones are accepted), one fetch,
  // the issue, and the cycle's stall accounting. Returns the next cycle in which anything
  // can happen on this SM (t + 1, or later when every warp waits for a known cycle).
  uint64_t cycle(uint64_t t);
  // Nothing happens on this SM in the cycles from `from` up to `to`: they count like the
  // last one.
  void skip(uint64_t from, uint64_t to) {
    stats_.busy_cycles += to - from;
    stats_.stalls[static_cast<size_t>(last_nearest_)] += to - from;
  }
  // A fault stopped the launch (or it was cancelled): the statistics up to cycle t.
  void finish(uint64_t cycles, SmStats& out);
  // The first occupied warp, for faults the model raises itself.
  void fault(const std::string& message) {
    for (Slot& s : slots_)
      if (s.occupied) {
        sm_.fault_at(*s.warp, *s.group, message);
        return;
      }
  }

 private:
  void admit(uint64_t t);
  // The fetch stage; returns the next cycle a fetch can happen (t + 1 when one did).
  uint64_t fetch(uint64_t t);
  Stall evaluate(Slot& s, uint64_t t, const InsnTiming*& desc, uint64_t& recheck);
  void issue(uint32_t index, const InsnTiming& desc, uint64_t t);
  uint64_t collect(uint32_t index, const InsnTiming& desc, uint64_t t, bool& conflict);
  uint64_t load_store(const InsnTiming& desc, uint64_t dispatch, uint64_t& occupancy);
  void flush_buffer(Slot& s, uint32_t pc) {
    s.buffered = 0;
    s.fetch_pc = pc;
    s.icache_waiting = false;
  }
  // The warp's reason from cycle t on: closes the previous run (its cycles counted, its
  // timeline slice written).
  void account(Slot& s, Stall kind, uint64_t t);
  void release_barrier(GroupTiming& g, uint64_t at);
  GroupTiming* group_of(const sim::WorkgroupState* group) {
    for (GroupTiming& g : groups_)
      if (g.group == group) return &g;
    return nullptr;
  }

  const Config& c_;
  sim::Sm& sm_;
  std::vector<Slot> slots_;
  // Per warp slot, the cycle each register's pending write is seen (x0-x63, then v0-v255):
  // kept apart from the slots, which the model walks every cycle.
  std::vector<std::array<uint64_t, kRegisters>> register_ready_;
  std::vector<GroupTiming> groups_;
  L1Cache icache_, dcache_;
  Reservations banks_;      // per register file and bank: the read port
  Reservations writeback_;  // the scalar and the vector write port
  std::array<uint64_t, kUnits> unit_free_{};
  TimingCache insns_;
  TimelineSink* timeline_;
  uint32_t round_robin_ = 0;
  Stall last_nearest_ = Stall::Idle;
  std::vector<sim::MemAccess> accesses_;
  // The load/store unit's scratch, kept so that an instruction allocates nothing: the line
  // requests it made (line << 1 | store) and the shared-memory words it touched.
  std::vector<uint64_t> requested_lines_;
  std::vector<uint32_t> local_words_;
  SmStats stats_;
};

void SmModel::admit(uint64_t t) {
  for (const std::unique_ptr<sim::WorkgroupState>& owned : sm_.groups()) {
    sim::WorkgroupState* group = owned.get();
    if (group_of(group)) continue;
    GroupTiming g;
    g.group = group;
    uint64_t start = t + c_.dispatch_first_warp_cycles;
    for (sim::Warp* w : group->warps) {
      uint32_t index = 0;
      while (index < slots_.size() && slots_[index].occupied) ++index;
      if (index == slots_.size()) {  // beyond the configured slots
        slots_.emplace_back();
        register_ready_.emplace_back();
      }
      register_ready_[index].fill(0);
      Slot& s = slots_[index];
      const WarpSlotStats kept = s.stats;  // a slot's statistics cover the whole launch
      s = Slot{};
      s.stats = kept;
      s.stats.slot = index;
      s.used = true;
      s.warp = w;
      s.group = group;
      s.occupied = true;
      s.start = start;
      s.fetch_pc = w->pc;
      s.since = t;
      s.current = Stall::Dispatch;
      start += c_.dispatch_cycles_per_warp;
      g.slots.push_back(index);
    }
    groups_.push_back(std::move(g));
  }
}

void SmModel::account(Slot& s, Stall kind, uint64_t t) {
  if (kind == s.current && kind != Stall::Issued) return;
  if (t > s.since) {
    s.stats.stalls[static_cast<size_t>(s.current)] += t - s.since;
    // The warp's track: each issue is a one-cycle slice named by its instruction, each run
    // of cycles with one stall kind a slice named by the kind.
    if (timeline_)
      timeline_->slice(stats_.sm, TimelineSink::Track::Warp,
                       static_cast<uint32_t>(&s - slots_.data()), s.since, t,
                       s.current == Stall::Issued ? s.issued : name(s.current));
  }
  s.current = kind;
  s.since = t;
}

uint64_t SmModel::cycle(uint64_t t) {
  // Workgroups the host sees done leave; the SM accepts what now fits.
  bool left = false;
  uint64_t next = kNever;
  for (size_t i = 0; i < groups_.size();) {
    GroupTiming& g = groups_[i];
    if (g.done_at > t) {
      next = std::min(next, g.done_at);
      ++i;
      continue;
    }
    for (uint32_t index : g.slots) {
      Slot& s = slots_[index];
      account(s, Stall::Idle, t);
      s.occupied = false;
    }
    if (c_.dcache_flush_at_end) dcache_.invalidate_all();
    sim::WorkgroupState* group = g.group;
    groups_.erase(groups_.begin() + static_cast<ptrdiff_t>(i));
    sm_.finish(group);
    left = true;
  }
  if (left) admit(t);
  if (groups_.empty()) return kNever;
  ++stats_.busy_cycles;

  next = std::min(next, fetch(t));

  // Issue: round-robin over the warps that can issue.
  const uint32_t n = static_cast<uint32_t>(slots_.size());
  bool scalar_taken = false, vector_taken = false;
  Stall nearest = Stall::Idle;
  uint32_t index = round_robin_;
  for (uint32_t k = 1; k <= n; ++k) {
    if (++index == n) index = 0;
    Slot& s = slots_[index];
    if (!s.occupied) continue;
    Stall kind = s.current;
    if (t >= s.recheck) {
      const InsnTiming* desc = nullptr;
      kind = evaluate(s, t, desc, s.recheck);
      if (kind == Stall::Issued) {
        const bool taken = c_.dual_issue ? (desc->scalar_path ? scalar_taken : vector_taken)
                                         : (scalar_taken || vector_taken);
        if (taken) {
          kind = Stall::NotSelected;
        } else {
          (desc->scalar_path ? scalar_taken : vector_taken) = true;
          round_robin_ = index;
          const uint32_t pc = s.warp->pc;
          account(s, Stall::Issued, t);
          if (timeline_) s.issued = isa::info(sm_.decoded(pc).insn.op).mnemonic;
          issue(index, *desc, t);
          if (stopped()) return kNever;
          s.recheck = 0;
          nearest = Stall::Issued;
          next = t + 1;
          continue;
        }
        s.recheck = 0;
      }
      account(s, kind, t);
    }
    next = std::min(next, std::max(s.recheck, t + 1));
    if (kind < nearest && kind != Stall::Ended) nearest = kind;
  }
  ++stats_.stalls[static_cast<size_t>(nearest)];
  last_nearest_ = nearest;
  return next;
}

Stall SmModel::evaluate(Slot& s, uint64_t t, const InsnTiming*& desc, uint64_t& recheck) {
  recheck = kNever;  // reasons that only fetch or a barrier release end
  if (s.ended) return Stall::Ended;
  if (t < s.start) return recheck = s.start, Stall::Dispatch;
  if (s.at_barrier) return Stall::Barrier;
  if (s.next_issue > t) return recheck = s.next_issue, s.waiting;
  if (s.buffered == 0) return s.icache_waiting ? Stall::IcacheMiss : Stall::EmptyIbuffer;
  const uint32_t pc = s.warp->pc;
  if (s.buffer_pc[s.buffer_head] != pc) {  // a redirect the model did not see coming
    flush_buffer(s, pc);
    return recheck = t + 1, Stall::BranchRedirect;
  }
  recheck = t + 1;
  try {
    desc = &insns_.at(pc, sm_);
  } catch (const sim::ExecFault&) {
    // Executing it reports the fault with the SM's message.
    static const InsnTiming unknown;
    desc = &unknown;
    return Stall::Issued;
  }
  if (s.buffered < desc->words) {
    recheck = kNever;
    return s.icache_waiting ? Stall::IcacheMiss : Stall::EmptyIbuffer;
  }
  const uint64_t words_ready = s.buffer_ready[(s.buffer_head + desc->words - 1) % 16];
  if (words_ready > t) return recheck = words_ready, Stall::Fetch;
  const uint64_t* ready = register_ready_[&s - slots_.data()].data();
  uint64_t pending = 0;
  for (uint8_t i = 0; i < desc->sources; ++i) pending = std::max(pending, ready[desc->source[i]]);
  for (uint8_t i = 0; i < desc->destinations; ++i)
    pending = std::max(pending, ready[desc->destination[i]]);
  if (pending > t) return recheck = pending, Stall::Scoreboard;
  if (desc->memory || desc->fence) {
    uint32_t kept = 0;
    uint64_t first_done = kNever, last_done = 0;
    for (uint32_t i = 0; i < s.memory_count; ++i)
      if (s.memory_done[i] > t) {
        s.memory_done[kept++] = s.memory_done[i];
        first_done = std::min(first_done, s.memory_done[i]);
        last_done = std::max(last_done, s.memory_done[i]);
      }
    s.memory_count = kept;
    if (desc->memory && s.memory_count >= std::min<uint32_t>(c_.lsu_inflight_per_warp, 8))
      return recheck = first_done, Stall::Memory;
    if (s.fence_pending && s.memory_count > 0) return recheck = last_done, Stall::Memory;
    if (s.memory_count == 0) s.fence_pending = false;
  }
  return Stall::Issued;
}

uint64_t SmModel::fetch(uint64_t t) {
  const uint32_t packet_bytes = 4 * c_.fetch_instructions;
  const uint32_t capacity = std::min<uint32_t>(16, c_.ibuffer_packets * c_.fetch_instructions);
  uint64_t next = kNever;  // the first cycle a warp without room or not yet allowed may fetch
  for (Slot& s : slots_) {
    if (!s.occupied || s.ended) continue;
    if (t < s.start || t < s.fetch_after) {
      next = std::min(next, std::max(s.start, s.fetch_after));
      continue;
    }
    if (s.buffered >= capacity) continue;  // room comes with an issue
    const uint32_t words = (packet_bytes - s.fetch_pc % packet_bytes) / 4;
    if (s.buffered + words > capacity) continue;
    // The lowest-numbered warp with room takes the fetch port this cycle.
    const uint32_t first = s.fetch_pc, last = s.fetch_pc + 4 * (words - 1);
    uint64_t ready = 0, ready_last = 0;
    bool hit = icache_.fetch(first, t, ready);
    if (hit && icache_.line_of(last) != icache_.line_of(first))
      hit = icache_.fetch(last, t, ready_last), ready = ready_last;
    s.recheck = 0;
    if (!hit) {
      // The warp's fetches in flight are dropped; it refetches from the oldest of them,
      // taking the port every cycle until the line is there (no MSHR free: the next cycle).
      bool dropped = false;
      while (s.buffered > 0 && s.buffer_ready[(s.buffer_head + s.buffered - 1) % 16] > t) {
        s.fetch_pc = s.buffer_pc[(s.buffer_head + s.buffered - 1) % 16];
        --s.buffered;
        dropped = true;
      }
      s.icache_waiting = true;
      // Having rewound, it refetches the dropped packets next cycle.
      return std::min(next, ready > t && !dropped ? ready : t + 1);
    }
    s.icache_waiting = false;
    for (uint32_t k = 0; k < words; ++k) {
      const uint32_t at = (s.buffer_head + s.buffered) % 16;
      s.buffer_pc[at] = s.fetch_pc + 4 * k;
      s.buffer_ready[at] = t + c_.icache_hit_latency;
      ++s.buffered;
    }
    s.fetch_pc += 4 * words;
    return t + 1;
  }
  return next;
}

// The operand collector: each source register is read through its bank's one port; the
// instruction leaves it collector_cycles after issue, later by a cycle per lost arbitration.
uint64_t SmModel::collect(uint32_t index, const InsnTiming& desc, uint64_t t, bool& conflict) {
  conflict = false;
  if (desc.sources == 0) return t + c_.collector_cycles_immediate;
  uint64_t latest = t + 1;
  for (uint8_t i = 0; i < desc.sources; ++i) {
    const uint16_t reg = desc.source[i];
    const bool vector = reg >= InsnTiming::kVectorBase;
    const uint32_t number = vector ? reg - InsnTiming::kVectorBase : reg;
    const uint32_t bank = (index + number) % c_.register_banks;
    const uint64_t read = banks_.reserve(t + 1, (vector ? c_.register_banks : 0) + bank);
    if (read > t + 1) {
      conflict = true;
      stats_.register_bank_conflicts += read - (t + 1);
    }
    latest = std::max(latest, read);
  }
  return t + c_.collector_cycles + (latest - (t + 1));
}

// The load/store unit: one instruction at a time, lsu_base_cycles plus a cycle per distinct
// line (global and private memory) or per bank-conflict round (shared memory). Returns when
// its data (a load) or its acknowledgement (a store) is there.
uint64_t SmModel::load_store(const InsnTiming& desc, uint64_t dispatch, uint64_t& occupancy) {
  uint64_t done = dispatch + c_.lsu_base_cycles + c_.dcache_hit_latency;
  uint32_t lines = 0;
  uint32_t per_bank[64] = {};
  requested_lines_.clear();
  local_words_.clear();
  for (const sim::MemAccess& a : accesses_) {
    if (a.device >= sim::kLdsBase && a.device <= sim::kLdsLimit) {
      const uint32_t word = a.device >> 2;
      if (std::find(local_words_.begin(), local_words_.end(), word) != local_words_.end()) continue;
      local_words_.push_back(word);
      const uint32_t banks = c_.lds_banks ? c_.lds_banks : sm_.shared().launch.threads_per_warp;
      ++per_bank[word % std::min<uint32_t>(banks, 64)];
      continue;
    }
    const uint64_t line = dcache_.line_of(a.device);
    // A line is requested once per instruction; an atomic's read and write are one request.
    const bool store = a.store && !desc.atomic;
    const uint64_t request = (line << 1) | store;
    if (std::find(requested_lines_.begin(), requested_lines_.end(), request) !=
        requested_lines_.end())
      continue;
    requested_lines_.push_back(request);
    const uint64_t at = dispatch + c_.lsu_base_cycles + lines;
    ++lines;
    const uint64_t ready = desc.atomic ? dcache_.atomic(a.device, at)
                           : store     ? dcache_.write(a.device, at)
                                       : dcache_.read(a.device, at);
    done = std::max(done, ready);
  }
  uint32_t rounds = 0;
  if (!local_words_.empty()) {
    rounds = *std::max_element(std::begin(per_bank), std::end(per_bank));
    stats_.lds_accesses += 1;
    stats_.lds_bank_conflict_cycles += rounds - 1;
    done = std::max(done, dispatch + c_.lsu_base_cycles + lines + c_.lds_latency + rounds - 1);
  }
  occupancy = c_.lsu_base_cycles + std::max<uint32_t>(1, lines + rounds);
  return done;
}

void SmModel::release_barrier(GroupTiming& g, uint64_t at) {
  for (uint32_t index : g.slots) {
    Slot& s = slots_[index];
    if (!s.at_barrier || s.warp->status != sim::WarpStatus::Ready) continue;
    s.at_barrier = false;
    s.next_issue = std::max(s.next_issue, at);
    s.waiting = Stall::Barrier;
    s.recheck = 0;
  }
}

void SmModel::issue(uint32_t index, const InsnTiming& desc, uint64_t t) {
  Slot& s = slots_[index];
  sim::Warp& w = *s.warp;
  if (!sm_.charge_instruction(w, *s.group)) return;
  accesses_.clear();
  const sim::Sm::Step step = sm_.execute(w, *s.group, desc.memory ? &accesses_ : nullptr);
  if (!step.ok) return;
  // Counted as the functional mode counts warp instructions: a prefix (regext, ...) is one
  // of its own, although it issues with the instruction it extends.
  const uint32_t counted = 1u + step.entry->prefixed;
  stats_.instructions += counted;
  s.stats.instructions += counted;
  s.buffer_head = (s.buffer_head + desc.words) % 16;
  s.buffered -= desc.words;

  bool conflict = false;
  const uint64_t collected = collect(index, desc, t, conflict);
  const size_t unit = static_cast<size_t>(desc.unit);
  const uint64_t dispatch = std::max(collected, unit_free_[unit]);
  uint64_t occupancy = 1, result = 0;
  if (desc.memory) {
    result = load_store(desc, dispatch, occupancy);
  } else if (desc.unit == Unit::Sfu) {
    uint32_t groups = 1;
    if (!desc.scalar_path && desc.writes_vector) {
      const uint32_t per_group = std::max<uint32_t>(1, w.lanes / c_.sfu_lane_divisor);
      const uint32_t active = sim::lanes::count(step.active_before);
      groups = std::max<uint32_t>(1, (active + per_group - 1) / per_group);
    }
    occupancy = uint64_t{groups} * latency(c_, desc.latency);
    result = dispatch + occupancy;
  } else if (desc.unit == Unit::Tensor) {
    occupancy = latency(c_, desc.latency);
    result = dispatch + occupancy;
  } else {
    result = dispatch + latency(c_, desc.latency);
  }
  unit_free_[unit] = dispatch + occupancy;
  stats_.unit_issued[unit] += 1;
  stats_.unit_busy[unit] += occupancy;
  if (timeline_)
    timeline_->slice(stats_.sm, TimelineSink::Track::Unit, static_cast<uint32_t>(unit), dispatch,
                     dispatch + occupancy, isa::info(step.entry->insn.op).mnemonic);

  if (desc.destinations > 0) {
    const uint64_t written = writeback_.reserve(result, desc.writes_vector ? 1 : 0);
    for (uint8_t i = 0; i < desc.destinations; ++i)
      register_ready_[index][desc.destination[i]] = written + c_.writeback_to_issue;
    result = written;
  }
  if (desc.memory && s.memory_count < 8) s.memory_done[s.memory_count++] = result;
  if (desc.fence) s.fence_pending = true;
  s.end = std::max(s.end, result);
  s.next_issue = dispatch + 1;
  s.waiting = dispatch > collected ? Stall::UnitBusy
              : conflict           ? Stall::BankConflict
                                   : Stall::Collector;

  // Control flow: the warp waits for the branch to resolve; a taken one refetches.
  const uint32_t sequential = step.pc + 4 * desc.words;
  const bool redirected = w.pc != sequential;
  if (desc.control || redirected) {
    const uint64_t resolved = result + c_.branch_resolve_cycles;
    s.next_issue = std::max(s.next_issue, resolved);
    s.waiting = Stall::BranchRedirect;
    if (redirected && step.flow == sim::Flow::Next) {
      flush_buffer(s, w.pc);
      s.fetch_after = resolved + c_.branch_redirect_cycles;
      s.next_issue = std::max(s.next_issue, s.fetch_after);
      ++stats_.branch_redirects;
    }
  }
  GroupTiming* g = group_of(s.group);
  if (step.flow == sim::Flow::Barrier) {
    if (w.status == sim::WarpStatus::AtBarrier) {
      s.at_barrier = true;
    } else {  // the last to arrive: everyone goes on
      s.at_barrier = true;
      release_barrier(*g, result + c_.barrier_release_cycles);
    }
  } else if (step.flow == sim::Flow::End) {
    s.ended = true;
    ++g->ended;
    for (uint32_t i = 0; i < s.memory_count; ++i) s.end = std::max(s.end, s.memory_done[i]);
    g->last_end = std::max(g->last_end, s.end);
    if (g->ended == g->slots.size()) g->done_at = g->last_end + c_.end_report_cycles;
    // An end can complete a barrier the others wait at.
    release_barrier(*g, result + c_.barrier_release_cycles);
  }
}

void SmModel::finish(uint64_t cycles, SmStats& out) {
  for (Slot& s : slots_) {
    if (!s.used) continue;
    if (s.occupied) account(s, Stall::Idle, cycles);
    uint64_t counted = 0;
    for (size_t k = 0; k < kStallKinds; ++k)
      if (k != static_cast<size_t>(Stall::Idle)) counted += s.stats.stalls[k];
    s.stats.stalls[static_cast<size_t>(Stall::Idle)] = cycles - std::min(cycles, counted);
    stats_.warps.push_back(s.stats);
  }
  uint64_t counted = 0;
  for (size_t k = 0; k < kStallKinds; ++k)
    if (k != static_cast<size_t>(Stall::Idle)) counted += stats_.stalls[k];
  stats_.stalls[static_cast<size_t>(Stall::Idle)] = cycles - std::min(cycles, counted);
  stats_.icache = icache_.stats();
  stats_.dcache = dcache_.stats();
  out = std::move(stats_);
}

}  // namespace

LaunchTiming run_launch(const Config& config, std::span<sim::Sm* const> sms,
                        sim::LaunchShared& shared, TimelineSink* timeline,
                        const std::function<void()>& progress) {
  MemoryHierarchy l2(config);
  std::vector<std::unique_ptr<SmModel>> models;
  for (sim::Sm* sm : sms) models.push_back(std::make_unique<SmModel>(config, *sm, l2, timeline));
  // A model that never issues again (a bug, not a kernel: a kernel that hangs runs out of
  // its instruction budget) must not hang the host. Counted in steps of the loop, not in
  // cycles: a configuration may make one wait last billions of cycles, skipped in one step.
  constexpr uint64_t kMaxQuietSteps = 100'000'000;
  uint64_t t = 0, last_instructions = 0, quiet_since = 0;  // quiet_since: a step
  for (uint64_t step = 1;; ++step) {
    // Every SM simulates cycle t; then time moves to the first cycle in which anything can
    // happen on any SM (the cycles between count like t on each).
    uint64_t next = kNever;
    for (auto& m : models) {
      if (m->done()) continue;
      next = std::min(next, m->cycle(t));
      if (m->stopped()) break;
    }
    if (shared.stop.load(std::memory_order_relaxed) || next == kNever) break;
    for (auto& m : models)
      if (!m->done() && next > t + 1) m->skip(t + 1, next);
    t = next;
    if ((step & 0xfff) == 0) {
      uint64_t issued = 0;
      for (auto& m : models) issued += m->instructions();
      if (issued != last_instructions) {
        last_instructions = issued;
        quiet_since = step;
      } else if (step - quiet_since > kMaxQuietSteps) {
        for (auto& m : models)
          if (!m->done()) {
            m->fault(fmt::format(
                "timing model: no instruction issued in {} steps of the model (cycle {})",
                kMaxQuietSteps, t));
            break;
          }
        break;
      }
      if (shared.options.cancel.stop_requested()) {
        for (auto& m : models)
          if (!m->done()) {
            m->fault("launch cancelled by the host");
            break;
          }
        break;
      }
      if ((step & 0xffff) == 0 && progress) {
        shared.executed.store(issued, std::memory_order_relaxed);
        progress();
      }
    }
  }
  LaunchTiming result;
  result.cycles = t;
  for (auto& m : models) {
    SmStats s;
    m->finish(result.cycles, s);
    result.instructions += s.instructions;
    result.sms.push_back(std::move(s));
  }
  result.l2 = l2.stats();
  result.memory_requests = l2.memory_requests();
  return result;
}

}  // namespace ventus::timing
