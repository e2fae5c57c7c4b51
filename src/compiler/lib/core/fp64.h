// Soft-float routines for double (binary64) on its bits as a ulong: the device's binary64
// arithmetic (the pair forms of the vector instructions) has no conversions, so fpext,
// fptrunc, int <-> double and the integral rounding functions round here, in every
// rounding mode OpenCL names. dir: 2 nearest even, 3 nearest with ties away from zero,
// 0 toward zero, 1 up (+inf), -1 down (-inf), as in convert.cl. NaN results are RISC-V's
// canonical NaNs (0x7ff8000000000000, 0x7fc00000), as the device's arithmetic gives.
// Only integer operations on ulong/uint: no double operator may appear here (the front
// end would turn it into a call of these very routines).
#pragma once
#include "base.h"

#define VT_F64_SIGN 0x8000000000000000ul
#define VT_F64_MAGNITUDE 0x7ffffffffffffffful
#define VT_F64_INF 0x7ff0000000000000ul
#define VT_F64_QNAN 0x7ff8000000000000ul

// Whether dropping `rem` (the bits below q's last bit; `drop` of them, drop >= 1; a drop
// beyond 64 means rem is nonzero exactly when something was dropped, below half an ulp)
// rounds the magnitude q of a number with sign `neg` up by one.
VT_CORE int vt_round_up(ulong q, ulong rem, int drop, int neg, int dir) {
  if (rem == 0 || dir == 0) return 0;
  if (dir == 1 || dir == -1) return (dir > 0) != (neg != 0);
  if (drop > 64) return 0;
  ulong halfway = 1ul << (drop - 1);
  if (dir == 3) return rem >= halfway;
  return rem > halfway || (rem == halfway && (q & 1ul));
}

// m >> drop (drop >= 1) and the bits shifted out.
VT_CORE ulong vt_shift_out(ulong m, int drop, ulong* rem) {
  if (drop >= 64) {
    *rem = m;
    return 0;
  }
  *rem = m & ((1ul << drop) - 1ul);
  return m >> drop;
}

// The largest finite value or infinity, whichever rounding to `dir` gives on overflow.
VT_CORE int vt_overflow_to_infinity(int neg, int dir) {
  return dir >= 2 || (dir == 1 && !neg) || (dir == -1 && neg);
}

// (-1)^neg * m * 2^e rounded to a double in direction dir.
VT_CORE ulong vt_f64_pack(int neg, int e, ulong m, int dir) {
  ulong sign = neg ? VT_F64_SIGN : 0ul;
  if (m == 0) return sign;
  int top = e + 63 - (int)vt_clz64(m);  // the exponent of the leading bit
  if (top > 1023) return sign | (vt_overflow_to_infinity(neg, dir) ? VT_F64_INF : VT_F64_INF - 1ul);
  int lsb = top - 52 < -1074 ? -1074 : top - 52;  // the exponent of the result's last bit
  int drop = lsb - e;
  ulong q, rem = 0;
  if (drop <= 0)
    q = m << (-drop);
  else
    q = vt_shift_out(m, drop, &rem);
  q += (ulong)vt_round_up(q, rem, drop, neg, dir);
  // The exponent field lsb + 1074 plus q with its leading bit (2^52): a carry out of the
  // significand moves into the exponent; a subnormal (no leading bit) keeps field 0.
  ulong bits = ((ulong)(lsb + 1074) << 52) + q;
  if (bits >= VT_F64_INF)
    return sign | (vt_overflow_to_infinity(neg, dir) ? VT_F64_INF : VT_F64_INF - 1ul);
  return sign | bits;
}

// (-1)^neg * m * 2^e rounded to a float in direction dir (its bits).
VT_CORE uint vt_f32_pack(int neg, int e, ulong m, int dir) {
  uint sign = neg ? 0x80000000u : 0u;
  if (m == 0) return sign;
  int top = e + 63 - (int)vt_clz64(m);
  if (top > 127) return sign | (vt_overflow_to_infinity(neg, dir) ? 0x7f800000u : 0x7f7fffffu);
  int lsb = top - 23 < -149 ? -149 : top - 23;
  int drop = lsb - e;
  ulong q, rem = 0;
  if (drop <= 0)
    q = m << (-drop);
  else
    q = vt_shift_out(m, drop, &rem);
  q += (ulong)vt_round_up(q, rem, drop, neg, dir);
  uint bits = ((uint)(lsb + 149) << 23) + (uint)q;
  if (bits >= 0x7f800000u)
    return sign | (vt_overflow_to_infinity(neg, dir) ? 0x7f800000u : 0x7f7fffffu);
  return sign | bits;
}

// A finite nonzero double's magnitude as m * 2^e (m < 2^53).
VT_CORE ulong vt_f64_unpack(ulong magnitude, int* e) {
  uint field = (uint)(magnitude >> 52);
  ulong frac = magnitude & 0x000ffffffffffffful;
  if (field == 0) {
    *e = -1074;
    return frac;
  }
  *e = (int)field - 1075;
  return frac | 0x0010000000000000ul;
}

VT_CORE ulong vt_f32_to_f64(float x) {
  uint u = as_uint(x);
  ulong sign = (ulong)(u >> 31) << 63;
  uint a = u & 0x7fffffffu;
  if (a > 0x7f800000u) return VT_F64_QNAN;
  if (a == 0x7f800000u) return sign | VT_F64_INF;
  if (a < 0x00800000u) return vt_f64_pack((int)(u >> 31), -149, (ulong)a, 2);  // 0, subnormal
  return sign | ((ulong)((a >> 23) + 896u) << 52) | ((ulong)(a & 0x007fffffu) << 29);
}

VT_CORE float vt_f64_to_f32(ulong b, int dir) {
  int neg = (int)(b >> 63);
  ulong a = b & VT_F64_MAGNITUDE;
  if (a > VT_F64_INF) return as_float(0x7fc00000u);
  if (a == VT_F64_INF) return as_float(neg ? 0xff800000u : 0x7f800000u);
  int e;
  ulong m = vt_f64_unpack(a, &e);
  return as_float(vt_f32_pack(neg, e, m, dir));
}

// |x| rounded to an integer in direction dir (for the sign neg); *big when it is 2^64 or
// more (or infinite; the caller handles NaN).
VT_CORE ulong vt_f64_integral_magnitude(ulong a, int neg, int dir, int* big) {
  *big = a >= 0x43f0000000000000ul;  // 2^64
  if (*big || a == 0) return 0;
  int e;
  ulong m = vt_f64_unpack(a, &e);
  if (e >= 0) return m << e;
  ulong rem;
  ulong q = vt_shift_out(m, -e, &rem);
  return q + (ulong)vt_round_up(q, rem, -e, neg, dir);
}

// x rounded to an integral double in direction dir (floor, ceil, trunc, rint, round).
VT_CORE ulong vt_f64_round_integral(ulong b, int dir) {
  ulong a = b & VT_F64_MAGNITUDE;
  if (a > VT_F64_INF) return VT_F64_QNAN;
  if (a >= 0x4330000000000000ul) return b;  // 2^52 or more, infinity: already integral
  int big;
  ulong q = vt_f64_integral_magnitude(a, (int)(b >> 63), dir, &big);
  return (b & VT_F64_SIGN) | vt_f64_pack(0, 0, q, 2);
}

// x rounded in direction dir to a signed integer in [lo, hi]: outside it clamps, NaN
// gives nan_value (RISC-V's fcvt.w.d/fcvt.l.d give hi, convert_*_sat gives 0).
VT_CORE long vt_f64_to_signed(ulong b, int dir, long lo, long hi, long nan_value) {
  ulong a = b & VT_F64_MAGNITUDE;
  if (a > VT_F64_INF) return nan_value;
  int neg = (int)(b >> 63), big;
  ulong q = vt_f64_integral_magnitude(a, neg, dir, &big);
  if (neg) return big || q > 0ul - (ulong)lo ? lo : (long)(0ul - q);
  return big || q > (ulong)hi ? hi : (long)q;
}

VT_CORE ulong vt_f64_to_unsigned(ulong b, int dir, ulong hi, ulong nan_value) {
  ulong a = b & VT_F64_MAGNITUDE;
  if (a > VT_F64_INF) return nan_value;
  int neg = (int)(b >> 63), big;
  ulong q = vt_f64_integral_magnitude(a, neg, dir, &big);
  if (neg) return 0ul;
  return big || q > hi ? hi : q;
}

// Integers to double in direction dir (32-bit ones are exact).
VT_CORE ulong vt_long_to_f64(long x, int dir) {
  return vt_f64_pack(x < 0, 0, x < 0 ? 0ul - (ulong)x : (ulong)x, dir);
}
VT_CORE ulong vt_ulong_to_f64(ulong x, int dir) {
  return vt_f64_pack(0, 0, x, dir);
}
