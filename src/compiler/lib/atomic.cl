// OpenCL C atomic functions: the OpenCL 1.x atomic_* (s6.12.11) and atom_*
// (cl_khr_{global,local}_int32_{base,extended}_atomics) functions on 32-bit integers (and
// atomic_xchg on float), and the OpenCL C 2.0/3.0 atomics (s6.15.12) on atomic_int,
// atomic_uint, atomic_float and atomic_flag in global and local memory (and generic
// pointers for OpenCL C 2.0 code).
//
// Everything is built on clang's __sync builtins, which become LLVM atomicrmw/cmpxchg
// (seq_cst). The __atomic and __opencl_atomic builtins cannot be used: clang's SPIR target
// declares no lock-free atomics, so they become calls to __atomic_*_4 library functions.
// Consequently every atomic is sequentially consistent at device scope whatever order
// and scope the _explicit forms ask for (a stronger order is always a valid one); atomic
// loads are fetch_or(0) and stores exchanges, so that they are atomic read-modify-writes
// the device orders like the others.
#include "core/base.h"

// min/max need the signed or unsigned builtin.
#define VT_SYNC_MIN_int __sync_fetch_and_min
#define VT_SYNC_MAX_int __sync_fetch_and_max
#define VT_SYNC_MIN_uint __sync_fetch_and_umin
#define VT_SYNC_MAX_uint __sync_fetch_and_umax

#define VT_ATOMIC1X_T(P, T, AS)                                \
  VT_OVL T VT_CL(P##_add)(volatile AS T * p, T v) {            \
    return __sync_fetch_and_add(p, v);                         \
  }                                                            \
  VT_OVL T VT_CL(P##_sub)(volatile AS T * p, T v) {            \
    return __sync_fetch_and_sub(p, v);                         \
  }                                                            \
  VT_OVL T VT_CL(P##_xchg)(volatile AS T * p, T v) {           \
    return __sync_lock_test_and_set(p, v);                     \
  }                                                            \
  VT_OVL T VT_CL(P##_inc)(volatile AS T * p) {                 \
    return __sync_fetch_and_add(p, (T)1);                      \
  }                                                            \
  VT_OVL T VT_CL(P##_dec)(volatile AS T * p) {                 \
    return __sync_fetch_and_sub(p, (T)1);                      \
  }                                                            \
  VT_OVL T VT_CL(P##_cmpxchg)(volatile AS T * p, T cmp, T v) { \
    return __sync_val_compare_and_swap(p, cmp, v);             \
  }                                                            \
  VT_OVL T VT_CL(P##_min)(volatile AS T * p, T v) {            \
    return VT_SYNC_MIN_##T(p, v);                              \
  }                                                            \
  VT_OVL T VT_CL(P##_max)(volatile AS T * p, T v) {            \
    return VT_SYNC_MAX_##T(p, v);                              \
  }                                                            \
  VT_OVL T VT_CL(P##_and)(volatile AS T * p, T v) {            \
    return __sync_fetch_and_and(p, v);                         \
  }                                                            \
  VT_OVL T VT_CL(P##_or)(volatile AS T * p, T v) {             \
    return __sync_fetch_and_or(p, v);                          \
  }                                                            \
  VT_OVL T VT_CL(P##_xor)(volatile AS T * p, T v) {            \
    return __sync_fetch_and_xor(p, v);                         \
  }

#define VT_ATOMIC1X(AS)                                                          \
  VT_ATOMIC1X_T(atomic, int, AS)                                                 \
  VT_ATOMIC1X_T(atomic, uint, AS)                                                \
  VT_ATOMIC1X_T(atom, int, AS)                                                   \
  VT_ATOMIC1X_T(atom, uint, AS)                                                  \
  VT_OVL float VT_CL(atomic_xchg)(volatile AS float* p, float v) {               \
    return as_float(__sync_lock_test_and_set((volatile AS uint*)p, as_uint(v))); \
  }

VT_ATOMIC1X(__global)
VT_ATOMIC1X(__local)

// ---- OpenCL C 2.0 / 3.0 atomics ----
#if __OPENCL_C_VERSION__ >= 200

// The atomic types as plain integers for the __sync builtins (same size and layout).
#define VT_PLAIN_atomic_int int
#define VT_PLAIN_atomic_uint uint
#define VT_PLAIN_atomic_float uint
#define VT_BITS_int(v) (v)
#define VT_BITS_uint(v) (v)
#define VT_BITS_float(v) as_uint(v)
#define VT_VALUE_int(b) (b)
#define VT_VALUE_uint(b) (b)
#define VT_VALUE_float(b) as_float(b)

// Read-modify-write operations for atomic_int / atomic_uint: the implicit, _explicit(order)
// and _explicit(order, scope) forms.
#define VT_C11_RMW(OP, SYNC, AT, T, AS)                                                   \
  VT_OVL T VT_CL(atomic_fetch_##OP)(volatile AS AT * p, T v) {                            \
    return SYNC((volatile AS T*)p, v);                                                    \
  }                                                                                       \
  VT_OVL T VT_CL(atomic_fetch_##OP##_explicit)(volatile AS AT * p, T v, memory_order o) { \
    return SYNC((volatile AS T*)p, v);                                                    \
  }                                                                                       \
  VT_OVL T VT_CL(atomic_fetch_##OP##_explicit)(volatile AS AT * p, T v, memory_order o,   \
                                               memory_scope s) {                          \
    return SYNC((volatile AS T*)p, v);                                                    \
  }

// load, store, exchange, init for atomic_int / atomic_uint / atomic_float.
#define VT_C11_LSX(AT, T, AS)                                                                     \
  VT_OVL void VT_CL(atomic_init)(volatile AS AT * p, T v) {                                       \
    *(volatile AS VT_PLAIN_##AT*)p = VT_BITS_##T(v);                                              \
  }                                                                                               \
  VT_OVL void VT_CL(atomic_store)(volatile AS AT * p, T v) {                                      \
    (void)__sync_lock_test_and_set((volatile AS VT_PLAIN_##AT*)p, VT_BITS_##T(v));                \
  }                                                                                               \
  VT_OVL void VT_CL(atomic_store_explicit)(volatile AS AT * p, T v, memory_order o) {             \
    VT_CL(atomic_store)(p, v);                                                                    \
  }                                                                                               \
  VT_OVL void VT_CL(atomic_store_explicit)(volatile AS AT * p, T v, memory_order o,               \
                                           memory_scope s) {                                      \
    VT_CL(atomic_store)(p, v);                                                                    \
  }                                                                                               \
  VT_OVL T VT_CL(atomic_load)(volatile AS AT * p) {                                               \
    return VT_VALUE_##T(__sync_fetch_and_or((volatile AS VT_PLAIN_##AT*)p, 0));                   \
  }                                                                                               \
  VT_OVL T VT_CL(atomic_load_explicit)(volatile AS AT * p, memory_order o) {                      \
    return VT_CL(atomic_load)(p);                                                                 \
  }                                                                                               \
  VT_OVL T VT_CL(atomic_load_explicit)(volatile AS AT * p, memory_order o, memory_scope s) {      \
    return VT_CL(atomic_load)(p);                                                                 \
  }                                                                                               \
  VT_OVL T VT_CL(atomic_exchange)(volatile AS AT * p, T v) {                                      \
    return VT_VALUE_##T(__sync_lock_test_and_set((volatile AS VT_PLAIN_##AT*)p, VT_BITS_##T(v))); \
  }                                                                                               \
  VT_OVL T VT_CL(atomic_exchange_explicit)(volatile AS AT * p, T v, memory_order o) {             \
    return VT_CL(atomic_exchange)(p, v);                                                          \
  }                                                                                               \
  VT_OVL T VT_CL(atomic_exchange_explicit)(volatile AS AT * p, T v, memory_order o,               \
                                           memory_scope s) {                                      \
    return VT_CL(atomic_exchange)(p, v);                                                          \
  }

// compare_exchange_{strong,weak}[_explicit] with `expected` in address space EAS; the
// comparison is bitwise (C11's), floats included.
#define VT_C11_CMPXCHG_KIND(KIND, AT, T, AS, EAS)                                                  \
  VT_OVL bool VT_CL(atomic_compare_exchange_##KIND)(volatile AS AT * p, EAS T * e, T d) {          \
    VT_PLAIN_##AT want = VT_BITS_##T(*e);                                                          \
    VT_PLAIN_##AT old =                                                                            \
        __sync_val_compare_and_swap((volatile AS VT_PLAIN_##AT*)p, want, VT_BITS_##T(d));          \
    *e = VT_VALUE_##T(old);                                                                        \
    return old == want;                                                                            \
  }                                                                                                \
  VT_OVL bool VT_CL(atomic_compare_exchange_##KIND##_explicit)(volatile AS AT * p, EAS T * e, T d, \
                                                               memory_order os, memory_order of) { \
    return VT_CL(atomic_compare_exchange_##KIND)(p, e, d);                                         \
  }                                                                                                \
  VT_OVL bool VT_CL(atomic_compare_exchange_##KIND##_explicit)(                                    \
      volatile AS AT * p, EAS T * e, T d, memory_order os, memory_order of, memory_scope s) {      \
    return VT_CL(atomic_compare_exchange_##KIND)(p, e, d);                                         \
  }
#define VT_C11_CMPXCHG(AT, T, AS, EAS)        \
  VT_C11_CMPXCHG_KIND(strong, AT, T, AS, EAS) \
  VT_C11_CMPXCHG_KIND(weak, AT, T, AS, EAS)

#define VT_C11_FLAG(AS)                                                                        \
  VT_OVL bool VT_CL(atomic_flag_test_and_set)(volatile AS atomic_flag * p) {                   \
    return __sync_lock_test_and_set((volatile AS int*)p, 1) != 0;                              \
  }                                                                                            \
  VT_OVL bool VT_CL(atomic_flag_test_and_set_explicit)(volatile AS atomic_flag * p,            \
                                                       memory_order o) {                       \
    return VT_CL(atomic_flag_test_and_set)(p);                                                 \
  }                                                                                            \
  VT_OVL bool VT_CL(atomic_flag_test_and_set_explicit)(volatile AS atomic_flag * p,            \
                                                       memory_order o, memory_scope s) {       \
    return VT_CL(atomic_flag_test_and_set)(p);                                                 \
  }                                                                                            \
  VT_OVL void VT_CL(atomic_flag_clear)(volatile AS atomic_flag * p) {                          \
    (void)__sync_lock_test_and_set((volatile AS int*)p, 0);                                    \
  }                                                                                            \
  VT_OVL void VT_CL(atomic_flag_clear_explicit)(volatile AS atomic_flag * p, memory_order o) { \
    VT_CL(atomic_flag_clear)(p);                                                               \
  }                                                                                            \
  VT_OVL void VT_CL(atomic_flag_clear_explicit)(volatile AS atomic_flag * p, memory_order o,   \
                                                memory_scope s) {                              \
    VT_CL(atomic_flag_clear)(p);                                                               \
  }

#define VT_C11_INT(AT, T, AS)                      \
  VT_C11_RMW(add, __sync_fetch_and_add, AT, T, AS) \
  VT_C11_RMW(sub, __sync_fetch_and_sub, AT, T, AS) \
  VT_C11_RMW(or, __sync_fetch_and_or, AT, T, AS)   \
  VT_C11_RMW(xor, __sync_fetch_and_xor, AT, T, AS) \
  VT_C11_RMW(and, __sync_fetch_and_and, AT, T, AS) \
  VT_C11_RMW(min, VT_SYNC_MIN_##T, AT, T, AS)      \
  VT_C11_RMW(max, VT_SYNC_MAX_##T, AT, T, AS)      \
  VT_C11_LSX(AT, T, AS)
#define VT_C11_ALL_EXPECTED(AT, T, AS) \
  VT_C11_CMPXCHG(AT, T, AS, __global)  \
  VT_C11_CMPXCHG(AT, T, AS, __local)   \
  VT_C11_CMPXCHG(AT, T, AS, __private)
#define VT_C11(AS)                             \
  VT_C11_INT(atomic_int, int, AS)              \
  VT_C11_INT(atomic_uint, uint, AS)            \
  VT_C11_LSX(atomic_float, float, AS)          \
  VT_C11_ALL_EXPECTED(atomic_int, int, AS)     \
  VT_C11_ALL_EXPECTED(atomic_uint, uint, AS)   \
  VT_C11_ALL_EXPECTED(atomic_float, float, AS) \
  VT_C11_FLAG(AS)

VT_C11(__global)
VT_C11(__local)
#ifdef VT_GENERIC
// OpenCL C 2.0 code passes generic pointers (the `expected` pointer too).
VT_C11_INT(atomic_int, int, VT_GENERIC)
VT_C11_INT(atomic_uint, uint, VT_GENERIC)
VT_C11_LSX(atomic_float, float, VT_GENERIC)
VT_C11_CMPXCHG(atomic_int, int, VT_GENERIC, VT_GENERIC)
VT_C11_CMPXCHG(atomic_uint, uint, VT_GENERIC, VT_GENERIC)
VT_C11_CMPXCHG(atomic_float, float, VT_GENERIC, VT_GENERIC)
VT_C11_FLAG(VT_GENERIC)
#endif

#endif  // __OPENCL_C_VERSION__ >= 200
