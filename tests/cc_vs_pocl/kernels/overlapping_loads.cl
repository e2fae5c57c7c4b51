// Loads of different vector types over the same bytes: LLVM's GVN forwards the narrower
// load's bytes out of the wider one through a vector of 128-bit integers (bitcast
// <16 x float> to <4 x i128>, extractelement, bitcast to <4 x i32>), which the back end
// turns into element moves.
//
// @buffer g u32[4096] random 0 4e9 seed=881
// @buffer o u32[2048] zeros
// @buffer l u64[2048] zeros
// @run overlapping g o l
// @range global=128 local=32
// @range global=128 local=8
// @check o exact
// @check l exact

__kernel void overlapping(__global const uint* g, __global uint* o, __global ulong* l) {
  int i = get_global_id(0);
  __global const char* base = (__global const char*)(g + 32 * i);
  float16 f = *(__global const float16*)base;
  uint4 u = *(__global const uint4*)(base + 16);
  long16 w = *(__global const long16*)base;
  ulong2 v = *(__global const ulong2*)(base + 32);
  uint16 bits = as_uint16(f) * 3u;
  for (int k = 0; k < 4; ++k) o[16 * i + k] = u[k] + bits[k];
  l[16 * i] = (ulong)w.s7 ^ v.s1;
  l[16 * i + 1] = v.s0 + (ulong)w.s2;
}
