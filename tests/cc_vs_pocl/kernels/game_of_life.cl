// Game of Life on a 64 x 32 torus of uchar cells, 8 generations ping-ponging between two
// buffers (a @repeat group of two launches), with a per-generation population count.
//
// @buffer a u8[2048] random 0 1 seed=451
// @buffer b u8[2048] zeros
// @buffer population u32[16] zeros
// @repeat 4
// @run life a b population int:64 int:32 int:$i int:0
// @run life b a population int:64 int:32 int:$i int:1
// @end
// @range global=64,32 local=16,4
// @range global=64,32 local=64,1
// @check a exact
// @check b exact
// @check population exact

__kernel void life(__global const uchar* in, __global uchar* out, __global uint* population,
                   int w, int h, int round, int phase) {
  int x = get_global_id(0), y = get_global_id(1);
  int alive = 0;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx)
      if (dx || dy) alive += in[((y + dy + h) % h) * w + (x + dx + w) % w];
  uchar self = in[y * w + x];
  uchar next = (alive == 3 || (self && alive == 2)) ? 1 : 0;
  out[y * w + x] = next;
  if (next) atomic_inc(&population[2 * round + phase]);  // two generations per round
}
