// Atomics on global memory, with results that do not depend on the order: add, sub,
// min, max (int and uint), and, or, xor; inc's old values are distinct (each marks its
// slot); xchg's old values plus the final value are exactly the initial value and every
// id (a second kernel marks the final one); a cmpxchg loop multiplies (commutative).
//
// @buffer x i32[1024] random -100000 100000 seed=421
// @buffer counters i32[8] values 0 1000 0 5000 2147483647 -2147483648 -1 1
// @buffer ucounters u32[6] values 4294967295 0 0 305419896 4294967295 0
// @buffer slots i32[1024] zeros
// @buffer seen i32[1025] zeros
// @run atomics x counters ucounters slots seen
// @run mark_final counters seen global=1 local=1
// @range global=1024 local=64
// @range global=1024 local=256
// @check counters exact
// @check ucounters exact
// @check slots exact
// @check seen exact

__kernel void atomics(__global const int* x, __global int* c, __global uint* u,
                      __global int* slots, __global int* seen) {
  int i = get_global_id(0);
  int v = x[i];
  atomic_add(&c[0], v);
  atomic_sub(&c[1], v >> 4);
  int slot = atomic_inc(&c[2]);
  slots[slot] = 1;
  atomic_dec(&c[3]);
  atomic_min(&c[4], v);
  atomic_max(&c[5], v);
  int old = atomic_xchg(&c[6], i);
  atomic_add(&seen[old + 1], 1);  // the initial -1 -> seen[0]
  int expected = c[7], prev;
  while ((prev = atomic_cmpxchg(&c[7], expected,
                               (int)((uint)expected * (uint)(2 * (v & 15) + 1)))) != expected)
    expected = prev;
  uint h = (uint)v * 2654435761u;
  atomic_and(&u[0], h | 0x0f0f0f0fu);
  atomic_or(&u[1], h & 0x11111111u);
  atomic_xor(&u[2], h);
  atomic_min(&u[3], h);
  atomic_max(&u[4], h >> 1);
  atomic_add(&u[5], (uint)i);
}

__kernel void mark_final(__global int* c, __global int* seen) {
  atomic_add(&seen[c[6] + 1], 1);
  c[6] = 0;  // which id came last depends on the order
}
