// Breadth-first search, level-synchronous, one kernel per level: the frontier is the set
// of nodes at distance `level`; atomic_cmpxchg claims unvisited neighbours, atomic_min
// keeps the smallest parent and atomic_inc counts each level's new nodes (all results
// independent of the order). The graph (512 nodes, 1-4 edges each) is built by a kernel
// from a hash.
//
// @buffer degree i32[512] zeros
// @buffer edges i32[2048] zeros
// @buffer dist i32[512] zeros
// @buffer parent i32[512] zeros
// @buffer level_sizes u32[16] zeros
// @run make_graph degree edges int:512
// @run bfs_init dist parent int:512 int:0
// @run bfs_step degree edges dist parent level_sizes int:512 int:$i repeat=14
// @range global=512 local=64
// @range global=512 local=32
// @check dist exact
// @check parent exact
// @check level_sizes exact

uint hash(uint x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

__kernel void make_graph(__global int* degree, __global int* edges, int n) {
  int v = get_global_id(0);
  uint h = hash(v ^ 0x9e3779b9u);
  int d = 1 + (h & 3);
  degree[v] = d;
  for (int e = 0; e < 4; ++e) {
    // Mostly near neighbours with a few long edges, so the search takes several levels.
    uint r = hash(h + e);
    int w = (r & 7) == 0 ? (int)(r % n) : (v + 1 + (int)(r >> 8) % 9) % n;
    edges[4 * v + e] = e < d ? w : -1;
  }
}

__kernel void bfs_init(__global int* dist, __global int* parent, int n, int source) {
  int v = get_global_id(0);
  dist[v] = v == source ? 0 : -1;
  parent[v] = v == source ? source : n;
}

__kernel void bfs_step(__global const int* degree, __global const int* edges,
                       __global int* dist, __global int* parent, __global uint* level_sizes,
                       int n, int level) {
  int v = get_global_id(0);
  if (v >= n || dist[v] != level) return;
  for (int e = 0; e < degree[v]; ++e) {
    int w = edges[4 * v + e];
    int old = atomic_cmpxchg(&dist[w], -1, level + 1);
    if (old == -1) atomic_inc(&level_sizes[level + 1]);
    if (old == -1 || old == level + 1) atomic_min(&parent[w], v);
  }
}
