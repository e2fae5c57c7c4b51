// Natural alignment (OpenCL C 1.2, 6.1.5): every object sits at an address that is a
// multiple of its type's size, a 3-vector at a multiple of the 4-vector's size. Checked
// for __local variables, __local argument buffers (after one of an odd size) and private
// variables of the kernel and of a called function's frame, whose own frame starts where
// the kernel's ends. Each work-item writes each address modulo the alignment: all 0.
//
// @buffer rem u32[1024] const 0xffffffff
// @run alignment rem local:12 local:64 local:384
// @range global=64 local=16
// @range global=64 local=32
// @check rem exact

// Through a volatile copy: LLVM knows each object's declared alignment and would fold
// the remainder of its address to 0.
uint remainder_of(size_t address, size_t alignment) {
  volatile size_t a = address;
  return (uint)(a % alignment);
}
#define REM(p) remainder_of((size_t)(p), sizeof(*(p)))

__attribute__((noinline)) void private_objects(__global uint* out, int seed) {
  char c[3];
  float4 v;
  int3 w;
  long2 l;
  float8 f8;
  c[0] = (char)seed;
  out[0] = REM(&v);
  out[1] = REM(&w);
  out[2] = REM(&l);
  out[3] = REM(&f8);
  out[4] = REM(&c[0]) + (uint)c[0] * 0u;
}

__kernel void alignment(__global uint* rem, __local char* la, __local float8* lb, __local long16* lc) {
  __local char l1[3];
  __local float8 l8[2];
  __local int3 l3;
  __local long4 l4;
  __local float16 l16;
  __local short s;
  char pc = 1;
  float16 p16;
  int3 p3;
  __global uint* out = rem + 16 * get_global_id(0);
  out[0] = REM(la);
  out[1] = REM(lb);
  out[2] = REM(lc);
  out[3] = REM(&l1[1]) + REM(&l8[0]) + REM(&l8[1]);
  out[4] = REM(&l3);
  out[5] = REM(&l4);
  out[6] = REM(&l16);
  out[7] = REM(&s);
  out[8] = REM(&p16);
  out[9] = REM(&p3) + REM(&pc);
  private_objects(out + 10, (int)get_local_id(0));
  out[15] = 0;
}
