// By-value kernel arguments of vector types mixed with scalars and buffers: float4, int2,
// uint4, float2, float8 and float16 (larger than the argument words), in an order that
// makes their alignment matter (an int before a float4, a float after an int2).
//
// @buffer x f32[256] random -4 4 seed=541
// @buffer out float4[256] zeros
// @buffer outi int4[256] zeros
// @run byvalue x out outi int:7 float4:1.5,-2,0.25,8 int2:-3,100 float:0.5 uint4:1,2,3,4000000000 float2:3,-1 float8:1,2,3,4,5,6,7,8 float16:0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
// @range global=256 local=64
// @check out exact
// @check outi exact

#pragma OPENCL FP_CONTRACT OFF

__kernel void byvalue(__global const float* x, __global float4* out, __global int4* outi,
                      int k, float4 scale, int2 shift, float f, uint4 mask, float2 pair,
                      float8 wide, float16 wider) {
  int i = get_global_id(0);
  float v = x[i];
  float4 r = scale * v + (float4)(pair, f, (float)k);
  r += wide.lo * wide.hi.wzyx;
  r.w += wider.s0 + wider.sf * (float)(i % 4) + wider.s7 * 0.5f;
  out[i] = r;
  outi[i] = (int4)(i * shift.x + shift.y, (int)(mask.w >> (i % 8)), (int)(mask.x | (uint)k),
                   (int)wider.sa * k);
}
