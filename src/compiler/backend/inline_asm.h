// GCC-style inline assembly (docs/compiler.md, "Inline assembly"): what its constraints
// mean on Ventus, its operand placeholders, and the markers around it in the generated
// assembly that let an assembler error point at the user's statement. Instruction
// selection (isel_asm.cpp), the divergence analysis and the emitter share these.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace llvm {
class InlineAsm;
}

namespace ventus::cc::backend {

struct AsmConstraint {
  enum class Role : uint8_t { Output, Input, Clobber };
  // Scalar: "r", an x register; Vector: "vr", a v register; Immediate: "i" or "n", a
  // constant written as a number; Physical: a clobbered register ("~{t0}", "~{v5}").
  enum class Class : uint8_t { Scalar, Vector, Immediate, Physical, Memory };
  Role role = Role::Input;
  Class cls = Class::Scalar;
  bool early_clobber = false;  // "=&": written before all inputs are read
  int tied_to = -1;            // an input's output operand ("0", or the input half of "+")
  uint32_t physical = 0;       // Physical: the register (mir.h numbering)
  std::string text;            // the constraint as written, for messages
};

// The constraints of an asm statement, in LLVM's order (outputs, inputs, clobbers), or a
// message naming the first one this back end does not support.
struct AsmConstraints {
  std::vector<AsmConstraint> list;
  std::string error;
};
AsmConstraints parse_asm_constraints(const llvm::InlineAsm& asm_value);

// Whether the statement's results may be uniform: every output and input is a scalar
// register or an immediate (then the results are as uniform as the inputs).
bool asm_is_scalar(const llvm::InlineAsm& asm_value);

// The template with each $N / ${N} replaced by operand(N), ${:uid} (GCC's %=) by `unique`
// ($$ is '$'); an empty optional and `error` set for a placeholder that names no operand or
// has a modifier.
std::optional<std::string> substitute_asm_operands(
    std::string_view asm_template, size_t operands,
    const std::function<std::string(size_t)>& operand, std::string_view unique, std::string* error);

// The comment lines around a statement's instructions in the generated assembly. `origin`
// is "FILE:LINE:COL: " and the function's description (isel.h, describe).
std::string asm_begin_marker(const std::string& location, const std::string& function);
std::string_view asm_end_marker();

// For an assembler error message ("NAME:LINE:COL: error: ...", one per line) about
// `assembly`, the diagnostic naming the user's inline assembly when the first error lies
// inside a statement's markers; nullopt when it does not.
std::optional<std::string> inline_asm_diagnostic(const std::string& assembly,
                                                 const std::string& assembler_error);

}  // namespace ventus::cc::backend
