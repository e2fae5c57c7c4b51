__kernel void k(__global int *o, int u) {
  int i = get_global_id(0), r, s = o[i];
  __asm__ __volatile__(".insn r 0x57, 0x0, 0x02, %0, %1, %2\n vadd.vv %0, %0, %1; addi %3, %3, 1"
                       : "=&vr"(r), "+vr"(s) : "vr"(i), "r"(u) : "memory");
  o[i] = r + s;
}
