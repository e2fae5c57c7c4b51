// Shifts and bit operations: shift counts of 32 and more (OpenCL takes them modulo the
// width), arithmetic and logical right shifts, shifts of narrow types (promoted),
// variable and constant counts, and/or/xor/not, bit tricks on uint.
//
// @buffer a i32[512] random -2147483648 2147483647 seed=491
// @buffer k i32[512] random 0 100 seed=492
// @buffer r u32[6144] zeros   # 12 x 512
// @run shifts a k r
// @range global=512 local=128
// @check r exact

__kernel void shifts(__global const int* as, __global const int* ks, __global uint* r) {
  int i = get_global_id(0), n = get_global_size(0);
  int a = as[i], k = ks[i];
  uint u = (uint)a;
  r[0 * n + i] = u << k;  // k up to 100: taken modulo 32
  r[1 * n + i] = (uint)(a >> k);
  r[2 * n + i] = u >> k;
  r[3 * n + i] = (uint)(a >> 31) ^ (u >> 31);
  r[4 * n + i] = (u << 7) | (u >> 25);
  r[5 * n + i] = ~u & (u - 1);   // trailing zeros as ones
  r[6 * n + i] = u & -u;         // lowest set bit
  char c = (char)a;
  uchar uc = (uchar)a;
  short s = (short)a;
  r[7 * n + i] = (uint)(c >> (k & 7)) ^ ((uint)uc << 3);
  r[8 * n + i] = (uint)((short)((uint)s << (k & 15)) >> 3);
  r[9 * n + i] = (uint)(a ^ (a >> 16)) | (uint)(k << 24);
  ushort us = (ushort)u;
  r[10 * n + i] = (uint)(ushort)(us << (k & 15)) + (uint)(us >> (k & 15));
  uint x = u;
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);  // bit reverse
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
  x = ((x >> 8) & 0x00ff00ffu) | ((x & 0x00ff00ffu) << 8);
  r[11 * n + i] = (x >> 16) | (x << 16);
}
