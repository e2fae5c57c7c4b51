// Vector forms of builtins from their scalar forms: every n-vector function applies the
// function of the same name to its halves (3-vectors: to each element), so one scalar
// definition per operation yields the 2-, 3-, 4-, 8- and 16-element overloads. The back
// end scalarizes vectors, so element-wise code is what it would run anyway.
//
// NAME is the (possibly prefixed, see VT_CL) function name; RT the result's element type,
// T.. the arguments' element types; the `S` variants take some arguments as scalars.
#pragma once
#include "base.h"

#define VT_FOR_WIDTHS(M, ...) \
  M(2, __VA_ARGS__) M(3, __VA_ARGS__) M(4, __VA_ARGS__) M(8, __VA_ARGS__) M(16, __VA_ARGS__)

// RT NAME(T x)
#define VT_V1(RT, T, NAME)                              \
  VT_OVL RT##2 NAME(T##2 x) {                           \
    return (RT##2)(NAME(x.s0), NAME(x.s1));             \
  }                                                     \
  VT_OVL RT##3 NAME(T##3 x) {                           \
    return (RT##3)(NAME(x.s0), NAME(x.s1), NAME(x.s2)); \
  }                                                     \
  VT_OVL RT##4 NAME(T##4 x) {                           \
    return (RT##4)(NAME(x.lo), NAME(x.hi));             \
  }                                                     \
  VT_OVL RT##8 NAME(T##8 x) {                           \
    return (RT##8)(NAME(x.lo), NAME(x.hi));             \
  }                                                     \
  VT_OVL RT##16 NAME(T##16 x) {                         \
    return (RT##16)(NAME(x.lo), NAME(x.hi));            \
  }

// RT NAME(T1 x, T2 y)
#define VT_V2(RT, T1, T2, NAME)                                           \
  VT_OVL RT##2 NAME(T1##2 x, T2##2 y) {                                   \
    return (RT##2)(NAME(x.s0, y.s0), NAME(x.s1, y.s1));                   \
  }                                                                       \
  VT_OVL RT##3 NAME(T1##3 x, T2##3 y) {                                   \
    return (RT##3)(NAME(x.s0, y.s0), NAME(x.s1, y.s1), NAME(x.s2, y.s2)); \
  }                                                                       \
  VT_OVL RT##4 NAME(T1##4 x, T2##4 y) {                                   \
    return (RT##4)(NAME(x.lo, y.lo), NAME(x.hi, y.hi));                   \
  }                                                                       \
  VT_OVL RT##8 NAME(T1##8 x, T2##8 y) {                                   \
    return (RT##8)(NAME(x.lo, y.lo), NAME(x.hi, y.hi));                   \
  }                                                                       \
  VT_OVL RT##16 NAME(T1##16 x, T2##16 y) {                                \
    return (RT##16)(NAME(x.lo, y.lo), NAME(x.hi, y.hi));                  \
  }

// RT NAME(T1 x, T2 y) with y a scalar.
#define VT_V2S(RT, T1, T2, NAME)                                 \
  VT_OVL RT##2 NAME(T1##2 x, T2 y) {                             \
    return (RT##2)(NAME(x.s0, y), NAME(x.s1, y));                \
  }                                                              \
  VT_OVL RT##3 NAME(T1##3 x, T2 y) {                             \
    return (RT##3)(NAME(x.s0, y), NAME(x.s1, y), NAME(x.s2, y)); \
  }                                                              \
  VT_OVL RT##4 NAME(T1##4 x, T2 y) {                             \
    return (RT##4)(NAME(x.lo, y), NAME(x.hi, y));                \
  }                                                              \
  VT_OVL RT##8 NAME(T1##8 x, T2 y) {                             \
    return (RT##8)(NAME(x.lo, y), NAME(x.hi, y));                \
  }                                                              \
  VT_OVL RT##16 NAME(T1##16 x, T2 y) {                           \
    return (RT##16)(NAME(x.lo, y), NAME(x.hi, y));               \
  }

// RT NAME(T1 x, T2 y) with x a scalar (step(edge, x)).
#define VT_V2F(RT, T1, T2, NAME)                                 \
  VT_OVL RT##2 NAME(T1 x, T2##2 y) {                             \
    return (RT##2)(NAME(x, y.s0), NAME(x, y.s1));                \
  }                                                              \
  VT_OVL RT##3 NAME(T1 x, T2##3 y) {                             \
    return (RT##3)(NAME(x, y.s0), NAME(x, y.s1), NAME(x, y.s2)); \
  }                                                              \
  VT_OVL RT##4 NAME(T1 x, T2##4 y) {                             \
    return (RT##4)(NAME(x, y.lo), NAME(x, y.hi));                \
  }                                                              \
  VT_OVL RT##8 NAME(T1 x, T2##8 y) {                             \
    return (RT##8)(NAME(x, y.lo), NAME(x, y.hi));                \
  }                                                              \
  VT_OVL RT##16 NAME(T1 x, T2##16 y) {                           \
    return (RT##16)(NAME(x, y.lo), NAME(x, y.hi));               \
  }

// RT NAME(T1 x, T2 y, T3 z)
#define VT_V3(RT, T1, T2, T3, NAME)                                                         \
  VT_OVL RT##2 NAME(T1##2 x, T2##2 y, T3##2 z) {                                            \
    return (RT##2)(NAME(x.s0, y.s0, z.s0), NAME(x.s1, y.s1, z.s1));                         \
  }                                                                                         \
  VT_OVL RT##3 NAME(T1##3 x, T2##3 y, T3##3 z) {                                            \
    return (RT##3)(NAME(x.s0, y.s0, z.s0), NAME(x.s1, y.s1, z.s1), NAME(x.s2, y.s2, z.s2)); \
  }                                                                                         \
  VT_OVL RT##4 NAME(T1##4 x, T2##4 y, T3##4 z) {                                            \
    return (RT##4)(NAME(x.lo, y.lo, z.lo), NAME(x.hi, y.hi, z.hi));                         \
  }                                                                                         \
  VT_OVL RT##8 NAME(T1##8 x, T2##8 y, T3##8 z) {                                            \
    return (RT##8)(NAME(x.lo, y.lo, z.lo), NAME(x.hi, y.hi, z.hi));                         \
  }                                                                                         \
  VT_OVL RT##16 NAME(T1##16 x, T2##16 y, T3##16 z) {                                        \
    return (RT##16)(NAME(x.lo, y.lo, z.lo), NAME(x.hi, y.hi, z.hi));                        \
  }

// RT NAME(T1 x, T2 y, T3 z) with y and z scalars (clamp(v, lo, hi)).
#define VT_V3SS(RT, T1, T2, T3, NAME)                                     \
  VT_OVL RT##2 NAME(T1##2 x, T2 y, T3 z) {                                \
    return (RT##2)(NAME(x.s0, y, z), NAME(x.s1, y, z));                   \
  }                                                                       \
  VT_OVL RT##3 NAME(T1##3 x, T2 y, T3 z) {                                \
    return (RT##3)(NAME(x.s0, y, z), NAME(x.s1, y, z), NAME(x.s2, y, z)); \
  }                                                                       \
  VT_OVL RT##4 NAME(T1##4 x, T2 y, T3 z) {                                \
    return (RT##4)(NAME(x.lo, y, z), NAME(x.hi, y, z));                   \
  }                                                                       \
  VT_OVL RT##8 NAME(T1##8 x, T2 y, T3 z) {                                \
    return (RT##8)(NAME(x.lo, y, z), NAME(x.hi, y, z));                   \
  }                                                                       \
  VT_OVL RT##16 NAME(T1##16 x, T2 y, T3 z) {                              \
    return (RT##16)(NAME(x.lo, y, z), NAME(x.hi, y, z));                  \
  }

// RT NAME(T1 x, T2 y, T3 z) with z a scalar (mix(x, y, a)).
#define VT_V3S(RT, T1, T2, T3, NAME)                                               \
  VT_OVL RT##2 NAME(T1##2 x, T2##2 y, T3 z) {                                      \
    return (RT##2)(NAME(x.s0, y.s0, z), NAME(x.s1, y.s1, z));                      \
  }                                                                                \
  VT_OVL RT##3 NAME(T1##3 x, T2##3 y, T3 z) {                                      \
    return (RT##3)(NAME(x.s0, y.s0, z), NAME(x.s1, y.s1, z), NAME(x.s2, y.s2, z)); \
  }                                                                                \
  VT_OVL RT##4 NAME(T1##4 x, T2##4 y, T3 z) {                                      \
    return (RT##4)(NAME(x.lo, y.lo, z), NAME(x.hi, y.hi, z));                      \
  }                                                                                \
  VT_OVL RT##8 NAME(T1##8 x, T2##8 y, T3 z) {                                      \
    return (RT##8)(NAME(x.lo, y.lo, z), NAME(x.hi, y.hi, z));                      \
  }                                                                                \
  VT_OVL RT##16 NAME(T1##16 x, T2##16 y, T3 z) {                                   \
    return (RT##16)(NAME(x.lo, y.lo, z), NAME(x.hi, y.hi, z));                     \
  }

// RT NAME(T1 x, T2 y, T3 z) with x and y scalars (smoothstep(e0, e1, x)).
#define VT_V3FF(RT, T1, T2, T3, NAME)                                     \
  VT_OVL RT##2 NAME(T1 x, T2 y, T3##2 z) {                                \
    return (RT##2)(NAME(x, y, z.s0), NAME(x, y, z.s1));                   \
  }                                                                       \
  VT_OVL RT##3 NAME(T1 x, T2 y, T3##3 z) {                                \
    return (RT##3)(NAME(x, y, z.s0), NAME(x, y, z.s1), NAME(x, y, z.s2)); \
  }                                                                       \
  VT_OVL RT##4 NAME(T1 x, T2 y, T3##4 z) {                                \
    return (RT##4)(NAME(x, y, z.lo), NAME(x, y, z.hi));                   \
  }                                                                       \
  VT_OVL RT##8 NAME(T1 x, T2 y, T3##8 z) {                                \
    return (RT##8)(NAME(x, y, z.lo), NAME(x, y, z.hi));                   \
  }                                                                       \
  VT_OVL RT##16 NAME(T1 x, T2 y, T3##16 z) {                              \
    return (RT##16)(NAME(x, y, z.lo), NAME(x, y, z.hi));                  \
  }

// RT NAME(T x, AS PT* p): the private form of each width writes private temporaries;
// the global and local forms go through the private one.
#define VT_VP1_PRIVATE(RT, T, PT, NAME)                                \
  VT_OVL RT##2 NAME(T##2 x, __private PT##2 * p) {                     \
    PT a, b;                                                           \
    RT##2 r = (RT##2)(NAME(x.s0, &a), NAME(x.s1, &b));                 \
    *p = (PT##2)(a, b);                                                \
    return r;                                                          \
  }                                                                    \
  VT_OVL RT##3 NAME(T##3 x, __private PT##3 * p) {                     \
    PT a, b, c;                                                        \
    RT##3 r = (RT##3)(NAME(x.s0, &a), NAME(x.s1, &b), NAME(x.s2, &c)); \
    *p = (PT##3)(a, b, c);                                             \
    return r;                                                          \
  }                                                                    \
  VT_OVL RT##4 NAME(T##4 x, __private PT##4 * p) {                     \
    PT##2 a, b;                                                        \
    RT##4 r = (RT##4)(NAME(x.lo, &a), NAME(x.hi, &b));                 \
    *p = (PT##4)(a, b);                                                \
    return r;                                                          \
  }                                                                    \
  VT_OVL RT##8 NAME(T##8 x, __private PT##8 * p) {                     \
    PT##4 a, b;                                                        \
    RT##8 r = (RT##8)(NAME(x.lo, &a), NAME(x.hi, &b));                 \
    *p = (PT##8)(a, b);                                                \
    return r;                                                          \
  }                                                                    \
  VT_OVL RT##16 NAME(T##16 x, __private PT##16 * p) {                  \
    PT##8 a, b;                                                        \
    RT##16 r = (RT##16)(NAME(x.lo, &a), NAME(x.hi, &b));               \
    *p = (PT##16)(a, b);                                               \
    return r;                                                          \
  }
#define VT_VP1_AS_N(N, RT, T, PT, NAME, AS) \
  VT_OVL RT##N NAME(T##N x, AS PT##N* p) {  \
    PT##N t;                                \
    RT##N r = NAME(x, &t);                  \
    *p = t;                                 \
    return r;                               \
  }
#define VT_VP1_AS(RT, T, PT, NAME, AS) \
  VT_OVL RT NAME(T x, AS PT* p) {      \
    PT t;                              \
    RT r = NAME(x, &t);                \
    *p = t;                            \
    return r;                          \
  }                                    \
  VT_FOR_WIDTHS(VT_VP1_AS_N, RT, T, PT, NAME, AS)
// All widths and the address spaces (generic too, outside pocl), given the scalar
// private form.
#ifdef VT_GENERIC
#define VT_VP1_GENERIC(RT, T, PT, NAME) VT_VP1_AS(RT, T, PT, NAME, VT_GENERIC)
#define VT_VP2_GENERIC(RT, T, PT, NAME) VT_VP2_AS(RT, T, PT, NAME, VT_GENERIC)
#else
#define VT_VP1_GENERIC(RT, T, PT, NAME)
#define VT_VP2_GENERIC(RT, T, PT, NAME)
#endif
#define VT_VP1(RT, T, PT, NAME)        \
  VT_VP1_PRIVATE(RT, T, PT, NAME)      \
  VT_VP1_AS(RT, T, PT, NAME, __global) \
  VT_VP1_AS(RT, T, PT, NAME, __local)  \
  VT_VP1_GENERIC(RT, T, PT, NAME)

// RT NAME(T x, T y, AS PT* p) (remquo).
#define VT_VP2_PRIVATE(RT, T, PT, NAME)                                                  \
  VT_OVL RT##2 NAME(T##2 x, T##2 y, __private PT##2 * p) {                               \
    PT a, b;                                                                             \
    RT##2 r = (RT##2)(NAME(x.s0, y.s0, &a), NAME(x.s1, y.s1, &b));                       \
    *p = (PT##2)(a, b);                                                                  \
    return r;                                                                            \
  }                                                                                      \
  VT_OVL RT##3 NAME(T##3 x, T##3 y, __private PT##3 * p) {                               \
    PT a, b, c;                                                                          \
    RT##3 r = (RT##3)(NAME(x.s0, y.s0, &a), NAME(x.s1, y.s1, &b), NAME(x.s2, y.s2, &c)); \
    *p = (PT##3)(a, b, c);                                                               \
    return r;                                                                            \
  }                                                                                      \
  VT_OVL RT##4 NAME(T##4 x, T##4 y, __private PT##4 * p) {                               \
    PT##2 a, b;                                                                          \
    RT##4 r = (RT##4)(NAME(x.lo, y.lo, &a), NAME(x.hi, y.hi, &b));                       \
    *p = (PT##4)(a, b);                                                                  \
    return r;                                                                            \
  }                                                                                      \
  VT_OVL RT##8 NAME(T##8 x, T##8 y, __private PT##8 * p) {                               \
    PT##4 a, b;                                                                          \
    RT##8 r = (RT##8)(NAME(x.lo, y.lo, &a), NAME(x.hi, y.hi, &b));                       \
    *p = (PT##8)(a, b);                                                                  \
    return r;                                                                            \
  }                                                                                      \
  VT_OVL RT##16 NAME(T##16 x, T##16 y, __private PT##16 * p) {                           \
    PT##8 a, b;                                                                          \
    RT##16 r = (RT##16)(NAME(x.lo, y.lo, &a), NAME(x.hi, y.hi, &b));                     \
    *p = (PT##16)(a, b);                                                                 \
    return r;                                                                            \
  }
#define VT_VP2_AS_N(N, RT, T, PT, NAME, AS)        \
  VT_OVL RT##N NAME(T##N x, T##N y, AS PT##N* p) { \
    PT##N t;                                       \
    RT##N r = NAME(x, y, &t);                      \
    *p = t;                                        \
    return r;                                      \
  }
#define VT_VP2_AS(RT, T, PT, NAME, AS) \
  VT_OVL RT NAME(T x, T y, AS PT* p) { \
    PT t;                              \
    RT r = NAME(x, y, &t);             \
    *p = t;                            \
    return r;                          \
  }                                    \
  VT_FOR_WIDTHS(VT_VP2_AS_N, RT, T, PT, NAME, AS)
#define VT_VP2(RT, T, PT, NAME)        \
  VT_VP2_PRIVATE(RT, T, PT, NAME)      \
  VT_VP2_AS(RT, T, PT, NAME, __global) \
  VT_VP2_AS(RT, T, PT, NAME, __local)  \
  VT_VP2_GENERIC(RT, T, PT, NAME)
