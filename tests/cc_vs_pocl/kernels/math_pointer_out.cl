// Math builtins with a pointer result (to private variables and to global memory):
// sincos, fract, modf, frexp, remquo, lgamma_r. Exact where the result is exact (fract,
// modf, frexp, remquo's quotient bits), bounded elsewhere.
//
// @buffer x f32[512] random -50 50 seed=331
// @buffer y f32[512] random 0.5 5 seed=332
// @buffer sc f32[1024] zeros
// @buffer parts f32[2560] zeros
// @buffer fl f32[512] zeros
// @buffer ints i32[1024] zeros
// @run pointer_out x y sc parts fl ints
// @range global=512 local=64
// @check sc ulp 8
// @check parts exact
// @check fl exact
// @check ints exact

__kernel void pointer_out(__global const float* xs, __global const float* ys, __global float* sc,
                          __global float* parts, __global float* fl, __global int* ints) {
  int i = get_global_id(0), n = get_global_size(0);
  float x = xs[i], y = ys[i];
  float c;
  sc[i] = sincos(x, &c);
  sc[n + i] = c;
  parts[i] = fract(x, &fl[i]);  // floor into global memory
  float whole;
  parts[n + i] = modf(x, &whole);
  parts[2 * n + i] = whole;
  int e;
  parts[3 * n + i] = frexp(x, &e);
  ints[i] = e;
  int q;
  float r = remquo(x, y, &q);
  // The spec promises the sign and the low 7 bits of the quotient.
  ints[n + i] = (abs(q) & 0x7f) * (q < 0 ? -1 : 1);
  parts[4 * n + i] = r;
}
