// OpenCL C vector data load and store functions (s6.15.7): vloadn/vstoren for every
// integer type and float, vload_half/vstore_half (scalar and n, with the rounding
// modes) and vloada_half/vstorea_half, in every address space a pointer can have. Memory
// is accessed element by element: vloadn only requires the element's alignment.
// half values are stored as 16-bit patterns; vloadn/vstoren of half with cl_khr_fp16.
#include "core/fp64.h"
#include "core/base.h"
#include "core/fp16.h"

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
#ifdef cl_khr_fp16
VT_VLOAD_VSTORE(half)
#endif

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
