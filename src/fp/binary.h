// Internal to ventus_fp: IEEE 754 binary arithmetic with RISC-V semantics for any binary
// interchange format up to binary64, as a template over the field widths. binary16 and
// binary64 are built from it (fp16.cpp, fp64.cpp); the tests also instantiate binary32 and
// hold it to the separately written fp32 library. The algorithms are fp32.cpp's: unpack to
// an integer significand, compute exactly or with guard bits and a sticky bit, round once.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

#include "rounding.h"

namespace ventus::fp::detail {

template <typename Bits, int kExponentBits, int kFractionBits>
struct Binary {
  static_assert(std::is_unsigned_v<Bits> && 1 + kExponentBits + kFractionBits <= 64);
  using Wide = unsigned __int128;

  static constexpr Bits kSignBit = Bits{1} << (kExponentBits + kFractionBits);
  static constexpr Bits kFracMask = (Bits{1} << kFractionBits) - 1;
  static constexpr Bits kExpMask = static_cast<Bits>(((Bits{1} << kExponentBits) - 1) << kFractionBits);
  static constexpr Bits kQuietBit = Bits{1} << (kFractionBits - 1);
  static constexpr Bits kInfinity = kExpMask;
  static constexpr Bits kMaxFinite = kInfinity - 1;
  static constexpr Bits kCanonicalNaN = kInfinity | kQuietBit;
  static constexpr int kBias = (1 << (kExponentBits - 1)) - 1;
  static constexpr int kPrecision = kFractionBits + 1;
  static constexpr Layout kLayout{kFractionBits, kBias, kMaxFinite};

  static constexpr bool is_nan(Bits a) { return (a & ~kSignBit) > kInfinity; }
  static constexpr bool is_snan(Bits a) { return is_nan(a) && !(a & kQuietBit); }
  static constexpr bool is_inf(Bits a) { return (a & ~kSignBit) == kInfinity; }
  static constexpr bool is_zero(Bits a) { return (a & ~kSignBit) == 0; }
  static constexpr bool sign_of(Bits a) { return (a & kSignBit) != 0; }
  static constexpr Bits signed_zero(bool sign) { return sign ? kSignBit : Bits{0}; }
  static constexpr Bits signed_inf(bool sign) { return signed_zero(sign) | kInfinity; }

  // A finite nonzero operand as |x| = sig * 2^exp (subnormals keep a short sig).
  struct Unpacked {
    bool sign;
    int exp;
    uint64_t sig;
  };
  static constexpr Unpacked unpack(Bits a) {
    const int biased = static_cast<int>((a & kExpMask) >> kFractionBits);
    const uint64_t frac = a & kFracMask;
    if (biased == 0) return {sign_of(a), 1 - kBias - kFractionBits, frac};
    return {sign_of(a), biased - kBias - kFractionBits, frac | (uint64_t{1} << kFractionBits)};
  }
  // Like unpack, with the significand shifted up to exactly kPrecision bits.
  static constexpr Unpacked unpack_normalized(Bits a) {
    Unpacked u = unpack(a);
    const int shift = std::countl_zero(u.sig) - (64 - kPrecision);
    u.sig <<= shift;
    u.exp -= shift;
    return u;
  }

  template <typename Sig>
  static constexpr Bits round_pack(bool sign, int exp, Sig sig, uint32_t rm, uint32_t& flags) {
    const Rounded r = round_to_layout(kLayout, sign, exp, sig, rm, flags);
    if (r.overflow) return signed_zero(sign) | (overflow_to_max_finite(sign, rm) ? kMaxFinite : kInfinity);
    return signed_zero(sign) | static_cast<Bits>(r.magnitude);
  }

  // x + (-x): +0, or -0 when rounding down; (±0) + (±0) keeps a common sign.
  static constexpr Bits zero_sum(bool sign_a, bool sign_b, uint32_t rm) {
    return signed_zero(sign_a == sign_b ? sign_a : rm == kRDN);
  }
  static constexpr Bits nan_result(bool invalid, uint32_t& flags) {
    if (invalid) flags |= kNV;
    return kCanonicalNaN;
  }
  // Ordered comparison of two non-NaN values (+0 and -0 compare equal).
  static constexpr bool less_than(Bits a, Bits b) {
    if (is_zero(a) && is_zero(b)) return false;
    if (sign_of(a) != sign_of(b)) return sign_of(a);
    return sign_of(a) ? a > b : a < b;
  }

  static constexpr Bits add(Bits a, Bits b, uint32_t rm, uint32_t& flags) {
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
    // Significands at the top of a 62-bit field leave room for the carry and at least 9 guard
    // bits; the smaller operand only loses bits (into the sticky) far below the rounding point.
    constexpr int kGuard = 61 - kPrecision;
    const uint64_t big = x.sig << kGuard;
    const uint64_t small = shift_right_jam(y.sig << kGuard, x.exp - y.exp);
    const int exp = x.exp - kGuard;
    if (x.sign == y.sign) return round_pack(x.sign, exp, big + small, rm, flags);
    if (big == small) return zero_sum(x.sign, y.sign, rm);
    return big > small ? round_pack(x.sign, exp, big - small, rm, flags)
                       : round_pack(y.sign, exp, small - big, rm, flags);
  }

  static constexpr Bits sub(Bits a, Bits b, uint32_t rm, uint32_t& flags) {
    return add(a, b ^ kSignBit, rm, flags);  // every NaN result is canonical anyway
  }

  static constexpr Bits mul(Bits a, Bits b, uint32_t rm, uint32_t& flags) {
    if (is_nan(a) || is_nan(b)) return nan_result(is_snan(a) || is_snan(b), flags);
    const bool sign = sign_of(a) != sign_of(b);
    if (is_inf(a) || is_inf(b)) {
      if (is_zero(a) || is_zero(b)) return nan_result(true, flags);
      return signed_inf(sign);
    }
    if (is_zero(a) || is_zero(b)) return signed_zero(sign);
    const Unpacked x = unpack(a), y = unpack(b);
    return round_pack(sign, x.exp + y.exp, Wide{x.sig} * y.sig, rm, flags);  // exact product
  }

  static constexpr Bits div(Bits a, Bits b, uint32_t rm, uint32_t& flags) {
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
    // Both significands have kPrecision bits, so the quotient has kPrecision + 5 or + 6
    // bits (enough for the round and guard bits); a nonzero remainder is the sticky bit.
    constexpr int kShift = kPrecision + 5;
    const Wide dividend = Wide{x.sig} << kShift;
    uint64_t quotient = static_cast<uint64_t>(dividend / y.sig);
    quotient |= (dividend % y.sig) != 0;
    return round_pack(sign, x.exp - y.exp - kShift, quotient, rm, flags);
  }

  static Bits sqrt(Bits a, uint32_t rm, uint32_t& flags) {
    if (is_nan(a)) return nan_result(is_snan(a), flags);
    if (is_zero(a)) return a;  // sqrt(-0) = -0
    if (sign_of(a)) return nan_result(true, flags);
    if (is_inf(a)) return a;
    Unpacked x = unpack_normalized(a);
    // An even shift of an even exponent, so the root has kPrecision + 4 or more bits.
    constexpr int kShift = (kPrecision + 8) & ~1;
    if (x.exp & 1) {
      x.sig <<= 1;
      x.exp -= 1;
    }
    const Wide radicand = Wide{x.sig} << kShift;
    auto root = static_cast<uint64_t>(std::sqrt(static_cast<long double>(radicand)));
    while (Wide{root} * root > radicand) --root;
    while (Wide{root + 1} * (root + 1) <= radicand) ++root;
    root |= Wide{root} * root != radicand;
    return round_pack(false, (x.exp - kShift) / 2, root, rm, flags);
  }

  static constexpr Bits fma(Bits a, Bits b, Bits c, uint32_t rm, uint32_t& flags) {
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
    if (is_zero(a) || is_zero(b)) return is_zero(c) ? zero_sum(product_sign, sign_of(c), rm) : c;
    const Unpacked x = unpack(a), y = unpack(b);
    const Wide product = Wide{x.sig} * y.sig;  // exact, up to 2 * kPrecision bits
    const int product_exp = x.exp + y.exp;
    if (is_zero(c)) return round_pack(product_sign, product_exp, product, rm, flags);
    const Unpacked z = unpack(c);
    // Both terms with their leading bit at bit 124; the smaller is shifted down with a sticky
    // bit. Bits are lost only when the exponents differ by more than 124 - 2 * 53 = 18, and
    // then the sum cancels at most one bit, so the loss lies far below the rounding point.
    constexpr int kTop = 124;
    const int product_shift = kTop - msb_of(product);
    const int addend_shift = kTop - msb_of(Wide{z.sig});
    Wide p = product << product_shift;
    Wide q = Wide{z.sig} << addend_shift;
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

  static constexpr Bits min(Bits a, Bits b, uint32_t& flags) {
    if (is_snan(a) || is_snan(b)) flags |= kNV;
    if (is_nan(a)) return is_nan(b) ? kCanonicalNaN : b;
    if (is_nan(b)) return a;
    if (is_zero(a) && is_zero(b)) return a | b;  // -0 < +0
    return less_than(b, a) ? b : a;
  }
  static constexpr Bits max(Bits a, Bits b, uint32_t& flags) {
    if (is_snan(a) || is_snan(b)) flags |= kNV;
    if (is_nan(a)) return is_nan(b) ? kCanonicalNaN : b;
    if (is_nan(b)) return a;
    if (is_zero(a) && is_zero(b)) return a & b;
    return less_than(a, b) ? b : a;
  }
  static constexpr bool eq(Bits a, Bits b, uint32_t& flags) {
    if (is_nan(a) || is_nan(b)) {
      if (is_snan(a) || is_snan(b)) flags |= kNV;
      return false;
    }
    return a == b || (is_zero(a) && is_zero(b));
  }
  static constexpr bool lt(Bits a, Bits b, uint32_t& flags) {
    if (is_nan(a) || is_nan(b)) {
      flags |= kNV;
      return false;
    }
    return less_than(a, b);
  }
  static constexpr bool le(Bits a, Bits b, uint32_t& flags) {
    if (is_nan(a) || is_nan(b)) {
      flags |= kNV;
      return false;
    }
    return !less_than(b, a);
  }
  static constexpr uint32_t classify(Bits a) {
    const bool sign = sign_of(a);
    if (is_nan(a)) return is_snan(a) ? 1u << 8 : 1u << 9;
    if (is_inf(a)) return sign ? 1u << 0 : 1u << 7;
    if (is_zero(a)) return sign ? 1u << 3 : 1u << 4;
    if ((a & kExpMask) == 0) return sign ? 1u << 2 : 1u << 5;
    return sign ? 1u << 1 : 1u << 6;
  }

  // a converted to the integer type Int with RISC-V fcvt semantics: rounded in rm, NX when
  // not an integer, out of range (infinities included) saturates with NV, NaN gives the
  // maximum with NV.
  template <typename Int>
  static constexpr Int to_int(Bits a, uint32_t rm, uint32_t& flags) {
    constexpr Int kMin = std::numeric_limits<Int>::min(), kMax = std::numeric_limits<Int>::max();
    if (is_nan(a)) {
      flags |= kNV;
      return kMax;
    }
    if (is_zero(a)) return 0;
    const bool sign = sign_of(a);
    const Unpacked x = unpack(a);
    // |a| rounded to an integer; magnitudes of 2^65 and more are out of range for every Int.
    bool in_range = !is_inf(a) && x.exp <= 64 - kPrecision + 1;
    Wide magnitude = 0;
    bool inexact = false;
    if (in_range && x.exp >= 0) {
      magnitude = Wide{x.sig} << x.exp;
    } else if (in_range) {
      // 64 fraction bits below the integer part; anything further down is sticky.
      const Wide fixed = shift_right_jam(Wide{x.sig} << 64, -x.exp);
      magnitude = fixed >> 64;
      const auto fraction = static_cast<uint64_t>(fixed);
      inexact = fraction != 0;
      if (round_up(sign, static_cast<uint64_t>(magnitude), fraction, uint64_t{1} << 63, rm)) ++magnitude;
    }
    const Wide limit = sign ? static_cast<Wide>(0) - static_cast<Wide>(static_cast<__int128>(kMin))
                            : static_cast<Wide>(kMax);
    if (!in_range || magnitude > limit) {
      flags |= kNV;
      return sign ? kMin : kMax;
    }
    if (inexact) flags |= kNX;
    return static_cast<Int>(sign ? static_cast<Wide>(0) - magnitude : magnitude);
  }

  template <typename Int>
  static constexpr Bits from_int(Int a, uint32_t rm, uint32_t& flags) {
    if (a == 0) return 0;
    const bool sign = a < 0;
    const uint64_t magnitude =
        sign ? uint64_t{0} - static_cast<uint64_t>(a) : static_cast<uint64_t>(a);
    return round_pack(sign, 0, magnitude, rm, flags);
  }

  // Conversion from another binary format (fcvt.s.d, fcvt.h.s, ...): exact when widening.
  template <typename From>
  static constexpr Bits convert(typename From::BitsType a, uint32_t rm, uint32_t& flags) {
    if (From::is_nan(a)) return nan_result(From::is_snan(a), flags);
    const bool sign = From::sign_of(a);
    if (From::is_inf(a)) return signed_inf(sign);
    if (From::is_zero(a)) return signed_zero(sign);
    const typename From::Unpacked x = From::unpack(a);
    return round_pack(sign, x.exp, x.sig, rm, flags);
  }
  using BitsType = Bits;
};

using Binary16 = Binary<uint16_t, 5, 10>;
using Binary32 = Binary<uint32_t, 8, 23>;
using Binary64 = Binary<uint64_t, 11, 52>;

}  // namespace ventus::fp::detail
