// Atomics on local memory: per-workgroup counters (add, sub, inc, dec, min, max, and,
// or, xor, xchg, cmpxchg) and slot allocation with atomic_inc into a local array whose
// order-independent sum and checksum are written out by work-item 0.
//
// @buffer x i32[1024] random -5000 5000 seed=431
// @buffer out i32[768] zeros    # 12 per group, up to 64 groups
// @run atomics_local x out
// @range global=1024 local=64
// @range global=1024 local=16
// @check out exact

__kernel void atomics_local(__global const int* x, __global int* out) {
  __local int c[10];
  __local int items[256];
  __local int next;
  int lid = get_local_id(0), v = x[get_global_id(0)];
  if (lid == 0) {
    c[0] = 0; c[1] = 0; c[2] = 100; c[3] = INT_MAX; c[4] = INT_MIN;
    c[5] = -1; c[6] = 0; c[7] = 0; c[8] = -1; c[9] = 1;
    next = 0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_add(&c[0], v);
  atomic_sub(&c[1], v);
  atomic_dec(&c[2]);
  atomic_min(&c[3], v);
  atomic_max(&c[4], v);
  atomic_and(&c[5], ~(1 << (v & 31)));
  atomic_or(&c[6], 1 << ((v >> 5) & 31));
  atomic_xor(&c[7], v);
  int old = atomic_xchg(&c[8], lid);
  int expected = c[9], prev;
  while ((prev = atomic_cmpxchg(&c[9], expected, (int)((uint)expected * 3u + (v & 1)))) !=
         expected)
    expected = prev;
  int slot = atomic_inc(&next);
  items[slot] = v * 7 + old;  // olds: the initial -1 and all ids but the final one
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    int g = get_group_id(0), n = get_local_size(0), sum = 0;
    for (int k = 0; k < n; ++k) sum += items[k];
    __global int* r = out + 12 * g;
    for (int k = 0; k < 8; ++k) r[k] = c[k];
    r[8] = sum + c[8];  // the olds and the final value sum to -1 + 0 + ... + n-1
    r[9] = next;
    r[10] = c[9] != 1;  // the cmpxchg chain ran (its value depends on the order)
    r[11] = n;
  }
}
