// Functions the Ventus back end implements itself (src/compiler/backend). The builtin
// library calls them; user code should call the OpenCL builtins instead.
#pragma once

// csrr of a custom or standard CSR; `csr` must be a constant (a VT_CSR_* of ventus_abi.h).
uint __vt_csr(uint csr) __attribute__((const));
// vid.v: this thread's lane in its warp (0 .. threads per warp - 1).
uint __vt_lane_id(void) __attribute__((const));
// barrier x0, x0, flags: flags = cl_mem_fence_flags (bit 0 local, 1 global, 2 image);
// `flags` must be a constant.
void __vt_barrier(uint flags);
// High 32 bits of the 64-bit product: mulh / mulhu (vmulh / vmulhu on vectors).
int __vt_mulh(int a, int b) __attribute__((const));
uint __vt_mulhu(uint a, uint b) __attribute__((const));
