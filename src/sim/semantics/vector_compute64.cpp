// The custom 64-bit compute instruction (docs/isa.md, "v2025: 64-bit compute"): add, sub,
// mul, min, max on int8 (four packed bytes per 32-bit lane), int16, int32, fp16 and fp32
// elements, with per-source ABS/NEG and, for 16-bit elements, OPSEL half selection.
#include "fp16.h"
#include "fp32.h"
#include "vector_util.h"

namespace ventus::sim {
namespace {

enum class Kind { Add, Sub, Mul, Min, Max };

// Every 64-bit compute row has the same layout; the opsel field comes from the table.
constexpr isa::Field kOpsel = isa::field(isa::Op::V64ADD_I8, "opsel");

// Integer source modifiers at the element width, two's complement (wrapping: |-128| and
// -(-128) are -128 for int8): abs first, then neg, so abs+neg gives -|x|.
template <class U>
U int_source(U x, bool abs, bool neg) {
  using S = std::make_signed_t<U>;
  if (abs && static_cast<S>(x) < 0) x = static_cast<U>(U{0} - x);
  if (neg) x = static_cast<U>(U{0} - x);
  return x;
}

// vs2 (op) vs1, as the RVV instruction of the same funct6 computes it.
template <Kind K, class U>
U int_op(U a, U b) {
  using S = std::make_signed_t<U>;
  switch (K) {
    case Kind::Add: return static_cast<U>(a + b);
    case Kind::Sub: return static_cast<U>(a - b);
    case Kind::Mul: return static_cast<U>(static_cast<uint32_t>(a) * static_cast<uint32_t>(b));
    case Kind::Min: return static_cast<S>(a) < static_cast<S>(b) ? a : b;
    case Kind::Max: return static_cast<S>(a) > static_cast<S>(b) ? a : b;
  }
  return 0;
}

// Floating-point source modifiers: sign-bit operations at the element width (NaNs included,
// no flags), abs first, then neg.
template <unsigned kBits>
uint32_t fp_source(uint32_t x, bool abs, bool neg) {
  constexpr uint32_t sign = 1u << (kBits - 1);
  if (abs) x &= ~sign;
  if (neg) x ^= sign;
  return x;
}

template <Kind K>
uint32_t fp32_op(uint32_t a, uint32_t b, uint32_t rm, uint32_t& flags) {
  switch (K) {
    case Kind::Add: return fp::add(a, b, rm, flags);
    case Kind::Sub: return fp::sub(a, b, rm, flags);
    case Kind::Mul: return fp::mul(a, b, rm, flags);
    case Kind::Min: return fp::min(a, b, flags);
    case Kind::Max: return fp::max(a, b, flags);
  }
  return 0;
}

template <Kind K>
uint16_t fp16_op(uint16_t a, uint16_t b, uint32_t rm, uint32_t& flags) {
  switch (K) {
    case Kind::Add: return fp::f16::add(a, b, rm, flags);
    case Kind::Sub: return fp::f16::sub(a, b, rm, flags);
    case Kind::Mul: return fp::f16::mul(a, b, rm, flags);
    case Kind::Min: return fp::f16::min(a, b, flags);
    case Kind::Max: return fp::f16::max(a, b, flags);
  }
  return 0;
}

// One element: a from vs2, b from vs1, modifiers applied (bit 0 = vs1, bit 1 = vs2).
template <Kind K, unsigned kBits, bool kFloat>
uint32_t element(uint32_t a, uint32_t b, const Insn& in, uint32_t rm, uint32_t& flags) {
  const bool abs_a = in.abs & 2, neg_a = in.neg & 2, abs_b = in.abs & 1, neg_b = in.neg & 1;
  if constexpr (kFloat) {
    a = fp_source<kBits>(a, abs_a, neg_a);
    b = fp_source<kBits>(b, abs_b, neg_b);
    if constexpr (kBits == 16)
      return fp16_op<K>(static_cast<uint16_t>(a), static_cast<uint16_t>(b), rm, flags);
    else
      return fp32_op<K>(a, b, rm, flags);
  } else {
    using U = std::conditional_t<kBits == 8, uint8_t,
                                 std::conditional_t<kBits == 16, uint16_t, uint32_t>>;
    return int_op<K, U>(int_source(static_cast<U>(a), abs_a, neg_a),
                        int_source(static_cast<U>(b), abs_b, neg_b));
  }
}

template <Kind K, unsigned kBits, bool kFloat>
void compute(Exec& ctx, const Insn& in) {
  if ((in.abs | in.neg) & 4)
    fault("abs/neg bit 2 names a third source, which this instruction does not have");
  const uint32_t opsel = kOpsel.get(in.word());
  if (opsel != 0 && kBits != 16)
    fault("opsel selects 16-bit halves: it must be 0 for " + std::to_string(kBits) +
          "-bit elements");
  const uint32_t rm = kFloat ? ctx.rounding_mode(7) : 0;
  uint32_t flags = 0;
  uint32_t* d = ctx.warp.v[in.rd];
  const uint32_t* vs1 = ctx.warp.v[in.rs1];
  const uint32_t* vs2 = ctx.warp.v[in.rs2];
  vec::each_lane(ctx.active_lanes(1), [&](unsigned i) {
    const uint32_t a = vs2[i], b = vs1[i];
    if constexpr (kBits == 32) {
      d[i] = element<K, 32, kFloat>(a, b, in, rm, flags);
    } else if constexpr (kBits == 16) {
      const uint32_t half_a = opsel & 2 ? a >> 16 : a & 0xffff;
      const uint32_t half_b = opsel & 1 ? b >> 16 : b & 0xffff;
      const uint32_t r = element<K, 16, kFloat>(half_a, half_b, in, rm, flags) & 0xffff;
      d[i] = opsel & 4 ? (d[i] & 0xffff) | r << 16 : (d[i] & 0xffff0000u) | r;
    } else {
      uint32_t r = 0;
      for (unsigned byte = 0; byte < 4; ++byte)
        r |= (element<K, 8, false>(a >> 8 * byte, b >> 8 * byte, in, rm, flags) & 0xff) << 8 * byte;
      d[i] = r;
    }
  });
  ctx.warp.fflags |= flags;
}

}  // namespace

#define VT_C64_INT_SEM(ID, K)             \
  VT_SEM(ID##_I8) {                       \
    compute<Kind::K, 8, false>(ctx, in);  \
  }                                       \
  VT_SEM(ID##_I16) {                      \
    compute<Kind::K, 16, false>(ctx, in); \
  }                                       \
  VT_SEM(ID##_I32) {                      \
    compute<Kind::K, 32, false>(ctx, in); \
  }
#define VT_C64_FP_SEM(ID, K)             \
  VT_SEM(ID##_F16) {                     \
    compute<Kind::K, 16, true>(ctx, in); \
  }                                      \
  VT_SEM(ID##_F32) {                     \
    compute<Kind::K, 32, true>(ctx, in); \
  }

VT_C64_INT_SEM(V64ADD, Add)
VT_C64_INT_SEM(V64SUB, Sub)
VT_C64_INT_SEM(V64MIN, Min)
VT_C64_INT_SEM(V64MAX, Max)
VT_C64_INT_SEM(V64MUL, Mul)
VT_C64_FP_SEM(V64FADD, Add)
VT_C64_FP_SEM(V64FSUB, Sub)
VT_C64_FP_SEM(V64FMIN, Min)
VT_C64_FP_SEM(V64FMAX, Max)
VT_C64_FP_SEM(V64FMUL, Mul)

#undef VT_C64_INT_SEM
#undef VT_C64_FP_SEM

}  // namespace ventus::sim
