// Private arrays with dynamic indices: each work-item loads 16 values into a private
// array, insertion-sorts it, writes its median and a permutation-indexed gather, and
// looks up a private table with a computed index.
//
// @buffer x i32[4096] random -1000 1000 seed=231
// @buffer sorted i32[4096] zeros
// @buffer median i32[256] zeros
// @buffer gather i32[256] zeros
// @run private_sort x sorted median gather
// @range global=256 local=64
// @range global=256 local=256
// @check sorted exact
// @check median exact
// @check gather exact

__kernel void private_sort(__global const int* x, __global int* sorted, __global int* median,
                           __global int* gather) {
  int i = get_global_id(0);
  int a[16];
  int table[8];
  for (int k = 0; k < 16; ++k) a[k] = x[16 * i + k];
  for (int k = 0; k < 8; ++k) table[k] = k * k - 3 * i;
  for (int k = 1; k < 16; ++k) {
    int v = a[k];
    int j = k - 1;
    while (j >= 0 && a[j] > v) {
      a[j + 1] = a[j];
      --j;
    }
    a[j + 1] = v;
  }
  for (int k = 0; k < 16; ++k) sorted[16 * i + k] = a[k];
  median[i] = (a[7] + a[8]) / 2;
  int g = 0;
  for (int k = 0; k < 16; ++k) g += a[(k * 5 + i) & 15] * (k + 1) + table[(a[k] & 0x7fff) % 8];
  gather[i] = g;
}
