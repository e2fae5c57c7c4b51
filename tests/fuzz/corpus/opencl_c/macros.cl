%#define SQ(x) ((x) * (x))
#define N 8
#if N > 4
kernel void k(global int *o) { o[get_global_id(0)] = SQ(N) + SQ(get_local_id(0)); }
#endif
