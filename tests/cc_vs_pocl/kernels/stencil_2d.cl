// 2-D 5-point stencil through a local tile with a one-cell halo: interior work-items
// load their cell, edge work-items also load the halo (divergent loads), a barrier, then
// every item reads its neighbours from local memory. Out-of-image cells read as 0.
//
// @buffer in f32[4096] random -1 1 seed=511
// @buffer out f32[4096] zeros
// @run stencil in out int:64 int:64
// @range global=64,64 local=16,16
// @range global=64,64 local=8,4
// @check out exact

#pragma OPENCL FP_CONTRACT OFF

__kernel void stencil(__global const float* in, __global float* out, int w, int h) {
  __local float tile[18][18];
  int lx = get_local_id(0), ly = get_local_id(1);
  int sx = get_local_size(0), sy = get_local_size(1);
  int x = get_global_id(0), y = get_global_id(1);
#define AT(X, Y) (((X) >= 0 && (X) < w && (Y) >= 0 && (Y) < h) ? in[(Y) * w + (X)] : 0.0f)
  tile[ly + 1][lx + 1] = AT(x, y);
  if (lx == 0) tile[ly + 1][0] = AT(x - 1, y);
  if (lx == sx - 1) tile[ly + 1][sx + 1] = AT(x + 1, y);
  if (ly == 0) tile[0][lx + 1] = AT(x, y - 1);
  if (ly == sy - 1) tile[sy + 1][lx + 1] = AT(x, y + 1);
  barrier(CLK_LOCAL_MEM_FENCE);
  float c = tile[ly + 1][lx + 1];
  out[y * w + x] = 0.5f * c + 0.125f * (tile[ly][lx + 1] + tile[ly + 2][lx + 1] +
                                        tile[ly + 1][lx] + tile[ly + 1][lx + 2]);
}
