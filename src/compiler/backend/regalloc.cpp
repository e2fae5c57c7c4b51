// Linear-scan register allocation over the two register files.
//
// Positions: instruction n reads at 2n and writes at 2n+1, so a value whose last use is
// instruction n may share a register with the result of n. Each virtual register gets one
// interval (the hull of where it is live). Physical registers that instructions name
// (call arguments in v0.., a0 at kernel entry, v0 as the vmerge mask) and the registers a
// call clobbers are fixed ranges no interval may overlap.
//
// SIMT: the two paths of a divergent branch run one after the other, in either order,
// each with its own threads. A vector register written on one path keeps the other
// threads' values, so vector intervals need nothing special. A scalar register is written
// for the whole warp, so a scalar live into any block of a divergent region is kept
// alive over the whole region: the other path may run in between.
#include "regalloc.h"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <map>
#include <set>

#include "ventus/error.h"

namespace ventus::cc::backend {

namespace {

bool caller_saved(uint32_t phys) {
  if (is_vector_phys(phys)) return phys - kVectorBase < 32;
  return (phys >= 5 && phys <= 7) || (phys >= 10 && phys <= 17) || (phys >= 28 && phys <= 31) ||
         phys == kRa;
}

std::vector<uint32_t> allocation_order(RegClass cls) {
  std::vector<uint32_t> order;
  if (cls == RegClass::Vector) {
    for (uint32_t v = 1; v < 253; ++v) order.push_back(vreg_phys(v));
    return order;
  }
  for (uint32_t x :
       {5, 6, 7, 10, 11, 12, 13, 14, 15, 16, 17, 28, 8, 9, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27})
    order.push_back(x);
  for (uint32_t x = 32; x < 64; ++x) order.push_back(x);
  return order;
}

// A register-to-register copy: its two registers may share a physical one.
bool is_copy(const MInst& inst) {
  return inst.is(Pseudo::Mv) || inst.is(isa::Op::VMV_V_V);
}

struct Interval {
  uint32_t vreg;
  int start = INT_MAX;
  int end = -1;
  uint32_t phys = kNoReg;
  bool spilled = false;
  uint32_t slot = 0;
  uint32_t hint = kNoReg;  // vreg this one was copied from
};

using RegSet = std::vector<uint64_t>;  // bit set over virtual registers

void set_bit(RegSet& s, uint32_t i) {
  s[i / 64] |= uint64_t{1} << (i % 64);
}
bool test_bit(const RegSet& s, uint32_t i) {
  return (s[i / 64] >> (i % 64)) & 1;
}

// The virtual registers live into and out of each block.
struct Liveness {
  std::vector<RegSet> in, out;
};
Liveness liveness(const MFunction& mf) {
  const size_t words = (mf.vreg_class.size() + 63) / 64 + 1;
  const size_t nb = mf.blocks.size();
  std::vector<RegSet> use(nb, RegSet(words)), def(nb, RegSet(words));
  Liveness live{std::vector<RegSet>(nb, RegSet(words)), std::vector<RegSet>(nb, RegSet(words))};
  for (size_t b = 0; b < nb; ++b)
    for (const MInst& inst : mf.blocks[b].insts) {
      for (const Operand& op : inst.ops)
        if (op.kind == Operand::Kind::Reg && op.use && is_virtual(op.reg)) {
          uint32_t v = op.reg - kFirstVirtual;
          if (!test_bit(def[b], v)) set_bit(use[b], v);
        }
      for (const Operand& op : inst.ops)
        if (op.kind == Operand::Kind::Reg && op.def && is_virtual(op.reg))
          set_bit(def[b], op.reg - kFirstVirtual);
    }
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t bi = nb; bi-- > 0;) {
      RegSet out(words);
      for (int s : mf.blocks[bi].succs)
        for (size_t w = 0; w < words; ++w) out[w] |= live.in[s][w];
      RegSet in(words);
      for (size_t w = 0; w < words; ++w) in[w] = use[bi][w] | (out[w] & ~def[bi][w]);
      if (in != live.in[bi] || out != live.out[bi]) {
        live.in[bi] = std::move(in);
        live.out[bi] = std::move(out);
        changed = true;
      }
    }
  }
  return live;
}

bool is_vector_copy(const MInst& inst) {
  return inst.is(isa::Op::VMV_V_V) && is_virtual(inst.ops[0].reg) && is_virtual(inst.ops[1].reg) &&
         inst.ops[0].reg != inst.ops[1].reg;
}

// Merges the two virtual registers of a vector copy (a phi's value from one predecessor,
// mostly) when they never hold different values at once, so that the copy disappears:
// the single interval per register of the linear scan cannot see that a phi and its
// incoming value are live in different arms. Liveness is per lane, as the hardware writes
// a vector register only in the active lanes (the allocator's vector intervals rely on
// that too); scalar registers are left alone (both arms of a divergent branch run).
void coalesce_vector_copies(MFunction& mf) {
  for (int round = 0; round < 4; ++round) {
    // Candidate pairs, and each register's partners.
    std::map<uint32_t, std::vector<uint32_t>> partners;
    for (const MBlock& block : mf.blocks)
      for (const MInst& inst : block.insts)
        if (is_vector_copy(inst)) {
          partners[inst.ops[0].reg].push_back(inst.ops[1].reg);
          partners[inst.ops[1].reg].push_back(inst.ops[0].reg);
        }
    if (partners.empty()) return;
    // Interference: a register defined where its partner is live afterwards, except by a
    // copy of that partner.
    std::set<std::pair<uint32_t, uint32_t>> interfere;
    const Liveness live = liveness(mf);
    for (size_t b = 0; b < mf.blocks.size(); ++b) {
      RegSet after = live.out[b];
      const std::vector<MInst>& insts = mf.blocks[b].insts;
      for (size_t i = insts.size(); i-- > 0;) {
        const MInst& inst = insts[i];
        for (const Operand& op : inst.ops) {
          if (op.kind != Operand::Kind::Reg || !op.def || !is_virtual(op.reg)) continue;
          auto it = partners.find(op.reg);
          if (it == partners.end()) continue;
          for (uint32_t p : it->second) {
            const bool copy_of_p = is_vector_copy(inst) && inst.ops[1].reg == p;
            // An early-clobber result must not share a register with any operand read.
            const bool read_here =
                op.early_clobber &&
                std::any_of(inst.ops.begin(), inst.ops.end(), [&](const Operand& o) {
                  return o.kind == Operand::Kind::Reg && o.use && o.reg == p;
                });
            if ((!copy_of_p && test_bit(after, p - kFirstVirtual)) || read_here)
              interfere.insert(std::minmax(op.reg, p));
          }
        }
        for (const Operand& op : inst.ops)
          if (op.kind == Operand::Kind::Reg && op.def && !op.use && is_virtual(op.reg))
            after[(op.reg - kFirstVirtual) / 64] &=
                ~(uint64_t{1} << ((op.reg - kFirstVirtual) % 64));
        for (const Operand& op : inst.ops)
          if (op.kind == Operand::Kind::Reg && op.use && is_virtual(op.reg))
            set_bit(after, op.reg - kFirstVirtual);
      }
    }
    // Each register merges at most once a round (its interferences change when it does).
    std::map<uint32_t, uint32_t> rename;
    std::set<uint32_t> touched;
    for (const MBlock& block : mf.blocks)
      for (const MInst& inst : block.insts) {
        if (!is_vector_copy(inst)) continue;
        const uint32_t d = inst.ops[0].reg, s = inst.ops[1].reg;
        if (touched.count(d) || touched.count(s) || interfere.count(std::minmax(d, s))) continue;
        touched.insert(d);
        touched.insert(s);
        rename[s] = d;
      }
    if (rename.empty()) return;
    for (MBlock& block : mf.blocks)
      for (MInst& inst : block.insts)
        for (Operand& op : inst.ops)
          if (op.kind == Operand::Kind::Reg && rename.count(op.reg)) op.reg = rename[op.reg];
  }
}

// Spill slots, 4 bytes each, in the scalar stack or the private frame: a spilled register
// takes the lowest slot of its class whose last occupant's interval ended before its own
// starts - the criterion by which two registers share a physical one - so registers that
// are never live at once share a slot (wide vector code spills hundreds of short-lived
// values). `order`: the intervals sorted by start.
void assign_spill_slots(const std::vector<Interval*>& order, MFunction& mf) {
  std::vector<int> scalar_end, vector_end;  // index: slot; the end of its last occupant
  for (Interval* iv : order) {
    if (!iv->spilled) continue;
    std::vector<int>& slot_end =
        mf.class_of(iv->vreg) == RegClass::Scalar ? scalar_end : vector_end;
    size_t slot = 0;
    while (slot < slot_end.size() && slot_end[slot] >= iv->start) ++slot;
    if (slot == slot_end.size()) slot_end.push_back(iv->end);
    slot_end[slot] = iv->end;
    iv->slot = static_cast<uint32_t>(4 * slot);
  }
  mf.scalar_spill_bytes = static_cast<uint32_t>(4 * scalar_end.size());
  mf.vector_spill_bytes = static_cast<uint32_t>(4 * vector_end.size());
}

}  // namespace

void allocate_registers(MFunction& mf) {
  coalesce_vector_copies(mf);
  const size_t nv = mf.vreg_class.size();
  const size_t nb = mf.blocks.size();

  // Positions: every block takes at least one instruction slot.
  std::vector<int> block_start(nb), block_end(nb);
  int n = 0;
  for (size_t b = 0; b < nb; ++b) {
    block_start[b] = 2 * n;
    n += std::max<int>(1, static_cast<int>(mf.blocks[b].insts.size()));
    block_end[b] = 2 * n - 1;
  }

  const auto [live_in, live_out] = liveness(mf);

  // Intervals.
  std::vector<Interval> intervals(nv);
  for (size_t v = 0; v < nv; ++v) intervals[v].vreg = static_cast<uint32_t>(v + kFirstVirtual);
  auto touch = [&](uint32_t v, int pos) {
    intervals[v].start = std::min(intervals[v].start, pos);
    intervals[v].end = std::max(intervals[v].end, pos);
  };
  n = 0;
  for (size_t b = 0; b < nb; ++b) {
    for (size_t v = 0; v < nv; ++v) {
      if (test_bit(live_in[b], static_cast<uint32_t>(v)))
        touch(static_cast<uint32_t>(v), block_start[b]);
      if (test_bit(live_out[b], static_cast<uint32_t>(v)))
        touch(static_cast<uint32_t>(v), block_end[b]);
    }
    for (const MInst& inst : mf.blocks[b].insts) {
      for (const Operand& op : inst.ops) {
        if (op.kind != Operand::Kind::Reg || !is_virtual(op.reg)) continue;
        uint32_t v = op.reg - kFirstVirtual;
        if (op.use) touch(v, 2 * n);
        if (op.def) touch(v, op.early_clobber ? 2 * n : 2 * n + 1);
        if (op.def && op.early_clobber) touch(v, 2 * n + 1);
      }
      if (is_copy(inst) && is_virtual(inst.ops[0].reg) && is_virtual(inst.ops[1].reg))
        intervals[inst.ops[0].reg - kFirstVirtual].hint = inst.ops[1].reg;
      ++n;
    }
    if (mf.blocks[b].insts.empty()) ++n;
  }
  for (const MFunction::DivergentRegion& region : mf.divergent_regions) {
    if (region.blocks.empty()) continue;
    int lo = INT_MAX, hi = -1;
    for (int b : region.blocks) {
      lo = std::min(lo, block_start[b]);
      hi = std::max(hi, block_end[b]);
    }
    for (size_t v = 0; v < nv; ++v) {
      if (mf.vreg_class[v] != RegClass::Scalar) continue;
      bool live = test_bit(live_out[region.branch_block], static_cast<uint32_t>(v));
      for (int b : region.blocks) live = live || test_bit(live_in[b], static_cast<uint32_t>(v));
      if (!live) continue;
      intervals[v].start = std::min(intervals[v].start, lo);
      intervals[v].end = std::max(intervals[v].end, hi);
    }
  }

  // Fixed ranges of physical registers.
  std::vector<std::vector<std::pair<int, int>>> fixed(kFirstVirtual);
  n = 0;
  for (size_t b = 0; b < nb; ++b) {
    std::vector<int> open(kFirstVirtual, -1);
    auto use_phys = [&](uint32_t p, int pos) {
      fixed[p].push_back({open[p] >= 0 ? open[p] : block_start[b], pos});
    };
    auto def_phys = [&](uint32_t p, int pos) {
      open[p] = pos;
      fixed[p].push_back({pos, pos});
    };
    for (const MInst& inst : mf.blocks[b].insts) {
      for (const Operand& op : inst.ops)
        if (op.kind == Operand::Kind::Reg && op.use && !is_virtual(op.reg) && op.reg != kNoReg)
          use_phys(op.reg, 2 * n);
      for (uint32_t p : inst.implicit_uses) use_phys(p, 2 * n);
      for (const Operand& op : inst.ops)
        if (op.kind == Operand::Kind::Reg && op.def && !is_virtual(op.reg) && op.reg != kNoReg)
          def_phys(op.reg, 2 * n + 1);
      for (uint32_t p : inst.implicit_defs) def_phys(p, 2 * n + 1);
      // The registers an inline assembly statement clobbers may be written before it has
      // read its inputs: they hold none of its operands either.
      if (inst.is(Pseudo::InlineAsm))
        for (uint32_t p : inst.implicit_defs) fixed[p].push_back({2 * n, 2 * n + 1});
      if (inst.is_call)
        for (uint32_t p = 0; p < kFirstVirtual; ++p)
          if (caller_saved(p)) fixed[p].push_back({2 * n + 1, 2 * n + 1});
      ++n;
    }
    if (mf.blocks[b].insts.empty()) ++n;
  }
  for (auto& ranges : fixed) std::sort(ranges.begin(), ranges.end());
  auto fixed_conflict = [&](uint32_t p, int s, int e) {
    for (const auto& [a, z] : fixed[p]) {
      if (a > e) break;
      if (z >= s) return true;
    }
    return false;
  };

  // Linear scan.
  std::vector<Interval*> order;
  for (Interval& iv : intervals)
    if (iv.end >= 0) order.push_back(&iv);
  std::sort(order.begin(), order.end(), [](const Interval* a, const Interval* b) {
    return a->start != b->start ? a->start < b->start : a->vreg < b->vreg;
  });
  std::vector<Interval*> active;
  std::vector<Interval*> owner(kFirstVirtual, nullptr);
  const std::vector<uint32_t> order_s = allocation_order(RegClass::Scalar);
  const std::vector<uint32_t> order_v = allocation_order(RegClass::Vector);
  auto spill = [&](Interval* iv) {
    iv->spilled = true;
    iv->phys = kNoReg;
  };
  for (Interval* iv : order) {
    std::erase_if(active, [&](Interval* a) {
      if (a->end >= iv->start) return false;
      owner[a->phys] = nullptr;
      return true;
    });
    RegClass cls = mf.class_of(iv->vreg);
    const std::vector<uint32_t>& candidates = cls == RegClass::Scalar ? order_s : order_v;
    uint32_t chosen = kNoReg;
    if (iv->hint != kNoReg) {
      const Interval& from = intervals[iv->hint - kFirstVirtual];
      if (from.phys != kNoReg && !owner[from.phys] &&
          !fixed_conflict(from.phys, iv->start, iv->end))
        chosen = from.phys;
    }
    for (size_t i = 0; chosen == kNoReg && i < candidates.size(); ++i)
      if (!owner[candidates[i]] && !fixed_conflict(candidates[i], iv->start, iv->end))
        chosen = candidates[i];
    if (chosen == kNoReg) {
      Interval* victim = nullptr;
      for (Interval* a : active)
        if (mf.class_of(a->vreg) == cls && a->end > iv->end &&
            !fixed_conflict(a->phys, iv->start, iv->end) && (!victim || a->end > victim->end))
          victim = a;
      if (!victim) {
        spill(iv);
        continue;
      }
      chosen = victim->phys;
      owner[chosen] = nullptr;
      std::erase(active, victim);
      spill(victim);
    }
    iv->phys = chosen;
    owner[chosen] = iv;
    active.push_back(iv);
  }
  assign_spill_slots(order, mf);

  // Rewrite operands; spilled registers go through the scratch registers.
  for (MBlock& block : mf.blocks) {
    std::vector<MInst> out;
    out.reserve(block.insts.size());
    for (MInst& inst : block.insts) {
      std::vector<MInst> before, after, vector_reloads, vector_spills;
      std::set<uint32_t> scalar_defs;
      unsigned next_s = 0, next_v = 0;
      std::map<uint32_t, uint32_t> scratch_of;
      auto scratch = [&](RegClass cls) -> uint32_t {
        if (cls == RegClass::Scalar) {
          if (next_s >= 3)
            throw Error(fmt::format(
                "register allocation failed in '{}': too many spilled scalar operands", mf.name));
          return kScratchS0 + next_s++;
        }
        if (next_v >= 3)
          throw Error(fmt::format(
              "register allocation failed in '{}': too many spilled vector operands", mf.name));
        return kScratchV0 + next_v++;
      };
      for (Operand& op : inst.ops) {
        if (op.kind != Operand::Kind::Reg || !is_virtual(op.reg)) continue;
        Interval& iv = intervals[op.reg - kFirstVirtual];
        if (!iv.spilled) {
          op.reg = iv.phys;
          continue;
        }
        if (inst.is(Pseudo::Atomic))
          throw Error(fmt::format(
              "register allocation failed in '{}': a spilled operand of an atomic operation",
              mf.name));
        RegClass cls = mf.class_of(op.reg);
        auto known = scratch_of.find(op.reg);
        uint32_t r = known != scratch_of.end() ? known->second : scratch(cls);
        scratch_of[op.reg] = r;
        bool vec = cls == RegClass::Vector;
        if (op.use && known == scratch_of.end()) {
          if (vec)
            vector_reloads.push_back(make_inst(
                Pseudo::VectorReload,
                {Operand::reg_of(r), Operand::immediate(iv.slot), Operand::reg_of(kScratchS0)}));
          else
            before.push_back(
                make_inst(Pseudo::ScalarReload, {Operand::reg_of(r), Operand::immediate(iv.slot)}));
        }
        if (op.def) {
          if (vec)
            vector_spills.push_back(make_inst(
                Pseudo::VectorSpill,
                {Operand::reg_of(r), Operand::immediate(iv.slot), Operand::reg_of(kScratchS0)}));
          else
            after.push_back(
                make_inst(Pseudo::ScalarSpill, {Operand::reg_of(r), Operand::immediate(iv.slot)}));
          if (!vec) scalar_defs.insert(r);
        }
        op.reg = r;
      }
      // A slot beyond an immediate offset from sp or tp is addressed through a scalar
      // scratch register (emit.cpp): a reload through the register it loads; a vector
      // reload before any scalar reload and a vector spill after the scalar spills, when
      // no scratch holds a value; a scalar spill through a scratch that holds no result.
      for (MInst& spill : after) {
        uint32_t free = kScratchS0;
        while (scalar_defs.count(free)) ++free;
        if (free > kScratchS2)
          throw Error(
              fmt::format("register allocation failed in '{}': too many spilled results", mf.name));
        spill.ops.push_back(Operand::reg_of(free));
        spill = make_inst(Pseudo::ScalarSpill, std::move(spill.ops));
      }
      for (MInst& b : vector_reloads) out.push_back(std::move(b));
      for (MInst& b : before) out.push_back(std::move(b));
      bool identity = is_copy(inst) && inst.ops[0].reg == inst.ops[1].reg;
      if (!identity) out.push_back(std::move(inst));
      for (MInst& a : after) out.push_back(std::move(a));
      for (MInst& a : vector_spills) out.push_back(std::move(a));
    }
    block.insts = std::move(out);
  }

  // Register usage and callee-saved registers to preserve.
  std::set<uint32_t> callee_saved;
  uint32_t max_s = 0, max_v = 0;
  for (const MBlock& block : mf.blocks)
    for (const MInst& inst : block.insts) {
      auto note = [&](uint32_t r) {
        if (r == kNoReg) return;
        if (is_vector_phys(r)) {
          max_v = std::max(max_v, r - kVectorBase + 1);
        } else {
          max_s = std::max(max_s, r + 1);
        }
        if (!caller_saved(r) && r > kTp && !inst.is(Pseudo::Return)) {
          bool def = false;
          for (const Operand& op : inst.ops)
            if (op.kind == Operand::Kind::Reg && op.def && op.reg == r) def = true;
          if (inst.is(Pseudo::InlineAsm) && std::ranges::count(inst.implicit_defs, r)) def = true;
          if (def) callee_saved.insert(r);
        }
      };
      for (const Operand& op : inst.ops)
        if (op.kind == Operand::Kind::Reg) note(op.reg);
      for (uint32_t r : inst.implicit_uses) note(r);
      for (uint32_t r : inst.implicit_defs) note(r);
    }
  mf.max_scalar = max_s;
  mf.max_vector = max_v;
  if (!mf.is_kernel) {
    callee_saved.erase(kScratchS0);
    callee_saved.erase(kScratchS1);
    callee_saved.erase(kScratchS2);
    for (uint32_t v = 253; v < 256; ++v) callee_saved.erase(vreg_phys(v));
    mf.used_callee_saved.assign(callee_saved.begin(), callee_saved.end());
  }
}

}  // namespace ventus::cc::backend
