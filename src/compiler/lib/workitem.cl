// Work-item functions (OpenCL C s6.15.1), barriers and memory fences (s6.15.9, s6.15.10)
// for the Ventus device, built on the back end's intrinsics (ventus_intrinsics.h) and the
// kernel metadata buffer the driver writes for every launch (docs/driver.md, "KNL
// buffer"): CSR_KNL holds its address; ventus_abi.h names its words.
// The driver fills the words of unused dimensions with size 1 and offset 0, so only
// dimensions >= 3 need OpenCL's out-of-range values (0 for ids, 1 for sizes).
//
// Every function is always_inline: the intrinsics want constant operands (a CSR number,
// barrier flags), which they get once the call is inlined into a kernel that passes a
// constant, even at -O0 (where the front end runs only the always-inliner; inlining folds
// constant operands). A CSR number is never computed from a dimension.
#include "ventus_abi.h"
#include "ventus_intrinsics.h"

#define VT_BUILTIN __attribute__((overloadable, always_inline))

// One word of the metadata buffer. The words never change during a launch; the front
// end marks these loads !invariant.load (frontend.cpp) so that they can be hoisted and
// merged across stores to global memory.
static __attribute__((always_inline)) uint knl(uint word) {
  return ((const __global uint *)(uintptr_t)__vt_csr(VT_CSR_KNL))[word];
}

static __attribute__((always_inline)) uint local_linear_id(void) {
  return __vt_csr(VT_CSR_TID) + __vt_lane_id();
}

uint VT_BUILTIN get_work_dim(void) { return knl(VT_KNL_WORK_DIM); }

size_t VT_BUILTIN get_global_size(uint d) { return d < 3 ? knl(VT_KNL_GLOBAL_SIZE + d) : 1; }

size_t VT_BUILTIN get_local_size(uint d) { return d < 3 ? knl(VT_KNL_LOCAL_SIZE + d) : 1; }

// Workgroups are uniform (the driver requires the global size to be a multiple of the
// local size), so the enqueued local size is the local size.
size_t VT_BUILTIN get_enqueued_local_size(uint d) { return get_local_size(d); }

size_t VT_BUILTIN get_global_offset(uint d) { return d < 3 ? knl(VT_KNL_GLOBAL_OFFSET + d) : 0; }

size_t VT_BUILTIN get_num_groups(uint d) {
  return d < 3 ? knl(VT_KNL_GLOBAL_SIZE + d) / knl(VT_KNL_LOCAL_SIZE + d) : 1;
}

// Three reads and selects rather than a switch: LLVM merges the arms of a switch into one
// __vt_csr(VT_CSR_GIDX + d) call, whose CSR number is no longer a constant when d is not.
// With a constant d (the usual case, once inlined) the selects fold to one read.
size_t VT_BUILTIN get_group_id(uint d) {
  const uint x = __vt_csr(VT_CSR_GIDX);
  const uint y = __vt_csr(VT_CSR_GIDY);
  const uint z = __vt_csr(VT_CSR_GIDZ);
  return d == 0 ? x : d == 1 ? y : d == 2 ? z : 0;
}

size_t VT_BUILTIN get_local_linear_id(void) { return local_linear_id(); }

// The local linear id splits into x, y, z with x varying fastest. The highest dimension
// of the launch takes no modulo, as in the public Ventus library: a warp's lanes beyond
// the workgroup's items (a 5x5 workgroup on 4 warps of 8 lanes) then get ids past the
// local size, which kernels bounds-check, instead of wrapping onto real items and
// repeating their work.
size_t VT_BUILTIN get_local_id(uint d) {
  const uint linear = local_linear_id();
  const uint dims = knl(VT_KNL_WORK_DIM);
  const uint x = knl(VT_KNL_LOCAL_SIZE + 0), y = knl(VT_KNL_LOCAL_SIZE + 1);
  switch (d) {
    case 0: return dims == 1 ? linear : linear % x;
    case 1: return dims == 3 ? linear % (x * y) / x : linear / x;
    case 2: return linear / (x * y);
    default: return 0;
  }
}

size_t VT_BUILTIN get_global_id(uint d) {
  if (d >= 3) return 0;
  return get_group_id(d) * knl(VT_KNL_LOCAL_SIZE + d) + get_local_id(d) +
         knl(VT_KNL_GLOBAL_OFFSET + d);
}

// OpenCL C 2.0 s6.13.1: the global id without the offset, x fastest.
size_t VT_BUILTIN get_global_linear_id(void) {
  const uint x = get_global_id(0) - get_global_offset(0);
  const uint y = get_global_id(1) - get_global_offset(1);
  const uint z = get_global_id(2) - get_global_offset(2);
  return (z * get_global_size(1) + y) * get_global_size(0) + x;
}

// The hardware barrier's flags are cl_mem_fence_flags (CLK_LOCAL_MEM_FENCE = 1,
// CLK_GLOBAL_MEM_FENCE = 2, CLK_IMAGE_MEM_FENCE = 4); it orders the named memories itself.
void VT_BUILTIN barrier(cl_mem_fence_flags flags) { __vt_barrier(flags); }

void VT_BUILTIN work_group_barrier(cl_mem_fence_flags flags) { __vt_barrier(flags); }

// A workgroup barrier synchronizes the workgroup whatever the scope of its fence.
void VT_BUILTIN work_group_barrier(cl_mem_fence_flags flags, memory_scope scope) {
  (void)scope;
  __vt_barrier(flags);
}

// Fences order this work-item's accesses; LLVM's `fence` carries no address space, so
// the flags only decide whether there is a fence at all (0 orders nothing).
void VT_BUILTIN mem_fence(cl_mem_fence_flags flags) {
  if (flags) __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

void VT_BUILTIN read_mem_fence(cl_mem_fence_flags flags) {
  if (flags) __atomic_thread_fence(__ATOMIC_ACQUIRE);
}

void VT_BUILTIN write_mem_fence(cl_mem_fence_flags flags) {
  if (flags) __atomic_thread_fence(__ATOMIC_RELEASE);
}
