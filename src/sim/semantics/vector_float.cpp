// Vector fp semantics, fp32 at SEW=32 (Zve32f) and fp16 at SEW=16 (Zvfh): arithmetic, the
// fused multiply-add family, min/max, sign injection, compares, conversions, classify,
// square root, the 7-bit estimates (fp32 only), merges and moves. Bit-exact RISC-V through
// src/fp; scalar operands of .vf forms are x registers (Zfinx; at SEW=16 the low 16 bits,
// as Zhinx). RVV vector FP rows have no rm field: they round with frm. Exception flags of
// active lanes accrue into fflags. fp16 elements live in the low 16 bits of the lane word
// and are written zero-extended. docs/vector.md.
#include <bit>

#include "fp16.h"
#include "fp32.h"
#include "vector_util.h"

namespace ventus::sim {
namespace {

using vec::Src;

constexpr uint32_t kSignBit = 0x80000000u;
constexpr uint32_t kHalfSignBit = 0x8000u;

uint16_t as_half(uint32_t element) {  // an fp16 element: the low 16 bits of the lane word
  return static_cast<uint16_t>(element);
}

// The checks and operand fetches every fp row shares.
struct FpOperands {
  Warp& w;
  unsigned g;                  // registers per group (LMUL)
  bool half;                   // SEW=16: fp16 elements
  uint32_t active;             // lanes to compute
  uint32_t scalar[kMaxLanes];  // x[rs1] broadcast (its low SEW bits), for .vf forms
};

template <Src S2>
FpOperands fp_operands(Exec& ctx, const Insn& in, uint8_t vm, bool reads_vs2 = true) {
  FpOperands op{ctx.warp, ctx.warp.vcfg.lmul, vec::require_fp_sew(ctx.warp), 0, {}};
  vec::check_group(in.rd, op.g, "vd");
  if (reads_vs2) vec::check_group(in.rs2, op.g, "vs2");
  if constexpr (S2 == Src::V) vec::check_group(in.rs1, op.g, "vs1");
  if constexpr (S2 == Src::X) {
    const uint32_t x = vec::read_x(ctx, in.rs1);
    for (uint32_t& s : op.scalar) s = op.half ? as_half(x) : x;
  }
  op.active = ctx.active_lanes(vm);
  return op;
}

using LaneOp = void (*)(const uint32_t*, const uint32_t*, uint32_t*, uint32_t, unsigned, uint32_t,
                        uint32_t&);
using HalfOp = uint16_t (*)(uint16_t, uint16_t, uint32_t, uint32_t&);

// vd = op(vs2, second) through a fast lane helper of the fp library (fp32) or lane by lane
// (fp16); kReverse swaps the operands (vfrsub, vfrdiv: vd = f op vs2).
template <Src S2, bool kReverse = false>
void fp_lanes(Exec& ctx, const Insn& in, LaneOp lane_op, HalfOp half_op) {
  FpOperands op = fp_operands<S2>(ctx, in, in.vm);
  const uint32_t rm = ctx.rounding_mode(fp::kDYN);
  if (op.active == 0) return;
  uint32_t flags = 0;
  for (unsigned k = 0; k < op.g; ++k) {
    const uint32_t* a = op.w.v[in.rs2 + k];
    const uint32_t* b = S2 == Src::V ? op.w.v[in.rs1 + k] : op.scalar;
    uint32_t* d = op.w.v[in.rd + k];
    if (op.half)
      vec::each_lane(op.active, [&](unsigned i) {
        d[i] = kReverse ? half_op(as_half(b[i]), as_half(a[i]), rm, flags)
                        : half_op(as_half(a[i]), as_half(b[i]), rm, flags);
      });
    else if (kReverse)
      lane_op(b, a, d, op.active, op.w.lanes, rm, flags);
    else
      lane_op(a, b, d, op.active, op.w.lanes, rm, flags);
  }
  op.w.fflags |= flags;
}

// Min/max and compares: vd = op(vs2, second). They do not round (frm plays no part) and
// raise flags only for NaN operands. fp32 without a NaN among the 32 operand pairs is
// plain host float compares (exact for every other value, subnormals included), which
// vectorize; otherwise each active lane goes through the fp library.
bool has_nan(const uint32_t* a, const uint32_t* b) {
  uint32_t nan = 0;
  for (unsigned i = 0; i < kMaxLanes; ++i)
    nan |= (static_cast<int32_t>(a[i] & ~kSignBit) > 0x7f800000) |
           (static_cast<int32_t>(b[i] & ~kSignBit) > 0x7f800000);
  return nan != 0;
}

template <Src S2, class Op>
void fp_compare(Exec& ctx, const Insn& in, Op op) {
  FpOperands ops = fp_operands<S2>(ctx, in, in.vm);
  if (ops.active == 0) return;
  uint32_t flags = 0;
  for (unsigned k = 0; k < ops.g; ++k) {
    const uint32_t* a = ops.w.v[in.rs2 + k];
    const uint32_t* b = S2 == Src::V ? ops.w.v[in.rs1 + k] : ops.scalar;
    uint32_t* d = ops.w.v[in.rd + k];
    if (ops.half) {
      vec::each_lane(ops.active,
                     [&](unsigned i) { d[i] = op.half(as_half(a[i]), as_half(b[i]), flags); });
    } else if (!has_nan(a, b)) {
      vec::write_lanes(d, ops.active, [&](unsigned i) { return op.ordered(a[i], b[i]); });
    } else {
      vec::each_lane(ops.active, [&](unsigned i) { d[i] = op.exact(a[i], b[i], flags); });
    }
  }
  ops.w.fflags |= flags;
}

float as_float(uint32_t bits) {
  return std::bit_cast<float>(bits);
}

// vd = f(vs2, rm, flags) lane by lane, with f32 for fp32 elements and f16 for fp16 ones
// (both take and return the lane word). rm is frm (a reserved frm faults) unless the row
// fixes it: the .rtz forms, and the rows that do not round (any fixed mode, unused).
template <class F32, class F16>
void fp_unary(Exec& ctx, const Insn& in, F32 f32, F16 f16, uint32_t fixed_rm = fp::kDYN) {
  FpOperands op = fp_operands<Src::I>(ctx, in, in.vm);
  const uint32_t rm = ctx.rounding_mode(fixed_rm);
  if (op.active == 0) return;
  uint32_t flags = 0;
  for (unsigned k = 0; k < op.g; ++k) {
    const uint32_t* a = op.w.v[in.rs2 + k];
    uint32_t* d = op.w.v[in.rd + k];
    if (op.half)
      vec::each_lane(op.active, [&](unsigned i) { d[i] = f16(a[i], rm, flags); });
    else
      vec::each_lane(op.active, [&](unsigned i) { d[i] = f32(a[i], rm, flags); });
  }
  op.w.fflags |= flags;
}

// fp_unary for the rows that have no fp16 form: SEW must be 32, so f serves both slots
// and its fp16 use is never reached.
template <class F>
void fp32_unary(Exec& ctx, const Insn& in, F f, uint32_t fixed_rm = fp::kDYN) {
  vec::require_sew32(ctx.warp);
  fp_unary(ctx, in, f, f, fixed_rm);
}

// A conversion with a host fast path for fp32. When every one of the 32 input slots fits
// the host conversion (Fast::fits), the lanes convert there, vectorized, with NX from
// Fast::inexact; otherwise each active lane goes through the fp library (`exact`, with rm).
// fp16 elements always take the library (`half_exact`).
template <class Fast, class Exact, class HalfExact>
void fp_convert(Exec& ctx, const Insn& in, uint32_t fixed_rm, Fast fast, Exact exact,
                HalfExact half_exact) {
  FpOperands op = fp_operands<Src::I>(ctx, in, in.vm);
  const uint32_t rm = ctx.rounding_mode(fixed_rm);
  if (op.active == 0) return;
  uint32_t on[kMaxLanes];
  vec::expand_lanes(op.active, on);
  uint32_t flags = 0;
  for (unsigned k = 0; k < op.g; ++k) {
    const uint32_t* a = op.w.v[in.rs2 + k];
    uint32_t* d = op.w.v[in.rd + k];
    if (op.half) {
      vec::each_lane(op.active, [&](unsigned i) { d[i] = half_exact(a[i], rm, flags); });
      continue;
    }
    bool fits = true;
    for (unsigned i = 0; i < kMaxLanes; ++i) fits &= fast.fits(a[i]);
    if (!fits) {
      vec::each_lane(op.active, [&](unsigned i) { d[i] = exact(a[i], rm, flags); });
      continue;
    }
    uint32_t inexact = 0;
#pragma GCC ivdep
    for (unsigned i = 0; i < kMaxLanes; ++i) {
      const uint32_t r = fast.convert(a[i]);
      inexact |= on[i] & (0u - static_cast<uint32_t>(fast.inexact(a[i], r)));
      d[i] = (r & on[i]) | (d[i] & ~on[i]);
    }
    if (inexact) flags |= fp::kNX;
  }
  op.w.fflags |= flags;
}

// int32/uint32 -> fp32 is exact, in every rounding mode, for magnitudes up to 2^24.
template <bool kSigned>
struct IntToFloat {
  static bool fits(uint32_t a) { return kSigned ? a + (1u << 24) <= (1u << 25) : a <= (1u << 24); }
  static uint32_t convert(uint32_t a) {
    return std::bit_cast<uint32_t>(kSigned ? static_cast<float>(static_cast<int32_t>(a))
                                           : static_cast<float>(a));
  }
  static bool inexact(uint32_t, uint32_t) { return false; }
};

// fp32 -> int32 (or uint32 below 2^31) toward zero is the host's truncating conversion for
// inputs in range (not NaN); it is inexact where the input had a fraction.
template <bool kSigned>
struct TruncateToInt {
  static bool fits(uint32_t a) {
    const float f = std::bit_cast<float>(a);
    return (kSigned ? f >= -2147483648.0f : f >= 0.0f) && f < 2147483648.0f;  // false for NaN
  }
  static uint32_t convert(uint32_t a) {
    return static_cast<uint32_t>(static_cast<int32_t>(std::bit_cast<float>(a)));
  }
  static bool inexact(uint32_t a, uint32_t r) {
    return static_cast<float>(static_cast<int32_t>(r)) != std::bit_cast<float>(a);
  }
};

// Sign injection: pure bit operations (no NaN canonicalization, no flags, as fsgnj.s).
template <Src S2, class F>
void sign_inject(Exec& ctx, const Insn& in, F sign_of) {
  FpOperands op = fp_operands<S2>(ctx, in, in.vm);
  if (op.active == 0) return;
  const uint32_t sign_bit = op.half ? kHalfSignBit : kSignBit;
  const uint32_t magnitude = sign_bit - 1;  // also drops the bits above an fp16 element
  for (unsigned k = 0; k < op.g; ++k) {
    const uint32_t* a = op.w.v[in.rs2 + k];
    const uint32_t* b = S2 == Src::V ? op.w.v[in.rs1 + k] : op.scalar;
    vec::write_lanes(op.w.v[in.rd + k], op.active, [&](unsigned i) {
      return (a[i] & magnitude) | (sign_of(a[i], b[i]) & sign_bit);
    });
  }
}

// The fused multiply-add family (RVV 1.0), with x = vs1 or f[rs1], y = vs2, z = old vd:
//   vfmacc  +(x*y)+z   vfnmacc -(x*y)-z   vfmsac  +(x*y)-z   vfnmsac -(x*y)+z
//   vfmadd  +(x*z)+y   vfnmadd -(x*z)-y   vfmsub  +(x*z)-y   vfnmsub -(x*z)+y
// One rounding. Negation flips sign bits of the inputs (x for the product, the addend), as
// the RISC-V fnm* definitions do; the lane helper returns the canonical NaN for NaN results.
enum class Fma : uint8_t { Acc, Add };  // the addend is the old vd (Acc) or vs2 (Add)

template <Src S2>
void fp_fma(Exec& ctx, const Insn& in, Fma form, bool negate_product, bool negate_addend) {
  FpOperands op = fp_operands<S2>(ctx, in, in.vm);
  vec::check_group(in.rs3, op.g, "vd (accumulator)");
  const uint32_t rm = ctx.rounding_mode(fp::kDYN);
  if (op.active == 0) return;
  const uint32_t sign_bit = op.half ? kHalfSignBit : kSignBit;
  const uint32_t product_sign = negate_product ? sign_bit : 0;
  const uint32_t addend_sign = negate_addend ? sign_bit : 0;
  uint32_t flags = 0;
  for (unsigned k = 0; k < op.g; ++k) {
    const uint32_t* x = S2 == Src::V ? op.w.v[in.rs1 + k] : op.scalar;
    const uint32_t* y = op.w.v[in.rs2 + k];
    const uint32_t* z = op.w.v[in.rs3 + k];
    const uint32_t* multiplicand = form == Fma::Acc ? y : z;
    const uint32_t* addend = form == Fma::Acc ? z : y;
    uint32_t* d = op.w.v[in.rd + k];
    if (op.half) {
      // d may alias x, y or z: each lane reads its operands before writing.
      vec::each_lane(op.active, [&](unsigned i) {
        d[i] = fp::f16::fma(as_half(x[i] ^ product_sign), as_half(multiplicand[i]),
                            as_half(addend[i] ^ addend_sign), rm, flags);
      });
      continue;
    }
    uint32_t a[kMaxLanes], c[kMaxLanes];
    for (unsigned i = 0; i < kMaxLanes; ++i) {
      a[i] = x[i] ^ product_sign;
      c[i] = addend[i] ^ addend_sign;
    }
    fp::fma_lanes(a, multiplicand, c, d, op.active, op.w.lanes, rm, flags);
  }
  op.w.fflags |= flags;
}

// vfmerge.vfm: vd = v0[i] ? f : vs2 on the SIMT-active lanes below vl.
void fp_merge(Exec& ctx, const Insn& in) {
  FpOperands op = fp_operands<Src::X>(ctx, in, 1);
  if (op.active == 0) return;
  const uint32_t select = op.w.v0_mask();
  const uint32_t element = op.half ? 0xffffu : ~0u;
  for (unsigned k = 0; k < op.g; ++k) {
    const uint32_t* a = op.w.v[in.rs2 + k];
    vec::write_lanes(op.w.v[in.rd + k], op.active, [&](unsigned i) {
      return ((select >> i) & 1u) ? op.scalar[i] : a[i] & element;
    });
  }
}

// vfmv.v.f / vfmv.s.f (Ventus: the same as vfmv.v.f): vd = f, bits unchanged.
void fp_broadcast(Exec& ctx, const Insn& in) {
  FpOperands op = fp_operands<Src::X>(ctx, in, in.vm, false);
  if (op.active == 0) return;
  for (unsigned k = 0; k < op.g; ++k)
    vec::write_lanes(op.w.v[in.rd + k], op.active, [&](unsigned i) { return op.scalar[i]; });
}

uint32_t to_bits(int32_t v) {
  return static_cast<uint32_t>(v);
}
uint32_t to_bits(int16_t v) {  // an int16 element, zero-extended in the lane word
  return static_cast<uint16_t>(v);
}

}  // namespace

VT_SEM(VFADD_VV) {
  fp_lanes<Src::V>(ctx, in, fp::add_lanes, fp::f16::add);
}
VT_SEM(VFADD_VF) {
  fp_lanes<Src::X>(ctx, in, fp::add_lanes, fp::f16::add);
}
VT_SEM(VFSUB_VV) {
  fp_lanes<Src::V>(ctx, in, fp::sub_lanes, fp::f16::sub);
}
VT_SEM(VFSUB_VF) {
  fp_lanes<Src::X>(ctx, in, fp::sub_lanes, fp::f16::sub);
}
VT_SEM(VFRSUB_VF) {
  fp_lanes<Src::X, true>(ctx, in, fp::sub_lanes, fp::f16::sub);
}
VT_SEM(VFMUL_VV) {
  fp_lanes<Src::V>(ctx, in, fp::mul_lanes, fp::f16::mul);
}
VT_SEM(VFMUL_VF) {
  fp_lanes<Src::X>(ctx, in, fp::mul_lanes, fp::f16::mul);
}
VT_SEM(VFDIV_VV) {
  fp_lanes<Src::V>(ctx, in, fp::div_lanes, fp::f16::div);
}
VT_SEM(VFDIV_VF) {
  fp_lanes<Src::X>(ctx, in, fp::div_lanes, fp::f16::div);
}
VT_SEM(VFRDIV_VF) {
  fp_lanes<Src::X, true>(ctx, in, fp::div_lanes, fp::f16::div);
}

namespace {
// The ordered forms: min/max pick -0 over +0 (minimumNumber/maximumNumber) by OR/AND of
// equal operands; compares write 0/1 (Ventus). vmfeq/vmfne are quiet, the others signaling.
struct Min {
  static uint32_t exact(uint32_t a, uint32_t b, uint32_t& f) { return fp::min(a, b, f); }
  static uint32_t half(uint16_t a, uint16_t b, uint32_t& f) { return fp::f16::min(a, b, f); }
  static uint32_t ordered(uint32_t a, uint32_t b) {
    return as_float(a) < as_float(b) ? a : as_float(b) < as_float(a) ? b : a | b;
  }
};
struct Max {
  static uint32_t exact(uint32_t a, uint32_t b, uint32_t& f) { return fp::max(a, b, f); }
  static uint32_t half(uint16_t a, uint16_t b, uint32_t& f) { return fp::f16::max(a, b, f); }
  static uint32_t ordered(uint32_t a, uint32_t b) {
    return as_float(a) > as_float(b) ? a : as_float(b) > as_float(a) ? b : a & b;
  }
};
struct Eq {
  static uint32_t exact(uint32_t a, uint32_t b, uint32_t& f) { return fp::eq(a, b, f); }
  static uint32_t half(uint16_t a, uint16_t b, uint32_t& f) { return fp::f16::eq(a, b, f); }
  static uint32_t ordered(uint32_t a, uint32_t b) { return as_float(a) == as_float(b); }
};
struct Ne {
  static uint32_t exact(uint32_t a, uint32_t b, uint32_t& f) { return !fp::eq(a, b, f); }
  static uint32_t half(uint16_t a, uint16_t b, uint32_t& f) { return !fp::f16::eq(a, b, f); }
  static uint32_t ordered(uint32_t a, uint32_t b) { return as_float(a) != as_float(b); }
};
struct Lt {
  static uint32_t exact(uint32_t a, uint32_t b, uint32_t& f) { return fp::lt(a, b, f); }
  static uint32_t half(uint16_t a, uint16_t b, uint32_t& f) { return fp::f16::lt(a, b, f); }
  static uint32_t ordered(uint32_t a, uint32_t b) { return as_float(a) < as_float(b); }
};
struct Le {
  static uint32_t exact(uint32_t a, uint32_t b, uint32_t& f) { return fp::le(a, b, f); }
  static uint32_t half(uint16_t a, uint16_t b, uint32_t& f) { return fp::f16::le(a, b, f); }
  static uint32_t ordered(uint32_t a, uint32_t b) { return as_float(a) <= as_float(b); }
};
struct Gt {  // vmfgt.vf: vs2 > f
  static uint32_t exact(uint32_t a, uint32_t b, uint32_t& f) { return fp::lt(b, a, f); }
  static uint32_t half(uint16_t a, uint16_t b, uint32_t& f) { return fp::f16::lt(b, a, f); }
  static uint32_t ordered(uint32_t a, uint32_t b) { return as_float(a) > as_float(b); }
};
struct Ge {  // vmfge.vf: vs2 >= f
  static uint32_t exact(uint32_t a, uint32_t b, uint32_t& f) { return fp::le(b, a, f); }
  static uint32_t half(uint16_t a, uint16_t b, uint32_t& f) { return fp::f16::le(b, a, f); }
  static uint32_t ordered(uint32_t a, uint32_t b) { return as_float(a) >= as_float(b); }
};
constexpr auto kSignOfB = [](uint32_t, uint32_t b) { return b; };
constexpr auto kNotSignOfB = [](uint32_t, uint32_t b) { return ~b; };
constexpr auto kXorSigns = [](uint32_t a, uint32_t b) { return a ^ b; };
}  // namespace

VT_SEM(VFMIN_VV) {
  fp_compare<Src::V>(ctx, in, Min{});
}
VT_SEM(VFMIN_VF) {
  fp_compare<Src::X>(ctx, in, Min{});
}
VT_SEM(VFMAX_VV) {
  fp_compare<Src::V>(ctx, in, Max{});
}
VT_SEM(VFMAX_VF) {
  fp_compare<Src::X>(ctx, in, Max{});
}
VT_SEM(VFSGNJ_VV) {
  sign_inject<Src::V>(ctx, in, kSignOfB);
}
VT_SEM(VFSGNJ_VF) {
  sign_inject<Src::X>(ctx, in, kSignOfB);
}
VT_SEM(VFSGNJN_VV) {
  sign_inject<Src::V>(ctx, in, kNotSignOfB);
}
VT_SEM(VFSGNJN_VF) {
  sign_inject<Src::X>(ctx, in, kNotSignOfB);
}
VT_SEM(VFSGNJX_VV) {
  sign_inject<Src::V>(ctx, in, kXorSigns);
}
VT_SEM(VFSGNJX_VF) {
  sign_inject<Src::X>(ctx, in, kXorSigns);
}
VT_SEM(VMFEQ_VV) {
  fp_compare<Src::V>(ctx, in, Eq{});
}
VT_SEM(VMFEQ_VF) {
  fp_compare<Src::X>(ctx, in, Eq{});
}
VT_SEM(VMFLE_VV) {
  fp_compare<Src::V>(ctx, in, Le{});
}
VT_SEM(VMFLE_VF) {
  fp_compare<Src::X>(ctx, in, Le{});
}
VT_SEM(VMFLT_VV) {
  fp_compare<Src::V>(ctx, in, Lt{});
}
VT_SEM(VMFLT_VF) {
  fp_compare<Src::X>(ctx, in, Lt{});
}
VT_SEM(VMFNE_VV) {
  fp_compare<Src::V>(ctx, in, Ne{});
}
VT_SEM(VMFNE_VF) {
  fp_compare<Src::X>(ctx, in, Ne{});
}
VT_SEM(VMFGT_VF) {
  fp_compare<Src::X>(ctx, in, Gt{});
}
VT_SEM(VMFGE_VF) {
  fp_compare<Src::X>(ctx, in, Ge{});
}

#define VT_FMA_ROWS(ID, FORM, NEG_PRODUCT, NEG_ADDEND)           \
  VT_SEM(ID##_VV) {                                              \
    fp_fma<Src::V>(ctx, in, Fma::FORM, NEG_PRODUCT, NEG_ADDEND); \
  }                                                              \
  VT_SEM(ID##_VF) {                                              \
    fp_fma<Src::X>(ctx, in, Fma::FORM, NEG_PRODUCT, NEG_ADDEND); \
  }
VT_FMA_ROWS(VFMACC, Acc, false, false)
VT_FMA_ROWS(VFNMACC, Acc, true, true)
VT_FMA_ROWS(VFMSAC, Acc, false, true)
VT_FMA_ROWS(VFNMSAC, Acc, true, false)
VT_FMA_ROWS(VFMADD, Add, false, false)
VT_FMA_ROWS(VFNMADD, Add, true, true)
VT_FMA_ROWS(VFMSUB, Add, false, true)
VT_FMA_ROWS(VFNMSUB, Add, true, false)

// vfcvt.x[u].f.v round with frm: always through the fp library. At SEW=16 the integers
// are int16/uint16 (saturating at 16 bits, like the 32-bit forms at 32).
VT_SEM(VFCVT_XU_F_V) {
  fp_unary(ctx, in, fp::to_u32, [](uint32_t a, uint32_t rm, uint32_t& f) -> uint32_t {
    return fp::f16::to_u16(as_half(a), rm, f);
  });
}
VT_SEM(VFCVT_X_F_V) {
  fp_unary(
      ctx, in, [](uint32_t a, uint32_t rm, uint32_t& f) { return to_bits(fp::to_i32(a, rm, f)); },
      [](uint32_t a, uint32_t rm, uint32_t& f) {
        return to_bits(fp::f16::to_i16(as_half(a), rm, f));
      });
}
VT_SEM(VFCVT_F_XU_V) {
  fp_convert(ctx, in, fp::kDYN, IntToFloat<false>{}, fp::from_u32,
             [](uint32_t a, uint32_t rm, uint32_t& f) -> uint32_t {
               return fp::f16::from_u32(as_half(a), rm, f);
             });
}
VT_SEM(VFCVT_F_X_V) {
  fp_convert(
      ctx, in, fp::kDYN, IntToFloat<true>{},
      [](uint32_t a, uint32_t rm, uint32_t& f) {
        return fp::from_i32(static_cast<int32_t>(a), rm, f);
      },
      [](uint32_t a, uint32_t rm, uint32_t& f) -> uint32_t {
        return fp::f16::from_i32(static_cast<int16_t>(a), rm, f);
      });
}
VT_SEM(VFCVT_RTZ_XU_F_V) {
  fp_convert(ctx, in, fp::kRTZ, TruncateToInt<false>{}, fp::to_u32,
             [](uint32_t a, uint32_t rm, uint32_t& f) -> uint32_t {
               return fp::f16::to_u16(as_half(a), rm, f);
             });
}
VT_SEM(VFCVT_RTZ_X_F_V) {
  fp_convert(
      ctx, in, fp::kRTZ, TruncateToInt<true>{},
      [](uint32_t a, uint32_t rm, uint32_t& f) { return to_bits(fp::to_i32(a, rm, f)); },
      [](uint32_t a, uint32_t rm, uint32_t& f) {
        return to_bits(fp::f16::to_i16(as_half(a), rm, f));
      });
}

VT_SEM(VFSQRT_V) {
  FpOperands op = fp_operands<Src::I>(ctx, in, in.vm);
  const uint32_t rm = ctx.rounding_mode(fp::kDYN);
  if (op.active == 0) return;
  uint32_t flags = 0;
  for (unsigned k = 0; k < op.g; ++k) {
    const uint32_t* a = op.w.v[in.rs2 + k];
    uint32_t* d = op.w.v[in.rd + k];
    if (op.half)
      vec::each_lane(op.active,
                     [&](unsigned i) { d[i] = fp::f16::sqrt(as_half(a[i]), rm, flags); });
    else
      fp::sqrt_lanes(a, d, op.active, op.w.lanes, rm, flags);
  }
  op.w.fflags |= flags;
}
// The estimates exist for fp32 only here (the RVV fp16 tables are not implemented).
VT_SEM(VFRSQRT7_V) {
  fp32_unary(
      ctx, in, [](uint32_t a, uint32_t, uint32_t& f) { return fp::rsqrt7(a, f); }, fp::kRNE);
}
VT_SEM(VFREC7_V) {
  fp32_unary(ctx, in, fp::rec7);
}
VT_SEM(VFCLASS_V) {
  fp_unary(
      ctx, in, [](uint32_t a, uint32_t, uint32_t&) { return fp::classify(a); },
      [](uint32_t a, uint32_t, uint32_t&) { return fp::f16::classify(as_half(a)); }, fp::kRNE);
}

VT_SEM(VFMERGE_VFM) {
  fp_merge(ctx, in);
}
VT_SEM(VFMV_V_F) {
  fp_broadcast(ctx, in);
}
VT_SEM(VFMV_S_F) {
  fp_broadcast(ctx, in);
}

// vfmv.f.s rd, vs2: as vmv.x.s, the highest active lane's element lands in x[rd] (Zfinx);
// with no active lane rd is kept. An fp16 element is sign-extended, as Zhinx writes x
// registers.
VT_SEM(VFMV_F_S) {
  const bool half = vec::require_fp_sew(ctx.warp);
  vec::check_group(in.rs2, 1, "vs2");
  vec::check_x(in.rd);
  const uint32_t active = ctx.active_lanes(1);
  if (active == 0) return;
  const unsigned last = 31u - static_cast<unsigned>(std::countl_zero(active));
  const uint32_t element = ctx.warp.v[in.rs2][last];
  ctx.warp.write_x(in.rd, half ? static_cast<uint32_t>(static_cast<int16_t>(element)) : element);
}

}  // namespace ventus::sim
