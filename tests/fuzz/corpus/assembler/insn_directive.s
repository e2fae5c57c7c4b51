.text
.globl k
k:
  .insn r 0x57, 0x0, 0x00, v1, v2, v3
  .insn i 0x13, 0, x5, x6, 12
  .insn s 0x23, 2, x5, 8(x6)
  .insn b 0x63, 0, x5, x6, k
  .insn u 0x37, x7, 0x12345
  .insn j 0x6f, x1, k
  .insn r4 0x43, 0, 0, x1, x2, x3, x4
  .insn 0x00000013
  .insn r 0x61, 0x4, 0x0, v1, v2, v3
