// Work-efficient exclusive prefix sum (Blelloch: up-sweep, down-sweep in local memory,
// 2 elements per work-item) over 4096 ints in three launches: scan each block of 128 and
// emit its total, scan the 32 totals in one workgroup, add each block's offset.
//
// @buffer in i32[4096] random -100 100 seed=61
// @buffer out i32[4096] zeros
// @buffer sums i32[32] zeros
// @buffer sums_scanned i32[32] zeros
// @buffer total i32[1] zeros
// @run scan_block in out sums local:512 int:4096 global=2048 local=64
// @run scan_block sums sums_scanned total local:128 int:32 global=16 local=16
// @run add_offsets out sums_scanned int:4096 int:128 global=4096 local=128
// @check out exact
// @check sums exact
// @check sums_scanned exact
// @check total exact

__kernel void scan_block(__global const int* in, __global int* out, __global int* block_sums,
                         __local int* tmp, int n) {
  int lid = get_local_id(0);
  int m = 2 * get_local_size(0);
  int base = get_group_id(0) * m;
  tmp[2 * lid] = base + 2 * lid < n ? in[base + 2 * lid] : 0;
  tmp[2 * lid + 1] = base + 2 * lid + 1 < n ? in[base + 2 * lid + 1] : 0;
  int offset = 1;
  for (int d = m >> 1; d > 0; d >>= 1) {  // up-sweep: partial sums in place
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < d) {
      int ai = offset * (2 * lid + 1) - 1;
      int bi = offset * (2 * lid + 2) - 1;
      tmp[bi] += tmp[ai];
    }
    offset <<= 1;
  }
  if (lid == 0) {
    block_sums[get_group_id(0)] = tmp[m - 1];
    tmp[m - 1] = 0;
  }
  for (int d = 1; d < m; d <<= 1) {  // down-sweep
    offset >>= 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < d) {
      int ai = offset * (2 * lid + 1) - 1;
      int bi = offset * (2 * lid + 2) - 1;
      int t = tmp[ai];
      tmp[ai] = tmp[bi];
      tmp[bi] += t;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (base + 2 * lid < n) out[base + 2 * lid] = tmp[2 * lid];
  if (base + 2 * lid + 1 < n) out[base + 2 * lid + 1] = tmp[2 * lid + 1];
}

__kernel void add_offsets(__global int* out, __global const int* offsets, int n, int block) {
  int i = get_global_id(0);
  if (i < n) out[i] += offsets[i / block];
}
