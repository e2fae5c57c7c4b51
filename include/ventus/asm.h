// The Ventus assembler and static linker: GNU-as style sources -> ELF32 executable.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "ventus/abi.h"
#include "ventus/elf.h"

namespace ventus::assembler {

// .text starts at the device's code base unless Options place it elsewhere.
inline constexpr uint32_t kDefaultTextStart = abi::kCodeBase;

struct SourceFile {
  std::string name;  // used in error messages
  std::string text;
};

struct Options {
  // Start addresses of output sections (".text" -> 0x80000000 by default); the others
  // follow .text in the order .rodata, other read-only, .data, other writable, .bss.
  std::map<std::string, uint32_t> section_start;
  bool start_files = true;  // link the embedded start file (start.S) first
  size_t max_errors = 20;   // stop reporting after this many errors
  // The most bytes of contents (all sections but those without contents, like .bss) a
  // program may have: a memory bound for callers that assemble untrusted text. Beyond it
  // the statement that would add the bytes is an error.
  uint64_t max_contents_bytes = uint64_t{1} << 32;
};

// Assembles and links the sources. On errors throws ventus::Error whose message holds
// one "file:line:column: error: message" line per error (at most max_errors).
elf::Image assemble(const std::vector<SourceFile>& sources, const Options& options = {});

// The embedded start file, linked first unless Options::start_files is false.
std::string_view start_file();

// Pseudo-instruction mnemonics the assembler accepts (for documentation and suggestions).
std::vector<std::string_view> pseudo_mnemonics();

}  // namespace ventus::assembler
