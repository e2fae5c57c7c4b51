$int f(int n) { return n <= 1 ? n : f(n - 1) + f(n - 2); }
kernel void k(global int *o) { o[0] = f(o[1]); }
