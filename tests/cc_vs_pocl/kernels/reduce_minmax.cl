// Min, max and arg-min in local memory arrays declared in the kernel (sequential
// addressing, ties to the lower index), signed and unsigned. One result per workgroup.
//
// @buffer x i32[4096] random -100000 100000 seed=51
// @buffer u u32[4096] random 0 4000000000 seed=52
// @buffer out i32[192] zeros    # per group: min, max, argmin
// @buffer outu u32[128] zeros   # per group: min, max
// @run minmax x u out outu
// @range global=4096 local=64
// @range global=4096 local=128
// @check out exact
// @check outu exact

__kernel void minmax(__global const int* x, __global const uint* u, __global int* out,
                     __global uint* outu) {
  __local int lmin[128], lmax[128], larg[128];
  __local uint umin[128], umax[128];
  int lid = get_local_id(0), gid = get_global_id(0);
  lmin[lid] = lmax[lid] = x[gid];
  larg[lid] = gid;
  umin[lid] = umax[lid] = u[gid];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (lid < s) {
      int other = lmin[lid + s];
      if (other < lmin[lid] || (other == lmin[lid] && larg[lid + s] < larg[lid])) {
        lmin[lid] = other;
        larg[lid] = larg[lid + s];
      }
      lmax[lid] = max(lmax[lid], lmax[lid + s]);
      umin[lid] = min(umin[lid], umin[lid + s]);
      umax[lid] = max(umax[lid], umax[lid + s]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) {
    int g = get_group_id(0);
    out[3 * g] = lmin[0];
    out[3 * g + 1] = lmax[0];
    out[3 * g + 2] = larg[0];
    outu[2 * g] = umin[0];
    outu[2 * g + 1] = umax[0];
  }
}
