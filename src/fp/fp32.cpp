// binary32 arithmetic with RISC-V F semantics. The exact:: functions are a pure-integer
// implementation (unpack, compute with enough guard bits plus a sticky bit, round once) and
// serve single operations. The lane helpers run add/sub/mul/div/sqrt on host SSE
// instructions under the requested rounding mode when the host can express it
// (RNE/RTZ/RDN/RUP on x86-64), paying one MXCSR switch per warp instead of per lane. Both
// paths are tested bit for bit, flags included, against qemu-riscv32.
#include "fp32.h"

#include <quadmath.h>

#include <bit>
#include <cmath>
#include <cstring>

#include "mxcsr.h"
#include "rounding.h"

#if defined(__x86_64__)
#include <immintrin.h>
#define VENTUS_FP_HOST_SSE 1
#endif

namespace ventus::fp {
namespace {

constexpr uint32_t kSignBit = 0x80000000u;
constexpr uint32_t kExpMask = 0x7f800000u;
constexpr uint32_t kFracMask = 0x007fffffu;
constexpr uint32_t kQuietBit = 0x00400000u;
constexpr uint32_t kInfinity = 0x7f800000u;
constexpr uint32_t kMaxFinite = 0x7f7fffffu;

constexpr bool is_nan(uint32_t a) {
  return (a & ~kSignBit) > kInfinity;
}
constexpr bool is_snan(uint32_t a) {
  return is_nan(a) && !(a & kQuietBit);
}
constexpr bool is_inf(uint32_t a) {
  return (a & ~kSignBit) == kInfinity;
}
constexpr bool is_zero(uint32_t a) {
  return (a & ~kSignBit) == 0;
}
constexpr bool sign_of(uint32_t a) {
  return a >> 31;
}
constexpr uint32_t signed_zero(bool sign) {
  return sign ? kSignBit : 0;
}
constexpr uint32_t signed_inf(bool sign) {
  return signed_zero(sign) | kInfinity;
}

// A finite nonzero operand as |x| = sig * 2^exp (sig < 2^24; subnormals keep a short sig).
struct Unpacked {
  bool sign;
  int exp;
  uint32_t sig;
};

Unpacked unpack(uint32_t a) {
  const int biased = static_cast<int>((a & kExpMask) >> 23);
  const uint32_t frac = a & kFracMask;
  if (biased == 0) return {sign_of(a), -149, frac};
  return {sign_of(a), biased - 150, frac | 0x800000u};
}

// Like unpack, but shifts subnormal significands up so bit 23 is set (division and sqrt
// want a fixed-width significand).
Unpacked unpack_normalized(uint32_t a) {
  Unpacked u = unpack(a);
  const int shift = std::countl_zero(u.sig) - 8;
  u.sig <<= shift;
  u.exp -= shift;
  return u;
}

// The sticky shifts and the per-mode rounding decision are shared with binary16/binary64
// and the narrow formats (rounding.h).
using detail::round_up;
using detail::shift_right_jam;

uint32_t overflow_result(bool sign, uint32_t rm) {
  return signed_zero(sign) | (detail::overflow_to_max_finite(sign, rm) ? kMaxFinite : kInfinity);
}

// Rounds sign * sig * 2^exp (sig != 0) to binary32. Bit 0 of sig may be a sticky bit
// standing for lost lower-order bits as long as sig has at least 27 significant bits.
// Tininess is detected after rounding, as RISC-V requires.
uint32_t round_pack(bool sign, int exp, uint64_t sig, uint32_t rm, uint32_t& flags) {
  constexpr int kDropped = 39;  // 63-bit window, 24 kept
  constexpr uint64_t kDroppedMask = (uint64_t{1} << kDropped) - 1;
  constexpr uint64_t kHalf = uint64_t{1} << (kDropped - 1);
  const int msb = 63 - std::countl_zero(sig);
  if (msb < 62) {
    sig <<= 62 - msb;
  } else if (msb == 63) {
    sig = shift_right_jam(sig, 1);
  }
  int biased = exp + msb + 127;  // biased exponent of the leading bit
  if (biased >= 1) {
    uint64_t kept = sig >> kDropped;
    const uint64_t dropped = sig & kDroppedMask;
    if (round_up(sign, kept, dropped, kHalf, rm) && ++kept == (uint64_t{1} << 24)) {
      kept >>= 1;
      ++biased;
    }
    if (biased >= 255) {
      flags |= kOF | kNX;
      return overflow_result(sign, rm);
    }
    if (dropped) flags |= kNX;
    return signed_zero(sign) | (static_cast<uint32_t>(biased) << 23) |
           (static_cast<uint32_t>(kept) & kFracMask);
  }
  // Below 2^-126 before rounding. Still not tiny if rounding to 24 bits with an unbounded
  // exponent would carry up to 2^-126.
  bool tiny = true;
  if (biased == 0) {
    const uint64_t kept = sig >> kDropped;
    tiny =
        !(round_up(sign, kept, sig & kDroppedMask, kHalf, rm) && kept + 1 == (uint64_t{1} << 24));
  }
  sig = shift_right_jam(sig, 1 - biased);
  uint64_t kept = sig >> kDropped;
  const uint64_t dropped = sig & kDroppedMask;
  if (round_up(sign, kept, dropped, kHalf, rm)) ++kept;  // a carry into bit 23 is 2^-126
  if (dropped) flags |= tiny ? (kNX | kUF) : kNX;
  return signed_zero(sign) | static_cast<uint32_t>(kept);
}

uint32_t round_pack(bool sign, int exp, unsigned __int128 sig, uint32_t rm, uint32_t& flags) {
  const int msb = 127 - (sig >> 64 ? std::countl_zero(static_cast<uint64_t>(sig >> 64))
                                   : 64 + std::countl_zero(static_cast<uint64_t>(sig)));
  const int shift = msb > 62 ? msb - 62 : 0;
  return round_pack(sign, exp + shift, static_cast<uint64_t>(shift_right_jam(sig, shift)), rm,
                    flags);
}

// x + (-x) and friends: an exact zero sum of opposite signs is +0, -0 when rounding down.
uint32_t zero_sum(bool sign_a, bool sign_b, uint32_t rm) {
  return signed_zero(sign_a == sign_b ? sign_a : rm == kRDN);
}

uint32_t nan_result(bool signaling, uint32_t& flags) {
  if (signaling) flags |= kNV;
  return kCanonicalNaN;
}

// Ordered magnitude comparison of two non-NaN values (+0 and -0 compare equal).
bool less_than(uint32_t a, uint32_t b) {
  if (is_zero(a) && is_zero(b)) return false;
  if (sign_of(a) != sign_of(b)) return sign_of(a);
  return sign_of(a) ? a > b : a < b;
}

// Rounds a positive value known to lie strictly between lo*2^exp and hi*2^exp. Returns
// false when the two ends round differently (so the interval straddles a rounding
// boundary and more precision is needed).
template <typename Sig>
bool round_interval(int exp, Sig lo, Sig hi, uint32_t rm, uint32_t& result, uint32_t& flags) {
  uint32_t lo_flags = 0, hi_flags = 0;
  // (v << 1) | 1 stands for "a little above v": every value in (lo, hi) rounds like both.
  const uint32_t lo_result = round_pack(false, exp - 1, (lo << 1) | 1, rm, lo_flags);
  const uint32_t hi_result = round_pack(false, exp - 1, (hi << 1) | 1, rm, hi_flags);
  if (lo_result != hi_result || lo_flags != hi_flags) return false;
  result = lo_result;
  flags |= lo_flags;
  return true;
}

}  // namespace

namespace exact {

uint32_t add(uint32_t a, uint32_t b, uint32_t rm, uint32_t& flags) {
  if (is_nan(a) || is_nan(b)) return nan_result(is_snan(a) || is_snan(b), flags);
  if (is_inf(a)) {
    if (is_inf(b) && sign_of(a) != sign_of(b)) return nan_result(true, flags);
    return a;
  }
  if (is_inf(b)) return b;
  if (is_zero(a) && is_zero(b)) return zero_sum(sign_of(a), sign_of(b), rm);
  if (is_zero(a)) return b;
  if (is_zero(b)) return a;
  Unpacked x = unpack(a), y = unpack(b);
  if (x.exp < y.exp) std::swap(x, y);
  // 24-bit significands at bits 38..61 leave room for the carry and 38 guard bits; the
  // smaller operand only loses bits (into the sticky) when it is far below the rounding point.
  const uint64_t big = uint64_t{x.sig} << 38;
  const uint64_t small = shift_right_jam(uint64_t{y.sig} << 38, x.exp - y.exp);
  const int exp = x.exp - 38;
  if (x.sign == y.sign) return round_pack(x.sign, exp, big + small, rm, flags);
  if (big == small) return zero_sum(x.sign, y.sign, rm);
  return big > small ? round_pack(x.sign, exp, big - small, rm, flags)
                     : round_pack(y.sign, exp, small - big, rm, flags);
}

uint32_t mul(uint32_t a, uint32_t b, uint32_t rm, uint32_t& flags) {
  if (is_nan(a) || is_nan(b)) return nan_result(is_snan(a) || is_snan(b), flags);
  const bool sign = sign_of(a) != sign_of(b);
  if (is_inf(a) || is_inf(b)) {
    if (is_zero(a) || is_zero(b)) return nan_result(true, flags);
    return signed_inf(sign);
  }
  if (is_zero(a) || is_zero(b)) return signed_zero(sign);
  const Unpacked x = unpack(a), y = unpack(b);
  return round_pack(sign, x.exp + y.exp, uint64_t{x.sig} * y.sig, rm, flags);  // exact product
}

uint32_t div(uint32_t a, uint32_t b, uint32_t rm, uint32_t& flags) {
  if (is_nan(a) || is_nan(b)) return nan_result(is_snan(a) || is_snan(b), flags);
  const bool sign = sign_of(a) != sign_of(b);
  if (is_inf(a)) return is_inf(b) ? nan_result(true, flags) : signed_inf(sign);
  if (is_inf(b)) return signed_zero(sign);
  if (is_zero(b)) {
    if (is_zero(a)) return nan_result(true, flags);
    flags |= kDZ;
    return signed_inf(sign);
  }
  if (is_zero(a)) return signed_zero(sign);
  const Unpacked x = unpack_normalized(a), y = unpack_normalized(b);
  // Both significands are in [2^23, 2^24), so the quotient has 40 or 41 bits; a nonzero
  // remainder becomes the sticky bit.
  const uint64_t dividend = uint64_t{x.sig} << 40;
  uint64_t quotient = dividend / y.sig;
  quotient |= (dividend % y.sig) != 0;
  return round_pack(sign, x.exp - y.exp - 40, quotient, rm, flags);
}

uint32_t sqrt(uint32_t a, uint32_t rm, uint32_t& flags) {
  if (is_nan(a)) return nan_result(is_snan(a), flags);
  if (is_zero(a)) return a;  // sqrt(-0) = -0
  if (sign_of(a)) return nan_result(true, flags);
  if (is_inf(a)) return a;
  Unpacked x = unpack_normalized(a);
  uint64_t radicand = x.sig;
  if (x.exp & 1) {  // make the exponent even so it halves exactly
    radicand <<= 1;
    x.exp -= 1;
  }
  radicand <<= 38;  // < 2^63; the root has 31 or 32 bits
  uint64_t root = static_cast<uint64_t>(std::sqrt(static_cast<double>(radicand)));
  while (root * root > radicand) --root;
  while ((root + 1) * (root + 1) <= radicand) ++root;
  root |= root * root != radicand;
  return round_pack(false, (x.exp - 38) / 2, root, rm, flags);
}

uint32_t fma(uint32_t a, uint32_t b, uint32_t c, uint32_t rm, uint32_t& flags) {
  const bool invalid_product = (is_inf(a) && is_zero(b)) || (is_zero(a) && is_inf(b));
  // RISC-V raises NV for inf*0 even when the addend is a quiet NaN.
  if (is_nan(a) || is_nan(b) || is_nan(c)) {
    return nan_result(is_snan(a) || is_snan(b) || is_snan(c) || invalid_product, flags);
  }
  if (invalid_product) return nan_result(true, flags);
  const bool product_sign = sign_of(a) != sign_of(b);
  if (is_inf(a) || is_inf(b)) {
    if (is_inf(c) && sign_of(c) != product_sign) return nan_result(true, flags);
    return signed_inf(product_sign);
  }
  if (is_inf(c)) return c;
  if (is_zero(a) || is_zero(b)) {
    return is_zero(c) ? zero_sum(product_sign, sign_of(c), rm) : c;
  }
  const Unpacked x = unpack(a), y = unpack(b);
  const uint64_t product = uint64_t{x.sig} * y.sig;  // exact, up to 48 bits
  const int product_exp = x.exp + y.exp;
  if (is_zero(c)) return round_pack(product_sign, product_exp, product, rm, flags);
  const Unpacked z = unpack(c);
  // Both terms with their leading bit at bit 124 of a 128-bit word; the smaller one is
  // shifted down with a sticky bit. Nothing is lost unless it lies far below the result's
  // rounding point.
  constexpr int kTop = 124;
  const int product_shift = kTop - (63 - std::countl_zero(product));
  const int addend_shift = kTop - (31 - std::countl_zero(z.sig));
  unsigned __int128 p = static_cast<unsigned __int128>(product) << product_shift;
  unsigned __int128 q = static_cast<unsigned __int128>(z.sig) << addend_shift;
  const int p_exp = product_exp - product_shift, q_exp = z.exp - addend_shift;
  int exp;
  if (p_exp >= q_exp) {
    q = shift_right_jam(q, p_exp - q_exp);
    exp = p_exp;
  } else {
    p = shift_right_jam(p, q_exp - p_exp);
    exp = q_exp;
  }
  if (product_sign == z.sign) return round_pack(product_sign, exp, p + q, rm, flags);
  if (p == q) return zero_sum(product_sign, z.sign, rm);
  return p > q ? round_pack(product_sign, exp, p - q, rm, flags)
               : round_pack(z.sign, exp, q - p, rm, flags);
}

}  // namespace exact

namespace {

#ifdef VENTUS_FP_HOST_SSE
// Runs SSE scalar arithmetic under a RISC-V rounding mode (RNE/RTZ/RDN/RUP only) in the
// MXCSR setting mxcsr.h describes, and translates the sticky MXCSR flags; the host's control
// bits are put back after (mxcsr::needs_restore). NaN results are
// canonicalised by the callers.
class HostRounding {
 public:
  explicit HostRounding(uint32_t rm) : saved_(_mm_getcsr()) {
    _mm_setcsr(mxcsr::kAllMasked | mxcsr::kRoundingControl[rm]);
  }
  ~HostRounding() {
    if (mxcsr::needs_restore(saved_, _mm_getcsr())) _mm_setcsr(saved_);
  }
  HostRounding(const HostRounding&) = delete;
  HostRounding& operator=(const HostRounding&) = delete;

  uint32_t flags() const { return mxcsr::to_flags(_mm_getcsr()); }

 private:
  uint32_t saved_;
};

// The operations as volatile asm so the compiler can neither fold them at its own rounding
// mode nor move them across the MXCSR writes.
struct HostAdd {
  static float apply(float a, float b) {
    asm volatile("addss %1, %0" : "+x"(a) : "x"(b));
    return a;
  }
};
struct HostSub {
  static float apply(float a, float b) {
    asm volatile("subss %1, %0" : "+x"(a) : "x"(b));
    return a;
  }
};
struct HostMul {
  static float apply(float a, float b) {
    asm volatile("mulss %1, %0" : "+x"(a) : "x"(b));
    return a;
  }
};
struct HostDiv {
  static float apply(float a, float b) {
    asm volatile("divss %1, %0" : "+x"(a) : "x"(b));
    return a;
  }
};
struct HostSqrt {
  static float apply(float a, float) {
    asm volatile("sqrtss %0, %0" : "+x"(a));
    return a;
  }
};

uint32_t canonical(uint32_t bits) {
  return is_nan(bits) ? kCanonicalNaN : bits;
}

template <typename Op>
void host_lanes(const uint32_t* a, const uint32_t* b, uint32_t* d, uint32_t active_mask,
                unsigned lanes, uint32_t rm, uint32_t& flags) {
  const HostRounding rounding(rm);
  for (unsigned i = 0; i < lanes; ++i) {
    if (!((active_mask >> i) & 1)) continue;
    d[i] = canonical(std::bit_cast<uint32_t>(
        Op::apply(std::bit_cast<float>(a[i]), std::bit_cast<float>(b ? b[i] : 0u))));
  }
  flags |= rounding.flags();
}
#endif

uint32_t exact_sub(uint32_t a, uint32_t b, uint32_t rm, uint32_t& flags) {
  // Negating a NaN would not change the result: every NaN result is canonical.
  return exact::add(a, b ^ kSignBit, rm, flags);
}
uint32_t exact_sqrt(uint32_t a, uint32_t, uint32_t rm, uint32_t& flags) {
  return exact::sqrt(a, rm, flags);
}

template <uint32_t (*Exact)(uint32_t, uint32_t, uint32_t, uint32_t&)>
void exact_lanes(const uint32_t* a, const uint32_t* b, uint32_t* d, uint32_t active_mask,
                 unsigned lanes, uint32_t rm, uint32_t& flags) {
  for (unsigned i = 0; i < lanes; ++i) {
    if ((active_mask >> i) & 1) d[i] = Exact(a[i], b ? b[i] : 0u, rm, flags);
  }
}

// Lanes go through the host when it has the rounding mode and enough lanes are active to
// pay for the two MXCSR writes (about 10 ns together, against about 6 ns per integer-path
// operation); single operations always take the integer path for the same reason.
#ifdef VENTUS_FP_HOST_SSE
bool use_host(uint32_t active_mask, unsigned lanes, uint32_t rm) {
  // At least 4 lanes: some bit is left after clearing the lowest three (std::popcount is a
  // libgcc call where the build targets baseline x86-64).
  const uint32_t in_range = lanes >= 32 ? ~0u : (1u << lanes) - 1;
  uint32_t m = active_mask & in_range;
  m &= m - 1;
  m &= m - 1;
  m &= m - 1;
  return mxcsr::has_rounding_mode(rm) && m != 0;
}
#endif

template <typename HostOp, uint32_t (*Exact)(uint32_t, uint32_t, uint32_t, uint32_t&)>
void dispatch_lanes(const uint32_t* a, const uint32_t* b, uint32_t* d, uint32_t active_mask,
                    unsigned lanes, uint32_t rm, uint32_t& flags) {
#ifdef VENTUS_FP_HOST_SSE
  if (use_host(active_mask, lanes, rm)) {
    return host_lanes<HostOp>(a, b, d, active_mask, lanes, rm, flags);
  }
#endif
  exact_lanes<Exact>(a, b, d, active_mask, lanes, rm, flags);
}

}  // namespace

uint32_t add(uint32_t a, uint32_t b, uint32_t rm, uint32_t& flags) {
  return exact::add(a, b, rm, flags);
}
uint32_t sub(uint32_t a, uint32_t b, uint32_t rm, uint32_t& flags) {
  return exact_sub(a, b, rm, flags);
}
uint32_t mul(uint32_t a, uint32_t b, uint32_t rm, uint32_t& flags) {
  return exact::mul(a, b, rm, flags);
}
uint32_t div(uint32_t a, uint32_t b, uint32_t rm, uint32_t& flags) {
  return exact::div(a, b, rm, flags);
}
uint32_t sqrt(uint32_t a, uint32_t rm, uint32_t& flags) {
  return exact::sqrt(a, rm, flags);
}
uint32_t fma(uint32_t a, uint32_t b, uint32_t c, uint32_t rm, uint32_t& flags) {
  return exact::fma(a, b, c, rm, flags);
}

void add_lanes(const uint32_t* a, const uint32_t* b, uint32_t* d, uint32_t active_mask,
               unsigned lanes, uint32_t rm, uint32_t& flags) {
  dispatch_lanes<HostAdd, exact::add>(a, b, d, active_mask, lanes, rm, flags);
}
void sub_lanes(const uint32_t* a, const uint32_t* b, uint32_t* d, uint32_t active_mask,
               unsigned lanes, uint32_t rm, uint32_t& flags) {
  dispatch_lanes<HostSub, exact_sub>(a, b, d, active_mask, lanes, rm, flags);
}
void mul_lanes(const uint32_t* a, const uint32_t* b, uint32_t* d, uint32_t active_mask,
               unsigned lanes, uint32_t rm, uint32_t& flags) {
  dispatch_lanes<HostMul, exact::mul>(a, b, d, active_mask, lanes, rm, flags);
}
void div_lanes(const uint32_t* a, const uint32_t* b, uint32_t* d, uint32_t active_mask,
               unsigned lanes, uint32_t rm, uint32_t& flags) {
  dispatch_lanes<HostDiv, exact::div>(a, b, d, active_mask, lanes, rm, flags);
}
void sqrt_lanes(const uint32_t* a, uint32_t* d, uint32_t active_mask, unsigned lanes, uint32_t rm,
                uint32_t& flags) {
  dispatch_lanes<HostSqrt, exact_sqrt>(a, nullptr, d, active_mask, lanes, rm, flags);
}
void fma_lanes(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* d,
               uint32_t active_mask, unsigned lanes, uint32_t rm, uint32_t& flags) {
#ifdef VENTUS_FP_HOST_SSE
  // FMA3 (VFMADD213SS) rounds once and raises NV for inf*0 even with a quiet-NaN addend, as
  // RISC-V requires; only some x86-64 hosts have it.
  static const bool host_has_fma = __builtin_cpu_supports("fma");
  if (host_has_fma && use_host(active_mask, lanes, rm)) {
    const HostRounding rounding(rm);
    for (unsigned i = 0; i < lanes; ++i) {
      if (!((active_mask >> i) & 1)) continue;
      float x = std::bit_cast<float>(a[i]);
      asm volatile("vfmadd213ss %2, %1, %0"
                   : "+x"(x)
                   : "x"(std::bit_cast<float>(b[i])), "x"(std::bit_cast<float>(c[i])));
      d[i] = canonical(std::bit_cast<uint32_t>(x));
    }
    flags |= rounding.flags();
    return;
  }
#endif
  for (unsigned i = 0; i < lanes; ++i) {
    if ((active_mask >> i) & 1) d[i] = exact::fma(a[i], b[i], c[i], rm, flags);
  }
}

uint32_t min(uint32_t a, uint32_t b, uint32_t& flags) {
  if (is_snan(a) || is_snan(b)) flags |= kNV;
  if (is_nan(a)) return is_nan(b) ? kCanonicalNaN : b;
  if (is_nan(b)) return a;
  if (is_zero(a) && is_zero(b)) return a | b;  // -0 < +0
  return less_than(b, a) ? b : a;
}

uint32_t max(uint32_t a, uint32_t b, uint32_t& flags) {
  if (is_snan(a) || is_snan(b)) flags |= kNV;
  if (is_nan(a)) return is_nan(b) ? kCanonicalNaN : b;
  if (is_nan(b)) return a;
  if (is_zero(a) && is_zero(b)) return a & b;
  return less_than(a, b) ? b : a;
}

bool eq(uint32_t a, uint32_t b, uint32_t& flags) {
  if (is_nan(a) || is_nan(b)) {
    if (is_snan(a) || is_snan(b)) flags |= kNV;
    return false;
  }
  return a == b || (is_zero(a) && is_zero(b));
}

bool lt(uint32_t a, uint32_t b, uint32_t& flags) {
  if (is_nan(a) || is_nan(b)) {
    flags |= kNV;
    return false;
  }
  return less_than(a, b);
}

bool le(uint32_t a, uint32_t b, uint32_t& flags) {
  if (is_nan(a) || is_nan(b)) {
    flags |= kNV;
    return false;
  }
  return !less_than(b, a);
}

uint32_t classify(uint32_t a) {
  const bool sign = sign_of(a);
  if (is_nan(a)) return is_snan(a) ? 1u << 8 : 1u << 9;
  if (is_inf(a)) return sign ? 1u << 0 : 1u << 7;
  if (is_zero(a)) return sign ? 1u << 3 : 1u << 4;
  if ((a & kExpMask) == 0) return sign ? 1u << 2 : 1u << 5;
  return sign ? 1u << 1 : 1u << 6;
}

namespace {

// |a| rounded to an integer under rm (the sign decides RDN/RUP). Returns false when the
// magnitude does not fit in 33 bits (certainly out of range for both conversions).
bool round_to_integer(uint32_t a, uint32_t rm, uint64_t& magnitude, bool& inexact) {
  const Unpacked x = unpack(a);
  inexact = false;
  if (x.exp >= 0) {
    if (x.exp > 8) return false;
    magnitude = uint64_t{x.sig} << x.exp;
    return true;
  }
  // 32 fraction bits below the integer part; anything further down only matters as sticky.
  const uint64_t fixed = shift_right_jam(uint64_t{x.sig} << 32, -x.exp);
  magnitude = fixed >> 32;
  const uint64_t fraction = fixed & 0xffffffffu;
  inexact = fraction != 0;
  if (round_up(x.sign, magnitude, fraction, uint64_t{1} << 31, rm)) ++magnitude;
  return true;
}

}  // namespace

int32_t to_i32(uint32_t a, uint32_t rm, uint32_t& flags) {
  constexpr int32_t kMin = INT32_MIN, kMax = INT32_MAX;
  if (is_nan(a)) {
    flags |= kNV;
    return kMax;
  }
  if (is_zero(a)) return 0;
  const bool sign = sign_of(a);
  uint64_t magnitude = 0;
  bool inexact = false;
  const uint64_t limit = sign ? uint64_t{1} << 31 : (uint64_t{1} << 31) - 1;
  if (is_inf(a) || !round_to_integer(a, rm, magnitude, inexact) || magnitude > limit) {
    flags |= kNV;
    return sign ? kMin : kMax;
  }
  if (inexact) flags |= kNX;
  return static_cast<int32_t>(sign ? 0 - magnitude : magnitude);
}

uint32_t to_u32(uint32_t a, uint32_t rm, uint32_t& flags) {
  if (is_nan(a)) {
    flags |= kNV;
    return UINT32_MAX;
  }
  if (is_zero(a)) return 0;
  const bool sign = sign_of(a);
  uint64_t magnitude = 0;
  bool inexact = false;
  const bool in_range = !is_inf(a) && round_to_integer(a, rm, magnitude, inexact) &&
                        (sign ? magnitude == 0 : magnitude <= UINT32_MAX);
  if (!in_range) {
    flags |= kNV;
    return sign ? 0 : UINT32_MAX;
  }
  if (inexact) flags |= kNX;
  return static_cast<uint32_t>(magnitude);
}

uint32_t from_i32(int32_t a, uint32_t rm, uint32_t& flags) {
  if (a == 0) return 0;
  const bool sign = a < 0;
  const uint64_t magnitude =
      sign ? 0 - static_cast<uint64_t>(static_cast<int64_t>(a)) : static_cast<uint64_t>(a);
  return round_pack(sign, 0, magnitude, rm, flags);
}

uint32_t from_u32(uint32_t a, uint32_t rm, uint32_t& flags) {
  if (a == 0) return 0;
  return round_pack(false, 0, uint64_t{a}, rm, flags);
}

namespace {

// Normalises a subnormal's fraction the way the RVV estimate tables expect: the exponent
// goes below zero (one step per leading zero), the leading one is dropped from the fraction.
void normalize_subnormal(int& exp, uint32_t& frac) {
  while (!(frac & kQuietBit)) {
    --exp;
    frac <<= 1;
  }
  frac = (frac << 1) & kFracMask;
}

}  // namespace

uint32_t rsqrt7(uint32_t a, uint32_t& flags) {
  // RVV 1.0 vfrsqrt7.v table, indexed by the exponent's low bit and the 6 fraction MSBs.
  static constexpr uint8_t kTable[128] = {
      52,  51,  50,  48,  47,  46, 44, 43,  42,  41,  40,  39,  38,  36,  35,  34,  33,  32,  31,
      30,  30,  29,  28,  27,  26, 25, 24,  23,  23,  22,  21,  20,  19,  19,  18,  17,  16,  16,
      15,  14,  14,  13,  12,  12, 11, 10,  10,  9,   9,   8,   7,   7,   6,   6,   5,   4,   4,
      3,   3,   2,   2,   1,   1,  0,  127, 125, 123, 121, 119, 118, 116, 114, 113, 111, 109, 108,
      106, 105, 103, 102, 100, 99, 97, 96,  95,  93,  92,  91,  90,  88,  87,  86,  85,  84,  83,
      82,  80,  79,  78,  77,  76, 75, 74,  73,  72,  71,  70,  70,  69,  68,  67,  66,  65,  64,
      63,  63,  62,  61,  60,  59, 59, 58,  57,  56,  56,  55,  54,  53};
  if (is_nan(a)) return nan_result(is_snan(a), flags);
  if (is_zero(a)) {
    flags |= kDZ;
    return signed_inf(sign_of(a));
  }
  if (sign_of(a)) return nan_result(true, flags);
  if (is_inf(a)) return 0;
  int exp = static_cast<int>((a & kExpMask) >> 23);
  uint32_t frac = a & kFracMask;
  if (exp == 0) normalize_subnormal(exp, frac);
  const unsigned index = ((static_cast<unsigned>(exp) & 1) << 6) | (frac >> 17);
  const uint32_t out_exp = static_cast<uint32_t>((3 * 127 - 1 - exp) / 2);
  return (out_exp << 23) | (uint32_t{kTable[index]} << 16);
}

uint32_t rec7(uint32_t a, uint32_t rm, uint32_t& flags) {
  // RVV 1.0 vfrec7.v table, indexed by the 7 fraction MSBs.
  static constexpr uint8_t kTable[128] = {
      127, 125, 123, 121, 119, 117, 116, 114, 112, 110, 109, 107, 105, 104, 102, 100, 99, 97, 96,
      94,  93,  91,  90,  88,  87,  85,  84,  83,  81,  80,  79,  77,  76,  75,  74,  72, 71, 70,
      69,  68,  66,  65,  64,  63,  62,  61,  60,  59,  58,  57,  56,  55,  54,  53,  52, 51, 50,
      49,  48,  47,  46,  45,  44,  43,  42,  41,  40,  40,  39,  38,  37,  36,  35,  35, 34, 33,
      32,  31,  31,  30,  29,  28,  28,  27,  26,  25,  25,  24,  23,  23,  22,  21,  21, 20, 19,
      19,  18,  17,  17,  16,  15,  15,  14,  14,  13,  12,  12,  11,  11,  10,  9,   9,  8,  8,
      7,   7,   6,   5,   5,   4,   4,   3,   3,   2,   2,   1,   1,   0};
  const bool sign = sign_of(a);
  if (is_nan(a)) return nan_result(is_snan(a), flags);
  if (is_inf(a)) return signed_zero(sign);
  if (is_zero(a)) {
    flags |= kDZ;
    return signed_inf(sign);
  }
  int exp = static_cast<int>((a & kExpMask) >> 23);
  uint32_t frac = a & kFracMask;
  if (exp == 0) {
    normalize_subnormal(exp, frac);
    if (exp < -1) {  // 1/a exceeds the largest finite value: an overflow by the rounding mode
      flags |= kNX | kOF;
      return overflow_result(sign, rm);
    }
  }
  int out_exp = 2 * 127 - 1 - exp;
  uint32_t out_frac = uint32_t{kTable[frac >> 16]} << 16;
  if (out_exp <= 0) {  // the estimate is subnormal: shift in the leading one
    out_frac = (out_frac >> 1) | kQuietBit;
    if (out_exp < 0) {
      out_frac >>= 1;
      out_exp = 0;
    }
  }
  return signed_zero(sign) | (static_cast<uint32_t>(out_exp) << 23) | out_frac;
}

uint32_t exp(uint32_t a, uint32_t rm, uint32_t& flags) {
  if (is_nan(a)) return nan_result(is_snan(a), flags);
  if (is_inf(a)) return sign_of(a) ? 0 : kInfinity;
  if (is_zero(a)) return 0x3f800000u;  // e^0 = 1 exactly
  // For |a| < 2^-26, e^a lies within 2^-25 ulp of 1 on a's side of it; every rounding
  // mode treats it exactly like 1 plus or minus an infinitesimal (binary128 could not
  // even represent the difference).
  if ((a & ~kSignBit) < 0x32800000u) {
    constexpr uint64_t kOneAt62 = uint64_t{1} << 62;
    return round_pack(false, -62, sign_of(a) ? kOneAt62 - 1 : kOneAt62 + 1, rm, flags);
  }
  const float x = std::bit_cast<float>(a);
  // Outside this range e^x is below half the smallest subnormal or above the largest
  // finite value, so any strictly positive stand-in far out there rounds the same way.
  if (x < -104.0f) return round_pack(false, -400, uint64_t{1}, rm, flags);
  if (x > 89.0f) return round_pack(false, 400, uint64_t{1}, rm, flags);
  // e^x for x != 0 is transcendental, so never exactly a float or a rounding midpoint: a
  // good enough enclosure always rounds unambiguously. First try binary64 (glibc exp is
  // within 1 ulp; allow 2), then binary128 (allow 8 ulp). The binary32 hard cases need far
  // fewer than 100 bits, so the last line is a formality.
  uint32_t result = 0;
  const double y = std::exp(static_cast<double>(x));
  int y_exp = 0;
  const double y_frac = std::frexp(y, &y_exp);  // y = y_frac * 2^y_exp, y_frac in [0.5, 1)
  const uint64_t y_sig = static_cast<uint64_t>(std::ldexp(y_frac, 53));
  if (round_interval(y_exp - 53, y_sig - 2, y_sig + 2, rm, result, flags)) return result;
  const __float128 z = expq(static_cast<__float128>(x));
  unsigned __int128 z_bits;
  std::memcpy(&z_bits, &z, sizeof z_bits);
  const int z_exp = static_cast<int>((z_bits >> 112) & 0x7fff) - 16383 - 112;
  const unsigned __int128 z_sig = (z_bits & ((static_cast<unsigned __int128>(1) << 112) - 1)) |
                                  (static_cast<unsigned __int128>(1) << 112);
  if (round_interval(z_exp, z_sig - 8, z_sig + 8, rm, result, flags)) return result;
  return round_pack(false, z_exp - 1, (z_sig << 1) | 1, rm, flags);
}

}  // namespace ventus::fp
