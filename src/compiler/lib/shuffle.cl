// OpenCL C shuffle and shuffle2 (s6.15.14): result[i] = x[mask[i] mod m] (shuffle2: from
// the concatenation of x and y, mod 2m). An element is picked by a tree of selects on the
// index bits (no indexed vector access: the back end scalarizes vectors).
#include "core/base.h"

// pick<m>(x, k): element k (already reduced mod m) of an m-vector.
#define VT_PICK(T)                                  \
  VT_CORE T vt_pick2_##T(T##2 x, uint k) {          \
    return (k & 1u) ? x.s1 : x.s0;                  \
  }                                                 \
  VT_CORE T vt_pick4_##T(T##4 x, uint k) {          \
    return vt_pick2_##T((k & 2u) ? x.hi : x.lo, k); \
  }                                                 \
  VT_CORE T vt_pick8_##T(T##8 x, uint k) {          \
    return vt_pick4_##T((k & 4u) ? x.hi : x.lo, k); \
  }                                                 \
  VT_CORE T vt_pick16_##T(T##16 x, uint k) {        \
    return vt_pick8_##T((k & 8u) ? x.hi : x.lo, k); \
  }

// shuffle(T##M x, U##N mask) for N = 2, 4, 8, 16: the 2-element results pick directly,
// wider ones are two shuffles of the mask's halves.
#define VT_SHUFFLE_M(T, U, M)                                                       \
  VT_OVL T##2 VT_CL(shuffle)(T##M x, U##2 mask) {                                   \
    return (T##2)(vt_pick##M##_##T(x, (uint)mask.s0 & (M - 1)),                     \
                  vt_pick##M##_##T(x, (uint)mask.s1 & (M - 1)));                    \
  }                                                                                 \
  VT_OVL T##4 VT_CL(shuffle)(T##M x, U##4 mask) {                                   \
    return (T##4)(VT_CL(shuffle)(x, mask.lo), VT_CL(shuffle)(x, mask.hi));          \
  }                                                                                 \
  VT_OVL T##8 VT_CL(shuffle)(T##M x, U##8 mask) {                                   \
    return (T##8)(VT_CL(shuffle)(x, mask.lo), VT_CL(shuffle)(x, mask.hi));          \
  }                                                                                 \
  VT_OVL T##16 VT_CL(shuffle)(T##M x, U##16 mask) {                                 \
    return (T##16)(VT_CL(shuffle)(x, mask.lo), VT_CL(shuffle)(x, mask.hi));         \
  }                                                                                 \
  VT_CORE T vt_pick2x##M##_##T(T##M x, T##M y, uint k) {                            \
    return vt_pick##M##_##T((k & M) ? y : x, k & (M - 1));                          \
  }                                                                                 \
  VT_OVL T##2 VT_CL(shuffle2)(T##M x, T##M y, U##2 mask) {                          \
    return (T##2)(vt_pick2x##M##_##T(x, y, (uint)mask.s0 & (2 * M - 1)),            \
                  vt_pick2x##M##_##T(x, y, (uint)mask.s1 & (2 * M - 1)));           \
  }                                                                                 \
  VT_OVL T##4 VT_CL(shuffle2)(T##M x, T##M y, U##4 mask) {                          \
    return (T##4)(VT_CL(shuffle2)(x, y, mask.lo), VT_CL(shuffle2)(x, y, mask.hi));  \
  }                                                                                 \
  VT_OVL T##8 VT_CL(shuffle2)(T##M x, T##M y, U##8 mask) {                          \
    return (T##8)(VT_CL(shuffle2)(x, y, mask.lo), VT_CL(shuffle2)(x, y, mask.hi));  \
  }                                                                                 \
  VT_OVL T##16 VT_CL(shuffle2)(T##M x, T##M y, U##16 mask) {                        \
    return (T##16)(VT_CL(shuffle2)(x, y, mask.lo), VT_CL(shuffle2)(x, y, mask.hi)); \
  }

#define VT_SHUFFLE(T, U) \
  VT_PICK(T)             \
  VT_SHUFFLE_M(T, U, 2)  \
  VT_SHUFFLE_M(T, U, 4)  \
  VT_SHUFFLE_M(T, U, 8)  \
  VT_SHUFFLE_M(T, U, 16)

VT_SHUFFLE(char, uchar)
VT_SHUFFLE(uchar, uchar)
VT_SHUFFLE(short, ushort)
VT_SHUFFLE(ushort, ushort)
VT_SHUFFLE(int, uint)
VT_SHUFFLE(uint, uint)
VT_SHUFFLE(long, ulong)
VT_SHUFFLE(ulong, ulong)
VT_SHUFFLE(float, uint)
VT_SHUFFLE(double, ulong)
#ifdef cl_khr_fp16
VT_SHUFFLE(half, ushort)
#endif
