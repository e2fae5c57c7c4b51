// Transcendental builtins, grouped by the OpenCL 1.2 accuracy they must reach (the bound
// between two conforming implementations is about twice the spec's): trigonometric
// (4 ulp), exponential and logarithmic (3), power (16), inverse trigonometric (6),
// hyperbolic (5).
//
// @buffer x f32[512] random -100 100 seed=311
// @buffer y f32[512] random -4 4 seed=312
// @buffer trig f32[1536] zeros      # sin cos tan
// @buffer explog f32[4096] zeros    # exp exp2 exp10 expm1 log log2 log10 log1p
// @buffer power f32[2048] zeros     # pow powr pown rootn
// @buffer inverse f32[2048] zeros   # asin acos atan atan2
// @buffer hyper f32[3072] zeros     # sinh cosh tanh asinh acosh atanh
// @run transcendental x y trig explog power inverse hyper
// @range global=512 local=128
// @check trig ulp 8
// @check explog ulp 6
// @check power ulp 32
// @check inverse ulp 12
// @check hyper ulp 10

__kernel void transcendental(__global const float* xs, __global const float* ys,
                             __global float* trig, __global float* explog,
                             __global float* power, __global float* inverse,
                             __global float* hyper) {
  int i = get_global_id(0), n = get_global_size(0);
  float x = xs[i], y = ys[i];
  float ax = fabs(x);
  trig[0 * n + i] = sin(x);
  trig[1 * n + i] = cos(x);
  trig[2 * n + i] = tan(x * 0.01f);
  explog[0 * n + i] = exp(x * 0.1f);
  explog[1 * n + i] = exp2(x * 0.2f);
  explog[2 * n + i] = exp10(x * 0.05f);
  explog[3 * n + i] = expm1(x * 0.01f);
  explog[4 * n + i] = log(ax);
  explog[5 * n + i] = log2(ax);
  explog[6 * n + i] = log10(ax);
  explog[7 * n + i] = log1p(ax * 0.01f);
  power[0 * n + i] = pow(ax * 0.1f, y);
  power[1 * n + i] = powr(ax * 0.1f, y);
  power[2 * n + i] = pown(x * 0.1f, (i % 9) - 4);
  power[3 * n + i] = rootn(ax, 1 + i % 5);
  inverse[0 * n + i] = asin(x * 0.0099f);
  inverse[1 * n + i] = acos(x * 0.0099f);
  inverse[2 * n + i] = atan(x);
  inverse[3 * n + i] = atan2(x, y);
  hyper[0 * n + i] = sinh(x * 0.05f);
  hyper[1 * n + i] = cosh(x * 0.05f);
  hyper[2 * n + i] = tanh(x * 0.05f);
  hyper[3 * n + i] = asinh(x);
  hyper[4 * n + i] = acosh(ax + 1.0f);
  hyper[5 * n + i] = atanh(x * 0.0099f);
}
