// 64-bit integer division and remainder, and conversions between 64-bit integers and
// float. The device has 32-bit div/rem and int<->float conversions only; the front end
// (frontend.cpp, lower_int64_operations) replaces every i64 udiv/sdiv/urem/srem and every
// sitofp/uitofp i64 -> float and fptosi/fptoui float -> i64 by a call to one of these
// functions before the library is linked (and again after, for the library's own casts),
// so that LinkOnlyNeeded pulls them in. They are always_inline (at -O0 too): inlined, a division
// of uniform operands runs on scalar registers once per warp (a call's arguments and
// result live in vector registers), and constant operands fold into the code.
//
// They must not contain a 64-bit `/` or `%` or a long<->float cast themselves (that
// would be a call to themselves after the rewrite): the division's general case is
// restoring shift-subtract on ulong (adds, shifts and compares of register pairs, which
// the back end has), the case where both operands fit in 32 bits uses the device's
// 32-bit divu/remu.
//
// Edge cases follow RISC-V's M extension (what a 64-bit divu/div would give): x / 0 is
// all ones (-1 for signed), x % 0 is x, LONG_MIN / -1 is LONG_MIN and LONG_MIN % -1 is 0.
//
// External, not static and not overloadable: the front end calls them by these plain
// names (spir_func, like every library function), and the linker only pulls in
// definitions that are visible outside this file. (No prototypes needed: -Wall has no
// -Wmissing-prototypes.)
#include "core/base.h"

// a / b and a % b for b != 0. Shift b up to a's highest bit, then one compare and
// subtract per quotient bit (at most 64, as many as a has more significant bits than b).
// Always inlined into the four functions below: no pointer to private memory crosses a
// call, also at -O0.
static inline __attribute__((always_inline)) ulong vt_udivrem64(ulong a, ulong b,
                                                               ulong* remainder) {
  if (((a | b) >> 32) == 0) {
    uint a32 = (uint)a, b32 = (uint)b;
    *remainder = a32 % b32;
    return a32 / b32;
  }
  if (a < b) {
    *remainder = a;
    return 0;
  }
  // Here a >= b and one of them has high bits, so a does.
  uint b_hi = (uint)(b >> 32);
  uint b_zeros = b_hi ? vt_clz32(b_hi) : 32 + vt_clz32((uint)b);
  uint shift = b_zeros - vt_clz32((uint)(a >> 32));  // 0..63
  b <<= shift;
  ulong q = 0;
  for (uint i = 0; i <= shift; ++i) {
    // Branch-free: the lanes of a warp take the same path through every iteration.
    ulong fits = a >= b ? 1 : 0;
    a -= b & (0 - fits);
    q = (q << 1) | fits;
    b >>= 1;
  }
  *remainder = a;
  return q;
}

__attribute__((always_inline)) ulong __vt_udiv64(ulong a, ulong b) {
  if (b == 0) return ~(ulong)0;
  ulong r;
  return vt_udivrem64(a, b, &r);
}

__attribute__((always_inline)) ulong __vt_urem64(ulong a, ulong b) {
  if (b == 0) return a;
  ulong r;
  vt_udivrem64(a, b, &r);
  return r;
}

// Magnitudes as ulong (|LONG_MIN| = 2^63 is exact there); the quotient is negative when
// the signs differ, the remainder has the dividend's sign (C's truncating division).
// LONG_MIN / -1 = 2^63 as ulong, which converts back to LONG_MIN.
__attribute__((always_inline)) long __vt_sdiv64(long a, long b) {
  if (b == 0) return -1;
  ulong ua = a < 0 ? 0 - (ulong)a : (ulong)a;
  ulong ub = b < 0 ? 0 - (ulong)b : (ulong)b;
  ulong r;
  ulong q = vt_udivrem64(ua, ub, &r);
  return (long)((a < 0) != (b < 0) ? 0 - q : q);
}

__attribute__((always_inline)) long __vt_srem64(long a, long b) {
  if (b == 0) return a;
  ulong ua = a < 0 ? 0 - (ulong)a : (ulong)a;
  ulong ub = b < 0 ? 0 - (ulong)b : (ulong)b;
  ulong r;
  vt_udivrem64(ua, ub, &r);
  return (long)(a < 0 ? 0 - r : r);
}

// ---- Conversions between 64-bit integers and float ----

// x -> float, rounded to nearest even like the device's fcvt.s.wu. x >= 2^32: shift x up
// so that its leading one is bit 63; the high word then holds the 24 bits the float
// keeps and the 8 below them, and a nonzero low word only matters as a sticky bit
// (OR-ed into bit 0, below the rounding position). One hardware conversion of that word
// rounds once (correctly, ties to even); the power-of-two scale 2^(32 - lz) is exact.
static inline __attribute__((always_inline)) float vt_u64_to_f32(ulong x) {
  uint hi = (uint)(x >> 32), lo = (uint)x;
  if (hi == 0) return (float)lo;
  uint lz = vt_clz32(hi);  // 0..31
  // (lo >> 1) >> (31 - lz) is lo >> (32 - lz), also 0 for lz = 0 (a shift by 32 is not).
  uint top = (hi << lz) | ((lo >> 1) >> (31 - lz));
  uint sticky = (lo << lz) != 0 ? 1u : 0u;
  return (float)(top | sticky) * as_float((127u + 32u - lz) << 23);
}

__attribute__((always_inline)) float __vt_u64_to_f32(ulong x) {
  return vt_u64_to_f32(x);
}

// Sign and magnitude (|LONG_MIN| = 2^63 is exact as ulong); nearest even is symmetric.
// Values that fit in 32 bits take the device's fcvt.s.w directly.
__attribute__((always_inline)) float __vt_i64_to_f32(long x) {
  if (x == (long)(int)x) return (float)(int)x;
  if (x < 0) return -vt_u64_to_f32(0 - (ulong)x);
  return vt_u64_to_f32((ulong)x);
}

// float -> integer toward zero, with RISC-V's fcvt.l.s / fcvt.lu.s results out of range.
// |f| < 2^31 (2^32 unsigned) uses the device's 32-bit conversion; from there up to the
// limit f is an integer: its 24-bit significand shifted left by exponent - 150 (8..40).
__attribute__((always_inline)) long __vt_f32_to_i64(float f) {
  uint bits = as_uint(f);
  uint e = (bits >> 23) & 0xffu;
  if (e < 127u + 31u) return (long)(int)f;
  // NaN and f >= 2^63: LONG_MAX; f <= -2^63: LONG_MIN (-2^63 itself is exact).
  if ((bits & 0x7fffffffu) > 0x7f800000u) return LONG_MAX;
  if (e >= 127u + 63u) return (bits >> 31) ? LONG_MIN : LONG_MAX;
  ulong magnitude = (ulong)((bits & 0x7fffffu) | 0x800000u) << (e - 150u);
  return (bits >> 31) ? (long)(0 - magnitude) : (long)magnitude;
}

__attribute__((always_inline)) ulong __vt_f32_to_u64(float f) {
  uint bits = as_uint(f);
  uint e = (bits >> 23) & 0xffu;
  // NaN and f >= 2^64: ULONG_MAX; negative (-0 and -0.5 included, which truncate to 0): 0.
  if ((bits & 0x7fffffffu) > 0x7f800000u) return ULONG_MAX;
  if (bits >> 31) return 0;
  if (e < 127u + 32u) return (ulong)(uint)f;
  if (e >= 127u + 64u) return ULONG_MAX;
  return (ulong)((bits & 0x7fffffu) | 0x800000u) << (e - 150u);
}
