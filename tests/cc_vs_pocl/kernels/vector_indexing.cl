// Vector elements read and written through a variable index (`v[k]`, a clang extension
// OpenCL programs use), for int4, float8, long2 and uchar16, with per-thread and uniform
// indices and in loops that -O0 keeps.
//
// @buffer a i32[1024] random -1000000 1000000 seed=891
// @buffer k i32[256] random 0 100 seed=892
// @buffer o i32[2048] zeros   # 8 x 256
// @buffer f f32[512] zeros    # 2 x 256
// @buffer l i64[256] zeros
// @run indexing a k o f l int:5
// @range global=256 local=32
// @range global=256 local=16
// @check o exact
// @check f exact
// @check l exact

__kernel void indexing(__global const int* a, __global const int* ks, __global int* o,
                       __global float* f, __global long* l, int u) {
  int i = get_global_id(0), n = get_global_size(0);
  int k = ks[i];
  int4 v = vload4(i, a);
  float8 w = convert_float8(vload8(i / 2, a));
  long2 p = (long2)(a[i] * 1000003L, -(long)k);
  uchar16 c = as_uchar16(vload4(i, a));
  o[0 * n + i] = v[k & 3];
  o[1 * n + i] = v[u & 3] + v[(k >> 2) & 3];
  v[k & 3] = k;
  v[(k + 1) & 3] += 7;
  o[2 * n + i] = v.x ^ v.y ^ v.z ^ v.w;
  int sum = 0;
  for (int j = 0; j < 4; ++j) sum = sum * 31 + v[j];
  o[3 * n + i] = sum;
  w[k & 7] = 0.5f;
  w[u] *= 2.0f;
  f[i] = w[(k >> 3) & 7];
  f[n + i] = w.s0 + w.s1 + w.s2 + w.s3 + w.s4 + w.s5 + w.s6 + w.s7;
  p[k & 1] += 1;
  l[i] = p[(k >> 1) & 1] * 3 + p[0];
  c[k & 15] = (uchar)k;
  o[4 * n + i] = c[(k * 7) & 15] + c[u] * 256;
  for (int j = 0; j < 16; ++j) c[j] += (uchar)j;
  o[5 * n + i] = as_int4(c).x ^ as_int4(c).w;
  o[6 * n + i] = c[(k >> 4) & 15];
  o[7 * n + i] = v[(i + u) & 3];
}
