# 3-D NDRange with global offsets. Every work-item writes its global id:
#   out[(gz-oz)*GX*GY + (gy-oy)*GX + (gx-ox)] = gx | gy << 10 | gz << 20
# computed from the workgroup ids (CSR_GIDX/Y/Z), the local linear id (CSR_TID + lane)
# split by the local sizes, and the sizes and offsets of the metadata buffer (CSR_KNL).
# Argument: out.
    .text
    .globl ndrange
ndrange:
    lw s3, 0(a0)
    csrr s2, CSR_KNL
    lw t0, 24(s2)               # LX
    lw t1, 28(s2)               # LY
    lw t2, 32(s2)               # LZ
    mul t3, t0, t1              # LX*LY
    mul t4, t3, t2              # work-items per group
    csrr t5, CSR_TID
    vid.v v1
    vadd.vx v1, v1, t5          # local linear id
    vmv.v.x v2, t4
    la t6, .Ldone
    setrpc zero, t6, 0
    vbgeu v1, v2, .Ldone        # lanes beyond the group's work-items
    vremu.vx v3, v1, t0         # lx
    vdivu.vx v4, v1, t0
    vremu.vx v4, v4, t1         # ly
    vdivu.vx v5, v1, t3         # lz
    csrr t5, CSR_GIDX
    mul t5, t5, t0
    lw t6, 36(s2)
    add t5, t5, t6
    vadd.vx v3, v3, t5          # gx
    csrr t5, CSR_GIDY
    mul t5, t5, t1
    lw t6, 40(s2)
    add t5, t5, t6
    vadd.vx v4, v4, t5          # gy
    csrr t5, CSR_GIDZ
    mul t5, t5, t2
    lw t6, 44(s2)
    add t5, t5, t6
    vadd.vx v5, v5, t5          # gz
    vsll.vi v6, v4, 10
    vor.vv v6, v6, v3
    vsll.vi v7, v5, 20
    vor.vv v6, v6, v7           # the value
    lw t0, 12(s2)               # GX
    lw t1, 16(s2)               # GY
    lw t6, 36(s2)
    vsub.vx v3, v3, t6
    lw t6, 40(s2)
    vsub.vx v4, v4, t6
    lw t6, 44(s2)
    vsub.vx v5, v5, t6
    mul t2, t0, t1
    vmul.vx v5, v5, t2
    vmul.vx v4, v4, t0
    vadd.vv v3, v3, v4
    vadd.vv v3, v3, v5          # linear index
    vsll.vi v3, v3, 2
    vadd.vx v3, v3, s3
    vsw12.v v6, 0(v3)
.Ldone:
    join zero, zero, 0
    ret
