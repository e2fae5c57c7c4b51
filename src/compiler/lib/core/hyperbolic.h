// Hyperbolic functions and their inverses, built on exp/expm1/log/log1p with the
// cancellation-free forms of fdlibm; small arguments use minimax polynomials.
#pragma once
#include "exp_log.h"

// sinh x = x + x^3 P(x^2) on [0, 1] (relative error 2^-32.6).
VT_CORE float vt_sinh_small(float a) {
  float z = a * a;
  float p = __builtin_fmaf(z, 0x1.a777acp-24f, 0x1.59f09ap-19f);
  p = __builtin_fmaf(z, p, 0x1.a069fep-13f);
  p = __builtin_fmaf(z, p, 0x1.1110a8p-7f);
  p = __builtin_fmaf(z, p, 0x1.555556p-3f);
  return __builtin_fmaf(a, z * p, a);
}

VT_CORE float vt_sinh(float x) {
  float a = __builtin_fabsf(x);
  if (!(a < VT_INF)) return x + x;  // +-inf, NaN
  float r;
  if (a < 1.0f) {
    r = vt_sinh_small(a);
  } else if (a < 9.0f) {
    // (e^a - e^-a) / 2 = (t + t / (t + 1)) / 2 with t = expm1(a) >= 1.7: no cancellation.
    float t = vt_expm1(a);
    r = 0.5f * (t + t / (t + 1.0f));
  } else if (a <= 0x1.65a9f8p6f) {  // the largest a with sinh(a) below FLT_MAX + ulp/2
    r = vt_exp_core(a, -1);         // e^-a is below 2^-25 e^a: e^a / 2, one rounding
  } else {
    r = VT_INF;
  }
  return __builtin_copysignf(r, x);
}

VT_CORE float vt_cosh(float x) {
  float a = __builtin_fabsf(x);
  if (!(a < VT_INF)) return a + a;
  if (a < 9.0f) {
    float e = vt_exp(a);
    return 0.5f * (e + 1.0f / e);
  }
  if (a <= 0x1.65a9f8p6f) return vt_exp_core(a, -1);
  return VT_INF;
}

// tanh x = x + x^3 P(x^2) on [0, 0.5626] (relative error 2^-31.6).
VT_CORE float vt_tanh(float x) {
  float a = __builtin_fabsf(x);
  if (vt_isnan(x)) return x + x;
  float r;
  if (a < 0.5625f) {
    float z = a * a;
    float p = __builtin_fmaf(z, -0x1.371536p-11f, 0x1.7b8426p-9f);
    p = __builtin_fmaf(z, p, -0x1.17ea00p-7f);
    p = __builtin_fmaf(z, p, 0x1.64ec60p-6f);
    p = __builtin_fmaf(z, p, -0x1.ba0214p-5f);
    p = __builtin_fmaf(z, p, 0x1.1110a0p-3f);
    p = __builtin_fmaf(z, p, -0x1.555554p-2f);
    r = __builtin_fmaf(a, z * p, a);
  } else if (a < 9.1f) {
    // 1 - 2 / (e^2a + 1); 2 / (t + 2) <= 0.49 here.
    float t = vt_expm1(a + a);
    r = 1.0f - 2.0f / (t + 2.0f);
  } else {
    r = 1.0f;  // 1 - tanh(a) < 2^-25
  }
  return __builtin_copysignf(r, x);
}

VT_CORE float vt_asinh(float x) {
  float a = __builtin_fabsf(x);
  if (!(a < VT_INF)) return x + x;
  float r;
  if (a < 0x1p-12f) {
    return x;  // asinh x = x - x^3/6: below half an ulp
  } else if (a > 0x1p28f) {
    r = vt_log(a) + VT_LN2_HI;  // log(2a) without overflow
  } else if (a > 2.0f) {
    r = vt_log(2.0f * a + 1.0f / (__builtin_sqrtf(__builtin_fmaf(a, a, 1.0f)) + a));
  } else {
    float z = a * a;
    r = vt_log1p(a + z / (1.0f + __builtin_sqrtf(1.0f + z)));
  }
  return __builtin_copysignf(r, x);
}

VT_CORE float vt_acosh(float x) {
  if (!(x >= 1.0f)) return vt_isnan(x) ? x + x : VT_NAN;
  if (x == VT_INF) return x;
  if (x > 0x1p28f) return vt_log(x) + VT_LN2_HI;
  if (x > 2.0f) return vt_log(2.0f * x - 1.0f / (x + __builtin_sqrtf(__builtin_fmaf(x, x, -1.0f))));
  float t = x - 1.0f;  // exact
  return vt_log1p(t + __builtin_sqrtf(__builtin_fmaf(t, t, t + t)));
}

VT_CORE float vt_atanh(float x) {
  float a = __builtin_fabsf(x);
  if (!(a <= 1.0f)) return vt_isnan(x) ? x + x : VT_NAN;
  if (a == 1.0f) return __builtin_copysignf(VT_INF, x);
  if (a < 0x1p-12f) return x;
  float r;
  if (a < 0.5f) {
    float t = a + a;
    r = 0.5f * vt_log1p(t + t * a / (1.0f - a));
  } else {
    r = 0.5f * vt_log1p((a + a) / (1.0f - a));  // 1 - a exact
  }
  return __builtin_copysignf(r, x);
}
