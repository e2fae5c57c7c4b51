// Shared base of the builtin library: configuration, constants and the bit-level helpers
// every family uses. Everything under core/ is plain OpenCL C that compiles both in the
// Ventus library build (clang, spir, -cl-std=CL3.0) and on pocl for the accuracy test
// (tests/compiler/library_accuracy_test.cpp defines VT_POCL_TEST there).
//
// Rules the code follows so that it runs on the Ventus back end (docs/builtins.md):
// only plain operators, as_int/as_float, __builtin_fmaf, __builtin_sqrtf, __builtin_fabsf,
// __builtin_copysignf and __builtin_fminf/fmaxf (which become llvm.fma, llvm.sqrt,
// llvm.fabs, llvm.copysign, llvm.minnum/maxnum); no other LLVM intrinsic, no frem, no
// 64-bit arithmetic in the float and 32-bit integer paths.
#pragma once

// Contraction would change results between the two builds (pocl contracts by default);
// every fused operation below is an explicit __builtin_fmaf.
#pragma OPENCL FP_CONTRACT OFF
#ifdef cl_khr_fp16
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#endif

#ifdef VT_POCL_TEST
// On pocl the OpenCL names belong to pocl's own library: the families are compiled under
// a prefix and the tests call VT_CL(name). pocl's headers #define most builtin names to
// internal ones (fmax -> _cl_fmax), so the name is macro-expanded first, everywhere, and
// then prefixed: every path gives the same identifier.
#define VT_CL(name) VT_CL_(name)
#define VT_CL_(name) vtcl_##name
#define VT_MULHU(a, b) mul_hi((uint)(a), (uint)(b))
#define VT_MULH(a, b) mul_hi((int)(a), (int)(b))
#else
#include "ventus_intrinsics.h"
#define VT_CL(name) name
#define VT_MULHU(a, b) __vt_mulhu((uint)(a), (uint)(b))
#define VT_MULH(a, b) __vt_mulh((int)(a), (int)(b))
#endif

#ifdef VT_POCL_TEST
// Only what a test calls is compiled on pocl (clang emits no unused static function).
#define VT_OVL static inline __attribute__((overloadable))
#else
#define VT_OVL __attribute__((overloadable))
#endif
// One internal function per operation (inline: no unused-function warnings for the
// cores a translation unit does not use); LLVM's inliner decides which calls to inline.
#define VT_CORE static inline

// The generic address space (OpenCL C 2.0 user code passes generic pointers) by its SPIR
// number: definitions with it get the mangled names of clang's __generic declarations.
// Not on pocl, whose target numbers address spaces differently.
#ifndef VT_POCL_TEST
#define VT_GENERIC __attribute__((address_space(4)))
#endif

#define VT_INF as_float(0x7f800000u)
#define VT_NAN as_float(0x7fc00000u)
#define VT_FLT_MAX 0x1.fffffep127f

// Constants split into a float and the float nearest the rest (hi + lo), from
// scripts/libm_fit.py's arithmetic in 80 digits.
#define VT_LN2_HI 0x1.62e430p-1f
#define VT_LN2_LO -0x1.05c610p-29f
#define VT_LOG2E_HI 0x1.715476p0f
#define VT_LOG2E_LO 0x1.4ae0c0p-26f
#define VT_LOG10_2_HI 0x1.344136p-2f
#define VT_LOG10_2_LO -0x1.ec10c0p-27f
#define VT_LOG10E_HI 0x1.bcb7b2p-2f
#define VT_LOG10E_LO -0x1.5b235ep-27f
#define VT_LOG2_10 0x1.a934f0p1f
#define VT_PI_HI 0x1.921fb6p1f
#define VT_PI_LO -0x1.777a5cp-24f
#define VT_PIO2_HI 0x1.921fb6p0f
#define VT_PIO2_MID -0x1.777a5cp-25f
#define VT_PIO2_LO -0x1.ee59dap-50f
#define VT_PIO4_HI 0x1.921fb6p-1f
#define VT_PIO4_LO -0x1.777a5cp-26f
#define VT_INVPI_HI 0x1.45f306p-2f
#define VT_INVPI_LO 0x1.b93910p-27f
#define VT_2OPI 0x1.45f306p-1f
#define VT_LNPI_HI 0x1.250d04p0f
#define VT_LNPI_LO 0x1.1cf438p-25f

VT_CORE int vt_isnan(float x) {
  return x != x;
}
VT_CORE int vt_isinf(float x) {
  return __builtin_fabsf(x) == VT_INF;
}
VT_CORE int vt_isfinite(float x) {
  return __builtin_fabsf(x) < VT_INF;
}
VT_CORE int vt_signbit(float x) {
  return (int)(as_uint(x) >> 31);
}

// Count leading zeros by halving (no llvm.ctlz on the device); clz(0) = 32.
VT_CORE uint vt_clz32(uint x) {
  uint n = 0;
  if (x == 0) return 32;
  if ((x & 0xffff0000u) == 0) {
    n += 16;
    x <<= 16;
  }
  if ((x & 0xff000000u) == 0) {
    n += 8;
    x <<= 8;
  }
  if ((x & 0xf0000000u) == 0) {
    n += 4;
    x <<= 4;
  }
  if ((x & 0xc0000000u) == 0) {
    n += 2;
    x <<= 2;
  }
  if ((x & 0x80000000u) == 0) n += 1;
  return n;
}
VT_CORE uint vt_clz64(ulong x) {
  uint hi = (uint)(x >> 32);
  return hi ? vt_clz32(hi) : 32 + vt_clz32((uint)x);
}

VT_CORE uint vt_ctz32(uint x) {
  if (x == 0) return 32;
  return 31 - vt_clz32(x & (0u - x));
}

VT_CORE uint vt_popcount32(uint x) {
  x = x - ((x >> 1) & 0x55555555u);
  x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
  x = (x + (x >> 4)) & 0x0f0f0f0fu;
  return (x * 0x01010101u) >> 24;
}

// 2^n for n in [-126, 127], built from bits.
VT_CORE float vt_pow2i(int n) {
  return as_float((uint)(n + 127) << 23);
}

// Double-float helpers: a value is hi + lo with |lo| <= ulp(hi) / 2.
// s + *e == a + b exactly, for |a| >= |b| (or a == 0).
VT_CORE float vt_fast_two_sum(float a, float b, float* e) {
  float s = a + b;
  *e = b - (s - a);
  return s;
}
// s + *e == a + b exactly, any order.
VT_CORE float vt_two_sum(float a, float b, float* e) {
  float s = a + b;
  float bv = s - a;
  float av = s - bv;
  *e = (a - av) + (b - bv);
  return s;
}
// p + *e == a * b exactly (barring underflow).
VT_CORE float vt_two_prod(float a, float b, float* e) {
  float p = a * b;
  *e = __builtin_fmaf(a, b, -p);
  return p;
}
