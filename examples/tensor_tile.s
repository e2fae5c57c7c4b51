# tensor_tile: out = transpose(in) for a rows x cols fp32 matrix, through 32 x 32 tiles that
# cp_dma_tensor copies into local memory with the 128-byte swizzle.
#   __kernel void tensor_tile(__global const float *in, __global float *out, int rows,
#                             int cols)
# NDRange: global (32 * ceil(cols / 32), ceil(rows / 32)), local (32, 1): workgroup (gx, gy)
# handles the tile whose first element is in[32 gy][32 gx]. cols must be a multiple of 4 (the
# row pitch cols * 4 is a tensor stride, a multiple of 16 bytes). Local data: 4096 bytes of
# tile + 640 bytes of tensor parameters, after the warps' 1 KiB stacks (CSR_NUMW * 1024).
#
# Warp 0 writes the tensor parameters to local memory, loads them into v8.. (vs1) and v12..
# (vs2) - parameter k of an operand in lane k % T of register base + k / T, so four registers
# each cover every warp size from 4 threads up - and copies the tile; cp_dma_mbarrier waits
# for it, and the barrier lets the other warps read it. Thread l (local id) then writes
# out[32 gx + r][32 gy + l] = tile[l][r] for every r: with the swizzle, element (l, r) of the
# tile is at byte l * 128 + ((4 r) ^ ((l & 7) << 4)), so the 32 threads reading column r hit
# eight different 16-byte chunks instead of one. Edge tiles reach beyond the matrix: the copy
# fills those elements with 0, and the stores check the bounds.

    .text
    .globl tensor_tile
    .type tensor_tile, @function
tensor_tile:
    lw a2, 0(a0)              # in
    lw a3, 4(a0)              # out
    lw a4, 8(a0)              # rows
    lw a5, 12(a0)             # cols
    csrr a6, CSR_GIDX         # gx: tile column
    csrr a7, CSR_GIDY         # gy: tile row
    csrr a1, CSR_LDS
    csrr t0, CSR_NUMW
    slli t0, t0, 10
    add a1, a1, t0            # the tile: local data, after the stacks
    csrr t0, CSR_WID
    bnez t0, .Lwait           # warp 0 copies the tile for the whole workgroup
    li t0, 4096
    add t2, a1, t0            # tensor parameters: vs1 at t2, vs2 at t2 + 64
    li t0, 7
    sw t0, 0(t2)              # datatype: float32
    li t0, 2
    sw t0, 4(t2)              # tensorRank
    sw a2, 8(t2)              # globalAddress
    sw a5, 12(t2)             # globalDim1 = cols
    sw a4, 16(t2)             # globalDim2 = rows
    slli t0, a5, 2
    sw t0, 32(t2)             # globalStride1 = cols * 4: the row pitch
    mul t0, a7, a5
    add t0, t0, a6
    slli t0, t0, 7            # (32 gy * cols + 32 gx) * 4
    add t0, t0, a2
    sw t0, 64(t2)             # BoxAddress: &in[32 gy][32 gx]
    li t0, 32
    sw t0, 68(t2)             # boxDim1
    sw t0, 72(t2)             # boxDim2
    li t0, 1
    sw t0, 88(t2)             # elementStrides1
    sw t0, 92(t2)             # elementStrides2
    sw zero, 108(t2)          # interleave: none
    li t0, 3
    sw t0, 112(t2)            # swizzle: 128 bytes
    sw zero, 116(t2)          # L2promotion: none
    sw zero, 120(t2)          # oobfill: zero
    csrr t3, CSR_NUMT
    slli t3, t3, 2            # 4 T: bytes between the parameters of two registers
    vid.v v1
    vsll.vi v1, v1, 2
    vadd.vx v1, v1, t2        # &parameter[lane]
    vlw12.v v8, 0(v1)
    vlw12.v v12, 64(v1)
    vadd.vx v1, v1, t3
    vlw12.v v9, 0(v1)
    vlw12.v v13, 64(v1)
    vadd.vx v1, v1, t3
    vlw12.v v10, 0(v1)
    vlw12.v v14, 64(v1)
    vadd.vx v1, v1, t3
    vlw12.v v11, 0(v1)
    vlw12.v v15, 64(v1)
    csrr t0, CSR_LDS
    sub t0, a1, t0            # the tile's offset from CSR_LDS
    cp_dma_tensor t0, v8, v12
    cp_dma_mbarrier
.Lwait:
    barrier x0, x0, 1         # fence local memory: every warp reads the tile
    csrr t0, CSR_TID
    vid.v v2
    vadd.vx v2, v2, t0        # l: local id 0..31
    slli t1, a7, 5
    vadd.vx v3, v2, t1        # i = 32 gy + l: the input row this thread moves
    vmv.v.x v4, a4
    la t6, .Ldone
    setrpc zero, t6, 0
    vbge v3, v4, .Ldone       # a row beyond the matrix: nothing to write
    vsll.vi v5, v2, 7
    vadd.vx v5, v5, a1        # &tile[l][0]
    vand.vi v6, v2, 7
    vsll.vi v6, v6, 4         # the swizzle of tile row l: (l & 7) << 4
    slli t1, a6, 5            # 32 gx
    mul t2, t1, a4
    vadd.vx v7, v3, t2
    vsll.vi v7, v7, 2
    vadd.vx v7, v7, a3        # &out[32 gx][i]
    slli t4, a4, 2            # rows * 4: the next output row
    sub t5, a5, t1            # columns left: min(32, cols - 32 gx)
    li t0, 32
    blt t5, t0, 1f
    mv t5, t0
1:  slli t5, t5, 2
    li t3, 0                  # 4 r
2:  vxor.vx v9, v6, t3
    vadd.vv v9, v9, v5        # &tile[l][r], swizzled
    vlw12.v v10, 0(v9)
    vsw12.v v10, 0(v7)        # out[32 gx + r][i]
    vadd.vx v7, v7, t4
    addi t3, t3, 4
    blt t3, t5, 2b
.Ldone:
    join zero, zero, 0
    ret
    .size tensor_tile, .-tensor_tile
