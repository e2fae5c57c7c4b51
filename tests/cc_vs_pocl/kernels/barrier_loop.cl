// Barriers in loops: 1-D Jacobi smoothing in local memory for a run-time number of
// iterations (a barrier between reading the neighbours and writing), float and int; then
// a loop whose trip count is uniform per workgroup but read from memory.
//
// @buffer x f32[1024] random -100 100 seed=441
// @buffer xi i32[1024] random -10000 10000 seed=442
// @buffer trips i32[16] random 1 9 seed=443
// @buffer out f32[1024] zeros
// @buffer outi i32[1024] zeros
// @run jacobi x xi out outi local:1024 local:1024 int:12
// @run rounds xi outi trips
// @range global=1024 local=128
// @range global=1024 local=64
// @check out exact
// @check outi exact

#pragma OPENCL FP_CONTRACT OFF

__kernel void jacobi(__global const float* x, __global const int* xi, __global float* out,
                     __global int* outi, __local float* t, __local int* ti, int iterations) {
  int lid = get_local_id(0), n = get_local_size(0), gid = get_global_id(0);
  t[lid] = x[gid];
  ti[lid] = xi[gid];
  for (int it = 0; it < iterations; ++it) {
    barrier(CLK_LOCAL_MEM_FENCE);
    float l = t[lid > 0 ? lid - 1 : lid], r = t[lid < n - 1 ? lid + 1 : lid];
    int li = ti[lid > 0 ? lid - 1 : lid], ri = ti[lid < n - 1 ? lid + 1 : lid];
    float c = t[lid];
    int ci = ti[lid];
    barrier(CLK_LOCAL_MEM_FENCE);
    t[lid] = (l + c + c + r) * 0.25f;
    ti[lid] = (li + 2 * ci + ri) / 4;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  out[gid] = t[lid];
  outi[gid] = ti[lid];
}

__kernel void rounds(__global const int* xi, __global int* outi, __global const int* trips) {
  __local int acc[256];
  int lid = get_local_id(0), n = get_local_size(0), gid = get_global_id(0);
  int count = trips[get_group_id(0) % 16];
  acc[lid] = xi[gid];
  for (int k = 0; k < count; ++k) {
    barrier(CLK_LOCAL_MEM_FENCE);
    int v = acc[(lid + k + 1) % n];
    barrier(CLK_LOCAL_MEM_FENCE);
    acc[lid] = (acc[lid] ^ v) + k;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  outi[gid] += acc[lid];
}
