// Two-pass sum reduction: each work-item sums a grid-stride slice, the workgroup reduces
// in local memory with a barrier in the loop, one partial per group; a second launch of
// one workgroup reduces the partials. Integers exactly; floats in the same order on both
// sides, so also exactly.
//
// @buffer xi i32[10000] random -1000 1000 seed=41
// @buffer xf f32[10000] random -1 1 seed=42
// @buffer parti i32[64] zeros
// @buffer partf f32[64] zeros
// @buffer total_i i32[1] zeros
// @buffer total_f f32[1] zeros
// @run reduce xi xf parti partf local:1024 local:1024 int:10000
// @run reduce parti partf total_i total_f local:1024 local:1024 int:64 global=64 local=64
// @range global=1024 local=256
// @range global=2048 local=64
// @range global=512 local=128
// @check parti exact
// @check partf exact
// @check total_i exact
// @check total_f exact

__kernel void reduce(__global const int* xi, __global const float* xf, __global int* outi,
                     __global float* outf, __local int* li, __local float* lf, int n) {
  int lid = get_local_id(0);
  int sum_i = 0;
  float sum_f = 0.0f;
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) {
    sum_i += xi[i];
    sum_f += xf[i];
  }
  li[lid] = sum_i;
  lf[lid] = sum_f;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (lid < s) {
      li[lid] += li[lid + s];
      lf[lid] += lf[lid + s];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) {
    outi[get_group_id(0)] = li[0];
    outf[get_group_id(0)] = lf[0];
  }
}
