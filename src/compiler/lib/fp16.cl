// half (cl_khr_fp16): the routines the front end calls for the half operations it
// promotes to float (lower_fp16_operations in frontend.cpp; a half travels as its bits in
// a ushort). half -> float is exact, so + - * / and sqrt computed in float and rounded
// once to half are correctly rounded (float's 24-bit significand >= 2 * 11 + 2); fma is
// not, and is computed in double, where the sum is exact. Like fp64.cl: external,
// plain names, always_inline, and no half casts inside (they would call themselves).
#include "core/fp16.h"

__attribute__((always_inline)) float __vt_f16_to_f32(ushort x) {
  return vt_half_to_float(x);
}
__attribute__((always_inline)) ushort __vt_f32_to_f16(float x) {
  return vt_float_to_half(x, 0);
}
__attribute__((always_inline)) ushort __vt_f64_to_f16(ulong x) {
  return vt_to_half(as_double(x), 0);
}
// a * b is exact in double (22 significant bits), and so is a * b + c whenever the result
// is within half's range: |a * b| <= 2^17 then (or the sum overflows half whatever its
// low bits), c's lowest bit is at least 2^-24, so the exact sum has at most 42 bits. One
// rounding of the double to half is then the correctly rounded fma.
__attribute__((always_inline)) ushort __vt_fma_f16(ushort a, ushort b, ushort c) {
  double p = (double)vt_half_to_float(a) * (double)vt_half_to_float(b);
  return vt_to_half(p + (double)vt_half_to_float(c), 0);
}
