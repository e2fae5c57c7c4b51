// Trigonometric functions and their inverses. Arguments are reduced modulo pi/2 with a
// three-part Cody-Waite step below 105615 and an exact Payne-Hanek step (2/pi to 192 bits,
// 32-bit multiplies) above; the kernels are minimax polynomials (scripts/libm_fit.py).
#pragma once
#include "exp_log.h"

// sin r = r + r^3 S(r^2), |r| <= 0.8 (relative error 2^-32.5).
VT_CORE float vt_sin_kernel(float r) {
  float z = r * r;
  float s = __builtin_fmaf(z, 0x1.7a8aa6p-19f, -0x1.a053fap-13f);
  s = __builtin_fmaf(z, s, 0x1.111170p-7f);
  s = __builtin_fmaf(z, s, -0x1.555556p-3f);
  return __builtin_fmaf(r, z * s, r);
}

// cos r = 1 - r^2/2 + r^4 C(r^2), |r| <= 0.8 (relative error 2^-36.9).
VT_CORE float vt_cos_kernel(float r) {
  float z = r * r;
  float c = __builtin_fmaf(z, -0x1.3435d0p-22f, 0x1.a06adap-16f);
  c = __builtin_fmaf(z, c, -0x1.6c1758p-10f);
  c = __builtin_fmaf(z, c, 0x1.555556p-5f);
  c = __builtin_fmaf(z, c, -0.5f);
  return __builtin_fmaf(z, c, 1.0f);
}

// tan r = r + r^3 T(r^2), |r| <= 0.8 (relative error 2^-29.1).
VT_CORE float vt_tan_kernel(float r) {
  float z = r * r;
  float t = __builtin_fmaf(z, 0x1.2c2974p-8f, -0x1.4e34fap-12f);
  t = __builtin_fmaf(z, t, 0x1.6d77a0p-7f);
  t = __builtin_fmaf(z, t, 0x1.5ab798p-6f);
  t = __builtin_fmaf(z, t, 0x1.bb0b9cp-5f);
  t = __builtin_fmaf(z, t, 0x1.110c88p-3f);
  t = __builtin_fmaf(z, t, 0x1.555564p-2f);
  return __builtin_fmaf(r, z * t, r);
}

// Payne-Hanek reduction for finite |x| >= 2^16: x * 2/pi = q + f with the fraction f in
// [-1/2, 1/2]; returns f * pi/2, *q = the integer part mod 4. The product of x's 24-bit
// significand (left-aligned in 32 bits) with 192 bits of 2/pi is exact except for the
// table's truncation, which stays below the 64 fraction bits kept.
VT_CORE float vt_reduce_large(float x, int* q) {
  uint ix = as_uint(x);
  int e = (int)((ix >> 23) & 0xff) - 127;  // 16 .. 127
  uint M = (ix << 8) | 0x80000000u;        // |x| = M * 2^(e - 31)
  // R = M * T, T = 2/pi * 2^192 as words T0 (high) .. T5; R in words r0 (low) .. r6.
  // (r0 itself is never needed: the fraction's lowest bit is in r1 or above.)
  uint r1, r2, r3, r4, r5, r6, c, lo;
  c = VT_MULHU(M, 0x3c439041u);
  lo = M * 0xdb629599u;
  r1 = lo + c;
  c = VT_MULHU(M, 0xdb629599u) + (r1 < lo);
  lo = M * 0xf534ddc0u;
  r2 = lo + c;
  c = VT_MULHU(M, 0xf534ddc0u) + (r2 < lo);
  lo = M * 0xfc2757d1u;
  r3 = lo + c;
  c = VT_MULHU(M, 0xfc2757d1u) + (r3 < lo);
  lo = M * 0x4e441529u;
  r4 = lo + c;
  c = VT_MULHU(M, 0x4e441529u) + (r4 < lo);
  lo = M * 0xa2f9836eu;
  r5 = lo + c;
  r6 = VT_MULHU(M, 0xa2f9836eu) + (r5 < lo);
  // x * 2/pi = R * 2^(e - 223): bit b = 223 - e of R has weight 1, b in [96, 207].
  int b = 223 - e;
  int w = b >> 5, o = b & 31;
  // Words R[w + 1] .. R[w - 2] by selection (no indexed private arrays).
  uint a3 = w == 3 ? r4 : w == 4 ? r5 : w == 5 ? r6 : 0u;
  uint a2 = w == 3 ? r3 : w == 4 ? r4 : w == 5 ? r5 : r6;
  uint a1 = w == 3 ? r2 : w == 4 ? r3 : w == 5 ? r4 : r5;
  uint a0 = w == 3 ? r1 : w == 4 ? r2 : w == 5 ? r3 : r4;
  // Shift right by o (the `<< 1 << (31 - o)` form avoids a shift by 32 when o == 0).
  uint top = (a2 >> o) | ((a3 << 1) << (31 - o));  // bits b .. b+31: integer part
  uint f1 = (a1 >> o) | ((a2 << 1) << (31 - o));   // bits b-32 .. b-1: fraction, high
  uint f0 = (a0 >> o) | ((a1 << 1) << (31 - o));   // bits b-64 .. b-33: fraction, low
  int quad = (int)(top & 3u);
  int neg = 0;
  if (f1 & 0x80000000u) {  // fraction >= 1/2: round the quotient up, fraction = f - 1
    quad += 1;
    neg = 1;
    f0 = 0u - f0;
    f1 = ~f1 + (f0 == 0u ? 1u : 0u);
  }
  // Normalize the 64-bit fraction and convert it to a double-float.
  int lz = 0;
  if (f1 == 0u) {
    f1 = f0;
    f0 = 0u;
    lz = 32;
  }
  int s = (int)vt_clz32(f1);
  if (s > 0) {
    f1 = (f1 << s) | (f0 >> (32 - s));
    f0 <<= s;
  }
  lz += s;
  float scale = vt_pow2i(-32 - lz);  // lz < 64: normal
  float fh = (float)(f1 & 0xffffff00u) * scale;
  float fl = ((float)(f1 & 0xffu) + (float)(f0 >> 8) * 0x1p-24f) * scale;
  // r = (fh + fl) * pi/2 as a double-float, rounded once at the end.
  float rl;
  float rh = vt_two_prod(fh, VT_PIO2_HI, &rl);
  rl += __builtin_fmaf(fh, VT_PIO2_MID, fl * VT_PIO2_HI);
  float r = rh + rl;
  if (neg) r = -r;
  if (ix >> 31) {
    r = -r;
    quad = -quad;
  }
  *q = quad;
  return r;
}

// x = q pi/2 + r, |r| <= pi/4 (slightly more for |x| near the switch-over), finite x.
VT_CORE float vt_reduce(float x, int* q) {
  float a = __builtin_fabsf(x);
  if (a <= VT_PIO4_HI) {
    *q = 0;
    return x;
  }
  if (a < 105615.0f) {
    // j * P1 is exact to 2^-23 and x - j P1 is exact (fma, |result| < 1); the three parts
    // carry pi/2 to 2^-74, enough for |j| < 2^16.
    float j = vt_rint(x * VT_2OPI);
    float r = __builtin_fmaf(-j, VT_PIO2_HI, x);
    r = __builtin_fmaf(-j, VT_PIO2_MID, r);
    r = __builtin_fmaf(-j, VT_PIO2_LO, r);
    *q = (int)j;
    return r;
  }
  return vt_reduce_large(x, q);
}

VT_CORE float vt_sin(float x) {
  if (!vt_isfinite(x)) return x - x;  // NaN for inf and NaN
  if (x == 0.0f) return x;            // the kernel's fma would turn -0 into +0
  int q;
  float r = vt_reduce(x, &q);
  float v = (q & 1) ? vt_cos_kernel(r) : vt_sin_kernel(r);
  return (q & 2) ? -v : v;
}

VT_CORE float vt_cos(float x) {
  if (!vt_isfinite(x)) return x - x;
  int q;
  float r = vt_reduce(x, &q);
  float v = (q & 1) ? vt_sin_kernel(r) : vt_cos_kernel(r);
  return ((q + 1) & 2) ? -v : v;
}

VT_CORE float vt_sincos(float x, float* c) {
  if (!vt_isfinite(x)) {
    *c = x - x;
    return x - x;
  }
  int q;
  float r = vt_reduce(x, &q);
  float s = x == 0.0f ? x : vt_sin_kernel(r), k = vt_cos_kernel(r);
  float sv = (q & 1) ? k : s;
  float cv = (q & 1) ? s : k;
  *c = ((q + 1) & 2) ? -cv : cv;
  return (q & 2) ? -sv : sv;
}

VT_CORE float vt_tan(float x) {
  if (!vt_isfinite(x)) return x - x;
  if (x == 0.0f) return x;
  int q;
  float r = vt_reduce(x, &q);
  float t = vt_tan_kernel(r);
  return (q & 1) ? -1.0f / t : t;
}

// ---- sinpi, cospi, tanpi: exact reduction modulo 1/2 ----

// sin(pi r) = r (pi + r^2 S(r^2)), |r| <= 1/4 (relative error 2^-33.4); pi is split so
// that the leading product r * pi keeps its low part.
VT_CORE float vt_sinpi_kernel(float r) {
  float z = r * r;
  float s = __builtin_fmaf(z, 0x1.443a9ap-4f, -0x1.32adaap-1f);
  s = __builtin_fmaf(z, s, 0x1.466b78p1f);
  s = __builtin_fmaf(z, s, -0x1.4abbcep2f);
  return __builtin_fmaf(r, VT_PI_HI, r * __builtin_fmaf(z, s, VT_PI_LO));
}

// cos(pi r) = 1 + r^2 C(r^2), |r| <= 1/4 (relative error 2^-31.6).
VT_CORE float vt_cospi_kernel(float r) {
  float z = r * r;
  float c = __builtin_fmaf(z, 0x1.831fa2p-4f, 0x1.bba6b6p-3f);
  c = __builtin_fmaf(z, c, -0x1.5591b4p0f);
  c = __builtin_fmaf(z, c, 0x1.03c196p2f);
  c = __builtin_fmaf(z, c, -0x1.3bd3ccp2f);
  return __builtin_fmaf(z, c, 1.0f);
}

// tan(pi r) = r (pi + r^2 T(r^2)), |r| <= 1/4 (relative error 2^-29.2).
VT_CORE float vt_tanpi_kernel(float r) {
  float z = r * r;
  float t = __builtin_fmaf(z, 0x1.ef4f68p16f, -0x1.e8323cp4f);
  t = __builtin_fmaf(z, t, 0x1.916d04p11f);
  t = __builtin_fmaf(z, t, 0x1.3cbe6ep9f);
  t = __builtin_fmaf(z, t, 0x1.4696cap7f);
  t = __builtin_fmaf(z, t, 0x1.466742p5f);
  t = __builtin_fmaf(z, t, 0x1.4abbdap3f);
  return __builtin_fmaf(r, VT_PI_HI, r * __builtin_fmaf(z, t, VT_PI_LO));
}

// |x| = j/2 + r, |r| <= 1/4, for |x| < 2^23; both steps are exact.
VT_CORE float vt_reduce_half(float a, int* j) {
  float jf = vt_rint(a + a);
  *j = (int)jf;
  return a - 0.5f * jf;
}

VT_CORE float vt_sinpi(float x) {
  if (!vt_isfinite(x)) return x - x;
  float a = __builtin_fabsf(x);
  if (a >= 0x1p23f) return __builtin_copysignf(0.0f, x);  // an integer
  int j;
  float r = vt_reduce_half(a, &j);
  float v = (j & 1) ? vt_cospi_kernel(r) : vt_sinpi_kernel(r);
  if (j & 2) v = -v;
  if (v == 0.0f) v = 0.0f;  // sinpi(n) = +0 for n > 0 (the sign follows x below)
  return x < 0.0f || vt_signbit(x) ? -v : v;
}

VT_CORE float vt_cospi(float x) {
  if (!vt_isfinite(x)) return x - x;
  float a = __builtin_fabsf(x);
  if (a >= 0x1p24f) return 1.0f;  // even integer
  if (a >= 0x1p23f) return ((int)a & 1) ? -1.0f : 1.0f;
  int j;
  float r = vt_reduce_half(a, &j);
  float v = (j & 1) ? vt_sinpi_kernel(r) : vt_cospi_kernel(r);
  if ((j + 1) & 2) v = -v;
  return v + 0.0f;  // cospi(n + 1/2) = +0
}

VT_CORE float vt_tanpi(float x) {
  if (!vt_isfinite(x)) return x - x;
  float a = __builtin_fabsf(x);
  float v;
  if (a >= 0x1p23f) {
    // An integer n: +0 for even n, -0 for odd n (before the sign of x).
    v = (a < 0x1p24f && ((int)a & 1)) ? -0.0f : 0.0f;
  } else {
    int j;
    float r = vt_reduce_half(a, &j);
    if (r == 0.0f) {
      // n/2 exactly: even n: +-0, odd n: +-inf, the sign by n/2's parity (OpenCL 7.5).
      if (j & 1)
        v = (j & 2) ? -VT_INF : VT_INF;
      else
        v = (j & 2) ? -0.0f : 0.0f;
    } else {
      float t = vt_tanpi_kernel(r);
      v = (j & 1) ? -1.0f / t : t;
    }
  }
  return vt_signbit(x) ? -v : v;
}

// ---- inverse functions ----

// atan a = a + a^3 P(a^2) on [0, 1] (relative error 2^-31.1).
VT_CORE float vt_atan_kernel(float a) {
  float z = a * a;
  float p = __builtin_fmaf(z, 0x1.29687ep-10f, -0x1.e6a0ecp-8f);
  p = __builtin_fmaf(z, p, 0x1.753040p-6f);
  p = __builtin_fmaf(z, p, -0x1.7080bap-5f);
  p = __builtin_fmaf(z, p, 0x1.150a00p-4f);
  p = __builtin_fmaf(z, p, -0x1.6953bcp-4f);
  p = __builtin_fmaf(z, p, 0x1.c51170p-4f);
  p = __builtin_fmaf(z, p, -0x1.247620p-3f);
  p = __builtin_fmaf(z, p, 0x1.99981cp-3f);
  p = __builtin_fmaf(z, p, -0x1.555552p-2f);
  return __builtin_fmaf(a, z * p, a);
}

VT_CORE float vt_atan(float x) {
  if (vt_isnan(x)) return x + x;
  float a = __builtin_fabsf(x);
  float r;
  if (a <= 1.0f) {
    r = vt_atan_kernel(a);
  } else {
    float t = vt_atan_kernel(1.0f / a);  // 1/inf = 0 gives pi/2
    r = VT_PIO2_HI - (t - VT_PIO2_MID);
  }
  return __builtin_copysignf(r, x);
}

// atan2 and atan2pi share the case analysis; `pi_units` selects the unit of the result.
VT_CORE float vt_atan2_core(float y, float x, int pi_units) {
  if (vt_isnan(x) || vt_isnan(y)) return x + y;
  float ax = __builtin_fabsf(x), ay = __builtin_fabsf(y);
  int xneg = vt_signbit(x);
  // The result as hi - lo_term in the chosen unit: base (0, 1/2, 1 or 1/4, 3/4 turns of pi)
  // plus or minus the atan of the ratio.
  float r;
  if (ay == VT_INF && ax == VT_INF) {
    r = pi_units ? (xneg ? 0.75f : 0.25f) : (xneg ? 0x1.2d97c8p1f : VT_PIO4_HI);
  } else if (ax == VT_INF) {
    r = xneg ? (pi_units ? 1.0f : VT_PI_HI) : 0.0f;
  } else if (ay == VT_INF || (x == 0.0f && y != 0.0f)) {
    r = pi_units ? 0.5f : VT_PIO2_HI;
  } else if (y == 0.0f) {
    r = xneg ? (pi_units ? 1.0f : VT_PI_HI) : 0.0f;
  } else {
    int swap = ay > ax;
    float t = swap ? ax / ay : ay / ax;
    float a = vt_atan_kernel(t);
    if (pi_units) {
      // a / pi as a double-float product, then the base in turns of pi.
      float al = a * VT_INVPI_LO;
      float ah = __builtin_fmaf(a, VT_INVPI_HI, al);
      if (!swap)
        r = xneg ? 1.0f - ah : ah;
      else
        r = xneg ? 0.5f + ah : 0.5f - ah;
    } else {
      if (!swap)
        r = xneg ? VT_PI_HI - (a - VT_PI_LO) : a;
      else
        r = xneg ? VT_PIO2_HI + (a + VT_PIO2_MID) : VT_PIO2_HI - (a - VT_PIO2_MID);
    }
  }
  return __builtin_copysignf(r, y);
}

VT_CORE float vt_atan2(float y, float x) {
  return vt_atan2_core(y, x, 0);
}
VT_CORE float vt_atan2pi(float y, float x) {
  return vt_atan2_core(y, x, 1);
}

VT_CORE float vt_atanpi(float x) {
  if (vt_isnan(x)) return x + x;
  float a = __builtin_fabsf(x);
  float r;
  if (a <= 1.0f) {
    float t = vt_atan_kernel(a);
    r = __builtin_fmaf(t, VT_INVPI_HI, t * VT_INVPI_LO);
  } else {
    float t = vt_atan_kernel(1.0f / a);
    r = 0.5f - __builtin_fmaf(t, VT_INVPI_HI, t * VT_INVPI_LO);
  }
  return __builtin_copysignf(r, x);
}

// asin x = x + x^3 P(x^2) on [0, 1/2] (relative error 2^-27.6).
VT_CORE float vt_asin_poly(float z) {
  float p = __builtin_fmaf(z, 0x1.596d60p-5f, 0x1.8c2d84p-6f);
  p = __builtin_fmaf(z, p, 0x1.747d06p-5f);
  p = __builtin_fmaf(z, p, 0x1.3301fcp-4f);
  p = __builtin_fmaf(z, p, 0x1.5555c8p-3f);
  return z * p;
}

// For |x| > 1/2: asin(s) with s = sqrt((1 - |x|)/2) (<= 1/2), as 2 asin(s) = 2s + tail:
// returns 2s in *twos and the tail (including sqrt's rounding error) as the result.
VT_CORE float vt_asin_far(float ax, float* twos) {
  float z = (1.0f - ax) * 0.5f;  // exact
  float s = __builtin_sqrtf(z);
  // s + sl = sqrt(z) to ~2^-48 (z = 0 for |x| = 1, where the quotient would be 0/0).
  float sl = z > 0.0f ? __builtin_fmaf(-s, s, z) / (s + s) : 0.0f;
  *twos = s + s;
  return 2.0f * __builtin_fmaf(s, vt_asin_poly(z), sl);
}

VT_CORE float vt_asin(float x) {
  float ax = __builtin_fabsf(x);
  if (!(ax <= 1.0f)) return vt_isnan(x) ? x + x : VT_NAN;
  float r;
  if (ax <= 0.5f) {
    r = __builtin_fmaf(ax, vt_asin_poly(ax * ax), ax);
  } else {
    float twos;
    float tail = vt_asin_far(ax, &twos);
    // asin(x) = pi/2 - 2 asin(s)
    r = (VT_PIO2_HI - twos) - (tail - VT_PIO2_MID);
  }
  return __builtin_copysignf(r, x);
}

VT_CORE float vt_acos(float x) {
  float ax = __builtin_fabsf(x);
  if (!(ax <= 1.0f)) return vt_isnan(x) ? x + x : VT_NAN;
  if (ax <= 0.5f) {
    float as = __builtin_fmaf(x, vt_asin_poly(x * x), x);
    return VT_PIO2_HI - (as - VT_PIO2_MID);
  }
  float twos;
  float tail = vt_asin_far(ax, &twos);
  if (x > 0.0f) return twos + tail;              // 2 asin(s)
  return (VT_PI_HI - twos) - (tail - VT_PI_LO);  // pi - 2 asin(s)
}

// asinpi, acospi: the radian result times 1/pi as a double-float constant.
VT_CORE float vt_asinpi(float x) {
  float a = vt_asin(x);
  return __builtin_fmaf(a, VT_INVPI_HI, a * VT_INVPI_LO);
}

VT_CORE float vt_acospi(float x) {
  float a = vt_acos(x);
  return __builtin_fmaf(a, VT_INVPI_HI, a * VT_INVPI_LO);
}
