// Builds small bare-metal RV32 programs with the Debian riscv64-unknown-elf binutils and
// runs them under qemu-riscv32 (user mode, Linux syscalls). The tests use it as an
// independent RISC-V reference: programs write their results to stdout with `write`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ventus::testing {

// Empty when riscv64-unknown-elf-as/ld and qemu-riscv32 are all on PATH, else what is missing.
std::string missing_rv_tools();

// Assembles `assembly` (GNU as syntax, entry `_start`) for rv32imf + zve32f, links it and runs
// it on qemu-riscv32 with a 128-bit vector unit. Returns everything the program wrote to
// stdout. Throws std::runtime_error with the tool's output when a step fails.
std::vector<uint8_t> run_rv32(const std::string& assembly);

// Little-endian 32-bit words of a program's output.
std::vector<uint32_t> words_of(const std::vector<uint8_t>& bytes);

}  // namespace ventus::testing
