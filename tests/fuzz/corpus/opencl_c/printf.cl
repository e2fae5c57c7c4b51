$kernel void hello(int x) {
  printf("hello %d %f\n", x, 1.5f);
}
