// Warp-level matrix multiply-accumulate: mma (32-bit word). D = A x B + C over the whole
// warp, each matrix a "fragment" spread over a register group. docs/isa.md "MMA and MMA64"
// gives the encodings, the fragment layout and the order of the arithmetic implemented here.
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "formats.h"
#include "fp16.h"
#include "fp32.h"
#include "vector_util.h"

namespace ventus::sim {
namespace {

// Element types of A and B, numbered as the type field [30:28] of mma encodes them.
enum class Elem : uint8_t { F32, F16, BF16, E4M3, E5M2, S8, S4, B1 };

constexpr unsigned element_bits(Elem e) {
  switch (e) {
    case Elem::F32: return 32;
    case Elem::F16:
    case Elem::BF16: return 16;
    case Elem::E4M3:
    case Elem::E5M2:
    case Elem::S8: return 8;
    case Elem::S4: return 4;
    case Elem::B1: return 1;
  }
  return 32;
}

// The narrow float format of an A/B element type.
fp::Format narrow_format(Elem e) {
  switch (e) {
    case Elem::F16: return fp::Format::F16;
    case Elem::BF16: return fp::Format::BF16;
    case Elem::E4M3: return fp::Format::E4M3;
    default: return fp::Format::E5M2;
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

// How integer results that leave int32 are written (MMA64 RD; mma always wraps).
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

// One matrix operand: `elements` elements of `bits` bits packed into 32-bit words in the
// operand's storage order, word w at register base + w / T, lane w % T.
class Fragment {
 public:
  Fragment(unsigned base, unsigned elements, unsigned bits, unsigned lanes, const char* role)
      : base_(base),
        words_(elements * bits / 32),
        regs_((words_ + lanes - 1) / lanes),
        bits_(bits),
        lanes_(lanes) {
    // The group is aligned to its size rounded up to a power of two (its size whenever T
    // is a power of two), like an LMUL group.
    vec::check_group(base, std::bit_ceil(regs_), role);
  }
  unsigned first() const { return base_; }
  unsigned last() const { return base_ + regs_ - 1; }
  bool overlaps(const Fragment& o) const { return first() <= o.last() && o.first() <= last(); }

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
  unsigned base_, words_, regs_, bits_, lanes_;
};

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

// D = A x B + C for the issuing warp. All operands are read before D is written.
void multiply_accumulate(Exec& ctx, const MmaConfig& cfg, unsigned a_reg, unsigned b_reg,
                         unsigned c_reg, unsigned d_reg) {
  Warp& w = ctx.warp;
  if ((w.mask & w.lane_mask) != w.lane_mask)
    fault("mma needs every thread of the warp active (mask " + std::to_string(w.mask) + " of " +
          std::to_string(w.lanes) + " threads)");
  const auto [m, n, k] = cfg.shape;
  const unsigned ab_bits = element_bits(cfg.ab);
  const Fragment a(a_reg, m * k, ab_bits, w.lanes, "mma A");
  const Fragment b(b_reg, k * n, ab_bits, w.lanes, "mma B");
  const Fragment c(c_reg, m * n, accumulator_bits(cfg.acc), w.lanes, "mma C");
  const Fragment d(d_reg, m * n, accumulator_bits(cfg.acc), w.lanes, "mma D");
  if (d.overlaps(a) || d.overlaps(b))
    fault("mma D v" + std::to_string(d.first()) + "..v" + std::to_string(d.last()) +
          " overlaps A v" + std::to_string(a.first()) + "..v" + std::to_string(a.last()) +
          " or B v" + std::to_string(b.first()) + "..v" + std::to_string(b.last()));
  uint32_t flags = 0;
  std::vector<uint32_t> av = a.read(w), bv = b.read(w);
  const std::vector<uint32_t> cv = c.read(w);
  if (cfg.acc == Acc::F32) {
    av = widen(cfg.ab, std::move(av), flags);
    bv = widen(cfg.ab, std::move(bv), flags);
  }
  std::vector<uint32_t> dv(m * n);
  for (unsigned i = 0; i < m; ++i) {
    for (unsigned j = 0; j < n; ++j) {
      const auto a_at = [&](unsigned kk) { return av[cfg.a_column_major ? kk * m + i : i * k + kk]; };
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
  MmaConfig cfg{ab, acc, shape};
  if (acc != Acc::S32) cfg.rm = ctx.rounding_mode(fp::kDYN);
  multiply_accumulate(ctx, cfg, in.rs1, in.rs2, in.rd, in.rd);
}

}  // namespace

VT_SEM(MMA_M8N8K8_F32_F32) {
  mma(ctx, in, Elem::F32, Acc::F32, {8, 8, 8});
}
VT_SEM(MMA_M16N8K8_F32_F32) {
  mma(ctx, in, Elem::F32, Acc::F32, {16, 8, 8});
}
VT_SEM(MMA_M16N8K16_F32_F32) {
  mma(ctx, in, Elem::F32, Acc::F32, {16, 8, 16});
}
VT_SEM(MMA_M8N8K8_F16_F16) {
  mma(ctx, in, Elem::F16, Acc::F16, {8, 8, 8});
}
VT_SEM(MMA_M16N8K8_F16_F16) {
  mma(ctx, in, Elem::F16, Acc::F16, {16, 8, 8});
}
VT_SEM(MMA_M16N8K16_F16_F16) {
  mma(ctx, in, Elem::F16, Acc::F16, {16, 8, 16});
}
VT_SEM(MMA_M8N8K8_F32_F16) {
  mma(ctx, in, Elem::F16, Acc::F32, {8, 8, 8});
}
VT_SEM(MMA_M16N8K8_F32_F16) {
  mma(ctx, in, Elem::F16, Acc::F32, {16, 8, 8});
}
VT_SEM(MMA_M16N8K16_F32_F16) {
  mma(ctx, in, Elem::F16, Acc::F32, {16, 8, 16});
}
VT_SEM(MMA_M8N8K8_F32_BF16) {
  mma(ctx, in, Elem::BF16, Acc::F32, {8, 8, 8});
}
VT_SEM(MMA_M16N8K8_F32_BF16) {
  mma(ctx, in, Elem::BF16, Acc::F32, {16, 8, 8});
}
VT_SEM(MMA_M16N8K16_F32_BF16) {
  mma(ctx, in, Elem::BF16, Acc::F32, {16, 8, 16});
}
VT_SEM(MMA_M16N8K32_F32_E4M3) {
  mma(ctx, in, Elem::E4M3, Acc::F32, {16, 8, 32});
}
VT_SEM(MMA_M16N8K32_F32_E5M2) {
  mma(ctx, in, Elem::E5M2, Acc::F32, {16, 8, 32});
}
VT_SEM(MMA_M8N8K16_S32_S8) {
  mma(ctx, in, Elem::S8, Acc::S32, {8, 8, 16});
}
VT_SEM(MMA_M16N16K16_S32_S8) {
  mma(ctx, in, Elem::S8, Acc::S32, {16, 16, 16});
}
VT_SEM(MMA_M8N8K32_S32_S4) {
  mma(ctx, in, Elem::S4, Acc::S32, {8, 8, 32});
}
VT_SEM(MMA_M16N8K32_S32_S4) {
  mma(ctx, in, Elem::S4, Acc::S32, {16, 8, 32});
}
VT_SEM(MMA_M16N8K64_S32_S4) {
  mma(ctx, in, Elem::S4, Acc::S32, {16, 8, 64});
}
VT_SEM(MMA_M8N8K128_S32_B1) {
  mma(ctx, in, Elem::B1, Acc::S32, {8, 8, 128});
}

}  // namespace ventus::sim
