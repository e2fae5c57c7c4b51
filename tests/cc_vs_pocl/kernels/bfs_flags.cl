// Breadth-first search with frontier flags and two kernels per level (expand marks the
// next frontier, update commits it and counts the new nodes); the pair repeats for 16
// levels ($i is the level). A 16 x 16 grid graph with some walls, from node 0.
//
// @buffer wall u8[256] random 0 4 seed=151
// @buffer frontier i32[256] zeros
// @buffer next i32[256] zeros
// @buffer dist i32[256] const -1
// @buffer count u32[1] zeros
// @run bfs_start frontier dist
// @repeat 32
// @run expand wall frontier next dist
// @run update frontier next dist count int:$i
// @end
// @range global=256 local=32
// @range global=256 local=256
// @check dist exact
// @check count exact

__kernel void bfs_start(__global int* frontier, __global int* dist) {
  int v = get_global_id(0);
  frontier[v] = v == 0;
  if (v == 0) dist[0] = 0;
}

__kernel void expand(__global const uchar* wall, __global const int* frontier,
                     __global int* next, __global const int* dist) {
  int v = get_global_id(0);
  if (!frontier[v]) return;
  int x = v % 16, y = v / 16;
  for (int k = 0; k < 4; ++k) {
    int nx = x + (k == 0) - (k == 1), ny = y + (k == 2) - (k == 3);
    if (nx < 0 || nx >= 16 || ny < 0 || ny >= 16) continue;
    int w = ny * 16 + nx;
    if (wall[w] == 0 || dist[w] != -1) continue;  // value 0 is a wall
    next[w] = 1;
  }
}

__kernel void update(__global int* frontier, __global int* next, __global int* dist,
                     __global uint* count, int level) {
  int v = get_global_id(0);
  frontier[v] = 0;
  if (next[v]) {
    next[v] = 0;
    if (dist[v] == -1) {
      dist[v] = level + 1;
      frontier[v] = 1;
      atomic_inc(count);
    }
  }
}
