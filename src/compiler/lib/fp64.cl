// double (cl_khr_fp64): the conversion routines the front end calls for fpext, fptrunc
// and int <-> double casts (lower_fp64_conversion_element in frontend.cpp; the double
// travels as its bits in a ulong), and the builtins whose double forms map to the
// device's binary64 instructions (sqrt, fma, fmin, fmax: llvm.sqrt/fma/minnum/maxnum,
// which the back end selects to the pair forms of vfsqrt/vfmacc/vfmin/vfmax) or to the
// soft-float rounding of core/fp64.h. Like int64.cl: external, plain names,
// always_inline, and no double casts inside (they would call themselves).
#include "core/fp64.h"
#include "core/vector.h"

__attribute__((always_inline)) ulong __vt_f32_to_f64(float x) {
  return vt_f32_to_f64(x);
}
__attribute__((always_inline)) float __vt_f64_to_f32(ulong x) {
  return vt_f64_to_f32(x, 2);
}
__attribute__((always_inline)) ulong __vt_i32_to_f64(int x) {
  return vt_long_to_f64(x, 2);
}
__attribute__((always_inline)) ulong __vt_u32_to_f64(uint x) {
  return vt_ulong_to_f64(x, 2);
}
__attribute__((always_inline)) ulong __vt_i64_to_f64(long x) {
  return vt_long_to_f64(x, 2);
}
__attribute__((always_inline)) ulong __vt_u64_to_f64(ulong x) {
  return vt_ulong_to_f64(x, 2);
}
// Toward zero; out of range and NaN as RISC-V's fcvt.w.d / fcvt.wu.d / fcvt.l.d / fcvt.lu.d.
__attribute__((always_inline)) int __vt_f64_to_i32(ulong x) {
  return (int)vt_f64_to_signed(x, 0, INT_MIN, INT_MAX, INT_MAX);
}
__attribute__((always_inline)) uint __vt_f64_to_u32(ulong x) {
  return (uint)vt_f64_to_unsigned(x, 0, UINT_MAX, UINT_MAX);
}
__attribute__((always_inline)) long __vt_f64_to_i64(ulong x) {
  return vt_f64_to_signed(x, 0, LONG_MIN, LONG_MAX, LONG_MAX);
}
__attribute__((always_inline)) ulong __vt_f64_to_u64(ulong x) {
  return vt_f64_to_unsigned(x, 0, ULONG_MAX, ULONG_MAX);
}

#define VT_D1(name, expr)                       \
  VT_OVL double name(double x) { return expr; } \
  VT_V1(double, double, name)
#define VT_D2(name, expr)                                 \
  VT_OVL double name(double x, double y) { return expr; } \
  VT_V2(double, double, double, name)

VT_D1(sqrt, __builtin_sqrt(x))
VT_D1(fabs, __builtin_fabs(x))
VT_D1(floor, as_double(vt_f64_round_integral(as_ulong(x), -1)))
VT_D1(ceil, as_double(vt_f64_round_integral(as_ulong(x), 1)))
VT_D1(trunc, as_double(vt_f64_round_integral(as_ulong(x), 0)))
VT_D1(rint, as_double(vt_f64_round_integral(as_ulong(x), 2)))
VT_D1(round, as_double(vt_f64_round_integral(as_ulong(x), 3)))
VT_D2(fmin, __builtin_fmin(x, y))
VT_D2(fmax, __builtin_fmax(x, y))
VT_D2(copysign, __builtin_copysign(x, y))
VT_V2S(double, double, double, fmin)
VT_V2S(double, double, double, fmax)

VT_OVL double fma(double a, double b, double c) {
  return __builtin_fma(a, b, c);
}
VT_OVL double mad(double a, double b, double c) {
  return __builtin_fma(a, b, c);
}
VT_V3(double, double, double, double, fma)
VT_V3(double, double, double, double, mad)
