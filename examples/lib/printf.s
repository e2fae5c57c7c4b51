# vt_printf: printf from a kernel through the print buffer (docs/driver.md, "Print buffer").
#
#   a0     address of a NUL-terminated format string (e.g. in .rodata)
#   a1     number of arguments, 0 to 8
#   v0-v7  the arguments, one 32-bit value per lane (ints, or floats as their bits;
#          splat a scalar with vmv.v.x first)
#
# Every lane active at the call prints the format with its own arguments; the host prints
# the lanes in order. Conversions: %d %i %u %x %X %o %c %s %f %e %g %%, with flags, width
# and precision. Clobbers t0-t6, v30 and v31; keeps every other register. Does nothing when
# the launch has no print buffer; counts the record as dropped when the buffer is full.
#
# The record (T = threads per warp, n = a1), appended with amoadd.w on the buffer's
# "next free offset" word so that warps on different SMs never share space:
#   +0 format address, +4 n, +8 T, +12 0, +16 T lane flags (1 = prints),
#   +16+4T the arguments: argument i of lane l at +16 + 4T + 4*(i*T + l)
# Then the record's address goes to CSR_PRINT; the warp waits until the host printed it.

    .text
    .globl vt_printf
    .type vt_printf, @function
vt_printf:
    la t0, BUFFER_ADDR
    lw t0, 0(t0)              # print buffer base (start code copied it from the KNL buffer)
    beqz t0, 9f
    csrr t1, CSR_NUMT         # T
    addi t2, a1, 1
    mul t2, t2, t1
    slli t2, t2, 2
    addi t2, t2, 16           # record bytes: 16 + 4T(n + 1)
    amoadd.w t3, t2, (t0)     # t3 = offset of our record
    la t4, BUFFER_SIZE
    lw t4, 0(t4)
    add t5, t3, t2
    bltu t4, t5, 8f           # does not fit: drop it
    add t3, t3, t0            # record address
    sw a0, 0(t3)
    sw a1, 4(t3)
    sw t1, 8(t3)
    sw zero, 12(t3)
    slli t1, t1, 2            # 4T: the stride between the record's arrays
    vid.v v31
    vsll.vi v31, v31, 2
    vadd.vx v31, v31, t3      # per lane: record + 4 * lane
    li t6, 1
    vmv.v.x v30, t6
    vsw12.v v30, 16(v31)      # only the active lanes store their flag
    li t6, 0
    beq a1, t6, 7f
    vadd.vx v31, v31, t1
    vsw12.v v0, 16(v31)
    li t6, 1
    beq a1, t6, 7f
    vadd.vx v31, v31, t1
    vsw12.v v1, 16(v31)
    li t6, 2
    beq a1, t6, 7f
    vadd.vx v31, v31, t1
    vsw12.v v2, 16(v31)
    li t6, 3
    beq a1, t6, 7f
    vadd.vx v31, v31, t1
    vsw12.v v3, 16(v31)
    li t6, 4
    beq a1, t6, 7f
    vadd.vx v31, v31, t1
    vsw12.v v4, 16(v31)
    li t6, 5
    beq a1, t6, 7f
    vadd.vx v31, v31, t1
    vsw12.v v5, 16(v31)
    li t6, 6
    beq a1, t6, 7f
    vadd.vx v31, v31, t1
    vsw12.v v6, 16(v31)
    li t6, 7
    beq a1, t6, 7f
    vadd.vx v31, v31, t1
    vsw12.v v7, 16(v31)
7:
    csrw CSR_PRINT, t3        # hand the record to the host
    ret
8:
    addi t0, t0, 4            # the dropped-records counter
    li t6, 1
    amoadd.w zero, t6, (t0)
9:
    ret
    .size vt_printf, .-vt_printf
