// PREFIX / PREFIXI / PREFIX_MEMORY (docs/isa.md, "Prefixes"). The decode cache folds a
// prefix into the instruction after it, so the prefix rows never run on their own. ABS/NEG
// are applied here by a wrapper: the flagged source registers are modified in place, the
// row's own semantics run, and the sources are put back.
#include <fmt/format.h>

#include <algorithm>

#include "semantics.h"

namespace ventus::sim {
namespace {

using isa::InsnClass;

// The row's register operand in slot 1, 2 or 3 (rs1/vs1, rs2/vs2, rs3), or nullptr.
const isa::OperandSlot* source_slot(const isa::InsnInfo& row, int slot) {
  for (const isa::OperandSlot& s : row.operands)
    if (isa::is_register_kind(s.kind) && isa::register_slot(s.kind) == slot) return &s;
  return nullptr;
}

// abs, then neg, on the low `bits` bits of x (the element); the bits above stay.
uint32_t modify(uint32_t x, unsigned bits, bool fp, bool abs, bool neg) {
  const uint32_t mask = bits == 32 ? ~0u : (1u << bits) - 1;
  const uint32_t sign = 1u << (bits - 1);
  uint32_t e = x & mask;
  if (fp) {
    if (abs) e &= ~sign;
    if (neg) e ^= sign;
  } else {
    if (abs && (e & sign)) e = (0u - e) & mask;
    if (neg) e = (0u - e) & mask;
  }
  return (x & ~mask) | e;
}

struct Saved {
  bool vector = false;
  unsigned reg = 0, regs = 0;
  uint32_t x = 0;
  uint32_t v[2][kMaxLanes] = {};
};

}  // namespace

std::string source_modifiers_problem(const isa::Decoded& in) {
  const isa::InsnInfo& row = isa::info(in.op);
  const bool scalar_fp32 = row.cls == InsnClass::Float && row.mnemonic.ends_with(".s");
  if (row.cls != InsnClass::Vector && row.cls != InsnClass::VFloat && !scalar_fp32)
    return fmt::format(
        "ABS/NEG do not apply to {} (only vector integer and floating-point arithmetic and "
        "scalar fp32 take them)",
        row.mnemonic);
  for (int slot = 1; slot <= 3; ++slot) {
    if (!(((in.abs | in.neg) >> (slot - 1)) & 1)) continue;
    if (!source_slot(row, slot))
      return fmt::format("ABS/NEG bit {} names source operand {}, which {} does not have", slot - 1,
                         slot, row.mnemonic);
  }
  // The modifiers are applied to the register itself: two sources in one register must ask
  // for the same (vmax.vv v2, v1, v1 with NEG on one of them cannot be done).
  const auto modifiers = [&](int slot) {
    return ((in.abs >> (slot - 1)) & 1) | ((in.neg >> (slot - 1)) & 1) << 1;
  };
  for (int a = 1; a <= 3; ++a)
    for (int b = a + 1; b <= 3; ++b) {
      const isa::OperandSlot *sa = source_slot(row, a), *sb = source_slot(row, b);
      if (!sa || !sb || modifiers(a) == modifiers(b)) continue;
      if (isa::is_vector_register_kind(sa->kind) == isa::is_vector_register_kind(sb->kind) &&
          in.reg(a) == in.reg(b))
        return fmt::format(
            "ABS/NEG differ for source operands {} and {} of {}, which are the "
            "same register",
            a, b, row.mnemonic);
    }
  return "";
}

void with_source_modifiers(Exec& ctx, const Insn& in) {
  const isa::InsnInfo& row = isa::info(in.op);
  Warp& w = ctx.warp;
  const bool fp = row.cls != InsnClass::Vector;
  const unsigned bits = row.cls == InsnClass::Float ? 32 : w.vcfg.sew;
  const unsigned regs = row.cls == InsnClass::Float ? 1 : w.vcfg.lmul;
  const auto writes_register_of = [&](isa::RegisterFile file) {
    return std::any_of(row.operands.begin(), row.operands.end(), [&](const isa::OperandSlot& s) {
      return isa::writes(s.role) && isa::is_register_kind(s.kind) &&
             isa::kind_info(s.kind).file == file;
    });
  };
  const bool vector_destination = writes_register_of(isa::RegisterFile::V);
  const bool scalar_destination = writes_register_of(isa::RegisterFile::X);
  // Checked before any register changes, so that a fault leaves the sources as they were.
  for (int slot = 1; slot <= 3; ++slot) {
    if (!(((in.abs | in.neg) >> (slot - 1)) & 1)) continue;
    const unsigned reg = in.reg(slot);
    if (!isa::is_vector_register_kind(source_slot(row, slot)->kind)) {
      if (reg >= kNumXRegs) fault(fmt::format("scalar register x{} does not exist", reg));
      continue;
    }
    if (reg % regs != 0 || reg + regs > kNumVRegs)
      fault(fmt::format("v{} is not a valid group of {} register(s)", reg, regs));
    // The destination is written only in the lanes the instruction acts on: a source it
    // also writes could not be put back, so the pair is refused.
    if (vector_destination && reg < in.rd + regs && in.rd < reg + regs)
      fault(fmt::format("ABS/NEG source v{} of {} overlaps its destination v{}", reg, row.mnemonic,
                        in.rd));
  }
  Saved saved[3];
  unsigned count = 0;
  bool done[kNumVRegs + kNumXRegs] = {};  // a register named by two sources changes once
  for (int slot = 1; slot <= 3; ++slot) {
    const bool abs = (in.abs >> (slot - 1)) & 1, neg = (in.neg >> (slot - 1)) & 1;
    if (!abs && !neg) continue;
    const unsigned reg = in.reg(slot);
    const bool vector = isa::is_vector_register_kind(source_slot(row, slot)->kind);
    if (done[vector ? reg : kNumVRegs + reg]) continue;
    done[vector ? reg : kNumVRegs + reg] = true;
    Saved& k = saved[count++];
    k.vector = vector;
    k.reg = reg;
    if (!vector) {
      k.x = w.x[reg];
      w.x[reg] = modify(k.x, bits, fp, abs, neg);
      continue;
    }
    k.regs = regs;
    for (unsigned r = 0; r < regs; ++r)
      for (unsigned lane = 0; lane < kMaxLanes; ++lane) {
        k.v[r][lane] = w.v[reg + r][lane];
        w.v[reg + r][lane] = modify(k.v[r][lane], bits, fp, abs, neg);
      }
  }
  const auto restore = [&] {
    for (unsigned i = 0; i < count; ++i) {
      const Saved& k = saved[i];
      if (!k.vector) {
        // A scalar destination is always written: it keeps the result (x0 is put back to 0).
        const bool result = k.reg == in.rd && k.reg != 0 && scalar_destination;
        if (!result) w.x[k.reg] = k.x;
        continue;
      }
      for (unsigned r = 0; r < k.regs; ++r)
        for (unsigned lane = 0; lane < kMaxLanes; ++lane) w.v[k.reg + r][lane] = k.v[r][lane];
    }
  };
  try {
    kSemantics[static_cast<size_t>(in.op)](ctx, in);
  } catch (const ExecFault&) {
    restore();
    throw;
  }
  restore();
}

VT_SEM(PREFIX) {
  fault("internal error: prefix executed without the instruction it applies to");
}
VT_SEM(PREFIXI) {
  fault("internal error: prefixi executed without the instruction it applies to");
}
VT_SEM(PREFIX_MEMORY) {
  fault("internal error: prefix.mem executed without the instruction it applies to");
}

}  // namespace ventus::sim
