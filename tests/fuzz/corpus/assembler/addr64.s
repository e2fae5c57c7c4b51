# gather64: dst[i] = src[origin + offset[i]] for i < n, through 64-bit addresses.
#   __kernel void gather64(__global const int *src, __global const int *offset,
#                          __global int *dst, int origin, int n)
# The v2025 64-bit address forms (docs/isa.md, "RV64I / RV64A on register pairs" and
# "12D and explicit-space memory"): the kernel arguments are read with ld from the 64-bit
# address {0 : a0}; the base address src + 4 * origin is built on x register pairs with
# slliw/addw; each thread's 64-bit address {hi : lo} = base + 4 * offset[i] (offset
# sign-extended, so a negative offset carries into the high word) is a regpair vadd.vx on
# the vector pair v2/v3, then vlw12d.v / vsw12d.v access memory through the pair.

    .text
    .globl gather64
    .type gather64, @function
gather64:
    mv a2, a0                 # {a3 : a2} = 64-bit address of the arguments
    li a3, 0
    ld t0, 0(a2)              # src
    ld t1, 4(a2)              # offset
    ld t2, 8(a2)              # dst
    ld a4, 12(a2)             # {a5 : a4} = origin, sign-extended
    srai a5, a4, 31
    ld t3, 16(a2)             # n
    slliw a4, a4, 2           # 4 * origin, 64-bit
    mv s2, t0                 # {s3 : s2} = src
    li s3, 0
    addw s2, s2, a4           # {s3 : s2} = src + 4 * origin (64-bit sum)
    csrr a1, CSR_KNL
    lw t4, 24(a1)             # local size x
    csrr t5, CSR_GIDX
    mul t5, t5, t4
    lw t4, 36(a1)             # global offset x
    add t5, t5, t4
    csrr t4, CSR_TID
    add t5, t5, t4
    vid.v v0
    vadd.vx v0, v0, t5        # global id i
    vmv.v.x v1, t3
    la t6, .Ldone
    setrpc zero, t6, 0
    vbge v0, v1, .Ldone       # i >= n: nothing to do
    vsll.vi v0, v0, 2         # 4 * i
    vadd.vx v4, v0, t1
    vlw12.v v4, 0(v4)         # offset[i]
    vsll.vi v2, v4, 2         # {v3 : v2} = 4 * offset[i], sign-extended to 64 bits
    vsra.vi v3, v4, 31
    regpair zero, zero, 0
    vadd.vx v2, v2, s2        # {v3 : v2} += {s3 : s2}: the 64-bit address of the element
    vlw12d.v v5, 0(v2)
    vadd.vx v6, v0, t2        # {v7 : v6} = dst + 4 * i
    vmv.v.i v7, 0
    vsw12d.v v5, 0(v6)
.Ldone:
    join zero, zero, 0
    ret
    .size gather64, .-gather64
