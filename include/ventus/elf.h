// Reading and writing the ELF32 RISC-V executables the toolchain produces (libelf).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ventus::elf {

struct Section {
  std::string name;
  uint32_t address = 0;
  uint32_t size = 0;           // in memory (NOBITS sections have no bytes)
  std::vector<uint8_t> bytes;  // file contents (empty for .bss)
  uint32_t align = 4;          // power of two
  bool alloc = false, exec = false, write = false, nobits = false;
};

struct Symbol {
  std::string name;
  uint32_t value = 0;
  uint32_t size = 0;
  bool function = false;
  bool object = false;  // .type NAME, @object
  bool global = false;
  std::string section;  // name of the section it is defined in ("" = absolute/undefined)
};

struct Image {
  uint32_t entry = 0;
  std::vector<Section> sections;  // in file order, without the null section
  std::vector<Symbol> symbols;    // sorted by value
  std::optional<uint32_t> symbol_address(std::string_view name) const;
  // The symbol covering address (function or label), for listings and messages.
  const Symbol* symbol_at(uint32_t address) const;
};

// Throws ventus::Error with a clear message on malformed input.
// Whether bytes start with the ELF magic number (\x7fELF).
inline bool has_magic(std::span<const uint8_t> bytes) {
  return bytes.size() >= 4 && bytes[0] == 0x7f && bytes[1] == 'E' && bytes[2] == 'L' &&
         bytes[3] == 'F';
}
Image read(std::span<const uint8_t> bytes, const std::string& name_for_errors = "<memory>");
Image read_file(const std::string& path);
void write_file(const std::string& path, const Image& image);
std::vector<uint8_t> write(const Image& image);

}  // namespace ventus::elf
