# Private memory (per-thread, interleaved): every thread spills x + k for k = 0..7 to
# words 0..7 of its private memory, a halfword and a byte after them, then reads all back:
#   out[i] = sum_k (k+1) * (x + k) + zext16(x) + sext8(x >> 8)      with x = in[i]
# Arguments: in, out, n.
    .text
    .globl private_spill
private_spill:
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
    vmv.v.x v20, tp             # private base (tp, 0 at kernel entry)
    vsw.v v5, 0(v20)
    vadd.vi v6, v5, 1
    vsw.v v6, 4(v20)
    vadd.vi v6, v5, 2
    vsw.v v6, 8(v20)
    vadd.vi v6, v5, 3
    vsw.v v6, 12(v20)
    vadd.vi v6, v5, 4
    vsw.v v6, 16(v20)
    vadd.vi v6, v5, 5
    vsw.v v6, 20(v20)
    vadd.vi v6, v5, 6
    vsw.v v6, 24(v20)
    vadd.vi v6, v5, 7
    vsw.v v6, 28(v20)
    vsh.v v5, 32(v20)
    vsrl.vi v6, v5, 8
    vsb.v v6, 35(v20)
    vmv.v.i v7, 0               # overwrite the registers: the values come from memory only
    vmv.v.i v5, 0
    vmv.v.i v6, 0
    li t0, 8
.Lsum:                          # k = t0 - 1, from 7 down to 0
    addi t1, t0, -1
    slli t2, t1, 2
    vadd.vx v21, v20, t2
    vlw.v v6, 0(v21)
    vmacc.vx v7, t0, v6
    mv t0, t1
    bnez t0, .Lsum
    vlhu.v v6, 32(v20)
    vadd.vv v7, v7, v6
    vlb.v v6, 35(v20)
    vadd.vv v7, v7, v6
    vadd.vx v4, v3, s3
    vsw12.v v7, 0(v4)
.Ldone:
    join zero, zero, 0
    lw ra, 0(sp)
    addi sp, sp, -4
    ret
