# prefix: the v2025 prefixes in a kernel, on float4 / int4 data.
#   __kernel void prefix(__global const float4 *a, __global const float4 *b,
#                        __global float4 *c, __global const int4 *e,
#                        __global int4 *d, int n)
#   {   int i = get_global_id(0);
#       if (i < n) { c[i] = fabs(a[i]) - b[i];  d[i] = 300 - e[i]; }   }
# Every float4/int4 moves with one 128-bit PREFIX_MEMORY load or store into four consecutive
# registers; the operands live in v40..v63, whose high register bits the assembler puts into
# the prefix before each instruction; PREFIX gives |a| and -b to vfadd, PREFIXI gives -e and
# the 11-bit immediate 300 to vadd.vi. The int4 load names the global space explicitly.

    .text
    .globl prefix
    .type prefix, @function
prefix:
    lw t0, 0(a0)              # a
    lw t1, 4(a0)              # b
    lw t2, 8(a0)              # c
    lw t3, 12(a0)             # e
    lw a2, 16(a0)             # d
    lw a3, 20(a0)             # n
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
    vmv.v.x v1, a3
    la t6, .Ldone
    setrpc zero, t6, 0
    vbge v0, v1, .Ldone       # i >= n: nothing to do
    vsll.vi v0, v0, 4         # 16 bytes per float4 / int4
    vadd.vx v1, v0, t0
    prefix.mem width=3        # 128 bits: v40..v43 = a[i]
    vlw12.v v40, 0(v1)
    vadd.vx v2, v0, t1
    prefix.mem width=3        # v44..v47 = b[i]
    vlw12.v v44, 0(v2)
    prefix abs=2, neg=1       # |vs2| + (-vs1)
    vfadd.vv v48, v40, v44
    prefix abs=2, neg=1
    vfadd.vv v49, v41, v45
    prefix abs=2, neg=1
    vfadd.vv v50, v42, v46
    prefix abs=2, neg=1
    vfadd.vv v51, v43, v47
    vadd.vx v3, v0, t2
    prefix.mem width=3        # c[i] = v48..v51
    vsw12.v v48, 0(v3)
    vadd.vx v4, v0, t3
    prefix.mem width=3, space=1   # e[i] from the global space (address + CSR_GDS)
    vlw12.v v52, 0(v4)
    prefixi neg=2             # -vs2 + 300
    vadd.vi v56, v52, 300
    prefixi neg=2
    vadd.vi v57, v53, 300
    prefixi neg=2
    vadd.vi v58, v54, 300
    prefixi neg=2
    vadd.vi v59, v55, 300
    vadd.vx v5, v0, a2
    prefix.mem width=3        # d[i] = v56..v59
    vsw12.v v56, 0(v5)
.Ldone:
    join zero, zero, 0
    ret
    .size prefix, .-prefix
