// Vector addition c = a + b. n is not a multiple of the workgroup size, so the kernel
// bounds-checks; the second range starts at a global offset and leaves c[0..23] alone.
//
// @buffer a f32[1000] random -100 100 seed=1
// @buffer b f32[1000] random -100 100 seed=2
// @buffer c f32[1000] const -1
// @run vector_add a b c int:1000
// @range global=1024 local=64
// @range global=992 local=32 offset=24
// @range global=1000 local=8
// @check c exact

__kernel void vector_add(__global const float* a, __global const float* b, __global float* c,
                         int n) {
  int i = get_global_id(0);
  if (i < n) c[i] = a[i] + b[i];
}
