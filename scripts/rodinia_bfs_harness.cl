// The harness of scripts/rodinia_bfs_stats.sh: Rodinia's BFS kernels (opencl/bfs/Kernels.cl
// of THU-DSP-LAB/gpu-rodinia, from the user's checkout, appended unmodified by the script)
// on a generated graph: 4,096 nodes with 1-6 edges each (hash-chosen neighbours), from
// node 0, 14 levels of BFS_1 (expand the frontier) and BFS_2 (commit it), as the Rodinia
// host program runs them, in the cc_vs_pocl_run format (docs/compiler-tests.md).
// docs/compiler.md ("Code quality") lists the instructions they execute.
//
// @buffer nodes i32[8192] zeros
// @buffer edges i32[24576] zeros
// @buffer mask i8[4096] zeros
// @buffer updating i8[4096] zeros
// @buffer visited i8[4096] zeros
// @buffer cost i32[4096] zeros
// @buffer over i8[4] zeros
// @run make_graph nodes edges mask visited cost int:4096
// @repeat 14
// @run BFS_1 nodes edges mask updating visited cost int:4096
// @run BFS_2 mask updating visited over int:4096
// @end
// @range global=4096 local=256
// @range global=4096 local=64
// @check cost exact
// @check visited exact
// @check over exact

uint hash(uint x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

// Node v's edges start at 6 v; the source is node 0 (cost 0, in the frontier, visited).
__kernel void make_graph(__global int* nodes, __global int* edges, __global char* mask,
                         __global char* visited, __global int* cost, int n) {
  int v = get_global_id(0);
  int degree = 1 + hash(v) % 6;
  nodes[2 * v] = 6 * v;  // Node: starting, no_of_edges
  nodes[2 * v + 1] = degree;
  for (int j = 0; j < degree; ++j) edges[6 * v + j] = hash(v * 6 + j + 1) % n;
  mask[v] = v == 0;
  visited[v] = v == 0;
  cost[v] = v == 0 ? 0 : -1;
}

