// saxpy: y = a * x + y with a by-value float. a * x + y may be contracted into an fma on
// either side, so the plain result allows 2 ulp (or a tiny absolute difference where the
// sum cancels); fma() must agree exactly.
//
// @buffer x f32[5000] random -8 8 seed=3
// @buffer y f32[5000] random -8 8 seed=4
// @buffer z f32[5000] random -8 8 seed=4
// @run saxpy x y z float:2.5 int:5000
// @range global=5120 local=128
// @range global=5000 local=40
// @check y ulp 2 abs 1e-6
// @check z exact

__kernel void saxpy(__global const float* x, __global float* y, __global float* z, float a,
                    int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  y[i] = a * x[i] + y[i];
  z[i] = fma(a, x[i], z[i]);
}
