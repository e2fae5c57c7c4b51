// Inclusive scan (Hillis-Steele, double-buffered local arrays declared in the kernel):
// log2(n) steps with a barrier in each; uint sums wrap, and a max-scan rides along.
//
// @buffer in u32[2048] random 0 4000000000 seed=531
// @buffer sums u32[2048] zeros
// @buffer maxes u32[2048] zeros
// @run scan_hs in sums maxes
// @range global=2048 local=256
// @range global=2048 local=32
// @check sums exact
// @check maxes exact

__kernel void scan_hs(__global const uint* in, __global uint* sums, __global uint* maxes) {
  __local uint a[2][256];
  __local uint m[2][256];
  int lid = get_local_id(0), n = get_local_size(0), gid = get_global_id(0);
  int cur = 0;
  a[0][lid] = m[0][lid] = in[gid];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int d = 1; d < n; d <<= 1) {
    uint s = a[cur][lid], x = m[cur][lid];
    if (lid >= d) {
      s += a[cur][lid - d];
      x = max(x, m[cur][lid - d]);
    }
    a[1 - cur][lid] = s;
    m[1 - cur][lid] = x;
    cur = 1 - cur;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  sums[gid] = a[cur][lid];
  maxes[gid] = m[cur][lid];
}
