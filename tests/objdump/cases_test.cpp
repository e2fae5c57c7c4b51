// The shipped hardware cases against the project's disassembler, listing and assembler:
// object.dump is llvm-objdump output of the public compiler's ELF, and the first launch's
// .data holds the same code at 0x80000000.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include <fmt/format.h>
#include <cstring>

#include "ventus/asm.h"
#include "ventus/listing.h"

namespace fs = std::filesystem;

namespace {

struct DumpLine {
  uint32_t address;
  uint32_t word;
  std::string text;        // "mnemonic\toperands" without the " <sym>" annotation
  std::string annotation;  // "<sym>" or ""
};

struct Dump {
  std::string raw;
  std::vector<DumpLine> lines;
  std::map<uint32_t, std::vector<std::string>> labels;
};

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

Dump parse_dump(const fs::path& p) {
  Dump d;
  d.raw = read_text(p);
  static const std::regex insn(R"(^([0-9a-f]{8}): ([0-9a-f]{2}) ([0-9a-f]{2}) ([0-9a-f]{2}) ([0-9a-f]{2})  \t(.*)$)");
  static const std::regex label(R"(^([0-9a-f]{8}) <(.*)>:$)");
  std::istringstream in(d.raw);
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_match(line, m, insn)) {
      DumpLine l;
      l.address = static_cast<uint32_t>(std::stoul(m[1], nullptr, 16));
      l.word = 0;
      for (int b = 0; b < 4; ++b) l.word |= static_cast<uint32_t>(std::stoul(m[2 + b], nullptr, 16)) << (8 * b);
      l.text = m[6];
      const size_t annotation = l.text.find(" <");
      if (annotation != std::string::npos) {
        l.annotation = l.text.substr(annotation + 1);
        l.text.resize(annotation);
      }
      d.lines.push_back(l);
    } else if (std::regex_match(line, m, label)) {
      d.labels[static_cast<uint32_t>(std::stoul(m[1], nullptr, 16))].push_back(m[2]);
    }
  }
  return d;
}

std::vector<fs::path> case_dirs_with_dump() {
  std::vector<fs::path> out;
  const fs::path root = VENTUS_CASES_DIR;
  if (!fs::is_directory(root)) return out;
  for (const auto& e : fs::directory_iterator(root))
    if (fs::exists(e.path() / "object.dump")) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

#define SKIP_WITHOUT_CASES(dirs)                                                                         \
  if ((dirs).empty())                                                                                   \
  GTEST_SKIP() << "no hardware cases with object.dump under " << VENTUS_CASES_DIR                        \
               << " (set the CMake cache variable VENTUS_CASES_DIR)"

// The project's text for one listed word, given the word before it (for regext).
TEST(Cases, EveryListedInstructionDisassemblesToTheListedText) {
  const auto dirs = case_dirs_with_dump();
  SKIP_WITHOUT_CASES(dirs);
  size_t checked = 0;
  for (const fs::path& dir : dirs) {
    const Dump d = parse_dump(dir / "object.dump");
    ASSERT_FALSE(d.lines.empty()) << dir;
    for (size_t i = 0; i < d.lines.size(); ++i) {
      const DumpLine& l = d.lines[i];
      const bool has_previous = i > 0 && d.lines[i - 1].address + 4 == l.address;
      const std::string ours = ventus::listing::instruction_text(l.word, l.address, {}, has_previous ? d.lines[i - 1].word : 0,
                                                                 has_previous);
      EXPECT_EQ(ours, l.text) << dir.filename() << " at " << std::hex << l.address;
      ++checked;
    }
  }
  EXPECT_GT(checked, 1900u);
}

// Code words from the first launch's .data/.metadata (the buffer at 0x80000000).
std::map<uint32_t, uint32_t> code_from_first_launch(const fs::path& dir) {
  const std::string case_txt = read_text(dir / "case.txt");
  const size_t launch = case_txt.find("\nlaunch ");
  if (launch == std::string::npos) return {};
  const std::string name = case_txt.substr(launch + 8, case_txt.find('\n', launch + 1) - launch - 8);
  std::vector<uint64_t> meta;
  {
    std::istringstream in(read_text(dir / (name + ".metadata")));
    std::string lo, hi;
    while (in >> lo >> hi) meta.push_back(std::stoull(lo, nullptr, 16) | std::stoull(hi, nullptr, 16) << 32);
  }
  std::vector<uint32_t> data;
  {
    std::istringstream in(read_text(dir / (name + ".data")));
    std::string w;
    while (in >> w) data.push_back(static_cast<uint32_t>(std::stoul(w, nullptr, 16)));
  }
  const size_t n = meta.at(13);  // num_buffer (14 uint64 fields precede the arrays)
  size_t line = 0;
  std::map<uint32_t, uint32_t> code;
  for (size_t i = 0; i < n; ++i) {
    const uint64_t base = meta.at(14 + i), size = meta.at(14 + n + i);
    const size_t words = (size + 3) / 4;
    if (base == 0x80000000)
      for (size_t k = 0; k < words && line + k < data.size(); ++k)
        code[static_cast<uint32_t>(base + 4 * k)] = data[line + k];
    line += words;
  }
  return code;
}

TEST(Cases, CodeBufferOfFirstLaunchEqualsListedWords) {
  const auto dirs = case_dirs_with_dump();
  SKIP_WITHOUT_CASES(dirs);
  for (const fs::path& dir : dirs) {
    const Dump d = parse_dump(dir / "object.dump");
    const auto code = code_from_first_launch(dir);
    ASSERT_FALSE(code.empty()) << dir << ": no code buffer at 0x80000000 in the first launch";
    for (const DumpLine& l : d.lines) {
      auto it = code.find(l.address);
      ASSERT_NE(it, code.end()) << dir.filename() << ": address " << std::hex << l.address << " not loaded";
      EXPECT_EQ(it->second, l.word) << dir.filename() << " at " << std::hex << l.address;
    }
  }
}

// The whole listing, header and labels included, from an image holding the listed words
// and symbols.
ventus::elf::Image image_from_dump(const Dump& d) {
  ventus::elf::Image image;
  ventus::elf::Section text;
  text.name = ".text";
  text.address = d.lines.front().address;
  text.alloc = text.exec = true;
  for (const DumpLine& l : d.lines)
    for (int b = 0; b < 4; ++b) text.bytes.push_back(static_cast<uint8_t>(l.word >> (8 * b)));
  text.size = static_cast<uint32_t>(text.bytes.size());
  image.sections.push_back(text);
  for (const auto& [address, names] : d.labels)
    for (const std::string& n : names) image.symbols.push_back({n, address, 0, false, false, false, ".text"});
  return image;
}

TEST(Cases, FullListingEqualsObjectDump) {
  const auto dirs = case_dirs_with_dump();
  SKIP_WITHOUT_CASES(dirs);
  for (const fs::path& dir : dirs) {
    const Dump d = parse_dump(dir / "object.dump");
    const std::string ours = ventus::listing::disassemble(image_from_dump(d), "object.riscv");
    EXPECT_EQ(ours, d.raw) << dir.filename();
  }
}

// The listing as assembly source (targets replaced by labels) assembles to the same words.
TEST(Cases, ListingReassemblesToTheSameWords) {
  const auto dirs = case_dirs_with_dump();
  SKIP_WITHOUT_CASES(dirs);
  static const std::regex target(R"(0x([0-9a-f]+)$)");
  for (const fs::path& dir : dirs) {
    const Dump d = parse_dump(dir / "object.dump");
    std::string source = ".text\n";
    for (const DumpLine& l : d.lines) {
      std::string text = l.text;
      std::smatch m;
      if (!l.annotation.empty() && std::regex_search(text, m, target))
        text = m.prefix().str() + "L" + m[1].str();
      source += fmt::format("L{:x}: {}\n", l.address, text);
    }
    ventus::assembler::Options options;
    options.start_files = false;
    options.section_start[".text"] = d.lines.front().address;
    ventus::elf::Image image;
    try {
      image = ventus::assembler::assemble({{dir.filename().string() + ".s", source}}, options);
    } catch (const std::exception& e) {
      ADD_FAILURE() << e.what();
      continue;
    }
    ASSERT_EQ(image.sections.at(0).bytes.size(), 4 * d.lines.size()) << dir.filename();
    for (size_t i = 0; i < d.lines.size(); ++i) {
      uint32_t w;
      std::memcpy(&w, image.sections[0].bytes.data() + 4 * i, 4);
      EXPECT_EQ(w, d.lines[i].word) << dir.filename() << ": " << d.lines[i].text;
    }
  }
}

}  // namespace
