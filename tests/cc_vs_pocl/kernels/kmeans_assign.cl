// k-means assignment step: each float2 point finds its nearest of 8 centroids (passed
// as a __constant float2 pointer) with ties to the lower index; then per-cluster counts
// with atomics. FP_CONTRACT OFF: the distances are exact, so are the choices.
//
// @buffer points float2[1000] random -10 10 seed=471
// @buffer centroids float2[8] random -8 8 seed=472
// @buffer assign i32[1000] zeros
// @buffer counts u32[8] zeros
// @run assign_points points centroids assign counts int:1000 int:8
// @range global=1024 local=64
// @check assign exact
// @check counts exact

#pragma OPENCL FP_CONTRACT OFF

__kernel void assign_points(__global const float2* points, __constant float2* centroids,
                            __global int* assign, __global uint* counts, int n, int k) {
  int i = get_global_id(0);
  if (i >= n) return;
  float2 p = points[i];
  int best = 0;
  float best_d = INFINITY;
  for (int c = 0; c < k; ++c) {
    float2 d = p - centroids[c];
    float dist = d.x * d.x + d.y * d.y;
    if (dist < best_d) {
      best_d = dist;
      best = c;
    }
  }
  assign[i] = best;
  atomic_inc(&counts[best]);
}
