// Persistent work-items pulling items from a queue: each loops on atomic_inc of a global
// counter until the items run out, with a data-dependent amount of work per item (a
// loop whose trip count diverges inside a loop whose exit diverges). The results do not
// depend on which work-item took which item; the counter ends at items + work-items.
//
// @buffer x u32[3000] random 1 5000 seed=571
// @buffer out u32[3000] zeros
// @buffer next u32[1] zeros
// @run drain x out next int:3000
// @range global=128 local=64
// @range global=64 local=16
// @check out exact
// @check next exact

__kernel void drain(__global const uint* x, __global uint* out, __global uint* next, int n) {
  uint item;
  while ((item = atomic_inc(next)) < (uint)n) {
    uint v = x[item], steps = 0;
    while (v != 1 && steps < 200) {  // Collatz, capped
      v = (v & 1) ? 3 * v + 1 : v / 2;
      ++steps;
    }
    out[item] = steps * 65536 + (x[item] & 0xffff);
  }
}
