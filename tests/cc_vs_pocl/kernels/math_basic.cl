// Basic float builtins. Exact: fabs floor ceil round trunc rint fmin fmax fma clamp
// copysign fdim fmod maxmag minmag ldexp, remainder, and frexp/ilogb/logb exponents.
// Bounded (OpenCL 1.2 allows up to 3 ulp): division, sqrt, rsqrt, cbrt, hypot; mad
// may be fused or not.
//
// @buffer x f32[512] random -100 100 seed=301
// @buffer y f32[512] random -10 10 seed=302
// @buffer z f32[512] random -1000 1000 seed=303
// @buffer exact_ops f32[8704] zeros     # 17 results x 512
// @buffer bounded f32[2560] zeros       # 5 x 512
// @buffer mads f32[512] zeros
// @buffer exponents i32[1024] zeros     # frexp exponent, ilogb
// @run math_basic x y z exact_ops bounded mads exponents
// @range global=512 local=64
// @check exact_ops exact
// @check bounded ulp 4
// @check mads ulp 2 abs 1e-4
// @check exponents exact

__kernel void math_basic(__global const float* xs, __global const float* ys,
                         __global const float* zs, __global float* e, __global float* b,
                         __global float* mads, __global int* exponents) {
  int i = get_global_id(0), n = get_global_size(0);
  float x = xs[i], y = ys[i], z = zs[i];
  e[0 * n + i] = fabs(x);
  e[1 * n + i] = floor(x);
  e[2 * n + i] = ceil(x);
  e[3 * n + i] = round(x * 0.5f);
  e[4 * n + i] = trunc(x);
  e[5 * n + i] = rint(x * 0.5f);
  e[6 * n + i] = fmin(x, y);
  e[7 * n + i] = fmax(x, y);
  e[8 * n + i] = fma(x, y, z);
  e[9 * n + i] = clamp(x, -20.0f, 30.0f);
  e[10 * n + i] = copysign(x, y);
  e[11 * n + i] = fdim(x, y);
  e[12 * n + i] = fmod(x, y);
  e[13 * n + i] = maxmag(x, y);
  e[14 * n + i] = minmag(x, y);
  e[15 * n + i] = ldexp(x, (i % 21) - 10);
  e[16 * n + i] = remainder(x, y);
  b[0 * n + i] = x / y;
  b[1 * n + i] = sqrt(fabs(x));
  b[2 * n + i] = rsqrt(fabs(x) + 0.5f);
  b[3 * n + i] = cbrt(x);
  b[4 * n + i] = hypot(x, y);
  mads[i] = mad(x, y, z);
  int ex;
  (void)frexp(x, &ex);  // the mantissa is checked in math_pointer_out
  exponents[i] = ex;
  exponents[n + i] = ilogb(x) * 100 + (int)logb(y);
}
