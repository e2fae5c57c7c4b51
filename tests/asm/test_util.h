// Helpers for the assembler tests.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "ventus/asm.h"
#include "ventus/elf.h"

namespace ventus::test {

// Assembles one source without the start file, .text at 0x80000000.
inline elf::Image assemble_text(const std::string& source, const std::string& name = "test.s") {
  assembler::Options options;
  options.start_files = false;
  return assembler::assemble({{name, source}}, options);
}

inline const elf::Section& section(const elf::Image& image, const std::string& name) {
  for (const elf::Section& s : image.sections)
    if (s.name == name) return s;
  throw std::runtime_error("no section " + name);
}

inline std::vector<uint32_t> words_of(const elf::Section& s) {
  std::vector<uint32_t> out(s.bytes.size() / 4);
  std::memcpy(out.data(), s.bytes.data(), out.size() * 4);
  return out;
}

inline std::vector<uint32_t> text_words(const std::string& source) {
  return words_of(section(assemble_text(source), ".text"));
}

// The error message of assembling `source`, or "" when it assembles.
inline std::string assembly_error(const std::string& source) {
  try {
    assemble_text(source);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

}  // namespace ventus::test
