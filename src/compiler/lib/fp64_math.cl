// The OpenCL C math library for double (s6.15.2 with cl_khr_fp64) within OpenCL 1.2's
// ULP bounds for double. The building blocks work in double-double (a value as hi + lo,
// made exact with the device's fused multiply-add): log_dd gives ln x to about 2^-100,
// exp_dd takes its argument as hi + lo, so pow, exp2, exp10, rootn, cbrt and tgamma
// round once at the end. Argument reduction for sin/cos/tan: Cody-Waite with pi/2 in
// four parts below 2^20 * pi/2, Payne-Hanek with 2/pi to 1536 bits above. Polynomials
// are Taylor series with enough terms (coefficients generated from exact fractions), so
// every function's error is bounded by its rounding steps. Edge cases follow C99
// Annex F, as OpenCL asks. Constants were computed at 400 digits (the generator's
// sums are in the comments of docs/builtins.md).
#include "core/fp64.h"
#include "core/vector.h"

// clang-format off
#define VT_D_PIO2_1 0x1.921fb54400000p+0
#define VT_D_PIO2_2 0x1.0b4611a600000p-34
#define VT_D_PIO2_3 0x1.3198a2e037073p-69
#define VT_D_PIO2_HI 0x1.921fb54442d18p+0
#define VT_D_PIO2_LO 0x1.1a62633145c07p-54
#define VT_D_PI_HI 0x1.921fb54442d18p+1
#define VT_D_PI_LO 0x1.1a62633145c07p-53
#define VT_D_PIO4_HI 0x1.921fb54442d18p-1
#define VT_D_PIO4_LO 0x1.1a62633145c07p-55
#define VT_D_LN2_HI 0x1.62e42fee00000p-1
#define VT_D_LN2_LO 0x1.a39ef35793c76p-33
#define VT_D_LN2_DD_HI 0x1.62e42fefa39efp-1
#define VT_D_LN2_DD_LO 0x1.abc9e3b39803fp-56
#define VT_D_LN10_HI 0x1.26bb1bbb55516p+1
#define VT_D_LN10_LO -0x1.f48ad494ea3e9p-53
#define VT_D_LOG2E 0x1.71547652b82fep+0
#define VT_D_LOG10E 0x1.bcb7b1526e50ep-2
#define VT_D_LOG10_2 0x1.34413509f79ffp-2
#define VT_D_LOG2E_HI 0x1.71547652b82fep+0
#define VT_D_LOG2E_LO 0x1.777d0ffda0d24p-56
#define VT_D_LOG10E_HI 0x1.bcb7b1526e50ep-2
#define VT_D_LOG10E_LO 0x1.95355baaafad3p-57
#define VT_D_ATAN_HALF_HI 0x1.dac670561bb4fp-2
#define VT_D_ATAN_HALF_LO 0x1.a2b7f222f65e2p-56
#define VT_D_ATAN_1_5_HI 0x1.f730bd281f69bp-1
#define VT_D_ATAN_1_5_LO 0x1.007887af0cbbdp-56
#define VT_D_TWO_OVER_SQRTPI 0x1.20dd750429b6dp+0
#define VT_D_ONE_OVER_SQRTPI 0x1.20dd750429b6dp-1
#define VT_D_HALF_LN_2PI 0x1.d67f1c864beb5p-1
#define VT_D_LNPI 0x1.250d048e7a1bdp+0
__constant uint vt_two_over_pi_words[48] = {0xa2f9836eu, 0x4e441529u, 0xfc2757d1u, 0xf534ddc0u, 0xdb629599u, 0x3c439041u, 0xfe5163abu, 0xdebbc561u, 0xb7246e3au, 0x424dd2e0u, 0x06492eeau, 0x09d1921cu, 0xfe1deb1cu, 0xb129a73eu, 0xe88235f5u, 0x2ebb4484u, 0xe99c7026u, 0xb45f7e41u, 0x3991d639u, 0x835339f4u, 0x9c845f8bu, 0xbdf9283bu, 0x1ff897ffu, 0xde05980fu, 0xef2f118bu, 0x5a0a6d1fu, 0x6d367ecfu, 0x27cb09b7u, 0x4f463f66u, 0x9e5fea2du, 0x7527bac7u, 0xebe5f17bu, 0x3d0739f7u, 0x8a5292eau, 0x6bfb5fb1u, 0x1f8d5d08u, 0x56033046u, 0xfc7b6babu, 0xf0cfbc20u, 0x9af4361du, 0xa9e39161u, 0x5ee61b08u, 0x65991849u, 0x1ac94461u, 0x5c8bb227u, 0x61e200b8u, 0x78cc96cdu, 0xa3811850u};
#define VT_D_PIO2_C1 0x1.921fb54400000p+0
#define VT_D_PIO2_C2 0x1.0b4611a600000p-34
#define VT_D_PIO2_C3 0x1.3198a2e000000p-69
#define VT_D_PIO2_C3T 0x1.b839a252049c1p-104
#define VT_D_EXPM1_TAIL(r) __builtin_fma(r, __builtin_fma(r, __builtin_fma(r, __builtin_fma(r, __builtin_fma(r, __builtin_fma(r, __builtin_fma(r, __builtin_fma(r, __builtin_fma(r, __builtin_fma(r, __builtin_fma(r, __builtin_fma(r, __builtin_fma(r, __builtin_fma(r, __builtin_fma(r, 0x1.952c77030ad4ap-49, 0x1.ae7f3e733b81fp-45), 0x1.ae7f3e733b81fp-41), 0x1.93974a8c07c9dp-37), 0x1.6124613a86d09p-33), 0x1.1eed8eff8d898p-29), 0x1.ae64567f544e4p-26), 0x1.27e4fb7789f5cp-22), 0x1.71de3a556c734p-19), 0x1.a01a01a01a01ap-16), 0x1.a01a01a01a01ap-13), 0x1.6c16c16c16c17p-10), 0x1.1111111111111p-7), 0x1.5555555555555p-5), 0x1.5555555555555p-3), 0x1.0000000000000p-1)
#define VT_D_SIN_TAIL(z) __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, -0x1.761b41316381ap-75, 0x1.71b8ef6dcf572p-66), -0x1.2f49b46814157p-57), 0x1.952c77030ad4ap-49), -0x1.ae7f3e733b81fp-41), 0x1.6124613a86d09p-33), -0x1.ae64567f544e4p-26), 0x1.71de3a556c734p-19), -0x1.a01a01a01a01ap-13), 0x1.1111111111111p-7), -0x1.5555555555555p-3)
#define VT_D_COS_TAIL(z) __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, 0x1.f2cf01972f578p-80, -0x1.0ce396db7f853p-70), 0x1.e542ba4020225p-62), -0x1.6827863b97d97p-53), 0x1.ae7f3e733b81fp-45), -0x1.93974a8c07c9dp-37), 0x1.1eed8eff8d898p-29), -0x1.27e4fb7789f5cp-22), 0x1.a01a01a01a01ap-16), -0x1.6c16c16c16c17p-10), 0x1.5555555555555p-5)
#define VT_D_LOG_TAIL(z) __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, 0x1.2f684bda12f68p-4, 0x1.47ae147ae147bp-4), 0x1.642c8590b2164p-4), 0x1.8618618618618p-4), 0x1.af286bca1af28p-4), 0x1.e1e1e1e1e1e1ep-4), 0x1.1111111111111p-3), 0x1.3b13b13b13b14p-3), 0x1.745d1745d1746p-3), 0x1.c71c71c71c71cp-3), 0x1.2492492492492p-2), 0x1.999999999999ap-2), 0x1.5555555555555p-1)
#define VT_D_ATAN_TAIL(z) __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, -0x1.0410410410410p-6, 0x1.0c9714fbcda3bp-6), -0x1.15b1e5f75270dp-6), 0x1.1f7047dc11f70p-6), -0x1.29e4129e4129ep-6), 0x1.3521cfb2b78c1p-6), -0x1.4141414141414p-6), 0x1.4e5e0a72f0539p-6), -0x1.5c9882b931057p-6), 0x1.6c16c16c16c17p-6), -0x1.7d05f417d05f4p-6), 0x1.8f9c18f9c18fap-6), -0x1.a41a41a41a41ap-6), 0x1.bacf914c1bad0p-6), -0x1.d41d41d41d41dp-6), 0x1.f07c1f07c1f08p-6), -0x1.0842108421084p-5), 0x1.1a7b9611a7b96p-5), -0x1.2f684bda12f68p-5), 0x1.47ae147ae147bp-5), -0x1.642c8590b2164p-5), 0x1.8618618618618p-5), -0x1.af286bca1af28p-5), 0x1.e1e1e1e1e1e1ep-5), -0x1.1111111111111p-4), 0x1.3b13b13b13b14p-4), -0x1.745d1745d1746p-4), 0x1.c71c71c71c71cp-4), -0x1.2492492492492p-3), 0x1.999999999999ap-3), -0x1.5555555555555p-2)
#define VT_D_ASIN_TAIL(z) __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, 0x1.a3f1ef82137eep-10, 0x1.b8d2e5667ce6cp-10), 0x1.cf7dea5b6e830p-10), 0x1.e82be60d9127ep-10), 0x1.018f963c229bfp-9), 0x1.1052bc5fa960ap-9), 0x1.208d3570ae5a6p-9), 0x1.3275586c5f2f0p-9), 0x1.464c0950f7d47p-9), 0x1.5c5f56efaaaabp-9), 0x1.750de64d7d05fp-9), 0x1.90cb77f60c7cep-9), 0x1.b026f57b13b14p-9), 0x1.d3d2a8e0dd67dp-9), 0x1.fcaf8fb6db6dbp-9), 0x1.15ee9d45d1746p-8), 0x1.31683bdef7bdfp-8), 0x1.51ba308d3dcb1p-8), 0x1.782dda12f684cp-8), 0x1.a6863d70a3d71p-8), 0x1.df3bd37a6f4dfp-8), 0x1.12ef3cf3cf3cfp-7), 0x1.3fde50d79435ep-7), 0x1.7a87878787878p-7), 0x1.c99999999999ap-7), 0x1.1c4ec4ec4ec4fp-6), 0x1.6e8ba2e8ba2e9p-6), 0x1.f1c71c71c71c7p-6), 0x1.6db6db6db6db7p-5), 0x1.3333333333333p-4), 0x1.5555555555555p-3)
#define VT_D_STIRLING(w) __builtin_fma(w, __builtin_fma(w, __builtin_fma(w, __builtin_fma(w, __builtin_fma(w, __builtin_fma(w, __builtin_fma(w, __builtin_fma(w, 0x1.6fe96381e0680p-3, -0x1.e4286cb0f5398p-6), 0x1.a41a41a41a41ap-8), -0x1.f6ab0d9993c7dp-10), 0x1.b951e2b18ff23p-11), -0x1.3813813813814p-11), 0x1.a01a01a01a01ap-11), -0x1.6c16c16c16c17p-9), 0x1.5555555555555p-4)
#define VT_D_ERF_SERIES(z) __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, __builtin_fma(z, -0x1.0eef30fa10d2cp-99, 0x1.da7460554e5dbp-95), -0x1.909c9de3a31c5p-90), 0x1.45c0a838efe59p-85), -0x1.fd6bebd65107ap-81), 0x1.7e6b81382cd42p-76), -0x1.13246abce1bddp-71), 0x1.7abd72258fb6ep-67), -0x1.f1b4073b34a68p-63), 0x1.377c2110f2083p-58), -0x1.7271cbe5863ecp-54), 0x1.a173a167fba4dp-50), -0x1.bc6250fb14231p-46), 0x1.bd577e658d020p-42), -0x1.a289ee7e40f74p-38), 0x1.6f448e13e85e1p-34), -0x1.2b67310aa9f3ap-30), 0x1.c2e3054870b38p-27), -0x1.3777c55568ccdp-23), 0x1.87a00187a0018p-20), -0x1.bbd779334ef0bp-17), 0x1.c01c01c01c01cp-14), -0x1.8d3018d3018d3p-11), 0x1.2f684bda12f68p-8), -0x1.8618618618618p-6), 0x1.999999999999ap-4), -0x1.5555555555555p-2), 0x1.0000000000000p+0)
// clang-format on

#define VT_D_INF as_double(VT_F64_INF)
#define VT_D_NAN as_double(VT_F64_QNAN)
#define VT_DD(h, l) ((double2)((h), (l)))

VT_CORE int vt_d_isnan(double x) {
  return (as_ulong(x) & VT_F64_MAGNITUDE) > VT_F64_INF;
}
VT_CORE double vt_d_abs(double x) {
  return as_double(as_ulong(x) & VT_F64_MAGNITUDE);
}
VT_CORE double vt_d_copysign(double x, double s) {
  return as_double((as_ulong(x) & VT_F64_MAGNITUDE) | (as_ulong(s) & VT_F64_SIGN));
}
// x rounded to an integer (nearest even) for |x| < 2^51, and that integer as an int.
VT_CORE double vt_d_round_nearest(double x, int* n) {
  double t = x + 0x1.8p52;
  *n = (int)(uint)as_ulong(t);
  return t - 0x1.8p52;
}

// ---- double-double ----
VT_CORE double2 vt_dd_mul(double a, double b) {
  double p = a * b;
  return VT_DD(p, __builtin_fma(a, b, -p));
}
VT_CORE double2 vt_dd_add(double a, double b) {
  double s = a + b, bb = s - a;
  return VT_DD(s, (a - (s - bb)) + (b - bb));
}
VT_CORE double2 vt_dd_fast_add(double a, double b) {  // |a| >= |b|
  double s = a + b;
  return VT_DD(s, b - (s - a));
}

// x * 2^k, rounded once (musl's scalbn).
VT_CORE double vt_d_scale(double x, int k) {
  if (k > 1023) {
    x *= 0x1p1023;
    k -= 1023;
    if (k > 1023) {
      x *= 0x1p1023;
      k -= 1023;
      if (k > 1023) k = 1023;
    }
  } else if (k < -1022) {
    x *= 0x1p-969;  // 2^-1022 * 2^53: keeps the result normal until the last step
    k += 969;
    if (k < -1022) {
      x *= 0x1p-969;
      k += 969;
      if (k < -1022) k = -1022;
    }
  }
  return x * as_double((ulong)(0x3ff + k) << 52);
}

// ---- exp ----
// e^(hi + lo) for |lo| <= ulp(hi).
VT_CORE double vt_d_exp_dd(double hi, double lo) {
  if (vt_d_isnan(hi)) return hi;
  if (hi > 709.79) return VT_D_INF;
  if (hi < -746.0) return 0.0;
  int k;
  double n = vt_d_round_nearest(hi * VT_D_LOG2E, &k);
  double r = __builtin_fma(-n, VT_D_LN2_HI, hi);  // exact
  r = __builtin_fma(-n, VT_D_LN2_LO, r) + lo;
  double p = __builtin_fma(r * r, VT_D_EXPM1_TAIL(r), r);  // e^r - 1
  return vt_d_scale(1.0 + p, k);
}
VT_CORE double vt_d_expm1_small(double r) {  // |r| <= ln2 / 2 + a little
  return __builtin_fma(r * r, VT_D_EXPM1_TAIL(r), r);
}

// ---- log ----
// ln x as hi + lo for finite x > 0.
VT_CORE double2 vt_d_log_dd(double x) {
  ulong b = as_ulong(x);
  int k = 0;
  if (b < 0x0010000000000000ul) {  // subnormal
    b = as_ulong(x * 0x1p54);
    k = -54;
  }
  k += (int)(b >> 52) - 1023;
  ulong frac = b & 0x000ffffffffffffful;
  double m = as_double(frac | 0x3ff0000000000000ul);  // [1, 2)
  if (m > 0x1.6a09e667f3bcdp0) {                      // sqrt(2): m into [sqrt(1/2), sqrt(2))
    m = as_double(frac | 0x3fe0000000000000ul);
    k += 1;
  }
  double f = m - 1.0;  // exact
  double2 d = vt_dd_fast_add(2.0, f);
  double s = f / d.x;
  double s_lo = (__builtin_fma(-s, d.x, f) - s * d.y) / d.x;
  double z = s * s;
  double tail = s * z * VT_D_LOG_TAIL(z);
  double2 lm = vt_dd_fast_add(2.0 * s, __builtin_fma(2.0, s_lo, tail));
  double kd = (double)k;
  double2 a = vt_dd_mul(kd, VT_D_LN2_DD_HI);
  a.y = __builtin_fma(kd, VT_D_LN2_DD_LO, a.y);
  double2 sum = vt_dd_add(a.x, lm.x);
  return vt_dd_fast_add(sum.x, sum.y + a.y + lm.y);
}

// NaN for x < 0, -inf for 0, +inf for +inf; 0 when none applies (the caller computes).
VT_CORE int vt_d_log_special(double x, double* r) {
  if (vt_d_isnan(x)) {
    *r = x;
    return 1;
  }
  if (x == 0.0) {
    *r = -VT_D_INF;
    return 1;
  }
  if (x < 0.0) {
    *r = VT_D_NAN;
    return 1;
  }
  if (x == VT_D_INF) {
    *r = x;
    return 1;
  }
  return 0;
}

VT_CORE double vt_d_log(double x) {
  double r;
  if (vt_d_log_special(x, &r)) return r;
  double2 l = vt_d_log_dd(x);
  return l.x + l.y;
}
VT_CORE double vt_d_log_scaled(double x, double c_hi, double c_lo) {  // log(x) * c
  double r;
  if (vt_d_log_special(x, &r)) return r;
  double2 l = vt_d_log_dd(x);
  double2 p = vt_dd_mul(l.x, c_hi);
  return p.x + __builtin_fma(l.x, c_lo, __builtin_fma(l.y, c_hi, p.y));
}
VT_CORE double vt_d_log1p(double x) {
  if (vt_d_isnan(x)) return x;
  if (x == -1.0) return -VT_D_INF;
  if (x < -1.0) return VT_D_NAN;
  if (x == VT_D_INF) return x;
  if (vt_d_abs(x) < 0x1p-54) return x;
  double2 u = vt_dd_add(1.0, x);
  double2 l = vt_d_log_dd(u.x);
  return l.x + (l.y + u.y / u.x);
}

VT_CORE double vt_d_exp(double x) {
  return vt_d_exp_dd(x, 0.0);
}
VT_CORE double vt_d_exp_scaled(double x, double c_hi, double c_lo) {  // e^(x * c)
  if (vt_d_isnan(x)) return x;
  double2 p = vt_dd_mul(x, c_hi);
  if (!(vt_d_abs(p.x) < VT_D_INF)) return p.x > 0.0 ? VT_D_INF : 0.0;
  return vt_d_exp_dd(p.x, __builtin_fma(x, c_lo, p.y));
}
VT_CORE double vt_d_expm1(double x) {
  if (vt_d_isnan(x)) return x;
  if (x > 709.79) return VT_D_INF;
  if (x < -36.0) return vt_d_exp(x) - 1.0;
  if (vt_d_abs(x) < 0x1p-54) return x;
  if (vt_d_abs(x) <= 0x1.62e42fefa39efp-2) return vt_d_expm1_small(x);
  int k;
  double n = vt_d_round_nearest(x * VT_D_LOG2E, &k);
  if (k > 52) return vt_d_exp(x) - 1.0;
  double r = __builtin_fma(-n, VT_D_LN2_HI, x);
  r = __builtin_fma(-n, VT_D_LN2_LO, r);
  double e = vt_d_expm1_small(r);
  return vt_d_scale(e, k) + (vt_d_scale(1.0, k) - 1.0);
}

// ---- pow and roots ----
VT_CORE int vt_d_is_integer(double y) {
  return as_ulong(y) == vt_f64_round_integral(as_ulong(y), 0) && vt_d_abs(y) < VT_D_INF;
}
VT_CORE int vt_d_is_odd_integer(double y) {
  if (!vt_d_is_integer(y) || vt_d_abs(y) >= 0x1p53) return 0;
  int big;
  return (int)(vt_f64_integral_magnitude(as_ulong(y) & VT_F64_MAGNITUDE, 0, 0, &big) & 1ul);
}
// |x|^y for finite x != 0, y: e^(y ln|x|) in double-double.
VT_CORE double vt_d_pow_core(double ax, double y) {
  double2 l = vt_d_log_dd(ax);
  double2 p = vt_dd_mul(y, l.x);
  if (!(vt_d_abs(p.x) < VT_D_INF)) return p.x > 0.0 ? VT_D_INF : 0.0;
  return vt_d_exp_dd(p.x, __builtin_fma(y, l.y, p.y));
}
VT_CORE double vt_d_pow(double x, double y) {
  if (y == 0.0 || x == 1.0) return 1.0;
  if (vt_d_isnan(x) || vt_d_isnan(y)) return VT_D_NAN;
  double ax = vt_d_abs(x), ay = vt_d_abs(y);
  int odd = vt_d_is_odd_integer(y);
  if (ay == VT_D_INF) {
    if (ax == 1.0) return 1.0;
    return (ax < 1.0) == (y < 0.0) ? VT_D_INF : 0.0;
  }
  if (x == 0.0) {
    double r = y < 0.0 ? VT_D_INF : 0.0;
    return odd ? vt_d_copysign(r, x) : r;
  }
  if (ax == VT_D_INF) {
    double r = y < 0.0 ? 0.0 : VT_D_INF;
    return odd && x < 0.0 ? -r : r;
  }
  if (x < 0.0 && !vt_d_is_integer(y)) return VT_D_NAN;
  double r = vt_d_pow_core(ax, y);
  return x < 0.0 && odd ? -r : r;
}
VT_CORE double vt_d_powr(double x, double y) {
  if (vt_d_isnan(x) || vt_d_isnan(y) || x < 0.0) return VT_D_NAN;
  double ay = vt_d_abs(y);
  if (x == 0.0) {
    if (y == 0.0) return VT_D_NAN;
    return y < 0.0 ? VT_D_INF : 0.0;
  }
  if (x == VT_D_INF) {
    if (y == 0.0) return VT_D_NAN;
    return y < 0.0 ? 0.0 : VT_D_INF;
  }
  if (x == 1.0) return ay == VT_D_INF ? VT_D_NAN : 1.0;
  if (y == 0.0) return 1.0;
  return vt_d_pow(x, y);
}
VT_CORE double vt_d_rootn(double x, int n) {
  if (n == 0 || vt_d_isnan(x)) return VT_D_NAN;
  int odd = n & 1;
  if (x < 0.0 && !odd) return VT_D_NAN;
  if (x == 0.0) {
    double r = n < 0 ? VT_D_INF : 0.0;
    return odd ? vt_d_copysign(r, x) : r;
  }
  double ax = vt_d_abs(x);
  if (ax == VT_D_INF) {
    double r = n < 0 ? 0.0 : VT_D_INF;
    return vt_d_copysign(r, x);
  }
  double2 l = vt_d_log_dd(ax);
  double dn = (double)n;
  double q = l.x / dn;
  double q_lo = (__builtin_fma(-q, dn, l.x) + l.y) / dn;
  return vt_d_copysign(vt_d_exp_dd(q, q_lo), x);
}
VT_CORE double vt_d_cbrt(double x) {
  if (x == 0.0 || vt_d_isnan(x) || vt_d_abs(x) == VT_D_INF) return x;
  return vt_d_rootn(x, 3);
}
VT_CORE double vt_d_hypot(double x, double y) {
  double a = vt_d_abs(x), b = vt_d_abs(y);
  if (a == VT_D_INF || b == VT_D_INF) return VT_D_INF;
  if (vt_d_isnan(a) || vt_d_isnan(b)) return VT_D_NAN;
  if (a < b) {
    double t = a;
    a = b;
    b = t;
  }
  if (b == 0.0) return a;
  double s = a > 0x1p500 ? 0x1p-600 : a < 0x1p-500 ? 0x1p600 : 1.0;
  a *= s;
  b *= s;
  return __builtin_sqrt(__builtin_fma(a, a, b * b)) / s;
}

// ---- trigonometric ----
// x = n * pi/2 + (r.x + r.y), |r| <= pi/4 (a little more after rounding), for finite x.
VT_CORE ulong vt_d_bits_at(const ulong* acc, int pos) {  // 64 bits from bit pos of acc[]
  int w = pos >> 5, sh = pos & 31;
  ulong lo = acc[w] | (acc[w + 1] << 32);
  return sh ? (lo >> sh) | (acc[w + 2] << (64 - sh)) : lo;
}
VT_CORE double2 vt_d_reduce_large(double a, int* quadrant) {
  ulong b = as_ulong(a);
  int e = (int)(b >> 52) - 1075;  // a = m * 2^e, m with 53 bits
  ulong m = (b & 0x000ffffffffffffful) | 0x0010000000000000ul;
  int i0 = e > 1 ? (e - 2) / 32 : 0;  // earlier words only add multiples of 4
  ulong acc[10];
  for (int k = 0; k < 10; ++k) acc[k] = 0;
  ulong ml = m & 0xfffffffful, mh = m >> 32;
  for (int k = 0; k < 5; ++k) {
    ulong w = vt_two_over_pi_words[i0 + 4 - k];
    ulong t = ml * w;
    acc[k] += t & 0xfffffffful;
    acc[k + 1] += t >> 32;
    t = mh * w;
    acc[k + 1] += t & 0xfffffffful;
    acc[k + 2] += t >> 32;
  }
  for (int k = 0; k < 9; ++k) {
    acc[k + 1] += acc[k] >> 32;
    acc[k] &= 0xfffffffful;
  }
  int point = 32 * (i0 + 5) - e;  // the binary point of x * 2/pi in acc
  int n = (int)(vt_d_bits_at(acc, point) & 3ul);
  ulong f_hi = vt_d_bits_at(acc, point - 64);
  ulong f_lo =
      point >= 128 ? vt_d_bits_at(acc, point - 128) : vt_d_bits_at(acc, 0) << (128 - point);
  double sign = 1.0;
  if (f_hi >> 63) {  // fraction >= 1/2: the next quadrant, fraction - 1
    n += 1;
    sign = -1.0;
    f_lo = 0ul - f_lo;
    f_hi = ~f_hi + (f_lo == 0ul ? 1ul : 0ul);
  }
  *quadrant = n;
  int lead = f_hi ? (int)vt_clz64(f_hi) : 64 + (int)vt_clz64(f_lo);
  if (lead >= 128) return VT_DD(0.0, 0.0);
  // Normalize the 128-bit fraction so that its leading one is bit 127.
  if (lead >= 64) {
    f_hi = f_lo << (lead - 64);
    f_lo = 0;
  } else if (lead > 0) {
    f_hi = (f_hi << lead) | (f_lo >> (64 - lead));
    f_lo <<= lead;
  }
  double hi =
      as_double(vt_ulong_to_f64(f_hi >> 11, 2)) * as_double((ulong)(1023 - 53 - lead) << 52);
  ulong mid = ((f_hi & 0x7fful) << 42) | (f_lo >> 22);
  double lo = as_double(vt_ulong_to_f64(mid, 2)) * as_double((ulong)(1023 - 106 - lead) << 52);
  double rh = hi * VT_D_PIO2_HI;
  double rl =
      __builtin_fma(hi, VT_D_PIO2_HI, -rh) + __builtin_fma(hi, VT_D_PIO2_LO, lo * VT_D_PIO2_HI);
  double2 r = vt_dd_fast_add(rh, rl);
  return r * sign;
}
VT_CORE double2 vt_d_reduce(double x, int* quadrant) {
  double a = vt_d_abs(x);
  double2 r;
  int n;
  if (a <= 0x1.921fb54442d18p-1) {
    *quadrant = 0;
    return VT_DD(x, 0.0);
  }
  if (a < 0x1.921fb54442d18p20) {
    double fn = vt_d_round_nearest(a * 0x1.45f306dc9c883p-1, &n);
    double t = __builtin_fma(-fn, VT_D_PIO2_C1, a);  // exact: fn < 2^20, C1 has 33 bits
    double2 s = vt_dd_add(t, -fn * VT_D_PIO2_C2);
    double2 s2 = vt_dd_add(s.x, -fn * VT_D_PIO2_C3);
    r = vt_dd_fast_add(s2.x, s.y + s2.y - fn * VT_D_PIO2_C3T);
  } else {
    r = vt_d_reduce_large(a, &n);
  }
  if (x < 0.0) {
    r = -r;
    n = -n;
  }
  *quadrant = n;
  return r;
}
VT_CORE double vt_d_ksin(double2 r) {
  double h = r.x, z = h * h;
  return h + __builtin_fma(h * z, VT_D_SIN_TAIL(z), r.y);
}
VT_CORE double vt_d_kcos(double2 r) {
  double h = r.x, z = h * h;
  double hz = 0.5 * z, w = 1.0 - hz;
  return w + (((1.0 - w) - hz) + __builtin_fma(z * z, VT_D_COS_TAIL(z), -h * r.y));
}
VT_CORE double vt_d_sin_q(double2 r, int n) {
  double v = (n & 1) ? vt_d_kcos(r) : vt_d_ksin(r);
  return (n & 2) ? -v : v;
}
VT_CORE double vt_d_cos_q(double2 r, int n) {
  double v = (n & 1) ? vt_d_ksin(r) : vt_d_kcos(r);
  return ((n + 1) & 2) ? -v : v;
}
VT_CORE double vt_d_sin(double x) {
  if (!(vt_d_abs(x) < VT_D_INF)) return VT_D_NAN;
  if (vt_d_abs(x) < 0x1p-27) return x;
  int n;
  double2 r = vt_d_reduce(x, &n);
  return vt_d_sin_q(r, n);
}
VT_CORE double vt_d_cos(double x) {
  if (!(vt_d_abs(x) < VT_D_INF)) return VT_D_NAN;
  int n;
  double2 r = vt_d_reduce(x, &n);
  return vt_d_cos_q(r, n);
}
VT_CORE double vt_d_tan_q(double2 r, int n) {
  double s = vt_d_ksin(r), c = vt_d_kcos(r);
  return (n & 1) ? -c / s : s / c;
}
VT_CORE double vt_d_tan(double x) {
  if (!(vt_d_abs(x) < VT_D_INF)) return VT_D_NAN;
  if (vt_d_abs(x) < 0x1p-27) return x;
  int n;
  double2 r = vt_d_reduce(x, &n);
  return vt_d_tan_q(r, n);
}
// pi * x = n * pi/2 + r exactly in quarter turns: x - n/2 is exact.
VT_CORE double2 vt_d_reduce_pi(double x, int* quadrant) {
  double a = vt_d_abs(x);
  if (a >= 0x1p52) {
    *quadrant = 0;  // an even integer times pi/2... x is an integer: sin 0, cos +-1 below
    int big;
    ulong q = vt_f64_integral_magnitude(as_ulong(a), 0, 0, &big);
    *quadrant = a >= 0x1p53 ? 0 : (int)((q & 1ul) << 1);
    return VT_DD(0.0, 0.0);
  }
  int n;
  double fn = vt_d_round_nearest(2.0 * x, &n);
  double t = x - 0.5 * fn;  // exact, in [-1/4, 1/4]
  *quadrant = n;
  double2 p = vt_dd_mul(t, VT_D_PI_HI);
  return vt_dd_fast_add(p.x, __builtin_fma(t, VT_D_PI_LO, p.y));
}
VT_CORE double vt_d_sinpi(double x) {
  if (!(vt_d_abs(x) < VT_D_INF)) return VT_D_NAN;
  int n;
  double2 r = vt_d_reduce_pi(x, &n);
  if (r.x == 0.0)
    return vt_d_copysign(0.0, x) * ((n & 1) ? 0.0 : 1.0) + ((n & 1) ? ((n & 2) ? -1.0 : 1.0) : 0.0);
  return vt_d_sin_q(r, n);
}
VT_CORE double vt_d_cospi(double x) {
  if (!(vt_d_abs(x) < VT_D_INF)) return VT_D_NAN;
  int n;
  double2 r = vt_d_reduce_pi(x, &n);
  double v = vt_d_cos_q(r, n);
  return v == 0.0 ? 0.0 : v;
}
VT_CORE double vt_d_tanpi(double x) {
  if (!(vt_d_abs(x) < VT_D_INF)) return VT_D_NAN;
  int n;
  double2 r = vt_d_reduce_pi(x, &n);
  if (r.x == 0.0) {
    if (n & 1) return (n & 2) ? -VT_D_INF : VT_D_INF;
    return vt_d_copysign(0.0, x) * ((n & 2) ? -1.0 : 1.0);
  }
  return vt_d_tan_q(r, n);
}

// ---- inverse trigonometric ----
VT_CORE double vt_d_atan_series(double t) {  // |t| <= 7/16
  double z = t * t;
  return __builtin_fma(t * z, VT_D_ATAN_TAIL(z), t);
}
VT_CORE double vt_d_atan(double x) {
  if (vt_d_isnan(x)) return x;
  double a = vt_d_abs(x);
  double r;
  if (a >= 0x1p66) {
    r = VT_D_PIO2_HI + VT_D_PIO2_LO;
  } else if (a < 0x1p-27) {
    return x;
  } else if (a < 0.4375) {
    r = vt_d_atan_series(a);
  } else if (a < 0.6875) {
    double t = (2.0 * a - 1.0) / (2.0 + a);
    r = VT_D_ATAN_HALF_HI + (VT_D_ATAN_HALF_LO + vt_d_atan_series(t));
  } else if (a < 1.1875) {
    double t = (a - 1.0) / (a + 1.0);
    r = VT_D_PIO4_HI + (VT_D_PIO4_LO + vt_d_atan_series(t));
  } else if (a < 2.4375) {
    double t = (a - 1.5) / __builtin_fma(1.5, a, 1.0);
    r = VT_D_ATAN_1_5_HI + (VT_D_ATAN_1_5_LO + vt_d_atan_series(t));
  } else {
    double t = -1.0 / a;
    r = VT_D_PIO2_HI + (VT_D_PIO2_LO + vt_d_atan_series(t));
  }
  return vt_d_copysign(r, x);
}
VT_CORE double vt_d_atan2(double y, double x) {
  if (vt_d_isnan(x) || vt_d_isnan(y)) return VT_D_NAN;
  double ax = vt_d_abs(x), ay = vt_d_abs(y);
  int x_neg = (int)(as_ulong(x) >> 63);
  if (y == 0.0) return x_neg ? vt_d_copysign(VT_D_PI_HI, y) : y;
  if (x == 0.0) return vt_d_copysign(VT_D_PIO2_HI, y);
  if (ax == VT_D_INF) {
    if (ay == VT_D_INF) return vt_d_copysign(x_neg ? 0x1.2d97c7f3321d2p1 : VT_D_PIO4_HI, y);
    return x_neg ? vt_d_copysign(VT_D_PI_HI, y) : vt_d_copysign(0.0, y);
  }
  if (ay == VT_D_INF) return vt_d_copysign(VT_D_PIO2_HI, y);
  double q = ay / ax;
  double z = vt_d_atan(q);
  if (x_neg) z = VT_D_PI_HI - (z - VT_D_PI_LO);
  return vt_d_copysign(z, y);
}
VT_CORE double vt_d_asin_series(double x) {  // |x| <= 1/2
  double z = x * x;
  return __builtin_fma(x * z, VT_D_ASIN_TAIL(z), x);
}
VT_CORE double vt_d_asin(double x) {
  if (vt_d_isnan(x)) return x;
  double a = vt_d_abs(x);
  if (a > 1.0) return VT_D_NAN;
  if (a < 0x1p-27) return x;
  if (a <= 0.5) return vt_d_asin_series(x);
  double s = __builtin_sqrt((1.0 - a) * 0.5);
  double r = VT_D_PIO2_HI - (2.0 * vt_d_asin_series(s) - VT_D_PIO2_LO);
  return vt_d_copysign(r, x);
}
VT_CORE double vt_d_acos(double x) {
  if (vt_d_isnan(x)) return x;
  double a = vt_d_abs(x);
  if (a > 1.0) return VT_D_NAN;
  if (a <= 0.5) return VT_D_PIO2_HI - (vt_d_asin_series(x) - VT_D_PIO2_LO);
  if (x > 0.0) return 2.0 * vt_d_asin_series(__builtin_sqrt((1.0 - x) * 0.5));
  return VT_D_PI_HI - (2.0 * vt_d_asin_series(__builtin_sqrt((1.0 + x) * 0.5)) - VT_D_PI_LO);
}

// ---- hyperbolic ----
VT_CORE double vt_d_sinh(double x) {
  double a = vt_d_abs(x);
  if (vt_d_isnan(x) || a == VT_D_INF || a < 0x1p-28) return x;
  double h;
  if (a < 22.0) {
    double e = vt_d_expm1(a);
    h = a < 1.0 ? 0.5 * (2.0 * e - e * e / (e + 1.0)) : 0.5 * (e + e / (e + 1.0));
  } else if (a < 709.78) {
    h = 0.5 * vt_d_exp(a);
  } else {
    double w = vt_d_exp(0.5 * a);
    h = (0.5 * w) * w;
  }
  return vt_d_copysign(h, x);
}
VT_CORE double vt_d_cosh(double x) {
  double a = vt_d_abs(x);
  if (vt_d_isnan(x)) return x;
  if (a == VT_D_INF) return a;
  if (a < 0x1.62e42fefa39efp-2) {
    double e = vt_d_expm1(a), w = 1.0 + e;
    return 1.0 + (e * e) / (w + w);
  }
  if (a < 22.0) {
    double t = vt_d_exp(a);
    return 0.5 * t + 0.5 / t;
  }
  if (a < 709.78) return 0.5 * vt_d_exp(a);
  double w = vt_d_exp(0.5 * a);
  return (0.5 * w) * w;
}
VT_CORE double vt_d_tanh(double x) {
  double a = vt_d_abs(x);
  if (vt_d_isnan(x) || a < 0x1p-55) return x;
  double t;
  if (a < 1.0) {
    double e = vt_d_expm1(-2.0 * a);
    t = -e / (e + 2.0);
  } else if (a < 22.0) {
    double e = vt_d_expm1(2.0 * a);
    t = 1.0 - 2.0 / (e + 2.0);
  } else {
    t = 1.0;
  }
  return vt_d_copysign(t, x);
}
VT_CORE double vt_d_log_plus_ln2(double a) {  // ln(2a) for large a
  double2 l = vt_d_log_dd(a);
  double2 s = vt_dd_add(l.x, VT_D_LN2_DD_HI);
  return s.x + (s.y + l.y + VT_D_LN2_DD_LO);
}
VT_CORE double vt_d_asinh(double x) {
  double a = vt_d_abs(x);
  if (vt_d_isnan(x) || a == VT_D_INF || a < 0x1p-28) return x;
  double r;
  if (a > 0x1p28)
    r = vt_d_log_plus_ln2(a);
  else if (a > 2.0)
    r = vt_d_log(2.0 * a + 1.0 / (__builtin_sqrt(__builtin_fma(a, a, 1.0)) + a));
  else
    r = vt_d_log1p(a + a * a / (1.0 + __builtin_sqrt(__builtin_fma(a, a, 1.0))));
  return vt_d_copysign(r, x);
}
VT_CORE double vt_d_acosh(double x) {
  if (vt_d_isnan(x)) return x;
  if (x < 1.0) return VT_D_NAN;
  if (x == VT_D_INF) return x;
  if (x > 0x1p28) return vt_d_log_plus_ln2(x);
  if (x > 2.0) return vt_d_log(2.0 * x - 1.0 / (x + __builtin_sqrt(__builtin_fma(x, x, -1.0))));
  double t = x - 1.0;
  return vt_d_log1p(t + __builtin_sqrt(__builtin_fma(t, t, 2.0 * t)));
}
VT_CORE double vt_d_atanh(double x) {
  double a = vt_d_abs(x);
  if (vt_d_isnan(x)) return x;
  if (a > 1.0) return VT_D_NAN;
  if (a == 1.0) return vt_d_copysign(VT_D_INF, x);
  if (a < 0x1p-28) return x;
  double r;
  if (a < 0.5) {
    double t = a + a;
    r = 0.5 * vt_d_log1p(t + t * a / (1.0 - a));
  } else {
    r = 0.5 * vt_d_log1p((a + a) / (1.0 - a));
  }
  return vt_d_copysign(r, x);
}

// ---- error function ----
// erfc(a) for a >= 1: e^(-a^2) / sqrt(pi) times Laplace's continued fraction
// 1 / (a + (1/2) / (a + 1 / (a + (3/2) / ...))), evaluated from a fixed depth.
VT_CORE double vt_d_erfc_cf(double a) {
  if (a > 27.3) return 0.0;
  int depth = a < 1.5 ? 240 : a < 3.0 ? 120 : 60;
  double t = a;
  for (int k = depth; k > 0; --k) t = a + (0.5 * (double)k) / t;
  double2 s = vt_dd_mul(a, a);
  double e = vt_d_exp_dd(-s.x, -s.y);
  return e * VT_D_ONE_OVER_SQRTPI / t;
}
VT_CORE double vt_d_erf(double x) {
  if (vt_d_isnan(x)) return x;
  double a = vt_d_abs(x);
  double r;
  if (a < 1.0)
    return x * VT_D_TWO_OVER_SQRTPI * VT_D_ERF_SERIES(x * x);
  else if (a < 6.0)
    r = 1.0 - vt_d_erfc_cf(a);
  else
    r = 1.0;
  return vt_d_copysign(r, x);
}
VT_CORE double vt_d_erfc(double x) {
  if (vt_d_isnan(x)) return x;
  double a = vt_d_abs(x);
  if (a < 1.0) return 1.0 - vt_d_erf(x);
  if (x > 0.0) return vt_d_erfc_cf(a);
  if (a >= 6.0) return 2.0;
  return 2.0 - vt_d_erfc_cf(a);
}

// ---- gamma ----
// ln Gamma(y) - ((y - 1/2) ln y - y + ln(2 pi)/2) for y >= 10: Stirling's series.
VT_CORE double vt_d_stirling(double y) {
  double w = 1.0 / y;
  return w * VT_D_STIRLING(w * w);
}
// (y - 1/2) ln y - y + ln(2 pi)/2 + series, as hi + lo, for y >= 10.
VT_CORE double2 vt_d_lgamma_large(double y) {
  double2 l = vt_d_log_dd(y);
  double2 ym = vt_dd_add(y, -0.5);
  double2 p = vt_dd_mul(ym.x, l.x);
  p.y = __builtin_fma(ym.x, l.y, __builtin_fma(ym.y, l.x, p.y));
  double2 s = vt_dd_add(p.x, -y);
  s.y += p.y;
  double2 t = vt_dd_add(s.x, VT_D_HALF_LN_2PI + vt_d_stirling(y));
  return vt_dd_fast_add(t.x, t.y + s.y);
}
VT_CORE double vt_d_lgamma_positive(double x) {  // x > 0 finite
  double prod = 1.0, y = x;
  while (y < 10.0) {
    prod *= y;
    y += 1.0;
  }
  double2 g = vt_d_lgamma_large(y);
  if (prod == 1.0) return g.x + g.y;
  return (g.x - vt_d_log(prod)) + g.y;
}
VT_CORE double vt_d_lgamma_r(double x, int* sign) {
  *sign = 1;
  if (vt_d_isnan(x)) return x;
  double a = vt_d_abs(x);
  if (a == VT_D_INF) return VT_D_INF;
  if (x == 0.0) {
    *sign = as_ulong(x) >> 63 ? -1 : 1;
    return VT_D_INF;
  }
  if (x > 0.0) return vt_d_lgamma_positive(x);
  if (vt_d_is_integer(x)) return VT_D_INF;
  double s = vt_d_sinpi(x);
  *sign = s < 0.0 ? -1 : 1;
  if (a < 0x1p-52) return -vt_d_log(a);
  // Gamma(x) Gamma(1 - x) = pi / sin(pi x)
  return VT_D_LNPI - vt_d_log(vt_d_abs(s * x)) - vt_d_lgamma_positive(a);
}
VT_CORE double vt_d_tgamma_positive(double x) {  // x > 0 finite
  if (x > 171.7) return VT_D_INF;
  if (x < 0x1p-1021) return 1.0 / x;
  if (vt_d_is_integer(x) && x <= 23.0) {  // (x - 1)! exactly
    double f = 1.0;
    for (double k = 2.0; k < x; k += 1.0) f *= k;
    return f;
  }
  double prod = 1.0, y = x;
  while (y < 10.0) {
    prod *= y;
    y += 1.0;
  }
  double2 g = vt_d_lgamma_large(y);
  return vt_d_exp_dd(g.x, g.y) / prod;
}
VT_CORE double vt_d_tgamma(double x) {
  if (vt_d_isnan(x)) return x;
  if (x == VT_D_INF) return x;
  if (x == 0.0) return vt_d_copysign(VT_D_INF, x);
  if (x > 0.0) return vt_d_tgamma_positive(x);
  if (x == -VT_D_INF || vt_d_is_integer(x)) return VT_D_NAN;
  double s = vt_d_sinpi(x);
  if (x < -184.0) return vt_d_copysign(0.0, -s);
  // Gamma(x) = -pi / (sin(pi x) x Gamma(-x))
  double g = vt_d_tgamma_positive(-x);
  if (g == VT_D_INF) return vt_d_copysign(0.0, -s);
  return -VT_D_PI_HI / (s * x * g);
}

// ---- exact and bit-level functions ----
// |x| = qm * 2^e exactly (qm < 2^53) for finite nonzero x.
VT_CORE double vt_d_fmod_core(double x, double y, int* quotient, int want_remainder_rounding) {
  double ax = vt_d_abs(x), ay = vt_d_abs(y);
  int ex, ey;
  ulong mx = vt_f64_unpack(as_ulong(ax), &ex);
  ulong my = vt_f64_unpack(as_ulong(ay), &ey);
  ulong q = 0;
  ulong r;
  if (ax < ay) {
    r = mx;
    ey = ex;  // r is x itself, at x's scale
    my = 0;
  } else {
    // Bring both significands to their leading bit at 52 (subnormals included).
    int sx = (int)vt_clz64(mx) - 11, sy = (int)vt_clz64(my) - 11;
    mx <<= sx;
    ex -= sx;
    my <<= sy;
    ey -= sy;
    r = mx;
    for (int i = ex - ey; i > 0; --i) {
      ulong bit = r >= my ? 1ul : 0ul;
      r -= my & (0ul - bit);
      q = (q << 1) | bit;
      r <<= 1;
    }
    ulong bit = r >= my ? 1ul : 0ul;
    r -= my & (0ul - bit);
    q = (q << 1) | bit;
  }
  double rd = as_double(vt_f64_pack(0, ey, r, 2));  // exact
  if (want_remainder_rounding) {
    // IEEE remainder: round the quotient to nearest even.
    double other = ay - rd;
    if (rd > other || (rd == other && (q & 1ul))) {
      rd = -other;
      q += 1;
    }
  }
  *quotient = (int)(q & 0x7ful);
  return vt_d_copysign(1.0, x) * rd;
}
VT_CORE double vt_d_fmod(double x, double y) {
  if (vt_d_isnan(x) || vt_d_isnan(y) || vt_d_abs(x) == VT_D_INF || y == 0.0) return VT_D_NAN;
  if (vt_d_abs(y) == VT_D_INF || x == 0.0) return x;
  int q;
  double r = vt_d_fmod_core(x, y, &q, 0);
  return r == 0.0 ? vt_d_copysign(0.0, x) : r;
}
VT_CORE double vt_d_remquo(double x, double y, int* quo) {
  *quo = 0;
  if (vt_d_isnan(x) || vt_d_isnan(y) || vt_d_abs(x) == VT_D_INF || y == 0.0) return VT_D_NAN;
  if (vt_d_abs(y) == VT_D_INF || x == 0.0) return x;
  int q;
  double r = vt_d_fmod_core(x, y, &q, 1);
  *quo = ((as_ulong(x) ^ as_ulong(y)) >> 63) ? -q : q;
  return r == 0.0 ? vt_d_copysign(0.0, x) : r;
}
VT_CORE double vt_d_frexp(double x, int* e) {
  ulong b = as_ulong(x);
  if (x == 0.0 || vt_d_isnan(x) || vt_d_abs(x) == VT_D_INF) {
    *e = 0;
    return x;
  }
  int bias = 1022;
  if ((b & VT_F64_MAGNITUDE) < 0x0010000000000000ul) {
    b = as_ulong(x * 0x1p54);
    bias += 54;
  }
  *e = (int)((b >> 52) & 0x7ff) - bias;
  return as_double((b & 0x800ffffffffffffful) | 0x3fe0000000000000ul);
}
VT_CORE int vt_d_ilogb(double x) {
  if (vt_d_isnan(x)) return FP_ILOGBNAN;
  if (x == 0.0) return FP_ILOGB0;
  if (vt_d_abs(x) == VT_D_INF) return INT_MAX;
  int e;
  vt_d_frexp(x, &e);
  return e - 1;
}
VT_CORE double vt_d_logb(double x) {
  if (vt_d_isnan(x)) return x;
  if (x == 0.0) return -VT_D_INF;
  if (vt_d_abs(x) == VT_D_INF) return VT_D_INF;
  return (double)vt_d_ilogb(x);
}
VT_CORE double vt_d_modf(double x, double* ip) {
  double t = as_double(vt_f64_round_integral(as_ulong(x), 0));
  *ip = t;
  if (vt_d_abs(x) == VT_D_INF) return vt_d_copysign(0.0, x);
  return vt_d_copysign(x - t, x);
}
VT_CORE double vt_d_fract(double x, double* ip) {
  double f = as_double(vt_f64_round_integral(as_ulong(x), -1));
  *ip = f;
  if (vt_d_isnan(x)) return x;
  if (vt_d_abs(x) == VT_D_INF) return vt_d_copysign(0.0, x);
  return __builtin_fmin(x - f, 0x1.fffffffffffffp-1);
}
VT_CORE double vt_d_nextafter(double x, double y) {
  if (vt_d_isnan(x) || vt_d_isnan(y)) return VT_D_NAN;
  if (x == y) return y;
  if (x == 0.0) return vt_d_copysign(as_double(1ul), y);
  ulong b = as_ulong(x);
  b = (x < y) == (x > 0.0) ? b + 1ul : b - 1ul;
  return as_double(b);
}

// ---- the overloads ----
#define VT_DM1(name, core)                         \
  VT_OVL double name(double x) { return core(x); } \
  VT_V1(double, double, name)
#define VT_DM2(name, core)                                      \
  VT_OVL double name(double x, double y) { return core(x, y); } \
  VT_V2(double, double, double, name)

VT_DM1(exp, vt_d_exp)
VT_CORE double vt_d_exp2(double x) {
  return vt_d_exp_scaled(x, VT_D_LN2_DD_HI, VT_D_LN2_DD_LO);
}
VT_CORE double vt_d_exp10(double x) {
  return vt_d_exp_scaled(x, VT_D_LN10_HI, VT_D_LN10_LO);
}
VT_DM1(exp2, vt_d_exp2)
VT_DM1(exp10, vt_d_exp10)
VT_DM1(expm1, vt_d_expm1)
VT_DM1(log, vt_d_log)
VT_CORE double vt_d_log2(double x) {
  return vt_d_log_scaled(x, VT_D_LOG2E_HI, VT_D_LOG2E_LO);
}
VT_CORE double vt_d_log10(double x) {
  return vt_d_log_scaled(x, VT_D_LOG10E_HI, VT_D_LOG10E_LO);
}
VT_DM1(log2, vt_d_log2)
VT_DM1(log10, vt_d_log10)
VT_DM1(log1p, vt_d_log1p)
VT_DM1(logb, vt_d_logb)
VT_DM2(pow, vt_d_pow)
VT_DM2(powr, vt_d_powr)
VT_DM1(cbrt, vt_d_cbrt)
VT_DM2(hypot, vt_d_hypot)
VT_CORE double vt_d_rsqrt(double x) {
  return 1.0 / __builtin_sqrt(x);
}
VT_DM1(rsqrt, vt_d_rsqrt)
VT_DM1(sin, vt_d_sin)
VT_DM1(cos, vt_d_cos)
VT_DM1(tan, vt_d_tan)
VT_DM1(sinpi, vt_d_sinpi)
VT_DM1(cospi, vt_d_cospi)
VT_DM1(tanpi, vt_d_tanpi)
VT_DM1(asin, vt_d_asin)
VT_DM1(acos, vt_d_acos)
VT_DM1(atan, vt_d_atan)
VT_DM2(atan2, vt_d_atan2)
VT_CORE double vt_d_asinpi(double x) {
  return vt_d_asin(x) / VT_D_PI_HI;
}
VT_CORE double vt_d_acospi(double x) {
  return vt_d_acos(x) / VT_D_PI_HI;
}
VT_CORE double vt_d_atanpi(double x) {
  return vt_d_atan(x) / VT_D_PI_HI;
}
VT_CORE double vt_d_atan2pi(double y, double x) {
  return vt_d_atan2(y, x) / VT_D_PI_HI;
}
VT_DM1(asinpi, vt_d_asinpi)
VT_DM1(acospi, vt_d_acospi)
VT_DM1(atanpi, vt_d_atanpi)
VT_DM2(atan2pi, vt_d_atan2pi)
VT_DM1(sinh, vt_d_sinh)
VT_DM1(cosh, vt_d_cosh)
VT_DM1(tanh, vt_d_tanh)
VT_DM1(asinh, vt_d_asinh)
VT_DM1(acosh, vt_d_acosh)
VT_DM1(atanh, vt_d_atanh)
VT_DM1(erf, vt_d_erf)
VT_DM1(erfc, vt_d_erfc)
VT_DM1(tgamma, vt_d_tgamma)
VT_CORE double vt_d_lgamma(double x) {
  int s;
  return vt_d_lgamma_r(x, &s);
}
VT_DM1(lgamma, vt_d_lgamma)
VT_DM2(fmod, vt_d_fmod)
VT_CORE double vt_d_remainder(double x, double y) {
  int q;
  return vt_d_remquo(x, y, &q);
}
VT_DM2(remainder, vt_d_remainder)
VT_DM2(nextafter, vt_d_nextafter)
VT_CORE double vt_d_fdim(double x, double y) {
  if (vt_d_isnan(x) || vt_d_isnan(y)) return VT_D_NAN;
  return x > y ? x - y : 0.0;
}
VT_DM2(fdim, vt_d_fdim)
VT_CORE double vt_d_maxmag(double x, double y) {
  double ax = vt_d_abs(x), ay = vt_d_abs(y);
  return ax > ay ? x : ay > ax ? y : __builtin_fmax(x, y);
}
VT_CORE double vt_d_minmag(double x, double y) {
  double ax = vt_d_abs(x), ay = vt_d_abs(y);
  return ax < ay ? x : ay < ax ? y : __builtin_fmin(x, y);
}
VT_DM2(maxmag, vt_d_maxmag)
VT_DM2(minmag, vt_d_minmag)

VT_OVL int ilogb(double x) {
  return vt_d_ilogb(x);
}
VT_V1(int, double, ilogb)
VT_OVL double ldexp(double x, int n) {
  return vt_d_scale(x, n);
}
VT_V2(double, double, int, ldexp)
VT_V2S(double, double, int, ldexp)
VT_OVL double pown(double x, int n) {
  return vt_d_pow(x, (double)n);
}
VT_V2(double, double, int, pown)
VT_OVL double rootn(double x, int n) {
  return vt_d_rootn(x, n);
}
VT_V2(double, double, int, rootn)
VT_OVL double nan(ulong c) {
  return as_double(VT_F64_QNAN | (c & 0x0007fffffffffffful));
}
VT_V1(double, ulong, nan)

VT_OVL double fract(double x, __private double* p) {
  return vt_d_fract(x, p);
}
VT_VP1(double, double, double, fract)
VT_OVL double modf(double x, __private double* p) {
  return vt_d_modf(x, p);
}
VT_VP1(double, double, double, modf)
VT_OVL double sincos(double x, __private double* p) {
  if (!(vt_d_abs(x) < VT_D_INF)) {
    *p = VT_D_NAN;
    return VT_D_NAN;
  }
  int n;
  double2 r = vt_d_reduce(x, &n);
  *p = vt_d_cos_q(r, n);
  return vt_d_abs(x) < 0x1p-27 ? x : vt_d_sin_q(r, n);
}
VT_VP1(double, double, double, sincos)
VT_OVL double frexp(double x, __private int* p) {
  return vt_d_frexp(x, p);
}
VT_VP1(double, double, int, frexp)
VT_OVL double lgamma_r(double x, __private int* p) {
  return vt_d_lgamma_r(x, p);
}
VT_VP1(double, double, int, lgamma_r)
VT_OVL double remquo(double x, double y, __private int* p) {
  return vt_d_remquo(x, y, p);
}
VT_VP2(double, double, int, remquo)
