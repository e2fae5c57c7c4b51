.section .rodata.tbl, "a"
tbl: .word 1, 2, 3
.size tbl, . - tbl
.type tbl, @object
.bss
buf: .zero 64
.section .mytext, "ax", @progbits
.globl main
main:
  la a0, tbl
  lw a1, 4(a0)
  li t0, 0x12345678
  call f
  j main
f: ret
.data
.p2align 3
d: .quad d
.option push
.option norvc
.option pop
