// Conversions of double at the edges: zeros, subnormals (double and float), the largest
// and smallest finite values, infinities, NaN, halfway cases of every rounding mode, and
// integers beyond 2^53, through every convert_* rounding suffix and _sat and vstore_half, and double
// vectors (2, 3, 4, 8, 16 elements: arithmetic, loads and stores, vector conversions).
// Float results go to f32 buffers (NaN compares equal to NaN there: payloads differ
// between x86 and the device's canonical NaN); integer and double results bit for bit.
//
// @buffer p u64[64] random 0 1.8e19 seed=821
// @buffer q i64[64] random -9.2e18 9.2e18 seed=822
// @buffer f f32[4096] zeros
// @buffer r u64[8192] zeros
// @buffer h u16[1024] zeros
// @run edges p q f r h
// @range global=64 local=32
// @check f exact
// @check r exact
// @check h exact

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__constant ulong specials[32] = {
    0x0000000000000000ul, 0x8000000000000000ul, 0x0000000000000001ul, 0x800fffffffffffffUL,
    0x0010000000000000ul, 0x7fefffffffffffffUL, 0xffefffffffffffffUL, 0x7ff0000000000000ul,
    0xfff0000000000000ul, 0x7ff8000000000000ul, 0x3ff8000000000000ul, 0xc004000000000000ul,
    0x3fe0000000000000ul, 0xbfe0000000000000ul, 0x4330000000000001ul, 0x41dfffffffc00000ul,
    0x41e0000000000000ul, 0xc1e0000000000000ul, 0xc1e0000000200000ul, 0x43e0000000000000ul,
    0xc3e0000000000000ul, 0x43f0000000000000ul, 0x36a0000000000000ul, 0x369fffffffffffffUL,
    0x3810000000000000ul, 0x380fffffe0000000ul, 0x47efffffe0000000ul, 0x47effffff0000000ul,
    0x3ff0000010000000ul, 0x3ff0000030000000ul, 0xbff0000010000001ul, 0x4024000000000000ul};

__kernel void edges(__global const ulong* ps, __global const long* qs, __global float* f,
                    __global ulong* r, __global half* h) {
  int i = get_global_id(0), n = get_global_size(0);
  double x = as_double(i < 32 ? specials[i] : ps[i]);
  long q = qs[i];
  int k = 0, j = 0;
  f[j++ * n + i] = (float)x;
  f[j++ * n + i] = convert_float_rte(x);
  f[j++ * n + i] = convert_float_rtz(x);
  f[j++ * n + i] = convert_float_rtp(x);
  f[j++ * n + i] = convert_float_rtn(x);
  f[j++ * n + i] = (float)((double)as_float((uint)ps[i]) * 3.0);
  r[k++ * n + i] = as_ulong((double)as_float((uint)(ps[i] >> 32) & 0x807fffffu));  // subnormal floats
  r[k++ * n + i] = (ulong)convert_int_sat(x) ^ ((ulong)convert_uint_sat(x) << 32);
  r[k++ * n + i] = (ulong)convert_int_sat_rte(x) ^ ((ulong)convert_uint_sat_rtn(x) << 32);
  r[k++ * n + i] = (ulong)convert_int_sat_rtp(x) ^ ((ulong)convert_uint_sat_rtz(x) << 32);
  r[k++ * n + i] = (ulong)convert_long_sat(x);
  r[k++ * n + i] = (ulong)convert_long_sat_rtn(x);
  r[k++ * n + i] = convert_ulong_sat_rtp(x);
  r[k++ * n + i] = (ulong)convert_char_sat(x) ^ ((ulong)convert_uchar_sat_rte(x) << 8) ^
                   ((ulong)convert_short_sat_rtp(x) << 16) ^ ((ulong)convert_ushort_sat_rtn(x) << 32);
  r[k++ * n + i] = as_ulong(convert_double(q));
  r[k++ * n + i] = as_ulong(convert_double_rtz(q));
  r[k++ * n + i] = as_ulong(convert_double_rtp(q));
  r[k++ * n + i] = as_ulong(convert_double_rtn((ulong)q));
  r[k++ * n + i] = as_ulong(convert_double((ulong)q >> (i & 63)));
  r[k++ * n + i] = as_ulong(convert_double((int)q) + convert_double((uint)(q >> 32)));
  r[k++ * n + i] = isnan(x) | (isinf(x) << 1) | (isfinite(x) << 2) | (isnormal(x) << 3) |
                   (signbit(x) << 4) | (isunordered(x, 1.0) << 5) | (islessgreater(x, -x) << 6);
  // double -> half, rounded once in each mode (no NaN: payloads differ).
  double hx = i < 32 ? x : as_double((ps[i] & 0x800ffffffffffffful) | ((ulong)(995 + (ps[i] >> 52) % 48) << 52));
  if (!isnan(hx)) {
    vstore_half(hx, i, h);
    vstore_half_rte(hx, n + i, h);
    vstore_half_rtz(hx, 2 * n + i, h);
    vstore_half_rtp(hx, 3 * n + i, h);
    vstore_half_rtn(hx, 4 * n + i, h);
    vstore_half2_rtp((double2)(hx, -hx), 5 * n / 2 + i, h);
  }
  // Vectors.
  double2 v2 = (double2)(x, as_double(ps[i] & 0x3ffffffffffffffful));
  double4 v4 = (double4)(v2, v2 * 2.5);
  double8 v8 = (double8)(v4, v4 - 1.0);
  double16 v16 = (double16)(v8, v8 * v8);
  double3 v3 = v4.xyz;
  if (i >= 32) {
    double16 w = v16 * v16.s0 + v16.sfedcba9876543210;
    for (int e = 0; e < 16; ++e) r[(k + e) * n + i] = as_ulong(w[e]);
    double3 t = sqrt(fabs(v3)) / (v3 + 1.0);
    for (int e = 0; e < 3; ++e) r[(k + 16 + e) * n + i] = as_ulong(t[e]);
    long8 c = convert_long8_sat_rte(v8 * 1e3);
    for (int e = 0; e < 8; ++e) r[(k + 19 + e) * n + i] = (ulong)c[e];
    float4 g = convert_float4_rtz(v4);
    for (int e = 0; e < 4; ++e) f[(j + e) * n + i] = g[e];
    long2 m = v2 < v2.yx;
    r[(k + 27) * n + i] = (ulong)m.x ^ ((ulong)m.y << 1);
    r[(k + 28) * n + i] = as_ulong(select(v2, v2.yx, m).x);
  }
}
