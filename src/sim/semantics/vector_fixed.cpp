// Fixed-point semantics (RVV 1.0 chapter "Vector Fixed-Point Arithmetic Instructions") at
// the SEW of vtype (e8 for int8, which the guide singles out): saturating add/subtract,
// averaging add/subtract, vsmul and the scaling shifts. Rounding follows vxrm (rnu, rne,
// rdn, rod); a saturation on any active lane sets vxsat (it is sticky).
#include "vector_util.h"

namespace ventus::sim {
namespace {

using vec::Src;

// Clamps v to the signed (or unsigned) range of U, reporting whether it had to.
template <class U>
uint32_t saturate(int64_t v, bool is_signed, bool& saturated) {
  const int64_t lo = is_signed ? -(int64_t{1} << (vec::kBits<U> - 1)) : 0;
  const int64_t hi =
      is_signed ? (int64_t{1} << (vec::kBits<U> - 1)) - 1 : (int64_t{1} << vec::kBits<U>)-1;
  saturated = v < lo || v > hi;
  return static_cast<U>(v < lo ? lo : v > hi ? hi : v);
}

// Shifts v (exact) right by d bits with the vxrm rounding increment.
int64_t round_shift(int64_t v, unsigned d, uint32_t vxrm) {
  return (v >> d) + static_cast<int64_t>(vec::round_increment(static_cast<uint64_t>(v), d, vxrm));
}

// vd = op(vs2, second); op(a, b, vxrm, saturated) returns the element and sets saturated.
template <Src S2, class Op>
void fixed_point(Exec& ctx, const Insn& in, Op op) {
  Warp& w = ctx.warp;
  const unsigned g = w.vcfg.lmul;
  vec::check_group(in.rd, g, "vd");
  vec::check_group(in.rs2, g, "vs2");
  if constexpr (S2 == Src::V) vec::check_group(in.rs1, g, "vs1");
  const uint32_t scalar = S2 == Src::X ? vec::read_x(ctx, in.rs1) : static_cast<uint32_t>(in.imm);
  const uint32_t active = ctx.active_lanes(in.vm);
  if (active == 0) return;
  const uint32_t vxrm = w.vxrm & 3u;
  vec::with_sew(w, [&]<class U>() {
    for (unsigned k = 0; k < g; ++k) {
      const uint32_t* a = w.v[in.rs2 + k];
      const uint32_t* b = S2 == Src::V ? w.v[in.rs1 + k] : a;
      uint32_t result[kMaxLanes];
      uint32_t saturated_lanes = 0;
      for (unsigned i = 0; i < kMaxLanes; ++i) {
        bool saturated = false;
        result[i] =
            op(static_cast<U>(a[i]), static_cast<U>(S2 == Src::V ? b[i] : scalar), vxrm, saturated);
        saturated_lanes |= uint32_t{saturated} << i;
      }
      vec::write_lanes(w.v[in.rd + k], active, [&](unsigned i) { return result[i]; });
      if (saturated_lanes & active) w.vxsat = 1;
    }
  });
}

template <class U>
int64_t as_signed(U x) {
  return static_cast<vec::Signed<U>>(x);
}

constexpr auto kSaddu = [](auto a, auto b, uint32_t, bool& sat) -> uint32_t {
  using U = decltype(a);
  return saturate<U>(int64_t{a} + int64_t{b}, false, sat);
};
constexpr auto kSadd = [](auto a, auto b, uint32_t, bool& sat) -> uint32_t {
  using U = decltype(a);
  return saturate<U>(as_signed(a) + as_signed(b), true, sat);
};
constexpr auto kSsubu = [](auto a, auto b, uint32_t, bool& sat) -> uint32_t {
  using U = decltype(a);
  return saturate<U>(int64_t{a} - int64_t{b}, false, sat);
};
constexpr auto kSsub = [](auto a, auto b, uint32_t, bool& sat) -> uint32_t {
  using U = decltype(a);
  return saturate<U>(as_signed(a) - as_signed(b), true, sat);
};
// Averaging: (a +- b) >> 1 with rounding, on SEW+1-bit intermediates (never saturates).
constexpr auto kAaddu = [](auto a, auto b, uint32_t vxrm, bool&) -> uint32_t {
  return decltype(a)(round_shift(int64_t{a} + int64_t{b}, 1, vxrm));
};
constexpr auto kAadd = [](auto a, auto b, uint32_t vxrm, bool&) -> uint32_t {
  return decltype(a)(round_shift(as_signed(a) + as_signed(b), 1, vxrm));
};
constexpr auto kAsubu = [](auto a, auto b, uint32_t vxrm, bool&) -> uint32_t {
  return decltype(a)(round_shift(int64_t{a} - int64_t{b}, 1, vxrm));
};
constexpr auto kAsub = [](auto a, auto b, uint32_t vxrm, bool&) -> uint32_t {
  return decltype(a)(round_shift(as_signed(a) - as_signed(b), 1, vxrm));
};
// vsmul: (a * b) >> (SEW-1) with rounding, saturating (only min * min overflows).
constexpr auto kSmul = [](auto a, auto b, uint32_t vxrm, bool& sat) -> uint32_t {
  using U = decltype(a);
  return saturate<U>(round_shift(as_signed(a) * as_signed(b), vec::kBits<U> - 1, vxrm), true, sat);
};
// Scaling shifts: the shift amount is the low log2(SEW) bits of the second operand.
constexpr auto kSsrl = [](auto a, auto b, uint32_t vxrm, bool&) -> uint32_t {
  using U = decltype(a);
  return U(round_shift(int64_t{a}, b & (vec::kBits<U> - 1), vxrm));
};
constexpr auto kSsra = [](auto a, auto b, uint32_t vxrm, bool&) -> uint32_t {
  using U = decltype(a);
  return U(round_shift(as_signed(a), b & (vec::kBits<U> - 1), vxrm));
};

}  // namespace

#define VT_FX(ID, FORM, SRC, OP)        \
  VT_SEM(ID##_##FORM) {                 \
    fixed_point<Src::SRC>(ctx, in, OP); \
  }
#define VT_FX_VVX(ID, OP) VT_FX(ID, VV, V, OP) VT_FX(ID, VX, X, OP)
#define VT_FX_VVXI(ID, OP) VT_FX_VVX(ID, OP) VT_FX(ID, VI, I, OP)

VT_FX_VVXI(VSADDU, kSaddu)
VT_FX_VVXI(VSADD, kSadd)
VT_FX_VVX(VSSUBU, kSsubu)
VT_FX_VVX(VSSUB, kSsub)
VT_FX_VVX(VAADDU, kAaddu)
VT_FX_VVX(VAADD, kAadd)
VT_FX_VVX(VASUBU, kAsubu)
VT_FX_VVX(VASUB, kAsub)
VT_FX_VVX(VSMUL, kSmul)
VT_FX_VVXI(VSSRL, kSsrl)
VT_FX_VVXI(VSSRA, kSsra)

}  // namespace ventus::sim
