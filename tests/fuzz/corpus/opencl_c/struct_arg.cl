#typedef struct { int a; float b; } args_t;
kernel void s(args_t v, global float *o) {
  o[get_global_id(0)] = v.a * v.b;
  work_group_barrier(CLK_GLOBAL_MEM_FENCE);
}
