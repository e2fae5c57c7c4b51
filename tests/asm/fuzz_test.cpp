// Robustness: random and mutated input to the assembler, the ELF reader and the
// decoder/disassembler. Whatever the input, the libraries either succeed or throw
// ventus::Error with a message that says where; no other exception, no crash, no hang.
// Seeds are fixed, so a failure reproduces; the failing input is printed.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <sstream>

#include "ventus/asm.h"
#include "ventus/disasm.h"
#include "ventus/elf.h"
#include "ventus/error.h"
#include "ventus/isa.h"
#include "ventus/listing.h"

namespace fs = std::filesystem;

namespace {

using namespace ventus;
using Clock = std::chrono::steady_clock;

// Each single input must finish well within this (the whole suite takes a few seconds).
constexpr auto kPerInputLimit = std::chrono::seconds(2);

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Seed inputs: the repository's assembly sources, the start file, a source exercising
// every directive and operand form, and the cases' llvm-objdump listings (not assembly:
// good at reaching error paths).
std::vector<std::string> seed_sources() {
  std::vector<std::string> seeds = {std::string(assembler::start_file()), R"(
    .text
    .globl k
    .type k, @function
k:  li a0, 0x12345678
    la a1, table
    lw a2, table
    sw a2, table+4, t0
    call s1, helper
    vsetvli t0, zero, e32, m1, ta, ma
    vadd.vi v33, v40, 100
    vadd.vv v1, v2, v3, v0.t
    vlw12.v v4, -4(v5)
    vsw.v v6, 8(v7)
    fadd.s a0, a1, a2, rtz
    csrr t1, CSR_WID
    auipc a3, %pcrel_hi(table)
1:  addi a3, a3, %pcrel_lo(1b)
    vbne v1, v2, 2f
    join zero, zero, 0
2:  barrier x0, x0, 0
    beqz a0, 1b
    endprg x0, x0, x0
helper: ret
    .size k, .-k
    .rodata
    .align 4
table: .word 1, 2, 'a', '\n', .-table, (1 << 4) | 3
    .string "x\ty\\\"\x41\101"
    .data
    .half -1
    .byte 255
    .balign 8
    .dword 0x123456789abcdef
    .section .sbss, "aw", @nobits
    .zero 16
    .equ N, 3 * 4
    .set M, N + 1
)"};
  const fs::path source_dir = VENTUS_SOURCE_DIR;
  for (const char* dir : {"examples", "tests/kernels"})
    if (fs::is_directory(source_dir / dir))
      for (const auto& e : fs::recursive_directory_iterator(source_dir / dir))
        if (e.path().extension() == ".s" || e.path().extension() == ".S")
          seeds.push_back(read_text(e.path()));
  const fs::path cases = VENTUS_CASES_DIR;
  if (fs::is_directory(cases))
    for (const auto& e : fs::directory_iterator(cases))
      if (fs::exists(e.path() / "object.dump"))
        seeds.push_back(read_text(e.path() / "object.dump"));
  return seeds;
}

// Characters that matter to the syntax, more often than plain bytes.
constexpr std::string_view kSyntaxChars =
    ",()%'\"\\#;:.-+*/<>|&^~!$ \t\n0123456789abcdefvxtzrs_LfbeEgpn";

std::string mutate(std::string text, std::mt19937& rng, const std::vector<std::string>& seeds) {
  const auto pick = [&](size_t n) {
    return n == 0 ? size_t{0} : std::uniform_int_distribution<size_t>(0, n - 1)(rng);
  };
  const int edits = 1 + static_cast<int>(pick(8));
  for (int e = 0; e < edits; ++e) {
    const size_t at = pick(text.size() + 1);
    switch (pick(9)) {
      case 0:  // flip a byte to anything
        if (!text.empty()) text[pick(text.size())] = static_cast<char>(pick(256));
        break;
      case 1:  // insert a syntax character
        text.insert(at, 1, kSyntaxChars[pick(kSyntaxChars.size())]);
        break;
      case 2:  // delete a range
        text.erase(at, pick(16));
        break;
      case 3: {  // duplicate a line
        const size_t start = text.rfind('\n', at == 0 ? 0 : at - 1), end = text.find('\n', at);
        const size_t b = start == std::string::npos ? 0 : start + 1;
        text.insert(b, text.substr(b, (end == std::string::npos ? text.size() : end + 1) - b));
        break;
      }
      case 4: {  // splice a piece of another seed
        const std::string& other = seeds[pick(seeds.size())];
        const size_t from = pick(other.size());
        text.insert(at, other.substr(from, pick(200)));
        break;
      }
      case 5: {  // a number becomes an extreme one
        static const char* kNumbers[] = {"0",
                                         "-1",
                                         "2047",
                                         "-2049",
                                         "0x7fffffff",
                                         "0x80000000",
                                         "0xffffffff",
                                         "4294967296",
                                         "1024",
                                         "-1025",
                                         "99999999999999999999999",
                                         "0x",
                                         "08",
                                         "1f",
                                         "1b",
                                         "0b102",
                                         "'",
                                         "'\\x'",
                                         "%hi(",
                                         "%pcrel_lo(x)",
                                         "v255",
                                         "x63",
                                         "v256",
                                         "e64"};
        const size_t digit = text.find_first_of("0123456789", at);
        if (digit != std::string::npos) text.replace(digit, 1, kNumbers[pick(std::size(kNumbers))]);
        break;
      }
      case 6:  // truncate
        text.resize(at);
        break;
      case 7: {  // swap two lines' worth of text
        if (text.size() > 2) std::swap(text[pick(text.size())], text[pick(text.size())]);
        break;
      }
      default: {  // a directive or mnemonic in a random place
        static const char* kWords[] = {
            ".word ",        ".string ", ".align ",    ".section ", ".equ ",    ".space ",
            "la ",           "li ",      "call ",      "lw ",       "vadd.vi ", "regexti ",
            ".option pop\n", ".size ",   "%pcrel_hi(", ".globl ",   "1:",       ".L1:"};
        text.insert(at, kWords[pick(std::size(kWords))]);
        break;
      }
    }
  }
  return text;
}

std::string random_bytes(std::mt19937& rng, size_t max_size) {
  std::string s(std::uniform_int_distribution<size_t>(0, max_size)(rng), '\0');
  for (char& c : s) c = static_cast<char>(rng());
  return s;
}

// Every line of an assembler error names its place: "file:line:column: error: why", or
// "link: error: why" for layout, or the error-limit note.
void expect_located_message(const std::string& message, const std::string& input) {
  static const std::regex located(R"((.+:[0-9]+:[0-9]+|link): error: .+)");
  static const std::regex limit(R"(too many errors \([0-9]+\), stopping)");
  ASSERT_FALSE(message.empty()) << input;
  std::istringstream lines(message);
  for (std::string line; std::getline(lines, line);)
    ASSERT_TRUE(std::regex_match(line, located) || std::regex_match(line, limit))
        << "badly formed error line: " << line << "\ninput:\n"
        << input;
}

// How many inputs were accepted and rejected: a fuzzer that only ever reaches one of the
// two explores little.
struct Outcomes {
  int accepted = 0, rejected = 0;
};

// Assembles; the listing of a successful result must be producible too.
void assemble_one(const std::string& text, bool start_files, Outcomes& outcomes) {
  assembler::Options options;
  options.start_files = start_files;
  const auto begin = Clock::now();
  try {
    const elf::Image image = assembler::assemble({{"fuzz.s", text}}, options);
    listing::disassemble(image, "fuzz");
    listing::symbol_table(image, "fuzz");
    ++outcomes.accepted;
  } catch (const Error& e) {
    ++outcomes.rejected;
    expect_located_message(e.what(), text);
  } catch (const std::exception& e) {
    FAIL() << "assembler threw " << typeid(e).name() << " (" << e.what() << ") for:\n" << text;
  }
  ASSERT_LT(Clock::now() - begin, kPerInputLimit) << "slow input:\n" << text;
}

TEST(Fuzz, AssemblerOnMutatedSources) {
  const std::vector<std::string> seeds = seed_sources();
  std::mt19937 rng(20240601);
  Outcomes outcomes;
  for (const std::string& seed : seeds) assemble_one(seed, false, outcomes);
  for (int i = 0; i < 4000; ++i) {
    const std::string& seed = seeds[rng() % seeds.size()];
    assemble_one(mutate(seed, rng, seeds), i % 4 == 0, outcomes);
    if (HasFatalFailure()) return;
  }
  std::printf("%zu seeds; %d inputs assembled, %d rejected with located errors\n", seeds.size(),
              outcomes.accepted, outcomes.rejected);
  EXPECT_GT(outcomes.accepted, 200);
  EXPECT_GT(outcomes.rejected, 200);
}

TEST(Fuzz, AssemblerOnRandomBytesAndLines) {
  std::mt19937 rng(77);
  Outcomes outcomes;
  for (int i = 0; i < 1500; ++i) {
    assemble_one(random_bytes(rng, 300), false, outcomes);
    // Lines of syntax characters only: deeper into the parsers than random bytes.
    std::string s(rng() % 120, ' ');
    for (char& c : s) c = kSyntaxChars[rng() % kSyntaxChars.size()];
    assemble_one(s, false, outcomes);
    if (HasFatalFailure()) return;
  }
  std::printf("%d inputs assembled, %d rejected with located errors\n", outcomes.accepted,
              outcomes.rejected);
}

// ---------------------------------------------------------------- ELF reader

struct ElfFields {
  uint32_t phoff, shoff;
  uint16_t phnum, shnum, shstrndx;
};
constexpr size_t kEhdrSize = 52, kShdrSize = 40, kPhdrSize = 32;

uint32_t get32(const std::vector<uint8_t>& b, size_t at) {
  uint32_t v = 0;
  if (at + 4 <= b.size()) std::memcpy(&v, b.data() + at, 4);
  return v;
}
uint16_t get16(const std::vector<uint8_t>& b, size_t at) {
  uint16_t v = 0;
  if (at + 2 <= b.size()) std::memcpy(&v, b.data() + at, 2);
  return v;
}
void put32(std::vector<uint8_t>& b, size_t at, uint32_t v) {
  if (at + 4 <= b.size()) std::memcpy(b.data() + at, &v, 4);
}

ElfFields fields_of(const std::vector<uint8_t>& b) {
  return {get32(b, 28), get32(b, 32), get16(b, 44), get16(b, 48), get16(b, 50)};
}

uint32_t interesting_value(std::mt19937& rng, size_t file_size) {
  const uint32_t choices[] = {0,
                              1,
                              3,
                              0xffffffffu,
                              0x7fffffffu,
                              0x80000000u,
                              static_cast<uint32_t>(file_size),
                              static_cast<uint32_t>(file_size - 1),
                              static_cast<uint32_t>(file_size + 1),
                              static_cast<uint32_t>(file_size / 2),
                              static_cast<uint32_t>(rng())};
  return choices[rng() % std::size(choices)];
}

// Damages one structural field or region of a valid ELF.
std::vector<uint8_t> damage(std::vector<uint8_t> b, std::mt19937& rng, std::string& what) {
  const ElfFields f = fields_of(b);
  const size_t n = b.size();
  switch (rng() % 8) {
    case 0: {  // truncated anywhere
      const size_t keep = rng() % n;
      b.resize(keep);
      what = fmt::format("truncated to {} bytes", keep);
      break;
    }
    case 1: {  // header field
      static constexpr size_t kFields[] = {24, 28, 32, 36,
                                           40};  // entry, phoff, shoff, flags, sizes
      const size_t at = kFields[rng() % std::size(kFields)];
      put32(b, at, interesting_value(rng, n));
      what = fmt::format("header word at {}", at);
      break;
    }
    case 2: {                                  // counts and the string table index
      const size_t at = 44 + 2 * (rng() % 4);  // phnum, shentsize, shnum, shstrndx
      const uint16_t v = static_cast<uint16_t>(rng() % 3 == 0 ? 0xffff : rng() % 40);
      if (at + 2 <= b.size()) std::memcpy(b.data() + at, &v, 2);
      what = fmt::format("header half at {} = {}", at, v);
      break;
    }
    case 3: {  // a section header's offset/size/name/link/type
      if (f.shnum == 0) break;
      const size_t sh = f.shoff + kShdrSize * (rng() % f.shnum);
      static constexpr size_t kWords[] = {
          0, 4, 16, 20, 24, 28, 32, 36};  // name type off size link info align entsize
      const size_t at = sh + kWords[rng() % std::size(kWords)];
      put32(b, at, interesting_value(rng, n));
      what = fmt::format("section header word at {}", at);
      break;
    }
    case 4: {  // a program header field
      if (f.phnum == 0) break;
      const size_t at = f.phoff + kPhdrSize * (rng() % f.phnum) + 4 * (rng() % 8);
      put32(b, at, interesting_value(rng, n));
      what = fmt::format("program header word at {}", at);
      break;
    }
    case 5: {  // random bytes inside the section header table
      for (int i = 0; i < 8; ++i) {
        const size_t at = f.shoff + rng() % (std::max<size_t>(1, f.shnum) * kShdrSize);
        if (at < b.size()) b[at] = static_cast<uint8_t>(rng());
      }
      what = "section header bytes";
      break;
    }
    case 6: {  // random bytes anywhere
      for (int i = 0; i < 16; ++i) b[rng() % b.size()] = static_cast<uint8_t>(rng());
      what = "bytes anywhere";
      break;
    }
    default: {  // the identification bytes
      b[4 + rng() % 12] = static_cast<uint8_t>(rng());
      what = "e_ident";
      break;
    }
  }
  return b;
}

void read_one(const std::vector<uint8_t>& bytes, const std::string& what, Outcomes& outcomes) {
  const auto begin = Clock::now();
  try {
    const elf::Image image = elf::read(bytes, "fuzz.elf");
    // Whatever the reader accepts, the listings must handle.
    listing::disassemble(image, "fuzz.elf");
    listing::symbol_table(image, "fuzz.elf");
    listing::section_headers(image, "fuzz.elf");
    listing::section_contents(image, "fuzz.elf");
    ++outcomes.accepted;
  } catch (const Error& e) {
    ++outcomes.rejected;
    const std::string message = e.what();
    ASSERT_EQ(message.rfind("fuzz.elf: ", 0), 0u)
        << "message without the file name: " << message << " (" << what << ")";
    ASSERT_GT(message.size(), 12u) << what;
  } catch (const std::exception& e) {
    FAIL() << "ELF reader threw " << typeid(e).name() << " (" << e.what() << ") for " << what;
  }
  ASSERT_LT(Clock::now() - begin, kPerInputLimit) << what;
}

TEST(Fuzz, ElfReaderOnDamagedExecutables) {
  std::vector<std::vector<uint8_t>> valid;
  for (const std::string& seed : seed_sources()) {
    try {
      valid.push_back(elf::write(assembler::assemble({{"seed.s", seed}})));
    } catch (const Error&) {
      // listings and kernels that need other files: not a valid seed
    }
  }
  ASSERT_FALSE(valid.empty());
  std::mt19937 rng(4242);
  Outcomes outcomes;
  for (int i = 0; i < 4000; ++i) {
    std::string what;
    std::vector<uint8_t> bytes = valid[rng() % valid.size()];
    const int rounds = 1 + static_cast<int>(rng() % 3);
    for (int r = 0; r < rounds; ++r) {
      std::string step;
      bytes = damage(std::move(bytes), rng, step);
      what += step + "; ";
      if (bytes.empty()) break;
    }
    read_one(bytes, what, outcomes);
    if (HasFatalFailure()) return;
  }
  for (int i = 0; i < 500; ++i) {
    const std::string s = random_bytes(rng, 400);
    std::vector<uint8_t> bytes(s.begin(), s.end());
    if (i % 2 && bytes.size() >= 20)
      std::memcpy(bytes.data(),
                  "\x7f"
                  "ELF\x01\x01\x01\0\0\0\0\0\0\0\0\0\x02\0\xf3\0",
                  20);
    read_one(bytes, "random bytes", outcomes);
    if (HasFatalFailure()) return;
  }
  std::printf("%d damaged files read, %d rejected with an error naming the file\n",
              outcomes.accepted, outcomes.rejected);
  EXPECT_GT(outcomes.accepted, 100);
  EXPECT_GT(outcomes.rejected, 1000);
}

// A truncated executable is an error, whatever the length: the writer puts the section
// header table last, so every truncation loses part of it.
TEST(Fuzz, ElfReaderRejectsEveryTruncation) {
  const std::vector<uint8_t> valid =
      elf::write(assembler::assemble({{"seed.s", "nop\n.data\n.word 1\n"}}));
  for (size_t size = 0; size < valid.size(); ++size) {
    const std::vector<uint8_t> cut(valid.begin(),
                                   valid.begin() + static_cast<std::ptrdiff_t>(size));
    EXPECT_THROW(elf::read(cut, "cut.elf"), Error) << size << " of " << valid.size() << " bytes";
  }
}

// ---------------------------------------------------------------- decoder and printer

TEST(Fuzz, DecoderAndPrinterOnRandomWords) {
  std::mt19937 rng(99);
  // Custom and vector opcodes get extra weight: that is where the table is densest.
  constexpr uint32_t kOpcodes[] = {0x0b, 0x2b, 0x5b, 0x7b, 0x57, 0x07, 0x27,
                                   0x73, 0x53, 0x2f, 0x63, 0x6f, 0x77, 0x3f};
  int decoded = 0;
  for (int i = 0; i < 200000; ++i) {
    uint64_t word = rng();
    if (i % 2) word = (word & ~uint64_t{0x7f}) | kOpcodes[rng() % std::size(kOpcodes)];
    if (isa::instruction_length(static_cast<uint32_t>(word)) == 8) word |= uint64_t{rng()} << 32;
    isa::RegExt ext;
    switch (rng() % 3) {
      case 0: break;
      case 1: ext = isa::RegExt::from_regext(rng() & 0xfff); break;
      default: ext = isa::RegExt::from_regexti(rng() & 0xfff); break;
    }
    const auto op = isa::decode_op(word);
    const auto d = isa::decode(word, ext);
    ASSERT_EQ(op.has_value(), d.has_value()) << std::hex << word;
    for (int mode = 0; mode < 8; ++mode) {
      isa::PrintOptions o;
      o.aliases = mode & 1;
      o.absolute_targets = mode & 2;
      o.extended_registers = mode & 4;
      const auto p = isa::print_instruction(word, 0xfffffff0u + (rng() % 64), o, ext);
      ASSERT_EQ(p.has_value(), op.has_value()) << std::hex << word;
      if (p) {
        ASSERT_FALSE(p->mnemonic.empty()) << std::hex << word;
      }
    }
    if (d) {
      ++decoded;
      ASSERT_LT(d->rd, 256) << std::hex << word;
      ASSERT_LT(d->rs1, 256) << std::hex << word;
      ASSERT_LT(d->rs2, 256) << std::hex << word;
      ASSERT_LT(d->rs3, 256) << std::hex << word;
    }
  }
  EXPECT_GT(decoded, 1000);
}

TEST(Fuzz, RawListingOfRandomBuffers) {
  std::mt19937 rng(5);
  for (int i = 0; i < 2000; ++i) {
    const std::string s = random_bytes(rng, 64);
    const std::vector<uint8_t> bytes(s.begin(), s.end());
    listing::Options o;
    o.aliases = rng() % 2;
    o.extended_registers = rng() % 2;
    const uint32_t base = rng() % 2 ? 0xffffffe0u : rng();
    const std::string out = listing::disassemble_raw(bytes, base, o);
    // One line per instruction (8 bytes for a whole 64-bit one, else 4), and one for a
    // trailing partial word.
    size_t instructions = 0;
    for (size_t at = 0; at < bytes.size(); ++instructions)
      at += (bytes[at] & 0x7f) == 0x3f && at + 8 <= bytes.size() ? 8 : 4;
    const size_t lines = static_cast<size_t>(std::count(out.begin(), out.end(), '\n'));
    ASSERT_EQ(lines, 3 + instructions) << out;
  }
}

}  // namespace
