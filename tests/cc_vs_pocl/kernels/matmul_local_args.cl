// Tiled matrix product whose tiles are __local pointer arguments (sized by the host):
// 8 x 8 tiles, M = 32, N = 48, K = 40; the tile index is computed, not a 2-D array.
//
// @buffer A f32[1280] random -2 2 seed=31     # 32 x 40
// @buffer B f32[1920] random -2 2 seed=32     # 40 x 48
// @buffer C f32[1536] zeros                   # 32 x 48
// @run matmul_local A B C local:256 local:256 int:32 int:48 int:40
// @range global=48,32 local=8,8
// @check C ulp 8 abs 1e-5

__kernel void matmul_local(__global const float* A, __global const float* B, __global float* C,
                           __local float* As, __local float* Bs, int M, int N, int K) {
  const int T = 8;
  int tx = get_local_id(0), ty = get_local_id(1);
  int col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (int t = 0; t < K; t += T) {
    As[ty * T + tx] = A[row * K + t + tx];
    Bs[ty * T + tx] = B[(t + ty) * N + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < T; ++k) acc += As[ty * T + k] * Bs[k * T + tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * N + col] = acc;
}
