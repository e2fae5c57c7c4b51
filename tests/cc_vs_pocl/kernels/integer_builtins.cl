// Integer builtins on int, uint, char, uchar, short and ushort: abs abs_diff add_sat
// sub_sat hadd rhadd clz popcount mul_hi mad_hi mad_sat rotate min max clamp mul24 mad24
// upsample. Full-range inputs (mul24/mad24 get 24-bit ones, as the spec requires).
//
// @buffer a i32[256] random -2147483648 2147483647 seed=351
// @buffer b i32[256] random -2147483648 2147483647 seed=352
// @buffer small i32[256] random -300 300 seed=353
// @buffer ri i32[4608] zeros    # 18 x 256 (int)
// @buffer ru u32[4352] zeros    # 17 x 256 (uint)
// @buffer rn i32[4096] zeros    # 16 x 256 (char, uchar, short, ushort)
// @run integer a b small ri ru rn
// @range global=256 local=64
// @range global=256 local=16
// @check ri exact
// @check ru exact
// @check rn exact

__kernel void integer(__global const int* as, __global const int* bs, __global const int* smalls,
                      __global int* ri, __global uint* ru, __global int* rn) {
  int i = get_global_id(0), n = get_global_size(0);
  int a = as[i], b = bs[i], s = smalls[i];
  if (i % 8 == 0) b = a;           // equal operands
  if (i % 16 == 1) a = INT_MIN;    // edges
  if (i % 16 == 2) b = INT_MAX;
  if (i % 32 == 3) a = 0;
  ri[0 * n + i] = (int)abs(a);
  ri[1 * n + i] = (int)abs_diff(a, b);
  ri[2 * n + i] = add_sat(a, b);
  ri[3 * n + i] = sub_sat(a, b);
  ri[4 * n + i] = hadd(a, b);
  ri[5 * n + i] = rhadd(a, b);
  ri[6 * n + i] = clz(a);
  ri[7 * n + i] = popcount(a);
  ri[8 * n + i] = mul_hi(a, b);
  ri[9 * n + i] = mad_hi(a, b, s);
  ri[10 * n + i] = mad_sat(a, s, b);
  ri[11 * n + i] = rotate(a, b);
  ri[12 * n + i] = min(a, b);
  ri[13 * n + i] = max(a, b);
  ri[14 * n + i] = clamp(a, -1000000, s * 1000);
  int a24 = (int)((uint)a << 8) >> 8, b24 = (int)((uint)b << 8) >> 8;
  ri[15 * n + i] = mul24(a24, s);
  ri[16 * n + i] = mad24(a24, s, b24);
  ri[17 * n + i] = a24 * (s >> 2);
  uint ua = (uint)a, ub = (uint)b, us = (uint)s;
  ru[0 * n + i] = abs(ua);
  ru[1 * n + i] = abs_diff(ua, ub);
  ru[2 * n + i] = add_sat(ua, ub);
  ru[3 * n + i] = sub_sat(ua, ub);
  ru[4 * n + i] = hadd(ua, ub);
  ru[5 * n + i] = rhadd(ua, ub);
  ru[6 * n + i] = clz(ua);
  ru[7 * n + i] = popcount(ua);
  ru[8 * n + i] = mul_hi(ua, ub);
  ru[9 * n + i] = mad_hi(ua, ub, us);
  ru[10 * n + i] = mad_sat(ua, us & 0xffff, ub);
  ru[11 * n + i] = rotate(ua, us);
  ru[12 * n + i] = min(ua, ub);
  ru[13 * n + i] = max(ua, ub);
  ru[14 * n + i] = clamp(ua, 1000u, 3000000000u);
  ru[15 * n + i] = mul24(ua & 0xffffff, us & 0xffffff);
  ru[16 * n + i] = mad24(ua & 0xffffff, us & 0xfff, ub);
  char c = (char)a, d = (char)b;
  uchar uc = (uchar)a, ud = (uchar)b;
  short h = (short)a, g = (short)b;
  ushort uh = (ushort)a, ug = (ushort)b;
  rn[0 * n + i] = add_sat(c, d);
  rn[1 * n + i] = sub_sat(uc, ud);
  rn[2 * n + i] = hadd(c, d);
  rn[3 * n + i] = rhadd(uc, ud);
  rn[4 * n + i] = clz(h);
  rn[5 * n + i] = popcount(uc);
  rn[6 * n + i] = rotate(ug, uh);
  rn[7 * n + i] = abs(c);
  rn[8 * n + i] = abs_diff(h, g);
  rn[9 * n + i] = mul_hi(h, g);
  rn[10 * n + i] = upsample(h, ug);
  rn[11 * n + i] = upsample(uc, ud);
  rn[12 * n + i] = mad_sat(c, d, (char)s);
  rn[13 * n + i] = clz(uc) + 100 * clz(c);
  rn[14 * n + i] = max(c, d) * 1000 + min(uh, ug);
  rn[15 * n + i] = sub_sat(h, g);
}
