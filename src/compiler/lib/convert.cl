// OpenCL C explicit conversions (s6.2.3): convert_<dst>[n][_sat][_rte|_rtz|_rtp|_rtn](src[n])
// for every pair of char, uchar, short, ushort, int, uint, long, ulong and float.
//  - integer -> integer: rounding modes change nothing; _sat clamps to the destination.
//  - float -> integer: round per mode (default toward zero), then convert; _sat turns
//    NaN into 0 and clamps. Without _sat an out-of-range value is undefined (OpenCL).
//  - integer -> float: the device converts 32-bit values to nearest-even; the directed
//    modes step the result by one ulp when it went the wrong way (8/16-bit values are
//    exact in float). 64-bit values are rounded from their bits in every mode (the
//    device has no 64-bit conversions), and so are floats converted to 64 bits.
//  - float -> float: the identity.
// as_<type> reinterpretations are clang's own operators.
#include "core/fp_basic.h"

// ---- float -> integer ----

// Round to an integral float in the given mode.
#define VT_ROUND_(x) vt_trunc(x)
#define VT_ROUND__rtz(x) vt_trunc(x)
#define VT_ROUND__rte(x) vt_rint(x)
#define VT_ROUND__rtp(x) vt_ceil(x)
#define VT_ROUND__rtn(x) vt_floor(x)

// An integral float known to be in D's range -> D. 8/16-bit values go through int (the
// device converts to 32-bit integers only).
#define VT_F2I_char(r) ((char)(int)(r))
#define VT_F2I_uchar(r) ((uchar)(int)(r))
#define VT_F2I_short(r) ((short)(int)(r))
#define VT_F2I_ushort(r) ((ushort)(int)(r))
#define VT_F2I_int(r) ((int)(r))
#define VT_F2I_uint(r) ((uint)(r))
#define VT_F2I_long(r) vt_float_to_long(r)
#define VT_F2I_ulong(r) vt_float_to_ulong(r)

// D's range as floats: the minimum and the maximum + 1 (both powers of two or 0, exact).
#define VT_FMIN_char -128.0f
#define VT_FEND_char 128.0f
#define VT_FMIN_uchar 0.0f
#define VT_FEND_uchar 256.0f
#define VT_FMIN_short -32768.0f
#define VT_FEND_short 32768.0f
#define VT_FMIN_ushort 0.0f
#define VT_FEND_ushort 65536.0f
#define VT_FMIN_int -0x1p31f
#define VT_FEND_int 0x1p31f
#define VT_FMIN_uint 0.0f
#define VT_FEND_uint 0x1p32f
#define VT_FMIN_long -0x1p63f
#define VT_FEND_long 0x1p63f
#define VT_FMIN_ulong 0.0f
#define VT_FEND_ulong 0x1p64f

#define VT_MIN_char CHAR_MIN
#define VT_MAX_char CHAR_MAX
#define VT_MIN_uchar 0
#define VT_MAX_uchar UCHAR_MAX
#define VT_MIN_short SHRT_MIN
#define VT_MAX_short SHRT_MAX
#define VT_MIN_ushort 0
#define VT_MAX_ushort USHRT_MAX
#define VT_MIN_int INT_MIN
#define VT_MAX_int INT_MAX
#define VT_MIN_uint 0u
#define VT_MAX_uint UINT_MAX
#define VT_MIN_long LONG_MIN
#define VT_MAX_long LONG_MAX
#define VT_MIN_ulong 0ul
#define VT_MAX_ulong ULONG_MAX

// Signedness and width of each integer type.
#define VT_SIGNED_char 1
#define VT_SIGNED_uchar 0
#define VT_SIGNED_short 1
#define VT_SIGNED_ushort 0
#define VT_SIGNED_int 1
#define VT_SIGNED_uint 0
#define VT_SIGNED_long 1
#define VT_SIGNED_ulong 0
#define VT_BITS_char 8
#define VT_BITS_uchar 8
#define VT_BITS_short 16
#define VT_BITS_ushort 16
#define VT_BITS_int 32
#define VT_BITS_uint 32
#define VT_BITS_long 64
#define VT_BITS_ulong 64

#define VT_CVT_F2I(D, R)                          \
  VT_OVL D VT_CL(convert_##D##R)(float x) {       \
    return VT_F2I_##D(VT_ROUND_##R(x));           \
  }                                               \
  VT_OVL D VT_CL(convert_##D##_sat##R)(float x) { \
    float r = VT_ROUND_##R(x);                    \
    if (vt_isnan(r)) return (D)0;                 \
    if (r < VT_FMIN_##D) return (D)VT_MIN_##D;    \
    if (r >= VT_FEND_##D) return (D)VT_MAX_##D;   \
    return VT_F2I_##D(r);                         \
  }

// ---- integer -> float in directed modes ----

// The float next to a nonzero finite f, up (dir > 0) or down.
VT_CORE float vt_step(float f, int dir) {
  uint u = as_uint(f);
  return as_float((f > 0.0f) == (dir > 0) ? u + 1 : u - 1);
}
// f = x rounded to nearest; cmp = sign(f - x) exactly; returns x rounded toward dir
// (1 up, -1 down, 0 toward zero).
VT_CORE float vt_fix_rounding(float f, int cmp, int negative, int dir) {
  if (cmp == 0) return f;
  if (dir == 0) dir = negative ? 1 : -1;
  if ((dir > 0 && cmp < 0) || (dir < 0 && cmp > 0)) return vt_step(f, dir);
  return f;
}
VT_CORE float vt_int_to_float(int x, int dir) {
  float f = (float)x;
  int cmp;
  if (f >= 0x1p31f) {
    cmp = 1;  // x <= 2^31 - 1
  } else {
    int g = (int)f;  // exact: f is an integer in [-2^31, 2^31)
    cmp = g > x ? 1 : g < x ? -1 : 0;
  }
  return vt_fix_rounding(f, cmp, x < 0, dir);
}
VT_CORE float vt_uint_to_float(uint x, int dir) {
  float f = (float)x;
  int cmp;
  if (f >= 0x1p32f) {
    cmp = 1;
  } else {
    uint g = (uint)f;
    cmp = g > x ? 1 : g < x ? -1 : 0;
  }
  return vt_fix_rounding(f, cmp, 0, dir);
}
// 64-bit integers <-> float by bits: the device converts only 32-bit integers.
// |x| as a float in a rounding mode (dir: 2 nearest even, 0 toward zero, 1 up, -1 down),
// with the sign `neg`: the top 24 bits of the magnitude, rounded with the rest.
VT_CORE float vt_u64_to_float(ulong u, int neg, int dir) {
  uint sign = neg ? 0x80000000u : 0u;
  if (u < 0x1000000ul) return as_float(sign | as_uint((float)(uint)u));  // exact
  uint hi = (uint)(u >> 32);
  int e = 63 - (int)(hi ? vt_clz32(hi) : 32 + vt_clz32((uint)u));  // leading bit, >= 24
  int sh = e - 23;
  ulong m = u >> sh;  // 24 bits
  ulong rem = u & ((1ul << sh) - 1ul), halfway = 1ul << (sh - 1);
  int up;
  if (dir == 2)
    up = rem > halfway || (rem == halfway && (m & 1ul));
  else if (dir == 0)
    up = 0;
  else
    up = rem != 0 && ((dir > 0) != (neg != 0));
  // (e + 126) << 23 plus the significand with its leading bit: the exponent field e + 127;
  // a carry out of the significand moves into the exponent.
  uint bits = ((uint)(e + 126) << 23) + (uint)m + (uint)up;
  return as_float(sign | bits);
}
VT_CORE float vt_long_to_float(long x, int dir) {
  int neg = x < 0;
  ulong u = neg ? 0ul - (ulong)x : (ulong)x;
  return vt_u64_to_float(u, neg, dir);
}
VT_CORE float vt_ulong_to_float(ulong x, int dir) {
  return vt_u64_to_float(x, 0, dir);
}
// An integral float with |r| < 2^64 -> its magnitude as a ulong.
VT_CORE ulong vt_float_magnitude_u64(float r) {
  uint b = as_uint(r) & 0x7fffffffu;
  if (b < 0x3f800000u) return 0ul;  // |r| < 1: r is 0
  int e = (int)(b >> 23) - 127;
  ulong m = (ulong)((b & 0x007fffffu) | 0x00800000u);
  return e >= 23 ? m << (e - 23) : m >> (23 - e);
}
VT_CORE long vt_float_to_long(float r) {
  ulong m = vt_float_magnitude_u64(r);
  return (long)(r < 0.0f ? 0ul - m : m);
}
VT_CORE ulong vt_float_to_ulong(float r) {
  return vt_float_magnitude_u64(r);
}
#define VT_DIR_ 2  // nearest even: the device's conversion as it is
#define VT_DIR__rte 2
#define VT_DIR__rtz 0
#define VT_DIR__rtp 1
#define VT_DIR__rtn -1
// 8/16-bit sources are exact in float.
#define VT_I2F_char(x, dir) ((float)(int)(x))
#define VT_I2F_uchar(x, dir) ((float)(int)(x))
#define VT_I2F_short(x, dir) ((float)(int)(x))
#define VT_I2F_ushort(x, dir) ((float)(int)(x))
#define VT_I2F_int(x, dir) ((dir) == 2 ? (float)(x) : vt_int_to_float(x, dir))
#define VT_I2F_uint(x, dir) ((dir) == 2 ? (float)(x) : vt_uint_to_float(x, dir))
#define VT_I2F_long(x, dir) vt_long_to_float(x, dir)
#define VT_I2F_ulong(x, dir) vt_ulong_to_float(x, dir)

#define VT_CVT_I2F(S, R)                      \
  VT_OVL float VT_CL(convert_float##R)(S x) { \
    return VT_I2F_##S(x, VT_DIR_##R);         \
  }

// ---- integer -> integer ----

// Saturation: a lower check when S reaches below D's minimum, an upper check when S
// reaches above D's maximum (constant conditions, folded away).
#define VT_CVT_I2I(D, S, R)                                                                  \
  VT_OVL D VT_CL(convert_##D##R)(S x) {                                                      \
    return (D)x;                                                                             \
  }                                                                                          \
  VT_OVL D VT_CL(convert_##D##_sat##R)(S x) {                                                \
    if (VT_SIGNED_##S && (!VT_SIGNED_##D || VT_BITS_##D < VT_BITS_##S) && x < (S)VT_MIN_##D) \
      return (D)VT_MIN_##D;                                                                  \
    if ((VT_BITS_##S > VT_BITS_##D ||                                                        \
         (VT_BITS_##S == VT_BITS_##D && !VT_SIGNED_##S && VT_SIGNED_##D)) &&                 \
        x > (S)VT_MAX_##D)                                                                   \
      return (D)VT_MAX_##D;                                                                  \
    return (D)x;                                                                             \
  }

// ---- vector forms: halves (3: elements) of the scalar conversion ----
#define VT_CVT_VEC(D, S, SUFFIX)                                                              \
  VT_OVL D##2 VT_CL(convert_##D##2##SUFFIX)(S##2 x) {                                         \
    return (D##2)(VT_CL(convert_##D##SUFFIX)(x.s0), VT_CL(convert_##D##SUFFIX)(x.s1));        \
  }                                                                                           \
  VT_OVL D##3 VT_CL(convert_##D##3##SUFFIX)(S##3 x) {                                         \
    return (D##3)(VT_CL(convert_##D##SUFFIX)(x.s0), VT_CL(convert_##D##SUFFIX)(x.s1),         \
                  VT_CL(convert_##D##SUFFIX)(x.s2));                                          \
  }                                                                                           \
  VT_OVL D##4 VT_CL(convert_##D##4##SUFFIX)(S##4 x) {                                         \
    return (D##4)(VT_CL(convert_##D##2##SUFFIX)(x.lo), VT_CL(convert_##D##2##SUFFIX)(x.hi));  \
  }                                                                                           \
  VT_OVL D##8 VT_CL(convert_##D##8##SUFFIX)(S##8 x) {                                         \
    return (D##8)(VT_CL(convert_##D##4##SUFFIX)(x.lo), VT_CL(convert_##D##4##SUFFIX)(x.hi));  \
  }                                                                                           \
  VT_OVL D##16 VT_CL(convert_##D##16##SUFFIX)(S##16 x) {                                      \
    return (D##16)(VT_CL(convert_##D##8##SUFFIX)(x.lo), VT_CL(convert_##D##8##SUFFIX)(x.hi)); \
  }

// Every rounding suffix of one (D, S) pair.
#define VT_FOR_ROUNDING(M, D, S) M(D, S, ) M(D, S, _rte) M(D, S, _rtz) M(D, S, _rtp) M(D, S, _rtn)

#define VT_PAIR_I2I(D, S, R) \
  VT_CVT_I2I(D, S, R)        \
  VT_CVT_VEC(D, S, R)        \
  VT_CVT_VEC(D, S, _sat##R)
#define VT_PAIR_F2I(D, S, R) \
  VT_CVT_F2I(D, R)           \
  VT_CVT_VEC(D, float, R)    \
  VT_CVT_VEC(D, float, _sat##R)
#define VT_PAIR_I2F(D, S, R) \
  VT_CVT_I2F(S, R)           \
  VT_CVT_VEC(float, S, R)
#define VT_PAIR_F2F(D, S, R)                      \
  VT_OVL float VT_CL(convert_float##R)(float x) { \
    return x;                                     \
  }                                               \
  VT_CVT_VEC(float, float, R)

// All sources for one integer destination D.
#define VT_TO_INT(D)                      \
  VT_FOR_ROUNDING(VT_PAIR_I2I, D, char)   \
  VT_FOR_ROUNDING(VT_PAIR_I2I, D, uchar)  \
  VT_FOR_ROUNDING(VT_PAIR_I2I, D, short)  \
  VT_FOR_ROUNDING(VT_PAIR_I2I, D, ushort) \
  VT_FOR_ROUNDING(VT_PAIR_I2I, D, int)    \
  VT_FOR_ROUNDING(VT_PAIR_I2I, D, uint)   \
  VT_FOR_ROUNDING(VT_PAIR_I2I, D, long)   \
  VT_FOR_ROUNDING(VT_PAIR_I2I, D, ulong)  \
  VT_FOR_ROUNDING(VT_PAIR_F2I, D, float)

VT_TO_INT(char)
VT_TO_INT(uchar)
VT_TO_INT(short)
VT_TO_INT(ushort)
VT_TO_INT(int)
VT_TO_INT(uint)
VT_TO_INT(long)
VT_TO_INT(ulong)
VT_FOR_ROUNDING(VT_PAIR_I2F, float, char)
VT_FOR_ROUNDING(VT_PAIR_I2F, float, uchar)
VT_FOR_ROUNDING(VT_PAIR_I2F, float, short)
VT_FOR_ROUNDING(VT_PAIR_I2F, float, ushort)
VT_FOR_ROUNDING(VT_PAIR_I2F, float, int)
VT_FOR_ROUNDING(VT_PAIR_I2F, float, uint)
VT_FOR_ROUNDING(VT_PAIR_I2F, float, long)
VT_FOR_ROUNDING(VT_PAIR_I2F, float, ulong)
VT_FOR_ROUNDING(VT_PAIR_F2F, float, float)

// ---- double (cl_khr_fp64) ----
// By the soft-float routines of core/fp64.h on the double's bits: the device's binary64
// arithmetic has no conversions. double -> integer: round per mode (default toward zero),
// then clamp to D (_sat: NaN gives 0; without _sat NaN gives D's maximum, as RISC-V's
// fcvt.w.d does; OpenCL leaves it undefined). integer/float -> double: rounded per mode
// (default nearest even); float and 32-bit integers are exact.
#include "core/fp64.h"

#define VT_DIR64_ 0  // toward zero: C's conversion
#define VT_DIR64__rte 2
#define VT_DIR64__rtz 0
#define VT_DIR64__rtp 1
#define VT_DIR64__rtn -1

#define VT_F64_TO_INT(D, R, NAN_VALUE)                                                      \
  (VT_SIGNED_##D                                                                            \
       ? (D)vt_f64_to_signed(as_ulong(x), VT_DIR64_##R, (long)VT_MIN_##D, (long)VT_MAX_##D, \
                             (long)(NAN_VALUE))                                             \
       : (D)vt_f64_to_unsigned(as_ulong(x), VT_DIR64_##R, (ulong)VT_MAX_##D, (ulong)(NAN_VALUE)))
#define VT_PAIR_D2I(D, S, R)                                                           \
  VT_OVL D VT_CL(convert_##D##R)(double x) { return VT_F64_TO_INT(D, R, VT_MAX_##D); } \
  VT_OVL D VT_CL(convert_##D##_sat##R)(double x) { return VT_F64_TO_INT(D, R, 0); }    \
  VT_CVT_VEC(D, double, R)                                                             \
  VT_CVT_VEC(D, double, _sat##R)
#define VT_PAIR_I2D(D, S, R)                                                 \
  VT_OVL double VT_CL(convert_double##R)(S x) {                              \
    return as_double(VT_SIGNED_##S ? vt_long_to_f64((long)x, VT_DIR_##R)     \
                                   : vt_ulong_to_f64((ulong)x, VT_DIR_##R)); \
  }                                                                          \
  VT_CVT_VEC(double, S, R)
#define VT_PAIR_F2D(D, S, R)                                                              \
  VT_OVL double VT_CL(convert_double##R)(float x) { return as_double(vt_f32_to_f64(x)); } \
  VT_OVL double VT_CL(convert_double##R)(double x) { return x; }                          \
  VT_OVL float VT_CL(convert_float##R)(double x) {                                        \
    return vt_f64_to_f32(as_ulong(x), VT_DIR_##R);                                        \
  }                                                                                       \
  VT_CVT_VEC(double, float, R)                                                            \
  VT_CVT_VEC(double, double, R)                                                           \
  VT_CVT_VEC(float, double, R)

VT_FOR_ROUNDING(VT_PAIR_D2I, char, double)
VT_FOR_ROUNDING(VT_PAIR_D2I, uchar, double)
VT_FOR_ROUNDING(VT_PAIR_D2I, short, double)
VT_FOR_ROUNDING(VT_PAIR_D2I, ushort, double)
VT_FOR_ROUNDING(VT_PAIR_D2I, int, double)
VT_FOR_ROUNDING(VT_PAIR_D2I, uint, double)
VT_FOR_ROUNDING(VT_PAIR_D2I, long, double)
VT_FOR_ROUNDING(VT_PAIR_D2I, ulong, double)
VT_FOR_ROUNDING(VT_PAIR_I2D, double, char)
VT_FOR_ROUNDING(VT_PAIR_I2D, double, uchar)
VT_FOR_ROUNDING(VT_PAIR_I2D, double, short)
VT_FOR_ROUNDING(VT_PAIR_I2D, double, ushort)
VT_FOR_ROUNDING(VT_PAIR_I2D, double, int)
VT_FOR_ROUNDING(VT_PAIR_I2D, double, uint)
VT_FOR_ROUNDING(VT_PAIR_I2D, double, long)
VT_FOR_ROUNDING(VT_PAIR_I2D, double, ulong)
VT_FOR_ROUNDING(VT_PAIR_F2D, double, float)

// ---- half (cl_khr_fp16) ----
// To half, rounded once in the mode: integers through float (exact below 2^24; any larger
// magnitude is beyond half's range in float too, and rounds to 65504 or infinity by the
// mode either way), floats and doubles from their bits. From half: the float conversions
// of the exactly extended value (the front end's promotion of half builtins).
// (core/fp16.h is included unconditionally: the pocl tests expand each header once.)
#include "core/fp16.h"

#ifdef cl_khr_fp16
#define VT_HALF_MODE_ 0
#define VT_HALF_MODE__rte 0
#define VT_HALF_MODE__rtz 1
#define VT_HALF_MODE__rtp 2
#define VT_HALF_MODE__rtn 3
#define VT_PAIR_X2H(D, S, R)                                          \
  VT_OVL half VT_CL(convert_half##R)(S x) {                           \
    return as_half(vt_to_half((float)x, VT_HALF_MODE_##R));           \
  }                                                                   \
  VT_CVT_VEC(half, S, R)
#define VT_PAIR_FP2H(D, S, R)                                         \
  VT_OVL half VT_CL(convert_half##R)(float x) {                       \
    return as_half(vt_to_half(x, VT_HALF_MODE_##R));                  \
  }                                                                   \
  VT_OVL half VT_CL(convert_half##R)(double x) {                      \
    return as_half(vt_to_half(x, VT_HALF_MODE_##R));                  \
  }                                                                   \
  VT_OVL half VT_CL(convert_half##R)(half x) { return x; }            \
  VT_CVT_VEC(half, float, R)                                          \
  VT_CVT_VEC(half, double, R)                                         \
  VT_CVT_VEC(half, half, R)

VT_FOR_ROUNDING(VT_PAIR_X2H, half, char)
VT_FOR_ROUNDING(VT_PAIR_X2H, half, uchar)
VT_FOR_ROUNDING(VT_PAIR_X2H, half, short)
VT_FOR_ROUNDING(VT_PAIR_X2H, half, ushort)
VT_FOR_ROUNDING(VT_PAIR_X2H, half, int)
VT_FOR_ROUNDING(VT_PAIR_X2H, half, uint)
VT_FOR_ROUNDING(VT_PAIR_X2H, half, long)
VT_FOR_ROUNDING(VT_PAIR_X2H, half, ulong)
VT_FOR_ROUNDING(VT_PAIR_FP2H, half, float)
#endif
