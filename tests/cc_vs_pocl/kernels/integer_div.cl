// Integer division and remainder: signed and unsigned by variables (negative operands,
// divisors of every size; 0 and INT_MIN / -1 avoided) and by constants (the compiler may
// use multiply-high sequences), for int, uint, short and char.
//
// @buffer a i32[512] random -2147483648 2147483647 seed=481
// @buffer b i32[512] random -70000 70000 seed=482
// @buffer q i32[6144] zeros   # 12 x 512
// @run divide a b q
// @range global=512 local=64
// @check q exact

__kernel void divide(__global const int* as, __global const int* bs, __global int* q) {
  int i = get_global_id(0), n = get_global_size(0);
  int a = as[i], b = bs[i];
  if (i % 4 == 1) b >>= 12;        // small divisors
  if (b == 0) b = 3;
  if (b == -1 && a == INT_MIN) b = -2;
  uint ua = (uint)a, ub = (uint)b;
  q[0 * n + i] = a / b;
  q[1 * n + i] = a % b;
  q[2 * n + i] = (int)(ua / ub);
  q[3 * n + i] = (int)(ua % ub);
  q[4 * n + i] = a / 7 + a % 10;
  q[5 * n + i] = a / -3 + a % -1000;
  q[6 * n + i] = (int)(ua / 10u + ua % 1000000u);
  q[7 * n + i] = a / 1024 + a % 64;   // power-of-two divisors round towards zero
  q[8 * n + i] = (int)(ua >> 10) + (int)(ua & 63);
  short s = (short)a, t = (short)(b | 1);
  q[9 * n + i] = s / t * 1000 + s % t;
  char c = (char)a, d = (char)((b & 0x7f) | 1);
  q[10 * n + i] = c / d * 1000 + c % d;
  q[11 * n + i] = (uchar)a / (uchar)d + (ushort)a % 777;
}
