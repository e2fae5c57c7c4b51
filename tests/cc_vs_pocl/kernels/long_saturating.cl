// 64-bit saturating arithmetic and the builtins whose calls need more registers than the
// calling convention has (issue 17, item 6): add_sat/sub_sat on long and ulong (LLVM's
// llvm.{s,u}{add,sub}.sat.i64, per thread and uniform), mad_sat and mad_hi on long8 and
// ulong16 (3 x 16 and 3 x 32 argument registers: inlined), hadd/rhadd/mul_hi on long8,
// and long8 compares (a bool sign-extended to a register pair; mad_sat(ulong) needs it).
// Inputs span the whole range, so about half the sums overflow; the limits are mixed in.
//
// @buffer a i64[256] random -9.2e18 9.2e18 seed=771
// @buffer b i64[256] random -9.2e18 9.2e18 seed=772
// @buffer u u64[256] random 0 1.84e19 seed=773
// @buffer v u64[256] random 0 1.84e19 seed=774
// @buffer a8 long8[256] random -9.2e18 9.2e18 seed=775
// @buffer b8 long8[256] random -9.2e18 9.2e18 seed=776
// @buffer u16 ulong16[256] random 0 1.84e19 seed=777
// @buffer r i64[2048] zeros   # 8 x 256
// @buffer w long8[768] zeros  # 3 x 256
// @buffer x ulong16[512] zeros  # 2 x 256
// @run saturating a b u v r long:9223372036854775000
// @run wide a8 b8 u16 w x
// @range global=256 local=32
// @range global=256 local=8
// @check r exact
// @check w exact
// @check x exact

__kernel void saturating(__global const long* as, __global const long* bs,
                         __global const ulong* us, __global const ulong* vs, __global long* r,
                         long c) {
  int i = get_global_id(0), n = get_global_size(0);
  long a = as[i], b = bs[i];
  ulong u = us[i], v = vs[i];
  if (i % 16 == 3) a = LONG_MAX;
  if (i % 16 == 5) b = LONG_MIN;
  if (i % 16 == 7) u = ULONG_MAX;
  r[0 * n + i] = add_sat(a, b);
  r[1 * n + i] = sub_sat(a, b);
  r[2 * n + i] = (long)add_sat(u, v);
  r[3 * n + i] = (long)sub_sat(u, v);
  r[4 * n + i] = add_sat(a, c) ^ sub_sat(-c, b);  // against a uniform operand
  r[5 * n + i] = add_sat(c, c) + sub_sat(-c, c);  // uniform on both sides
  r[6 * n + i] = (long)(add_sat((ulong)c, (ulong)c) ^ sub_sat((ulong)c, u));
  r[7 * n + i] = mad_sat(a >> 20, b >> 20, a) ^ (long)mad_sat(u >> 30, v >> 31, u);
}

__kernel void wide(__global const long8* as, __global const long8* bs,
                   __global const ulong16* us, __global long8* w, __global ulong16* x) {
  int i = get_global_id(0), n = get_global_size(0);
  long8 a = as[i], b = bs[i];
  ulong16 u = us[i];
  w[i] = mad_sat(a, b, a);
  w[n + i] = mad_hi(a, b, b) + mul_hi(a, a);
  // A vector compare's true is -1: sign extension of a bool to a register pair.
  w[2 * n + i] = (hadd(a, b) ^ rhadd(a, b)) + (a < b) + ((long8)(n) > (long8)(200));
  x[i] = mad_hi(u, u, u);
  x[n + i] = mad_sat(u >> (ulong)33, u >> (ulong)31, u);
}
