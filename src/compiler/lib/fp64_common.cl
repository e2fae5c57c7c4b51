// OpenCL C common (s6.15.4) and geometric (s6.15.5) functions for double and its
// vectors: the float versions' algorithms (common.cl) on binary64.
#include "core/fp64.h"
#include "core/vector.h"

#define VT_D_INF as_double(VT_F64_INF)
#define VT_D_NAN as_double(VT_F64_QNAN)

VT_OVL double VT_CL(clamp)(double x, double lo, double hi) {
  return __builtin_fmin(__builtin_fmax(x, lo), hi);
}
VT_V3(double, double, double, double, VT_CL(clamp))
VT_V3SS(double, double, double, double, VT_CL(clamp))
VT_OVL double VT_CL(degrees)(double r) {
  return r * 0x1.ca5dc1a63c1f8p5;  // 180 / pi
}
VT_V1(double, double, VT_CL(degrees))
VT_OVL double VT_CL(radians)(double d) {
  return d * 0x1.1df46a2529d39p-6;  // pi / 180
}
VT_V1(double, double, VT_CL(radians))
VT_OVL double VT_CL(max)(double x, double y) {
  return __builtin_fmax(x, y);
}
VT_V2(double, double, double, VT_CL(max))
VT_V2S(double, double, double, VT_CL(max))
VT_OVL double VT_CL(min)(double x, double y) {
  return __builtin_fmin(x, y);
}
VT_V2(double, double, double, VT_CL(min))
VT_V2S(double, double, double, VT_CL(min))
VT_OVL double VT_CL(mix)(double x, double y, double a) {
  return __builtin_fma(y - x, a, x);
}
VT_V3(double, double, double, double, VT_CL(mix))
VT_V3S(double, double, double, double, VT_CL(mix))
VT_OVL double VT_CL(step)(double edge, double x) {
  return x < edge ? 0.0 : 1.0;
}
VT_V2(double, double, double, VT_CL(step))
VT_V2F(double, double, double, VT_CL(step))
VT_OVL double VT_CL(smoothstep)(double e0, double e1, double x) {
  double t = __builtin_fmin(__builtin_fmax((x - e0) / (e1 - e0), 0.0), 1.0);
  return t * t * __builtin_fma(-2.0, t, 3.0);
}
VT_V3(double, double, double, double, VT_CL(smoothstep))
VT_V3FF(double, double, double, double, VT_CL(smoothstep))
VT_OVL double VT_CL(sign)(double x) {
  if (x > 0.0) return 1.0;
  if (x < 0.0) return -1.0;
  return x == 0.0 ? x : 0.0;
}
VT_V1(double, double, VT_CL(sign))

// ---- geometric ----
VT_CORE double vt_ddot2(double2 a, double2 b) {
  return __builtin_fma(a.s1, b.s1, a.s0 * b.s0);
}
VT_CORE double vt_ddot3(double3 a, double3 b) {
  return __builtin_fma(a.s2, b.s2, vt_ddot2(a.s01, b.s01));
}
VT_CORE double vt_ddot4(double4 a, double4 b) {
  return __builtin_fma(a.s3, b.s3, vt_ddot3(a.s012, b.s012));
}
VT_OVL double VT_CL(dot)(double a, double b) {
  return a * b;
}
VT_OVL double VT_CL(dot)(double2 a, double2 b) {
  return vt_ddot2(a, b);
}
VT_OVL double VT_CL(dot)(double3 a, double3 b) {
  return vt_ddot3(a, b);
}
VT_OVL double VT_CL(dot)(double4 a, double4 b) {
  return vt_ddot4(a, b);
}
VT_OVL double3 VT_CL(cross)(double3 a, double3 b) {
  return (double3)(__builtin_fma(a.y, b.z, -a.z * b.y), __builtin_fma(a.z, b.x, -a.x * b.z),
                   __builtin_fma(a.x, b.y, -a.y * b.x));
}
VT_OVL double4 VT_CL(cross)(double4 a, double4 b) {
  return (double4)(VT_CL(cross)(a.xyz, b.xyz), 0.0);
}

VT_CORE double vt_dpow2(int k) {  // -1022 <= k <= 1023
  return as_double((ulong)(k + 1023) << 52);
}
VT_CORE double vt_dmax_elem2(double2 a) {
  if (a.s0 != a.s0 || a.s1 != a.s1) return VT_D_NAN;
  return __builtin_fmax(a.s0, a.s1);
}
VT_CORE double vt_dmax_elem3(double3 a) {
  double m = vt_dmax_elem2(a.s01);
  return a.s2 != a.s2 ? VT_D_NAN : __builtin_fmax(m, a.s2);
}
VT_CORE double vt_dmax_elem4(double4 a) {
  double m = vt_dmax_elem3(a.s012);
  return a.s3 != a.s3 ? VT_D_NAN : __builtin_fmax(m, a.s3);
}
#define VT_DGEOMETRY(N, DOT)                                                                      \
  VT_CORE double vt_dlength##N(double##N p) {                                                     \
    double m = vt_dmax_elem##N(fabs(p));                                                          \
    if (!(m < VT_D_INF)) return m;                                                                \
    double s = m > 0x1p500 ? 0x1p-600 : m < 0x1p-500 ? 0x1p600 : 1.0;                             \
    double##N q = p * s;                                                                          \
    return __builtin_sqrt(DOT(q, q)) / s;                                                         \
  }                                                                                               \
  VT_OVL double VT_CL(length)(double##N p) { return vt_dlength##N(p); }                           \
  VT_OVL double VT_CL(distance)(double##N p, double##N q) { return vt_dlength##N(p - q); }        \
  VT_OVL double##N VT_CL(normalize)(double##N p) {                                                \
    double m = vt_dmax_elem##N(fabs(p));                                                          \
    if (m == 0.0) return p;                                                                       \
    if (m != m) return (double##N)(VT_D_NAN);                                                     \
    if (m == VT_D_INF) {                                                                          \
      p = copysign(as_double##N((as_long##N(fabs(p)) == (long)VT_F64_INF) & 0x3ff0000000000000l), \
                   p);                                                                            \
      m = 1.0;                                                                                    \
    }                                                                                             \
    ulong bits = as_ulong(m);                                                                     \
    int e = bits >> 52 ? (int)(bits >> 52) - 1023 : -1011 - (int)vt_clz64(bits);                  \
    int first = -e / 2;                                                                           \
    double##N q = p * vt_dpow2(first) * vt_dpow2(-e - first);                                     \
    return q * (1.0 / __builtin_sqrt(DOT(q, q)));                                                 \
  }
VT_DGEOMETRY(2, vt_ddot2)
VT_DGEOMETRY(3, vt_ddot3)
VT_DGEOMETRY(4, vt_ddot4)
VT_OVL double VT_CL(length)(double p) {
  return __builtin_fabs(p);
}
VT_OVL double VT_CL(distance)(double p, double q) {
  return __builtin_fabs(p - q);
}
VT_OVL double VT_CL(normalize)(double p) {
  if (p != p || p == 0.0) return p;
  return __builtin_copysign(1.0, p);
}
