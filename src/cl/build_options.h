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

// Parses clLinkProgram's options (section 5.6.5.x of the 1.2 specification):
// -create-library, -enable-link-options (with -create-library only) and the math
// options -cl-denorms-are-zero, -cl-no-signed-zeros, -cl-unsafe-math-optimizations,
// -cl-finite-math-only, -cl-fast-relaxed-math, which only permit what the objects were
// compiled for. Returns "" or why the options are not valid (CL_INVALID_LINKER_OPTIONS).
std::string parse_link_options(std::string_view text, bool& create_library);

}  // namespace ventus::cl
