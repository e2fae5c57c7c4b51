// Builds small bare-metal RV32 programs with the Debian riscv64-unknown-elf binutils and
// runs them under qemu-riscv32 (user mode, Linux syscalls). The tests use it as an
// independent RISC-V reference: programs write their results to stdout with `write`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ventus::testing {

// Empty when riscv64-unknown-elf-as/ld/objcopy and qemu-riscv32 are all on PATH, else what
// is missing.
std::string missing_rv_tools();

// What to assemble for and how qemu-riscv32 should model the hart.
struct RvTarget {
  std::string march;     // riscv64-unknown-elf-as -march
  std::string qemu_cpu;  // qemu-riscv32 -cpu
};
// F registers, zve32f vector unit with VLEN = 128.
const RvTarget& rv32_f_vector();
// Zfinx (FP in x registers, as Ventus), no F registers, no vector unit.
const RvTarget& rv32_zfinx();

// Assembles `assembly` (GNU as syntax, entry `_start`), links it and runs it on
// qemu-riscv32. Returns everything the program wrote to stdout. Throws std::runtime_error
// with the tool's output when a step fails.
std::vector<uint8_t> run_rv32(const std::string& assembly,
                              const RvTarget& target = rv32_f_vector());

// Assembles and links `assembly` with its code at `text_address` and returns the flat image
// from there on (objcopy -O binary), for loading into another machine's memory.
std::vector<uint8_t> flat_image(const std::string& assembly, const std::string& march,
                                uint32_t text_address);

// Little-endian 32-bit words of a program's output.
std::vector<uint32_t> words_of(const std::vector<uint8_t>& bytes);

}  // namespace ventus::testing
