// Instruction printing in the syntax of the public Ventus (LLVM) toolchain.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "ventus/isa.h"

namespace ventus::isa {

struct PrintOptions {
  bool aliases = true;            // li, mv, ret, j, csrr, beqz ... as llvm-objdump prints them
  bool absolute_targets = true;   // branch/jump targets as addresses (objdump) or offsets (asm)
  bool extended_registers = false;  // apply a preceding regext to the register numbers shown
  // PREFIX ABS/NEG shown on the source registers (bit 0 rs1/vs1, 1 rs2/vs2, 2 rs3):
  // |v2|, -v3, -|v4|.
  uint8_t abs = 0, neg = 0;
};

struct Printed {
  std::string mnemonic;
  std::string operands;
  std::optional<uint64_t> target;  // branch/jump target address, for symbol annotation
  std::string text() const { return operands.empty() ? mnemonic : mnemonic + " " + operands; }
};

// Prints one instruction at address pc: a 32-bit word, or a whole 64-bit instruction (low
// word in the low half). Returns nullopt when the word is no instruction.
// ext is the register extension of a preceding regext/regexti (used only when
// options.extended_registers is set).
std::optional<Printed> print_instruction(uint64_t word, uint64_t pc, const PrintOptions& options = {},
                                         const RegExt& ext = {});

// The instruction after a PREFIX / PREFIXI / PREFIX_MEMORY as it executes: extended
// registers, ABS/NEG on the sources and the memory modifiers in parentheses, e.g.
// "vfsub.vv v40, |v2|, -v3" or "vlw12.v v8, 0(v6) (global, 128-bit)". nullopt when the
// word is no instruction.
std::optional<std::string> prefixed_text(const PrefixInfo& prefix, uint32_t word, uint64_t pc);

}  // namespace ventus::isa
