// Histogram of bytes with atomics on global memory: atomic_inc per value, atomic_add of
// the value into 16 coarse bins, from a grid-stride loop (counts are order-independent).
//
// @buffer data u8[8192] random 0 255 seed=71
// @buffer bins u32[256] zeros
// @buffer coarse u32[16] zeros
// @run histogram data bins coarse int:8192
// @range global=1024 local=64
// @range global=256 local=256
// @check bins exact
// @check coarse exact

__kernel void histogram(__global const uchar* data, __global uint* bins, __global uint* coarse,
                        int n) {
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) {
    uchar v = data[i];
    atomic_inc(&bins[v]);
    atomic_add(&coarse[v >> 4], (uint)v);
  }
}
