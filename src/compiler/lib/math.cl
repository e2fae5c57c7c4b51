// OpenCL C math functions (s6.15.2) for float and float2..16: each scalar form calls its
// core in core/*.h, the vector forms come from core/vector.h. half_* and native_* map to
// the full-precision cores (docs/builtins.md). No double or half variants: the device has
// neither.
#include "core/hyperbolic.h"
#include "core/special.h"
#include "core/vector.h"

#define VT_F1(name, core)             \
  VT_OVL float VT_CL(name)(float x) { \
    return core(x);                   \
  }                                   \
  VT_V1(float, float, VT_CL(name))
#define VT_F2(name, core)                      \
  VT_OVL float VT_CL(name)(float x, float y) { \
    return core(x, y);                         \
  }                                            \
  VT_V2(float, float, float, VT_CL(name))
#define VT_F3(name, core)                               \
  VT_OVL float VT_CL(name)(float x, float y, float z) { \
    return core(x, y, z);                               \
  }                                                     \
  VT_V3(float, float, float, float, VT_CL(name))

VT_F1(acos, vt_acos)
VT_F1(acosh, vt_acosh)
VT_F1(acospi, vt_acospi)
VT_F1(asin, vt_asin)
VT_F1(asinh, vt_asinh)
VT_F1(asinpi, vt_asinpi)
VT_F1(atan, vt_atan)
VT_F2(atan2, vt_atan2)
VT_F1(atanh, vt_atanh)
VT_F1(atanpi, vt_atanpi)
VT_F2(atan2pi, vt_atan2pi)
VT_F1(cbrt, vt_cbrt)
VT_F1(ceil, vt_ceil)
VT_F2(copysign, vt_copysign)
VT_F1(cos, vt_cos)
VT_F1(cosh, vt_cosh)
VT_F1(cospi, vt_cospi)
VT_F1(erfc, vt_erfc)
VT_F1(erf, vt_erf)
VT_F1(exp, vt_exp)
VT_F1(exp2, vt_exp2)
VT_F1(exp10, vt_exp10)
VT_F1(expm1, vt_expm1)
VT_F1(fabs, vt_fabs)
VT_F2(fdim, vt_fdim)
VT_F1(floor, vt_floor)
VT_F3(fma, vt_fma)
VT_F2(fmax, vt_fmax)
VT_V2S(float, float, float, VT_CL(fmax))
VT_F2(fmin, vt_fmin)
VT_V2S(float, float, float, VT_CL(fmin))
VT_F2(fmod, vt_fmod)
VT_F2(hypot, vt_hypot)
VT_F1(lgamma, vt_lgamma)
VT_F1(log, vt_log)
VT_F1(log2, vt_log2)
VT_F1(log10, vt_log10)
VT_F1(log1p, vt_log1p)
VT_F1(logb, vt_logb)
VT_F3(mad, vt_fma)  // any accuracy allowed; fused is one instruction on the device
VT_F2(maxmag, vt_maxmag)
VT_F2(minmag, vt_minmag)
VT_F2(nextafter, vt_nextafter)
VT_F2(pow, vt_pow)
VT_F2(powr, vt_powr)
VT_F2(remainder, vt_remainder)
VT_F1(rint, vt_rint)
VT_F1(round, vt_round)
VT_F1(rsqrt, vt_rsqrt)
VT_F1(sin, vt_sin)
VT_F1(sinh, vt_sinh)
VT_F1(sinpi, vt_sinpi)
VT_F1(sqrt, vt_sqrt)
VT_F1(tan, vt_tan)
VT_F1(tanh, vt_tanh)
VT_F1(tanpi, vt_tanpi)
VT_F1(tgamma, vt_tgamma)
VT_F1(trunc, vt_trunc)

// int ilogb(float), intn ilogb(floatn)
VT_OVL int VT_CL(ilogb)(float x) {
  return vt_ilogb(x);
}
VT_V1(int, float, VT_CL(ilogb))

// floatn ldexp(floatn, intn) and ldexp(floatn, int)
VT_OVL float VT_CL(ldexp)(float x, int n) {
  return vt_ldexp(x, n);
}
VT_V2(float, float, int, VT_CL(ldexp))
VT_V2S(float, float, int, VT_CL(ldexp))

VT_OVL float VT_CL(pown)(float x, int n) {
  return vt_pown(x, n);
}
VT_V2(float, float, int, VT_CL(pown))
VT_OVL float VT_CL(rootn)(float x, int n) {
  return vt_rootn(x, n);
}
VT_V2(float, float, int, VT_CL(rootn))

// nan(uint nancode)
VT_OVL float VT_CL(nan)(uint c) {
  return vt_nan(c);
}
VT_V1(float, uint, VT_CL(nan))

// Functions with a pointer result, in the private, global and local address spaces.
VT_OVL float VT_CL(fract)(float x, __private float* p) {
  return vt_fract(x, p);
}
VT_VP1(float, float, float, VT_CL(fract))
VT_OVL float VT_CL(modf)(float x, __private float* p) {
  return vt_modf(x, p);
}
VT_VP1(float, float, float, VT_CL(modf))
VT_OVL float VT_CL(sincos)(float x, __private float* p) {
  return vt_sincos(x, p);
}
VT_VP1(float, float, float, VT_CL(sincos))
VT_OVL float VT_CL(frexp)(float x, __private int* p) {
  return vt_frexp(x, p);
}
VT_VP1(float, float, int, VT_CL(frexp))
VT_OVL float VT_CL(lgamma_r)(float x, __private int* p) {
  return vt_lgamma_r(x, p);
}
VT_VP1(float, float, int, VT_CL(lgamma_r))
VT_OVL float VT_CL(remquo)(float x, float y, __private int* p) {
  return vt_remquo(x, y, p);
}
VT_VP2(float, float, int, VT_CL(remquo))

// half_* (OpenCL: at most 8192 ulp) and native_* (implementation-defined accuracy): the
// full-precision functions; division, reciprocal and square root are the device's own
// correctly rounded instructions.
VT_CORE float vt_divide(float x, float y) {
  return x / y;
}
VT_CORE float vt_recip(float x) {
  return 1.0f / x;
}
#define VT_HALF_NATIVE(name, core) VT_F1(half_##name, core) VT_F1(native_##name, core)
VT_HALF_NATIVE(cos, vt_cos)
VT_HALF_NATIVE(exp, vt_exp)
VT_HALF_NATIVE(exp2, vt_exp2)
VT_HALF_NATIVE(exp10, vt_exp10)
VT_HALF_NATIVE(log, vt_log)
VT_HALF_NATIVE(log2, vt_log2)
VT_HALF_NATIVE(log10, vt_log10)
VT_HALF_NATIVE(recip, vt_recip)
VT_HALF_NATIVE(rsqrt, vt_rsqrt)
VT_HALF_NATIVE(sin, vt_sin)
VT_HALF_NATIVE(sqrt, vt_sqrt)
VT_HALF_NATIVE(tan, vt_tan)
VT_F2(half_divide, vt_divide)
VT_F2(native_divide, vt_divide)
VT_F2(half_powr, vt_powr)
VT_F2(native_powr, vt_powr)
