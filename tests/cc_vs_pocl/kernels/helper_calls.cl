// Non-kernel helper functions, several marked noinline so real calls are emitted, called
// from divergent branches with divergent arguments; helpers with loops and several
// returns, a helper writing through pointers (private and global), and a call chain
// kernel -> outer -> middle -> inner (no recursion).
//
// @buffer x i32[1000] random -1000 1000 seed=191
// @buffer f f32[1000] random -4 4 seed=192
// @buffer out i32[1000] zeros
// @buffer outf f32[1000] zeros
// @buffer side i32[1000] zeros
// @run calls x f out outf side int:1000
// @range global=1024 local=64
// @range global=1000 local=40
// @check out exact
// @check outf ulp 4 abs 1e-6
// @check side exact

__attribute__((noinline)) int digit_sum(int v) {
  if (v < 0) v = -v;
  int s = 0;
  while (v) {
    s += v % 10;
    v /= 10;
  }
  return s;
}

__attribute__((noinline)) int classify(int v, int k) {
  if (v > 500) return 1 + k;
  if (v < -500) return -1 - k;
  for (int j = 0; j < k; ++j)
    if ((v >> j) & 1) return 100 + j;
  return 0;
}

__attribute__((noinline)) float poly(float t, int degree) {
  float acc = 1.0f;
  for (int d = 1; d <= degree; ++d) acc = acc * t + (float)d;
  return acc;
}

__attribute__((noinline)) void min_max(int a, int b, int* lo, __global int* hi) {
  *lo = a < b ? a : b;
  *hi = a < b ? b : a;
}

int inner(int v) { return v * 7 - 3; }
__attribute__((noinline)) int middle(int v, int w) { return inner(v) ^ digit_sum(w); }
__attribute__((noinline)) int outer(int v) { return middle(v, v + 17) + middle(v >> 1, 5); }

__kernel void calls(__global const int* x, __global const float* f, __global int* out,
                    __global float* outf, __global int* side, int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  int v = x[i];
  int r;
  if (v & 1) {
    r = digit_sum(v) + classify(v, i % 5);
  } else if (v % 3 == 0) {
    r = outer(v);
  } else {
    r = classify(-v, 3);
  }
  int lo;
  min_max(v, r, &lo, &side[i]);
  out[i] = r + lo;
  outf[i] = (i & 2) ? poly(f[i], 1 + (i % 4)) : poly(-f[i], 2);
}
