// Bitonic sort of 256-key blocks in local memory: 128 work-items per block, each does one
// compare-exchange per step; barriers inside two nested loops. Keys with duplicates.
//
// @buffer keys u32[2048] random 0 5000 seed=121
// @run bitonic_local keys local:1024
// @range global=1024 local=128
// @check keys exact

__kernel void bitonic_local(__global uint* keys, __local uint* tile) {
  int lid = get_local_id(0);
  int base = get_group_id(0) * 256;
  tile[lid] = keys[base + lid];
  tile[lid + 128] = keys[base + lid + 128];
  for (int k = 2; k <= 256; k <<= 1) {
    for (int j = k >> 1; j > 0; j >>= 1) {
      barrier(CLK_LOCAL_MEM_FENCE);
      int i = 2 * lid - (lid & (j - 1));  // the lower index of this item's pair
      int partner = i + j;
      bool ascending = (i & k) == 0;
      uint a = tile[i], b = tile[partner];
      if ((a > b) == ascending) {
        tile[i] = b;
        tile[partner] = a;
      }
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  keys[base + lid] = tile[lid];
  keys[base + lid + 128] = tile[lid + 128];
}
