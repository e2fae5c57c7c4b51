// Conversions: convert_<type>[_sat][_rte|_rtz|_rtp|_rtn] float -> int/uint/short/uchar/
// char with special and out-of-range inputs (saturating forms only there), int/uint ->
// float in the four rounding modes, casts, and as_* reinterpretation between types of the
// same size.
//
// @buffer f f32[256] random -3000000000 3000000000 seed=381
// @buffer g f32[32] values 0.5 1.5 2.5 -0.5 -1.5 -2.5 nan inf -inf 2147483520 2147483648 -2147483648 -2147483904 4294967040 4294967296 1e10 -1e10 255.5 256 -128.5 -129 127.5 65535.5 -32768.5 0 -0 0.49999997 1e-30 -1e-30 3.75 -3.75 8388609
// @buffer h f32[256] random -30000 30000 seed=382
// @buffer i i32[256] random -2147483648 2147483647 seed=383
// @buffer sat i32[5632] zeros      # 11 x (256 + 256)
// @buffer inrange i32[1536] zeros  # 6 x 256
// @buffer tofloat f32[2048] zeros  # 8 x 256
// @buffer bits u32[1280] zeros     # 5 x 256
// @run conversions f g h i sat inrange tofloat bits
// @range global=256 local=64
// @check sat exact
// @check inrange exact
// @check tofloat exact
// @check bits exact

void saturating(float x, __global int* out, int n, int i) {
  out[0 * n + i] = convert_int_sat(x);
  out[1 * n + i] = convert_int_sat_rte(x);
  out[2 * n + i] = convert_int_sat_rtn(x);
  out[3 * n + i] = convert_int_sat_rtp(x);
  out[4 * n + i] = convert_int_sat_rtz(x);
  out[5 * n + i] = (int)convert_uint_sat(x);
  out[6 * n + i] = (int)convert_uint_sat_rte(x);
  out[7 * n + i] = convert_short_sat(x);
  out[8 * n + i] = convert_uchar_sat_rte(x);
  out[9 * n + i] = convert_char_sat(x);
  out[10 * n + i] = convert_ushort_sat_rtp(x);
}

__kernel void conversions(__global const float* fs, __global const float* gs,
                          __global const float* hs, __global const int* is, __global int* sat,
                          __global int* inrange, __global float* tofloat, __global uint* bits) {
  int k = get_global_id(0), n = get_global_size(0);
  saturating(fs[k], sat, 2 * n, k);
  saturating(gs[k % 32], sat, 2 * n, n + k);
  float h = hs[k] + 0.25f * (k % 4);  // exact quarters: .0 .25 .5 .75
  inrange[0 * n + k] = convert_int(h);
  inrange[1 * n + k] = convert_int_rte(h);
  inrange[2 * n + k] = convert_int_rtn(h);
  inrange[3 * n + k] = convert_int_rtp(h);
  inrange[4 * n + k] = (int)h + convert_short(h * 0.5f);
  inrange[5 * n + k] = convert_int(convert_char(h * 0.004f)) + convert_uint(fabs(h)) * 3;
  int v = is[k];
  uint u = (uint)v;
  tofloat[0 * n + k] = convert_float(v);
  tofloat[1 * n + k] = convert_float_rtz(v);
  tofloat[2 * n + k] = convert_float_rtn(v);
  tofloat[3 * n + k] = convert_float_rtp(v);
  tofloat[4 * n + k] = convert_float(u);
  tofloat[5 * n + k] = convert_float_rtz(u);
  tofloat[6 * n + k] = (float)(v >> 8) + (float)(uchar)v;
  tofloat[7 * n + k] = convert_float((short)v) * 0.5f;
  float4 f4 = (float4)(hs[k], fs[k], 1.0f, -2.0f);
  uint4 u4 = as_uint4(f4);
  bits[0 * n + k] = as_uint(hs[k]);
  bits[1 * n + k] = u4.y ^ u4.w;
  char4 c4 = as_char4(v);
  bits[2 * n + k] = (uint)(c4.x * 1000 + c4.w);
  short2 s2 = as_short2(hs[k]);
  bits[3 * n + k] = (uint)(s2.x - s2.y);
  bits[4 * n + k] = as_uint(as_float((v & 0x3fffffff) | 0x00800000) * 2.0f);  // normal
}
