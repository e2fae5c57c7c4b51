// Half-precision storage (no cl_khr_fp16 needed): vload_half / vload_half4 widen halves
// to floats exactly; vstore_half and vstore_half4 round (default rte, and rtz rtp rtn),
// including overflow to infinity and subnormal halves (not NaN: its half bits are the
// implementation's).
//
// @buffer h u16[512] random 0 65535 seed=411
// @buffer f f32[512] random -70000 70000 seed=412
// @buffer small f32[64] values 0 -0 1 -1 65504 65520 -65536 1e-5 -3e-7 6e-8 inf -inf 0.333333 2049 4097.5 1.00048828125
// @buffer widened f32[512] zeros
// @buffer rounded u16[1024] zeros
// @buffer rounded_small u16[256] zeros
// @run halves h f small widened rounded rounded_small
// @range global=128 local=32
// @check widened exact
// @check rounded exact
// @check rounded_small exact

__kernel void halves(__global const half* h, __global const float* f,
                     __global const float* small, __global float* widened,
                     __global half* rounded, __global half* rounded_small) {
  int i = get_global_id(0), n = get_global_size(0);
  widened[i] = vload_half(i, h);
  float4 w = vload_half4(i, h);
  widened[n + i] = w.x;
  widened[2 * n + i] = w.y + w.z;
  widened[3 * n + i] = w.w;
  float x = f[i] * (1.0f + (i % 3));
  vstore_half(x, i, rounded);
  vstore_half_rtz(x, n + i, rounded);
  vstore_half_rtp(x * 0.001f, 2 * n + i, rounded);
  vstore_half_rtn(x * 1e-6f, 3 * n + i, rounded);
  vstore_half4(vload4(i, f) * 0.01f, i, rounded + 4 * n);
  vstore_half(small[i % 64] * (i < 64 ? 1.0f : -1.0f), i, rounded_small);
  vstore_half_rtz(small[i % 64], n + i, rounded_small);
}
