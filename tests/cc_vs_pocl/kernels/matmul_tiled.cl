// Tiled matrix product in local memory: 16 x 16 tiles in __local arrays declared in the
// kernel, two barriers per tile step. M = N = 64, K = 48. The second range uses 8 x 8
// workgroups (the kernel reads the tile size from get_local_size).
//
// @buffer A f32[3072] random -1 1 seed=21     # 64 x 48
// @buffer B f32[3072] random -1 1 seed=22     # 48 x 64
// @buffer C f32[4096] zeros
// @run matmul_tiled A B C int:64 int:64 int:48
// @range global=64,64 local=16,16
// @range global=64,64 local=8,8
// @check C ulp 8 abs 1e-5

#define TILE 16

__kernel void matmul_tiled(__global const float* A, __global const float* B, __global float* C,
                           int M, int N, int K) {
  __local float As[TILE][TILE];
  __local float Bs[TILE][TILE];
  int tx = get_local_id(0), ty = get_local_id(1);
  int ts = get_local_size(0);
  int col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (int t = 0; t < K; t += ts) {
    As[ty][tx] = A[row * K + t + tx];
    Bs[ty][tx] = B[(t + ty) * N + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < ts; ++k) acc += As[ty][k] * Bs[k][tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (row < M && col < N) C[row * N + col] = acc;
}
