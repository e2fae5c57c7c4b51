// Less common builtins: shuffle and shuffle2 with computed masks, vec_step, nan(),
// nextafter, atomic_xchg on floats (global and local), and a kernel called as a function
// from another kernel (OpenCL C allows it; at -O2 it is usually inlined, at -O0 not).
//
// @buffer a float4[256] random -10 10 seed=611
// @buffer b int8[256] random -1000 1000 seed=612
// @buffer m u32[256] random 0 4294967295 seed=613
// @buffer out float4[512] zeros
// @buffer outi int8[256] zeros
// @buffer misc f32[768] zeros
// @buffer slot f32[1] const 0.5
// @buffer firsts i32[4] zeros   # per group: how many exchanges saw the initial 1.0f
// @run misc_builtins a b m out outi misc slot firsts
// @range global=256 local=64
// @check out exact
// @check outi exact
// @check misc exact
// @check slot exact
// @check firsts exact

__kernel void scale_in_place(__global float* misc, int i, int n) { misc[2 * n + i] *= 2.0f; }

__kernel void misc_builtins(__global const float4* as, __global const int8* bs,
                            __global const uint* ms, __global float4* out, __global int8* outi,
                            __global float* misc, __global float* slot,
                            __global int* firsts) {
  __local float lslot;
  __local int first_count;
  int i = get_global_id(0), n = get_global_size(0);
  float4 a = as[i];
  int8 b = bs[i];
  uint m = ms[i];
  uint4 mask4 = (uint4)(m, m >> 2, m >> 4, m >> 6) & 3u;
  out[i] = shuffle(a, mask4);
  out[n + i] = shuffle2(a, a * -1.0f, (uint4)(m, m >> 3, m >> 6, m >> 9) & 7u);
  uint8 mask8 = (uint8)(m, m >> 3, m >> 6, m >> 9, m >> 12, m >> 15, m >> 18, m >> 21) & 7u;
  outi[i] = shuffle(b, mask8) + (int8)(vec_step(float4), vec_step(int8), vec_step(char3), 0, 0,
                                       0, 0, 1);
  misc[i] = isnan(nan(m & 0x3fffffu)) ? 1.0f : 0.0f;
  misc[n + i] = nextafter(a.x, a.y);
  misc[2 * n + i] = a.z;
  scale_in_place(misc, i, n);
  if (get_local_id(0) == 0) {
    lslot = 1.0f;
    first_count = 0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  // Whatever the order, exactly one exchange per group returns the initial 1.0f (the
  // a.w are random, never 1.0f), and every global exchange returns 0.5f or 0.25f.
  float old = atomic_xchg(&lslot, a.w);
  if (old == 1.0f) atomic_inc(&first_count);
  float gold = atomic_xchg(slot, 0.25f);
  misc[2 * n + i] += (gold == 0.5f || gold == 0.25f) ? 0.0f : 1.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) firsts[get_group_id(0)] = first_count;
}
