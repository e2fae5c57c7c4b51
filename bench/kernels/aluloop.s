# aluloop: out[i] = b after `iterations` rounds of an integer loop, starting from a = i and
# b = i + 7 (i = the work-item's global id).
#   __kernel void aluloop(__global uint *out, uint iterations)   (iterations >= 1)
# The loop is 4 vector and 2 scalar instructions, uniform: no lane leaves it early. The
# lines between the two "loop body" markers are also what scripts/bench_vs_qemu.sh runs
# on qemu-riscv32 (vl = 32), so the two run exactly the same instructions.

    .text
    .globl aluloop
    .type aluloop, @function
aluloop:
    lw t1, 0(a0)              # out
    lw t0, 4(a0)              # iterations: the loop counter
    csrr a1, CSR_KNL
    lw t3, 24(a1)             # the workgroup's size
    csrr t4, CSR_GIDX
    mul t4, t4, t3
    csrr t3, CSR_TID
    add t4, t4, t3
    vid.v v0
    vadd.vx v0, v0, t4        # i
    vadd.vi v1, v0, 0         # a
    vadd.vi v2, v0, 7         # b
# --- loop body ---
.Lbody:
    vadd.vv v1, v1, v2        # a += b
    vxor.vv v2, v2, v1        # b ^= a
    vsll.vi v3, v1, 3
    vadd.vv v2, v2, v3        # b += a << 3
    addi t0, t0, -1
    bnez t0, .Lbody
# --- end of loop body ---
    vsll.vi v4, v0, 2
    vadd.vx v4, v4, t1
    vsw12.v v2, 0(v4)
    ret
    .size aluloop, .-aluloop
