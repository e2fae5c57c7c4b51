# Atomic histogram: hist[in[i] & 15] += 1 for i < n. Every thread adds with amoadd.w on
# global memory; the lanes of a warp take turns (a SIMT branch leaves one lane active,
# vmv.x.s reads its bin), so warps of all workgroups race on the same words.
# Arguments: in, hist, n.
    .text
    .globl histogram
histogram:
    addi sp, sp, 4
    sw ra, 0(sp)
    lw s2, 0(a0)
    lw s3, 4(a0)
    lw s4, 8(a0)
    call global_id_x
    vmv.v.x v2, s4
    la t6, .Ldone
    setrpc zero, t6, 0
    vbgeu v1, v2, .Ldone
    vsll.vi v3, v1, 2
    vadd.vx v4, v3, s2
    vlw12.v v5, 0(v4)
    vand.vi v9, v5, 15
    vsll.vi v9, v9, 2           # byte offset of the bin
    vid.v v10
    li t0, 0
    csrr t1, CSR_NUMT
.Llane:
    vmv.v.x v11, t0
    la t6, .Llane_join
    setrpc zero, t6, 0
    vbne v10, v11, .Llane_join  # every lane but lane t0 skips
    vmv.x.s t2, v9
    add t2, t2, s3
    li t3, 1
    amoadd.w zero, t3, (t2)
.Llane_join:
    join zero, zero, 0
    addi t0, t0, 1
    blt t0, t1, .Llane
.Ldone:
    join zero, zero, 0
    lw ra, 0(sp)
    addi sp, sp, -4
    ret
