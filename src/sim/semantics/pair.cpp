// The 64-bit pair forms of vector instructions (docs/isa.md, "RV64I / RV64A on register
// pairs", "regpair / regpairi"): after a regpair/regpairi prefix (or a PREFIX with pair = 1)
// every register operand is an even-aligned pair and each lane's element is 64 bits,
// {v[r+1][lane] : v[r][lane]}; a scalar operand is the x pair {x[r+1] : x[r]} (the pair at
// x0 reads 0). Integer rows compute modulo 2^64, fp rows in binary64 (src/fp/fp64.h) with
// frm and accrue fflags. vtype's SEW and LMUL play no part: the pair flag sets the element
// width. Lanes: SIMT-active, below vl, and v0.t when masked; inactive lanes keep their
// values. The decode cache picks these through pair_semantics().
#include "fp32.h"
#include "fp64.h"
#include "semantics.h"

namespace ventus::sim {
namespace {

inline std::string_view mnemonic(const Insn& in) {
  return isa::info(in.op).mnemonic;
}

inline uint64_t lane_value(const Warp& w, unsigned r, unsigned lane) {
  return (uint64_t{w.v[r + 1][lane]} << 32) | w.v[r][lane];
}
inline void set_lane_value(Warp& w, unsigned r, unsigned lane, uint64_t value) {
  w.v[r][lane] = static_cast<uint32_t>(value);
  w.v[r + 1][lane] = static_cast<uint32_t>(value >> 32);
}

template <class F>
inline void for_lanes(uint32_t active, F&& f) {
  for (uint32_t m = active; m; m &= m - 1) f(static_cast<unsigned>(__builtin_ctz(m)));
}

// The second operand: vs1's pair per lane (.vv) or the rs1 x pair (.vx/.vf).
enum class Second : uint8_t { Vector, Scalar };

template <Second S>
inline void check_operands(const Insn& in) {
  check_pair(in.rd, "vd", "v", mnemonic(in));
  check_pair(in.rs2, "vs2", "v", mnemonic(in));
  if constexpr (S == Second::Vector)
    check_pair(in.rs1, "vs1", "v", mnemonic(in));
  else
    check_pair(in.rs1, "rs1", "x", mnemonic(in));
}

template <Second S>
inline uint64_t second(const Warp& w, const Insn& in, unsigned lane) {
  if constexpr (S == Second::Vector)
    return lane_value(w, in.rs1, lane);
  else
    return w.x_pair(in.rs1);
}

// vd = f(vs2, second) on 64-bit lanes.
template <Second S, uint64_t (*F)(uint64_t, uint64_t)>
void integer_op(Exec& ctx, const Insn& in) {
  check_operands<S>(in);
  Warp& w = ctx.warp;
  for_lanes(ctx.active_lanes(in.vm), [&](unsigned lane) {
    set_lane_value(w, in.rd, lane, F(lane_value(w, in.rs2, lane), second<S>(w, in, lane)));
  });
}

// vmv.v.v / vmv.v.x: vd = vs1 pair / rs1 x pair.
template <Second S>
void move(Exec& ctx, const Insn& in) {
  check_pair(in.rd, "vd", "v", mnemonic(in));
  check_pair(in.rs1, S == Second::Vector ? "vs1" : "rs1", S == Second::Vector ? "v" : "x",
             mnemonic(in));
  Warp& w = ctx.warp;
  for_lanes(ctx.active_lanes(in.vm),
            [&](unsigned lane) { set_lane_value(w, in.rd, lane, second<S>(w, in, lane)); });
}

uint64_t add(uint64_t a, uint64_t b) { return a + b; }
uint64_t sub(uint64_t a, uint64_t b) { return a - b; }
uint64_t reverse_sub(uint64_t a, uint64_t b) { return b - a; }
uint64_t mul(uint64_t a, uint64_t b) { return a * b; }
uint64_t bit_and(uint64_t a, uint64_t b) { return a & b; }
uint64_t bit_or(uint64_t a, uint64_t b) { return a | b; }
uint64_t bit_xor(uint64_t a, uint64_t b) { return a ^ b; }
// Shifts use the low 6 bits of the shift operand.
uint64_t sll(uint64_t a, uint64_t b) { return a << (b & 63); }
uint64_t srl(uint64_t a, uint64_t b) { return a >> (b & 63); }
uint64_t sra(uint64_t a, uint64_t b) {
  return static_cast<uint64_t>(static_cast<int64_t>(a) >> (b & 63));
}
uint64_t min_signed(uint64_t a, uint64_t b) {
  return static_cast<int64_t>(a) < static_cast<int64_t>(b) ? a : b;
}
uint64_t max_signed(uint64_t a, uint64_t b) {
  return static_cast<int64_t>(a) > static_cast<int64_t>(b) ? a : b;
}
uint64_t min_unsigned(uint64_t a, uint64_t b) { return a < b ? a : b; }
uint64_t max_unsigned(uint64_t a, uint64_t b) { return a > b ? a : b; }

// ---------------------------------------------------------------- binary64

constexpr uint64_t kSign = uint64_t{1} << 63;

using Fp2 = uint64_t (*)(uint64_t a, uint64_t b, uint32_t rm, uint32_t& flags);

// vd = F(vs2, second) rounded with frm; flags accrue.
template <Second S, Fp2 F>
void fp_op(Exec& ctx, const Insn& in) {
  check_operands<S>(in);
  const uint32_t rm = ctx.rounding_mode(fp::kDYN);
  Warp& w = ctx.warp;
  uint32_t flags = 0;
  for_lanes(ctx.active_lanes(in.vm), [&](unsigned lane) {
    set_lane_value(w, in.rd, lane,
                   F(lane_value(w, in.rs2, lane), second<S>(w, in, lane), rm, flags));
  });
  w.fflags |= flags;
}

uint64_t fadd(uint64_t a, uint64_t b, uint32_t rm, uint32_t& f) { return fp::f64::add(a, b, rm, f); }
uint64_t fsub(uint64_t a, uint64_t b, uint32_t rm, uint32_t& f) { return fp::f64::sub(a, b, rm, f); }
uint64_t frsub(uint64_t a, uint64_t b, uint32_t rm, uint32_t& f) { return fp::f64::sub(b, a, rm, f); }
uint64_t fmul(uint64_t a, uint64_t b, uint32_t rm, uint32_t& f) { return fp::f64::mul(a, b, rm, f); }
uint64_t fdiv(uint64_t a, uint64_t b, uint32_t rm, uint32_t& f) { return fp::f64::div(a, b, rm, f); }
uint64_t frdiv(uint64_t a, uint64_t b, uint32_t rm, uint32_t& f) { return fp::f64::div(b, a, rm, f); }
// Min/max and sign injection do not round.
uint64_t fmin(uint64_t a, uint64_t b, uint32_t, uint32_t& f) { return fp::f64::min(a, b, f); }
uint64_t fmax(uint64_t a, uint64_t b, uint32_t, uint32_t& f) { return fp::f64::max(a, b, f); }
uint64_t fsgnj(uint64_t a, uint64_t b, uint32_t, uint32_t&) { return (a & ~kSign) | (b & kSign); }
uint64_t fsgnjn(uint64_t a, uint64_t b, uint32_t, uint32_t&) { return (a & ~kSign) | (~b & kSign); }
uint64_t fsgnjx(uint64_t a, uint64_t b, uint32_t, uint32_t&) { return a ^ (b & kSign); }

void fsqrt(Exec& ctx, const Insn& in) {
  check_pair(in.rd, "vd", "v", mnemonic(in));
  check_pair(in.rs2, "vs2", "v", mnemonic(in));
  const uint32_t rm = ctx.rounding_mode(fp::kDYN);
  Warp& w = ctx.warp;
  uint32_t flags = 0;
  for_lanes(ctx.active_lanes(in.vm), [&](unsigned lane) {
    set_lane_value(w, in.rd, lane, fp::f64::sqrt(lane_value(w, in.rs2, lane), rm, flags));
  });
  w.fflags |= flags;
}

// The fused multiply-add family as in vector_float.cpp, with x = vs1 or the rs1 pair,
// y = vs2, z = old vd:
//   vfmacc  +(x*y)+z   vfnmacc -(x*y)-z   vfmsac  +(x*y)-z   vfnmsac -(x*y)+z
//   vfmadd  +(x*z)+y   vfnmadd -(x*z)-y   vfmsub  +(x*z)-y   vfnmsub -(x*z)+y
enum class Fma : uint8_t { Acc, Add };  // the addend is the old vd (Acc) or vs2 (Add)

template <Second S, Fma Form, bool NegateProduct, bool NegateAddend>
void fp_fma(Exec& ctx, const Insn& in) {
  check_operands<S>(in);
  check_pair(in.rs3, "vd (accumulator)", "v", mnemonic(in));
  const uint32_t rm = ctx.rounding_mode(fp::kDYN);
  Warp& w = ctx.warp;
  uint32_t flags = 0;
  for_lanes(ctx.active_lanes(in.vm), [&](unsigned lane) {
    const uint64_t x = second<S>(w, in, lane) ^ (NegateProduct ? kSign : 0);
    const uint64_t y = lane_value(w, in.rs2, lane), z = lane_value(w, in.rs3, lane);
    const uint64_t multiplicand = Form == Fma::Acc ? y : z;
    const uint64_t addend = (Form == Fma::Acc ? z : y) ^ (NegateAddend ? kSign : 0);
    set_lane_value(w, in.rd, lane, fp::f64::fma(x, multiplicand, addend, rm, flags));
  });
  w.fflags |= flags;
}

}  // namespace

SemanticsFn pair_semantics(isa::Op op) {
  using isa::Op;
  constexpr Second V = Second::Vector, X = Second::Scalar;
  switch (op) {
    case Op::VADD_VV: return &integer_op<V, add>;
    case Op::VADD_VX: return &integer_op<X, add>;
    case Op::VSUB_VV: return &integer_op<V, sub>;
    case Op::VSUB_VX: return &integer_op<X, sub>;
    case Op::VRSUB_VX: return &integer_op<X, reverse_sub>;
    case Op::VMUL_VV: return &integer_op<V, mul>;
    case Op::VMUL_VX: return &integer_op<X, mul>;
    case Op::VAND_VV: return &integer_op<V, bit_and>;
    case Op::VAND_VX: return &integer_op<X, bit_and>;
    case Op::VOR_VV: return &integer_op<V, bit_or>;
    case Op::VOR_VX: return &integer_op<X, bit_or>;
    case Op::VXOR_VV: return &integer_op<V, bit_xor>;
    case Op::VXOR_VX: return &integer_op<X, bit_xor>;
    case Op::VSLL_VV: return &integer_op<V, sll>;
    case Op::VSLL_VX: return &integer_op<X, sll>;
    case Op::VSRL_VV: return &integer_op<V, srl>;
    case Op::VSRL_VX: return &integer_op<X, srl>;
    case Op::VSRA_VV: return &integer_op<V, sra>;
    case Op::VSRA_VX: return &integer_op<X, sra>;
    case Op::VMIN_VV: return &integer_op<V, min_signed>;
    case Op::VMIN_VX: return &integer_op<X, min_signed>;
    case Op::VMAX_VV: return &integer_op<V, max_signed>;
    case Op::VMAX_VX: return &integer_op<X, max_signed>;
    case Op::VMINU_VV: return &integer_op<V, min_unsigned>;
    case Op::VMINU_VX: return &integer_op<X, min_unsigned>;
    case Op::VMAXU_VV: return &integer_op<V, max_unsigned>;
    case Op::VMAXU_VX: return &integer_op<X, max_unsigned>;
    case Op::VMV_V_V: return &move<V>;
    case Op::VMV_V_X: return &move<X>;
    case Op::VFADD_VV: return &fp_op<V, fadd>;
    case Op::VFADD_VF: return &fp_op<X, fadd>;
    case Op::VFSUB_VV: return &fp_op<V, fsub>;
    case Op::VFSUB_VF: return &fp_op<X, fsub>;
    case Op::VFRSUB_VF: return &fp_op<X, frsub>;
    case Op::VFMUL_VV: return &fp_op<V, fmul>;
    case Op::VFMUL_VF: return &fp_op<X, fmul>;
    case Op::VFDIV_VV: return &fp_op<V, fdiv>;
    case Op::VFDIV_VF: return &fp_op<X, fdiv>;
    case Op::VFRDIV_VF: return &fp_op<X, frdiv>;
    case Op::VFMIN_VV: return &fp_op<V, fmin>;
    case Op::VFMIN_VF: return &fp_op<X, fmin>;
    case Op::VFMAX_VV: return &fp_op<V, fmax>;
    case Op::VFMAX_VF: return &fp_op<X, fmax>;
    case Op::VFSGNJ_VV: return &fp_op<V, fsgnj>;
    case Op::VFSGNJ_VF: return &fp_op<X, fsgnj>;
    case Op::VFSGNJN_VV: return &fp_op<V, fsgnjn>;
    case Op::VFSGNJN_VF: return &fp_op<X, fsgnjn>;
    case Op::VFSGNJX_VV: return &fp_op<V, fsgnjx>;
    case Op::VFSGNJX_VF: return &fp_op<X, fsgnjx>;
    case Op::VFSQRT_V: return &fsqrt;
    case Op::VFMACC_VV: return &fp_fma<V, Fma::Acc, false, false>;
    case Op::VFMACC_VF: return &fp_fma<X, Fma::Acc, false, false>;
    case Op::VFNMACC_VV: return &fp_fma<V, Fma::Acc, true, true>;
    case Op::VFNMACC_VF: return &fp_fma<X, Fma::Acc, true, true>;
    case Op::VFMSAC_VV: return &fp_fma<V, Fma::Acc, false, true>;
    case Op::VFMSAC_VF: return &fp_fma<X, Fma::Acc, false, true>;
    case Op::VFNMSAC_VV: return &fp_fma<V, Fma::Acc, true, false>;
    case Op::VFNMSAC_VF: return &fp_fma<X, Fma::Acc, true, false>;
    case Op::VFMADD_VV: return &fp_fma<V, Fma::Add, false, false>;
    case Op::VFMADD_VF: return &fp_fma<X, Fma::Add, false, false>;
    case Op::VFNMADD_VV: return &fp_fma<V, Fma::Add, true, true>;
    case Op::VFNMADD_VF: return &fp_fma<X, Fma::Add, true, true>;
    case Op::VFMSUB_VV: return &fp_fma<V, Fma::Add, false, true>;
    case Op::VFMSUB_VF: return &fp_fma<X, Fma::Add, false, true>;
    case Op::VFNMSUB_VV: return &fp_fma<V, Fma::Add, true, false>;
    case Op::VFNMSUB_VF: return &fp_fma<X, Fma::Add, true, false>;
    default: return nullptr;
  }
}

}  // namespace ventus::sim
