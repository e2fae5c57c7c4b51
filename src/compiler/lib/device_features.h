// The Ventus device's OpenCL C language level, included before every translation unit:
// user code (the in-process front end, src/compiler/frontend.cpp) and the builtin library
// (src/compiler/CMakeLists.txt) alike, so that both see the same declarations.
//
// Clang's SPIR target claims every optional feature, and opencl-c-base.h defines the
// "header-only" feature and extension macros for SPIR unconditionally. The device has no
// subgroups, work-group collectives, images, float atomics or integer dot products (the
// builtin library does not implement them), so their macros are removed here: a kernel
// that uses them gets "undeclared function" from clang instead of an unresolved call
// in the back end. opencl-c-base.h is included first (its include guard makes this
// independent of the order in which clang includes the default header and this file).
#pragma once

#include <opencl-c-base.h>

#undef cl_khr_subgroup_extended_types
#undef cl_khr_subgroup_non_uniform_vote
#undef cl_khr_subgroup_ballot
#undef cl_khr_subgroup_non_uniform_arithmetic
#undef cl_khr_subgroup_shuffle
#undef cl_khr_subgroup_shuffle_relative
#undef cl_khr_subgroup_clustered_reduce
#undef cl_khr_subgroup_rotate
#undef cl_khr_extended_bit_ops
#undef cl_khr_integer_dot_product
#undef __opencl_c_integer_dot_product_input_4x8bit
#undef __opencl_c_integer_dot_product_input_4x8bit_packed
#undef cl_ext_float_atomics
#undef __opencl_c_ext_fp32_global_atomic_add
#undef __opencl_c_ext_fp32_local_atomic_add
#undef __opencl_c_ext_fp32_global_atomic_min_max
#undef __opencl_c_ext_fp32_local_atomic_min_max
#undef __IMAGE_SUPPORT__

// OpenCL C 3.0 header-only features (OpenCL C 2.0 has them all as core language; there
// only the extensions above are removed).
#if __OPENCL_C_VERSION__ == 300
#undef __opencl_c_work_group_collective_functions
#undef __opencl_c_read_write_images
#endif

// The OpenCL version of the device (CL_DEVICE_VERSION, "OpenCL 1.2"), whatever -cl-std
// selects (that is __OPENCL_C_VERSION__). Clang leaves it to the implementation; it
// defines CL_VERSION_1_0 .. CL_VERSION_3_0 itself.
#define __OPENCL_VERSION__ 120
