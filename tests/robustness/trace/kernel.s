# trace_kernel: every kind of effect the commit log shows (docs/trace.md), for the trace
# format test (tests/robustness/cli_trace_test.cpp): scalar registers and pairs, vector registers one at a
# time, in LMUL=2 groups and widened, registers above v31, scalar and per-thread memory, an
# atomic, and SIMT divergence and reconvergence.
#   __kernel void trace_kernel(__global int *out)
    .text
    .globl trace_kernel
    .type trace_kernel, @function
trace_kernel:
    lw t0, 0(a0)              # out
    li t1, 7
    li t2, 0x12345
    li a2, -7                 # the pair {a3 : a2}
    li a3, -1
    mv a4, t2                 # the pair {a5 : a4}
    li a5, 0
    addw a6, a2, a4           # a pair result {a7 : a6}
    slliw s4, a6, 33
    csrr t3, CSR_TID
    vid.v v1
    vadd.vx v1, v1, t3        # local id
    vmul.vv v2, v1, v1
    vsetvli t4, zero, e32, m2, ta, ma
    vadd.vv v4, v2, v2        # the group v4, v5
    vmv.v.i v6, 3
    vsetvli t4, zero, e16, m1, ta, ma
    vwadd.vv v8, v1, v2       # widened into v8, v9
    vsetvli t4, zero, e32, m1, ta, ma
    vadd.vi v40, v1, 5        # above v31
    vsll.vi v3, v1, 2
    vadd.vx v3, v3, t0
    vsw12.v v2, 0(v3)
    vlw12.v v10, 0(v3)
    amoadd.w t5, t1, (t0)
    sw t2, 4(t0)
    lw t6, 4(t0)
    li s2, 2
    vmv.v.x v11, s2
    la s3, .Ljoin
    setrpc zero, s3, 0
    vblt v1, v11, .Ljoin      # threads 0 and 1 skip to the join
    vadd.vi v12, v1, 10
.Ljoin:
    join zero, zero, 0
    vsw12.v v12, 128(v3)
    ret
    .size trace_kernel, .-trace_kernel
