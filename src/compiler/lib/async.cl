// OpenCL C async copies and prefetch (s6.15.11): async_work_group_copy,
// async_work_group_strided_copy, wait_group_events, prefetch, for every gentype.
//
// The copy is done by the work-group right away, each work-item taking every
// (work-group size)-th element, and wait_group_events is a barrier on local and global
// memory, after which every work-item sees the whole copy. Events carry no state: the
// event passed in is returned (0 when none was given), which OpenCL allows. prefetch is a
// hint and does nothing (the device has no cache to fill).
#include "core/base.h"

// Linear id and size of the work-group from the OpenCL 1.x work-item functions.
VT_CORE size_t vt_wg_linear_id(void) {
  return (get_local_id(2) * get_local_size(1) + get_local_id(1)) * get_local_size(0) +
         get_local_id(0);
}
VT_CORE size_t vt_wg_size(void) {
  return get_local_size(0) * get_local_size(1) * get_local_size(2);
}

#define VT_ASYNC_T(T)                                                                           \
  VT_OVL event_t VT_CL(async_work_group_copy)(__local T * dst, const __global T* src, size_t n, \
                                              event_t e) {                                      \
    size_t step = vt_wg_size();                                                                 \
    for (size_t i = vt_wg_linear_id(); i < n; i += step) dst[i] = src[i];                       \
    return e;                                                                                   \
  }                                                                                             \
  VT_OVL event_t VT_CL(async_work_group_copy)(__global T * dst, const __local T* src, size_t n, \
                                              event_t e) {                                      \
    size_t step = vt_wg_size();                                                                 \
    for (size_t i = vt_wg_linear_id(); i < n; i += step) dst[i] = src[i];                       \
    return e;                                                                                   \
  }                                                                                             \
  VT_OVL event_t VT_CL(async_work_group_strided_copy)(__local T * dst, const __global T* src,   \
                                                      size_t n, size_t stride, event_t e) {     \
    size_t step = vt_wg_size();                                                                 \
    for (size_t i = vt_wg_linear_id(); i < n; i += step) dst[i] = src[i * stride];              \
    return e;                                                                                   \
  }                                                                                             \
  VT_OVL event_t VT_CL(async_work_group_strided_copy)(__global T * dst, const __local T* src,   \
                                                      size_t n, size_t stride, event_t e) {     \
    size_t step = vt_wg_size();                                                                 \
    for (size_t i = vt_wg_linear_id(); i < n; i += step) dst[i * stride] = src[i];              \
    return e;                                                                                   \
  }                                                                                             \
  VT_OVL void VT_CL(prefetch)(const __global T* p, size_t n) {}

#define VT_ASYNC(T) \
  VT_ASYNC_T(T)     \
  VT_ASYNC_T(T##2)  \
  VT_ASYNC_T(T##3)  \
  VT_ASYNC_T(T##4)  \
  VT_ASYNC_T(T##8)  \
  VT_ASYNC_T(T##16)

VT_ASYNC(char)
VT_ASYNC(uchar)
VT_ASYNC(short)
VT_ASYNC(ushort)
VT_ASYNC(int)
VT_ASYNC(uint)
VT_ASYNC(long)
VT_ASYNC(ulong)
VT_ASYNC(float)
VT_ASYNC(double)
#ifdef cl_khr_fp16
VT_ASYNC(half)
#endif

// Every work-item of the group calls it; the copies are complete and visible afterwards.
VT_OVL void VT_CL(wait_group_events)(int n, __private event_t* events) {
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}
#ifdef VT_GENERIC
VT_OVL void VT_CL(wait_group_events)(int n, VT_GENERIC event_t* events) {
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}
#endif
