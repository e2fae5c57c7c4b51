// Helpers of the vector semantics tests: the semantics of the vector rows, instruction
// encoding through the table, a warp to run them on.
#pragma once

#include <iterator>
#include <map>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>

#include "reference.h"
#include "semantics.h"

namespace ventus::test {

using isa::OperandKind;

// The semantics of the Vector and VFloat rows, filtered from the table at compile time.
#define VT_ROW_Vector(id) {isa::Op::id, &sim::sem::id},
#define VT_ROW_VFloat(id) {isa::Op::id, &sim::sem::id},
#define VT_ROW_Scalar(id)
#define VT_ROW_Jump(id)
#define VT_ROW_Branch(id)
#define VT_ROW_Load(id)
#define VT_ROW_Store(id)
#define VT_ROW_Atomic(id)
#define VT_ROW_Csr(id)
#define VT_ROW_Float(id)
#define VT_ROW_Config(id)
#define VT_ROW_VLoad(id)
#define VT_ROW_VStore(id)
#define VT_ROW_VBranch(id)
#define VT_ROW_Join(id)
#define VT_ROW_Prefix(id)
#define VT_ROW_Control(id)
#define VT_ROW_Matrix(id)
#define VT_ROW_Unsupported(id)
inline const std::map<isa::Op, sim::SemanticsFn> kVectorSemantics = {
#define VT_INSN(id, mn, match, mask, ops, cls, ...) VT_ROW_##cls(id)
#include "ventus/instructions.def"
#undef VT_INSN
};

// The 32-bit vector rows this suite models; the 64-bit compute rows have their own host
// reference (tests/sim/compute64_test.cpp).
inline bool is_vector_row(const isa::InsnInfo& r) {
  return (r.cls == isa::InsnClass::Vector || r.cls == isa::InsnClass::VFloat) && r.length == 4;
}

// Encodes the row with the operands (through regext fields for registers above 31) and
// decodes it, so the semantics see exactly what the interpreter would give them.
inline sim::Insn make_insn(const isa::InsnInfo& row, const Operands& o) {
  uint32_t word = row.match;
  isa::RegExt ext;
  for (const isa::OperandSlot& s : row.operands) {
    switch (s.kind) {
      case OperandKind::Vd:
        word = isa::set_operand(word, s.kind, o.vd & 31);
        ext.rd = static_cast<uint8_t>(o.vd >> 5);
        break;
      case OperandKind::Rd:
        word = isa::set_operand(word, s.kind, o.rd & 31);
        ext.rd = static_cast<uint8_t>(o.rd >> 5);
        break;
      case OperandKind::Vs1:
        word = isa::set_operand(word, s.kind, o.vs1 & 31);
        ext.rs1 = static_cast<uint8_t>(o.vs1 >> 5);
        break;
      case OperandKind::Rs1:
        word = isa::set_operand(word, s.kind, o.rs1 & 31);
        ext.rs1 = static_cast<uint8_t>(o.rs1 >> 5);
        break;
      case OperandKind::Vs2:
        word = isa::set_operand(word, s.kind, o.vs2 & 31);
        ext.rs2 = static_cast<uint8_t>(o.vs2 >> 5);
        break;
      case OperandKind::Simm5:
      case OperandKind::Uimm5:
      case OperandKind::Uimm12: word = isa::set_operand(word, s.kind, o.imm); break;
      case OperandKind::VMask: word = isa::set_operand(word, s.kind, o.masked ? 0 : 1); break;
      default: break;
    }
  }
  ext.rs3 = ext.rd;  // the accumulator is the destination register
  const auto d = isa::decode(word, ext);
  if (!d || d->op != row.op) throw std::logic_error("encoding of " + std::string(row.mnemonic));
  return *d;
}

class Rng {
 public:
  explicit Rng(uint64_t seed) : gen_(seed) {}
  uint32_t bits() { return static_cast<uint32_t>(gen_()); }
  unsigned below(unsigned n) { return static_cast<unsigned>(gen_() % n); }
  bool chance(unsigned percent) { return below(100) < percent; }

  // Integers biased to the edges of the SEW range.
  uint32_t integer(unsigned sew) {
    const uint32_t min = 1u << (sew - 1), max = min - 1;
    const uint32_t all = sew == 32 ? ~0u : (1u << sew) - 1;
    switch (below(10)) {
      case 0: return 0;
      case 1: return 1;
      case 2: return all;  // -1
      case 3: return min;
      case 4: return max;
      case 5: return min + below(3);
      case 6: return max - below(3);
      case 7: return below(40) - 20;
      default: return bits();  // the upper bits above SEW are noise the ops must ignore
    }
  }
  // fp32 bit patterns with the special values well represented.
  uint32_t floating() {
    static constexpr uint32_t kSpecial[] = {
        0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000,
        0x7f800001, 0xff800123, 0x7fa00000, 0x00000001, 0x807fffff, 0x00800000,
        0x3f800000, 0xbf800000, 0x7f7fffff, 0xff7fffff, 0x3f000000, 0x4f000000,
        0xcf000000, 0x4f800000, 0x42b17218, 0xc2cff1b5, 0x34000000, 0x3effffff};
    switch (below(4)) {
      case 0: return kSpecial[below(std::size(kSpecial))];
      case 1: return bits();
      default: return moderate_float();
    }
  }
  // Magnitudes 2^-15..2^17, where results neither overflow nor underflow.
  uint32_t moderate_float() { return (bits() & 0x807fffffu) | ((112u + below(32)) << 23); }

  // fp16 bit patterns likewise, in the low 16 bits; the upper 16 bits are noise the fp16
  // rows must ignore.
  uint32_t half_float() {
    static constexpr uint16_t kSpecial[] = {
        0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7c01, 0xfd23, 0x7d00, 0x0001, 0x83ff,
        0x0400, 0x3c00, 0xbc00, 0x7bff, 0xfbff, 0x3800, 0x7800, 0xf800, 0x5bff, 0x1400, 0x37ff};
    const uint32_t noise = bits() & 0xffff0000u;
    switch (below(4)) {
      case 0: return noise | kSpecial[below(std::size(kSpecial))];
      case 1: return bits();
      default: return noise | moderate_half();
    }
  }
  // Magnitudes 2^-7..2^7: fp16 results neither overflow nor underflow.
  uint32_t moderate_half() { return (bits() & 0x83ffu) | ((8u + below(15)) << 10); }

  // What a whole register state looks like: the semantics have fast paths for states
  // without NaNs (fp compares) and for values that convert exactly (fp conversions), so
  // the tests make such states as often as edge-heavy ones.
  enum class Style { Edges, NoNaN, Moderate };
  Style style() { return static_cast<Style>(below(3)); }
  uint32_t value(bool fp, unsigned sew, Style s) {
    if (!fp && s == Style::Moderate) return bits() % (1u << 25) - (1u << 24);  // |x| <= 2^24
    if (!fp) return integer(sew);
    if (sew == 16) {
      if (s == Style::Moderate) return moderate_half();
      const uint32_t f = half_float();
      return s == Style::NoNaN && (f & 0x7fffu) > 0x7c00u ? 0x3c00u : f;
    }
    if (s == Style::Moderate) return moderate_float();
    const uint32_t f = floating();
    return s == Style::NoNaN && (f & 0x7fffffffu) > 0x7f800000u ? 0x3f800000u : f;
  }

 private:
  std::mt19937_64 gen_;
};

struct Machine {
  std::unique_ptr<sim::Warp> warp = std::make_unique<sim::Warp>();
  sim::Exec ctx{*warp};

  Machine() {
    warp->lanes = 32;
    warp->lane_mask = warp->mask = ~0u;
    warp->vcfg.vl = 32;
  }
  // Runs the row `mnemonic` with the operands.
  void run(std::string_view mnemonic, const Operands& o) {
    const isa::InsnInfo* row = isa::find_mnemonic(mnemonic);
    if (!row) throw std::logic_error("no row " + std::string(mnemonic));
    kVectorSemantics.at(row->op)(ctx, make_insn(*row, o));
  }
};

}  // namespace ventus::test
