// __constant data: program-scope constant arrays (ints, floats, a struct table) indexed
// by data, and a __constant pointer argument.
//
// @buffer x u32[1000] random 0 1000000 seed=241
// @buffer coeff u32[64] random 0 255 seed=242
// @buffer out u32[1000] zeros
// @buffer outf f32[1000] zeros
// @run lookup x coeff out outf int:1000
// @range global=1024 local=128
// @check out exact
// @check outf exact

__constant uint kPrimes[16] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53};
__constant float kScale[4] = {0.5f, 0.25f, -1.5f, 3.0f};

typedef struct {
  uint shift;
  uint mask;
} Field;

__constant Field kFields[4] = {{0, 0xf}, {4, 0xff}, {12, 0x3}, {20, 0x7ff}};

__kernel void lookup(__global const uint* x, __constant uint* coeff, __global uint* out,
                     __global float* outf, int n) {
  int i = get_global_id(0);
  if (i >= n) return;
  uint v = x[i];
  Field f = kFields[v & 3];
  uint field = (v >> f.shift) & f.mask;
  out[i] = kPrimes[v % 16] * coeff[(v >> 4) & 63] + field;
  outf[i] = kScale[(v >> 2) & 3] * (float)(field & 0xff);
}
