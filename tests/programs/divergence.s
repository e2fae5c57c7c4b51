# Divergent control flow: nested if/else, a loop with per-thread trip counts and an early
# exit, divergence inside a called function. For i < n:
#   x = in[i]
#   out[i] = x odd ? (x & 2 ? 3x : x + 7) : collatz_steps(x)
# collatz_steps counts steps until x <= 1, stopping early at 40 steps.
# Arguments: in, out, n.
    .text
    .globl divergence
divergence:
    addi sp, sp, 4
    sw ra, 0(sp)
    lw s2, 0(a0)
    lw s3, 4(a0)
    lw s4, 8(a0)
    call global_id_x
    vmv.v.x v2, s4
    vmv.v.i v7, 0
    la t6, .Ldone
    setrpc zero, t6, 0
    vbgeu v1, v2, .Ldone        # threads past the end skip the body
    vsll.vi v3, v1, 2
    vadd.vx v4, v3, s2
    vlw12.v v5, 0(v4)
    vand.vi v6, v5, 1
    la t6, .Lparity_join
    setrpc zero, t6, 0
    vbeq v6, v7, .Leven
    vand.vi v6, v5, 2
    la t6, .Lodd_join
    setrpc zero, t6, 0
    vbeq v6, v7, .Lplus7
    vsll.vi v8, v5, 1
    vadd.vv v8, v8, v5
    j .Lodd_join
.Lplus7:
    vadd.vi v8, v5, 7
.Lodd_join:
    join zero, zero, 0
    j .Lparity_join
.Leven:
    call collatz_steps
.Lparity_join:
    join zero, zero, 0
    vadd.vx v4, v3, s3
    vsw12.v v8, 0(v4)
.Ldone:
    join zero, zero, 0
    lw ra, 0(sp)
    addi sp, sp, -4
    ret

# v8 = steps(v5); uses v9-v13.
collatz_steps:
    vmv.v.i v8, 0
    vmv.v.v v9, v5
    vmv.v.i v10, 1
    li t0, 40
    vmv.v.x v11, t0
    vmv.v.i v13, 0
.Lloop:
    la t6, .Lexit
    setrpc zero, t6, 0
    vbgeu v10, v9, .Lexit       # x <= 1: finished
    vbeq v8, v11, .Lexit        # early exit after 40 steps
    vand.vi v12, v9, 1
    la t6, .Lstep_join
    setrpc zero, t6, 0
    vbeq v12, v13, .Lhalve
    vsll.vi v12, v9, 1
    vadd.vv v9, v12, v9
    vadd.vi v9, v9, 1
    j .Lstep_join
.Lhalve:
    vsrl.vi v9, v9, 1
.Lstep_join:
    join zero, zero, 0
    vadd.vi v8, v8, 1
    j .Lloop
.Lexit:
    join zero, zero, 0
    ret
