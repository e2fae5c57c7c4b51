// Work-item functions in a 2-D launch with global offsets: every id, size, count and
// offset per dimension plus get_work_dim, one record of 16 ints per work-item. The
// ranges include a workgroup of 24 items (not a multiple of the warp width).
//
// @buffer out i32[6144] const -7    # 16 x 384
// @run ids out
// @range global=24,16 local=8,4 offset=5,3
// @range global=32,12 local=32,2
// @range global=12,12 local=4,6 offset=1,100
// @check out exact

__kernel void ids(__global int* out) {
  int gx = get_global_id(0), gy = get_global_id(1);
  int ox = get_global_offset(0), oy = get_global_offset(1);
  int linear = (gy - oy) * get_global_size(0) + (gx - ox);
  __global int* r = out + 16 * linear;
  r[0] = gx;
  r[1] = gy;
  r[2] = get_local_id(0);
  r[3] = get_local_id(1);
  r[4] = get_group_id(0);
  r[5] = get_group_id(1);
  r[6] = get_num_groups(0);
  r[7] = get_num_groups(1);
  r[8] = get_global_size(0);
  r[9] = get_global_size(1);
  r[10] = get_local_size(0) * 100 + get_local_size(1);
  r[11] = ox * 1000 + oy;
  r[12] = get_work_dim();
  r[13] = get_global_id(2) * 10 + get_local_size(2) + get_num_groups(2) * 100;
  r[14] = get_global_size(2) + get_global_offset(2) + get_group_id(2) + get_local_id(2);
  // Dimensions beyond the work dimension: ids are 0. (Sizes and counts should be 1, but
  // pocl 3.1 returns 0 for them, so they are not asked.)
  r[15] = get_global_id(5) + get_group_id(3) * 10 + get_local_id(4) * 100 + 7;
}
