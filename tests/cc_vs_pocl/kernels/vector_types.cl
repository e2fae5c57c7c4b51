// Vector types: float2/4/8/16 and int4 arithmetic, swizzles (xyzw, s0123..sF, lo hi even
// odd, repeated and reversed components), vector literals built from scalars and
// smaller vectors, component and swizzle assignment, vector comparisons as masks,
// mixed scalar-vector operations, integer vector shifts and bit operations.
//
// @buffer a float4[128] random -10 10 seed=391
// @buffer b float8[128] random -10 10 seed=392
// @buffer c float16[128] random -10 10 seed=393
// @buffer d int4[128] random -100000 100000 seed=394
// @buffer out4 float4[512] zeros
// @buffer out8 float8[128] zeros
// @buffer out16 float16[128] zeros
// @buffer outi int4[384] zeros
// @buffer quot float4[128] zeros
// @run vectors a b c d out4 out8 out16 outi quot
// @range global=128 local=32
// @check out4 exact
// @check out8 exact
// @check out16 exact
// @check outi exact
// @check quot ulp 4 abs 1e-6   # two quotients may cancel

#pragma OPENCL FP_CONTRACT OFF

__kernel void vectors(__global const float4* as, __global const float8* bs,
                      __global const float16* cs, __global const int4* ds,
                      __global float4* out4, __global float8* out8, __global float16* out16,
                      __global int4* outi, __global float4* quot) {
  int i = get_global_id(0), n = get_global_size(0);
  float4 a = as[i];
  float8 b = bs[i];
  float16 c = cs[i];
  int4 d = ds[i];
  out4[i] = a.wzyx + a.xxyy * 2.0f - a.s3120;
  out4[n + i] = (float4)(a.xy, b.s7, c.sf) + (float4)(1.0f, 2.0f, 3.0f, 4.0f);
  float4 r = a;
  r.s1 = b.s2;
  r.xz = c.lo.lo.odd;
  r.w += a.x * a.y;
  out4[2 * n + i] = r;
  float2 p = a.lo * a.hi + (float2)(c.s8);
  out4[3 * n + i] = (float4)(p, a.even - a.odd);
  float8 m = b * (float8)(a, a.wzyx) - b.s76543210;
  m.hi = m.hi + (float4)(c.s0);
  out8[i] = m;
  float16 e = c.sfedcba9876543210 + c * 0.5f;
  e.lo = e.lo - (float8)(1.0f);
  e.s0 = b.s0 + b.s1 + b.s2 + b.s3;
  out16[i] = e;
  int4 mask = a > (float4)(0.0f);
  int4 cmp = isless(a, b.lo) | (mask & (int4)(0x10));
  outi[i] = cmp;
  outi[n + i] = (d << (int4)(1, 3, 5, 7)) ^ (d >> 2) ^ ~d + (int4)(i);
  outi[2 * n + i] = d % (int4)(7, -9, 11, 13) + (d & 0xff) * (d.yzwx | 1) - d.zwxy / 3;
  quot[i] = a / b.hi + c.lo.lo / (a + (float4)(20.0f));
}
