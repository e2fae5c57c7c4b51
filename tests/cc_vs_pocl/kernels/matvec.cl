// Matrix-vector product y = A x with one workgroup per row: strided partial sums, then a
// tree reduction in local memory. 64 rows of 300 columns.
//
// @buffer A f32[19200] random -1 1 seed=461
// @buffer x f32[300] random -1 1 seed=462
// @buffer y f32[64] zeros
// @run matvec A x y local:256 int:300
// @range global=4096 local=64
// @check y ulp 16 abs 1e-5

__kernel void matvec(__global const float* A, __global const float* x, __global float* y,
                     __local float* partial, int cols) {
  int row = get_group_id(0), lid = get_local_id(0), n = get_local_size(0);
  float sum = 0.0f;
  for (int c = lid; c < cols; c += n) sum += A[row * cols + c] * x[c];
  partial[lid] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = n / 2; s > 0; s >>= 1) {
    if (lid < s) partial[lid] += partial[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) y[row] = partial[0];
}
