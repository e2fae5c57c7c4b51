// The front end of `ventus cc` (docs/compiler.md): OpenCL C source -> the optimized LLVM
// module the back end receives (triple spir-unknown-unknown, SPIR address spaces, data
// layout kDataLayout).
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "ventus/compiler.h"

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace ventus::cc::frontend {

// 32-bit pointers in every address space, 64-bit aligned i64, native 32-bit integers.
inline constexpr char kDataLayout[] = "e-m:e-p:32:32-i64:64-n32-S128";
inline constexpr char kTriple[] = "spir-unknown-unknown";

// The optimization level Options ask for (-cl-opt-disable in extra_args means 0), or -1
// with a message in `error` when it is not one of 0..3.
int effective_opt_level(const Options& options, std::string* error);

// Parses `source` with clang in process, links the builtin library (only what the
// translation unit uses), internalizes everything but the kernels and optimizes at the
// Options' level. Appends clang's diagnostics (file:line:column: error: ...) and the
// front end's own to `diagnostics`; returns nullptr when there are errors. Never throws
// for bad source.
std::unique_ptr<llvm::Module> build_module(std::string_view source, const Options& options,
                                           llvm::LLVMContext& context, std::string& diagnostics);

// The module as LLVM IR text.
std::string to_text(const llvm::Module& module);

}  // namespace ventus::cc::frontend
