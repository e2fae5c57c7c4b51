// Deeper call chains of noinline functions: many arguments (more than fit in argument
// registers), float and int mixed, a function called from two call sites in divergent
// branches, and one called inside a loop with a divergent trip count.
//
// @buffer a i32[512] random -100 100 seed=201
// @buffer b f32[512] random -2 2 seed=202
// @buffer out i32[512] zeros
// @buffer outf f32[512] zeros
// @run chain a b out outf
// @range global=512 local=64
// @check out exact
// @check outf ulp 4 abs 1e-6

__attribute__((noinline)) int mix10(int a0, int a1, int a2, int a3, int a4, int a5, int a6,
                                    int a7, int a8, int a9) {
  return a0 - 2 * a1 + 3 * a2 - 4 * a3 + 5 * a4 - 6 * a5 + 7 * a6 - 8 * a7 + 9 * a8 - 10 * a9;
}

__attribute__((noinline)) float fmix(float x, int k, float y, int j, float z) {
  return x * (float)k + y * (float)j - z;
}

__attribute__((noinline)) int level3(int v) { return (v * v) % 97; }
__attribute__((noinline)) int level2(int v) { return level3(v) + level3(v + 1); }
__attribute__((noinline)) int level1(int v, int w) {
  return v > w ? level2(v) - w : level2(w) + v;
}

__kernel void chain(__global const int* a, __global const float* b, __global int* out,
                    __global float* outf) {
  int i = get_global_id(0);
  int v = a[i];
  int r;
  if (v > 0)
    r = mix10(v, v + 1, v + 2, i, i + 1, i + 2, v ^ i, v & i, v | i, 7);
  else
    r = mix10(i, v, 3, v * 2, 5, -v, 7, 8, i % 9, v);
  for (int k = 0; k < (i & 7); ++k) r += level1(v + k, i - k);
  out[i] = r;
  float t = b[i];
  outf[i] = (v & 1) ? fmix(t, v, t * t, i, 1.5f) : fmix(-t, 3, t, v, t);
}
