// native_* and half_* builtins. half_* must reach 8192 ulp; native_* accuracy is the
// implementation's, checked against the same loose bound (16384 ulp, or 1e-4 absolute
// where the result is near zero).
//
// @buffer x f32[256] random 0.1 10 seed=321
// @buffer y f32[256] random -3 3 seed=322
// @buffer native f32[3584] zeros   # 14 x 256
// @buffer half_ f32[3584] zeros    # 14 x 256
// @run natives x y native half_
// @range global=256 local=64
// @check native ulp 16384 abs 1e-4
// @check half_ ulp 16384 abs 1e-4

__kernel void natives(__global const float* xs, __global const float* ys, __global float* nat,
                      __global float* hlf) {
  int i = get_global_id(0), n = get_global_size(0);
  float x = xs[i], y = ys[i];
  nat[0 * n + i] = native_sin(y);
  nat[1 * n + i] = native_cos(y);
  nat[2 * n + i] = native_tan(y * 0.4f);
  nat[3 * n + i] = native_exp(y);
  nat[4 * n + i] = native_exp2(y);
  nat[5 * n + i] = native_exp10(y);
  nat[6 * n + i] = native_log(x);
  nat[7 * n + i] = native_log2(x);
  nat[8 * n + i] = native_log10(x);
  nat[9 * n + i] = native_sqrt(x);
  nat[10 * n + i] = native_rsqrt(x);
  nat[11 * n + i] = native_recip(x);
  nat[12 * n + i] = native_divide(y, x);
  nat[13 * n + i] = native_powr(x, y);
  hlf[0 * n + i] = half_sin(y);
  hlf[1 * n + i] = half_cos(y);
  hlf[2 * n + i] = half_tan(y * 0.4f);
  hlf[3 * n + i] = half_exp(y);
  hlf[4 * n + i] = half_exp2(y);
  hlf[5 * n + i] = half_exp10(y);
  hlf[6 * n + i] = half_log(x);
  hlf[7 * n + i] = half_log2(x);
  hlf[8 * n + i] = half_log10(x);
  hlf[9 * n + i] = half_sqrt(x);
  hlf[10 * n + i] = half_rsqrt(x);
  hlf[11 * n + i] = half_recip(x);
  hlf[12 * n + i] = half_divide(y, x);
  hlf[13 * n + i] = half_powr(x, y);
}
