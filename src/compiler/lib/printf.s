# vt_printf: printf from a kernel through the print buffer (docs/driver.md, "Print buffer").
#
#   a0     address of a NUL-terminated format string (e.g. in .rodata)
#   a1     number of 32-bit argument words, 0 to PRINT_MAX_ARGS (30)
#   v0-v29 the words, one per lane (ints, floats as their bits, a 64-bit value as its low
#          then its high word, a vector element by element; splat a scalar with vmv.v.x
#          first)
#
# Every lane active at the call prints the format with its own arguments; the host prints
# the lanes in order (docs/driver.md, "Print buffer": the conversions, and how many words
# each takes). Clobbers t0-t6, v30 and v31; keeps every other register. Does nothing when
# the launch has no print buffer; counts the record as dropped when it is larger than the
# whole buffer (or, which a working host never lets happen, when the buffer stays full for
# 65536 tries).
#
# The record (T = threads per warp, n = a1), reserved with lr.w/sc.w on the buffer's
# "next free offset" word, only when it fits, so that warps on different SMs never share
# space:
#   the format address, n, T and 0, then T lane flags (1 = prints) at
#   PRINT_RECORD_LANE_FLAGS, then argument i of lane l at
#   PRINT_RECORD_LANE_FLAGS + 4T + 4*(i*T + l)
# Then the record's address goes to CSR_PRINT; the warp waits until the host printed it.
# The host drains the buffer as records arrive: once every reserved record is printed it
# sets the offset back to the first record, so a full buffer only means records waiting to
# be printed, and the warp tries again until they are.

# The buffer and record layout: the PRINT_* values of the device ABI
# (include/ventus/abi.def); tests/driver/print_test.cpp checks these lines against it.
    .equ PRINT_NEXT_FREE, 0   # lr.w/sc.w below address the buffer's first word
    .equ PRINT_DROPPED, 4
    .equ PRINT_HEADER_BYTES, 16
    .equ PRINT_RECORD_FORMAT, 0
    .equ PRINT_RECORD_ARG_COUNT, 4
    .equ PRINT_RECORD_LANES, 8
    .equ PRINT_RECORD_LANE_FLAGS, 16

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
    addi t2, t2, PRINT_RECORD_LANE_FLAGS  # record bytes: lane flags' offset + 4T(n + 1)
    la t4, BUFFER_SIZE
    lw t4, 0(t4)
    addi t5, t2, PRINT_HEADER_BYTES
    bltu t4, t5, 8f           # larger than the buffer after its header: drop it
    li t1, 65536              # tries while the buffer is full
1:
    lr.w t3, (t0)             # t3 = offset of our record
    add t5, t3, t2
    bltu t4, t5, 6f           # full: the host has records to print first
    sc.w t6, t5, (t0)
    bnez t6, 1b               # another warp reserved space first: try again
    csrr t1, CSR_NUMT         # T
    add t3, t3, t0            # record address
    sw a0, PRINT_RECORD_FORMAT(t3)
    sw a1, PRINT_RECORD_ARG_COUNT(t3)
    sw t1, PRINT_RECORD_LANES(t3)
    sw zero, 12(t3)           # reserved
    slli t1, t1, 2            # 4T: the stride between the record's arrays
    vid.v v31
    vsll.vi v31, v31, 2
    vadd.vx v31, v31, t3      # per lane: record + 4 * lane
    li t6, 1
    vmv.v.x v30, t6
    vsw12.v v30, PRINT_RECORD_LANE_FLAGS(v31)      # only the active lanes store their flag
    li t6, 0
    beq a1, t6, 7f
    vadd.vx v31, v31, t1
    vsw12.v v0, PRINT_RECORD_LANE_FLAGS(v31)
    li t6, 1
    beq a1, t6, 7f
    vadd.vx v31, v31, t1
    vsw12.v v1, PRINT_RECORD_LANE_FLAGS(v31)
    li t6, 2
    beq a1, t6, 7f
    vadd.vx v31, v31, t1
    vsw12.v v2, PRINT_RECORD_LANE_FLAGS(v31)
    li t6, 3
    beq a1, t6, 7f
    vadd.vx v31, v31, t1
    vsw12.v v3, PRINT_RECORD_LANE_FLAGS(v31)
    li t6, 4
    beq a1, t6, 7f
    vadd.vx v31, v31, t1
    vsw12.v v4, PRINT_RECORD_LANE_FLAGS(v31)
    li t6, 5
    beq a1, t6, 7f
    vadd.vx v31, v31, t1
    vsw12.v v5, PRINT_RECORD_LANE_FLAGS(v31)
    li t6, 6
    beq a1, t6, 7f
    vadd.vx v31, v31, t1
    vsw12.v v6, PRINT_RECORD_LANE_FLAGS(v31)
    li t6, 7
    beq a1, t6, 7f
    vadd.vx v31, v31, t1
    vsw12.v v7, PRINT_RECORD_LANE_FLAGS(v31)
    li t6, 8
    beq a1, t6, 7f
    vadd.vx v31, v31, t1
    vsw12.v v8, PRINT_RECORD_LANE_FLAGS(v31)
    li t6, 9
    beq a1, t6, 7f
    vadd.vx v31, v31, t1
    vsw12.v v9, PRINT_RECORD_LANE_FLAGS(v31)
    li t6, 10
    beq a1, t6, 7f
    vadd.vx v31, v31, t1
    vsw12.v v10, PRINT_RECORD_LANE_FLAGS(v31)
    li t6, 11
    beq a1, t6, 7f
    vadd.vx v31, v31, t1
    vsw12.v v11, PRINT_RECORD_LANE_FLAGS(v31)
    li t6, 12
    beq a1, t6, 7f
    vadd.vx v31, v31, t1
    vsw12.v v12, PRINT_RECORD_LANE_FLAGS(v31)
    li t6, 13
    beq a1, t6, 7f
    vadd.vx v31, v31, t1
    vsw12.v v13, PRINT_RECORD_LANE_FLAGS(v31)
    li t6, 14
    beq a1, t6, 7f
    vadd.vx v31, v31, t1
    vsw12.v v14, PRINT_RECORD_LANE_FLAGS(v31)
    li t6, 15
    beq a1, t6, 7f
    vadd.vx v31, v31, t1
    vsw12.v v15, PRINT_RECORD_LANE_FLAGS(v31)
    li t6, 16
    beq a1, t6, 7f
    vadd.vx v31, v31, t1
    vsw12.v v16, PRINT_RECORD_LANE_FLAGS(v31)
    li t6, 17
    beq a1, t6, 7f
    vadd.vx v31, v31, t1
    vsw12.v v17, PRINT_RECORD_LANE_FLAGS(v31)
    li t6, 18
    beq a1, t6, 7f
    vadd.vx v31, v31, t1
    vsw12.v v18, PRINT_RECORD_LANE_FLAGS(v31)
    li t6, 19
    beq a1, t6, 7f
    vadd.vx v31, v31, t1
    vsw12.v v19, PRINT_RECORD_LANE_FLAGS(v31)
    li t6, 20
    beq a1, t6, 7f
    vadd.vx v31, v31, t1
    vsw12.v v20, PRINT_RECORD_LANE_FLAGS(v31)
    li t6, 21
    beq a1, t6, 7f
    vadd.vx v31, v31, t1
    vsw12.v v21, PRINT_RECORD_LANE_FLAGS(v31)
    li t6, 22
    beq a1, t6, 7f
    vadd.vx v31, v31, t1
    vsw12.v v22, PRINT_RECORD_LANE_FLAGS(v31)
    li t6, 23
    beq a1, t6, 7f
    vadd.vx v31, v31, t1
    vsw12.v v23, PRINT_RECORD_LANE_FLAGS(v31)
    li t6, 24
    beq a1, t6, 7f
    vadd.vx v31, v31, t1
    vsw12.v v24, PRINT_RECORD_LANE_FLAGS(v31)
    li t6, 25
    beq a1, t6, 7f
    vadd.vx v31, v31, t1
    vsw12.v v25, PRINT_RECORD_LANE_FLAGS(v31)
    li t6, 26
    beq a1, t6, 7f
    vadd.vx v31, v31, t1
    vsw12.v v26, PRINT_RECORD_LANE_FLAGS(v31)
    li t6, 27
    beq a1, t6, 7f
    vadd.vx v31, v31, t1
    vsw12.v v27, PRINT_RECORD_LANE_FLAGS(v31)
    li t6, 28
    beq a1, t6, 7f
    vadd.vx v31, v31, t1
    vsw12.v v28, PRINT_RECORD_LANE_FLAGS(v31)
    li t6, 29
    beq a1, t6, 7f
    vadd.vx v31, v31, t1
    vsw12.v v29, PRINT_RECORD_LANE_FLAGS(v31)
7:
    csrw CSR_PRINT, t3        # hand the record to the host
    ret
6:
    addi t1, t1, -1
    bnez t1, 1b
8:
    addi t0, t0, PRINT_DROPPED  # the dropped-records counter
    li t6, 1
    amoadd.w zero, t6, (t0)
9:
    ret
    .size vt_printf, .-vt_printf
