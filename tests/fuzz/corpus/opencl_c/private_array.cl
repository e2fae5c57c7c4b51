$kernel void p(global int *o, int n) {
  int a[16];
  for (int k = 0; k < 16; ++k) a[k] = k * n;
  o[get_global_id(0)] = a[o[0] & 15];
}
