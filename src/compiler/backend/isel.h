// Instruction selection: one LLVM function -> MFunction over virtual registers.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "mir.h"
#include "ventus/kernel_metadata.h"

namespace llvm {
class Argument;
class Function;
class GlobalVariable;
class Type;
class Value;
}  // namespace llvm

namespace ventus::cc::backend {

// What instruction selection needs to know about the module.
struct ModuleLayout {
  std::map<const llvm::GlobalVariable*, uint32_t> local_offsets;  // __local variables
  std::map<const llvm::Value*, std::string> symbols;              // global data names
  uint32_t local_bytes = 0;  // the module's __local variables, laid out one after another
  // Every private frame's size and alignment is a multiple of this, the largest alignment
  // of any private object in the module: frames stack up from tp = 0, so each object
  // placed at a multiple of its own alignment within its frame is naturally aligned.
  uint32_t private_align = 4;
  // The stride of the warps' scalar stacks in local memory, one for the whole program:
  // every function finds the local data after the W stacks, and a kernel whose stride is
  // not the start code's sets sp itself (docs/compiler.md, "Frames").
  uint32_t warp_stack_bytes = abi::kWarpStackBytes;
};

// Kernel argument placement in the argument buffer (docs/compiler.md), as the kernel
// metadata records it.
std::vector<rt::KernelArgInfo> kernel_arguments(const llvm::Function& kernel);

// The alignment of a kernel's private copy of a struct passed by value.
uint64_t private_alignment(const llvm::Argument& byval);

// The device-function calling convention (docs/compiler.md, "Calling convention and
// frames"): arguments in v0..v31, results in v0..v15.
inline constexpr unsigned kArgumentRegisters = 32;
inline constexpr unsigned kResultRegisters = 16;
// Registers a value of type t takes: one per vector element, two (low word, high word) per
// 64-bit integer, as the guide's register pairs hold 64-bit data.
unsigned value_registers(llvm::Type* t);
// Whether f's arguments and result fit the convention's registers. Calls to a function
// that does not are inlined before selection (OpenCL C has no recursion).
bool passes_in_registers(const llvm::Function& f);

MFunction select_instructions(llvm::Function& function, const ModuleLayout& layout);

// Where messages about `value` point: "file:line:col: " of an instruction (from the line
// tables), else the definition of its function, else of a global variable
// (definition_location).
std::string source_location(const llvm::Value* value);

// "file:line: " of a function's definition (its debug-info subprogram), else "file: " (the
// module's source file name).
std::string definition_location(const llvm::Function& function);

// "file:line:col: " of a program-scope variable's declaration (the front end records it as
// kDeclarationMetadata, backend.h), else of its first use in an instruction, else "file: ".
std::string definition_location(const llvm::GlobalVariable& variable);

// "function 'name'" or "kernel 'name'", demangled, for messages.
std::string describe(const llvm::Function& function);

}  // namespace ventus::cc::backend
