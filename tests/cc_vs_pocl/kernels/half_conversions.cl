// half (cl_khr_fp16) conversions: convert_half in every rounding mode from int, float and
// double (scalar and vector), half -> int with _sat and the rounding modes, half vectors'
// compares, isnan and select. pocl on this machine has no cl_khr_fp16: its side rounds
// with vstore_half_rte/_rtz/_rtp/_rtn (core OpenCL 1.2) and reads halves with vload_half.
// Results are compared bit for bit as ushorts or ints.
//
// @buffer a u32[256] random 0 4294967295 seed=1711
// @buffer r u16[4096] zeros   # 16 x 256
// @buffer q i32[2048] zeros   # 8 x 256
// @run cvt a r q
// @range global=256 local=64
// @check r exact
// @check q exact

#ifdef cl_khr_fp16
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#endif

#define STORE_MODES(x)                       \
  vstore_half_rte(x, k++ * n + i, (__global half*)r); \
  vstore_half_rtz(x, k++ * n + i, (__global half*)r); \
  vstore_half_rtp(x, k++ * n + i, (__global half*)r); \
  vstore_half_rtn(x, k++ * n + i, (__global half*)r)

__kernel void cvt(__global const uint* as, __global ushort* r, __global int* q) {
  int i = get_global_id(0), n = get_global_size(0), k = 0, m = 0;
  uint bits = as[i];
  int integer = (int)bits >> (bits & 15);                 // some beyond 65504
  float f = as_float((bits & 0x87ffffffu) | 0x30000000u);  // 2^-31 .. 2^16 and beyond
  double d = (double)f * (1.0 + 0x1p-30);                  // between two floats
  ushort hb = (ushort)((bits & 0x83ffu) | ((bits >> 10) % 30) << 10);
#ifdef cl_khr_fp16
  int4 v = (int4)(integer, -integer, integer >> 3, integer << 2);
  half h = as_half(hb);
  half4 hv = convert_half4_rtn(v);
  vstore_half(convert_float(convert_half_rte(integer)), k++ * n + i, (__global half*)r);
  r[k++ * n + i] = as_ushort(convert_half_rtz(integer));
  r[k++ * n + i] = as_ushort(convert_half_rtp(integer));
  r[k++ * n + i] = as_ushort(convert_half_rtn(integer));
  r[k++ * n + i] = as_ushort(convert_half(f));
  r[k++ * n + i] = as_ushort(convert_half_rtz(f));
  r[k++ * n + i] = as_ushort(convert_half_rtp(f));
  r[k++ * n + i] = as_ushort(convert_half_rtn(f));
  r[k++ * n + i] = as_ushort(convert_half_rte(d));
  r[k++ * n + i] = as_ushort(convert_half_rtz(d));
  r[k++ * n + i] = as_ushort(convert_half_rtp(d));
  r[k++ * n + i] = as_ushort(convert_half_rtn(d));
  r[k++ * n + i] = as_ushort(hv.x);
  r[k++ * n + i] = as_ushort(hv.y);
  r[k++ * n + i] = as_ushort(hv.z);
  r[k++ * n + i] = as_ushort(hv.w);
  q[m++ * n + i] = convert_int_sat_rte(h * (half)1000.0h);
  q[m++ * n + i] = convert_int_rtp(h);
  q[m++ * n + i] = (int)convert_uchar_sat_rtn(h);
  q[m++ * n + i] = (int)(long)h;
  half4 w = (half4)(h, -h, as_half((ushort)0x7e00), hv.x);
  short4 c = isless(w, hv) | isnan(w) << 1 | (w == hv.wzyx) << 2;
  q[m++ * n + i] = (int)c.x + ((int)c.y << 8);
  q[m++ * n + i] = (int)c.z + ((int)c.w << 8);
  half4 s = select(w, hv, c);
  q[m++ * n + i] = (int)as_ushort(s.x) + ((int)as_ushort(s.y) << 16);
  q[m++ * n + i] = (int)as_ushort(s.w);
#else
  float4 v = (float4)(integer, -integer, integer >> 3, integer << 2);
  STORE_MODES((float)integer);
  STORE_MODES(f);
  STORE_MODES(d);
  vstore_half_rtn(v.x, k++ * n + i, (__global half*)r);
  vstore_half_rtn(v.y, k++ * n + i, (__global half*)r);
  vstore_half_rtn(v.z, k++ * n + i, (__global half*)r);
  vstore_half_rtn(v.w, k++ * n + i, (__global half*)r);
  float h = vload_half(0, (const __private half*)&hb);
  float4 hv;
  for (int j = 0; j < 4; ++j) hv[j] = vload_half(j * n + 12 * n + i, (__global half*)r);
  ushort hs;
  vstore_half_rte(h * 1000.0f, 0, (__private half*)&hs);
  q[m++ * n + i] = convert_int_sat_rte(vload_half(0, (const __private half*)&hs));
  q[m++ * n + i] = convert_int_rtp(h);
  q[m++ * n + i] = (int)convert_uchar_sat_rtn(h);
  q[m++ * n + i] = (int)(long)h;
  float4 w = (float4)(h, -h, NAN, hv.x);
  int4 ci = isless(w, hv) | isnan(w) << 1 | (w == hv.wzyx) << 2;
  short4 c = convert_short4(ci);
  q[m++ * n + i] = (int)c.x + ((int)c.y << 8);
  q[m++ * n + i] = (int)c.z + ((int)c.w << 8);
  ushort4 wb, hvb;
  for (int j = 0; j < 4; ++j) {
    vstore_half_rte(w[j], 0, (__private half*)&wb + j);
    vstore_half_rte(hv[j], 0, (__private half*)&hvb + j);
  }
  wb.z = 0x7e00;
  ushort4 s = select(wb, hvb, c);
  q[m++ * n + i] = (int)s.x + ((int)s.y << 16);
  q[m++ * n + i] = (int)s.w;
#endif
}
