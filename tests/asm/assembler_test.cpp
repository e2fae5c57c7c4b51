// Assembler behaviour: directives, expressions, relocations, local labels, pseudo
// sequences, regext insertion, layout, multiple files and error messages.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "test_util.h"
#include "ventus/disasm.h"
#include "ventus/error.h"
#include "ventus/isa.h"

namespace {

using namespace ventus;
using test::assemble_text;
using test::assembly_error;
using test::section;
using test::text_words;

uint32_t load32(const std::vector<uint8_t>& b, size_t at) {
  uint32_t w;
  std::memcpy(&w, b.data() + at, 4);
  return w;
}

isa::Decoded decoded(uint32_t word) {
  auto d = isa::decode(word);
  EXPECT_TRUE(d.has_value()) << std::hex << word;
  return d.value_or(isa::Decoded{});
}

TEST(Directives, DataOfEveryWidthLittleEndian) {
  const auto image = assemble_text(R"(
    .data
    .byte 1, 0xff, -1
    .half 0x1234, -2
    .short 7
    .word 0xdeadbeef
    .dword 0x0123456789abcdef
    .quad -1
)");
  const std::vector<uint8_t> expect = {1, 0xff, 0xff, 0x34, 0x12, 0xfe, 0xff, 7, 0, 0xef, 0xbe, 0xad, 0xde,
                                       0xef, 0xcd, 0xab, 0x89, 0x67, 0x45, 0x23, 0x01, 0xff, 0xff, 0xff, 0xff,
                                       0xff, 0xff, 0xff, 0xff};
  EXPECT_EQ(section(image, ".data").bytes, expect);
}

TEST(Directives, StringsWithEscapes) {
  const auto image = assemble_text(".rodata\n.ascii \"ab\"\n.string \"c\\n\\t\\\"\\\\\"\n.asciz \"\\101\\x42\"\n");
  const std::string bytes(section(image, ".rodata").bytes.begin(), section(image, ".rodata").bytes.end());
  EXPECT_EQ(bytes, std::string("abc\n\t\"\\\0AB\0", 11));
}

TEST(Directives, AlignmentPadsDataWithZerosAndCodeWithNops) {
  const auto image = assemble_text(R"(
    .text
    nop
    .align 4
    ret
    .data
    .byte 1
    .p2align 2
    .byte 2
    .balign 8, 0xaa
    .byte 3
    .space 3, 7
    .zero 2
)");
  const auto text = test::words_of(section(image, ".text"));
  ASSERT_EQ(text.size(), 5u);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(text[i], 0x00000013u);
  EXPECT_EQ(text[4], 0x00008067u);
  const std::vector<uint8_t> expect = {1, 0, 0, 0, 2, 0xaa, 0xaa, 0xaa, 3, 7, 7, 7, 0, 0};
  EXPECT_EQ(section(image, ".data").bytes, expect);
  EXPECT_EQ(section(image, ".data").align, 8u);
}

TEST(Directives, SectionsSymbolsAndLayout) {
  const auto image = assemble_text(R"(
    .globl main
    .type main, @function
main:
    nop
    ret
    .size main, .-main
    .section .mydata, "aw", @progbits
table: .word 1, 2
    .bss
    .globl buffer
    .type buffer, @object
buffer: .space 64
    .size buffer, 64
    .rodata
msg: .string "hi"
)");
  std::vector<std::string> names;
  for (const auto& s : image.sections) names.push_back(s.name);
  EXPECT_EQ(names, (std::vector<std::string>{".text", ".rodata", ".mydata", ".bss"}));
  const auto& text = section(image, ".text");
  const auto& rodata = section(image, ".rodata");
  const auto& mydata = section(image, ".mydata");
  const auto& bss = section(image, ".bss");
  EXPECT_EQ(text.address, 0x80000000u);
  EXPECT_EQ(rodata.address, 0x80000008u);
  EXPECT_EQ(mydata.address, 0x8000000bu);
  EXPECT_TRUE(mydata.write && mydata.alloc && !mydata.exec);
  EXPECT_TRUE(bss.nobits);
  EXPECT_EQ(bss.size, 64u);
  EXPECT_TRUE(bss.bytes.empty());
  const auto* main = image.symbol_at(0x80000000);
  ASSERT_NE(main, nullptr);
  EXPECT_EQ(main->name, "main");
  EXPECT_TRUE(main->function && main->global);
  EXPECT_EQ(main->size, 8u);
  for (const auto& s : image.symbols) {
    if (s.name == "buffer") {
      EXPECT_TRUE(s.object && s.global && s.size == 64 && s.section == ".bss");
    }
    if (s.name == "table") {
      EXPECT_TRUE(!s.global && s.value == mydata.address);
    }
  }
  EXPECT_EQ(image.entry, 0x80000000u);  // no _start: start of .text
}

TEST(Directives, EquSetAndOptions) {
  const auto words = text_words(R"(
    .equ SIZE, 16
    .set COUNT, SIZE / 4
    .set COUNT, COUNT + 1
    .option push
    .option norelax
    addi a0, zero, COUNT
    .option pop
    .file "x.c"
    .ident "test"
    .attribute arch, "rv32i"
    addi a1, zero, LATER
    .equ LATER, SIZE * 2
)");
  ASSERT_EQ(words.size(), 2u);
  EXPECT_EQ(decoded(words[0]).imm, 5);
  EXPECT_EQ(decoded(words[1]).imm, 32);
}

TEST(Expressions, OperatorsAndPrecedence) {
  const auto image = assemble_text(R"(
    .data
start:
    .word (1 + 2) * 3, 7 / 2, -7 % 3, 1 << 4, 0xff & ~0x0f, 5 ^ 3, 6 | 1, 2 + 3 * 4 - 1
    .word 0b101, 010, 'A', end - start, . - start, -(3 - 5), 100 >> 2
end:
)");
  const auto& data = section(image, ".data").bytes;
  const std::vector<int32_t> expect = {(1 + 2) * 3, 7 / 2, -7 % 3, 1 << 4, 0xff & ~0x0f, 5 ^ 3, 6 | 1, 2 + 3 * 4 - 1,
                                       5, 8, 'A', 60, 48, 2, 25};  // '.' is the location of the item being stored
  ASSERT_EQ(data.size(), expect.size() * 4);
  for (size_t i = 0; i < expect.size(); ++i) EXPECT_EQ(static_cast<int32_t>(load32(data, 4 * i)), expect[i]) << i;
}

TEST(Relocations, HiLoAndPcrelPairsReachTheSymbol) {
  const auto image = assemble_text(R"(
    .text
    lui a0, %hi(value)
    addi a0, a0, %lo(value)
    lw a1, %lo(value)(a0)
here:
    auipc a2, %pcrel_hi(value)
    addi a2, a2, %pcrel_lo(here)
    la a3, value
    call func
func:
    tail func
    .data
    .space 0x7fc
value: .word 42
)");
  const auto words = test::words_of(section(image, ".text"));
  const uint32_t value = *image.symbol_address("value");
  const auto hi_lo = [](uint32_t upper, int32_t low) { return (upper << 12) + static_cast<uint32_t>(low); };
  EXPECT_EQ(hi_lo(decoded(words[0]).imm, decoded(words[1]).imm), value);
  EXPECT_EQ(decoded(words[2]).imm, decoded(words[1]).imm);
  EXPECT_EQ(0x8000000cu + hi_lo(decoded(words[3]).imm, decoded(words[4]).imm), value);
  EXPECT_EQ(0x80000014u + hi_lo(decoded(words[5]).imm, decoded(words[6]).imm), value);
  EXPECT_EQ(decoded(words[7]).op, isa::Op::AUIPC);
  EXPECT_EQ(decoded(words[8]).op, isa::Op::JALR);
  EXPECT_EQ(decoded(words[8]).rd, 1);
  EXPECT_EQ(0x8000001cu + hi_lo(decoded(words[7]).imm, decoded(words[8]).imm), 0x80000024u);
  EXPECT_EQ(decoded(words[9]).rd, 6);  // tail uses t1
  EXPECT_EQ(decoded(words[10]).rd, 0);
  EXPECT_EQ(0x80000024u + hi_lo(decoded(words[9]).imm, decoded(words[10]).imm), 0x80000024u);
}

// An auipc into x32..x63 needs a regext prefix; the label on its line marks the prefix,
// and %pcrel_lo through that label must still pair with the auipc (the back end emits this
// for setrpc under register pressure).
TEST(Relocations, PcrelLoThroughTheRegextOfAnExtendedAuipc) {
  const auto image = assemble_text(R"(
    .text
here:
    auipc x34, %pcrel_hi(value)
    addi x34, x34, %pcrel_lo(here)
    .data
    .space 0x7fc
value: .word 42
)");
  const auto words = test::words_of(section(image, ".text"));
  ASSERT_EQ(words.size(), 4u);  // regext, auipc, regext, addi
  EXPECT_EQ(decoded(words[0]).op, isa::Op::REGEXT);
  EXPECT_EQ(decoded(words[1]).op, isa::Op::AUIPC);
  const auto hi_lo = [](uint32_t upper, int32_t low) { return (upper << 12) + static_cast<uint32_t>(low); };
  EXPECT_EQ(0x80000004u + hi_lo(decoded(words[1]).imm, decoded(words[3]).imm), *image.symbol_address("value"));
}

TEST(LocalLabels, ForwardAndBackwardReferences) {
  const auto words = text_words(R"(
1:  nop
    j 1f
    j 1b
1:  beqz a0, 1b
    bnez a0, 2f
2:  j 2b
)");
  ASSERT_EQ(words.size(), 6u);
  EXPECT_EQ(decoded(words[1]).imm, 8);    // to the second "1"
  EXPECT_EQ(decoded(words[2]).imm, -8);   // to the first "1"
  EXPECT_EQ(decoded(words[3]).imm, 0);    // the nearest "1" backwards is itself
  EXPECT_EQ(decoded(words[4]).imm, 4);
  EXPECT_EQ(decoded(words[5]).imm, 0);
}

TEST(Branches, PlainNumbersAreOffsetsAndLabelsAreTargets) {
  const auto words = text_words("start: beq a0, a1, 16\n jal ra, -8\n j start\n jal start\n");
  EXPECT_EQ(decoded(words[0]).imm, 16);
  EXPECT_EQ(decoded(words[1]).imm, -8);
  EXPECT_EQ(decoded(words[2]).imm, -8);
  EXPECT_EQ(decoded(words[3]).rd, 1);
  EXPECT_EQ(decoded(words[3]).imm, -12);
}

// Executes an lui/addi sequence on the host.
int32_t run_li(const std::vector<uint32_t>& words) {
  int64_t reg = 0;
  for (uint32_t w : words) {
    const auto d = decoded(w);
    if (d.op == isa::Op::LUI) reg = static_cast<int32_t>(static_cast<uint32_t>(d.imm) << 12);
    else if (d.op == isa::Op::ADDI) reg = static_cast<int32_t>(static_cast<uint32_t>((d.rs1 ? reg : 0) + d.imm));
    else ADD_FAILURE() << "unexpected instruction in li";
  }
  return static_cast<int32_t>(reg);
}

TEST(Pseudo, LiLoadsEveryValueWithTheShortestSequence) {
  std::vector<int64_t> values = {0, 1, -1, 2047, -2048, 2048, -2049, 4096, 0x7ff, 0x800, 0xfff, 0x1000,
                                 0x12345678, -0x12345678, INT32_MAX, INT32_MIN, 0x7ffff800, 0x7fffffff,
                                 0xffffffff, 0x80000000, 0x80000800, 0xdeadbeef, 0x00000801, 0xfffff7ff};
  for (int64_t v = 1; v < (int64_t{1} << 32); v = v * 3 + 1) values.push_back(v);
  for (int64_t v : values) {
    const auto words = text_words(fmt::format("li a0, {}\n", v));
    const int32_t expect = static_cast<int32_t>(static_cast<uint32_t>(v));
    EXPECT_EQ(run_li(words), expect) << v;
    const bool small = expect >= -2048 && expect <= 2047;
    const bool round = (expect & 0xfff) == 0;
    EXPECT_EQ(words.size(), small || round ? 1u : 2u) << v;
    for (uint32_t w : words) EXPECT_EQ(decoded(w).rd, 10);
  }
}

TEST(Pseudo, ExpansionsMatchTheirRealInstructions) {
  const std::vector<std::pair<std::string, std::string>> pairs = {
      {"mv a0, a1", "addi a0, a1, 0"},           {"not a0, a1", "xori a0, a1, -1"},
      {"neg a0, a1", "sub a0, zero, a1"},        {"seqz a0, a1", "sltiu a0, a1, 1"},
      {"snez a0, a1", "sltu a0, zero, a1"},      {"sltz a0, a1", "slt a0, a1, zero"},
      {"sgtz a0, a1", "slt a0, zero, a1"},       {"jr a1", "jalr zero, 0(a1)"},
      {"jalr a1", "jalr ra, 0(a1)"},             {"ret", "jalr zero, 0(ra)"},
      {"nop", "addi zero, zero, 0"},             {"beqz a0, 8", "beq a0, zero, 8"},
      {"bnez a0, 8", "bne a0, zero, 8"},         {"blez a0, 8", "bge zero, a0, 8"},
      {"bgez a0, 8", "bge a0, zero, 8"},         {"bltz a0, 8", "blt a0, zero, 8"},
      {"bgtz a0, 8", "blt zero, a0, 8"},         {"bgt a0, a1, 8", "blt a1, a0, 8"},
      {"ble a0, a1, 8", "bge a1, a0, 8"},        {"bgtu a0, a1, 8", "bltu a1, a0, 8"},
      {"bleu a0, a1, 8", "bgeu a1, a0, 8"},      {"csrr a0, tid", "csrrs a0, 0x800, zero"},
      {"csrw mstatus, a0", "csrrw zero, mstatus, a0"}, {"csrs CSR_RPC, a0", "csrrs zero, 0x80c, a0"},
      {"csrc mstatus, a0", "csrrc zero, mstatus, a0"}, {"csrwi mstatus, 3", "csrrwi zero, mstatus, 3"},
      {"csrsi mstatus, 3", "csrrsi zero, mstatus, 3"}, {"csrci mstatus, 3", "csrrci zero, mstatus, 3"},
      {"frflags a0", "csrrs a0, fflags, zero"},  {"fsflags a0", "csrrw zero, fflags, a0"},
      {"fsflags a1, a0", "csrrw a1, fflags, a0"}, {"frrm a0", "csrrs a0, frm, zero"},
      {"fsrm a0", "csrrw zero, frm, a0"},        {"frcsr a0", "csrrs a0, fcsr, zero"},
      {"fscsr a0", "csrrw zero, fcsr, a0"},      {"fmv.s a0, a1", "fsgnj.s a0, a1, a1"},
      {"fabs.s a0, a1", "fsgnjx.s a0, a1, a1"},  {"fneg.s a0, a1", "fsgnjn.s a0, a1, a1"},
      {"vneg.v v1, v2", "vrsub.vx v1, v2, zero"}, {"vneg.v v1, v2, v0.t", "vrsub.vx v1, v2, zero, v0.t"},
      {"vnot.v v1, v2", "vxor.vi v1, v2, -1"},   {"vwcvt.x.x.v v2, v3", "vwadd.vx v2, v3, zero"},
      {"vwcvtu.x.x.v v2, v3", "vwaddu.vx v2, v3, zero"}, {"vfneg.v v1, v2", "vfsgnjn.vv v1, v2, v2"},
      {"vfabs.v v1, v2", "vfsgnjx.vv v1, v2, v2"}, {"vmsgt.vv v1, v2, v3", "vmslt.vv v1, v3, v2"},
      {"vmsgtu.vv v1, v2, v3", "vmsltu.vv v1, v3, v2"}, {"vmsge.vv v1, v2, v3", "vmsle.vv v1, v3, v2"},
      {"vmsgeu.vv v1, v2, v3, v0.t", "vmsleu.vv v1, v3, v2, v0.t"}, {"vmfgt.vv v1, v2, v3", "vmflt.vv v1, v3, v2"},
      {"vmfge.vv v1, v2, v3", "vmfle.vv v1, v3, v2"}, {"vmnot.m v1, v2", "vmnand.mm v1, v2, v2"},
      {"vmmv.m v1, v2", "vmand.mm v1, v2, v2"},  {"vmclr.m v1", "vmxor.mm v1, v1, v1"},
      {"vmset.m v1", "vmxnor.mm v1, v1, v1"},    {"fence", "fence iorw, iorw"},
      {"jal 8", "jal ra, 8"},                    {"j 8", "jal zero, 8"},
      {"vmv.v.v v1, v2", "vmv.v.v v1, v2"},      {"csrr a0, CSR_WID", "csrrs a0, 0x805, zero"}};
  for (const auto& [pseudo, real] : pairs)
    EXPECT_EQ(text_words(pseudo + "\n"), text_words(real + "\n")) << pseudo;
}

TEST(Pseudo, LaAndCallUseAuipcPairs) {
  const auto image = assemble_text("la a0, target\nlla a1, target\ncall target\ntail target\ntarget: ret\n");
  const auto words = test::words_of(section(image, ".text"));
  ASSERT_EQ(words.size(), 9u);
  for (int i : {0, 2, 4, 6}) EXPECT_EQ(decoded(words[i]).op, isa::Op::AUIPC);
  EXPECT_EQ(decoded(words[1]).op, isa::Op::ADDI);
  EXPECT_EQ(decoded(words[1]).imm, 32);
  EXPECT_EQ(decoded(words[3]).imm, 24);
  EXPECT_EQ(decoded(words[5]).imm, 16);
  EXPECT_EQ(decoded(words[7]).imm, 8);
}

TEST(RegExt, HighRegistersGetAPrefix) {
  const auto words = text_words(R"(
    vadd.vv v33, v1, v72
    vadd.vx v1, v34, x40
    vadd.vi v33, v66, 3
    vmacc.vv v35, v1, v2
    vsw12.v v40, 4(v1)
    regext zero, zero, 9
    vadd.vv v1, v2, v3
)");
  ASSERT_EQ(words.size(), 12u);
  // regext IMM = {rs3[11:9], rs2[8:6], rs1[5:3], rd[2:0]}; vadd.vv vd, vs2, vs1.
  EXPECT_EQ(words[0], isa::info(isa::Op::REGEXT).match | (1u | 2u << 3) << 20);
  EXPECT_EQ(words[1], text_words("vadd.vv v1, v1, v8\n")[0]);
  EXPECT_EQ(words[2], isa::info(isa::Op::REGEXT).match | (1u << 3 | 1u << 6) << 20);
  EXPECT_EQ(words[3], text_words("vadd.vx v1, v2, s0\n")[0]);
  // regexti IMM = {imm_hi[11:6], rs2[5:3], rd[2:0]}
  EXPECT_EQ(words[4], isa::info(isa::Op::REGEXTI).match | (1u | 2u << 3) << 20);
  EXPECT_EQ(words[5], text_words("vadd.vi v1, v2, 3\n")[0]);
  // The multiply-add reads its destination: rs3 is extended like rd.
  EXPECT_EQ(words[6], isa::info(isa::Op::REGEXT).match | (1u | 1u << 9) << 20);
  EXPECT_EQ(words[8], isa::info(isa::Op::REGEXT).match | (1u << 6) << 20);
  EXPECT_EQ(words[10], isa::info(isa::Op::REGEXT).match | 9u << 20);
  // Decoding with the prefix gives the registers back.
  const auto d = isa::decode(words[1], isa::RegExt::from_regext(words[0] >> 20));
  EXPECT_EQ(d->rd, 33);
  EXPECT_EQ(d->rs2, 1);
  EXPECT_EQ(d->rs1, 72);
}

TEST(Linking, SymbolsAcrossFilesAndOptions) {
  assembler::Options options;
  options.start_files = false;
  options.section_start[".data"] = 0x80100000;
  const auto image = assembler::assemble(
      {{"a.s", ".globl _start\n_start: call helper\nlocal: j local\n.data\n.word helper\n"},
       {"b.s", ".globl helper\nhelper: ret\nlocal: j local\n"}},
      options);
  EXPECT_EQ(image.entry, 0x80000000u);
  EXPECT_EQ(section(image, ".data").address, 0x80100000u);
  EXPECT_EQ(*image.symbol_address("helper"), 0x8000000cu);
  EXPECT_EQ(load32(section(image, ".data").bytes, 0), 0x8000000cu);
  options.section_start[".text"] = 0x1000;
  const auto moved = assembler::assemble({{"a.s", "nop\n"}}, options);
  EXPECT_EQ(section(moved, ".text").address, 0x1000u);
}

TEST(Linking, StartFileMatchesTheCompiledStartCode) {
  const std::filesystem::path dump = std::filesystem::path(VENTUS_CASES_DIR) / "vecadd-4w16t" / "object.dump";
  if (!std::filesystem::exists(dump)) GTEST_SKIP() << dump << " not found (VENTUS_CASES_DIR)";
  const auto image = assembler::assemble({{"k.s", ".globl vecadd\n.type vecadd, @function\nvecadd: ret\n"}});
  EXPECT_EQ(image.entry, 0x80000000u);
  EXPECT_EQ(*image.symbol_address("vecadd"), 0x800000a8u);  // where the compiled kernel starts
  std::ifstream in(dump);
  std::string line;
  std::regex insn(R"(^([0-9a-f]{8}): ([0-9a-f ]{11})  \t(\S+)(.*)$)");
  const auto& text = section(image, ".text").bytes;
  int compared = 0;
  std::string previous;
  while (std::getline(in, line)) {
    std::smatch m;
    if (!std::regex_match(line, m, insn)) continue;
    const uint32_t address = static_cast<uint32_t>(std::stoul(m[1], nullptr, 16));
    if (address >= 0x800000a8) break;
    const uint32_t ours = load32(text, address - 0x80000000);
    const std::string mnemonic = m[3];
    const auto p = isa::print_instruction(ours, address);
    ASSERT_TRUE(p);
    // Data addresses differ from the compiled program's layout: compare the auipc pairs by
    // mnemonic and register only, everything else exactly.
    if (mnemonic == "auipc" || previous == "auipc") {
      EXPECT_EQ(p->mnemonic, mnemonic) << line;
      EXPECT_EQ(p->operands.substr(0, p->operands.find(',')), std::string(m[4]).substr(1, std::string(m[4]).find(',') - 1))
          << line;
    } else {
      EXPECT_EQ(p->mnemonic + std::string(m[4]).substr(0, std::string(m[4]).find(" <")),
                mnemonic + std::string(m[4]).substr(0, std::string(m[4]).find(" <")))
          << line;
      uint32_t listed = 0;
      std::istringstream bytes(m[2]);
      for (int b = 0; b < 4; ++b) {
        unsigned v;
        bytes >> std::hex >> v;
        listed |= v << (8 * b);
      }
      EXPECT_EQ(ours, listed) << line;
    }
    previous = mnemonic;
    ++compared;
  }
  EXPECT_EQ(compared, 42);
}

// Exact messages for typical mistakes.
TEST(Errors, TypicalMistakes) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"  addd a0, a1, a2\n", "test.s:1:3: error: unknown instruction 'addd'; did you mean 'addi'?"},
      {"addi a0, a1, 5000\n", "test.s:1:14: error: immediate out of range for 'addi': value 5000 out of range [-2048, 2047]"},
      {"add a0, v1, a2\n", "test.s:1:9: error: wrong register class: 'v1' is a vector register, 'add' needs a scalar register here (x0-x63 or an ABI name)"},
      {"vadd.vv v1, a0, v2\n", "test.s:1:13: error: wrong register class: 'a0' is a scalar register, 'vadd.vv' needs a vector register here (v0-v255)"},
      {"j nowhere\n", "test.s:1:3: error: undefined symbol 'nowhere'"},
      {"x: nop\nx: nop\n", "test.s:2:1: error: symbol 'x' is already defined at test.s:1:1"},
      {"beq a0, a1, 3\n", "test.s:1:13: error: misaligned branch target: offset 3 is odd"},
      {"beq a0, a1, 8192\n", "test.s:1:13: error: branch target out of range: offset 8192 out of range [-4096, 4094]"},
      {".data\n.string \"abc\n", "test.s:2:9: error: unterminated string"},
      {"add a0, a1\n", "test.s:1:1: error: too few operands for 'add' (syntax: add rd,rs1,rs2)"},
      {"add a0, a1, a2, a3\n", "test.s:1:17: error: too many operands for 'add' (syntax: add rd,rs1,rs2)"},
      {".wrd 1\n", "test.s:1:1: error: unknown directive '.wrd'; did you mean '.word'?"},
      {".option rvc\n", "test.s:1:9: error: .option rvc: Ventus has no compressed instructions"},
      {"li a0, 0x100000000\n", "test.s:1:8: error: li value 4294967296 does not fit in 32 bits"},
      {"vsetvli a0, a1, e7\n", "test.s:1:17: error: unknown element width 'e7' (expected e8, e16, e32)"},
      {".byte 256\n", "test.s:1:7: error: value 256 does not fit in 1 byte"},
      {"lw a0, 4(v1)\n", "test.s:1:10: error: wrong register class: 'v1' is a vector register, 'lw' needs a scalar register here (x0-x63 or an ABI name)"},
      {"vadd.vi v33, v1, 3, v0.t\nvadd.vx v1, v2, a0\n1: j 1f\n", "test.s:3:6: error: undefined local label '1' (1f refers forward, 1b backward)"},
      {".word 1/0\n", "test.s:1:8: error: division by zero in expression"},
  };
  for (const auto& [source, message] : cases) EXPECT_EQ(assembly_error(source), message) << source;
}

// Register pairs (RV64I/RV64A, 12D) must start at an even register; the offsets of the
// explicit-space series are 10 bits; the 64-bit shifts take a 6-bit amount.
TEST(Errors, RegisterPairsAndV2025Operands) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"addw a1, a2, a4\n", "test.s:1:6: error: 'addw' names a 64-bit register pair here, which must start at an even register; 'a1' is odd (syntax: addw rdp,rs1p,rs2p)"},
      {"ld a0, 0(a3)\n", "test.s:1:10: error: 'ld' names a 64-bit register pair here, which must start at an even register; 'a3' is odd (syntax: ld rd,simm12(rs1p))"},
      {"amoadd.d a0, a1, (s1)\n", "test.s:1:19: error: 'amoadd.d' names a 64-bit register pair here, which must start at an even register; 's1' is odd (syntax: amoadd.d rd,rs2,(rs1p))"},
      {"vlw12d.v v1, 0(v3)\n", "test.s:1:16: error: 'vlw12d.v' names a 64-bit register pair here, which must start at an even register; 'v3' is odd (syntax: vlw12d.v vd,simm12(vs1p))"},
      {"vlw_global.v v1, 512(v2)\n", "test.s:1:18: error: immediate out of range for 'vlw_global.v': value 512 out of range [-512, 511]"},
      {"slliw a0, a0, 64\n", "test.s:1:15: error: immediate out of range for 'slliw': value 64 out of range [0, 63]"},
  };
  for (const auto& [source, message] : cases) EXPECT_EQ(assembly_error(source), message) << source;
  // Encodings: the standard RV64 ones, shamt bit 5 in bit 25, the space in bits 31:30.
  EXPECT_EQ(test::text_words("addw a0, a2, a4\nslliw a0, a2, 33\nld a1, -4(a2)\n"),
            (std::vector<uint32_t>{0x00e6053b, 0x0216151b, 0xffc63583}));
  EXPECT_EQ(test::text_words("vlw_global.v v1, -1(v2)\nvsw_local.v v3, 5(v4)\nvlw_private.v v1, 0(v2)\n"
                             "vlw12d.v v1, 8(v2)\n"),
            (std::vector<uint32_t>{0x7ff120f7, 0xc03262f7, 0x800120f7, 0x008120eb}));
}

TEST(Errors, AllErrorsOfAFileAreReportedUpToTheLimit) {
  std::string source;
  for (int i = 0; i < 5; ++i) source += "bogus a0\n";
  const std::string message = assembly_error(source);
  EXPECT_EQ(std::count(message.begin(), message.end(), '\n'), 4) << message;
  assembler::Options options;
  options.start_files = false;
  options.max_errors = 3;
  try {
    assembler::assemble({{"t.s", source}}, options);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("too many errors (3), stopping"), std::string::npos) << e.what();
  }
}

TEST(Errors, DuplicateGlobalAcrossFiles) {
  assembler::Options options;
  options.start_files = false;
  try {
    assembler::assemble({{"a.s", ".globl f\nf: ret\n"}, {"b.s", ".globl f\n\nf: ret\n"}}, options);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "b.s:3:1: error: duplicate symbol 'f': also defined at a.s:2:1");
  }
}

// 64-bit rows: eight bytes, low word first; 8-bit register fields; keyword modifiers in any
// order (a bare key is key=1), checked against fields placed by hand (docs/isa.md).
TEST(SixtyFourBit, EncodingAndModifiers) {
  const auto words = text_words(
      "v64fadd.f16 v3, v200, v4, opsel=5, neg=1, abs=2\n"
      "v64mul.i8 v255, v0, v17, abs\n"
      "addi a0, a0, 1\n");
  ASSERT_EQ(words.size(), 5u);
  const auto word = [&](size_t i) { return words[i] | uint64_t{words[i + 1]} << 32; };
  EXPECT_EQ(word(0), 0x3fu | 1u << 7 | 1u << 10 | 1u << 13 | uint64_t{3} << 20 |
                         uint64_t{1} << 28 | uint64_t{2} << 31 | uint64_t{5} << 34 |
                         uint64_t{4} << 41 | uint64_t{200} << 49);
  EXPECT_EQ(word(2), 0x3fu | 1u << 7 | 2u << 10 | uint64_t{255} << 20 | uint64_t{1} << 31 |
                         uint64_t{17} << 41 | uint64_t{0x25} << 57);
  EXPECT_EQ(words[4], 0x00150513u);
  const auto d = isa::decode(word(0));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->op, isa::Op::V64FADD_F16);
  EXPECT_EQ(d->rd, 3);
  EXPECT_EQ(d->rs2, 200);
  EXPECT_EQ(d->rs1, 4);
  EXPECT_EQ(d->neg, 1);
  EXPECT_EQ(d->abs, 2);
  EXPECT_EQ(isa::field(isa::Op::V64FADD_F16, "opsel").get(d->word()), 5u);
  // Labels after a 64-bit instruction are 8 bytes on.
  const auto image = assemble_text("v64add.i32 v1, v2, v3\nhere: j here\n");
  EXPECT_EQ(load32(section(image, ".text").bytes, 8), 0x0000006fu);
}

TEST(SixtyFourBit, ModifierErrors) {
  EXPECT_NE(assembly_error("v64add.i32 v1, v2, v3, scale=1\n")
                .find("'scale=1' is no modifier of 'v64add.i32' (modifiers: neg, abs, opsel"),
            std::string::npos);
  EXPECT_NE(assembly_error("v64add.i32 v1, v2, v3, neg=1, neg=2\n").find("modifier 'neg' given twice"),
            std::string::npos);
  EXPECT_NE(assembly_error("v64add.i32 v1, v2, v3, opsel=8\n")
                .find("modifier opsel of 'v64add.i32': value 8 out of range [0, 7]"),
            std::string::npos);
  EXPECT_NE(assembly_error("v64add.i32 v1, x2, v3\n").find("wrong register class"),
            std::string::npos);
}

// Registers above 31 after an explicit prefix: their high bits go into the prefix's fields
// (docs/assembler.md), no regext of their own. Fields placed by hand from docs/isa.md.
TEST(Prefixes, HighRegisterBitsMergeIntoAnExplicitPrefix) {
  const auto words = text_words(
      "prefix neg=1, abs=2\n"
      "vfsub.vv v40, v2, v35\n"
      "prefixi neg=2\n"
      "vadd.vi v41, v1, 300\n"
      "prefix.mem width=3, space=1\n"
      "vlw12.v v72, 4(v100)\n"
      "prefix rd=1\n"
      "vadd.vv v40, v1, v2\n");
  ASSERT_EQ(words.size(), 8u);
  EXPECT_EQ(words[0], 0x77u | 1u << 7 | 1u << 15 | 2u << 24 | 1u << 27);  // rd, rs1, abs, neg
  EXPECT_EQ(words[1] >> 7 & 31, 8u);
  EXPECT_EQ(words[2], 0x77u | 1u << 12 | 1u << 7 | 2u << 21 | 9u << 24);  // rd, neg, imm 300>>5
  EXPECT_EQ(words[3] >> 15 & 31, 300u & 31);
  EXPECT_EQ(words[4], 0x77u | 2u << 12 | 2u << 7 | 3u << 15 | 1u << 24 | 3u << 26);
  EXPECT_EQ(words[6], 0x77u | 1u << 7);  // written and required rd agree
  EXPECT_NE(assembly_error("prefix rd=2\nvadd.vv v40, v1, v2\n").find("disagree with the registers"),
            std::string::npos);
  EXPECT_NE(assembly_error("prefix\nvadd.vi v1, v1, 300\n").find("needs prefixi"),
            std::string::npos);
}

TEST(Comments, HashSlashAndSemicolonSeparators) {
  EXPECT_EQ(text_words("nop # comment\nnop // comment ; ret\nnop; ret # x\n"),
            text_words("nop\nnop\nnop\nret\n"));
}

}  // namespace
