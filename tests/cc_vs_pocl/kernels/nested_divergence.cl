// Nested divergence: an if inside an if inside a loop whose trip count differs per
// work-item, with a divergent else-if chain and values carried across iterations.
//
// @buffer x i32[1000] random -5000 5000 seed=161
// @buffer out i32[1000] zeros
// @buffer path u32[1000] zeros
// @run nested x out path int:1000
// @range global=1024 local=64
// @range global=1000 local=8
// @check out exact
// @check path exact

__kernel void nested(__global const int* x, __global int* out, __global uint* path, int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  int v = x[i];
  uint p = 0;
  int trips = 3 + (i % 7);
  for (int k = 0; k < trips; ++k) {
    if (v & 1) {
      if (v % 3 == 0) {
        v = v / 3 + k;
        p = p * 4 + 1;
      } else {
        v = 3 * v + 1;
        p = p * 4 + 2;
      }
    } else {
      if (v < 0) {
        v = -v / 2;
        p = p * 4 + 3;
      } else if (v > 100) {
        v = v / 2 - k;
      } else {
        v += i & 15;
        p = p * 4;
      }
    }
  }
  out[i] = v;
  path[i] = p;
}
