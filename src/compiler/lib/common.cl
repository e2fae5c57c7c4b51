// OpenCL C common functions (s6.15.4) and geometric functions (s6.15.5) for float and
// its vectors.
#include "core/exp_log.h"
#include "core/vector.h"

// ---- common ----
VT_OVL float VT_CL(clamp)(float x, float lo, float hi) {
  return __builtin_fminf(__builtin_fmaxf(x, lo), hi);
}
VT_V3(float, float, float, float, VT_CL(clamp))
VT_V3SS(float, float, float, float, VT_CL(clamp))

VT_OVL float VT_CL(degrees)(float r) {
  return r * 0x1.ca5dc2p5f;
}  // 180 / pi
VT_V1(float, float, VT_CL(degrees))
VT_OVL float VT_CL(radians)(float d) {
  return d * 0x1.1df46ap-6f;
}  // pi / 180
VT_V1(float, float, VT_CL(radians))

// max/min: fmax/fmin (OpenCL leaves NaN operands undefined here; fmax's rule is kept).
VT_OVL float VT_CL(max)(float x, float y) {
  return __builtin_fmaxf(x, y);
}
VT_V2(float, float, float, VT_CL(max))
VT_V2S(float, float, float, VT_CL(max))
VT_OVL float VT_CL(min)(float x, float y) {
  return __builtin_fminf(x, y);
}
VT_V2(float, float, float, VT_CL(min))
VT_V2S(float, float, float, VT_CL(min))

VT_OVL float VT_CL(mix)(float x, float y, float a) {
  return __builtin_fmaf(y - x, a, x);
}
VT_V3(float, float, float, float, VT_CL(mix))
VT_V3S(float, float, float, float, VT_CL(mix))

VT_OVL float VT_CL(step)(float edge, float x) {
  return x < edge ? 0.0f : 1.0f;
}
VT_V2(float, float, float, VT_CL(step))
VT_V2F(float, float, float, VT_CL(step))

VT_OVL float VT_CL(smoothstep)(float e0, float e1, float x) {
  float t = __builtin_fminf(__builtin_fmaxf((x - e0) / (e1 - e0), 0.0f), 1.0f);
  return t * t * __builtin_fmaf(-2.0f, t, 3.0f);
}
VT_V3(float, float, float, float, VT_CL(smoothstep))
VT_V3FF(float, float, float, float, VT_CL(smoothstep))

// 1.0 for x > 0, -1.0 for x < 0, x itself for +-0, 0.0 for NaN.
VT_OVL float VT_CL(sign)(float x) {
  if (x > 0.0f) return 1.0f;
  if (x < 0.0f) return -1.0f;
  return x == 0.0f ? x : 0.0f;
}
VT_V1(float, float, VT_CL(sign))

// ---- geometric: float, float2, float3, float4 ----
// Sums of products with fma, in a fixed order (element 0 first).
VT_CORE float vt_dot2(float2 a, float2 b) {
  return __builtin_fmaf(a.s1, b.s1, a.s0 * b.s0);
}
VT_CORE float vt_dot3(float3 a, float3 b) {
  return __builtin_fmaf(a.s2, b.s2, vt_dot2(a.s01, b.s01));
}
VT_CORE float vt_dot4(float4 a, float4 b) {
  return __builtin_fmaf(a.s3, b.s3, vt_dot3(a.s012, b.s012));
}

VT_OVL float VT_CL(dot)(float a, float b) {
  return a * b;
}
VT_OVL float VT_CL(dot)(float2 a, float2 b) {
  return vt_dot2(a, b);
}
VT_OVL float VT_CL(dot)(float3 a, float3 b) {
  return vt_dot3(a, b);
}
VT_OVL float VT_CL(dot)(float4 a, float4 b) {
  return vt_dot4(a, b);
}

VT_OVL float3 VT_CL(cross)(float3 a, float3 b) {
  return (float3)(__builtin_fmaf(a.y, b.z, -a.z * b.y), __builtin_fmaf(a.z, b.x, -a.x * b.z),
                  __builtin_fmaf(a.x, b.y, -a.y * b.x));
}
VT_OVL float4 VT_CL(cross)(float4 a, float4 b) {
  return (float4)(VT_CL(cross)(a.xyz, b.xyz), 0.0f);
}

// p scaled by the power of two that brings its largest magnitude m (finite, not 0) into
// [1, 2): no element then becomes subnormal that the normalized result does not (a fixed
// factor for all large or all small vectors did: normalize((0x1p61, 0x1p-60)) lost 84 ulp).
// The factor, 2^-e with e from -149 to 127, is applied in two exact halves.
VT_CORE float vt_pow2(int k) {  // -126 <= k <= 127
  return as_float((uint)(k + 127) << 23);
}
#define VT_SCALE_TO_UNIT(N)                                                         \
  VT_CORE float##N vt_scale_to_unit##N(float##N p, float m) {                       \
    uint bits = as_uint(m);                                                         \
    int e = bits >> 23 ? (int)(bits >> 23) - 127 : -118 - (int)vt_clz32(bits);     \
    int first = -e / 2;                                                             \
    return p * vt_pow2(first) * vt_pow2(-e - first);                                \
  }
VT_SCALE_TO_UNIT(2)
VT_SCALE_TO_UNIT(3)
VT_SCALE_TO_UNIT(4)

// length without overflow or underflow: the vector is scaled by a power of two (exact)
// when its largest element is very large or very small.
#define VT_GEOMETRY(N, DOT)                                                 \
  VT_CORE float vt_length##N(float##N p) {                                  \
    float##N a = as_float##N(as_uint##N(p) & 0x7fffffffu);                  \
    float m = vt_max_elem##N(a);                                            \
    if (!(m < VT_INF)) return m; /* inf, or NaN */                          \
    float s = m > 0x1p60f ? 0x1p-70f : m < 0x1p-60f ? 0x1p70f : 1.0f;       \
    float##N q = p * s;                                                     \
    return __builtin_sqrtf(DOT(q, q)) / s;                                  \
  }                                                                         \
  VT_OVL float VT_CL(length)(float##N p) {                                  \
    return vt_length##N(p);                                                 \
  }                                                                         \
  VT_OVL float VT_CL(distance)(float##N p, float##N q) {                    \
    return vt_length##N(p - q);                                             \
  }                                                                         \
  VT_OVL float VT_CL(fast_length)(float##N p) {                             \
    return __builtin_sqrtf(DOT(p, p));                                      \
  }                                                                         \
  VT_OVL float VT_CL(fast_distance)(float##N p, float##N q) {               \
    float##N d = p - q;                                                     \
    return __builtin_sqrtf(DOT(d, d));                                      \
  }                                                                         \
  VT_OVL float##N VT_CL(normalize)(float##N p) {                            \
    float##N a = as_float##N(as_uint##N(p) & 0x7fffffffu);                  \
    float m = vt_max_elem##N(a);                                            \
    if (m == 0.0f) return p;                                                \
    if (vt_isnan(m)) return (float##N)(VT_NAN);                             \
    if (m == VT_INF) {                                                      \
      /* infinities become +-1, the rest +-0 (OpenCL 7.5.1) */              \
      uint##N inf = as_uint##N(as_uint##N(a) == (uint##N)(0x7f800000u));    \
      p = as_float##N((as_uint##N(p) & 0x80000000u) | (inf & 0x3f800000u)); \
      m = 1.0f;                                                             \
    }                                                                       \
    float##N q = vt_scale_to_unit##N(p, m);                                 \
    return q * (1.0f / __builtin_sqrtf(DOT(q, q)));                         \
  }                                                                         \
  VT_OVL float##N VT_CL(fast_normalize)(float##N p) {                       \
    float d = DOT(p, p);                                                    \
    return d == 0.0f ? p : p * (1.0f / __builtin_sqrtf(d));                 \
  }

// Largest element of a vector of magnitudes; NaN wins (so that it reaches the checks).
VT_CORE float vt_max_elem2(float2 a) {
  if (vt_isnan(a.s0) || vt_isnan(a.s1)) return VT_NAN;
  return __builtin_fmaxf(a.s0, a.s1);
}
VT_CORE float vt_max_elem3(float3 a) {
  float m = vt_max_elem2(a.s01);
  return vt_isnan(a.s2) ? VT_NAN : __builtin_fmaxf(m, a.s2);
}
VT_CORE float vt_max_elem4(float4 a) {
  float m = vt_max_elem3(a.s012);
  return vt_isnan(a.s3) ? VT_NAN : __builtin_fmaxf(m, a.s3);
}
VT_GEOMETRY(2, vt_dot2)
VT_GEOMETRY(3, vt_dot3)
VT_GEOMETRY(4, vt_dot4)

// The scalar forms: |p|, |p - q|, sign(p).
VT_OVL float VT_CL(length)(float p) {
  return __builtin_fabsf(p);
}
VT_OVL float VT_CL(distance)(float p, float q) {
  return __builtin_fabsf(p - q);
}
VT_OVL float VT_CL(fast_length)(float p) {
  return __builtin_fabsf(p);
}
VT_OVL float VT_CL(fast_distance)(float p, float q) {
  return __builtin_fabsf(p - q);
}
VT_OVL float VT_CL(normalize)(float p) {
  if (vt_isnan(p) || p == 0.0f) return p;
  return __builtin_copysignf(1.0f, p);
}
VT_OVL float VT_CL(fast_normalize)(float p) {
  return VT_CL(normalize)(p);
}
