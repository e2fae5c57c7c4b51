// Constant data that LLVM creates: a switch over a small range whose cases all give
// constants becomes a lookup table (a constant global in address space 0), indexed per
// work-item and per workgroup (a uniform index); a private array initialised from
// constants and then written (a copy of a constant global); a string literal indexed
// at run time. Each must be read from where the data lives (.rodata), not from private
// memory.
//
// @buffer x i32[512] random -1000 1000 seed=171
// @buffer ints i32[512] const -1
// @buffer floats f32[512] const -1
// @buffer uniform i32[512] const -1
// @buffer copied i32[512] const -1
// @buffer text i32[512] const -1
// @run tables x ints floats uniform copied text
// @range global=512 local=64
// @range global=512 local=16
// @check ints exact
// @check floats exact
// @check uniform exact
// @check copied exact
// @check text exact

__kernel void tables(__global const int* x, __global int* ints, __global float* floats,
                     __global int* uniform, __global int* copied, __global int* text) {
  int i = get_global_id(0);
  int v = x[i];
  int r;
  switch (v & 7) {
    case 0: r = 17; break;
    case 1: r = -5; break;
    case 2: r = 123456; break;
    case 3: r = 9; break;
    case 4: r = -77; break;
    case 5: r = 3; break;
    case 6: r = 1000; break;
    default: r = 42;
  }
  ints[i] = r;
  float f;
  switch ((uint)v % 6u) {
    case 0: f = 0.5f; break;
    case 1: f = -2.25f; break;
    case 2: f = 3.0e7f; break;
    case 3: f = 1.0f / 3.0f; break;
    case 4: f = -0.0f; break;
    default: f = 6.5f;
  }
  floats[i] = f;
  int u;
  switch (get_group_id(0) & 3) {
    case 0: u = 11; break;
    case 1: u = 22; break;
    case 2: u = 33; break;
    default: u = 44;
  }
  uniform[i] = u + i;
  int table[8] = {2, 3, 5, 7, 11, 13, 17, 19};
  table[v & 7] += v;
  copied[i] = table[(v >> 3) & 7] + table[(v >> 6) & 7];
  __constant char* message = "Ventus lookup tables";
  text[i] = message[(uint)v % 20u] * 3 + message[((uint)v >> 4) % 20u];
}
