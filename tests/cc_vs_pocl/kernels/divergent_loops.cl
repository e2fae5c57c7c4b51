// Loops with divergent trip counts and divergent exits: Collatz step counts (a while loop
// with a cap and break), a loop with continue and an early return from inside it, and a
// nested loop whose inner break depends on the data.
//
// @buffer x u32[800] random 1 100000 seed=171
// @buffer steps i32[800] zeros
// @buffer sums i32[800] const 7
// @buffer inner i32[800] zeros
// @run collatz x steps int:800
// @run skip_and_return x sums int:800
// @run nested_break x inner int:800
// @range global=832 local=64
// @range global=800 local=32
// @check steps exact
// @check sums exact
// @check inner exact

__kernel void collatz(__global const uint* x, __global int* steps, int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  uint v = x[i];
  int s = 0;
  while (v != 1) {
    v = (v & 1) ? 3 * v + 1 : v >> 1;
    if (++s >= 300) break;
  }
  steps[i] = s;
}

__kernel void skip_and_return(__global const uint* x, __global int* sums, int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  uint v = x[i];
  int acc = 0;
  for (int k = 0; k < 32; ++k) {
    uint bit = (v >> k) & 1;
    if (!bit) continue;           // divergent continue
    acc += k;
    if (acc > 150) {              // divergent early return: sums[i] keeps a marker
      sums[i] = -acc;
      return;
    }
  }
  sums[i] = acc;
}

__kernel void nested_break(__global const uint* x, __global int* inner, int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  uint v = x[i];
  int count = 0;
  for (int a = 0; a < 8; ++a) {
    for (int b = 0; b < 16; ++b) {
      if (((v >> (a + b)) & 3) == 3) break;
      ++count;
    }
    if (count > 60 + (int)(v & 15)) break;
  }
  inner[i] = count;
}
