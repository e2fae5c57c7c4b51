# saxpy: y[i] = a * x[i] + y[i] for i < n (fp32, one fused multiply-add per element).
#   __kernel void saxpy(__global const float *x, __global float *y, float a, int n)
# Written the way the Ventus compiler writes kernels: arguments come from the argument
# buffer in a0, the global id from CSR_TID + vid.v and the workgroup id, the bounds check
# is a vector branch that reconverges at a join.

    .text
    .globl saxpy
    .type saxpy, @function
saxpy:
    lw t0, 0(a0)              # x
    lw t1, 4(a0)              # y
    lw t2, 8(a0)              # a (fp32 bits: Zfinx keeps floats in x registers)
    lw t3, 12(a0)             # n
    # global id = group id x * local size x + global offset x + CSR_TID + lane
    csrr a1, CSR_KNL
    lw t4, 24(a1)             # local size x
    csrr t5, CSR_GIDX
    mul t5, t5, t4
    lw t4, 36(a1)             # global offset x
    add t5, t5, t4
    csrr t4, CSR_TID
    add t5, t5, t4
    vid.v v0
    vadd.vx v0, v0, t5
    # lanes with i >= n skip to the join
    vmv.v.x v1, t3
    la t6, .Ldone
    setrpc zero, t6, 0
    vbge v0, v1, .Ldone
    vsll.vi v2, v0, 2
    vadd.vx v3, v2, t0
    vlw12.v v3, 0(v3)         # x[i]
    vadd.vx v4, v2, t1
    vlw12.v v5, 0(v4)         # y[i]
    vfmacc.vf v5, t2, v3      # y[i] += a * x[i], one rounding
    vsw12.v v5, 0(v4)
.Ldone:
    join zero, zero, 0
    ret
    .size saxpy, .-saxpy
