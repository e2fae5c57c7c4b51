# matmul: C = A * B for n x n row-major fp32 matrices, one work-item per element of C.
#   __kernel void matmul(__global const float *a, __global const float *b,
#                        __global float *c, int n)
#   global size n x n; item (x, y) computes c[y*n + x] = sum over k of a[y*n + k] * b[k*n + x]
#   with one fused multiply-add per step, k = 0, 1, ... n-1.

    .text
    .globl matmul
    .type matmul, @function
matmul:
    lw t0, 0(a0)              # a
    lw t1, 4(a0)              # b
    lw t2, 8(a0)              # c
    lw t3, 12(a0)             # n
    csrr a1, CSR_KNL
    lw a2, 24(a1)             # local size x
    lw a3, 28(a1)             # local size y
    csrr t4, CSR_TID
    vid.v v0
    vadd.vx v0, v0, t4        # linear local id
    vremu.vx v1, v0, a2       # local x
    vdivu.vx v2, v0, a2       # local y
    csrr t5, CSR_GIDX
    mul t5, t5, a2
    vadd.vx v1, v1, t5        # x = column
    csrr t5, CSR_GIDY
    mul t5, t5, a3
    vadd.vx v2, v2, t5        # y = row
    slli t6, t3, 2            # row stride in bytes
    vmul.vx v3, v2, t6
    vadd.vx v3, v3, t0        # &a[y*n]
    vsll.vi v4, v1, 2
    vadd.vx v4, v4, t1        # &b[x]
    vmv.v.x v5, zero          # accumulator
    mv a4, t3                 # k counts down
.Lk:
    vlw12.v v6, 0(v3)         # a[y*n + k]
    vlw12.v v7, 0(v4)         # b[k*n + x]
    vfmacc.vv v5, v6, v7
    vadd.vi v3, v3, 4
    vadd.vx v4, v4, t6
    addi a4, a4, -1
    bnez a4, .Lk
    vmul.vx v8, v2, t3
    vadd.vv v8, v8, v1
    vsll.vi v8, v8, 2
    vadd.vx v8, v8, t2
    vsw12.v v5, 0(v8)         # c[y*n + x]
    ret
    .size matmul, .-matmul
