// Matrix transpose through a padded local tile (the +1 column avoids bank conflicts on
// GPUs): read a tile row-wise, write it transposed. 80 x 48 floats, 16 x 16 and 8 x 8 tiles.
//
// @buffer in f32[3840] random -1000 1000 seed=91
// @buffer out f32[3840] zeros
// @run transpose in out int:80 int:48
// @range global=80,48 local=16,16
// @range global=80,48 local=8,8
// @check out exact

__kernel void transpose(__global const float* in, __global float* out, int width, int height) {
  __local float tile[16][17];
  int ts = get_local_size(0);
  int lx = get_local_id(0), ly = get_local_id(1);
  int gx = get_group_id(0), gy = get_group_id(1);
  tile[ly][lx] = in[(gy * ts + ly) * width + gx * ts + lx];
  barrier(CLK_LOCAL_MEM_FENCE);
  // Output row gx*ts+ly, column gy*ts+lx of the height x width transposed matrix.
  out[(gx * ts + ly) * height + gy * ts + lx] = tile[lx][ly];
}
