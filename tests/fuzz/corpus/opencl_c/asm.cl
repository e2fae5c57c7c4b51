%kernel void k(global int *o) {
  int x;
  __asm__ volatile("li %0, 1" : "=r"(x));
  o[0] = x;
}
