// 64-bit integer division and remainder. The device has 32-bit div/rem only; the front
// end (frontend.cpp, lower_int64_division) replaces every i64 udiv/sdiv/urem/srem of a
// program by a call to one of these functions before the library is linked, so that
// LinkOnlyNeeded pulls them in. They are always_inline (at -O0 too): inlined, a division
// of uniform operands runs on scalar registers once per warp (a call's arguments and
// result live in vector registers), and constant operands fold into the code.
//
// They must not contain a 64-bit `/` or `%` themselves (that would be a call to
// themselves after the rewrite, and the back end cannot compile it in the library): the
// general case is restoring shift-subtract on ulong (adds, shifts and compares of
// register pairs, which the back end has), the case where both operands fit in 32 bits
// uses the device's 32-bit divu/remu.
//
// Edge cases follow RISC-V's M extension (what a 64-bit divu/div would give): x / 0 is
// all ones (-1 for signed), x % 0 is x, LONG_MIN / -1 is LONG_MIN and LONG_MIN % -1 is 0.
//
// External, not static and not overloadable: the front end calls them by these plain
// names (spir_func, like every library function), and the linker only pulls in
// definitions that are visible outside this file. (No prototypes needed: -Wall has no
// -Wmissing-prototypes.)
#include "core/base.h"

// a / b and a % b for b != 0. Shift b up to a's highest bit, then one compare and
// subtract per quotient bit (at most 64, as many as a has more significant bits than b).
// Always inlined into the four functions below: no pointer to private memory crosses a
// call, also at -O0.
static inline __attribute__((always_inline)) ulong vt_udivrem64(ulong a, ulong b,
                                                               ulong* remainder) {
  if (((a | b) >> 32) == 0) {
    uint a32 = (uint)a, b32 = (uint)b;
    *remainder = a32 % b32;
    return a32 / b32;
  }
  if (a < b) {
    *remainder = a;
    return 0;
  }
  // Here a >= b and one of them has high bits, so a does.
  uint b_hi = (uint)(b >> 32);
  uint b_zeros = b_hi ? vt_clz32(b_hi) : 32 + vt_clz32((uint)b);
  uint shift = b_zeros - vt_clz32((uint)(a >> 32));  // 0..63
  b <<= shift;
  ulong q = 0;
  for (uint i = 0; i <= shift; ++i) {
    // Branch-free: the lanes of a warp take the same path through every iteration.
    ulong fits = a >= b ? 1 : 0;
    a -= b & (0 - fits);
    q = (q << 1) | fits;
    b >>= 1;
  }
  *remainder = a;
  return q;
}

__attribute__((always_inline)) ulong __vt_udiv64(ulong a, ulong b) {
  if (b == 0) return ~(ulong)0;
  ulong r;
  return vt_udivrem64(a, b, &r);
}

__attribute__((always_inline)) ulong __vt_urem64(ulong a, ulong b) {
  if (b == 0) return a;
  ulong r;
  vt_udivrem64(a, b, &r);
  return r;
}

// Magnitudes as ulong (|LONG_MIN| = 2^63 is exact there); the quotient is negative when
// the signs differ, the remainder has the dividend's sign (C's truncating division).
// LONG_MIN / -1 = 2^63 as ulong, which converts back to LONG_MIN.
__attribute__((always_inline)) long __vt_sdiv64(long a, long b) {
  if (b == 0) return -1;
  ulong ua = a < 0 ? 0 - (ulong)a : (ulong)a;
  ulong ub = b < 0 ? 0 - (ulong)b : (ulong)b;
  ulong r;
  ulong q = vt_udivrem64(ua, ub, &r);
  return (long)((a < 0) != (b < 0) ? 0 - q : q);
}

__attribute__((always_inline)) long __vt_srem64(long a, long b) {
  if (b == 0) return a;
  ulong ua = a < 0 ? 0 - (ulong)a : (ulong)a;
  ulong ub = b < 0 ? 0 - (ulong)b : (ulong)b;
  ulong r;
  vt_udivrem64(ua, ub, &r);
  return (long)(a < 0 ? 0 - r : r);
}
