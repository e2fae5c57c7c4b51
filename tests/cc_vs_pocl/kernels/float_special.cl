// IEEE special values through arithmetic and builtins: infinities, NaN (compared as
// "a NaN", any payload), signed zeros, overflow and underflow of products, division by
// zero, fmin/fmax with one NaN operand (the other is returned), sqrt of negatives.
//
// @buffer x f32[32] values 0 -0 1 -1 inf -inf nan 3.4e38 -3.4e38 1e-20 -1e-20 2 0.5 -7.25 1e30 -1e30
// @buffer y f32[32] values -0 0 inf nan 1 -1 2 3.4e38 1e-20 1e30 -0 -inf 7 -0.5 1e-30 3
// @buffer out f32[512] zeros   # 16 x 32
// @options -cl-fp32-correctly-rounded-divide-sqrt
// @run special x y out
// @range global=32 local=32
// @range global=32 local=8
// @check out exact

#pragma OPENCL FP_CONTRACT OFF

__kernel void special(__global const float* xs, __global const float* ys, __global float* out) {
  int i = get_global_id(0), n = get_global_size(0);
  float x = xs[i], y = ys[i];
  out[0 * n + i] = x + y;
  out[1 * n + i] = x - y;
  out[2 * n + i] = x * y;
  out[3 * n + i] = x / y;
  // + 0.0f: which zero fmin(-0, +0) and fmax(+0, -0) return is unspecified (x86 returns
  // the second operand, RISC-V orders -0 below +0).
  out[4 * n + i] = fmin(x, y) + 0.0f;
  out[5 * n + i] = fmax(x, y) + 0.0f;
  out[6 * n + i] = sqrt(x);
  out[7 * n + i] = x * 1e30f * 1e10f;
  out[8 * n + i] = x * 1e-30f * 1e-10f;
  out[9 * n + i] = -x;
  out[10 * n + i] = fabs(y);
  out[11 * n + i] = copysign(1.0f, x);
  out[12 * n + i] = x == y ? 1.0f : (x != y ? 2.0f : 3.0f);
  out[13 * n + i] = floor(x) + ceil(y);
  out[14 * n + i] = fma(x, y, 1.0f);
  out[15 * n + i] = (x < y) ? x : y;
}
