// Cross-check against GNU binutils (riscv64-unknown-elf-as / -objdump, 2.40): every
// standard row (RV32IMA, Zicsr, F in Zfinx form, RVV) in several operand variants is
// assembled by both assemblers and disassembled by both disassemblers.
//
// GNU as cannot combine Zfinx with Zve32f (Zve32f implies F), so the rows go to two files:
// scalar rows with -march=rv32ima_zicsr_zfinx, vector rows with -march=rv32ima_zicsr_zve32f.
// In the vector file the scalar operands of vector floating-point rows are written as f
// registers for GNU (fa0) and as x registers for Ventus (a0): same register numbers.
//
// Text normalization before comparing GNU objdump -M no-aliases with ventus (no aliases):
//   1. the " <symbol>" annotation after branch targets is dropped;
//   2. the tab between mnemonic and operands becomes one space; spaces after commas go;
//   3. GNU prints branch/jump targets as bare hex ("28"), Ventus as "0x28": both become
//      the decimal address;
//   4. every other hexadecimal number ("0x12345" for lui/auipc, shift amounts, CSR numbers
//      such as 0x805) becomes decimal;
//   5. GNU's " # address" comments (values it tracks from lui/auipc) are dropped;
//   6. f register names (ft0..ft11, fs0..fs11, fa0..fa7) become the x register ABI name
//      with the same number (Zfinx: the register fields are the same).
//   7. a CSR that GNU names and the Ventus table does not (satp, hedeleg, ...) is
//      compared by number.
// The RV64I/RV64A rows (Ventus: 64-bit values and addresses on even-aligned x register
// pairs, docs/isa.md) use the standard RV64 encodings, so they go to a third file with
// -march=rv64ima_zicsr, in variants whose pair operands are even (an odd pair is no
// Ventus assembly) and, for slliw/srliw/sraiw, whose shift amount is below 32 (GNU's RV64
// word shifts have a 5-bit shamt; Ventus uses bit 25 as the sixth bit of a 64-bit shift).
// GNU rejects some random operand combinations that RVV forbids (a masked vd = v0,
// overlapping widening operands, misaligned register groups); such lines are dropped
// from both files, and every row must keep at least one variant.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "test_util.h"
#include "ventus/disasm.h"
#include "ventus/isa.h"
#include "ventus/listing.h"

namespace fs = std::filesystem;

namespace {

using namespace ventus;

bool have_binutils() {
  return std::system("riscv64-unknown-elf-as --version >/dev/null 2>&1") == 0 &&
         std::system("riscv64-unknown-elf-objdump --version >/dev/null 2>&1") == 0;
}

bool is_custom(const isa::InsnInfo& row) {
  const uint32_t opcode = row.match & 0x7f;
  return opcode == 0x0b || opcode == 0x5b || opcode == 0x7b || opcode == 0x2b || opcode == 0x6b ||
         opcode == 0x77 || opcode == 0x3f;
}

// fmv.x.w / fmv.w.x: F encodings kept for the public compiler's code (docs/isa.md); the
// Zfinx that GNU assembles here has no such instructions.
bool is_outside_zfinx(const isa::InsnInfo& row) {
  return row.op == isa::Op::FMV_X_W || row.op == isa::Op::FMV_W_X;
}

// OP-32, OP-IMM-32 and the doubleword forms of LOAD, STORE and AMO.
bool is_rv64(const isa::InsnInfo& row) {
  const uint32_t opcode = row.match & 0x7f, funct3 = (row.match >> 12) & 7;
  return opcode == 0x1b || opcode == 0x3b ||
         ((opcode == 0x03 || opcode == 0x23 || opcode == 0x2f) && funct3 == 3);
}

// A variant GNU's RV64 assembler and ours both accept (see the header comment).
bool rv64_variant(uint32_t word) {
  const isa::InsnInfo& row = isa::info(*isa::decode_op(word));
  for (const isa::OperandSlot& s : row.operands) {
    if (isa::is_pair_register_kind(s.kind) && isa::get_operand(word, s.kind) % 2 != 0) return false;
    if (s.kind == isa::OperandKind::Shamt6 && isa::get_operand(word, s.kind) >= 32) return false;
  }
  return true;
}

enum class RowSet { Scalar, Vector, Rv64 };

bool is_vector(const isa::InsnInfo& row) {
  const uint32_t opcode = row.match & 0x7f;
  if (opcode == 0x57) return true;
  return (opcode == 0x07 || opcode == 0x27) && ((row.match >> 12) & 7) != 2;  // not flw/fsw widths
}

bool ends_pc_relative(const isa::InsnInfo& row) {
  return !row.operands.empty() && isa::is_pc_relative(row.operands.back().kind);
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string f_name(unsigned n) {
  static const char* kNames[32] = {"ft0", "ft1", "ft2", "ft3",  "ft4",  "ft5", "ft6", "ft7",
                                   "fs0", "fs1", "fa0", "fa1",  "fa2",  "fa3", "fa4", "fa5",
                                   "fa6", "fa7", "fs2", "fs3",  "fs4",  "fs5", "fs6", "fs7",
                                   "fs8", "fs9", "fs10", "fs11", "ft8", "ft9", "ft10", "ft11"};
  return kNames[n];
}

std::string normalize(std::string text, bool branch) {
  if (const size_t a = text.find(" <"); a != std::string::npos) text.resize(a);
  if (const size_t c = text.find(" # "); c != std::string::npos) text.resize(c);
  if (const size_t tab = text.find('\t'); tab != std::string::npos) text[tab] = ' ';
  text = std::regex_replace(text, std::regex(", "), ",");
  if (branch) {
    const size_t comma = text.rfind(',') == std::string::npos ? text.find(' ') : text.rfind(',');
    std::string target = text.substr(comma + 1);
    if (target.rfind("0x", 0) != 0) target = "0x" + target;
    text = text.substr(0, comma + 1) + target;
  }
  std::string out;
  static const std::regex hex(R"(0x([0-9a-f]+))");
  auto begin = std::sregex_iterator(text.begin(), text.end(), hex);
  size_t last = 0;
  for (auto it = begin; it != std::sregex_iterator(); ++it) {
    out += text.substr(last, it->position() - last) + std::to_string(std::stoull((*it)[1], nullptr, 16));
    last = it->position() + it->length();
  }
  out += text.substr(last);
  for (unsigned n = 0; n < 32; ++n)
    out = std::regex_replace(out, std::regex("\\b" + f_name(n) + "\\b"), std::string(isa::xreg_abi_name(n)));
  return out;
}

struct Line {
  const isa::InsnInfo* row;
  std::string gnu, ventus;
};

// Operand text for one word: our printer in offset mode, branch offsets replaced by labels
// of neighbouring lines.
Line make_line(const isa::InsnInfo& row, uint32_t word, size_t index, int target_delta, bool vector) {
  isa::PrintOptions o;
  o.aliases = false;
  o.absolute_targets = false;
  std::string text = isa::print_instruction(word, 0, o)->text();
  if (ends_pc_relative(row)) {
    text.resize(text.rfind(' ') + 1);
    text += fmt::format("L{}", static_cast<long>(index) + target_delta);
  }
  Line l{&row, text, text};
  if (vector && row.cls == isa::InsnClass::VFloat) {
    // Scalar operands of vector FP rows are f registers for GNU.
    for (unsigned n = 0; n < 32; ++n)
      l.gnu = std::regex_replace(l.gnu, std::regex("\\b" + std::string(isa::xreg_abi_name(n)) + "\\b(?!\\()"),
                                 f_name(n));
  }
  return l;
}

struct Assembled {
  std::vector<uint32_t> words;
  std::map<size_t, std::string> rejected;  // line index -> GNU's message
  std::vector<std::string> listing;        // GNU objdump instruction texts
};

std::string source_of(const std::vector<Line>& lines, bool gnu) {
  std::string s = ".option norelax\n.text\n";
  for (size_t i = 0; i < lines.size(); ++i) s += fmt::format("L{}: {}\n", i, gnu ? lines[i].gnu : lines[i].ventus);
  s += fmt::format("L{}: ebreak\n", lines.size());
  return s;
}

Assembled gnu_assemble(const std::vector<Line>& lines, const std::string& march, const fs::path& dir) {
  Assembled a;
  const fs::path src = dir / "in.s", obj = dir / "in.o", err = dir / "err.txt", dis = dir / "dis.txt";
  std::ofstream(src) << source_of(lines, true);
  const int rc = std::system(fmt::format("riscv64-unknown-elf-as -march={} -o {} {} 2>{}", march, obj.string(),
                                         src.string(), err.string())
                                 .c_str());
  if (rc != 0) {
    static const std::regex message(R"(in\.s:(\d+): Error: (.*))");
    std::istringstream in(read_file(err));
    std::string line;
    std::smatch m;
    while (std::getline(in, line))
      if (std::regex_search(line, m, message)) a.rejected[std::stoul(m[1]) - 3] = m[2];
    return a;
  }
  // The RV64 object is ELF64, which the Ventus ELF reader does not read: take the bytes of
  // .text through objcopy for every set.
  const fs::path text = dir / "text.bin";
  std::system(fmt::format("riscv64-unknown-elf-objcopy -O binary -j .text {} {}", obj.string(),
                          text.string())
                  .c_str());
  const std::string bytes = read_file(text);
  a.words.resize(bytes.size() / 4);
  std::memcpy(a.words.data(), bytes.data(), a.words.size() * 4);
  std::system(fmt::format("riscv64-unknown-elf-objdump -d -M no-aliases {} > {}", obj.string(), dis.string()).c_str());
  static const std::regex insn(R"(^\s*[0-9a-f]+:\t[0-9a-f]{8}\s+\t(.*)$)");
  std::istringstream in(read_file(dis));
  std::string line;
  std::smatch m;
  while (std::getline(in, line))
    if (std::regex_match(line, m, insn)) a.listing.push_back(m[1]);
  return a;
}

void cross_check(RowSet set) {
  if (!have_binutils()) GTEST_SKIP() << "riscv64-unknown-elf-as/objdump not installed (binutils-riscv64-unknown-elf)";
  const bool vector = set == RowSet::Vector;
  const std::string march = vector                 ? "rv32ima_zicsr_zve32f"
                            : set == RowSet::Rv64 ? "rv64ima_zicsr"
                                                  : "rv32ima_zicsr_zfinx";
  char dir_template[] = "/tmp/ventus-binutils-XXXXXX";
  ASSERT_NE(mkdtemp(dir_template), nullptr);
  const fs::path dir = dir_template;
  std::mt19937 rng(vector ? 99 : set == RowSet::Rv64 ? 64 : 42);
  std::vector<Line> lines;
  std::set<std::string> rows;
  for (const isa::InsnInfo& row : isa::instructions()) {
    if (is_custom(row) || is_outside_zfinx(row) || is_vector(row) != vector ||
        is_rv64(row) != (set == RowSet::Rv64))
      continue;
    rows.insert(std::string(row.mnemonic));
    for (int variant = 0, attempts = 0; variant < 6 && attempts < 100; ++attempts) {
      const uint32_t word = row.match | (rng() & ~row.mask);
      if (isa::decode_op(word) != row.op) continue;
      if (set == RowSet::Rv64 && !rv64_variant(word)) continue;
      lines.push_back(make_line(row, word, lines.size(), variant % 3 - 1, vector));
      ++variant;
    }
  }
  // Drop the lines GNU rejects for RVV operand constraints, then assemble again.
  Assembled gnu = gnu_assemble(lines, march, dir);
  for (int round = 0; round < 3 && !gnu.rejected.empty(); ++round) {
    std::vector<Line> kept;
    for (size_t i = 0; i < lines.size(); ++i) {
      auto it = gnu.rejected.find(i);
      if (it == gnu.rejected.end()) {
        kept.push_back(lines[i]);
        continue;
      }
      EXPECT_NE(it->second.find("illegal operands"), std::string::npos)
          << "GNU as rejects '" << lines[i].gnu << "': " << it->second;
    }
    // Branch labels are line numbers: rebuild the texts for the kept lines.
    for (size_t i = 0; i < kept.size(); ++i)
      if (ends_pc_relative(*kept[i].row)) {
        for (std::string* t : {&kept[i].gnu, &kept[i].ventus}) {
          t->resize(t->rfind('L'));
          *t += fmt::format("L{}", i);
        }
      }
    lines = std::move(kept);
    gnu = gnu_assemble(lines, march, dir);
  }
  ASSERT_TRUE(gnu.rejected.empty()) << gnu.rejected.begin()->second;
  std::set<std::string> covered;
  for (const Line& l : lines) covered.insert(std::string(l.row->mnemonic));
  EXPECT_EQ(covered, rows) << "every standard row keeps at least one variant";

  assembler::Options options;
  options.start_files = false;
  options.section_start[".text"] = 0;
  const elf::Image ours = assembler::assemble({{"in.s", source_of(lines, false)}}, options);
  const std::vector<uint32_t> words = test::words_of(test::section(ours, ".text"));
  ASSERT_EQ(words.size(), gnu.words.size());
  ASSERT_EQ(gnu.listing.size(), gnu.words.size());
  for (size_t i = 0; i < lines.size(); ++i) {
    EXPECT_EQ(words[i], gnu.words[i]) << std::hex << lines[i].ventus << ": ventus " << words[i] << ", GNU "
                                      << gnu.words[i];
    listing::Options lo;
    lo.aliases = false;
    const std::string mine = listing::instruction_text(words[i], static_cast<uint32_t>(4 * i), lo, 0, false);
    const bool branch = ends_pc_relative(*lines[i].row);
    std::string theirs = normalize(gnu.listing[i], branch);
    if (lines[i].row->cls == isa::InsnClass::Csr) {
      // Rule 7: a CSR name GNU knows and Ventus does not (hedeleg, satp...) becomes the
      // number in the word (the words are compared equal above).
      const size_t a = theirs.find(','), b = theirs.find(',', a + 1);
      const std::string name = theirs.substr(a + 1, b - a - 1);
      if (!std::isdigit(static_cast<unsigned char>(name[0])) && !isa::csr_by_name(name))
        theirs = theirs.substr(0, a + 1) + std::to_string(words[i] >> 20) + theirs.substr(b);
    }
    EXPECT_EQ(normalize(mine, branch), theirs) << lines[i].ventus;
  }
  EXPECT_GT(lines.size(), vector ? 500u : set == RowSet::Rv64 ? 200u : 250u);
  fs::remove_all(dir);
}

TEST(Binutils, ScalarRowsAssembleAndDisassembleLikeGnu) { cross_check(RowSet::Scalar); }
TEST(Binutils, VectorRowsAssembleAndDisassembleLikeGnu) { cross_check(RowSet::Vector); }
TEST(Binutils, Rv64PairRowsAssembleAndDisassembleLikeGnuRv64) { cross_check(RowSet::Rv64); }

// .insn in every GNU format, x registers and branch targets as labels: the same words.
TEST(Binutils, InsnDirectiveEncodesLikeGnu) {
  if (!have_binutils()) GTEST_SKIP() << "riscv64-unknown-elf-as/objdump not installed (binutils-riscv64-unknown-elf)";
  char dir_template[] = "/tmp/ventus-binutils-XXXXXX";
  ASSERT_NE(mkdtemp(dir_template), nullptr);
  const fs::path dir = dir_template;
  std::vector<Line> lines;
  for (const char* text :
       {".insn r 0x33, 0, 0x20, a0, a1, a2", ".insn r 0b0110011, 0b111, 0b0000001, s0, t1, x31",
        ".insn r4 0x43, 0, 0, a0, a1, a2, a3", ".insn r4 0x4f, 7, 0, t0, t1, t2, s1",
        ".insn i 0x13, 0, a0, a1, -2048", ".insn i 0x13, 6, tp, gp, 2047",
        ".insn i 0x03, 0b010, a0, -8(sp)", ".insn i 0x67, 0, ra, 4(t0)",
        ".insn s 0x23, 2, a2, 2047(a1)", ".insn s 0x23, 0, zero, -2048(s1)",
        ".insn u 0x37, a0, 0xfffff", ".insn u 0x17, t3, 1", ".insn b 0x63, 1, a0, a1, L0",
        ".insn b 0x63, 7, s2, s3, L17", ".insn j 0x6f, ra, L1", ".insn j 0x6f, zero, L18",
        ".insn 0x00b50533", ".insn 0x02c5f533"})
    lines.push_back({nullptr, text, text});
  const Assembled gnu = gnu_assemble(lines, "rv32ima_zicsr_zfinx", dir);
  ASSERT_TRUE(gnu.rejected.empty()) << gnu.rejected.begin()->second;
  std::vector<uint32_t> mine = test::text_words(source_of(lines, false));
  EXPECT_EQ(mine, gnu.words);
  fs::remove_all(dir);
}

}  // namespace
