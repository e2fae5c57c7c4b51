// Exponentials, logarithms, powers and roots in binary32 arithmetic with fma. The
// polynomials are minimax fits from scripts/libm_fit.py (its output is quoted where each
// is used); the error budget of each function is in docs/builtins.md, measured by
// tests/compiler/library_accuracy_test.cpp.
#pragma once
#include "fp_basic.h"

// e^r - 1 - r = r^2 q(r) on |r| <= ln 2 (relative error of expm1 2^-28.8).
VT_CORE float vt_expm1_poly(float r) {
  float q = __builtin_fmaf(r, 0x1.530400p-19f, 0x1.a53ad4p-16f);
  q = __builtin_fmaf(r, q, 0x1.a09e6cp-13f);
  q = __builtin_fmaf(r, q, 0x1.6c10a2p-10f);
  q = __builtin_fmaf(r, q, 0x1.111082p-7f);
  q = __builtin_fmaf(r, q, 0x1.55555ap-5f);
  q = __builtin_fmaf(r, q, 0x1.555556p-3f);
  q = __builtin_fmaf(r, q, 0x1.000000p-1f);
  return __builtin_fmaf(r * r, q, r);
}

// e^r - 1 on |r| <= ln2 / 2 (relative error of e^r 2^-30.3).
VT_CORE float vt_exp_poly_m1(float r) {
  float q = __builtin_fmaf(r, 0x1.6b29eap-13f, 0x1.6d463cp-10f);
  q = __builtin_fmaf(r, q, 0x1.11371cp-7f);
  q = __builtin_fmaf(r, q, 0x1.5554f2p-5f);
  q = __builtin_fmaf(r, q, 0x1.55553cp-3f);
  q = __builtin_fmaf(r, q, 0x1.000000p-1f);
  return __builtin_fmaf(r * r, q, r);
}

// e^x * 2^scale for x in [-104, 90] (no NaN): x = k ln2 + r, |r| <= ln2/2. The first fma
// is exact (x and k * ln2_hi are multiples of 2^-24 and |r| < 1/2), the second leaves an
// error far below ulp(r).
VT_CORE float vt_exp_core(float x, int scale) {
  float k = vt_rint(x * VT_LOG2E_HI);
  float r = __builtin_fmaf(-k, VT_LN2_HI, x);
  r = __builtin_fmaf(-k, VT_LN2_LO, r);
  float p = 1.0f + vt_exp_poly_m1(r);
  return vt_ldexp(p, (int)k + scale);
}

VT_CORE float vt_exp(float x) {
  if (vt_isnan(x)) return x + x;
  if (x > 0x1.62e42ep6f) return VT_INF;  // the largest x with e^x below FLT_MAX + ulp/2
  if (x < -104.0f) return 0.0f;          // e^-104 < 2^-150 rounds to +0
  return vt_exp_core(x, 0);
}

// 2^r on |r| <= 1/2: 1 + r q(r) (relative error 2^-28.7).
VT_CORE float vt_exp2_poly(float r) {
  float q = __builtin_fmaf(r, 0x1.710e42p-17f, 0x1.434eaep-13f);
  q = __builtin_fmaf(r, q, 0x1.5dd866p-10f);
  q = __builtin_fmaf(r, q, 0x1.3b2b06p-7f);
  q = __builtin_fmaf(r, q, 0x1.c6b06ep-5f);
  q = __builtin_fmaf(r, q, 0x1.ebfbe0p-3f);
  q = __builtin_fmaf(r, q, 0x1.62e430p-1f);
  return __builtin_fmaf(r, q, 1.0f);
}

VT_CORE float vt_exp2(float x) {
  if (vt_isnan(x)) return x + x;
  if (x >= 128.0f) return VT_INF;
  if (x < -151.0f) return 0.0f;
  float k = vt_rint(x);
  return vt_ldexp(vt_exp2_poly(x - k), (int)k);  // x - k is exact
}

// 2^(h + l) for a double-float exponent (|l| <= ulp(h)): used by pow, pown, powr, rootn.
VT_CORE float vt_exp2_df(float h, float l) {
  if (h > 129.0f) return VT_INF;
  if (h < -160.0f) return 0.0f;
  float k = vt_rint(h);
  float r = (h - k) + l;  // h - k exact
  return vt_ldexp(vt_exp2_poly(r), (int)k);
}

// 10^r on |r| <= log10(2)/2: 1 + r q(r) (relative error 2^-29.2).
VT_CORE float vt_exp10(float x) {
  if (vt_isnan(x)) return x + x;
  if (x > 0x1.344134p5f) return VT_INF;  // the largest x with 10^x below FLT_MAX + ulp/2
  if (x < -46.0f) return 0.0f;
  float k = vt_rint(x * VT_LOG2_10);
  // Exact first step as in vt_exp_core: multiples of 2^-26, |r| < 1/4.
  float r = __builtin_fmaf(-k, VT_LOG10_2_HI, x);
  r = __builtin_fmaf(-k, VT_LOG10_2_LO, r);
  float q = __builtin_fmaf(r, 0x1.6f22bep-4f, 0x1.ab862ap-3f);
  q = __builtin_fmaf(r, q, 0x1.13e31cp-1f);
  q = __builtin_fmaf(r, q, 0x1.2bd4f8p0f);
  q = __builtin_fmaf(r, q, 0x1.04705cp1f);
  q = __builtin_fmaf(r, q, 0x1.53524ep1f);
  q = __builtin_fmaf(r, q, 0x1.26bb1cp1f);
  return vt_ldexp(__builtin_fmaf(r, q, 1.0f), (int)k);
}

VT_CORE float vt_expm1(float x) {
  if (vt_isnan(x)) return x + x;
  if (x > 0x1.62e42ep6f) return VT_INF;
  if (x < -17.4f) return -1.0f;  // e^x < 2^-25: -1 + e^x rounds to -1
  if (x == 0.0f) return x;       // keeps -0 (the polynomial's fma gives +0)
  if (__builtin_fabsf(x) < VT_LN2_HI) return vt_expm1_poly(x);
  // e^x - 1 = 2^k (expm1(r) + 1 - 2^-k); for k >= 1 the sum lies in [0.5, 1.5), for
  // k <= -1 in [-1.3, -1): no cancellation.
  float k = vt_rint(x * VT_LOG2E_HI);
  float r = __builtin_fmaf(-k, VT_LN2_HI, x);
  r = __builtin_fmaf(-k, VT_LN2_LO, r);
  float p = vt_expm1_poly(r);
  int ki = (int)k;
  float t = ki > 24 ? 1.0f : 1.0f - vt_pow2i(-ki);  // exact for -25 <= k <= 24
  return vt_ldexp(p + t, ki);
}

// ---- logarithms ----

// x = 2^k (1 + f) with 1 + f in [sqrt(1/2), sqrt(2)), for finite x > 0 (subnormals too).
VT_CORE float vt_log_reduce(float x, float* kf) {
  uint ix = as_uint(x);
  int k = 0;
  if (ix < 0x00800000u) {
    ix = as_uint(x * 0x1p25f);
    k = -25;
  }
  ix += 0x3f800000u - 0x3f3504f3u;
  k += (int)(ix >> 23) - 127;
  ix = (ix & 0x007fffffu) + 0x3f3504f3u;
  *kf = (float)k;
  return as_float(ix) - 1.0f;  // exact (Sterbenz)
}

// log(1 + f) as hi + *lo for f in [sqrt(1/2) - 1, sqrt(2) - 1], relative error 2^-29.3:
// log1p(f) = 2 atanh(s) = 2s + s R(s^2), s = f / (2 + f), R(z) = 2 atanh(s)/s - 2 (fit
// error 2^-34.2). s is a double-float (2 + f and the quotient's remainders by fma), so
// float rounding only touches s R, about 1% of the result; R's dependence on s's low
// part is its derivative d(s R)/ds ~ 3R.
VT_CORE float vt_log1p_df(float f, float* lo) {
  float d = 2.0f + f;
  float de = (2.0f - d) + f;  // d + de = 2 + f exactly
  float s = f / d;
  float r = __builtin_fmaf(-s, d, f);
  r = __builtin_fmaf(-s, de, r);
  float sl = r / d;  // s + sl = f / (2 + f) to ~2^-48
  float z = s * s;
  float R = __builtin_fmaf(z, 0x1.f13b22p-3f, 0x1.23d3e0p-2f);
  R = __builtin_fmaf(z, R, 0x1.999c26p-2f);
  R = __builtin_fmaf(z, R, 0x1.555554p-1f);
  R = R * z;
  float t = __builtin_fmaf(s, R, __builtin_fmaf(sl, 3.0f * R, sl + sl));
  return vt_fast_two_sum(s + s, t, lo);
}

// log(x) = k ln2 + log1p(f) as hi + *lo, for finite x > 0.
VT_CORE float vt_log_df(float x, float* lo) {
  float k;
  float f = vt_log_reduce(x, &k);
  float l;
  float h = vt_log1p_df(f, &l);
  float kl;
  float kh = vt_two_prod(k, VT_LN2_HI, &kl);
  kl = __builtin_fmaf(k, VT_LN2_LO, kl);
  float e;
  float s = vt_two_sum(kh, h, &e);
  return vt_fast_two_sum(s, e + (kl + l), lo);
}

// log2(x) = k + log1p(f) * log2(e) as hi + *lo, for finite x > 0.
VT_CORE float vt_log2_df(float x, float* lo) {
  float k;
  float f = vt_log_reduce(x, &k);
  float l;
  float h = vt_log1p_df(f, &l);
  float pl;
  float ph = vt_two_prod(h, VT_LOG2E_HI, &pl);
  pl += __builtin_fmaf(h, VT_LOG2E_LO, l * VT_LOG2E_HI);
  float e;
  float s = vt_fast_two_sum(k, ph, &e);  // |k| >= 1 > |ph| unless k == 0
  return vt_fast_two_sum(s, e + pl, lo);
}

// Special values shared by the logarithms: NaN, negative -> NaN, 0 -> -inf, +inf -> +inf.
// Returns 1 when x is special, with the result in *r.
VT_CORE int vt_log_special(float x, float* r) {
  if (x > 0.0f && x < VT_INF) return 0;
  if (x == 0.0f)
    *r = -VT_INF;
  else if (x == VT_INF)
    *r = x;
  else
    *r = vt_isnan(x) ? x + x : VT_NAN;
  return 1;
}

VT_CORE float vt_log(float x) {
  float r, lo;
  if (vt_log_special(x, &r)) return r;
  return vt_log_df(x, &lo);
}

VT_CORE float vt_log2(float x) {
  float r, lo;
  if (vt_log_special(x, &r)) return r;
  return vt_log2_df(x, &lo);
}

VT_CORE float vt_log10(float x) {
  float r;
  if (vt_log_special(x, &r)) return r;
  float k;
  float f = vt_log_reduce(x, &k);
  float l;
  float h = vt_log1p_df(f, &l);
  float pl;
  float ph = vt_two_prod(h, VT_LOG10E_HI, &pl);
  pl += __builtin_fmaf(h, VT_LOG10E_LO, l * VT_LOG10E_HI);
  float kl;
  float kh = vt_two_prod(k, VT_LOG10_2_HI, &kl);
  kl = __builtin_fmaf(k, VT_LOG10_2_LO, kl);
  float e;
  float s = vt_two_sum(kh, ph, &e);
  return s + (e + (kl + pl));
}

VT_CORE float vt_log1p(float x) {
  if (vt_isnan(x)) return x + x;
  if (x <= -1.0f) return x == -1.0f ? -VT_INF : VT_NAN;
  if (x == VT_INF) return x;
  if (__builtin_fabsf(x) < 0x1p-24f) return x;  // x - x^2/2 rounds to x (keeps -0)
  float h, l, c = 0.0f, k = 0.0f;
  if (x >= -0x1.2bec34p-2f && x < 0x1.a82798p-2f) {
    // 1 + x already in [sqrt(1/2), sqrt(2)): f = x exactly.
    h = vt_log1p_df(x, &l);
  } else {
    // u = 1 + x rounded, with its exact rounding error c: log1p(x) = log(u) + c / u.
    float u = vt_two_sum(1.0f, x, &c);
    c = c / u;
    float f = vt_log_reduce(u, &k);
    h = vt_log1p_df(f, &l);
  }
  float kl;
  float kh = vt_two_prod(k, VT_LN2_HI, &kl);
  kl = __builtin_fmaf(k, VT_LN2_LO, kl);
  float e;
  float s = vt_two_sum(kh, h, &e);
  return s + (e + (kl + (l + c)));
}

// ---- powers ----

// Classifies y: 0 not an integer, 1 odd integer, 2 even integer (inf counts as even).
VT_CORE int vt_int_class(float y) {
  float a = __builtin_fabsf(y);
  if (a >= 0x1p24f) return 2;  // every float from 2^24 up is even; inf too
  if (vt_trunc(y) != y) return 0;
  return ((int)a & 1) ? 1 : 2;
}

// |x|^y for finite nonzero x and finite nonzero y with the result's sign ignored:
// 2^(y log2|x|) with log2 and the product as double-floats.
VT_CORE float vt_pow_core(float ax, float y) {
  float ll;
  float lh = vt_log2_df(ax, &ll);
  float wl;
  float wh = vt_two_prod(y, lh, &wl);
  wl = __builtin_fmaf(y, ll, wl);
  return vt_exp2_df(wh, wl);
}

VT_CORE float vt_pow(float x, float y) {
  if (y == 0.0f || x == 1.0f) return 1.0f;
  if (vt_isnan(x) || vt_isnan(y)) return x + y;
  float ax = __builtin_fabsf(x);
  int yc = vt_int_class(y);
  if (vt_isinf(y)) {
    if (ax == 1.0f) return 1.0f;  // pow(-1, +-inf) = 1
    return ((ax < 1.0f) == (y > 0.0f)) ? 0.0f : VT_INF;
  }
  if (x == 0.0f || vt_isinf(x)) {
    // pow(+-0, y) and pow(+-inf, y): magnitude 0 or inf, sign of x only for odd y.
    int big = (x == 0.0f) == (y < 0.0f);
    float r = big ? VT_INF : 0.0f;
    return yc == 1 ? __builtin_copysignf(r, x) : r;
  }
  if (x < 0.0f && yc == 0) return VT_NAN;
  float r = vt_pow_core(ax, y);
  return (x < 0.0f && yc == 1) ? -r : r;
}

VT_CORE float vt_powr(float x, float y) {
  if (vt_isnan(x) || vt_isnan(y)) return x + y;
  if (x < 0.0f) return VT_NAN;
  if (x == 0.0f) return y == 0.0f ? VT_NAN : (y < 0.0f ? VT_INF : 0.0f);
  if (x == VT_INF) return y == 0.0f ? VT_NAN : (y < 0.0f ? 0.0f : VT_INF);
  if (x == 1.0f) return vt_isinf(y) ? VT_NAN : 1.0f;
  if (y == 0.0f) return 1.0f;
  if (vt_isinf(y)) return ((x < 1.0f) == (y > 0.0f)) ? 0.0f : VT_INF;
  return vt_pow_core(x, y);
}

VT_CORE float vt_pown(float x, int n) {
  if (n == 0) return 1.0f;
  if (vt_isnan(x)) return x + x;
  int odd = n & 1;
  if (x == 0.0f || vt_isinf(x)) {
    int big = (x == 0.0f) == (n < 0);
    float r = big ? VT_INF : 0.0f;
    return odd ? __builtin_copysignf(r, x) : r;
  }
  float ax = __builtin_fabsf(x);
  float r;
  if (n >= -0x1000000 && n <= 0x1000000) {
    r = vt_pow_core(ax, (float)n);  // n is exact as a float
  } else {
    // n = nh + nl exactly with nh carrying the high bits: the exponent n log2|x| as a
    // double-float from both parts.
    float nh = (float)(n & ~0xff), nl = (float)(n & 0xff);
    float ll;
    float lh = vt_log2_df(ax, &ll);
    float wl;
    float wh = vt_two_prod(nh, lh, &wl);
    wl = __builtin_fmaf(nl, lh, __builtin_fmaf(nh, ll, wl));
    r = vt_exp2_df(wh, wl);
  }
  return (x < 0.0f && odd) ? -r : r;
}

VT_CORE float vt_rootn(float x, int n) {
  if (n == 0) return VT_NAN;
  if (vt_isnan(x)) return x + x;
  int odd = n & 1;
  if (x < 0.0f && !odd) return VT_NAN;
  if (x == 0.0f) {
    float r = n < 0 ? VT_INF : 0.0f;
    return odd ? __builtin_copysignf(r, x) : r;
  }
  if (vt_isinf(x)) {
    float r = n < 0 ? 0.0f : VT_INF;
    return odd ? __builtin_copysignf(r, x) : r;
  }
  float fn = (float)n;
  float ll;
  float lh = vt_log2_df(__builtin_fabsf(x), &ll);
  // (lh + ll) / n as a double-float: the quotient and its remainder from an fma.
  float wh = lh / fn;
  float wl = (__builtin_fmaf(-wh, fn, lh) + ll) / fn;
  float r = vt_exp2_df(wh, wl);
  return x < 0.0f ? -r : r;
}

// ---- roots and hypot ----

VT_CORE float vt_sqrt(float x) {
  return __builtin_sqrtf(x);
}

VT_CORE float vt_rsqrt(float x) {
  return 1.0f / __builtin_sqrtf(x);
}

VT_CORE float vt_cbrt(float x) {
  if (x == 0.0f || !vt_isfinite(x)) return x + x;
  uint ix = as_uint(x) & 0x7fffffffu;
  int e = 0;
  if (ix < 0x00800000u) {
    ix = as_uint(as_float(ix) * 0x1p24f);
    e = -24;
  }
  e += (int)(ix >> 23) - 127;
  int q = (e + 150) / 3 - 50;  // floor(e / 3) by a non-negative division
  int rem = e - 3 * q;         // 0, 1, 2
  float m = as_float((ix & 0x007fffffu) | ((uint)(127 + rem) << 23));  // [1, 8)
  // Initial guess from the bits (about 6% off), two Newton steps in float (2e-7).
  float y = as_float(as_uint(m) / 3u + 0x2a5137a0u);
  y = y - (y * y * y - m) / (3.0f * y * y);
  y = y - (y * y * y - m) / (3.0f * y * y);
  y = y - (y * y * y - m) / (3.0f * y * y);
  // Final Newton step with the residual y^3 - m computed exactly (double-float cube),
  // which leaves only the rounding of the last addition.
  float y2l;
  float y2 = vt_two_prod(y, y, &y2l);
  float y3l;
  float y3 = vt_two_prod(y2, y, &y3l);
  y3l = __builtin_fmaf(y2l, y, y3l);
  float d = (y3 - m) + y3l;  // y3 - m exact (Sterbenz)
  y = y - d / (3.0f * y2);
  return __builtin_copysignf(y * vt_pow2i(q), x);
}

VT_CORE float vt_hypot(float x, float y) {
  float ax = __builtin_fabsf(x), ay = __builtin_fabsf(y);
  if (ax == VT_INF || ay == VT_INF) return VT_INF;  // even with a NaN (C99 F.9.4.3)
  if (vt_isnan(x) || vt_isnan(y)) return x + y;
  float a = __builtin_fmaxf(ax, ay), b = __builtin_fminf(ax, ay);
  if (b == 0.0f) return a;
  // Scale by a power of two so that a is near 1: no overflow or underflow in the squares
  // that matters, and the scaling is exact.
  int e = vt_ilogb(a);
  a = vt_ldexp(a, -e);
  b = vt_ldexp(b, -e);
  float r = __builtin_sqrtf(__builtin_fmaf(a, a, b * b));
  return vt_ldexp(r, e);
}
