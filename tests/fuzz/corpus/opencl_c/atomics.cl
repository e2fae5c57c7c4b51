%kernel void hist(global const uint *in, volatile global int *bins) {
  atomic_add(&bins[in[get_global_id(0)] % 16], 1);
  atomic_cmpxchg(&bins[0], 0, 1);
}
