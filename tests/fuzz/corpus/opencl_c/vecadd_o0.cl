$kernel void add(global const int *a, global int *c, int n) {
  int i = get_global_id(0);
  if (i < n) c[i] = a[i] * 3 - 1;
}
