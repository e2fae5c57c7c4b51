// 1-D convolution with a 9-tap filter passed as a __constant pointer argument, clamped at
// the edges; a float version (bounded by ulp: the products may be contracted) and an
// integer version (exact).
//
// @buffer x f32[2000] random -10 10 seed=101
// @buffer w f32[9] random -1 1 seed=102
// @buffer y f32[2000] zeros
// @buffer xi i32[2000] random -1000 1000 seed=103
// @buffer wi i32[9] values 1 -2 3 -4 5 -4 3 -2 1
// @buffer yi i32[2000] zeros
// @run conv1d x w y int:2000 int:4
// @run conv1d_int xi wi yi int:2000 int:4
// @range global=2048 local=64
// @range global=2000 local=80
// @check y ulp 16 abs 1e-5
// @check yi exact

__kernel void conv1d(__global const float* x, __constant float* w, __global float* y, int n,
                     int radius) {
  int i = get_global_id(0);
  if (i >= n) return;
  float acc = 0.0f;
  for (int k = -radius; k <= radius; ++k) acc += w[k + radius] * x[clamp(i + k, 0, n - 1)];
  y[i] = acc;
}

__kernel void conv1d_int(__global const int* x, __constant int* w, __global int* y, int n,
                         int radius) {
  int i = get_global_id(0);
  if (i >= n) return;
  int acc = 0;
  for (int k = -radius; k <= radius; ++k) acc += w[k + radius] * x[clamp(i + k, 0, n - 1)];
  y[i] = acc;
}
