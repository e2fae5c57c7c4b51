// half (cl_khr_fp16): + - * / fma sqrt, negation, fabs, min/max, compares and select,
// half <-> float and int conversions, for uniform and per-work-item values, as kernel
// arguments, in private, local and global memory, scalar and vector. pocl on this
// machine has no cl_khr_fp16, so its side computes the same results the way the
// extension defines them: exactly in float (or double for fma, where the sum is exact
// within half's range) and rounded once to nearest even by vstore_half_rte. Inputs are
// built from random bits with a limited exponent range (finite, never NaN: NaN payloads
// differ between x86 and the device's canonical NaN, 0x7e00); every result is compared
// bit for bit as a ushort.
//
// @buffer a u16[256] random 0 65535 seed=1611
// @buffer b u16[256] random 0 65535 seed=1612
// @buffer r u16[5632] zeros   # 22 x 256
// @run hlf a b r uint:49536   # the bits of -2.75 (0xc180)
// @range global=256 local=64
// @range global=256 local=32
// @check r exact

#ifdef cl_khr_fp16
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#endif

// A finite half's bits from random bits: sign and significand kept, exponent field in
// [lo, lo + span).
ushort make(ushort bits, uint lo, uint span) {
  return (ushort)((bits & 0x83ffu) | ((lo + (uint)(bits >> 10) % span) << 10));
}

float ld(ushort h) {
  return vload_half(0, (const __private half*)&h);
}
ushort rn(float f) {
  ushort h;
  vstore_half_rte(f, 0, (__private half*)&h);
  return h;
}
ushort rnd(double d) {
  ushort h;
  vstore_half_rte(d, 0, (__private half*)&h);
  return h;
}

#ifdef cl_khr_fp16
#define H(x) as_half(x)
#define B(x) as_ushort(x)
#define ADD(x, y) B(H(x) + H(y))
#define SUB(x, y) B(H(x) - H(y))
#define MUL(x, y) B(H(x) * H(y))
#define DIV(x, y) B(H(x) / H(y))
#define FMA(x, y, z) B(fma(H(x), H(y), H(z)))
#define SQRT(x) B(sqrt(H(x)))
#define NEG(x) B(-H(x))
#define FABS(x) B(fabs(H(x)))
#define FMIN(x, y) B(fmin(H(x), H(y)))
#define LT(x, y) (H(x) < H(y))
#define EQ(x, y) (H(x) == H(y))
#define GE(x, y) (H(x) >= H(y))
#define SEL(c, x, y) B((c) ? H(x) : H(y))
#define TO_INT(x) convert_int_sat(H(x))
#define TO_UCHAR(x) ((uchar)H(x))
#define TO_FLOAT(x) ((float)H(x))
#define FROM_INT(i) B((half)(i))
#define FROM_FLOAT(f) B((half)(f))
#define FROM_DOUBLE(d) B((half)(d))
#define MAD4(x, y, z) \
  as_ushort4(fma(as_half4(x), as_half4(y), as_half4(z)) + as_half4(x) * as_half4(y))
#else
#define ADD(x, y) rn(ld(x) + ld(y))
#define SUB(x, y) rn(ld(x) - ld(y))
#define MUL(x, y) rn(ld(x) * ld(y))
#define DIV(x, y) rn(ld(x) / ld(y))
#define FMA(x, y, z) rnd((double)ld(x) * (double)ld(y) + (double)ld(z))
#define SQRT(x) rn(sqrt(ld(x)))
#define NEG(x) ((ushort)((x) ^ 0x8000u))
#define FABS(x) ((ushort)((x) & 0x7fffu))
#define FMIN(x, y) rn(fmin(ld(x), ld(y)))
#define LT(x, y) (ld(x) < ld(y))
#define EQ(x, y) (ld(x) == ld(y))
#define GE(x, y) (ld(x) >= ld(y))
#define SEL(c, x, y) ((c) ? (x) : (y))
#define TO_INT(x) convert_int_sat(ld(x))
#define TO_UCHAR(x) ((uchar)ld(x))
#define TO_FLOAT(x) ld(x)
#define FROM_INT(i) rn((float)(i))
#define FROM_FLOAT(f) rn(f)
#define FROM_DOUBLE(d) rnd(d)
ushort4 mad4(ushort4 x, ushort4 y, ushort4 z) {
  ushort4 r;
  r.x = ADD(FMA(x.x, y.x, z.x), MUL(x.x, y.x));
  r.y = ADD(FMA(x.y, y.y, z.y), MUL(x.y, y.y));
  r.z = ADD(FMA(x.z, y.z, z.z), MUL(x.z, y.z));
  r.w = ADD(FMA(x.w, y.w, z.w), MUL(x.w, y.w));
  return r;
}
#define MAD4(x, y, z) mad4(x, y, z)
#endif

__kernel void hlf(__global const ushort* as, __global const ushort* bs, __global ushort* r,
                  uint c_bits) {
  ushort c = (ushort)c_bits;
  __local ushort tile[64];
  int i = get_global_id(0), n = get_global_size(0), l = get_local_id(0);
  ushort x = make(as[i], 8, 16), y = make(bs[i], 8, 16);
  ushort big = make(bs[i], 20, 10), tiny = make(as[i], 0, 3);  // up to inf; subnormals
  ushort priv[4] = {x, y, big, tiny};
  tile[l] = y;
  barrier(CLK_LOCAL_MEM_FENCE);
  ushort other = tile[(l + 1) & 63 & (get_local_size(0) - 1)];
  int k = 0;
  r[k++ * n + i] = ADD(x, y);
  r[k++ * n + i] = SUB(x, other);
  r[k++ * n + i] = MUL(ADD(x, y), c);
  r[k++ * n + i] = DIV(x, y);
  r[k++ * n + i] = FMA(x, y, c);
  r[k++ * n + i] = SQRT(FABS(x));
  r[k++ * n + i] = MUL(big, priv[i & 3]);       // overflow to infinity
  r[k++ * n + i] = MUL(tiny, x);                // subnormal results
  r[k++ * n + i] = ADD(tiny, priv[(i + 3) & 3]);
  r[k++ * n + i] = NEG(FMIN(x, y));
  r[k++ * n + i] = (ushort)(LT(x, y) | EQ(x, x) << 1 | GE(tiny, other) << 2);
  r[k++ * n + i] = SEL(LT(x, c), y, big);
  r[k++ * n + i] = (ushort)(TO_INT(MUL(x, big)) >> 8);  // and beyond int: saturated
  r[k++ * n + i] = TO_UCHAR(FABS(big));
  r[k++ * n + i] = FROM_INT((int)as[i] * (i - 128));  // beyond 65504: infinity
  r[k++ * n + i] = FROM_FLOAT(TO_FLOAT(x) * 3.0f + 0.1f);
  r[k++ * n + i] = FROM_DOUBLE((double)TO_FLOAT(y) / 3.0);
  r[k++ * n + i] = ADD(c, c);                   // uniform
  ushort4 x4 = (ushort4)(x, y, big, tiny), y4 = (ushort4)(other, c, x, y);
  ushort4 v = MAD4(x4, y4, x4.wzyx);
  r[k++ * n + i] = v.x;
  r[k++ * n + i] = v.y;
  r[k++ * n + i] = v.z;
  r[k++ * n + i] = v.w;
}
