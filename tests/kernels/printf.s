# print_items: every work-item i < n prints one line through vt_printf
# (src/compiler/lib/printf.s), and the odd ones a second line from inside a divergent branch:
#   "item %d of %u: hex %x, half %f, %s %c 100%%\n"  with i, n, 17 * i, i / 2.0f, "tag", 'a' + i % 26
#   "odd %03d\n"                                     with i
# Argument: n.
    .text
    .globl print_items
    .type print_items, @function
print_items:
    addi sp, sp, 4
    sw ra, 0(sp)
    lw s2, 0(a0)                # n
    csrr t0, CSR_KNL
    lw t1, 24(t0)
    csrr t2, CSR_GIDX
    mul t1, t1, t2
    csrr t2, CSR_TID
    add t1, t1, t2
    vid.v v10
    vadd.vx v10, v10, t1        # i
    vmv.v.x v11, s2
    la t6, .Ldone
    setrpc zero, t6, 0
    vbgeu v10, v11, .Ldone
    vmv.v.v v0, v10
    vmv.v.x v1, s2
    li t0, 17
    vmul.vx v2, v10, t0
    vfcvt.f.x.v v3, v10
    li t0, 0x3f000000           # 0.5f
    vfmul.vf v3, v3, t0
    la t0, .Ltag
    vmv.v.x v4, t0
    li t0, 26
    vremu.vx v5, v10, t0
    li t0, 97                   # 'a'
    vadd.vx v5, v5, t0
    la a0, .Lline
    li a1, 6
    call vt_printf
    vand.vi v12, v10, 1
    vmv.v.i v13, 0
    la t6, .Leven
    setrpc zero, t6, 0
    vbeq v12, v13, .Leven
    vmv.v.v v0, v10
    la a0, .Lodd
    li a1, 1
    call vt_printf
.Leven:
    join zero, zero, 0
.Ldone:
    join zero, zero, 0
    lw ra, 0(sp)
    addi sp, sp, -4
    ret
    .size print_items, .-print_items

    .section .rodata
.Lline:
    .asciz "item %d of %u: hex %x, half %f, %s %c 100%%\n"
.Lodd:
    .asciz "odd %03d\n"
.Ltag:
    .asciz "tag"
