// OpenCL C vector data load and store functions (s6.15.7): vloadn/vstoren for every
// integer type and float, vload_half/vstore_half (scalar and n, with the rounding
// modes) and vloada_half/vstorea_half, in every address space a pointer can have. Memory
// is accessed element by element: vloadn only requires the element's alignment.
// half values are stored as 16-bit patterns (the device has no fp16 arithmetic).
#include "core/fp64.h"
#include "core/base.h"

// ---- vloadn / vstoren ----
#define VT_VLOAD_AS(T, AS)                                    \
  VT_OVL T##2 VT_CL(vload2)(size_t i, const AS T* p) {        \
    p += i * 2;                                               \
    return (T##2)(p[0], p[1]);                                \
  }                                                           \
  VT_OVL T##3 VT_CL(vload3)(size_t i, const AS T* p) {        \
    p += i * 3;                                               \
    return (T##3)(p[0], p[1], p[2]);                          \
  }                                                           \
  VT_OVL T##4 VT_CL(vload4)(size_t i, const AS T* p) {        \
    p += i * 4;                                               \
    return (T##4)(p[0], p[1], p[2], p[3]);                    \
  }                                                           \
  VT_OVL T##8 VT_CL(vload8)(size_t i, const AS T* p) {        \
    p += i * 8;                                               \
    return (T##8)(VT_CL(vload4)(0, p), VT_CL(vload4)(1, p));  \
  }                                                           \
  VT_OVL T##16 VT_CL(vload16)(size_t i, const AS T* p) {      \
    p += i * 16;                                              \
    return (T##16)(VT_CL(vload8)(0, p), VT_CL(vload8)(1, p)); \
  }
#define VT_VSTORE_AS(T, AS)                                  \
  VT_OVL void VT_CL(vstore2)(T##2 v, size_t i, AS T * p) {   \
    p += i * 2;                                              \
    p[0] = v.s0;                                             \
    p[1] = v.s1;                                             \
  }                                                          \
  VT_OVL void VT_CL(vstore3)(T##3 v, size_t i, AS T * p) {   \
    p += i * 3;                                              \
    p[0] = v.s0;                                             \
    p[1] = v.s1;                                             \
    p[2] = v.s2;                                             \
  }                                                          \
  VT_OVL void VT_CL(vstore4)(T##4 v, size_t i, AS T * p) {   \
    p += i * 4;                                              \
    p[0] = v.s0;                                             \
    p[1] = v.s1;                                             \
    p[2] = v.s2;                                             \
    p[3] = v.s3;                                             \
  }                                                          \
  VT_OVL void VT_CL(vstore8)(T##8 v, size_t i, AS T * p) {   \
    p += i * 8;                                              \
    VT_CL(vstore4)(v.lo, 0, p);                              \
    VT_CL(vstore4)(v.hi, 1, p);                              \
  }                                                          \
  VT_OVL void VT_CL(vstore16)(T##16 v, size_t i, AS T * p) { \
    p += i * 16;                                             \
    VT_CL(vstore8)(v.lo, 0, p);                              \
    VT_CL(vstore8)(v.hi, 1, p);                              \
  }

#ifdef VT_GENERIC
#define VT_VLOAD_GENERIC(T) VT_VLOAD_AS(T, VT_GENERIC)
#define VT_VSTORE_GENERIC(T) VT_VSTORE_AS(T, VT_GENERIC)
#else
#define VT_VLOAD_GENERIC(T)
#define VT_VSTORE_GENERIC(T)
#endif

#define VT_VLOAD_VSTORE(T)   \
  VT_VLOAD_AS(T, __global)   \
  VT_VLOAD_AS(T, __local)    \
  VT_VLOAD_AS(T, __constant) \
  VT_VLOAD_AS(T, __private)  \
  VT_VLOAD_GENERIC(T)        \
  VT_VSTORE_AS(T, __global)  \
  VT_VSTORE_AS(T, __local)   \
  VT_VSTORE_AS(T, __private) \
  VT_VSTORE_GENERIC(T)

VT_VLOAD_VSTORE(char)
VT_VLOAD_VSTORE(uchar)
VT_VLOAD_VSTORE(short)
VT_VLOAD_VSTORE(ushort)
VT_VLOAD_VSTORE(int)
VT_VLOAD_VSTORE(uint)
VT_VLOAD_VSTORE(long)
VT_VLOAD_VSTORE(ulong)
VT_VLOAD_VSTORE(float)
VT_VLOAD_VSTORE(double)

// ---- half <-> float ----

// binary16 bits -> float, exact (subnormals, infinities and NaN payloads included).
VT_CORE float vt_half_to_float(ushort h) {
  uint sign = (uint)(h & 0x8000u) << 16;
  uint e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
  if (e == 0) return as_float(sign | as_uint((float)m * 0x1p-24f));  // zero, subnormal
  if (e == 31) return as_float(sign | 0x7f800000u | (m << 13));      // inf, NaN
  return as_float(sign | ((e + 112) << 23) | (m << 13));
}

// float -> binary16 bits, rounded in `mode`: 0 nearest even, 1 toward zero, 2 up, 3 down.
VT_CORE ushort vt_float_to_half(float f, int mode) {
  uint u = as_uint(f);
  uint sign = (u >> 16) & 0x8000u;
  uint a = u & 0x7fffffffu;
  if (a > 0x7f800000u) return (ushort)(sign | 0x7e00u | ((a >> 13) & 0x3ffu));  // quiet NaN
  int neg = sign != 0;
  // Overflow: infinity when rounding goes away from zero, else the largest finite 65504.
  int to_inf = mode == 0 || (mode == 2 && !neg) || (mode == 3 && neg);
  if (a >= 0x47800000u) {  // |f| >= 65536 (and infinities)
    if (a == 0x7f800000u || to_inf) return (ushort)(sign | 0x7c00u);
    return (ushort)(sign | 0x7bffu);
  }
  int e = (int)(a >> 23) - 127;
  uint m = (a & 0x007fffffu) | 0x00800000u;
  if (a < 0x00800000u) {  // float subnormal: far below the half subnormals
    e = -126;
    m = a;
  }
  // Keep 11 significant bits for a normal half, fewer for a subnormal one.
  int shift = e >= -14 ? 13 : 13 + (-14 - e);
  if (shift > 25) shift = 25;
  uint q = m >> shift;
  uint rem = m & ((1u << shift) - 1u);
  uint halfway = 1u << (shift - 1);
  // Exponent field + significand (the implicit bit carries into the exponent).
  uint h = e >= -14 ? ((uint)(e + 14) << 10) + q : q;
  int inc;
  if (mode == 0)
    inc = rem > halfway || (rem == halfway && (q & 1u));
  else if (mode == 1)
    inc = 0;
  else if (mode == 2)
    inc = !neg && rem != 0;
  else
    inc = neg && rem != 0;
  h += (uint)inc;  // a carry rounds into the next binade, or to infinity
  return (ushort)(sign | h);
}

#define VT_MODE_ 0
#define VT_MODE__rte 0
#define VT_MODE__rtz 1
#define VT_MODE__rtp 2
#define VT_MODE__rtn 3

// vload_half(n) and vloada_half(n): element stride n, and 4 for vloada_half3.
#define VT_VLOAD_HALF_AS(AS)                                                            \
  VT_OVL float VT_CL(vload_half)(size_t i, const AS half* p) {                          \
    return vt_half_to_float(((const AS ushort*)p)[i]);                                  \
  }                                                                                     \
  VT_OVL float2 VT_CL(vload_half2)(size_t i, const AS half* p) {                        \
    return (float2)(VT_CL(vload_half)(i * 2, p), VT_CL(vload_half)(i * 2 + 1, p));      \
  }                                                                                     \
  VT_OVL float3 VT_CL(vload_half3)(size_t i, const AS half* p) {                        \
    return (float3)(VT_CL(vload_half2)(0, p + i * 3), VT_CL(vload_half)(i * 3 + 2, p)); \
  }                                                                                     \
  VT_OVL float4 VT_CL(vload_half4)(size_t i, const AS half* p) {                        \
    return (float4)(VT_CL(vload_half2)(i * 2, p), VT_CL(vload_half2)(i * 2 + 1, p));    \
  }                                                                                     \
  VT_OVL float8 VT_CL(vload_half8)(size_t i, const AS half* p) {                        \
    return (float8)(VT_CL(vload_half4)(i * 2, p), VT_CL(vload_half4)(i * 2 + 1, p));    \
  }                                                                                     \
  VT_OVL float16 VT_CL(vload_half16)(size_t i, const AS half* p) {                      \
    return (float16)(VT_CL(vload_half8)(i * 2, p), VT_CL(vload_half8)(i * 2 + 1, p));   \
  }                                                                                     \
  VT_OVL float2 VT_CL(vloada_half2)(size_t i, const AS half* p) {                       \
    return VT_CL(vload_half2)(i, p);                                                    \
  }                                                                                     \
  VT_OVL float3 VT_CL(vloada_half3)(size_t i, const AS half* p) {                       \
    return VT_CL(vload_half3)(0, p + i * 4);                                            \
  }                                                                                     \
  VT_OVL float4 VT_CL(vloada_half4)(size_t i, const AS half* p) {                       \
    return VT_CL(vload_half4)(i, p);                                                    \
  }                                                                                     \
  VT_OVL float8 VT_CL(vloada_half8)(size_t i, const AS half* p) {                       \
    return VT_CL(vload_half8)(i, p);                                                    \
  }                                                                                     \
  VT_OVL float16 VT_CL(vloada_half16)(size_t i, const AS half* p) {                     \
    return VT_CL(vload_half16)(i, p);                                                   \
  }

// The value to store as binary16 bits: floats by vt_float_to_half, doubles rounded once
// from their bits (a double -> float -> half path would round twice).
static inline __attribute__((overloadable)) ushort vt_to_half(float f, int mode) {
  return vt_float_to_half(f, mode);
}
static inline __attribute__((overloadable)) ushort vt_to_half(double d, int mode) {
  ulong b = as_ulong(d);
  ushort sign = (ushort)((b >> 48) & 0x8000u);
  ulong a = b & VT_F64_MAGNITUDE;
  if (a > VT_F64_INF) return (ushort)(sign | 0x7e00u | (uint)((a >> 42) & 0x3ffu));  // quiet NaN
  int neg = sign != 0;
  int dir = mode == 0 ? 2 : mode == 1 ? 0 : mode == 2 ? 1 : -1;
  int to_inf = vt_overflow_to_infinity(neg, dir);
  if (a >= 0x40f0000000000000ul)
    return (ushort)(sign | (a == VT_F64_INF || to_inf ? 0x7c00u : 0x7bffu));  // >= 65536
  if (a == 0) return sign;
  int e;
  ulong m = vt_f64_unpack(a, &e);
  int top = e + 63 - (int)vt_clz64(m);
  int lsb = top - 10 < -24 ? -24 : top - 10;
  int drop = lsb - e;
  ulong q, rem = 0;
  if (drop <= 0)
    q = m << (-drop);
  else
    q = vt_shift_out(m, drop, &rem);
  q += (ulong)vt_round_up(q, rem, drop, neg, dir);
  uint h = ((uint)(lsb + 24) << 10) + (uint)q;
  if (h >= 0x7c00u) return (ushort)(sign | (to_inf ? 0x7c00u : 0x7bffu));
  return (ushort)(sign | h);
}

#define VT_VSTORE_HALF_AS_R(AS, R, T)                                    \
  VT_OVL void VT_CL(vstore_half##R)(T v, size_t i, AS half * p) {        \
    ((AS ushort*)p)[i] = vt_to_half(v, VT_MODE_##R);                     \
  }                                                                      \
  VT_OVL void VT_CL(vstore_half2##R)(T##2 v, size_t i, AS half * p) {    \
    VT_CL(vstore_half##R)(v.s0, i * 2, p);                               \
    VT_CL(vstore_half##R)(v.s1, i * 2 + 1, p);                           \
  }                                                                      \
  VT_OVL void VT_CL(vstore_half3##R)(T##3 v, size_t i, AS half * p) {    \
    VT_CL(vstore_half2##R)(v.s01, 0, p + i * 3);                         \
    VT_CL(vstore_half##R)(v.s2, i * 3 + 2, p);                           \
  }                                                                      \
  VT_OVL void VT_CL(vstore_half4##R)(T##4 v, size_t i, AS half * p) {    \
    VT_CL(vstore_half2##R)(v.lo, i * 2, p);                              \
    VT_CL(vstore_half2##R)(v.hi, i * 2 + 1, p);                          \
  }                                                                      \
  VT_OVL void VT_CL(vstore_half8##R)(T##8 v, size_t i, AS half * p) {    \
    VT_CL(vstore_half4##R)(v.lo, i * 2, p);                              \
    VT_CL(vstore_half4##R)(v.hi, i * 2 + 1, p);                          \
  }                                                                      \
  VT_OVL void VT_CL(vstore_half16##R)(T##16 v, size_t i, AS half * p) {  \
    VT_CL(vstore_half8##R)(v.lo, i * 2, p);                              \
    VT_CL(vstore_half8##R)(v.hi, i * 2 + 1, p);                          \
  }                                                                      \
  VT_OVL void VT_CL(vstorea_half2##R)(T##2 v, size_t i, AS half * p) {   \
    VT_CL(vstore_half2##R)(v, i, p);                                     \
  }                                                                      \
  VT_OVL void VT_CL(vstorea_half3##R)(T##3 v, size_t i, AS half * p) {   \
    VT_CL(vstore_half3##R)(v, 0, p + i * 4);                             \
  }                                                                      \
  VT_OVL void VT_CL(vstorea_half4##R)(T##4 v, size_t i, AS half * p) {   \
    VT_CL(vstore_half4##R)(v, i, p);                                     \
  }                                                                      \
  VT_OVL void VT_CL(vstorea_half8##R)(T##8 v, size_t i, AS half * p) {   \
    VT_CL(vstore_half8##R)(v, i, p);                                     \
  }                                                                      \
  VT_OVL void VT_CL(vstorea_half16##R)(T##16 v, size_t i, AS half * p) { \
    VT_CL(vstore_half16##R)(v, i, p);                                    \
  }
#define VT_VSTORE_HALF_AS_T(AS, T) \
  VT_VSTORE_HALF_AS_R(AS, , T)     \
  VT_VSTORE_HALF_AS_R(AS, _rte, T) \
  VT_VSTORE_HALF_AS_R(AS, _rtz, T) \
  VT_VSTORE_HALF_AS_R(AS, _rtp, T) \
  VT_VSTORE_HALF_AS_R(AS, _rtn, T)
#define VT_VSTORE_HALF_AS(AS)    \
  VT_VSTORE_HALF_AS_T(AS, float) \
  VT_VSTORE_HALF_AS_T(AS, double)

VT_VLOAD_HALF_AS(__global)
VT_VLOAD_HALF_AS(__local)
VT_VLOAD_HALF_AS(__constant)
VT_VLOAD_HALF_AS(__private)
VT_VSTORE_HALF_AS(__global)
VT_VSTORE_HALF_AS(__local)
VT_VSTORE_HALF_AS(__private)
#ifdef VT_GENERIC
VT_VLOAD_HALF_AS(VT_GENERIC)
VT_VSTORE_HALF_AS(VT_GENERIC)
#endif
