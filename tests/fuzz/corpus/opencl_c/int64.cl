%kernel void div64(global long *a, global ulong *b) {
  size_t i = get_global_id(0);
  a[i] = a[i] / (a[i + 1] | 1) + (long)(float)b[i] % 7;
  b[i] = b[i] >> 3;
}
