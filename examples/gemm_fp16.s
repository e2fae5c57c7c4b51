# gemm_fp16: C = A x B with fp16 A and B and fp32 C, tiled through local memory:
# cp_dma_tensor stages a 16 x 16 tile of A and a 16 x 8 tile of B, cp_dma_mbarrier waits for
# them, and mma.m16n8k16.f32.f16 multiplies them into the 16 x 8 accumulator. Two buffers:
# the copies of the next k step run while the current one multiplies.
#   __kernel void gemm_fp16(__global const half *a,   // M x K, row-major
#                           __global const half *bt,  // B column-major: N x K, row-major
#                           __global float *c,        // M x N, row-major
#                           int m, int n, int k)
# NDRange: global (T * ceil(n / 8), ceil(m / 16)), local (T, 1) with T = threads per warp
# (8, 16 or 32): one warp per workgroup computes the C tile whose first element is
# c[16 gy][8 gx]. k must be a multiple of 8 (the row pitch 2k is a tensor stride, a multiple
# of 16 bytes). Local data: 4608 bytes.
#
# Tiles past the edges of A and B (m, n or k not a multiple of 16, 8, 16) are zero-filled by
# the copies, so they add nothing; the result is stored with bounds checks.
# Fragments (docs/isa.md, MMA): word w of a matrix is lane w % T of register base + w / T.
# The A tile as the copy lays it out (16 rows of 16 halves) is exactly A's fragment, and the
# tile of B's column-major form (8 columns of 16 halves) is exactly B's, so register r of a
# group loads words r T .. r T + T - 1 of the tile. The loads are unrolled for T = 8 (A: 16
# registers, B: 8, C: 16); with more threads the extra registers are simply not used.
#
# Local memory, from the kernel's local data (CSR_LDS + CSR_NUMW * 1024):
#   0     buffer 0: A tile (512 bytes), B tile at 512 (256 bytes)
#   1024  buffer 1: the same
#   2048  A parameters (vs1, vs2)     2176  B parameters (vs1, vs2)
#   2560  the accumulator, written out fragment-wise at the end (up to 16 T words)

    .text
    .globl gemm_fp16
    .type gemm_fp16, @function
gemm_fp16:
    sw s0, 0(sp)              # the Ventus stack grows upwards (docs/assembler.md)
    sw s1, 4(sp)
    sw s2, 8(sp)
    sw s3, 12(sp)
    addi sp, sp, 16
    lw a2, 0(a0)              # a
    lw a3, 4(a0)              # bt
    lw a4, 8(a0)              # c
    lw a5, 12(a0)             # m
    lw a6, 16(a0)             # n
    lw a7, 20(a0)             # k
    csrr s0, CSR_GIDX
    slli s0, s0, 3            # j0 = 8 gx: first column of the C tile
    csrr s1, CSR_GIDY
    slli s1, s1, 4            # i0 = 16 gy: first row
    csrr t0, CSR_NUMW
    slli t0, t0, 10
    csrr a1, CSR_LDS
    add a1, a1, t0            # local data
    mv s2, t0                 # its offset from CSR_LDS: buffer 0's A tile
    # Tensor parameters (docs/isa.md, cp_dma_tensor): A is a k x m tensor of float16 (dimension 1
    # is the contiguous one), box 16 x 16; B's column-major form is k x n, box 16 x 8.
    li t2, 2048
    add t2, t2, a1
    li t0, 6
    sw t0, 0(t2)              # A datatype: float16
    sw t0, 128(t2)            # B datatype
    li t0, 2
    sw t0, 4(t2)              # tensorRank
    sw t0, 132(t2)
    sw a2, 8(t2)              # globalAddress
    sw a3, 136(t2)
    sw a7, 12(t2)             # globalDim1 = k
    sw a7, 140(t2)
    sw a5, 16(t2)             # globalDim2 = m (A), n (B)
    sw a6, 144(t2)
    slli t0, a7, 1
    sw t0, 32(t2)             # globalStride1 = 2 k: the row pitch
    sw t0, 160(t2)
    li t0, 16
    sw t0, 68(t2)             # boxDim1 = 16 (k)
    sw t0, 196(t2)
    sw t0, 72(t2)             # A boxDim2 = 16 (rows of A)
    li t0, 8
    sw t0, 200(t2)            # B boxDim2 = 8 (columns of B)
    li t0, 1
    sw t0, 88(t2)             # elementStrides1, 2
    sw t0, 92(t2)
    sw t0, 216(t2)
    sw t0, 220(t2)
    sw zero, 108(t2)          # interleave, swizzle, L2promotion, oobfill: none / zero
    sw zero, 112(t2)
    sw zero, 116(t2)
    sw zero, 120(t2)
    sw zero, 236(t2)
    sw zero, 240(t2)
    sw zero, 244(t2)
    sw zero, 248(t2)
    csrr t3, CSR_NUMT
    slli t3, t3, 2            # 4 T: bytes between two registers' parameters
    vid.v v1
    vsll.vi v1, v1, 2
    vadd.vx v1, v1, t2
    vmv.v.v v4, v1            # &parameter[lane], to reload the box addresses
    vlw12.v v8, 0(v1)         # A: vs1 in v8-v9, vs2 in v10-v11 (parameter p: lane p % T of
    vlw12.v v10, 64(v1)       # register base + p / T)
    vlw12.v v12, 128(v1)      # B: vs1 in v12-v13, vs2 in v14-v15
    vlw12.v v14, 192(v1)
    vadd.vx v1, v1, t3
    vlw12.v v9, 0(v1)
    vlw12.v v11, 64(v1)
    vlw12.v v13, 128(v1)
    vlw12.v v15, 192(v1)
    # The box addresses of the first k step: &a[i0][0] and &bt[j0][0].
    mul t4, s1, a7
    slli t4, t4, 1
    add t4, t4, a2
    mul t5, s0, a7
    slli t5, t5, 1
    add t5, t5, a3
    # The accumulator v96.. = 0, and v2 = &tile[4 lane]: the address of word `lane`.
    vmv.v.i v96, 0
    vmv.v.i v97, 0
    vmv.v.i v98, 0
    vmv.v.i v99, 0
    vmv.v.i v100, 0
    vmv.v.i v101, 0
    vmv.v.i v102, 0
    vmv.v.i v103, 0
    vmv.v.i v104, 0
    vmv.v.i v105, 0
    vmv.v.i v106, 0
    vmv.v.i v107, 0
    vmv.v.i v108, 0
    vmv.v.i v109, 0
    vmv.v.i v110, 0
    vmv.v.i v111, 0
    vid.v v2
    vsll.vi v2, v2, 2
    vadd.vx v2, v2, a1
    # Double buffering: the tiles of step k0 + 16 are copied into the other buffer while
    # step k0 multiplies; the mbarrier at the end of a step completes them.
    sw t4, 64(t2)             # BoxAddress (vs2[0], lane 0 of v10): &a[i0][0]
    vlw12.v v10, 64(v4)
    cp_dma_tensor s2, v8, v10
    sw t5, 192(t2)            # &bt[j0][0]
    vlw12.v v14, 192(v4)
    addi t0, s2, 512
    cp_dma_tensor t0, v12, v14
    cp_dma_mbarrier           # the first tiles are in buffer 0
    li a0, 0                  # the buffer this step multiplies: 0 or 1024
    li t6, 0                  # k0
.Lstep:
    addi t0, t6, 16
    bge t0, a7, .Lcompute     # the last step: nothing to prefetch
    xori t1, a0, 1024
    add s3, s2, t1            # the other buffer's A tile
    addi t0, t4, 32
    sw t0, 64(t2)             # &a[i0][k0 + 16]
    vlw12.v v10, 64(v4)
    cp_dma_tensor s3, v8, v10
    addi t0, t5, 32
    sw t0, 192(t2)            # &bt[j0][k0 + 16]
    vlw12.v v14, 192(v4)
    addi s3, s3, 512
    cp_dma_tensor s3, v12, v14
.Lcompute:
    vadd.vx v3, v2, a0        # A fragment: register 32 + r = words r T .. r T + T - 1
    vlw12.v v32, 0(v3)
    vadd.vx v3, v3, t3
    vlw12.v v33, 0(v3)
    vadd.vx v3, v3, t3
    vlw12.v v34, 0(v3)
    vadd.vx v3, v3, t3
    vlw12.v v35, 0(v3)
    vadd.vx v3, v3, t3
    vlw12.v v36, 0(v3)
    vadd.vx v3, v3, t3
    vlw12.v v37, 0(v3)
    vadd.vx v3, v3, t3
    vlw12.v v38, 0(v3)
    vadd.vx v3, v3, t3
    vlw12.v v39, 0(v3)
    vadd.vx v3, v3, t3
    vlw12.v v40, 0(v3)
    vadd.vx v3, v3, t3
    vlw12.v v41, 0(v3)
    vadd.vx v3, v3, t3
    vlw12.v v42, 0(v3)
    vadd.vx v3, v3, t3
    vlw12.v v43, 0(v3)
    vadd.vx v3, v3, t3
    vlw12.v v44, 0(v3)
    vadd.vx v3, v3, t3
    vlw12.v v45, 0(v3)
    vadd.vx v3, v3, t3
    vlw12.v v46, 0(v3)
    vadd.vx v3, v3, t3
    vlw12.v v47, 0(v3)
    vadd.vx v3, v2, a0        # B fragment from the B tile (512 bytes further)
    vlw12.v v64, 512(v3)
    vadd.vx v3, v3, t3
    vlw12.v v65, 512(v3)
    vadd.vx v3, v3, t3
    vlw12.v v66, 512(v3)
    vadd.vx v3, v3, t3
    vlw12.v v67, 512(v3)
    vadd.vx v3, v3, t3
    vlw12.v v68, 512(v3)
    vadd.vx v3, v3, t3
    vlw12.v v69, 512(v3)
    vadd.vx v3, v3, t3
    vlw12.v v70, 512(v3)
    vadd.vx v3, v3, t3
    vlw12.v v71, 512(v3)
    mma.m16n8k16.f32.f16 v96, v32, v64
    cp_dma_mbarrier           # the prefetched tiles are in the other buffer from here on
    xori a0, a0, 1024
    addi t4, t4, 32           # the next 16 columns of A and of B's column-major form
    addi t5, t5, 32
    addi t6, t6, 16
    blt t6, a7, .Lstep
    # The accumulator to local memory, fragment order (= row-major 16 x 8), then to c.
    li t0, 2560
    vadd.vx v3, v2, t0
    vsw12.v v96, 0(v3)
    vadd.vx v3, v3, t3
    vsw12.v v97, 0(v3)
    vadd.vx v3, v3, t3
    vsw12.v v98, 0(v3)
    vadd.vx v3, v3, t3
    vsw12.v v99, 0(v3)
    vadd.vx v3, v3, t3
    vsw12.v v100, 0(v3)
    vadd.vx v3, v3, t3
    vsw12.v v101, 0(v3)
    vadd.vx v3, v3, t3
    vsw12.v v102, 0(v3)
    vadd.vx v3, v3, t3
    vsw12.v v103, 0(v3)
    vadd.vx v3, v3, t3
    vsw12.v v104, 0(v3)
    vadd.vx v3, v3, t3
    vsw12.v v105, 0(v3)
    vadd.vx v3, v3, t3
    vsw12.v v106, 0(v3)
    vadd.vx v3, v3, t3
    vsw12.v v107, 0(v3)
    vadd.vx v3, v3, t3
    vsw12.v v108, 0(v3)
    vadd.vx v3, v3, t3
    vsw12.v v109, 0(v3)
    vadd.vx v3, v3, t3
    vsw12.v v110, 0(v3)
    vadd.vx v3, v3, t3
    vsw12.v v111, 0(v3)
    # c[i0 + i][j0 + j] = tile[i][j] for i < min(16, m - i0), j < min(8, n - j0).
    sub t0, a5, s1
    li t1, 16
    blt t0, t1, 1f
    mv t0, t1
1:  sub t1, a6, s0
    li t2, 8
    blt t1, t2, 2f
    mv t1, t2
2:  li t2, 2560
    add t2, t2, a1            # &tile[i][0]
    mul t3, s1, a6
    add t3, t3, s0
    slli t3, t3, 2
    add t3, t3, a4            # &c[i0 + i][j0]
    slli t6, a6, 2            # 4 n: the next row of c
3:  li t4, 0                  # j
4:  slli t5, t4, 2
    add a0, t2, t5
    lw a0, 0(a0)
    add t5, t3, t5
    sw a0, 0(t5)
    addi t4, t4, 1
    blt t4, t1, 4b
    addi t2, t2, 32
    add t3, t3, t6
    addi t0, t0, -1
    bnez t0, 3b
    addi sp, sp, -16
    lw s0, 0(sp)
    lw s1, 4(sp)
    lw s2, 8(sp)
    lw s3, 12(sp)
    ret
    .size gemm_fp16, .-gemm_fp16
