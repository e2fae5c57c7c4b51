// Frames beyond the start code's 1 KiB warp stack and beyond the immediate offsets: 330
// uniform values loaded before a loop that stores through an aliasing pointer stay live
// across it (at -O2 a scalar stack of about 1.1 KiB per warp, as in the Rodinia kernel that
// failed to build), with __local data after the warps' stacks; private arrays of 1,052 bytes
// and 4 KiB per work-item indexed by data (the conformance test that failed).
//
// @buffer in i32[400] random -100000 100000 seed=171
// @buffer out i32[256] zeros
// @buffer small i32[256] zeros
// @buffer big i32[256] zeros
// @run uniform_frame in out int:2
// @range global=256 local=128
// @run private_arrays in small big
// @range global=256 local=64
// @check out exact
// @check small exact
// @check big exact

#define LOAD(n) int u##n = in[n];
#define MIX(n) acc = (acc ^ u##n) * (2 * n + 3) + n;
#define TEN(op, n) op(n##0) op(n##1) op(n##2) op(n##3) op(n##4) \
                   op(n##5) op(n##6) op(n##7) op(n##8) op(n##9)
#define DIGITS(op) op(0) op(1) op(2) op(3) op(4) op(5) op(6) op(7) op(8) op(9)
#define HUNDRED(op, n) TEN(op, n##1) TEN(op, n##2) TEN(op, n##3) TEN(op, n##4) \
                       TEN(op, n##5) TEN(op, n##6) TEN(op, n##7) TEN(op, n##8) TEN(op, n##9)
// 0 .. 329
#define ALL(op) DIGITS(op) TEN(op, 1) TEN(op, 2) TEN(op, 3) TEN(op, 4) TEN(op, 5) TEN(op, 6) \
                TEN(op, 7) TEN(op, 8) TEN(op, 9) TEN(op, 10) HUNDRED(op, 1) TEN(op, 20)   \
                HUNDRED(op, 2) TEN(op, 30) TEN(op, 31) TEN(op, 32)

__kernel void uniform_frame(__global int* in, __global int* out, int rounds) {
  ALL(LOAD)
  int gid = get_global_id(0), lid = get_local_id(0);
  __local int shared[128];
  int acc = gid;
  for (int r = 0; r < rounds; ++r) {
    ALL(MIX)
    out[gid] = acc;
  }
  shared[lid] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[gid] = acc + shared[(lid + 1) % get_local_size(0)];
}

#define PRIVATE_SUM(words, result)                                \
  {                                                               \
    int a[words];                                                 \
    for (int i = 0; i < words; ++i) a[i] = in[(gid + i) % 397] * (i + 1); \
    int acc = 0;                                                  \
    for (int i = 0; i < words; ++i) acc += a[(i * 7 + gid) % words] ^ i; \
    result[gid] = acc + a[words - 1 - gid % words];               \
  }

__kernel void private_arrays(__global const int* in, __global int* small, __global int* big) {
  int gid = get_global_id(0);
  PRIVATE_SUM(263, small)
  PRIVATE_SUM(1024, big)
}
