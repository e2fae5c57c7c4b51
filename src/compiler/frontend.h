// The front end of `ventus cc` (docs/compiler.md): OpenCL C source -> the optimized LLVM
// module the back end receives (triple spir-unknown-unknown, SPIR address spaces, data
// layout kDataLayout).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

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
// for bad source. The same as link_units({build_unit(...)}).
std::unique_ptr<llvm::Module> build_module(std::string_view source, const Options& options,
                                           llvm::LLVMContext& context, std::string& diagnostics);

// The first half of build_module, what an object holds: clang's module, verified, with
// the target's data layout and the 64-bit division and conversion lowering.
std::unique_ptr<llvm::Module> build_unit(std::string_view source, const Options& options,
                                         llvm::LLVMContext& context, std::string& diagnostics);

// The second half: links the units (into the first; duplicate definitions and
// conflicting function types are errors), then the builtin library, internalize,
// optimize and the checks. All units live in one context. nullptr on errors.
std::unique_ptr<llvm::Module> link_units(std::vector<std::unique_ptr<llvm::Module>> units,
                                         const Options& options, std::string& diagnostics);

// A unit as an object (bitcode, with its use-list order, so that optimizing the read
// module gives what optimizing the original gives) and back. read_object reports bad
// bytes and modules that are not Ventus objects or do not verify as errors naming `name`.
std::vector<uint8_t> write_object(const llvm::Module& unit);
std::unique_ptr<llvm::Module> read_object(std::span<const uint8_t> bytes, const std::string& name,
                                          llvm::LLVMContext& context, std::string& diagnostics);
bool is_object(std::span<const uint8_t> bytes);

// The module as LLVM IR text.
std::string to_text(const llvm::Module& module);

}  // namespace ventus::cc::frontend
