// Naive matrix product C = A * B (M x K times K x N, row-major) over a 2-D range: x is
// the column, y the row. The sizes are not powers of two; the second range has more
// work-items than columns (48 > N), so the kernel bounds-checks both dimensions.
//
// @buffer A f32[1728] random -1 1 seed=11     # M=48 x K=36
// @buffer B f32[1440] random -1 1 seed=12     # K=36 x N=40
// @buffer C f32[1920] zeros                   # M=48 x N=40
// @run matmul A B C int:48 int:40 int:36
// @range global=40,48 local=8,8
// @range global=48,48 local=16,4
// @check C ulp 8 abs 1e-5

__kernel void matmul(__global const float* A, __global const float* B, __global float* C,
                     int M, int N, int K) {
  int col = get_global_id(0);
  int row = get_global_id(1);
  if (row >= M || col >= N) return;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc;
}
