// Conditional expressions the compiler may turn into selects or branches: ternaries on
// int, uint and float (with side-effect-free and memory-reading arms), min/max idioms,
// conditional stores, and boolean arithmetic with short-circuit operators.
//
// @buffer a i32[1024] random -1000 1000 seed=501
// @buffer f f32[1024] random -10 10 seed=502
// @buffer out i32[4096] zeros
// @buffer outf f32[2048] zeros
// @buffer cond i32[1024] const 99
// @run ternary a f out outf cond
// @range global=1024 local=64
// @range global=1024 local=8
// @check out exact
// @check outf exact
// @check cond exact

__kernel void ternary(__global const int* as, __global const float* fs, __global int* out,
                      __global float* outf, __global int* cond) {
  int i = get_global_id(0), n = get_global_size(0);
  int a = as[i];
  float f = fs[i];
  out[0 * n + i] = a > 0 ? a : -a;
  out[1 * n + i] = a < as[(i + 1) % n] ? as[(i + 1) % n] : a;
  out[2 * n + i] = (a & 1) && (a > 100 || a < -100) ? 1 : (a % 3 == 0 || f > 0.0f) ? 2 : 3;
  out[3 * n + i] = (uint)a > 500u ? (int)((uint)a >> 20) : a;
  outf[i] = f > 0.0f ? f * 2.0f : f - 1.0f;
  outf[n + i] = (a > 0) == (f > 0.0f) ? f : -f;
  if ((a ^ i) & 4) cond[i] = a;  // conditional store: others keep 99
}
