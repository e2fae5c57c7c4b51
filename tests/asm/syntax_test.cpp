// The assembler's later syntax: symbol loads and stores (auipc pairs), call with a link
// register, jump, character constants and escapes, regexti for wide vector immediates and
// section placement. Expected values come from GNU binutils where it agrees with the LLVM
// syntax the Ventus toolchain follows, from C++ literals, and from the decoder.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "test_util.h"
#include "ventus/disasm.h"
#include "ventus/error.h"
#include "ventus/isa.h"

namespace fs = std::filesystem;

namespace {

using namespace ventus;
using test::assemble_text;
using test::assembly_error;
using test::section;
using test::text_words;

isa::Decoded decoded(uint32_t word, const isa::RegExt& ext = {}) {
  auto d = isa::decode(word, ext);
  EXPECT_TRUE(d.has_value()) << std::hex << word;
  return d.value_or(isa::Decoded{});
}

// auipc + I/S-type pair: the address the pair reaches.
uint32_t pair_target(uint32_t pc, uint32_t auipc, uint32_t second) {
  return pc + (static_cast<uint32_t>(decoded(auipc).imm) << 12) +
         static_cast<uint32_t>(decoded(second).imm);
}

bool have_gnu_toolchain() {
  return std::system("riscv64-unknown-elf-as --version >/dev/null 2>&1") == 0 &&
         std::system("riscv64-unknown-elf-ld --version >/dev/null 2>&1") == 0;
}

// The forms GNU as and the LLVM syntax agree on. GNU differs from LLVM in `call rd, sym`
// (GNU: auipc t1; LLVM and Ventus: auipc rd) and in character constants with octal, hex or
// \0 escapes (GNU reads '\0' as '0'), so those are checked against hand-computed values below.
constexpr const char* kGnuComparable = R"(
    .option norelax
    .text
    .globl _start
_start:
    lw a0, value
    sw a1, value, t0
    lbu a2, value+1
    lh a3, value
    lhu a5, value+2
    lb a6, value+3
    sb a4, value+3, t1
    sh a4, value+2, t2
    call func
    jump func, t2
    tail func
    li a3, 'a'
    li a4, '\n'
    li a5, ','
    li a6, '#'
    li t4, '\''
    li t5, '\\'
    addi a0, a0, ';'
func:
    ret
    .data
value:
    .word 0x11223344
    .string "a\n\t\\\"\0\x41\101;#'"
    .ascii "\r\b\f\v"
    .byte 'z', '\t', '"', '('
)";

TEST(GnuCrossCheck, SymbolAccessCallsAndCharacterConstants) {
  if (!have_gnu_toolchain()) GTEST_SKIP() << "riscv64-unknown-elf-as/ld not installed";
  const fs::path dir = fs::temp_directory_path() / fmt::format("ventus_syntax_{}", getpid());
  fs::create_directories(dir);
  { std::ofstream(dir / "in.s") << kGnuComparable; }
  const std::string cmd = fmt::format(
      "cd {} && riscv64-unknown-elf-as -march=rv32ima_zicsr -mabi=ilp32 -mno-relax in.s -o in.o "
      "2>err.txt && "
      "riscv64-unknown-elf-ld -m elf32lriscv -Ttext=0x80000000 in.o -o in.elf 2>>err.txt",
      dir.string());
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  const elf::Image gnu = elf::read_file((dir / "in.elf").string());
  fs::remove_all(dir);

  assembler::Options options;
  options.start_files = false;
  options.section_start[".data"] = section(gnu, ".data").address;  // GNU ld page-aligns .data
  const elf::Image ours = assembler::assemble({{"in.s", kGnuComparable}}, options);
  for (const char* name : {".text", ".data"}) {
    const elf::Section &g = section(gnu, name), &o = section(ours, name);
    EXPECT_EQ(o.address, g.address) << name;
    EXPECT_EQ(o.bytes, g.bytes) << name;
  }
}

TEST(SymbolAccess, LoadsAndStoresReachTheSymbol) {
  const auto image = assemble_text(R"(
    lw a0, value
    sw a1, value+4, t0
    lbu a2, value-1
    lw a3, 8(a3)        # the register form stays one instruction
    lw a4, (a4)
    .data
    .space 0x900        # beyond a 12-bit offset from .text
    .byte 0
value: .word 1, 2
)");
  const auto w = test::words_of(section(image, ".text"));
  ASSERT_EQ(w.size(), 8u);
  const uint32_t value = *image.symbol_address("value");
  EXPECT_EQ(decoded(w[0]).op, isa::Op::AUIPC);
  EXPECT_EQ(decoded(w[0]).rd, 10);  // lw loads through its own destination
  EXPECT_EQ(decoded(w[1]).op, isa::Op::LW);
  EXPECT_EQ(decoded(w[1]).rs1, 10);
  EXPECT_EQ(pair_target(0x80000000, w[0], w[1]), value);
  EXPECT_EQ(decoded(w[2]).rd, 5);  // sw needs the scratch register t0 for the address
  EXPECT_EQ(decoded(w[3]).op, isa::Op::SW);
  EXPECT_EQ(decoded(w[3]).rs1, 5);
  EXPECT_EQ(decoded(w[3]).rs2, 11);
  EXPECT_EQ(pair_target(0x80000008, w[2], w[3]), value + 4);
  EXPECT_EQ(decoded(w[5]).op, isa::Op::LBU);
  EXPECT_EQ(pair_target(0x80000010, w[4], w[5]), value - 1);
  EXPECT_EQ(w[6], 0x0086a683u);  // lw a3, 8(a3)
  EXPECT_EQ(w[7], 0x00072703u);  // lw a4, 0(a4)
}

TEST(SymbolAccess, PlainNumbersAreNoAddresses) {
  EXPECT_EQ(
      assembly_error("lw a0, 100\n"),
      "test.s:1:8: error: expected 'offset(register)', got '100' (syntax: lw rd,simm12(rs1))");
  EXPECT_EQ(assembly_error("lw a0, -4\n"),
            "test.s:1:8: error: expected 'offset(register)', got '-4' (syntax: lw rd,simm12(rs1))");
  EXPECT_EQ(text_words("lw a0, 1f\n1: nop\n").size(), 3u);  // a local label is a symbol
}

// Errors about the symbol of an auipc pair point at the symbol as written, once.
TEST(SymbolAccess, UndefinedSymbolsAreReportedOnceAtTheirColumn) {
  EXPECT_EQ(
      assembly_error(
          "la a0, nosuch\nlw a1, nosuch+4\nsw a1, nosuch, t0\ncall s1, nosuch\n  tail nosuch\n"),
      "test.s:1:8: error: undefined symbol 'nosuch'\n"
      "test.s:2:8: error: undefined symbol 'nosuch'\n"
      "test.s:3:8: error: undefined symbol 'nosuch'\n"
      "test.s:4:10: error: undefined symbol 'nosuch'\n"
      "test.s:5:8: error: undefined symbol 'nosuch'");
}

TEST(SymbolAccess, CallWithLinkRegisterAndJump) {
  const auto w = text_words(R"(
    call s1, func       # LLVM: auipc s1; jalr s1, s1
    jump func, t2       # auipc t2; jalr zero, t2
    call func
func:
    ret
)");
  ASSERT_EQ(w.size(), 7u);
  for (size_t i : {0u, 2u, 4u})
    EXPECT_EQ(pair_target(0x80000000 + 4 * i, w[i], w[i + 1]), 0x80000018u) << i;
  EXPECT_EQ(decoded(w[0]).rd, 9);
  EXPECT_EQ(decoded(w[1]).rd, 9);
  EXPECT_EQ(decoded(w[1]).rs1, 9);
  EXPECT_EQ(decoded(w[2]).rd, 7);
  EXPECT_EQ(decoded(w[3]).rd, 0);
  EXPECT_EQ(decoded(w[3]).rs1, 7);
  EXPECT_EQ(decoded(w[5]).rd, 1);
}

TEST(CharacterConstants, ValuesAndEscapes) {
  const std::vector<std::pair<std::string, int>> cases = {
      {"'a'", 'a'},    {"'\\n'", '\n'},  {"'\\t'", '\t'}, {"'\\r'", '\r'},   {"'\\\\'", '\\'},
      {"'\\''", '\''}, {"'\\\"'", '"'},  {"'\\0'", 0},    {"'\\x41'", 0x41}, {"'\\X7f'", 0x7f},
      {"'\\101'", 65}, {"'\\377'", 255}, {"'#'", '#'},    {"','", ','},      {"';'", ';'},
      {"'('", '('},    {"')'", ')'},     {"'\"'", '"'},   {"' '", ' '},      {"'a'+1", 'b'},
      {"'\\v'", '\v'}, {"'\\a'", '\a'},  {"'\\b'", '\b'}, {"'\\f'", '\f'},   {"-'A'", -65},
  };
  std::string source = ".data\n";
  for (const auto& [text, value] : cases) source += ".word " + text + "\n";
  source += ".byte 'x', ',', 'y' ; .byte '#'\n";  // separators inside constants, then a statement
  const auto bytes = section(assemble_text(source), ".data").bytes;
  ASSERT_EQ(bytes.size(), cases.size() * 4 + 4);
  for (size_t i = 0; i < cases.size(); ++i) {
    int32_t v;
    std::memcpy(&v, bytes.data() + 4 * i, 4);
    EXPECT_EQ(v, cases[i].second) << cases[i].first;
  }
  EXPECT_EQ(std::string(bytes.end() - 4, bytes.end()), "x,y#");
  EXPECT_EQ(text_words("li a0, '\\n'\n"), text_words("li a0, 10\n"));
}

TEST(CharacterConstants, StringEscapesMatchCxx) {
  const auto image = assemble_text(
      ".data\n.ascii \"\\n\\t\\\\\\\"\\0\\x41\\x4a\\101\\7\\08\\r\\b\\f\\v\\a\\'\"\n.string "
      "\"#;,()\"\n");
  const auto& bytes = section(image, ".data").bytes;
  static constexpr char kExpect[] =
      "\n\t\\\"\0\x41\x4a\101\7\0"
      "8\r\b\f\v\a'#;,()";
  const std::string expect(kExpect, sizeof kExpect);  // with the terminating zero of .string
  EXPECT_EQ(std::string(bytes.begin(), bytes.end()), expect);
}

TEST(CharacterConstants, Errors) {
  EXPECT_EQ(assembly_error("li a0, 'ab'\n"),
            "test.s:1:8: error: unterminated character constant (expected 'c' or '\\n')");
  EXPECT_EQ(assembly_error("li a0, 'a\n"),
            "test.s:1:8: error: unterminated character constant (expected 'c' or '\\n')");
  EXPECT_EQ(assembly_error("li a0, '\\q'\n"), "test.s:1:8: error: unknown escape '\\q'");
  EXPECT_EQ(assembly_error(".data\n.ascii \"ab\\qc\"\n"),
            "test.s:2:11: error: unknown escape '\\q' in string");
  EXPECT_EQ(assembly_error(".data\n.ascii \"\\x\"\n"),
            "test.s:2:9: error: \\x needs hexadecimal digits in string");
}

TEST(Messages, MaskOtherThanV0) {
  EXPECT_EQ(assembly_error("vadd.vv v1, v2, v3, v1.t\n"),
            "test.s:1:21: error: only v0 can mask an instruction: expected 'v0.t', got 'v1.t'");
}

TEST(Messages, UnknownCsrName) {
  EXPECT_EQ(assembly_error("csrr a0, CSR_NOPE\n"),
            "test.s:1:10: error: undefined symbol 'CSR_NOPE' (and no CSR has this name)");
  EXPECT_EQ(text_words(".equ MY_CSR, 0x805\ncsrr a0, MY_CSR\n"), text_words("csrr a0, CSR_WID\n"));
}

// Source bytes quoted in a message are shown as \xNN when they are not printable ASCII.
TEST(Messages, UnprintableBytesAreEscaped) {
  EXPECT_EQ(assembly_error("nop\nzz\x01\xff a0\n"),
            "test.s:2:1: error: unknown instruction 'zz\\x01\\xff'");
}

// regexti {imm_hi6, rs2ext, rdext} carries imm[10:5] of a vector .vi immediate.
TEST(RegExtI, WideVectorImmediatesGetAPrefix) {
  for (int value : {-1024, -1000, -100, -17, -16, 0, 15, 16, 31, 32, 100, 511, 1000, 1023}) {
    for (const char* regs : {"v1, v2", "v33, v40"}) {
      const auto w = text_words(fmt::format("vadd.vi {}, {}\n", regs, value));
      const bool wide = value < -16 || value > 15, extended = regs[1] == '3';
      ASSERT_EQ(w.size(), wide || extended ? 2u : 1u) << value << " " << regs;
      if (w.size() == 1) {
        EXPECT_EQ(decoded(w[0]).imm, value);
        continue;
      }
      EXPECT_EQ(decoded(w[0]).op, isa::Op::REGEXTI);
      const uint32_t prefix = w[0] >> 20;
      EXPECT_EQ(prefix >> 6, (static_cast<uint32_t>(value) >> 5) & 0x3f) << value;
      const isa::Decoded d = decoded(w[1], isa::RegExt::from_regexti(prefix));
      EXPECT_EQ(d.op, isa::Op::VADD_VI);
      EXPECT_EQ(d.imm, value);
      EXPECT_EQ(d.rd, extended ? 33 : 1);
      EXPECT_EQ(d.rs2, extended ? 40 : 2);
      // The raw field holds imm[4:0] (sign-extended from bit 4 without the prefix).
      EXPECT_EQ(decoded(w[1]).imm & 31, value & 31);
    }
  }
  const auto w = text_words(".equ BIG, 200\nvmv.v.i v3, BIG\nvmerge.vim v4, v5, -300, v0\n");
  ASSERT_EQ(w.size(), 4u);
  EXPECT_EQ(decoded(w[1], isa::RegExt::from_regexti(w[0] >> 20)).imm, 200);
  EXPECT_EQ(decoded(w[3], isa::RegExt::from_regexti(w[2] >> 20)).imm, -300);
}

TEST(RegExtI, ImmediatesThatCannotBeWidened) {
  EXPECT_EQ(assembly_error("vadd.vi v1, v2, 1024\n"),
            "test.s:1:17: error: immediate out of range for 'vadd.vi': value 1024 out of range "
            "[-16, 15] (up to "
            "[-1024, 1023] with a regexti prefix)");
  EXPECT_EQ(assembly_error("vadd.vi v1, v2, -1025\n"),
            "test.s:1:17: error: immediate out of range for 'vadd.vi': value -1025 out of range "
            "[-16, 15] (up to "
            "[-1024, 1023] with a regexti prefix)");
  // The prefix is decided in the first pass: a value defined later cannot get one.
  EXPECT_EQ(assembly_error("vadd.vi v1, v2, N\n.equ N, 200\n"),
            "test.s:1:17: error: immediate out of range for 'vadd.vi': value 200 out of range "
            "[-16, 15] (a constant "
            "known where it is used would get a regexti prefix for up to 11 bits)");
  // Registers alone need regexti: a later value must then agree with the prefix's zero bits.
  EXPECT_EQ(text_words("vadd.vi v33, v1, N\n.equ N, 3\n"), text_words("vadd.vi v33, v1, 3\n"));
  EXPECT_EQ(assembly_error("vadd.vi v33, v1, N\n.equ N, -3\n"),
            "test.s:1:18: error: immediate -3 of 'vadd.vi' does not fit its regexti prefix (bits "
            "10:5 = 0): "
            "the value must be a constant known where it is used");
  // Shift amounts stay 5 bits (an e32 shift uses only the low 5 bits anyway).
  EXPECT_EQ(
      assembly_error("vsll.vi v1, v2, 32\n"),
      "test.s:1:17: error: immediate out of range for 'vsll.vi': value 32 out of range [0, 31]");
}

TEST(Layout, SectionStartOptions) {
  const std::string source = ".text\nnop\n.data\n.word 1\n.bss\n.space 8\n";
  assembler::Options options;
  options.start_files = false;
  options.section_start[".text"] = 0x1000;
  auto image = assembler::assemble({{"l.s", source}}, options);
  EXPECT_EQ(section(image, ".text").address, 0x1000u);
  EXPECT_EQ(section(image, ".data").address, 0x1004u);  // follows .text
  EXPECT_EQ(section(image, ".bss").address, 0x1008u);
  EXPECT_EQ(image.entry, 0x1000u);
  options.section_start[".data"] = 0x2000;
  options.section_start[".bss"] = 0x3000;
  image = assembler::assemble({{"l.s", source}}, options);
  EXPECT_EQ(section(image, ".data").address, 0x2000u);
  EXPECT_EQ(section(image, ".bss").address, 0x3000u);
  options.section_start[".data"] = 0x1000;
  try {
    assembler::assemble({{"l.s", source}}, options);
    FAIL() << "overlapping sections were accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "sections '.text' [0x1000, 0x1004) and '.data' [0x1000, 0x1004) overlap"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
