// normalize and length on float2/3/4 whose elements span the whole exponent range
// (subnormal to 2^127 in one vector): the scaled elements must not become subnormal where
// the result is not (issue 17, item 10: 84 ulp, or 0, before).
//
// @buffer m float4[512] random 1 2 seed=901
// @buffer e i32[2048] random -149 127 seed=902
// @buffer n4 float4[512] zeros
// @buffer n3 f32[1536] zeros
// @buffer n2 float4[512] zeros
// @buffer len f32[1536] zeros   # 3 x 512
// @run normalize_range m e n4 n3 n2 len
// @range global=512 local=64
// @check n4 ulp 3
// @check n3 ulp 3
// @check n2 ulp 3
// @check len ulp 3

__kernel void normalize_range(__global const float4* ms, __global const int* es,
                              __global float4* n4, __global float* n3_out,
                              __global float4* n2_out, __global float* len) {
  int i = get_global_id(0), n = get_global_size(0);
  float4 m = ms[i];
  // One element near a chosen exponent, the others anywhere.
  float4 p = (float4)(ldexp(m.x, es[4 * i]), -ldexp(m.y, es[4 * i + 1]),
                      ldexp(m.z, es[4 * i + 2]), -ldexp(m.w, es[4 * i + 3]));
  n4[i] = normalize(p);
  float3 q = normalize(p.xyz);
  n2_out[i] = (float4)(normalize(p.zw), normalize(p.xw));
  vstore3(q, i, n3_out);
  len[i] = length(p);
  len[n + i] = length(p.xyz);
  len[2 * n + i] = length(p.yw);
}
