// Relational builtins on floats including NaN, infinities and signed zeros: the is*
// classification and comparison functions (scalar: 0/1, vector: 0/-1), signbit, any,
// all, select (scalar and vector masks) and bitselect.
//
// @buffer x f32[64] values 0 -0 1 -1 nan inf -inf 2.5 -3.5 1e30 -1e-30 3.4e38 -nan 7 0.5 -2
// @buffer y f32[64] values 1 -0 nan 0 -1 inf 2.5 -inf 7 1e30 -2 -3.5 0.5
// @buffer k i32[64] random -5 5 seed=361
// @buffer scalar i32[1024] zeros   # 16 x 64
// @buffer vector i32[1024] zeros   # 16 x 64: the components of 4 float4 results
// @buffer reduce i32[320] zeros    # any, all of int4 and signed char4
// @buffer selected f32[384] zeros
// @run relational x y k scalar vector reduce selected
// @range global=64 local=16
// @range global=64 local=64
// @check scalar exact
// @check vector exact
// @check reduce exact
// @check selected exact

__kernel void relational(__global const float* xs, __global const float* ys,
                         __global const int* ks, __global int* scalar, __global int* vector,
                         __global int* reduce, __global float* selected) {
  int i = get_global_id(0), n = get_global_size(0);
  float x = xs[i], y = ys[i];
  int k = ks[i];
  scalar[0 * n + i] = isnan(x);
  scalar[1 * n + i] = isinf(x);
  scalar[2 * n + i] = isfinite(x);
  scalar[3 * n + i] = isnormal(x);
  scalar[4 * n + i] = signbit(x);
  scalar[5 * n + i] = isequal(x, y);
  scalar[6 * n + i] = isnotequal(x, y);
  scalar[7 * n + i] = isgreater(x, y);
  scalar[8 * n + i] = isgreaterequal(x, y);
  scalar[9 * n + i] = isless(x, y);
  scalar[10 * n + i] = islessequal(x, y);
  scalar[11 * n + i] = islessgreater(x, y);
  scalar[12 * n + i] = isordered(x, y);
  scalar[13 * n + i] = isunordered(x, y);
  scalar[14 * n + i] = (x < y) + 2 * (x == y) + 4 * (x != y) + 8 * (x >= y);
  scalar[15 * n + i] = x > y ? k : -k;
  // Vectors: x and its neighbours against y's.
  float4 vx = (float4)(x, xs[(i + 1) % n], xs[(i + 5) % n], -x);
  float4 vy = (float4)(y, y, ys[(i + 3) % n], x);
  int4 r0 = isnan(vx) + 2 * isinf(vy);
  int4 r1 = isless(vx, vy);
  int4 r2 = islessgreater(vx, vy) ^ isunordered(vx, vy);
  int4 r3 = signbit(vx) | (isnormal(vy) & 0x10);
  vstore4(r0, 0 * n + i, vector);
  vstore4(r1, 1 * n + i, vector);
  vstore4(r2, 2 * n + i, vector);
  vstore4(r3, 3 * n + i, vector);
  int4 v = (int4)(k, k - 1, k + 2, -k);
  char4 c = (char4)((char)k, (char)(k * 40), 3, -4);
  reduce[0 * n + i] = any(v);
  reduce[1 * n + i] = all(v);
  reduce[2 * n + i] = any(r1);
  reduce[3 * n + i] = all(c);
  reduce[4 * n + i] = any(c) * 10 + all(isordered(vx, vy));
  selected[0 * n + i] = select(x, y, k);
  selected[1 * n + i] = select(x, y, isgreater(x, y));
  float4 s = select(vx, vy, r1);
  selected[2 * n + i] = s.x + s.y;
  selected[3 * n + i] = s.z;
  selected[4 * n + i] = bitselect(x, y, as_float(0xff0000ffu));
  selected[5 * n + i] = as_float(bitselect(as_uint(x), as_uint(y), (uint)k));
}
