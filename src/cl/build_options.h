// clBuildProgram / clCompileProgram options -> the compiler's options.
#pragma once

#include <string>
#include <string_view>

#include "ventus/compiler.h"

namespace ventus::cl {

// Parses the OpenCL build options (section 5.6.4 of the 1.2 specification: -D, -I,
// -cl-std=, the math and optimization options, -w, -Werror, -cl-kernel-arg-info) plus
// -O0..-O3. Returns "" or why the options are not valid (CL_INVALID_BUILD_OPTIONS).
std::string parse_build_options(std::string_view text, cc::Options& options);

}  // namespace ventus::cl
