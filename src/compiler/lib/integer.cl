// OpenCL C integer functions (s6.15.3) for char, uchar, short, ushort, int, uint, long,
// ulong and their vectors. 8- and 16-bit arithmetic goes through int (C's promotions);
// 32-bit products use the device's mulh/mulhu (__vt_mulh*), 64-bit ones 32-bit halves.
// Bit counts are shifts and masks (the device has no clz/ctz/popcount instructions).
#include "core/vector.h"

// ---- bit counts, per width ----
VT_CORE uint vt_ctz64(ulong x) {
  uint lo = (uint)x;
  return lo ? vt_ctz32(lo) : 32 + vt_ctz32((uint)(x >> 32));
}
VT_CORE uint vt_popcount64(ulong x) {
  return vt_popcount32((uint)x) + vt_popcount32((uint)(x >> 32));
}

// ---- 64-bit high products from 32-bit halves ----
VT_CORE ulong vt_mulhu64(ulong a, ulong b) {
  ulong a0 = (uint)a, a1 = a >> 32, b0 = (uint)b, b1 = b >> 32;
  ulong p00 = a0 * b0, p10 = a1 * b0, p01 = a0 * b1, p11 = a1 * b1;
  ulong mid = (p00 >> 32) + (uint)p10 + p01;  // <= 2 (2^32 - 1) + (2^32 - 1)^2 < 2^64
  return p11 + (p10 >> 32) + (mid >> 32);
}
VT_CORE long vt_mulh64(long a, long b) {
  // The signed high part from the unsigned one: subtract b for a < 0 and a for b < 0.
  ulong h = vt_mulhu64((ulong)a, (ulong)b);
  if (a < 0) h -= (ulong)b;
  if (b < 0) h -= (ulong)a;
  return (long)h;
}

// ---- functions common to every type: T, its unsigned type UT, its width ----
#define VT_INT_COMMON(T, UT, BITS, CLZ, CTZ, POP)                     \
  VT_OVL UT VT_CL(abs)(T x) {                                         \
    return x < (T)0 ? (UT)((UT)0 - (UT)x) : (UT)x;                    \
  }                                                                   \
  VT_OVL UT VT_CL(abs_diff)(T x, T y) {                               \
    return x > y ? (UT)((UT)x - (UT)y) : (UT)((UT)y - (UT)x);         \
  }                                                                   \
  VT_OVL T VT_CL(hadd)(T x, T y) {                                    \
    return (T)((x >> 1) + (y >> 1) + (x & y & (T)1));                 \
  }                                                                   \
  VT_OVL T VT_CL(rhadd)(T x, T y) {                                   \
    return (T)((x >> 1) + (y >> 1) + ((x | y) & (T)1));               \
  }                                                                   \
  VT_OVL T VT_CL(max)(T x, T y) {                                     \
    return x > y ? x : y;                                             \
  }                                                                   \
  VT_OVL T VT_CL(min)(T x, T y) {                                     \
    return x < y ? x : y;                                             \
  }                                                                   \
  VT_OVL T VT_CL(clamp)(T x, T lo, T hi) {                            \
    return VT_CL(min)(VT_CL(max)(x, lo), hi);                         \
  }                                                                   \
  VT_OVL T VT_CL(clz)(T x) {                                          \
    return (T)CLZ;                                                    \
  }                                                                   \
  VT_OVL T VT_CL(ctz)(T x) {                                          \
    return (T)CTZ;                                                    \
  }                                                                   \
  VT_OVL T VT_CL(popcount)(T x) {                                     \
    return (T)POP;                                                    \
  }                                                                   \
  VT_OVL T VT_CL(rotate)(T v, T i) {                                  \
    UT u = (UT)v;                                                     \
    uint n = (uint)i & (BITS - 1);                                    \
    /* (u >> 1) >> (BITS - 1 - n): no shift by BITS for n = 0, and no \
       funnel-shift idiom for LLVM to form (the device has none) */   \
    return (T)(UT)((UT)(u << n) | (UT)((u >> 1) >> (BITS - 1 - n)));  \
  }                                                                   \
  VT_OVL T VT_CL(mad_hi)(T a, T b, T c) {                             \
    return (T)(VT_CL(mul_hi)(a, b) + c);                              \
  }                                                                   \
  VT_V1(UT, T, VT_CL(abs))                                            \
  VT_V2(UT, T, T, VT_CL(abs_diff))                                    \
  VT_V2(T, T, T, VT_CL(add_sat))                                      \
  VT_V2(T, T, T, VT_CL(sub_sat))                                      \
  VT_V2(T, T, T, VT_CL(hadd))                                         \
  VT_V2(T, T, T, VT_CL(rhadd))                                        \
  VT_V2(T, T, T, VT_CL(max))                                          \
  VT_V2S(T, T, T, VT_CL(max))                                         \
  VT_V2(T, T, T, VT_CL(min))                                          \
  VT_V2S(T, T, T, VT_CL(min))                                         \
  VT_V3(T, T, T, T, VT_CL(clamp))                                     \
  VT_V3SS(T, T, T, T, VT_CL(clamp))                                   \
  VT_V1(T, T, VT_CL(clz))                                             \
  VT_V1(T, T, VT_CL(ctz))                                             \
  VT_V1(T, T, VT_CL(popcount))                                        \
  VT_V2(T, T, T, VT_CL(rotate))                                       \
  VT_V2(T, T, T, VT_CL(mul_hi))                                       \
  VT_V3(T, T, T, T, VT_CL(mad_hi))                                    \
  VT_V3(T, T, T, T, VT_CL(mad_sat))

// ---- 8- and 16-bit: exact in int (uint for the unsigned products) ----
#define VT_INT_SMALL_SIGNED(T, BITS, TMIN, TMAX)       \
  VT_OVL T VT_CL(add_sat)(T x, T y) {                  \
    int s = (int)x + (int)y;                           \
    return (T)(s > TMAX ? TMAX : s < TMIN ? TMIN : s); \
  }                                                    \
  VT_OVL T VT_CL(sub_sat)(T x, T y) {                  \
    int s = (int)x - (int)y;                           \
    return (T)(s > TMAX ? TMAX : s < TMIN ? TMIN : s); \
  }                                                    \
  VT_OVL T VT_CL(mul_hi)(T x, T y) {                   \
    return (T)(((int)x * (int)y) >> BITS);             \
  }                                                    \
  VT_OVL T VT_CL(mad_sat)(T a, T b, T c) {             \
    int s = (int)a * (int)b + (int)c;                  \
    return (T)(s > TMAX ? TMAX : s < TMIN ? TMIN : s); \
  }
#define VT_INT_SMALL_UNSIGNED(T, BITS, TMAX)                              \
  VT_OVL T VT_CL(add_sat)(T x, T y) {                                     \
    uint s = (uint)x + (uint)y;                                           \
    return (T)(s > TMAX ? TMAX : s);                                      \
  }                                                                       \
  VT_OVL T VT_CL(sub_sat)(T x, T y) {                                     \
    return x < y ? (T)0 : (T)(x - y);                                     \
  }                                                                       \
  VT_OVL T VT_CL(mul_hi)(T x, T y) {                                      \
    return (T)(((uint)x * (uint)y) >> BITS);                              \
  }                                                                       \
  VT_OVL T VT_CL(mad_sat)(T a, T b, T c) {                                \
    uint s = (uint)a * (uint)b + (uint)c; /* <= 65535^2 + 65535 < 2^32 */ \
    return (T)(s > TMAX ? TMAX : s);                                      \
  }

VT_INT_SMALL_SIGNED(char, 8, -128, 127)
VT_INT_SMALL_UNSIGNED(uchar, 8, 255u)
VT_INT_SMALL_SIGNED(short, 16, -32768, 32767)
VT_INT_SMALL_UNSIGNED(ushort, 16, 65535u)
VT_INT_COMMON(char, uchar, 8, vt_clz32((uint)(uchar)x) - 24, (x ? vt_ctz32((uint)(uchar)x) : 8),
              vt_popcount32((uint)(uchar)x))
VT_INT_COMMON(uchar, uchar, 8, vt_clz32((uint)x) - 24, (x ? vt_ctz32((uint)x) : 8),
              vt_popcount32((uint)x))
VT_INT_COMMON(short, ushort, 16, vt_clz32((uint)(ushort)x) - 16,
              (x ? vt_ctz32((uint)(ushort)x) : 16), vt_popcount32((uint)(ushort)x))
VT_INT_COMMON(ushort, ushort, 16, vt_clz32((uint)x) - 16, (x ? vt_ctz32((uint)x) : 16),
              vt_popcount32((uint)x))

// ---- 32 bits ----
VT_OVL int VT_CL(add_sat)(int x, int y) {
  int s = (int)((uint)x + (uint)y);
  // Overflow when x and y have the same sign and s the other one.
  return ((x ^ s) & (y ^ s)) < 0 ? (x < 0 ? INT_MIN : INT_MAX) : s;
}
VT_OVL int VT_CL(sub_sat)(int x, int y) {
  int s = (int)((uint)x - (uint)y);
  return ((x ^ y) & (x ^ s)) < 0 ? (x < 0 ? INT_MIN : INT_MAX) : s;
}
VT_OVL uint VT_CL(add_sat)(uint x, uint y) {
  uint s = x + y;
  return s < x ? UINT_MAX : s;
}
VT_OVL uint VT_CL(sub_sat)(uint x, uint y) {
  return x < y ? 0u : x - y;
}
VT_OVL int VT_CL(mul_hi)(int x, int y) {
  return VT_MULH(x, y);
}
VT_OVL uint VT_CL(mul_hi)(uint x, uint y) {
  return VT_MULHU(x, y);
}
// a * b + c with the 64-bit product as (hi, lo) words, saturated to 32 bits.
VT_OVL int VT_CL(mad_sat)(int a, int b, int c) {
  int hi = VT_MULH(a, b);
  uint lo = (uint)a * (uint)b;
  uint lo2 = lo + (uint)c;
  hi += (c < 0 ? -1 : 0) + (lo2 < lo ? 1 : 0);
  // Representable iff hi is the sign extension of lo2.
  if (hi == ((int)lo2 >> 31)) return (int)lo2;
  return hi < 0 ? INT_MIN : INT_MAX;
}
VT_OVL uint VT_CL(mad_sat)(uint a, uint b, uint c) {
  uint hi = VT_MULHU(a, b);
  uint lo = a * b;
  uint lo2 = lo + c;
  hi += lo2 < lo ? 1u : 0u;
  return hi ? UINT_MAX : lo2;
}
VT_INT_COMMON(int, uint, 32, vt_clz32((uint)x), vt_ctz32((uint)x), vt_popcount32((uint)x))
VT_INT_COMMON(uint, uint, 32, vt_clz32(x), vt_ctz32(x), vt_popcount32(x))

// mul24/mad24: operands are 24-bit values by contract; the full 32-bit product is a
// valid result for them.
VT_OVL int VT_CL(mul24)(int x, int y) {
  return x * y;
}
VT_OVL uint VT_CL(mul24)(uint x, uint y) {
  return x * y;
}
VT_OVL int VT_CL(mad24)(int x, int y, int z) {
  return x * y + z;
}
VT_OVL uint VT_CL(mad24)(uint x, uint y, uint z) {
  return x * y + z;
}
VT_V2(int, int, int, VT_CL(mul24))
VT_V2(uint, uint, uint, VT_CL(mul24))
VT_V3(int, int, int, int, VT_CL(mad24))
VT_V3(uint, uint, uint, uint, VT_CL(mad24))

// ---- 64 bits ----
VT_OVL long VT_CL(add_sat)(long x, long y) {
  long s = (long)((ulong)x + (ulong)y);
  return ((x ^ s) & (y ^ s)) < 0 ? (x < 0 ? LONG_MIN : LONG_MAX) : s;
}
VT_OVL long VT_CL(sub_sat)(long x, long y) {
  long s = (long)((ulong)x - (ulong)y);
  return ((x ^ y) & (x ^ s)) < 0 ? (x < 0 ? LONG_MIN : LONG_MAX) : s;
}
VT_OVL ulong VT_CL(add_sat)(ulong x, ulong y) {
  ulong s = x + y;
  return s < x ? ULONG_MAX : s;
}
VT_OVL ulong VT_CL(sub_sat)(ulong x, ulong y) {
  return x < y ? 0ul : x - y;
}
VT_OVL long VT_CL(mul_hi)(long x, long y) {
  return vt_mulh64(x, y);
}
VT_OVL ulong VT_CL(mul_hi)(ulong x, ulong y) {
  return vt_mulhu64(x, y);
}
VT_OVL long VT_CL(mad_sat)(long a, long b, long c) {
  long hi = vt_mulh64(a, b);
  ulong lo = (ulong)a * (ulong)b;
  ulong lo2 = lo + (ulong)c;
  hi += (c < 0 ? -1 : 0) + (lo2 < lo ? 1 : 0);
  if (hi == ((long)lo2 >> 63)) return (long)lo2;
  return hi < 0 ? LONG_MIN : LONG_MAX;
}
VT_OVL ulong VT_CL(mad_sat)(ulong a, ulong b, ulong c) {
  ulong hi = vt_mulhu64(a, b);
  ulong lo = a * b;
  ulong lo2 = lo + c;
  hi += lo2 < lo ? 1ul : 0ul;
  return hi ? ULONG_MAX : lo2;
}
VT_INT_COMMON(long, ulong, 64, vt_clz64((ulong)x), vt_ctz64((ulong)x), vt_popcount64((ulong)x))
VT_INT_COMMON(ulong, ulong, 64, vt_clz64(x), vt_ctz64(x), vt_popcount64(x))

// ---- upsample: (hi << width) | lo, shifted as unsigned (no signed-shift overflow) ----
#define VT_UPSAMPLE(RT, URT, HT, UHT, LT, BITS)         \
  VT_OVL RT VT_CL(upsample)(HT hi, LT lo) {             \
    return (RT)(URT)(((URT)(UHT)hi << BITS) | (URT)lo); \
  }                                                     \
  VT_V2(RT, HT, LT, VT_CL(upsample))
VT_UPSAMPLE(short, ushort, char, uchar, uchar, 8)
VT_UPSAMPLE(ushort, ushort, uchar, uchar, uchar, 8)
VT_UPSAMPLE(int, uint, short, ushort, ushort, 16)
VT_UPSAMPLE(uint, uint, ushort, ushort, ushort, 16)
VT_UPSAMPLE(long, ulong, int, uint, uint, 32)
VT_UPSAMPLE(ulong, ulong, uint, uint, uint, 32)
