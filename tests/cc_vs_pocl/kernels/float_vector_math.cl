// Builtins on vector arguments: math (sqrt exp log sin fma fmin fmax floor clamp mix) on
// float4 and float8, integer builtins (clamp max abs popcount add_sat) on int4, uchar16
// and short8, and the vector forms of convert_* with saturation.
//
// @buffer f float8[256] random -20 20 seed=521
// @buffer g float4[256] random 0.1 5 seed=522
// @buffer iv int4[256] random -100000 100000 seed=523
// @buffer bytes uchar16[256] random 0 255 seed=524
// @buffer exact4 float4[768] zeros
// @buffer exact8 float8[256] zeros
// @buffer bounded float4[768] zeros
// @buffer ints int4[768] zeros
// @buffer outb uchar16[256] zeros
// @run vmath f g iv bytes exact4 exact8 bounded ints outb
// @range global=256 local=64
// @check exact4 exact
// @check exact8 exact
// @check bounded ulp 8 abs 1e-6   # sin + cos may cancel
// @check ints exact
// @check outb exact

__kernel void vmath(__global const float8* fs, __global const float4* gs,
                    __global const int4* is, __global const uchar16* bs,
                    __global float4* exact4, __global float8* exact8, __global float4* bounded,
                    __global int4* ints, __global uchar16* outb) {
  int i = get_global_id(0), n = get_global_size(0);
  float8 f = fs[i];
  float4 g = gs[i];
  int4 v = is[i];
  uchar16 b = bs[i];
  exact4[i] = fma(f.lo, f.hi, g);
  exact4[n + i] = fmin(f.lo, g) + fmax(f.hi, -g);
  exact4[2 * n + i] = floor(f.lo) - clamp(f.hi, -3.0f, 3.0f);
  exact8[i] = fabs(f) + round(f * 0.5f);
  bounded[i] = sqrt(g) + exp(g);
  bounded[n + i] = log(g) * 4.0f;
  bounded[2 * n + i] = sin(f.lo) + cos(f.hi);
  ints[i] = clamp(v, (int4)(-5000), (int4)(5000, 6000, 7000, 8000)) + popcount(v);
  ints[n + i] = convert_int4_sat(f.lo * 1e8f) ^ as_int4(abs_diff(v, v.wzyx));
  short8 s = convert_short8_sat(f * 2000.0f);
  ints[2 * n + i] = convert_int4(add_sat(s.lo, s.hi)) + max(v, v.yxwz);
  outb[i] = add_sat(b, b.sfedcba9876543210) ^ convert_uchar16_sat(v.xyzwxyzwxyzwxyzw);
}
