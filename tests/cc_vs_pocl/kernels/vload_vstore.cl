// vloadN / vstoreN (N = 2, 3, 4, 8, 16) on float, int, uchar and short buffers at offsets
// that are element-aligned but not vector-aligned (pointer + 1, + 3), mixing the loaded
// vectors and storing them back with vstoreN.
//
// @buffer f f32[4500] random -50 50 seed=401
// @buffer iv i32[1200] random -1000 1000 seed=402
// @buffer bytes u8[2600] random 0 255 seed=403
// @buffer shorts i16[1100] random -30000 30000 seed=404
// @buffer outf f32[4500] zeros
// @buffer outi i32[1200] zeros
// @buffer outb u8[2600] zeros
// @buffer outs i16[1100] zeros
// @run vload_store f iv bytes shorts outf outi outb outs
// @range global=128 local=64
// @check outf exact
// @check outi exact
// @check outb exact
// @check outs exact

#pragma OPENCL FP_CONTRACT OFF

__kernel void vload_store(__global const float* f, __global const int* iv,
                          __global const uchar* bytes, __global const short* shorts,
                          __global float* outf, __global int* outi, __global uchar* outb,
                          __global short* outs) {
  int i = get_global_id(0);
  float2 f2 = vload2(i, f + 1);
  float3 f3 = vload3(i, f + 300);
  float4 f4 = vload4(i, f + 803);
  float8 f8 = vload8(i, f + 1400);
  float16 f16 = vload16(i, f + 2450);
  vstore2(f2 * 2.0f, i, outf + 1);
  vstore3(f3 + (float3)(f2.x), i, outf + 300);
  vstore4(f4.wzyx, i, outf + 803);
  vstore8(f8 + f16.lo, i, outf + 1400);
  vstore16(f16 - (float16)(f4.x), i, outf + 2450);
  int3 i3 = vload3(i, iv + 1);
  int4 i4 = vload4(i, iv + 387);
  int2 i2 = vload2(i, iv + 900);
  vstore3(i3 * 3, i, outi + 1);
  vstore4(i4 + i4.yzwx, i, outi + 387);
  vstore2(i2.yx - i3.xy, i, outi + 900);
  uchar16 b16 = vload16(i, bytes + 3);
  uchar4 b4 = vload4(i, bytes + 2053);
  vstore16(b16 + (uchar16)(1), i, outb + 3);
  vstore4(b4 ^ b16.s0123, i, outb + 2053);
  short8 s8 = vload8(i, shorts + 1);
  vstore8(s8 >> 1, i, outs + 1);
}
