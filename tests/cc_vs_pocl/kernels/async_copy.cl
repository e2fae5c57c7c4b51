// async_work_group_copy / async_work_group_strided_copy between global and local memory
// with wait_group_events, prefetch, and the fences (mem_fence, read_mem_fence,
// write_mem_fence): a workgroup stages a tile (plain and strided), transforms it in local
// memory, and copies it back asynchronously.
//
// @buffer in f32[4096] random -100 100 seed=601
// @buffer in4 float4[1024] random -1 1 seed=602
// @buffer out f32[4096] zeros
// @buffer out4 float4[1024] zeros
// @buffer gathered f32[4096] zeros
// @run staged in in4 out out4 gathered
// @range global=1024 local=64
// @range global=1024 local=128
// @check out exact
// @check out4 exact
// @check gathered exact

#pragma OPENCL FP_CONTRACT OFF

__kernel void staged(__global const float* in, __global const float4* in4, __global float* out,
                     __global float4* out4, __global float* gathered) {
  __local float tile[512];
  __local float4 tile4[128];
  __local float column[128];
  int lid = get_local_id(0), n = get_local_size(0), g = get_group_id(0);
  // 4 floats per work-item, contiguous.
  event_t e = async_work_group_copy(tile, in + g * 4 * n, 4 * n, 0);
  e = async_work_group_copy(tile4, in4 + g * n, n, e);
  prefetch(in + g * 4 * n, 4 * n);
  wait_group_events(1, &e);
  for (int k = lid; k < 4 * n; k += n) tile[k] = tile[k] * 2.0f + (float)k;
  tile4[lid] = tile4[lid].wzyx - tile4[(lid + 1) % n];
  mem_fence(CLK_LOCAL_MEM_FENCE);
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t back = async_work_group_copy(out + g * 4 * n, tile, 4 * n, 0);
  back = async_work_group_copy(out4 + g * n, tile4, n, back);
  wait_group_events(1, &back);
  // Every 4th float of the group's slice (a strided read), then scattered back strided.
  event_t s = async_work_group_strided_copy(column, in + g * 4 * n + 1, n, 4, 0);
  wait_group_events(1, &s);
  read_mem_fence(CLK_LOCAL_MEM_FENCE);
  column[lid] = -column[lid];
  write_mem_fence(CLK_LOCAL_MEM_FENCE);
  barrier(CLK_LOCAL_MEM_FENCE);
  s = async_work_group_strided_copy(gathered + g * 4 * n + 3, column, n, 4, 0);
  wait_group_events(1, &s);
}
