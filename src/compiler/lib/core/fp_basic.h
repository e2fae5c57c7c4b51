// Exact float operations: rounding to integers, exponent manipulation, remainders,
// min/max by magnitude. All results are exact (0 ulp), computed with integer and bit
// arithmetic because the device has no rounding-mode conversions of its own.
#pragma once
#include "base.h"

// The operations the device has as instructions (llvm.fabs/copysign/maxnum/minnum/fma).
VT_CORE float vt_fabs(float x) {
  return __builtin_fabsf(x);
}
VT_CORE float vt_copysign(float x, float y) {
  return __builtin_copysignf(x, y);
}
VT_CORE float vt_fmax(float x, float y) {
  return __builtin_fmaxf(x, y);
}  // NaN loses
VT_CORE float vt_fmin(float x, float y) {
  return __builtin_fminf(x, y);
}
VT_CORE float vt_fma(float a, float b, float c) {
  return __builtin_fmaf(a, b, c);
}

VT_CORE float vt_trunc(float x) {
  uint u = as_uint(x);
  int e = (int)((u >> 23) & 0xff) - 127;
  if (e >= 23) return x;  // integral already, or inf/NaN
  if (e < 0) return as_float(u & 0x80000000u);
  return as_float(u & ~(0x007fffffu >> e));
}

VT_CORE float vt_floor(float x) {
  float t = vt_trunc(x);
  return t > x ? t - 1.0f : t;  // only for negative non-integers; t - 1 is exact
}

VT_CORE float vt_ceil(float x) {
  float t = vt_trunc(x);
  return t < x ? t + 1.0f : t;
}

// Round to nearest, ties to even, independent of any rounding mode: adding and removing
// 2^23 leaves the integer the addition rounded to (the device always rounds to nearest).
VT_CORE float vt_rint(float x) {
  float a = __builtin_fabsf(x);
  if (!(a < 0x1p23f)) return x;  // integral already, or inf/NaN
  float r = (a + 0x1p23f) - 0x1p23f;
  return __builtin_copysignf(r, x);
}

// Round half away from zero.
VT_CORE float vt_round(float x) {
  float t = vt_trunc(x);
  if (__builtin_fabsf(x - t) >= 0.5f) t += __builtin_copysignf(1.0f, x);
  return t;
}

// x * 2^n, rounded once (the scaling is split so that no step but the last rounds).
VT_CORE float vt_ldexp(float x, int n) {
  if (n > 127) {
    x *= 0x1p127f;
    n -= 127;
    if (n > 127) {
      x *= 0x1p127f;
      n -= 127;
      if (n > 127) n = 127;
    }
  } else if (n < -126) {
    // 2^-126 * 2^24 keeps a normal x normal, so only the final product rounds.
    x *= 0x1p-102f;
    n += 102;
    if (n < -126) {
      x *= 0x1p-102f;
      n += 102;
      if (n < -126) n = -126;
    }
  }
  return x * vt_pow2i(n);
}

VT_CORE float vt_frexp(float x, int* e) {
  uint u = as_uint(x);
  int ex = (int)((u >> 23) & 0xff);
  if (ex == 0xff || (u << 1) == 0) {  // inf, NaN, zero
    *e = 0;
    return x;
  }
  int bias = 126;
  if (ex == 0) {  // subnormal: scaling by 2^24 is exact
    u = as_uint(x * 0x1p24f);
    ex = (int)((u >> 23) & 0xff);
    bias += 24;
  }
  *e = ex - bias;
  return as_float((u & 0x807fffffu) | 0x3f000000u);
}

// The unbiased exponent as an integer, subnormals included.
VT_CORE int vt_ilogb(float x) {
  uint u = as_uint(x) & 0x7fffffffu;
  if (u == 0) return (int)0x80000000u;                  // FP_ILOGB0 = INT_MIN
  if (u >= 0x7f800000u) return 0x7fffffff;              // inf: INT_MAX; NaN: FP_ILOGBNAN = INT_MAX
  if (u < 0x00800000u) return -118 - (int)vt_clz32(u);  // subnormal: -127 - (clz - 9)
  return (int)(u >> 23) - 127;
}

VT_CORE float vt_logb(float x) {
  float a = __builtin_fabsf(x);
  if (a == 0.0f) return -VT_INF;
  if (!(a < VT_INF)) return a;  // +inf for +-inf, NaN stays NaN
  return (float)vt_ilogb(x);
}

VT_CORE float vt_nextafter(float x, float y) {
  if (vt_isnan(x) || vt_isnan(y)) return x + y;
  if (x == y) return y;
  uint u = as_uint(x);
  if ((u << 1) == 0) return __builtin_copysignf(as_float(1u), y);  // smallest subnormal towards y
  // Away from zero when y is further out on the same side.
  if ((x < y) == (x > 0.0f))
    u += 1;
  else
    u -= 1;
  return as_float(u);
}

VT_CORE float vt_fdim(float x, float y) {
  if (vt_isnan(x) || vt_isnan(y)) return x + y;
  return x > y ? x - y : 0.0f;
}

VT_CORE float vt_maxmag(float x, float y) {
  float ax = __builtin_fabsf(x), ay = __builtin_fabsf(y);
  if (ax > ay) return x;
  if (ay > ax) return y;
  return __builtin_fmaxf(x, y);
}

VT_CORE float vt_minmag(float x, float y) {
  float ax = __builtin_fabsf(x), ay = __builtin_fabsf(y);
  if (ax < ay) return x;
  if (ay < ax) return y;
  return __builtin_fminf(x, y);
}

VT_CORE float vt_nan(uint code) {
  return as_float(0x7fc00000u | (code & 0x003fffffu));
}

// Splits the bits of a finite nonzero |x| into a 24-bit integer significand (bit 23 set)
// and the unbiased exponent e: |x| = m * 2^(e - 23), subnormals included.
VT_CORE uint vt_significand(uint ua, int* e) {
  int ex = (int)(ua >> 23);
  uint m = ua & 0x007fffffu;
  if (ex == 0) {  // subnormal: normalize with a shift
    int s = (int)vt_clz32(m) - 8;
    m <<= s;
    *e = -126 - s;
    return m;
  }
  *e = ex - 127;
  return m | 0x00800000u;
}

// Core of fmod/remainder/remquo on finite x, nonzero finite y: the remainder of
// |x| / |y| truncated (nearest = 0) or rounded to nearest-even (nearest = 1), with the low
// 7 bits of the integer quotient's magnitude in *quo. The result is exact (a remainder is
// always representable), computed by long division on the 24-bit significands eight
// quotient bits at a time (32-bit urem only).
VT_CORE float vt_rem_core(float x, float y, int nearest, int* quo) {
  uint ux = as_uint(x) & 0x7fffffffu, uy = as_uint(y) & 0x7fffffffu;
  float ax = as_float(ux), ay = as_float(uy);
  uint q = 0;
  float r;
  if (ux < uy) {
    r = ax;
    // |x| < |y|: quotient 0, or 1 when rounding and |x| > |y| / 2 (ties go to the even 0).
    if (nearest && ax + ax > ay) {  // ax + ax is exact unless it overflows to inf, still right
      r = ay - ax;                  // exact: |y|/2 < |x| < |y|
      q = 1;
      r = -r;
    }
  } else {
    int ex, ey;
    uint mx = vt_significand(ux, &ex);
    uint my = vt_significand(uy, &ey);
    int d = ex - ey;  // >= 0
    uint rm = mx % my;
    q = mx / my;
    while (d > 0) {
      int s = d < 8 ? d : 8;
      rm <<= s;  // rm < 2^24, so rm << 8 fits
      q = (q << s) | (rm / my);
      rm = rm % my;
      d -= s;
    }
    if (nearest) {
      uint twice = rm << 1;  // < 2^25
      if (twice > my || (twice == my && (q & 1))) {
        rm = my - rm;
        q += 1;
        r = -vt_ldexp((float)rm, ey - 23);
      } else {
        r = vt_ldexp((float)rm, ey - 23);
      }
    } else {
      r = vt_ldexp((float)rm, ey - 23);
    }
  }
  *quo = (int)(q & 0x7f);
  // The remainder has the sign of x (a zero result too).
  return vt_signbit(x) ? -r : r;
}

VT_CORE float vt_fmod(float x, float y) {
  if (vt_isnan(x) || vt_isnan(y) || vt_isinf(x) || y == 0.0f) return VT_NAN;
  if (vt_isinf(y)) return x;
  if (x == 0.0f) return x;
  int q;
  return vt_rem_core(x, y, 0, &q);
}

VT_CORE float vt_remquo(float x, float y, int* quo) {
  *quo = 0;
  if (vt_isnan(x) || vt_isnan(y) || vt_isinf(x) || y == 0.0f) return VT_NAN;
  if (vt_isinf(y)) return x;
  if (x == 0.0f) return x;
  int q;
  float r = vt_rem_core(x, y, 1, &q);
  *quo = vt_signbit(x) != vt_signbit(y) ? -q : q;
  return r;
}

VT_CORE float vt_remainder(float x, float y) {
  int q;
  return vt_remquo(x, y, &q);
}

// fract: min(x - floor(x), 0x1.fffffep-1f), floor in *ip (OpenCL 7.5 rules for specials).
VT_CORE float vt_fract(float x, float* ip) {
  if (vt_isnan(x)) {
    *ip = x;
    return x;
  }
  float f = vt_floor(x);
  *ip = f;
  if (vt_isinf(x) || x == 0.0f) return __builtin_copysignf(0.0f, x);
  // Exact for |x| < 2^23 (0 above); only x in (-2^-24, 0) rounds, up to 1, hence the min.
  return __builtin_fminf(x - f, 0x1.fffffep-1f);
}

// modf as OpenCL defines it: *ip = trunc(x), result copysign(isinf(x) ? 0 : x - *ip, x).
VT_CORE float vt_modf(float x, float* ip) {
  float t = vt_trunc(x);
  *ip = t;
  return __builtin_copysignf(vt_isinf(x) ? 0.0f : x - t, x);
}
