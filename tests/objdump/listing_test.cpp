// The listing library and `ventus objdump`: every output format against text written out
// by hand from the encodings (addresses, bytes, labels, branch annotations, regext-extended
// register numbers), and the section dump and symbol values against GNU objdump.
#include "ventus/listing.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "ventus/elf.h"

namespace fs = std::filesystem;

namespace {

using namespace ventus;

// The code of the test image, word by word, with the text llvm-objdump prints for each
// (worked out from the encodings: see the comments).
struct Listed {
  uint32_t word;
  const char* text;           // default listing (aliases, raw register fields)
  const char* extended_text;  // --extended-registers, where it differs
};
constexpr Listed kCode[] = {
    {0x00500513, "li\ta0, 5", nullptr},  // addi x10, x0, 5
    // regext imm 0x041: rdext 1, rs2ext 1 -> the vadd.vv below is v33, v34, v3
    {0x0410200b, "regext\tzero, zero, 65", nullptr},
    {0x022180d7, "vadd.vv\tv1, v2, v3", "vadd.vv\tv33, v34, v3"},
    // regexti imm 0x0c1: imm_hi 3, rdext 1 -> vadd.vi v33, v2, 3 << 5 | 4 = 100
    {0x0c10300b, "regexti\tzero, zero, 193", nullptr},
    {0x022230d7, "vadd.vi\tv1, v2, 4", "vadd.vi\tv33, v2, 100"},
    {0x00b50463, "beq\ta0, a1, 0x8000001c <loop+0x4>", nullptr},  // offset +8 from 0x80000014
    {0x0000006f, "j\t0x80000018 <loop>", nullptr},                // jal zero, 0
    {0x00008067, "ret", nullptr},
    {0xffffffff, "<unknown>", nullptr},
};
constexpr uint32_t kText = 0x80000000;
constexpr std::array<uint8_t, 2> kTrailing = {0x13, 0x00};  // half a word at the end of .text

elf::Image test_image() {
  elf::Image image;
  elf::Section text;
  text.name = ".text";
  text.address = kText;
  text.alloc = text.exec = true;
  for (const Listed& l : kCode)
    for (int b = 0; b < 4; ++b) text.bytes.push_back(static_cast<uint8_t>(l.word >> (8 * b)));
  text.bytes.insert(text.bytes.end(), kTrailing.begin(), kTrailing.end());
  text.size = static_cast<uint32_t>(text.bytes.size());
  elf::Section data;
  data.name = ".data";
  data.address = 0x80000028;
  data.alloc = data.write = true;
  data.bytes = {'H', 'i', '!', 0, 0x04, 0x03, 0x02, 0x01, 0x7f, 0x80, ' ', '~'};
  data.size = static_cast<uint32_t>(data.bytes.size());
  elf::Section bss;
  bss.name = ".bss";
  bss.address = 0x80000040;
  bss.size = 0x100;
  bss.alloc = bss.write = bss.nobits = true;
  image.sections = {text, data, bss};
  image.symbols = {{"_start", kText, 0x18, true, false, true, ".text"},
                   {"loop", 0x80000018, 0, false, false, false, ".text"},
                   {"msg", 0x80000028, 4, false, true, true, ".data"},
                   {"buffer", 0x80000040, 0x100, false, true, false, ".bss"}};
  image.entry = kText;
  // Through the writer and the reader, as objdump sees a file.
  return elf::read(elf::write(image), "test.elf");
}

// The expected lines for the code at `base` (branch targets move with it).
std::string code_lines(bool extended, bool with_labels, uint32_t base = kText) {
  std::string out;
  for (size_t i = 0; i < std::size(kCode); ++i) {
    const uint32_t pc = base + 4 * static_cast<uint32_t>(i);
    if (with_labels && pc == kText) out += "\n80000000 <_start>:\n";
    if (with_labels && pc == 0x80000018) out += "\n80000018 <loop>:\n";
    const uint32_t w = kCode[i].word;
    std::string text = extended && kCode[i].extended_text ? kCode[i].extended_text : kCode[i].text;
    if (!with_labels) text = std::regex_replace(text, std::regex(" <.*>$"), "");
    for (uint32_t target : {0x80000018u, 0x8000001cu})
      text = std::regex_replace(text, std::regex(fmt::format("0x{:x}", target)),
                                fmt::format("0x{:x}", target - kText + base));
    out += fmt::format("{:8x}: {:02x} {:02x} {:02x} {:02x}  \t{}\n", pc, w & 0xff, (w >> 8) & 0xff,
                       (w >> 16) & 0xff, w >> 24, text);
  }
  out += fmt::format("{:8x}: 13 00 \t<unknown>\n", base + 0x24);
  return out;
}

TEST(Listing, DisassemblyWithLabelsAndAnnotations) {
  const elf::Image image = test_image();
  const std::string expect =
      "\ntest.elf:\tfile format elf32-littleriscv\n\nDisassembly of section .text:\n" +
      code_lines(false, true);
  EXPECT_EQ(listing::disassemble(image, "test.elf"), expect);
}

TEST(Listing, ExtendedRegistersShowRegextNumbers) {
  listing::Options options;
  options.extended_registers = true;
  const std::string expect =
      "\ntest.elf:\tfile format elf32-littleriscv\n\nDisassembly of section .text:\n" +
      code_lines(true, true);
  EXPECT_EQ(listing::disassemble(test_image(), "test.elf", options), expect);
}

TEST(Listing, NoAliasesPrintsTheRealInstructions) {
  listing::Options options;
  options.aliases = false;
  const std::string out = listing::disassemble(test_image(), "test.elf", options);
  EXPECT_NE(out.find("80000000: 13 05 50 00  \taddi\ta0, zero, 5\n"), std::string::npos) << out;
  EXPECT_NE(out.find("80000018: 6f 00 00 00  \tjal\tzero, 0x80000018 <loop>\n"), std::string::npos)
      << out;
  EXPECT_NE(out.find("8000001c: 67 80 00 00  \tjalr\tzero, 0(ra)\n"), std::string::npos) << out;
}

TEST(Listing, RawWordsAtABase) {
  std::vector<uint8_t> bytes;
  for (const Listed& l : kCode)
    for (int b = 0; b < 4; ++b) bytes.push_back(static_cast<uint8_t>(l.word >> (8 * b)));
  bytes.insert(bytes.end(), kTrailing.begin(), kTrailing.end());
  // Same words at another base: every address and branch target moves, no symbols.
  EXPECT_EQ(listing::disassemble_raw(bytes, 0x00100000),
            "\nDisassembly of raw words:\n\n" + code_lines(false, false, 0x00100000));
  EXPECT_EQ(listing::disassemble_raw(bytes, kText),
            "\nDisassembly of raw words:\n\n" + code_lines(false, false));
  listing::Options options;
  options.extended_registers = true;
  EXPECT_NE(listing::disassemble_raw(bytes, 0, options)
                .find("       8: d7 80 21 02  \tvadd.vv\tv33, v34, v3\n"),
            std::string::npos);
}

// A 64-bit instruction takes one line with its eight bytes in memory order; the words around
// it keep their addresses. A 64-bit low word without its high word is <unknown>.
TEST(Listing, SixtyFourBitInstructionIsOneLine) {
  // v64fadd.f16 v3, v5, v4, neg=1, abs=2, opsel=5: fields placed by hand from docs/isa.md.
  const uint64_t word = 0x3fu | 1u << 7 | 1u << 10 | 1u << 13 | uint64_t{3} << 20 |
                        uint64_t{1} << 28 | uint64_t{2} << 31 | uint64_t{5} << 34 |
                        uint64_t{4} << 41 | uint64_t{5} << 49;
  std::vector<uint8_t> bytes = {0x13, 0x00, 0x00, 0x00};
  for (int b = 0; b < 8; ++b) bytes.push_back(static_cast<uint8_t>(word >> (8 * b)));
  for (uint8_t b : {0x13, 0x00, 0x00, 0x00, 0xbf, 0x00, 0x00, 0x00}) bytes.push_back(b);
  std::string hex;
  for (int b = 0; b < 8; ++b) hex += fmt::format("{:02x} ", static_cast<uint8_t>(word >> (8 * b)));
  EXPECT_EQ(listing::disassemble_raw(bytes, 0x100),
            "\nDisassembly of raw words:\n\n"
            "     100: 13 00 00 00  \tnop\n"
            "     104: " + hex + " \tv64fadd.f16\tv3, v5, v4, neg=1, abs=2, opsel=5\n"
            "     10c: 13 00 00 00  \tnop\n"
            "     110: bf 00 00 00  \t<unknown>\n");
}

// After PREFIX / PREFIXI / PREFIX_MEMORY the line ends with the instruction as it runs.
TEST(Listing, PrefixedInstructionShowsItsEffect) {
  const std::vector<uint32_t> words = {
      0x77u | 1u << 7 | 2u << 24 | 1u << 27,  // prefix rd=1, abs=2, neg=1
      0x0a219457u,                            // vfsub.vv v8, v2, v3
      0x77u | 2u << 12 | 1u << 24 | 3u << 26, // prefix.mem space=1, width=3
      0x0001a47bu,                            // vlw12.v v8, 0(v3)
  };
  std::vector<uint8_t> bytes;
  for (uint32_t w : words)
    for (int b = 0; b < 4; ++b) bytes.push_back(static_cast<uint8_t>(w >> (8 * b)));
  const std::string out = listing::disassemble_raw(bytes, 0);
  EXPECT_NE(out.find("\tvfsub.vv\tv8, v2, v3\t# vfsub.vv v40, |v2|, -v3\n"), std::string::npos)
      << out;
  EXPECT_NE(out.find("\tprefix.mem\tspace=1, width=3\n"), std::string::npos) << out;
  EXPECT_NE(out.find("# vlw12.v v8, 0(v3) (global, 128-bit)\n"), std::string::npos) << out;
}

TEST(Listing, InstructionTextUsesThePreviousWord) {
  const listing::Options plain, extended{true, true};
  EXPECT_EQ(listing::instruction_text(0x022180d7, 0, extended, 0x0410200b, true),
            "vadd.vv\tv33, v34, v3");
  EXPECT_EQ(listing::instruction_text(0x022180d7, 0, extended, 0x0410200b, false),
            "vadd.vv\tv1, v2, v3");
  EXPECT_EQ(listing::instruction_text(0x022180d7, 0, plain, 0x0410200b, true),
            "vadd.vv\tv1, v2, v3");
  EXPECT_EQ(listing::instruction_text(0x022180d7, 0, extended, 0x00000013, true),
            "vadd.vv\tv1, v2, v3");
  EXPECT_EQ(listing::instruction_text(0xffffffff, 0, plain, 0, false), "<unknown>");
  // regpair/regpairi extend registers as regext/regexti do (same immediates as above).
  EXPECT_EQ(listing::instruction_text(0x022180d7, 0, extended, 0x0410500b, true),
            "vadd.vv\tv33, v34, v3");
  EXPECT_EQ(listing::instruction_text(0x022230d7, 0, extended, 0x0c10700b, true),
            "vadd.vi\tv33, v2, 100");
}

TEST(Listing, SymbolTable) {
  EXPECT_EQ(listing::symbol_table(test_image(), "test.elf"),
            "\ntest.elf:\tfile format elf32-littleriscv\n\nSYMBOL TABLE:\n"
            "80000000 g     F .text\t00000018 _start\n"
            "80000018 l       .text\t00000000 loop\n"
            "80000028 g     O .data\t00000004 msg\n"
            "80000040 l     O .bss\t00000100 buffer\n");
}

TEST(Listing, SectionHeaders) {
  EXPECT_EQ(listing::section_headers(test_image(), "test.elf"),
            "\ntest.elf:\tfile format elf32-littleriscv\n\nSections:\n"
            "Idx Name            Size     VMA      Type\n"
            "  0                 00000000 00000000 \n"
            "  1 .text           00000026 80000000 TEXT\n"
            "  2 .data           0000000c 80000028 DATA\n"
            "  3 .bss            00000100 80000040 BSS\n");
}

TEST(Listing, SectionContents) {
  EXPECT_EQ(listing::section_contents(test_image(), "test.elf"),
            "\ntest.elf:\tfile format elf32-littleriscv\n"
            "Contents of section .text:\n"
            " 80000000 13055000 0b201004 d7802102 0b30100c  ..P.. ....!..0..\n"
            " 80000010 d7302202 6304b500 6f000000 67800000  .0\".c...o...g...\n"
            " 80000020 ffffffff 1300                        ......          \n"
            "Contents of section .data:\n"
            " 80000028 48692100 04030201 7f80207e           Hi!....... ~    \n");
}

// ---------------------------------------------------------------- against GNU objdump

bool have_gnu_objdump() {
  return std::system("riscv64-unknown-elf-objdump --version >/dev/null 2>&1") == 0;
}

std::string run(const std::string& command) {
  std::string out;
  FILE* p = popen(command.c_str(), "r");
  if (!p) return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  pclose(p);
  return out;
}

std::vector<std::string> lines_matching(const std::string& text, const std::regex& re) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (std::regex_match(line, re)) out.push_back(line);
  return out;
}

TEST(Listing, ContentsAndSymbolsAgreeWithGnuObjdump) {
  if (!have_gnu_objdump()) GTEST_SKIP() << "riscv64-unknown-elf-objdump not installed";
  const fs::path file = fs::temp_directory_path() / fmt::format("ventus_listing_{}.elf", getpid());
  elf::Image image = test_image();
  elf::write_file(file.string(), image);
  const std::string gnu_s = run("riscv64-unknown-elf-objdump -s " + file.string());
  const std::string gnu_t = run("riscv64-unknown-elf-objdump -t " + file.string());
  fs::remove(file);
  // -s rows have the same layout in both tools.
  const std::regex row(R"( [0-9a-f]{8} .*)");
  ASSERT_EQ(lines_matching(gnu_s, row).size(), 4u) << gnu_s;
  EXPECT_EQ(lines_matching(listing::section_contents(image, "x"), row), lines_matching(gnu_s, row));
  // -t: GNU adds section and file symbols ("d"); the others must agree in value, binding,
  // type, section, size and name.
  const std::regex symbol(R"([0-9a-f]{8} [lg ] {5}[FO ] \S+\t[0-9a-f]{8} .+)");
  std::set<std::string> gnu_symbols, ours;
  for (const std::string& line : lines_matching(gnu_t, symbol)) gnu_symbols.insert(line);
  for (const std::string& line : lines_matching(listing::symbol_table(image, "x"), symbol))
    ours.insert(line);
  EXPECT_EQ(gnu_symbols.size(), image.symbols.size()) << gnu_t;
  EXPECT_EQ(ours, gnu_symbols) << gnu_t;
}

// ---------------------------------------------------------------- the command line

#ifdef VENTUS_BINARY
struct CommandResult {
  int status;
  std::string out;
};

// The binary CMake built, or the one the environment variable VENTUS_BINARY names.
std::string ventus_binary() {
  const char* env = std::getenv("VENTUS_BINARY");
  return env && *env ? env : VENTUS_BINARY;
}

CommandResult ventus(const std::string& args) {
  const std::string command = ventus_binary() + " " + args + " 2>&1";
  FILE* p = popen(command.c_str(), "r");
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int status = pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

class ObjdumpCli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(ventus_binary())) GTEST_SKIP() << ventus_binary() << " is not built";
    dir_ = fs::temp_directory_path() / fmt::format("ventus_objdump_cli_{}", getpid());
    fs::create_directories(dir_);
    elf_ = (dir_ / "test.elf").string();
    elf::write_file(elf_, test_image());
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
  std::string elf_;
};

TEST_F(ObjdumpCli, OptionsSelectTheListings) {
  const elf::Image image = test_image();
  EXPECT_EQ(ventus("objdump " + elf_).out, listing::disassemble(image, elf_));
  EXPECT_EQ(ventus("objdump -d " + elf_).out, listing::disassemble(image, elf_));
  listing::Options extended;
  extended.extended_registers = true;
  EXPECT_EQ(ventus("objdump --extended-registers " + elf_).out,
            listing::disassemble(image, elf_, extended));
  EXPECT_EQ(ventus("objdump -X " + elf_).out, listing::disassemble(image, elf_, extended));
  // Tables in the order -h, -t, -s; -d adds the disassembly after them.
  EXPECT_EQ(ventus("objdump -s -t -h " + elf_).out, listing::section_headers(image, elf_) +
                                                        listing::symbol_table(image, elf_) +
                                                        listing::section_contents(image, elf_));
  EXPECT_EQ(ventus("objdump -t -d " + elf_).out,
            listing::symbol_table(image, elf_) + listing::disassemble(image, elf_));
}

TEST_F(ObjdumpCli, RawWordsWithBase) {
  const std::string raw = (dir_ / "code.bin").string();
  std::ofstream(raw, std::ios::binary).write("\x13\x05\x50\x00\x6f\x00\x00\x00", 8);
  EXPECT_EQ(ventus("objdump --raw --base 0x100 " + raw).out,
            "\nDisassembly of raw words:\n\n     100: 13 05 50 00  \tli\ta0, 5\n     104: 6f 00 00 "
            "00  \tj\t0x104\n");
  EXPECT_EQ(ventus("objdump --raw " + raw).out.substr(0, 40),
            "\nDisassembly of raw words:\n\n80000000: 13");
}

TEST_F(ObjdumpCli, BadInputExitsWithStatusOne) {
  const std::string missing = (dir_ / "missing.elf").string();
  CommandResult r = ventus("objdump " + missing);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "ventus objdump: error: " + missing + ": cannot open file\n");
  const std::string text = (dir_ / "text.s").string();
  std::ofstream(text) << "nop\n";
  r = ventus("objdump " + text);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "ventus objdump: error: " + text + ": not an ELF file (bad magic number)\n");
  r = ventus("objdump --raw -t " + text);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "ventus objdump: error: -t, -h and -s need an ELF file, not --raw\n");
  r = ventus("objdump --raw --base 0x1g " + text);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "ventus objdump: error: --base: '0x1g' is not a 32-bit address\n");
}
#endif

}  // namespace
