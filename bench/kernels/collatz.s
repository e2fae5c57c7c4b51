# collatz: steps[i] = the number of Collatz steps from i + 1 down to 1, at most max_steps.
#   __kernel void collatz(__global uint *steps, uint n, uint max_steps)
# A divergent loop: every lane leaves it after its own number of iterations, and the odd
# and even cases are a divergent if/else inside it.

    .text
    .globl collatz
    .type collatz, @function
collatz:
    lw t0, 0(a0)              # steps
    lw t1, 4(a0)              # n
    lw t2, 8(a0)              # max_steps
    csrr a1, CSR_KNL
    lw t3, 24(a1)
    csrr t4, CSR_GIDX
    mul t4, t4, t3
    csrr t3, CSR_TID
    add t4, t4, t3
    vid.v v0
    vadd.vx v0, v0, t4        # i
    vmv.v.x v9, t1
    la t5, .Lend
    setrpc zero, t5, 0
    vbgeu v0, v9, .Lend       # i >= n: nothing to do
    vadd.vi v1, v0, 1         # x = i + 1
    vmv.v.i v2, 0             # steps
    vmv.v.i v3, 1
    vmv.v.x v4, t2
    vmv.v.i v7, 0
.Lloop:
    la t5, .Lexit
    setrpc zero, t5, 0
    vbeq v1, v3, .Lexit       # x == 1: done
    vbgeu v2, v4, .Lexit      # out of steps
    vand.vi v5, v1, 1
    la t5, .Ljoin
    setrpc zero, t5, 0
    vbeq v5, v7, .Leven
    vsll.vi v6, v1, 1         # odd: x = 3x + 1
    vadd.vv v1, v1, v6
    vadd.vi v1, v1, 1
    j .Ljoin
.Leven:
    vsrl.vi v1, v1, 1         # even: x = x / 2
.Ljoin:
    join zero, zero, 0
    vadd.vi v2, v2, 1
    j .Lloop
.Lexit:
    join zero, zero, 0
    vsll.vi v8, v0, 2
    vadd.vx v8, v8, t0
    vsw12.v v2, 0(v8)
.Lend:
    join zero, zero, 0
    ret
    .size collatz, .-collatz
