// The OpenCL C compiler (`ventus cc`): OpenCL C source -> Ventus assembly -> ELF.
//
//   ventus::cc::Options options;            // -O2, OpenCL C 1.2
//   ventus::cc::Result result = ventus::cc::compile(source, options);
//   if (!result.ok) std::cerr << result.diagnostics;
//   auto program = ventus::rt::Program::from_elf_bytes(result.elf);
//
// Pipeline (docs/compiler.md): clang (in process) parses OpenCL C into LLVM IR for the
// SPIR address-space model; the project's builtin library (OpenCL C, compiled at build
// time) is linked in; LLVM's optimizer runs at the chosen level; the Ventus back end
// (src/compiler/backend) selects scalar or vector instructions by a divergence analysis,
// lowers divergent control flow to setrpc/vbranch/join, allocates registers and emits
// assembly; the project's assembler links it with the start code into an ELF whose
// `.ventus.kernels` section describes every kernel (local memory, registers, arguments).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ventus::cc {

struct Options {
  int opt_level = 2;                      // -O0 .. -O3
  std::string cl_std = "CL1.2";           // -cl-std= (CL1.0, CL1.1, CL1.2, CL2.0, CL3.0)
  std::vector<std::string> defines;       // -D NAME or NAME=VALUE
  std::vector<std::string> include_dirs;  // -I DIR
  std::vector<std::string> extra_args;    // further clang options (-cl-fast-relaxed-math ...)
  std::string file_name = "<source>";     // the name diagnostics use
  // In-memory include files: {name as written in #include "name", contents}. clang finds
  // them before the real file system: next to the source (quoted includes) and in a
  // search directory of their own ahead of -I (also <name>); a header may include another
  // by its name relative to its own. What clCompileProgram's input_headers and
  // header_include_names give.
  std::vector<std::pair<std::string, std::string>> headers;
};

struct Result {
  bool ok = false;
  std::string diagnostics;   // clang's and the back end's messages, file:line:column
  std::string assembly;      // the generated assembly (what `ventus cc -S` writes)
  std::vector<uint8_t> elf;  // the linked executable (empty unless ok)
};

// Compiles one OpenCL C translation unit. Never throws for bad source: errors are in
// Result::diagnostics with ok = false.
Result compile(std::string_view source, const Options& options = {});

// Separate compilation (clCompileProgram / clLinkProgram). An object is the translation
// unit as LLVM bitcode (triple spir-unknown-unknown): parsed and lowered (64-bit division
// and long/float conversions), not optimized, not linked with the builtin library, every
// function still external. compile(source) gives exactly what link({compile_object(source)})
// gives with the same Options.
struct Object {
  bool ok = false;
  std::string diagnostics;       // clang's messages, as for compile
  std::vector<uint8_t> bitcode;  // empty unless ok
};
Object compile_object(std::string_view source, const Options& options = {});

// Links objects (in this order) into an executable: the rest of compile's pipeline
// (builtin library, internalize, optimize at options' level, back end, assembler).
// Unreadable objects, duplicate definitions, conflicting declarations and functions that
// no object and not the builtin library define are errors in Result::diagnostics; never
// throws. Options: the optimization level (-cl-opt-disable) and file_name (the name of the
// assembly in assembler messages) matter here; the language options were the objects'.
Result link(const std::vector<std::vector<uint8_t>>& objects, const Options& options = {});

// Whether `bytes` look like an object of compile_object (LLVM bitcode for the Ventus
// triple), not an ELF executable or source: a cheap check of the header, not a validation.
bool is_object(std::span<const uint8_t> bytes);

// Stages, for tools and tests.
Result compile_to_assembly(std::string_view source, const Options& options = {});
std::string compile_to_llvm_ir(std::string_view source, const Options& options,
                               std::string* diagnostics);

}  // namespace ventus::cc
