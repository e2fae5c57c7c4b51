# vecadd: c[i] = a[i] + b[i] for i < n (fp32).
#   __kernel void vecadd(__global const float *a, __global const float *b,
#                        __global float *c, int n)
# The compiler's style (see ../shared/cases/vecadd-*/object.dump), with a bounds check.

    .text
    .globl vecadd
    .type vecadd, @function
vecadd:
    lw t0, 0(a0)              # a
    lw t1, 4(a0)              # b
    lw t2, 8(a0)              # c
    lw t3, 12(a0)             # n
    csrr a1, CSR_KNL
    lw t4, 24(a1)             # local size x
    csrr t5, CSR_GIDX
    mul t5, t5, t4
    lw t4, 36(a1)             # global offset x
    add t5, t5, t4
    csrr t4, CSR_TID
    add t5, t5, t4
    vid.v v0
    vadd.vx v0, v0, t5        # global id
    vmv.v.x v1, t3
    la t6, .Ldone
    setrpc zero, t6, 0
    vbge v0, v1, .Ldone       # i >= n: nothing to do
    vsll.vi v0, v0, 2
    vadd.vx v1, v0, t0
    vlw12.v v1, 0(v1)
    vadd.vx v2, v0, t1
    vlw12.v v2, 0(v2)
    vfadd.vv v1, v1, v2
    vadd.vx v0, v0, t2
    vsw12.v v1, 0(v0)
.Ldone:
    join zero, zero, 0
    ret
    .size vecadd, .-vecadd
