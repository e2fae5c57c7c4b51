// binary16 <-> float and double as bit patterns, in every rounding mode: vload_half and
// vstore_half (vload.cl) and the conversions of half arithmetic (fp16.cl, cl_khr_fp16).
#pragma once

#include "core/base.h"
#include "core/fp64.h"

// binary16 bits -> float, exact (subnormals, infinities and NaN payloads included).
VT_CORE float vt_half_to_float(ushort h) {
  uint sign = (uint)(h & 0x8000u) << 16;
  uint e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
  if (e == 0) return as_float(sign | as_uint((float)m * 0x1p-24f));  // zero, subnormal
  if (e == 31) return as_float(sign | 0x7f800000u | (m << 13));      // inf, NaN
  return as_float(sign | ((e + 112) << 23) | (m << 13));
}

// float -> binary16 bits, rounded in `mode`: 0 nearest even, 1 toward zero, 2 up, 3 down.
VT_CORE ushort vt_float_to_half(float f, int mode) {
  uint u = as_uint(f);
  uint sign = (u >> 16) & 0x8000u;
  uint a = u & 0x7fffffffu;
  if (a > 0x7f800000u) return (ushort)(sign | 0x7e00u | ((a >> 13) & 0x3ffu));  // quiet NaN
  int neg = sign != 0;
  // Overflow: infinity when rounding goes away from zero, else the largest finite 65504.
  int to_inf = mode == 0 || (mode == 2 && !neg) || (mode == 3 && neg);
  if (a >= 0x47800000u) {  // |f| >= 65536 (and infinities)
    if (a == 0x7f800000u || to_inf) return (ushort)(sign | 0x7c00u);
    return (ushort)(sign | 0x7bffu);
  }
  int e = (int)(a >> 23) - 127;
  uint m = (a & 0x007fffffu) | 0x00800000u;
  if (a < 0x00800000u) {  // float subnormal: far below the half subnormals
    e = -126;
    m = a;
  }
  // Keep 11 significant bits for a normal half, fewer for a subnormal one.
  int shift = e >= -14 ? 13 : 13 + (-14 - e);
  if (shift > 25) shift = 25;
  uint q = m >> shift;
  uint rem = m & ((1u << shift) - 1u);
  uint halfway = 1u << (shift - 1);
  // Exponent field + significand (the implicit bit carries into the exponent).
  uint h = e >= -14 ? ((uint)(e + 14) << 10) + q : q;
  int inc;
  if (mode == 0)
    inc = rem > halfway || (rem == halfway && (q & 1u));
  else if (mode == 1)
    inc = 0;
  else if (mode == 2)
    inc = !neg && rem != 0;
  else
    inc = neg && rem != 0;
  h += (uint)inc;  // a carry rounds into the next binade, or to infinity
  return (ushort)(sign | h);
}

// The value to store as binary16 bits: floats by vt_float_to_half, doubles rounded once
// from their bits (a double -> float -> half path would round twice).
static inline __attribute__((overloadable)) ushort vt_to_half(float f, int mode) {
  return vt_float_to_half(f, mode);
}
static inline __attribute__((overloadable)) ushort vt_to_half(double d, int mode) {
  ulong b = as_ulong(d);
  ushort sign = (ushort)((b >> 48) & 0x8000u);
  ulong a = b & VT_F64_MAGNITUDE;
  if (a > VT_F64_INF) return (ushort)(sign | 0x7e00u | (uint)((a >> 42) & 0x3ffu));  // quiet NaN
  int neg = sign != 0;
  int dir = mode == 0 ? 2 : mode == 1 ? 0 : mode == 2 ? 1 : -1;
  int to_inf = vt_overflow_to_infinity(neg, dir);
  if (a >= 0x40f0000000000000ul)
    return (ushort)(sign | (a == VT_F64_INF || to_inf ? 0x7c00u : 0x7bffu));  // >= 65536
  if (a == 0) return sign;
  int e;
  ulong m = vt_f64_unpack(a, &e);
  int top = e + 63 - (int)vt_clz64(m);
  int lsb = top - 10 < -24 ? -24 : top - 10;
  int drop = lsb - e;
  ulong q, rem = 0;
  if (drop <= 0)
    q = m << (-drop);
  else
    q = vt_shift_out(m, drop, &rem);
  q += (ulong)vt_round_up(q, rem, drop, neg, dir);
  uint h = ((uint)(lsb + 24) << 10) + (uint)q;
  if (h >= 0x7c00u) return (ushort)(sign | (to_inf ? 0x7c00u : 0x7bffu));
  return (ushort)(sign | h);
}
