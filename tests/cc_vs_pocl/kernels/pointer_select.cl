// Pointers: divergent selection between __global buffers, pointer arithmetic with negative
// offsets, comparisons and differences of pointers into the same buffer, a private array
// of pointers indexed dynamically, a noinline helper that advances a pointer through a
// pointer-to-pointer, a __constant pointer chosen at run time, and 12 kernel arguments.
//
// @buffer a f32[512] random -10 10 seed=581
// @buffer b f32[512] random -10 10 seed=582
// @buffer c f32[512] random -10 10 seed=583
// @buffer d i32[512] random -100 100 seed=584
// @buffer k1 i32[16] iota 100
// @buffer k2 i32[16] iota -50 3
// @buffer out f32[1536] zeros
// @buffer outi i32[1024] zeros
// @run pointers a b c d k1 k2 out outi int:512 float:0.5 int:3 uint:7
// @range global=512 local=64
// @check out exact
// @check outi exact

#pragma OPENCL FP_CONTRACT OFF

__attribute__((noinline)) float take(__global const float** p, int step) {
  float v = **p;
  *p += step;
  return v;
}

__kernel void pointers(__global const float* a, __global const float* b,
                       __global const float* c, __global const int* d, __constant int* k1,
                       __constant int* k2, __global float* out, __global int* outi, int n,
                       float scale, int stride, uint salt) {
  int i = get_global_id(0);
  __global const float* p = (d[i] & 1) ? a : b;  // divergent choice
  __global const float* q = p + (n - 1 - i);     // the mirror element
  out[i] = p[i] * scale + q[-(n - 1 - i) + i];   // = p[i] * scale + p[i]
  __global const float* table[3] = {a, b, c};
  __global const float* r = table[(uint)(d[i] + 300) % 3] + i;
  float s = take(&r, -1);
  if (i > 0) s += take(&r, stride);
  out[n + i] = s;
  __global const float* lo = &c[i / 2];
  __global const float* hi = &c[n - 1 - i / 2];
  outi[i] = (int)(hi - lo) * 10 + (lo < hi) + 2 * (lo == hi);
  __constant int* kt = (i ^ salt) & 2 ? k1 : k2;
  outi[n + i] = kt[i & 15] + d[(i + stride) % n];
  out[2 * n + i] = *(c + i) - *(&c[n - 1] - i);
}
