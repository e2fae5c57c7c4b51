// The half builtins (cl_khr_fp16) whose float overload cannot stand in for them: the
// front end promotes every other half builtin to its float overload and rounds the result
// once (lower_fp16_operations in frontend.cpp), but a step of nextafter and a NaN's
// payload are half's own, and a float pointer result is not a half one.
#include "core/fp_basic.h"
#include "core/trig.h"
#include "core/vector.h"

VT_OVL half VT_CL(nextafter)(half x, half y) {
  if (isnan(x) || isnan(y)) return x + y;
  if (x == y) return y;
  ushort a = as_ushort(x);
  if ((a & 0x7fffu) == 0) return as_half((ushort)((as_ushort(y) & 0x8000u) | 1u));
  return as_half((ushort)((x < y) == (x > 0.0h) ? a + 1u : a - 1u));
}
VT_V2(half, half, half, VT_CL(nextafter))

VT_OVL half VT_CL(nan)(ushort c) {
  return as_half((ushort)(0x7e00u | (c & 0x3ffu)));
}
VT_V1(half, ushort, VT_CL(nan))

// fract's result stays below 1 (a float fraction just below 1 rounds to 1 in half).
VT_OVL half VT_CL(fract)(half x, __private half* p) {
  float whole;
  half r = (half)vt_fract((float)x, &whole);
  *p = (half)whole;
  return isnan(x) ? x : fmin(r, 0x1.ffcp-1h);
}
VT_VP1(half, half, half, VT_CL(fract))
VT_OVL half VT_CL(modf)(half x, __private half* p) {
  float whole;
  half r = (half)vt_modf((float)x, &whole);
  *p = (half)whole;
  return r;
}
VT_VP1(half, half, half, VT_CL(modf))
VT_OVL half VT_CL(sincos)(half x, __private half* p) {
  float c;
  half r = (half)vt_sincos((float)x, &c);
  *p = (half)c;
  return r;
}
VT_VP1(half, half, half, VT_CL(sincos))
