// Warp-level matrix multiply-accumulate: mma (32-bit word) and mma64 (64-bit word).
// D = A x B + C over the whole warp, each matrix a "fragment" spread over a register group
// (or, for the warp-group form of mma64, A and B in local memory). docs/isa.md "MMA and
// MMA64" gives the encodings, the fragment layout and the order of the arithmetic.
#include <fmt/format.h>

#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "formats.h"
#include "fp16.h"
#include "fp32.h"
#include "memsys.h"
#include "vector_util.h"

namespace ventus::sim {
namespace {

// Element types of A and B, numbered as the type field of mma ([30:28]) and the DT field
// of mma64 ([63:60]) encode them; fp6 and fp4 exist only in mma64.
enum class Elem : uint8_t { F32, F16, BF16, E4M3, E5M2, S8, S4, B1, E3M2, E2M3, E2M1 };

constexpr unsigned element_bits(Elem e) {
  switch (e) {
    case Elem::F32: return 32;
    case Elem::F16:
    case Elem::BF16: return 16;
    case Elem::S4:
    case Elem::E2M1: return 4;
    case Elem::B1: return 1;
    default: return 8;  // fp8, int8, and fp6 (one per byte, in its low 6 bits)
  }
}

// The narrow float format of an A/B element type.
fp::Format narrow_format(Elem e) {
  switch (e) {
    case Elem::F16: return fp::Format::F16;
    case Elem::BF16: return fp::Format::BF16;
    case Elem::E4M3: return fp::Format::E4M3;
    case Elem::E5M2: return fp::Format::E5M2;
    case Elem::E3M2: return fp::Format::E3M2;
    case Elem::E2M3: return fp::Format::E2M3;
    default: return fp::Format::E2M1;
  }
}

// What C and D hold.
enum class Acc : uint8_t { F32, F16, S32 };

unsigned accumulator_bits(Acc acc) {
  return acc == Acc::F16 ? 16 : 32;
}

struct Shape {
  unsigned m, n, k;
};

// How integer results that leave int32 are written (mma64 RD; mma always wraps).
enum class IntOverflow : uint8_t { Wrap, Saturate };

struct MmaConfig {
  Elem ab;
  Acc acc;
  Shape shape;
  bool a_column_major = false;  // A is row-major unless set
  bool b_row_major = false;     // B is column-major unless set
  uint32_t rm = fp::kRNE;       // rounding mode of float accumulation
  IntOverflow overflow = IntOverflow::Wrap;
};

// One matrix operand in registers: `elements` elements of `bits` bits packed into 32-bit
// words in the operand's storage order, word w at register base + w / T, lane w % T.
class Fragment {
 public:
  Fragment(unsigned base, unsigned elements, unsigned bits, unsigned lanes, std::string role)
      : role_(std::move(role)),
        base_(base),
        words_(elements * bits / 32),
        regs_((words_ + lanes - 1) / lanes),
        bits_(bits),
        lanes_(lanes) {
    // The group is aligned to its size rounded up to a power of two (its size whenever T
    // is a power of two), like an LMUL group.
    vec::check_group(base, std::bit_ceil(regs_), role_.c_str());
  }
  unsigned first() const { return base_; }
  unsigned last() const { return base_ + regs_ - 1; }
  // Faults when this group (written) overlaps `source` (read).
  void must_not_overlap(const Fragment& source) const {
    if (first() <= source.last() && source.first() <= last())
      fault(role_ + " v" + std::to_string(first()) + "..v" + std::to_string(last()) + " overlaps " +
            source.role_ + " v" + std::to_string(source.first()) + "..v" +
            std::to_string(source.last()));
  }

  // The raw element bits, zero-extended, in storage order.
  std::vector<uint32_t> read(const Warp& w) const {
    std::vector<uint32_t> out(words_ * 32 / bits_);
    const uint32_t field = bits_ == 32 ? ~0u : (1u << bits_) - 1u;
    const unsigned per_word = 32 / bits_;
    for (unsigned word = 0; word < words_; ++word) {
      const uint32_t value = w.v[base_ + word / lanes_][word % lanes_];
      for (unsigned j = 0; j < per_word; ++j)
        out[word * per_word + j] = (value >> (j * bits_)) & field;
    }
    return out;
  }
  // Writes every element (the operand's words are written whole).
  void write(Warp& w, const std::vector<uint32_t>& elements) const {
    const unsigned per_word = 32 / bits_;
    const uint32_t field = bits_ == 32 ? ~0u : (1u << bits_) - 1u;
    for (unsigned word = 0; word < words_; ++word) {
      uint32_t value = 0;
      for (unsigned j = 0; j < per_word; ++j)
        value |= (elements[word * per_word + j] & field) << (j * bits_);
      w.v[base_ + word / lanes_][word % lanes_] = value;
    }
  }

 private:
  std::string role_;
  unsigned base_, words_, regs_, bits_, lanes_;
};

// A matrix in local memory through the descriptor in register `reg` (mma64 wg=1): lane 0
// holds the byte address, lane 1 the byte distance between consecutive lines (rows of a
// row-major matrix, columns of a column-major one). Line l starts at address + l * stride
// and packs its elements from the lowest bit of its first byte, as a register word does.
std::vector<uint32_t> read_local(Exec& ctx, unsigned reg, unsigned lines, unsigned per_line,
                                 unsigned bits, const std::string& role) {
  const Warp& w = ctx.warp;
  const uint32_t address = w.v[reg][0], stride = w.v[reg][1];
  const unsigned line_bytes = per_line * bits / 8;
  std::vector<uint32_t> out;
  out.reserve(lines * per_line);
  std::vector<uint8_t> line(line_bytes);
  for (unsigned l = 0; l < lines; ++l) {
    for (unsigned byte = 0; byte < line_bytes; ++byte) {
      const uint32_t at = address + l * stride + byte;
      if (at < kLdsWindowBase || at >= kLdsWindowEnd)
        fault(
            fmt::format("{} (descriptor v{}: address {:#010x}, stride {}) reads byte {:#010x}, "
                        "outside local memory",
                        role, reg, address, stride, at));
      line[byte] = *ctx.mem->data_pointer(at, 1, false);
    }
    for (unsigned e = 0; e < per_line; ++e) {
      uint32_t value = 0;
      for (unsigned bit = 0; bit < bits; ++bit) {
        const unsigned at = e * bits + bit;
        value |= ((line[at / 8] >> (at % 8)) & 1u) << bit;
      }
      out.push_back(value);
    }
  }
  return out;
}

// A/B elements as binary32 for fp32 accumulation: every narrow value widens exactly (a NaN
// to the canonical NaN). A signalling NaN of a format that has them raises NV, as a widening
// fcvt does; the NaN then propagates through the accumulation.
std::vector<uint32_t> widen(Elem e, std::vector<uint32_t> elements, uint32_t& flags) {
  if (e == Elem::F32) return elements;
  const fp::Format f = narrow_format(e);
  const fp::FormatInfo& info = fp::format_info(f);
  const uint32_t exponent_all_ones = ((1u << info.exponent_bits) - 1u) << info.mantissa_bits;
  const uint32_t quiet_bit = 1u << (info.mantissa_bits - 1);
  const uint32_t fraction = (1u << info.mantissa_bits) - 1u;
  for (uint32_t& x : elements) {
    if (info.has_inf && (x & exponent_all_ones) == exponent_all_ones && (x & fraction) != 0 &&
        (x & quiet_bit) == 0)
      flags |= fp::kNV;
    x = fp::widen_to_f32(f, x);
  }
  return elements;
}

int32_t sign_extend(uint32_t bits, unsigned width) {
  const unsigned shift = 32 - width;
  return static_cast<int32_t>(bits << shift) >> shift;
}

int64_t integer_product(Elem e, uint32_t a, uint32_t b) {
  if (e == Elem::B1) return a & b;  // binary: popcount(a AND b) accumulates bit by bit
  const unsigned width = element_bits(e);
  return int64_t{sign_extend(a, width)} * sign_extend(b, width);
}

uint32_t finish_integer(int64_t exact, IntOverflow overflow) {
  if (overflow == IntOverflow::Saturate) {
    if (exact > INT32_MAX) return static_cast<uint32_t>(INT32_MAX);
    if (exact < INT32_MIN) return static_cast<uint32_t>(INT32_MIN);
  }
  return static_cast<uint32_t>(exact);
}

void require_whole_warp(const Warp& w) {
  if ((w.mask & w.lane_mask) != w.lane_mask)
    fault("mma needs every thread of the warp active (mask " + std::to_string(w.mask) + " of " +
          std::to_string(w.lanes) + " threads)");
}

// D = A x B + C with A and B given as element lists in storage order (cfg says which order).
// C is read before D is written.
void multiply_accumulate(Exec& ctx, const MmaConfig& cfg, std::vector<uint32_t> av,
                         std::vector<uint32_t> bv, const Fragment& c, const Fragment& d) {
  Warp& w = ctx.warp;
  // Plain variables, not a structured binding: the lambdas below capture them (clang 15,
  // which builds the fuzz targets, cannot capture bindings).
  const unsigned m = cfg.shape.m, n = cfg.shape.n, k = cfg.shape.k;
  uint32_t flags = 0;
  const std::vector<uint32_t> cv = c.read(w);
  if (cfg.acc == Acc::F32) {
    av = widen(cfg.ab, std::move(av), flags);
    bv = widen(cfg.ab, std::move(bv), flags);
  }
  std::vector<uint32_t> dv(m * n);
  for (unsigned i = 0; i < m; ++i) {
    for (unsigned j = 0; j < n; ++j) {
      const auto a_at = [&](unsigned kk) {
        return av[cfg.a_column_major ? kk * m + i : i * k + kk];
      };
      const auto b_at = [&](unsigned kk) { return bv[cfg.b_row_major ? kk * n + j : j * k + kk]; };
      if (cfg.acc == Acc::F32) {
        uint32_t acc = cv[i * n + j];
        for (unsigned kk = 0; kk < k; ++kk) acc = fp::fma(a_at(kk), b_at(kk), acc, cfg.rm, flags);
        dv[i * n + j] = acc;
      } else if (cfg.acc == Acc::F16) {
        uint16_t acc = static_cast<uint16_t>(cv[i * n + j]);
        for (unsigned kk = 0; kk < k; ++kk)
          acc = fp::f16::fma(static_cast<uint16_t>(a_at(kk)), static_cast<uint16_t>(b_at(kk)), acc,
                             cfg.rm, flags);
        dv[i * n + j] = acc;
      } else {
        int64_t acc = sign_extend(cv[i * n + j], 32);
        for (unsigned kk = 0; kk < k; ++kk) acc += integer_product(cfg.ab, a_at(kk), b_at(kk));
        dv[i * n + j] = finish_integer(acc, cfg.overflow);
      }
    }
  }
  d.write(w, dv);
  w.fflags |= flags;
}

// mma vd, vs1, vs2: C and D are vd, A is vs1, B is vs2; float rows round with frm, integer
// rows wrap.
void mma(Exec& ctx, const Insn& in, Elem ab, Acc acc, Shape shape) {
  Warp& w = ctx.warp;
  require_whole_warp(w);
  MmaConfig cfg{ab, acc, shape};
  if (acc != Acc::S32) cfg.rm = ctx.rounding_mode(fp::kDYN);
  const auto [m, n, k] = shape;
  const unsigned bits = element_bits(ab);
  const Fragment a(in.rs1, m * k, bits, w.lanes, "mma A");
  const Fragment b(in.rs2, k * n, bits, w.lanes, "mma B");
  const Fragment cd(in.rd, m * n, accumulator_bits(acc), w.lanes, "mma C/D");
  cd.must_not_overlap(a);
  cd.must_not_overlap(b);
  multiply_accumulate(ctx, cfg, a.read(w), b.read(w), cd, cd);
}

// The modifier fields of mma64, the same in every row (docs/isa.md).
constexpr isa::Op kMma64Row = isa::Op::MMA64_M8N8K8_F32_F32;
constexpr isa::Field kA = isa::field(kMma64Row, "a");
constexpr isa::Field kWg = isa::field(kMma64Row, "wg");
constexpr isa::Field kRd = isa::field(kMma64Row, "rd");
constexpr isa::Field kSp = isa::field(kMma64Row, "sp");
constexpr isa::Field kBl = isa::field(kMma64Row, "bl");
constexpr isa::Field kAl = isa::field(kMma64Row, "al");
// The register fields too: C's vs3 field is read from the word itself, because the 32-bit
// meaning of vs3 (the store-data field, slot rd) would otherwise let it land in Decoded.rd.
constexpr isa::Field kVd = isa::field(kMma64Row, "vd");
constexpr isa::Field kVs1 = isa::field(kMma64Row, "vs1");
constexpr isa::Field kVs2 = isa::field(kMma64Row, "vs2");
constexpr isa::Field kVs3 = isa::field(kMma64Row, "vs3");

// mma64 vd, vs1, vs2, vs3 [, modifiers]: D is vd, A vs1, B vs2, C vs3; RD is the rounding
// mode (float C/D) or the overflow rule (integer C/D); wg=1 is the warp-group form.
void mma64(Exec& ctx, const Insn& in, Elem ab, Acc acc, Shape shape) {
  Warp& w = ctx.warp;
  require_whole_warp(w);
  const uint64_t word = in.word();
  if (const uint32_t sp = kSp.get(word); sp != 0)
    fault("sparse MMA is not supported (mma64 with sp=" + std::to_string(sp) + ")");
  const bool group = kWg.get(word) != 0, a_in_registers = !group || kA.get(word) != 0;
  if (!group && kA.get(word) != 0)
    fault(
        "mma64: a=1 (A from registers) belongs to the warp-group form (wg=1); the warp form "
        "always reads A from registers");
  MmaConfig cfg{ab, acc, shape};
  cfg.a_column_major = kAl.get(word) != 0;
  cfg.b_row_major = kBl.get(word) != 0;
  const uint32_t rd = kRd.get(word);
  if (acc == Acc::S32) {
    if (rd > 1)
      fault("mma64: rd=" + std::to_string(rd) +
            " is reserved for integer C/D (0 saturate, 1 wrap)");
    cfg.overflow = rd == 0 ? IntOverflow::Saturate : IntOverflow::Wrap;
  } else {
    cfg.rm = rd;  // 00 rn, 01 rz, 10 rm, 11 rp: the RISC-V codes RNE, RTZ, RDN, RUP
  }
  if (group) cfg.shape.m *= isa::kWarpGroupRows;
  const auto [m, n, k] = cfg.shape;
  const unsigned bits = element_bits(ab), acc_bits = accumulator_bits(acc);
  const unsigned a_reg = kVs1.get(word), b_reg = kVs2.get(word);
  const Fragment c(kVs3.get(word), m * n, acc_bits, w.lanes, "mma64 C");
  const Fragment d(kVd.get(word), m * n, acc_bits, w.lanes, "mma64 D");
  std::vector<uint32_t> av, bv;
  if (a_in_registers) {
    const Fragment a(a_reg, m * k, bits, w.lanes, "mma64 A");
    d.must_not_overlap(a);
    av = a.read(w);
  } else {
    av = cfg.a_column_major ? read_local(ctx, a_reg, k, m, bits, "mma64 A")
                            : read_local(ctx, a_reg, m, k, bits, "mma64 A");
  }
  if (!group) {
    const Fragment b(b_reg, k * n, bits, w.lanes, "mma64 B");
    d.must_not_overlap(b);
    bv = b.read(w);
  } else {
    bv = cfg.b_row_major ? read_local(ctx, b_reg, k, n, bits, "mma64 B")
                         : read_local(ctx, b_reg, n, k, bits, "mma64 B");
  }
  multiply_accumulate(ctx, cfg, std::move(av), std::move(bv), c, d);
}

}  // namespace

// One body per row: the row's types and shape (the same for mma and mma64).
#define VT_MMA_SEM(SUFFIX, ab, acc, m, n, k)                            \
  VT_SEM(MMA_##SUFFIX) { mma(ctx, in, Elem::ab, Acc::acc, {m, n, k}); } \
  VT_SEM(MMA64_##SUFFIX) { mma64(ctx, in, Elem::ab, Acc::acc, {m, n, k}); }
VT_MMA_SEM(M8N8K8_F32_F32, F32, F32, 8, 8, 8)
VT_MMA_SEM(M16N8K8_F32_F32, F32, F32, 16, 8, 8)
VT_MMA_SEM(M16N8K16_F32_F32, F32, F32, 16, 8, 16)
VT_MMA_SEM(M8N8K8_F16_F16, F16, F16, 8, 8, 8)
VT_MMA_SEM(M16N8K8_F16_F16, F16, F16, 16, 8, 8)
VT_MMA_SEM(M16N8K16_F16_F16, F16, F16, 16, 8, 16)
VT_MMA_SEM(M8N8K8_F32_F16, F16, F32, 8, 8, 8)
VT_MMA_SEM(M16N8K8_F32_F16, F16, F32, 16, 8, 8)
VT_MMA_SEM(M16N8K16_F32_F16, F16, F32, 16, 8, 16)
VT_MMA_SEM(M8N8K8_F32_BF16, BF16, F32, 8, 8, 8)
VT_MMA_SEM(M16N8K8_F32_BF16, BF16, F32, 16, 8, 8)
VT_MMA_SEM(M16N8K16_F32_BF16, BF16, F32, 16, 8, 16)
VT_MMA_SEM(M16N8K32_F32_E4M3, E4M3, F32, 16, 8, 32)
VT_MMA_SEM(M16N8K32_F32_E5M2, E5M2, F32, 16, 8, 32)
VT_MMA_SEM(M8N8K16_S32_S8, S8, S32, 8, 8, 16)
VT_MMA_SEM(M16N16K16_S32_S8, S8, S32, 16, 16, 16)
VT_MMA_SEM(M8N8K32_S32_S4, S4, S32, 8, 8, 32)
VT_MMA_SEM(M16N8K32_S32_S4, S4, S32, 16, 8, 32)
VT_MMA_SEM(M16N8K64_S32_S4, S4, S32, 16, 8, 64)
VT_MMA_SEM(M8N8K128_S32_B1, B1, S32, 8, 8, 128)
#undef VT_MMA_SEM

// fp6 and fp4 exist only in mma64.
VT_SEM(MMA64_M16N8K32_F32_E3M2) {
  mma64(ctx, in, Elem::E3M2, Acc::F32, {16, 8, 32});
}
VT_SEM(MMA64_M16N8K32_F32_E2M3) {
  mma64(ctx, in, Elem::E2M3, Acc::F32, {16, 8, 32});
}
VT_SEM(MMA64_M16N8K32_F32_E2M1) {
  mma64(ctx, in, Elem::E2M1, Acc::F32, {16, 8, 32});
}
VT_SEM(MMA64_M16N8K64_F32_E2M1) {
  mma64(ctx, in, Elem::E2M1, Acc::F32, {16, 8, 64});
}

}  // namespace ventus::sim
