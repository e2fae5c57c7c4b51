// Hostile sizes for the assembler (issue 16): deep and long expressions, long .equ chains,
// arithmetic that overflows, fills past the address space, many sections. Each input either
// assembles to the right value or fails with a clear error at its line; none crashes, none
// takes long.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <string>

#include "test_util.h"
#include "ventus/asm.h"
#include "ventus/elf.h"
#include "ventus/error.h"

namespace ventus::test {
namespace {

using Clock = std::chrono::steady_clock;

std::string repeat(std::string_view piece, size_t n) {
  std::string out;
  out.reserve(piece.size() * n);
  for (size_t i = 0; i < n; ++i) out += piece;
  return out;
}

// The first word of .data of a program.
int64_t data_word(const std::string& source) {
  const elf::Image image = assemble_text(".data\n" + source);
  const std::vector<uint32_t> words = words_of(section(image, ".data"));
  EXPECT_FALSE(words.empty());
  return words.empty() ? -1 : static_cast<int32_t>(words[0]);
}

TEST(AssemblerLimits, DeepParenthesesAreAnErrorAtTheirLine) {
  const std::string deep = ".data\n.word " + repeat("(", 5000) + "1" + repeat(")", 5000) + "\n";
  const std::string error = assembly_error(deep);
  EXPECT_NE(error.find("test.s:2:"), std::string::npos) << error;
  EXPECT_NE(error.find("expression nests parentheses more than 100 deep"), std::string::npos)
      << error;
  // The limit itself is fine, also through the %-operators.
  EXPECT_EQ(data_word(".word " + repeat("(", 100) + "7" + repeat(")", 100)), 7);
  EXPECT_EQ(data_word(".word %lo(" + repeat("(", 99) + "7" + repeat(")", 99) + ")"), 7);
  EXPECT_NE(assembly_error(".word %lo(" + repeat("(", 100) + "7" + repeat(")", 100) + ")")
                .find("more than 100 deep"),
            std::string::npos);
}

TEST(AssemblerLimits, LongUnaryChainsAndSumsAreEvaluated) {
  EXPECT_EQ(data_word(".word " + repeat("-", 100000) + "5"), 5);
  EXPECT_EQ(data_word(".word " + repeat("- ", 99999) + "5"), -5);
  EXPECT_EQ(data_word(".word " + repeat("~", 100001) + "0"), -1);
  EXPECT_EQ(data_word(".word " + repeat("!", 100000) + "9"), 1);
  EXPECT_EQ(data_word(".word 0" + repeat(" + 1", 100000)), 100000);
  EXPECT_EQ(data_word(".word 1" + repeat("*1", 100000) + repeat("-1", 3)), -2);
  // Left to right, with precedence between the levels.
  EXPECT_EQ(data_word(".word 100 - 10 - 1 + 2 * 3 * 4 / 8"), 92);
  EXPECT_EQ(data_word(".word 1 << 4 >> 2 | 1 ^ 3 & 6"), 7);
}

TEST(AssemblerLimits, EquChainsReferringForwardHaveADepthLimit) {
  // Defined before what they refer to: each is evaluated on use, through the whole chain.
  const auto chain = [](int n) {
    std::string s = ".data\n.word a0\n";
    for (int i = 0; i < n; ++i) s += fmt::format(".equ a{}, a{} + 1\n", i, i + 1);
    return s + fmt::format(".equ a{}, 0\n", n);
  };
  EXPECT_EQ(words_of(section(assemble_text(chain(255)), ".data"))[0], 255u);
  const auto started = Clock::now();
  const std::string error = assembly_error(chain(100000));
  EXPECT_LT(Clock::now() - started, std::chrono::seconds(30));
  EXPECT_NE(error.find("depends on a chain of more than 256 symbols defined later"),
            std::string::npos)
      << error.substr(0, 500);
  EXPECT_NE(error.find("test.s:"), std::string::npos) << error.substr(0, 500);

  // Defined in order, a chain of any length is one value each.
  std::string in_order = ".data\n.equ b0, 0\n";
  for (int i = 1; i <= 100000; ++i) in_order += fmt::format(".equ b{}, b{} + 1\n", i, i - 1);
  EXPECT_EQ(words_of(section(assemble_text(in_order + ".word b100000\n"), ".data"))[0], 100000u);

  // A symbol built on the same earlier symbol twice at every step: 2^40 paths, 40 values.
  std::string diamond = ".data\n.dword d40\n";
  for (int i = 40; i >= 1; --i) diamond += fmt::format(".equ d{}, d{} + d{}\n", i, i - 1, i - 1);
  diamond += ".equ d0, 1\n";
  const auto diamond_started = Clock::now();
  const std::vector<uint8_t> bytes = section(assemble_text(diamond), ".data").bytes;
  EXPECT_LT(Clock::now() - diamond_started, std::chrono::seconds(30));
  ASSERT_EQ(bytes.size(), 8u);
  uint64_t value = 0;
  std::memcpy(&value, bytes.data(), 8);
  EXPECT_EQ(value, uint64_t{1} << 40);

  EXPECT_NE(assembly_error(".data\n.word x\n.equ x, y\n.equ y, x + 1\n")
                .find("symbol 'x' is defined in terms of itself"),
            std::string::npos)
      << assembly_error(".data\n.word x\n.equ x, y\n.equ y, x + 1\n");
}

TEST(AssemblerLimits, ArithmeticThatOverflowsIsAnError) {
  const auto error_of = [](const std::string& line) {
    return assembly_error(".data\n" + line + "\n");
  };
  for (const std::string line :
       {".word 0x100000000 * 0x100000000", ".dword 0x7fffffffffffffff + 1",
        ".dword -0x7fffffffffffffff - 2", ".dword -(-0x7fffffffffffffff - 1)", ".dword 1 << 63",
        ".dword 0x100000000 << 32", ".equ p, 0x10000 * 0x10000 * 0x10000 * 0x10000",
        ".dword (-0x7fffffffffffffff - 1) / -1"}) {
    const std::string error = error_of(line);
    EXPECT_NE(error.find("test.s:2:"), std::string::npos) << line << ": " << error;
    EXPECT_NE(error.find("overflow in expression"), std::string::npos) << line << ": " << error;
  }
  EXPECT_NE(assembly_error("li a0, 0x1000000000000 * 0x10000").find("overflow in expression"),
            std::string::npos);
  // What fits stays exact: the extremes, and shifts that keep the sign.
  EXPECT_EQ(error_of(".dword 0x7fffffffffffffff, -0x7fffffffffffffff - 1, -1 << 63, 1 << 62"), "");
  EXPECT_NE(error_of(".word 0x100000000").find("value 4294967296 does not fit in 4 bytes"),
            std::string::npos);
  EXPECT_NE(assembly_error("x: nop\n.size x, 0x100000000")
                .find("test.s:2:10: error: size 4294967296 of 'x' is not in [0, 4 GiB)"),
            std::string::npos)
      << assembly_error("x: nop\n.size x, 0x100000000");
  EXPECT_NE(assembly_error("lui a0, %hi(0x123456789)")
                .find("value 0x123456789 of %hi does not fit in 32 bits"),
            std::string::npos);
  EXPECT_NE(assembly_error("x: lui a0, %hi(%lo(x))")
                .find("%lo inside %hi(...): relocation operators do not nest"),
            std::string::npos);
  EXPECT_NE(assembly_error("1: auipc a0, %pcrel_hi(%pcrel_lo(1b))").find("do not nest"),
            std::string::npos);
}

TEST(AssemblerLimits, FillValuesMustBeBytes) {
  EXPECT_NE(assembly_error(".data\n.space 4, 0x1234")
                .find("test.s:2:11: error: fill value 4660 does not fit in a byte"),
            std::string::npos)
      << assembly_error(".data\n.space 4, 0x1234");
  EXPECT_NE(assembly_error(".data\n.balign 8, 256").find("fill value 256 does not fit in a byte"),
            std::string::npos);
  const elf::Image image = assemble_text(".data\n.byte 1\n.balign 4, -1\n.space 2, 0x80\n");
  EXPECT_EQ(section(image, ".data").bytes, (std::vector<uint8_t>{1, 0xff, 0xff, 0xff, 0x80, 0x80}));
}

TEST(AssemblerLimits, AlignmentHonoursTheMaximumPadding) {
  EXPECT_EQ(section(assemble_text(".data\n.byte 1\n.p2align 3, 0, 6\n.byte 2\n"), ".data").size,
            2u);
  EXPECT_EQ(section(assemble_text(".data\n.byte 1\n.p2align 3, 0, 7\n.byte 2\n"), ".data").size,
            9u);
  EXPECT_EQ(section(assemble_text(".data\n.byte 1\n.balign 4, 9, 3\n"), ".data").bytes,
            (std::vector<uint8_t>{1, 9, 9, 9}));
}

TEST(AssemblerLimits, FillBeyondTheAddressSpaceFailsBeforeAllocating) {
  // 0x80000000 bytes fit from .text's 0x80000000 to 4 GiB; the ninth 256 MiB do not. Zero
  // fill at the end of a section is not stored, so this costs no memory either way.
  for (const char* section_name : {".data", ".bss"}) {
    const std::string source =
        fmt::format(".section {}\n", section_name) + repeat(".space 0x10000000\n", 16);
    const auto started = Clock::now();
    const std::string error = assembly_error(source);
    EXPECT_LT(Clock::now() - started, std::chrono::seconds(30));
    EXPECT_NE(error.find("test.s:10:"), std::string::npos) << error;
    EXPECT_NE(error.find("268435456 more bytes in '"), std::string::npos) << error;
    EXPECT_NE(error.find("more than the 0x80000000 bytes from 0x80000000 to the end of the 32-bit "
                         "address space"),
              std::string::npos)
        << error;
  }
  // Non-zero fill is stored: with .text at 0xfff00000 only 1 MiB is left.
  assembler::Options options;
  options.start_files = false;
  options.section_start[".text"] = 0xfff00000;
  try {
    assembler::assemble({{"big.s", ".data\n" + repeat(".space 0x60000, 1\n", 3)}}, options);
    ADD_FAILURE() << "assembled";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("big.s:4:8: error: 393216 more bytes in '.data' make the "
                                         "program's sections 1179648 bytes, more than the 0x100000 "
                                         "bytes from 0xfff00000"),
              std::string::npos)
        << e.what();
  }
  // Sections that are not allocated take no addresses, but their contents count against
  // Options::max_contents_bytes (4 GiB by default).
  options = {};
  options.start_files = false;
  options.max_contents_bytes = 0x1000;
  try {
    assembler::assemble({{"note.s", ".section .note\n.space 0x800, 1\n.space 0x801, 1\n"}},
                        options);
    ADD_FAILURE() << "assembled";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("note.s:3:8: error: 2049 more bytes in '.note' make the "
                                         "program's contents 4097 bytes, more than the limit of "
                                         "4096"),
              std::string::npos)
        << e.what();
  }
  // A fill the program's contents then extend is stored as zeros.
  const elf::Image image = assemble_text(".data\n.byte 7\n.zero 3\n.byte 8\n.zero 2\n");
  EXPECT_EQ(section(image, ".data").bytes, (std::vector<uint8_t>{7, 0, 0, 0, 8, 0, 0}));
}

TEST(AssemblerLimits, ManySectionsAssembleInLinearTime) {
  // 20,000 sections took about a minute when layout compared every pair of sections.
  std::string source;
  for (int i = 0; i < 20000; ++i) source += fmt::format(".section .s{}, \"a\"\n.word {}\n", i, i);
  const auto started = Clock::now();
  const elf::Image image = assemble_text(source);
  const std::vector<uint8_t> bytes = elf::write(image);
  EXPECT_LT(Clock::now() - started, std::chrono::seconds(10));
  EXPECT_EQ(elf::read(bytes).sections.size(), 20001u);  // and .text
  EXPECT_EQ(section(image, ".s19999").address, 0x80000000u + 4 * 19999);

  // Overlaps are still found, in address order, each with the section reaching furthest.
  assembler::Options options;
  options.start_files = false;
  options.section_start[".b"] = 0x80000010;
  try {
    assembler::assemble({{"o.s", ".section .a, \"a\"\n.space 64\n.section .b, \"a\"\n.word 1\n"}},
                        options);
    ADD_FAILURE() << "assembled";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("link: error: sections '.a' [0x80000000, 0x80000040) and "
                                         "'.b' [0x80000010, 0x80000014) overlap"),
              std::string::npos)
        << e.what();
  }
}

TEST(AssemblerLimits, PcrelLoTakesNumericLocalLabels) {
  const std::vector<uint32_t> words =
      text_words("1: auipc a0, %pcrel_hi(x)\naddi a0, a0, %pcrel_lo(1b)\nnop\nx: nop\n");
  ASSERT_EQ(words.size(), 4u);
  EXPECT_EQ(words[1] >> 20, 12u);  // x is 12 bytes after the auipc
}

TEST(ElfWriter, TooManySectionsIsAnError) {
  elf::Image image;
  image.sections.resize(65277);
  for (size_t i = 0; i < image.sections.size(); ++i) image.sections[i].name = ".s";
  try {
    elf::write(image);
    ADD_FAILURE() << "written";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "ELF writer: 65277 sections; an executable holds at most 65276");
  }
}

}  // namespace
}  // namespace ventus::test
