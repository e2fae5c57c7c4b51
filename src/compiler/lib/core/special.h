// Error function and gamma functions.
#pragma once
#include "trig.h"

// erfc a = e^(-a^2) g(t) / (1 + 2a), t = (a - 2) / (a + 2), for 0 <= a <= 10.06
// (g: relative error 2^-25.8 over t in [-1, 0.67]); e^(-a^2) takes a^2 as a double-float.
VT_CORE float vt_erfc_pos(float a) {
  float t = (a - 2.0f) / (a + 2.0f);
  float g = __builtin_fmaf(t, 0x1.289ddep-16f, 0x1.e76766p-14f);
  g = __builtin_fmaf(t, g, 0x1.5f1b72p-13f);
  g = __builtin_fmaf(t, g, -0x1.d2972ep-12f);
  g = __builtin_fmaf(t, g, -0x1.77fff2p-10f);
  g = __builtin_fmaf(t, g, 0x1.4d7cecp-10f);
  g = __builtin_fmaf(t, g, 0x1.1da1e0p-7f);
  g = __builtin_fmaf(t, g, -0x1.0747c8p-7f);
  g = __builtin_fmaf(t, g, -0x1.bc2a1ep-5f);
  g = __builtin_fmaf(t, g, 0x1.4ffa28p-3f);
  g = __builtin_fmaf(t, g, -0x1.5407c4p-3f);
  g = __builtin_fmaf(t, g, -0x1.7bf5ecp-4f);
  g = __builtin_fmaf(t, g, 0x1.46e80ep0f);
  float a2l;
  float a2h = vt_two_prod(a, a, &a2l);
  float e = vt_exp(-a2h);
  e = __builtin_fmaf(-a2l, e, e);  // e^(-a2h - a2l) = e^(-a2h) (1 - a2l)
  return (e * g) / __builtin_fmaf(2.0f, a, 1.0f);
}

VT_CORE float vt_erf(float x) {
  if (vt_isnan(x)) return x + x;
  float a = __builtin_fabsf(x);
  if (a < 1.0f) {
    // erf x = x + x E(x^2), E = erf(x)/x - 1 (relative error 2^-29.9).
    float z = x * x;
    float p = __builtin_fmaf(z, -0x1.25197ap-19f, 0x1.69d79ep-14f);
    p = __builtin_fmaf(z, p, -0x1.a99ddep-11f);
    p = __builtin_fmaf(z, p, 0x1.54833ep-8f);
    p = __builtin_fmaf(z, p, -0x1.b80450p-6f);
    p = __builtin_fmaf(z, p, 0x1.ce2d74p-4f);
    p = __builtin_fmaf(z, p, -0x1.812740p-2f);
    p = __builtin_fmaf(z, p, 0x1.06eba8p-3f);
    return __builtin_fmaf(x, p, x);
  }
  float r = a < 4.0f ? 1.0f - vt_erfc_pos(a) : 1.0f;
  return __builtin_copysignf(r, x);
}

VT_CORE float vt_erfc(float x) {
  if (vt_isnan(x)) return x + x;
  if (x > 0x1.41bbf6p3f) return 0.0f;  // 10.054194...: erfc(x) < 2^-150 above
  if (x < -10.0f) return 2.0f;
  // Near 0 the rounding of 1 + 2x in vt_erfc_pos alone costs an ulp: 1 - erf(x) is exact
  // to half an ulp there (erf(x) < 0.53).
  if (__builtin_fabsf(x) < 0.5f) return 1.0f - vt_erf(x);
  if (x >= 0.0f) return vt_erfc_pos(x);
  return 2.0f - vt_erfc_pos(-x);
}

// Gamma(1 + t) - 1 = t (t - 1) H(t) on [0, 1] (H: relative error 2^-26.3).
VT_CORE float vt_gamma_h(float t) {
  float h = __builtin_fmaf(t, 0x1.499ecep-7f, -0x1.005b6cp-4f);
  h = __builtin_fmaf(t, h, 0x1.6fc1fap-3f);
  h = __builtin_fmaf(t, h, -0x1.4bf9f0p-2f);
  h = __builtin_fmaf(t, h, 0x1.baa200p-2f);
  h = __builtin_fmaf(t, h, -0x1.ec9a40p-2f);
  h = __builtin_fmaf(t, h, 0x1.f98bccp-2f);
  h = __builtin_fmaf(t, h, -0x1.f1a4aap-2f);
  h = __builtin_fmaf(t, h, 0x1.fb8a5ap-2f);
  h = __builtin_fmaf(t, h, -0x1.a5b9a4p-2f);
  return __builtin_fmaf(t, h, 0x1.2788d0p-1f);
}

// Gamma(1 + t) for t in [0, 1].
VT_CORE float vt_gamma_1p(float t) {
  return __builtin_fmaf(t * (t - 1.0f), vt_gamma_h(t), 1.0f);
}

// Gamma(y) * start for y >= 1: start * (y-1)(y-2)...(y-n) Gamma(y - n), y - n in [1, 2);
// the product is a double-float (every y - k is exact), so only the last step rounds.
VT_CORE float vt_gamma_product(float y, float start) {
  float ph = start, pl = 0.0f;
  while (y >= 2.0f) {
    y -= 1.0f;
    float e;
    float h = vt_two_prod(ph, y, &e);
    pl = __builtin_fmaf(pl, y, e);
    ph = h;
  }
  float g = vt_gamma_1p(y - 1.0f);
  return __builtin_fmaf(g, ph, g * pl);
}

VT_CORE float vt_tgamma(float x) {
  if (vt_isnan(x) || x == VT_INF) return x + x;
  if (x == 0.0f) return __builtin_copysignf(VT_INF, x);  // tgamma(+-0) = +-inf
  if (x < 0.0f && vt_trunc(x) == x) return VT_NAN;       // negative integers and -inf
  if (x > 0x1.18521ep5f) return VT_INF;                  // 35.0401: Gamma overflows above
  if (x > 0.0f) {
    if (x < 1.0f) return vt_gamma_1p(x) / x;
    // Near the overflow threshold the product alone would overflow: scale it down.
    if (x > 30.0f) return vt_gamma_product(x, 0x1p-8f) * 0x1p8f;
    return vt_gamma_product(x, 1.0f);
  }
  // Reflection: Gamma(x) = pi / (a sinpi(x) Gamma(a)) with a = -x (exact).
  float a = -x;
  float s = vt_sinpi(x);
  if (a < 1.0f) return VT_PI_HI / (s * vt_gamma_1p(a));  // Gamma(a) = Gamma(1 + a) / a
  if (a > 46.0f) return __builtin_copysignf(0.0f, s);    // |Gamma(x)| < 2^-150
  // Gamma(a) * 2^-64 stays finite for a <= 46, and the quotient then fits as well; only
  // the final scaling rounds (into the subnormals for a > ~38).
  float g = vt_gamma_product(a, 0x1p-64f);
  return (VT_PI_HI / (a * s * g)) * 0x1p-64f;
}

// lgamma for finite x > 0.
VT_CORE float vt_lgamma_pos(float x) {
  if (x < 0.5f) {
    // -log x + log Gamma(1 + x); the second term is in [-0.12, 0].
    return vt_log1p(x * (x - 1.0f) * vt_gamma_h(x)) - vt_log(x);
  }
  if (x < 1.0f) {
    // Gamma(x) - 1 = (1 - x)(1 - x H(x)) / x, accurate near the zero at 1.
    return vt_log1p((1.0f - x) * __builtin_fmaf(-x, vt_gamma_h(x), 1.0f) / x);
  }
  if (x <= 2.0f) {
    float t = x - 1.0f;
    return vt_log1p(t * (t - 1.0f) * vt_gamma_h(t)) + 0.0f;  // lgamma(1) = +0, not -0
  }
  float p = 1.0f;
  float y = x;
  if (x >= 3.0f && x < 8.0f) {
    // Gamma(x) = (x-1)...(y) Gamma(y), y in [2, 3); every x - k is exact.
    while (y >= 3.0f) {
      y -= 1.0f;
      p *= y;
    }
  }
  if (y < 3.0f) {
    // Gamma(2 + t) - 1 = t (1 + (t^2 - 1) H(t)), accurate near the zero at 2.
    float t = y - 2.0f;
    float g = vt_log1p(t * __builtin_fmaf(__builtin_fmaf(t, t, -1.0f), vt_gamma_h(t), 1.0f));
    return p == 1.0f ? g : vt_log(p) + g;
  }
  // Stirling for x >= 8: (x - 1/2)(log x - 1) + log(2 pi)/2 - 1/2 + 1/(12x) - 1/(360x^3) +
  // 1/(1260x^5) - 1/(1680x^7), with log x - 1 and the product as double-floats.
  float ll;
  float lh = vt_log_df(x, &ll);
  if (x > 0x1p100f) return x * (lh - 1.0f);  // the rest is below an ulp; overflows to inf
  float e;
  float dh = vt_two_sum(lh, -1.0f, &e);
  float dl = e + ll;
  float xm = x - 0.5f;
  float pl;
  float ph = vt_two_prod(xm, dh, &pl);
  pl = __builtin_fmaf(xm, dl, pl);
  float ix = 1.0f / x;
  float iz = ix * ix;
  float ser = __builtin_fmaf(iz, -0x1.381382p-11f, 0x1.a01a02p-11f);  // -1/1680, 1/1260
  ser = __builtin_fmaf(iz, ser, -0x1.6c16c2p-9f);                     // -1/360
  ser = __builtin_fmaf(iz, ser, 0x1.555556p-4f);                      // 1/12
  return ph + (pl + __builtin_fmaf(ix, ser, 0x1.acfe3ap-2f));         // log(2 pi)/2 - 1/2
}

VT_CORE float vt_lgamma_r(float x, int* sign) {
  *sign = 1;
  if (vt_isnan(x)) return x + x;
  if (vt_isinf(x)) return VT_INF;
  if (x <= 0.0f && vt_trunc(x) == x) {
    *sign = 0;  // OpenCL: 0 for zero and the negative integers
    return VT_INF;
  }
  if (x > 0.0f) return vt_lgamma_pos(x);
  // Reflection: lgamma(x) = log(pi) - log|x sinpi(x)| - lgamma(-x).
  float a = -x;
  float s = vt_sinpi(x);
  *sign = s < 0.0f ? -1 : 1;
  if (a < 0x1p-20f) return -vt_log(a);  // -log|x| - gamma x: the second term is below an ulp
  float r = vt_log(__builtin_fabsf(x * s));
  return ((VT_LNPI_HI - r) + VT_LNPI_LO) - vt_lgamma_pos(a);
}

VT_CORE float vt_lgamma(float x) {
  int s;
  return vt_lgamma_r(x, &s);
}
