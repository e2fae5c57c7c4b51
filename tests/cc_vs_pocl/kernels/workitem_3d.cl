// Work-item functions in a 3-D launch with global offsets; the kernel also recomputes the
// global id from group, local size, local id and offset and stores the difference.
//
// @buffer out i32[3072] const -7    # 8 x 384
// @run ids3 out
// @range global=8,6,8 local=4,3,2 offset=1,2,3
// @range global=4,8,12 local=4,8,4
// @range global=16,4,6 local=2,2,3 offset=7,0,5
// @check out exact

__kernel void ids3(__global int* out) {
  int g[3], rebuilt = 0;
  for (int d = 0; d < 3; ++d) {
    g[d] = get_global_id(d) - get_global_offset(d);
    rebuilt += (int)(get_group_id(d) * get_local_size(d) + get_local_id(d)) - g[d];
  }
  int linear = (g[2] * get_global_size(1) + g[1]) * get_global_size(0) + g[0];
  __global int* r = out + 8 * linear;
  r[0] = get_global_id(0) * 10000 + get_global_id(1) * 100 + get_global_id(2);
  r[1] = get_local_id(0) * 10000 + get_local_id(1) * 100 + get_local_id(2);
  r[2] = get_group_id(0) * 10000 + get_group_id(1) * 100 + get_group_id(2);
  r[3] = get_num_groups(0) * 10000 + get_num_groups(1) * 100 + get_num_groups(2);
  r[4] = get_local_size(0) * 10000 + get_local_size(1) * 100 + get_local_size(2);
  r[5] = get_global_offset(0) * 10000 + get_global_offset(1) * 100 + get_global_offset(2);
  r[6] = get_work_dim();
  r[7] = rebuilt;
}
