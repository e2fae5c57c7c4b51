// Histogram with per-workgroup bins in local memory (atomic_inc on __local), merged into
// the global bins with atomic_add; values are 16-bit, 64 bins of 1024.
//
// @buffer data u16[6000] random 0 65535 seed=81
// @buffer bins u32[64] zeros
// @run histogram_local data bins int:6000
// @range global=2048 local=128
// @range global=512 local=32
// @check bins exact

__kernel void histogram_local(__global const ushort* data, __global uint* bins, int n) {
  __local uint local_bins[64];
  int lid = get_local_id(0);
  for (int b = lid; b < 64; b += get_local_size(0)) local_bins[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) atomic_inc(&local_bins[data[i] >> 10]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int b = lid; b < 64; b += get_local_size(0))
    if (local_bins[b] != 0) atomic_add(&bins[b], local_bins[b]);
}
