// The Ventus back end: optimized LLVM IR (SPIR address spaces, 32-bit pointers) ->
// Ventus assembly text for the project's assembler.
#pragma once

#include <string>
#include <string_view>

namespace llvm {
class Module;
}

namespace ventus::cc::backend {

// The metadata kind by which the front end gives a program-scope variable's declaration,
// !{!"file:line:column"}, for the back end's messages about it (line tables, which the
// front end always emits, cover instructions and functions only).
inline constexpr char kDeclarationMetadata[] = "ventus.declaration";

// Generates assembly for every defined function of `module` (kernels and the functions
// they call), followed by the module's global data and the `.ventus.kernels` metadata
// section. Throws ventus::Error("FILE:LINE:COL: error: ...") naming the construct and
// the source line for what it cannot compile. May rewrite `module` (lowering passes).
std::string generate_assembly(llvm::Module& module, int opt_level);

// The device side of printf (src/compiler/lib/printf.s, embedded at build time), appended to
// programs that call printf.
std::string_view printf_routine();

}  // namespace ventus::cc::backend
