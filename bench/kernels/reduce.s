# reduce: per-workgroup integer sum through local memory, a tree with a barrier per level.
#   __kernel void reduce(__global const int *in, __global int *partial)
#   (local size L: a power of two; partial[group] = in[group*L] + ... + in[group*L + L-1])
# The local data lives after the warps' 1 KiB stacks: CSR_LDS + CSR_NUMW * 1024.

    .text
    .globl reduce
    .type reduce, @function
reduce:
    lw t0, 0(a0)              # in
    lw t1, 4(a0)              # partial
    csrr a1, CSR_KNL
    lw t2, 24(a1)             # L = local size x
    csrr t3, CSR_GIDX
    mul t4, t3, t2            # first global id of the group
    csrr t5, CSR_TID
    vid.v v0
    vadd.vx v0, v0, t5        # local id
    vadd.vx v1, v0, t4        # global id
    vsll.vi v1, v1, 2
    vadd.vx v1, v1, t0
    vlw12.v v2, 0(v1)         # in[global id]
    csrr a2, CSR_LDS
    csrr a3, CSR_NUMW
    slli a3, a3, 10
    add a2, a2, a3            # local data base
    vsll.vi v3, v0, 2
    vadd.vx v3, v3, a2        # &data[local id]
    vsw12.v v2, 0(v3)
    barrier x0, x0, 0
    srli t6, t2, 1            # s = L / 2
.Llevel:
    beqz t6, .Ldone
    vmv.v.x v4, t6
    la a4, .Lskip
    setrpc zero, a4, 0
    vbgeu v0, v4, .Lskip      # only local id < s adds
    slli a5, t6, 2
    vlw12.v v5, 0(v3)
    vadd.vx v6, v3, a5
    vlw12.v v6, 0(v6)         # data[local id + s]
    vadd.vv v5, v5, v6
    vsw12.v v5, 0(v3)
.Lskip:
    join zero, zero, 0
    barrier x0, x0, 0
    srli t6, t6, 1
    j .Llevel
.Ldone:
    vmv.v.x v4, zero
    la a4, .Lend
    setrpc zero, a4, 0
    vbne v0, v4, .Lend        # local id 0 writes the group's sum
    lw a5, 0(a2)
    vmv.v.x v5, a5
    slli t3, t3, 2
    add t3, t3, t1
    vmv.v.x v6, t3
    vsw12.v v5, 0(v6)
.Lend:
    join zero, zero, 0
    ret
    .size reduce, .-reduce
