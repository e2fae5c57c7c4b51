// 64-bit integers (long/ulong, register pairs on Ventus): add, sub, wrapping multiply,
// division and remainder, shifts by variable amounts across the 32-bit boundary,
// comparisons, min/max/abs/clz/popcount/mul_hi/rotate, conversions to and from int and
// float, a long accumulated in a loop, and a long passed by value.
//
// @buffer a i64[512] random -9e18 9e18 seed=551
// @buffer b i64[512] random -3e9 3e9 seed=552
// @buffer u u64[512] random 0 1.8e19 seed=553
// @buffer k i32[512] random 0 80 seed=554
// @buffer r i64[7168] zeros   # 14 x 512
// @buffer f f32[1024] zeros
// @run longs a b u k r f long:-81985529216486895
// @range global=512 local=64
// @range global=512 local=16
// @check r exact
// @check f exact

__kernel void longs(__global const long* as, __global const long* bs, __global const ulong* us,
                    __global const int* ks, __global long* r, __global float* f, long c) {
  int i = get_global_id(0), n = get_global_size(0);
  long a = as[i], b = bs[i];
  ulong u = us[i];
  int k = ks[i];
  if (b == 0) b = 7;
  if (b == -1 && a == LONG_MIN) b = 3;
  r[0 * n + i] = a + b - c;
  r[1 * n + i] = (long)((ulong)a * (ulong)b);  // wraps
  r[2 * n + i] = a / b;
  r[3 * n + i] = a % b;
  r[4 * n + i] = (long)(u / (ulong)(b | 1) + u % 1000000007ul);
  r[5 * n + i] = (a >> (k & 63)) ^ (long)(u >> (k & 63)) ^ (long)((ulong)a << (k & 63));
  r[6 * n + i] = (a < b) + 2 * (u > (ulong)c) + 4 * (a == b) + 8 * ((ulong)a >= u);
  r[7 * n + i] = (long)((ulong)max(a, b) - (ulong)min(a, c) + abs(b));
  r[8 * n + i] = clz(a) * 1000 + popcount(u) * 10 + clz(u >> (k & 63));
  r[9 * n + i] = mul_hi(a, b) ^ (long)mul_hi(u, (ulong)c);
  r[10 * n + i] = rotate(a, (long)k);
  r[11 * n + i] = (long)(int)a + (long)(uint)b + (long)(short)k * -3;
  ulong acc = 0;  // unsigned: it wraps
  for (int j = 0; j < (k & 15); ++j) acc = acc * 31 + (u >> j);
  r[12 * n + i] = (long)(acc ^ (acc >> 7));
  r[13 * n + i] = convert_long((float)b * 3.5f) + convert_long_sat((float)a * 4.0f);
  f[i] = convert_float(a) + (float)b;
  f[n + i] = convert_float(u) * 0.5f;
}
