// Special functions of the OpenCL 1.2 math library: erf (16 ulp), erfc (16), tgamma (16),
// lgamma (no bound in the spec; compared loosely), and the pi-scaled trigonometry
// sinpi cospi tanpi (4), asinpi acospi atanpi atan2pi (5-6).
//
// @buffer x f32[256] random -3 3 seed=341
// @buffer y f32[256] random 0.5 6 seed=342
// @buffer special f32[768] zeros   # erf erfc tgamma
// @buffer lg f32[256] zeros
// @buffer pis f32[1792] zeros      # sinpi cospi tanpi asinpi acospi atanpi atan2pi
// @run special_fns x y special lg pis
// @range global=256 local=64
// @check special ulp 32
// @check lg ulp 64 abs 1e-5
// @check pis ulp 12

__kernel void special_fns(__global const float* xs, __global const float* ys,
                          __global float* special, __global float* lg, __global float* pis) {
  int i = get_global_id(0), n = get_global_size(0);
  float x = xs[i], y = ys[i];
  special[i] = erf(x);
  special[n + i] = erfc(x);
  special[2 * n + i] = tgamma(y);
  lg[i] = lgamma(y);
  pis[i] = sinpi(x);
  pis[n + i] = cospi(x);
  pis[2 * n + i] = tanpi(x * 0.15f);
  pis[3 * n + i] = asinpi(x * 0.33f);
  pis[4 * n + i] = acospi(x * 0.33f);
  pis[5 * n + i] = atanpi(x);
  pis[6 * n + i] = atan2pi(x, y - 3.0f);
}
