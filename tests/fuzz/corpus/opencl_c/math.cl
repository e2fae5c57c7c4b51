%kernel void m(global float *x) {
  size_t i = get_global_id(0);
  x[i] = sqrt(x[i]) + sin(x[i]) * exp(-x[i]) + fma(x[i], 2.0f, 1.0f) + clamp(x[i], 0.0f, 1.0f);
}
