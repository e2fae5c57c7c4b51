// double (cl_khr_fp64): + - * / fma sqrt on the device's binary64 pair instructions,
// compares and select (integer code on the bits), fabs/copysign/negation, and the
// conversions from and to float, int, uint, long and ulong (soft-float routines), for
// uniform and per-work-item values, as kernel arguments and in private, local and global
// memory. Inputs are built from random bits with a limited exponent range, so the
// results are finite or infinite but never NaN (NaN payloads differ between x86 and the
// device's canonical NaN); every result is compared bit for bit through as_ulong.
//
// @buffer a u64[256] random 0 1.8e19 seed=811
// @buffer b u64[256] random 0 1.8e19 seed=812
// @buffer e i32[256] random 0 2047 seed=813
// @buffer r u64[6144] zeros   # 24 x 256
// @run dbl a b e r long:-4609997168567123968   # the bits of -2.75
// @range global=256 local=64
// @range global=256 local=32
// @check r exact

#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// A finite double from random bits: sign and significand kept, exponent field in
// [lo, lo + span).
double make(ulong bits, uint lo, uint span) {
  return as_double((bits & 0x800ffffffffffffful) | ((ulong)(lo + (uint)(bits >> 52) % span) << 52));
}

__kernel void dbl(__global const ulong* as, __global const ulong* bs, __global const int* es,
                  __global ulong* r, long c_bits) {
  double c = as_double(c_bits);
  __local double tile[64];
  int i = get_global_id(0), n = get_global_size(0), l = get_local_id(0);
  double x = make(as[i], 1000, 48), y = make(bs[i], 1000, 48);
  double big = make(bs[i], 960, 160), tiny = make(as[i], 0, 3);
  double priv[4] = {x, y, big, tiny};
  tile[l] = y;
  barrier(CLK_LOCAL_MEM_FENCE);
  double other = tile[(l + 1) & 63 & (get_local_size(0) - 1)];
  int k = 0;
  r[k++ * n + i] = as_ulong(x + y);
  r[k++ * n + i] = as_ulong(x - other);
  r[k++ * n + i] = as_ulong(x * y + c);
  r[k++ * n + i] = as_ulong(x / y);
  r[k++ * n + i] = as_ulong(fma(x, y, priv[es[i] & 3]));
  r[k++ * n + i] = as_ulong(sqrt(fabs(big)));
  r[k++ * n + i] = as_ulong(-x * c + tiny);
  r[k++ * n + i] = as_ulong(copysign(big, y) / c);
  r[k++ * n + i] = (x < y) + 2 * (x <= other) + 4 * (x == y) + 8 * (big > c) + 16 * (tiny >= 0.0) +
                   32 * (x != y) + 64 * isless(tiny, -tiny) + 128 * (c == -2.75);
  r[k++ * n + i] = as_ulong(x > y ? x : tiny);
  r[k++ * n + i] = as_ulong(fmin(x, big) + fmax(y, tiny));
  r[k++ * n + i] = as_ulong((double)(float)big);          // fptrunc, fpext
  r[k++ * n + i] = (ulong)as_uint((float)tiny) | ((ulong)as_uint((float)x) << 32);
  r[k++ * n + i] = (ulong)(long)(x * 0x1p30);  // in range: OpenCL leaves the rest undefined
  r[k++ * n + i] = (ulong)(int)(x * 16) ^ ((ulong)(uint)(fabs(y) * 64) << 32);
  r[k++ * n + i] = (ulong)(fabs(x) * 0x1p38);
  r[k++ * n + i] = as_ulong((double)(long)as[i] + (double)as[i]);
  r[k++ * n + i] = as_ulong((double)es[i] * (double)(uint)bs[i] - (double)(short)es[i]);
  r[k++ * n + i] = as_ulong(floor(x * 1e3) + ceil(y * 1e3) * 0x1p-20);
  r[k++ * n + i] = as_ulong(trunc(big) - rint(x * 1e5) + round(y * 1e4));
  r[k++ * n + i] = (ulong)convert_int_rtn(x * 16) ^ ((ulong)convert_uint_sat_rtp(y * 1e9) << 32);
  r[k++ * n + i] = (ulong)convert_long_sat_rte(big) ^ convert_ulong_sat(big);
  r[k++ * n + i] = (ulong)as_uint(convert_float_rtz(big)) | ((ulong)as_uint(convert_float_rtp(tiny)) << 32);
  r[k++ * n + i] = as_ulong(convert_double_rtz((long)as[i]) - convert_double_rtn(as[i]));
}
