// Listings of ELF images and raw code in the format of llvm-objdump (disassembly, symbol
// table, section headers, section contents).
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "ventus/elf.h"

namespace ventus::listing {

struct Options {
  bool aliases = true;              // print li, mv, ret, ... as llvm-objdump does
  bool extended_registers = false;  // apply a preceding regext/regexti to register numbers
};

// "Disassembly of section NAME:" for every executable section, with symbol labels and
// branch targets annotated as <sym> or <sym+0xN>. `file_name` goes in the header line.
std::string disassemble(const elf::Image& image, const std::string& file_name, const Options& options = {});
// Raw little-endian words starting at `base` (no symbols). A trailing partial word is
// printed as bytes.
std::string disassemble_raw(std::span<const uint8_t> bytes, uint32_t base, const Options& options = {});
// One disassembly line without the address/bytes: "mnemonic\toperands" or "<unknown>".
std::string instruction_text(uint32_t word, uint32_t pc, const Options& options, uint32_t previous_word,
                             bool has_previous);

std::string symbol_table(const elf::Image& image, const std::string& file_name);
std::string section_headers(const elf::Image& image, const std::string& file_name);
std::string section_contents(const elf::Image& image, const std::string& file_name);

}  // namespace ventus::listing
