// Switch statements: a dense switch (a jump table candidate) with fallthrough, a sparse
// switch with negative and large labels, and a switch inside a loop where `break` leaves
// the switch and `continue` the loop.
//
// @buffer x i32[1024] random -20 1100 seed=181
// @buffer dense i32[1024] zeros
// @buffer sparse i32[1024] zeros
// @buffer looped i32[1024] zeros
// @run switches x dense sparse looped
// @range global=1024 local=128
// @range global=1024 local=16
// @check dense exact
// @check sparse exact
// @check looped exact

__kernel void switches(__global const int* x, __global int* dense, __global int* sparse,
                       __global int* looped) {
  int i = get_global_id(0);
  int v = x[i];
  int d = 0;
  switch (v & 15) {
    case 0: d = 10; break;
    case 1: d = 11;  // fall through
    case 2: d += 12; break;
    case 3: d = v * 2; break;
    case 4:
    case 5: d = -v; break;
    case 6: d = v >> 2; break;
    case 7: d = v ^ 0x55; break;
    case 8: d = 1000; // fall through
    case 9: d += 9; // fall through
    case 10: d += 10; break;
    case 13: d = 13 * v; break;
    default: d = -1;
  }
  dense[i] = d;
  int s;
  switch (v) {
    case -7: s = 1; break;
    case 0: s = 2; break;
    case 100: s = 3; break;
    case 1000: s = 4; break;
    case 1023: s = 5; break;
    default: s = v < 0 ? -100 : v % 10;
  }
  sparse[i] = s;
  int acc = 0;
  for (int k = 0; k < 12; ++k) {
    switch ((v + k) % 5) {
      case 0: acc += k; break;
      case 1: continue;
      case 2: acc *= 2; break;
      case 3: acc -= 3; // fall through
      default: acc ^= k;
    }
    acc += 1;
  }
  looped[i] = acc;
}
