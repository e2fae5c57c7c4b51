// Structs in private memory: passed by value and by pointer to noinline functions,
// returned by value, with an array member indexed dynamically, nested structs.
//
// @buffer re f32[512] random -2 2 seed=211
// @buffer im f32[512] random -2 2 seed=212
// @buffer out f32[1024] zeros
// @buffer stats i32[1536] zeros
// @run structs re im out stats
// @range global=512 local=64
// @check out exact
// @check stats exact

#pragma OPENCL FP_CONTRACT OFF

typedef struct {
  float re, im;
} Complex;

typedef struct {
  int count;
  int hist[4];
  Complex last;
} Stats;

__attribute__((noinline)) Complex cmul(Complex a, Complex b) {
  Complex r = {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
  return r;
}

__attribute__((noinline)) Complex cadd(Complex a, Complex b) {
  Complex r;
  r.re = a.re + b.re;
  r.im = a.im + b.im;
  return r;
}

__attribute__((noinline)) void record(Stats* s, Complex z) {
  int q = (z.re >= 0.0f ? 0 : 1) + (z.im >= 0.0f ? 0 : 2);
  s->hist[q] += 1;
  s->count += 1;
  s->last = z;
}

__kernel void structs(__global const float* re, __global const float* im, __global float* out,
                      __global int* stats) {
  int i = get_global_id(0);
  Complex c = {re[i] * 0.5f, im[i] * 0.5f};
  Complex z = {0.0f, 0.0f};
  Stats s = {0, {0, 0, 0, 0}, {0.0f, 0.0f}};
  for (int k = 0; k < 6 + (i & 3); ++k) {
    z = cadd(cmul(z, z), c);
    if (z.re * z.re + z.im * z.im > 16.0f) break;
    record(&s, z);
  }
  out[2 * i] = s.last.re;
  out[2 * i + 1] = s.last.im;
  stats[3 * i] = s.count;
  stats[3 * i + 1] = s.hist[(i + 1) & 3];
  stats[3 * i + 2] = s.hist[0] * 1000 + s.hist[3];
}
