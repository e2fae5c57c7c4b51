// Register pressure: 32 float and 8 uint accumulators live across a loop with a data-
// dependent trip count, and a noinline call inside it (caller-saved registers): the
// register allocator must spill and reload without mixing values up. FP_CONTRACT OFF:
// every value is an exactly rounded sequence of operations.
//
// @buffer x f32[4096] random -2 2 seed=561
// @buffer xi i32[4096] random -1000 1000 seed=562
// @buffer out f32[8192] zeros   # 32 x 256
// @buffer outi i32[2048] zeros  # 8 x 256
// @run pressure x xi out outi
// @range global=256 local=64
// @range global=256 local=32
// @check out exact
// @check outi exact

#pragma OPENCL FP_CONTRACT OFF

__attribute__((noinline)) float twist(float v, int k) { return v * 0.5f + (float)(k & 7); }

__kernel void pressure(__global const float* x, __global const int* xi, __global float* out,
                       __global int* outi) {
  int i = get_global_id(0), n = get_global_size(0);
  float f0 = 0.0f, f1 = 1.0f, f2 = 2.0f, f3 = 3.0f, f4 = 4.0f, f5 = 5.0f, f6 = 6.0f, f7 = 7.0f, f8 = 8.0f, f9 = 9.0f, f10 = 10.0f, f11 = 11.0f, f12 = 12.0f, f13 = 13.0f, f14 = 14.0f, f15 = 15.0f, f16 = 16.0f, f17 = 17.0f, f18 = 18.0f, f19 = 19.0f, f20 = 20.0f, f21 = 21.0f, f22 = 22.0f, f23 = 23.0f, f24 = 24.0f, f25 = 25.0f, f26 = 26.0f, f27 = 27.0f, f28 = 28.0f, f29 = 29.0f, f30 = 30.0f, f31 = 31.0f;
  uint g0 = 0, g1 = 1, g2 = 2, g3 = 3, g4 = 4, g5 = 5, g6 = 6, g7 = 7;
  int trips = 4 + (xi[i] & 7);
  for (int t = 0; t < trips; ++t) {
    float v = x[(i * 16 + t) % 4096];
    int w = xi[(i * 16 + t) % 4096];
    f0 = f0 + v * 0.125f + f31 * 0.125f;
    f1 = f1 - v * 0.25f + f0 * 0.125f;
    f2 = f2 * 0.75f + v * f1 * 0.01f;
    f3 = f3 + v * 0.5f + f2 * 0.125f;
    f4 = f4 - v * 0.625f + f3 * 0.125f;
    f5 = f5 * 0.75f + v * f4 * 0.01f;
    f6 = f6 + v * 0.875f + f5 * 0.125f;
    f7 = f7 - v * 1.0f + f6 * 0.125f;
    f8 = f8 * 0.75f + v * f7 * 0.01f;
    f9 = f9 + v * 1.25f + f8 * 0.125f;
    f10 = f10 - v * 1.375f + f9 * 0.125f;
    f11 = f11 * 0.75f + v * f10 * 0.01f;
    f12 = f12 + v * 1.625f + f11 * 0.125f;
    f13 = f13 - v * 1.75f + f12 * 0.125f;
    f14 = f14 * 0.75f + v * f13 * 0.01f;
    f15 = f15 + v * 2.0f + f14 * 0.125f;
    f16 = f16 - v * 2.125f + f15 * 0.125f;
    f17 = f17 * 0.75f + v * f16 * 0.01f;
    f18 = f18 + v * 2.375f + f17 * 0.125f;
    f19 = f19 - v * 2.5f + f18 * 0.125f;
    f20 = f20 * 0.75f + v * f19 * 0.01f;
    f21 = f21 + v * 2.75f + f20 * 0.125f;
    f22 = f22 - v * 2.875f + f21 * 0.125f;
    f23 = f23 * 0.75f + v * f22 * 0.01f;
    f24 = f24 + v * 3.125f + f23 * 0.125f;
    f25 = f25 - v * 3.25f + f24 * 0.125f;
    f26 = f26 * 0.75f + v * f25 * 0.01f;
    f27 = f27 + v * 3.5f + f26 * 0.125f;
    f28 = f28 - v * 3.625f + f27 * 0.125f;
    f29 = f29 * 0.75f + v * f28 * 0.01f;
    f30 = f30 + v * 3.875f + f29 * 0.125f;
    f31 = f31 - v * 4.0f + f30 * 0.125f;
    g0 = g0 * 3u + (uint)(w >> 0) - g1;  // unsigned: wraps
    g1 = g1 * 3u + (uint)(w >> 1) - g2;  // unsigned: wraps
    g2 = g2 * 3u + (uint)(w >> 2) - g3;  // unsigned: wraps
    g3 = g3 * 3u + (uint)(w >> 3) - g4;  // unsigned: wraps
    g4 = g4 * 3u + (uint)(w >> 4) - g5;  // unsigned: wraps
    g5 = g5 * 3u + (uint)(w >> 5) - g6;  // unsigned: wraps
    g6 = g6 * 3u + (uint)(w >> 6) - g7;  // unsigned: wraps
    g7 = g7 * 3u + (uint)(w >> 7) - g0;  // unsigned: wraps
    if (w & 1) f5 = twist(f5, g3);
  }
  out[0 * n + i] = f0;
  out[1 * n + i] = f1;
  out[2 * n + i] = f2;
  out[3 * n + i] = f3;
  out[4 * n + i] = f4;
  out[5 * n + i] = f5;
  out[6 * n + i] = f6;
  out[7 * n + i] = f7;
  out[8 * n + i] = f8;
  out[9 * n + i] = f9;
  out[10 * n + i] = f10;
  out[11 * n + i] = f11;
  out[12 * n + i] = f12;
  out[13 * n + i] = f13;
  out[14 * n + i] = f14;
  out[15 * n + i] = f15;
  out[16 * n + i] = f16;
  out[17 * n + i] = f17;
  out[18 * n + i] = f18;
  out[19 * n + i] = f19;
  out[20 * n + i] = f20;
  out[21 * n + i] = f21;
  out[22 * n + i] = f22;
  out[23 * n + i] = f23;
  out[24 * n + i] = f24;
  out[25 * n + i] = f25;
  out[26 * n + i] = f26;
  out[27 * n + i] = f27;
  out[28 * n + i] = f28;
  out[29 * n + i] = f29;
  out[30 * n + i] = f30;
  out[31 * n + i] = f31;
  outi[0 * n + i] = (int)g0;
  outi[1 * n + i] = (int)g1;
  outi[2 * n + i] = (int)g2;
  outi[3 * n + i] = (int)g3;
  outi[4 * n + i] = (int)g4;
  outi[5 * n + i] = (int)g5;
  outi[6 * n + i] = (int)g6;
  outi[7 * n + i] = (int)g7;
}
