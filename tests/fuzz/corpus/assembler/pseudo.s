start:
  nop
  mv a0, a1
  not a2, a3
  neg a4, a5
  seqz t0, t1
  beqz a0, 1f
  bnez a1, start
1: li a0, -2048
  li a1, 0xfffff800
  lui a2, %hi(start)
  addi a2, a2, %lo(start)
2: auipc a3, %pcrel_hi(start)
  addi a3, a3, %pcrel_lo(2b)
  csrr a0, 0x803
  fence
  ret
