// llvm-objdump style listings.
#include "ventus/listing.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>

#include "ventus/disasm.h"
#include "ventus/isa.h"

namespace ventus::listing {
namespace {

std::string header(const std::string& file_name) {
  return fmt::format("\n{}:\tfile format elf32-littleriscv\n", file_name);
}

uint32_t word_at(std::span<const uint8_t> bytes, size_t i) {
  return bytes[i] | bytes[i + 1] << 8 | bytes[i + 2] << 16 | static_cast<uint32_t>(bytes[i + 3]) << 24;
}

// The register extension a preceding prefix applies (regext, regexti, regpair, regpairi,
// prefix, prefixi, prefix.mem; none otherwise).
isa::RegExt extension_from(uint32_t previous_word, bool has_previous) {
  if (!has_previous) return {};
  const auto prefix = isa::prefix_info(previous_word);
  return prefix ? prefix->ext : isa::RegExt{};
}

std::string target_annotation(const elf::Image* image, uint64_t target) {
  if (!image) return "";
  const elf::Symbol* s = image->symbol_at(static_cast<uint32_t>(target));
  if (!s) return "";
  if (s->value == target) return fmt::format(" <{}>", s->name);
  return fmt::format(" <{}+0x{:x}>", s->name, target - s->value);
}

// One listing line for the instruction at bytes[i]; `length` is set to the bytes it takes.
// A 64-bit instruction shows its eight bytes in memory order, as llvm-objdump shows long
// RISC-V encodings, and one line of text.
// `previous` is the length of the instruction before (0 at the start): the word before a
// 64-bit instruction's successor is its high word, never a prefix.
std::string line(uint32_t pc, std::span<const uint8_t> bytes, size_t i, const Options& o,
                 const elf::Image* image, size_t& length, size_t previous) {
  length = 4;
  if (i + 4 > bytes.size()) {
    std::string hex;
    for (size_t k = i; k < bytes.size(); ++k) hex += fmt::format("{:02x} ", bytes[k]);
    length = bytes.size() - i;
    return fmt::format("{:8x}: {}\t<unknown>\n", pc, hex);
  }
  const uint32_t word = word_at(bytes, i);
  uint64_t whole = word;
  if (isa::instruction_length(word) == 8 && i + 8 <= bytes.size()) {
    length = 8;
    whole |= uint64_t{word_at(bytes, i + 4)} << 32;
  }
  std::string text;
  const bool after_word = previous == 4;
  const isa::RegExt ext = after_word ? extension_from(word_at(bytes, i - 4), true) : isa::RegExt{};
  isa::PrintOptions po;
  po.aliases = o.aliases;
  po.extended_registers = o.extended_registers;
  const auto p = isa::instruction_length(word) == length ? isa::print_instruction(whole, pc, po, ext)
                                                         : std::nullopt;
  if (p) {
    text = p->operands.empty() ? p->mnemonic : p->mnemonic + "\t" + p->operands;
    if (p->target) text += target_annotation(image, *p->target);
    // After PREFIX / PREFIXI / PREFIX_MEMORY: the instruction as it executes, as a comment.
    if (const auto prefix = after_word ? isa::prefix_info(word_at(bytes, i - 4)) : std::nullopt;
        prefix && length == 4 && isa::is_modifier_prefix(prefix->op))
      if (const auto combined = isa::prefixed_text(*prefix, word, pc)) text += "\t# " + *combined;
  } else {
    text = "<unknown>";
  }
  std::string hex;
  for (size_t k = i; k < i + length; ++k) hex += fmt::format("{:02x} ", bytes[k]);
  return fmt::format("{:8x}: {} \t{}\n", pc, hex, text);
}

}  // namespace

std::string instruction_text(uint32_t word, uint32_t pc, const Options& o, uint32_t previous_word,
                             bool has_previous) {
  isa::PrintOptions po;
  po.aliases = o.aliases;
  po.extended_registers = o.extended_registers;
  auto p = isa::print_instruction(word, pc, po, extension_from(previous_word, has_previous));
  if (!p) return "<unknown>";
  return p->operands.empty() ? p->mnemonic : p->mnemonic + "\t" + p->operands;
}

std::string disassemble(const elf::Image& image, const std::string& file_name, const Options& o) {
  std::string out = header(file_name);
  for (const elf::Section& s : image.sections) {
    if (!s.exec || s.nobits) continue;
    out += fmt::format("\nDisassembly of section {}:\n", s.name);
    std::multimap<uint32_t, const elf::Symbol*> labels;
    for (const elf::Symbol& sym : image.symbols)
      if (sym.section == s.name) labels.emplace(sym.value, &sym);
    const std::span<const uint8_t> bytes = s.bytes;
    for (size_t i = 0, length = 0, previous = 0; i < bytes.size(); i += length, previous = length) {
      const uint32_t pc = s.address + static_cast<uint32_t>(i);
      auto [first, last] = labels.equal_range(pc);
      for (auto it = first; it != last; ++it) out += fmt::format("\n{:08x} <{}>:\n", pc, it->second->name);
      out += line(pc, bytes, i, o, &image, length, previous);
    }
  }
  return out;
}

std::string disassemble_raw(std::span<const uint8_t> bytes, uint32_t base, const Options& o) {
  std::string out = "\nDisassembly of raw words:\n\n";
  for (size_t i = 0, length = 0, previous = 0; i < bytes.size(); i += length, previous = length)
    out += line(base + static_cast<uint32_t>(i), bytes, i, o, nullptr, length, previous);
  return out;
}

std::string symbol_table(const elf::Image& image, const std::string& file_name) {
  std::string out = header(file_name) + "\nSYMBOL TABLE:\n";
  for (const elf::Symbol& s : image.symbols)
    out += fmt::format("{:08x} {}     {} {}\t{:08x} {}\n", s.value, s.global ? 'g' : 'l',
                       s.function ? 'F' : s.object ? 'O' : ' ', s.section.empty() ? "*ABS*" : s.section, s.size,
                       s.name);
  return out;
}

std::string section_headers(const elf::Image& image, const std::string& file_name) {
  std::string out = header(file_name) + "\nSections:\nIdx Name            Size     VMA      Type\n";
  out += "  0                 00000000 00000000 \n";
  int index = 1;
  for (const elf::Section& s : image.sections) {
    const char* type = s.exec ? "TEXT" : s.nobits ? "BSS" : s.alloc ? "DATA" : "";
    out += fmt::format("{:3} {:<15} {:08x} {:08x} {}\n", index++, s.name, s.size, s.address, type);
  }
  return out;
}

std::string section_contents(const elf::Image& image, const std::string& file_name) {
  std::string out = header(file_name);
  for (const elf::Section& s : image.sections) {
    if (s.nobits || s.bytes.empty()) continue;
    out += fmt::format("Contents of section {}:\n", s.name);
    for (size_t row = 0; row < s.bytes.size(); row += 16) {
      std::string hex, ascii;
      for (size_t k = 0; k < 16; ++k) {
        if (k && k % 4 == 0) hex += ' ';
        if (row + k < s.bytes.size()) {
          const uint8_t b = s.bytes[row + k];
          hex += fmt::format("{:02x}", b);
          ascii += std::isprint(b) ? static_cast<char>(b) : '.';
        } else {
          hex += "  ";
          ascii += ' ';
        }
      }
      out += fmt::format(" {:04x} {}  {}\n", s.address + row, hex, ascii);
    }
  }
  return out;
}

}  // namespace ventus::listing
