# print_items: every work-item i < n prints one line through vt_printf
# (src/compiler/lib/printf.s), and the odd ones a second line from inside a divergent branch:
#   "item %d of %u: hex %x, half %f, %s %c 100%%\n"  with i, n, 17 * i, i / 2.0, "tag", 'a' + i % 26
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
    vfcvt.f.x.v v6, v10
    li t0, 0x3f000000           # 0.5f
    vfmul.vf v6, v6, t0         # i / 2.0f, >= 0
    # %f takes a double (two words, low first): the float's bits widened, the exponent
    # rebiased by 1023 - 127 (0 stays 0).
    vsll.vi v3, v6, 29          # low word: the significand's last 3 bits
    vsrl.vi v4, v6, 3
    li t0, 0x38000000           # (1023 - 127) << 20
    vadd.vx v4, v4, t0
    vmsne.vi v7, v6, 0          # 1 where i / 2.0f is not 0
    vrsub.vi v7, v7, 0
    vand.vv v4, v4, v7          # high word
    la t0, .Ltag
    vmv.v.x v5, t0
    li t0, 26
    vremu.vx v6, v10, t0
    li t0, 97                   # 'a'
    vadd.vx v6, v6, t0
    la a0, .Lline
    li a1, 7
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
