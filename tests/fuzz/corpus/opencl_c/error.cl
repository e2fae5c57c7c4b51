%kernel void broken(global int *a) {
  a[0] = undeclared + 1;
}
