// Chains of 20 shuffle and 20 shuffle2 on long16/ulong16 values that are the same for every
// work-item (by-value arguments): at -O2 the values live in scalar registers, and the many
// short-lived ones that do not fit are spilled to the warp's scalar stack. Spill slots of
// values never live at once are shared (src/compiler/backend/regalloc.cpp), so the frame
// stays within the start code's 1 KiB stack (it was 7.7 KiB per chain);
// tests/compiler/frames_test.cpp checks the size, this file the values against pocl.
//
// @buffer out long16[1344] zeros
// @buffer out2 ulong16[1344] zeros
// @run many_shuffles out long16:1,-2,3,-4,5,-6,7,-8,9,-10,11,-12,13,-14,15,-16 ulong16:0x123456789abcd,7,0xfedcba98765,3,11,13,0x8000000001,5,6,2,15,14,0x7fffffffff,9,4,1
// @run many_shuffles2 out2 ulong16:100,200,300,400,500,600,700,800,900,1000,1100,1200,1300,1400,1500,1600 ulong16:0xffffffffffff,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15 ulong16:31,17,0x123456789,29,0xdeadbeefcafe,21,19,23,27,25,20,18,16,22,24,26
// @range global=64 local=32
// @check out exact
// @check out2 exact

__kernel void many_shuffles(__global long16* out, long16 x, ulong16 m0) {
  int i = get_global_id(0);
  long16 v = x;
  ulong16 m = m0;
#pragma unroll
  for (int k = 1; k <= 20; ++k) {  // 20 shuffles in straight-line code
    v = shuffle(v, m) + (long)k;
    m = (m >> 1) ^ (ulong)(k * 0x9e37u);
    out[21 * i + k] = v;
  }
  out[21 * i] = v ^ as_long16(m);
}

__kernel void many_shuffles2(__global ulong16* out, ulong16 x, ulong16 y, ulong16 m0) {
  int i = get_global_id(0);
  ulong16 v = x, w = y;
  ulong16 m = m0;
#pragma unroll
  for (int k = 1; k <= 20; ++k) {
    v = shuffle2(v, w, m) * (ulong)(k + 1);
    w = w + v;
    m = m * 5u + (ulong)k;
    out[21 * i + k] = v;
  }
  out[21 * i] = w;
}
