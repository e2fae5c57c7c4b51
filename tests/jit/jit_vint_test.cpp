// The translating tier's inline vector integer rows (src/jit/emit_vint.cpp) against the
// interpreter: every inlined row, unmasked and (where it has a vm field) under a v0 mask
// whose elements have bits above bit 0, on special operands (0, +-1, INT_MIN, INT_MAX, shift
// amounts around 32, division by 0 and INT_MIN / -1) and random and small ones, with the
// scalar 0, -1, INT_MIN or another, at vl = 32, a short vl and vl = 0, 30 threads per warp,
// and at SEW=16 and SEW=8 (the semantics' path). Each row's vd and x result are stored, so a
// wrong lane, a lane written that should be kept, or a kept x register that changed makes
// the outputs differ; a chain of rows in one block (a compare's result as vmerge's selector
// and a mask) ends the kernel.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "row_kernel.h"
#include "semantics.h"
#include "sim_harness.h"
#include "translator.h"

namespace ventus::test {
namespace {

constexpr uint32_t kArgs = kIn + 512;  // the .vx scalar, vl, vtype
constexpr uint32_t kMapped = 64 * 1024;

struct Row {
  const char* text;
  bool maskable;  // has a vm field: also run with ", v0.t"
};

// Every inlined row, with vd = v4 (preset to c), vs2 = v1 (a), vs1 = v2 (b), x = a0 and an x
// result in t1 (preset to 0x5a5a5a5a).
const Row kRows[] = {
    {"vadd.vv v4, v1, v2", true},
    {"vadd.vx v4, v1, a0", true},
    {"vadd.vi v4, v1, -7", true},
    {"vsub.vv v4, v1, v2", true},
    {"vsub.vx v4, v1, a0", true},
    {"vrsub.vx v4, v1, a0", true},
    {"vrsub.vi v4, v1, 11", true},
    {"vand.vv v4, v1, v2", true},
    {"vand.vx v4, v1, a0", true},
    {"vand.vi v4, v1, -3", true},
    {"vor.vv v4, v1, v2", true},
    {"vor.vx v4, v1, a0", true},
    {"vor.vi v4, v1, 9", true},
    {"vxor.vv v4, v1, v2", true},
    {"vxor.vx v4, v1, a0", true},
    {"vxor.vi v4, v1, -1", true},
    {"vsll.vv v4, v1, v2", true},
    {"vsll.vx v4, v1, a0", true},
    {"vsll.vi v4, v1, 31", true},
    {"vsrl.vv v4, v1, v2", true},
    {"vsrl.vx v4, v1, a0", true},
    {"vsrl.vi v4, v1, 3", true},
    {"vsra.vv v4, v1, v2", true},
    {"vsra.vx v4, v1, a0", true},
    {"vsra.vi v4, v1, 17", true},
    {"vminu.vv v4, v1, v2", true},
    {"vminu.vx v4, v1, a0", true},
    {"vmin.vv v4, v1, v2", true},
    {"vmin.vx v4, v1, a0", true},
    {"vmaxu.vv v4, v1, v2", true},
    {"vmaxu.vx v4, v1, a0", true},
    {"vmax.vv v4, v1, v2", true},
    {"vmax.vx v4, v1, a0", true},
    {"vmseq.vv v4, v1, v2", true},
    {"vmseq.vx v4, v1, a0", true},
    {"vmseq.vi v4, v1, -1", true},
    {"vmsne.vv v4, v1, v2", true},
    {"vmsne.vx v4, v1, a0", true},
    {"vmsne.vi v4, v1, 0", true},
    {"vmsltu.vv v4, v1, v2", true},
    {"vmsltu.vx v4, v1, a0", true},
    {"vmslt.vv v4, v1, v2", true},
    {"vmslt.vx v4, v1, a0", true},
    {"vmsleu.vv v4, v1, v2", true},
    {"vmsleu.vx v4, v1, a0", true},
    {"vmsleu.vi v4, v1, -16", true},
    {"vmsle.vv v4, v1, v2", true},
    {"vmsle.vx v4, v1, a0", true},
    {"vmsle.vi v4, v1, 1", true},
    {"vmsgtu.vx v4, v1, a0", true},
    {"vmsgtu.vi v4, v1, 2", true},
    {"vmsgt.vx v4, v1, a0", true},
    {"vmsgt.vi v4, v1, -2", true},
    {"vmul.vv v4, v1, v2", true},
    {"vmul.vx v4, v1, a0", true},
    {"vmulh.vv v4, v1, v2", true},
    {"vmulh.vx v4, v1, a0", true},
    {"vmulhu.vv v4, v1, v2", true},
    {"vmulhu.vx v4, v1, a0", true},
    {"vmulhsu.vv v4, v1, v2", true},
    {"vmulhsu.vx v4, v1, a0", true},
    {"vdivu.vv v4, v1, v2", true},
    {"vdivu.vx v4, v1, a0", true},
    {"vdiv.vv v4, v1, v2", true},
    {"vdiv.vx v4, v1, a0", true},
    {"vremu.vv v4, v1, v2", true},
    {"vremu.vx v4, v1, a0", true},
    {"vrem.vv v4, v1, v2", true},
    {"vrem.vx v4, v1, a0", true},
    {"vmacc.vv v4, v2, v1", true},
    {"vmacc.vx v4, a0, v1", true},
    {"vnmsac.vv v4, v2, v1", true},
    {"vnmsac.vx v4, a0, v1", true},
    {"vmadd.vv v4, v2, v1", true},
    {"vmadd.vx v4, a0, v1", true},
    {"vnmsub.vv v4, v2, v1", true},
    {"vnmsub.vx v4, a0, v1", true},
    {"vmerge.vvm v4, v1, v2, v0", false},
    {"vmerge.vxm v4, v1, a0, v0", false},
    {"vmerge.vim v4, v1, -5, v0", false},
    {"vmv.v.v v4, v2", false},
    {"vmv.v.x v4, a0", false},
    {"vmv.v.i v4, -9", false},
    {"vmv.s.x v4, a0", false},
    {"vid.v v4", true},
    {"vmv.x.s t1, v1", false},
};
constexpr size_t kRowCount = std::size(kRows);

// The runs of the rows: each row unmasked, then the maskable ones under v0.
std::vector<std::string> runs() {
  std::vector<std::string> texts;
  for (const Row& row : kRows) texts.push_back(row.text);
  for (const Row& row : kRows)
    if (row.maskable) texts.push_back(std::string(row.text) + ", v0.t");
  return texts;
}

std::string kernel() {
  std::string s = load_operands();
  s += R"(
    lw a0, 512(s0)
    lw t2, 516(s0)
    lw s5, 520(s0)
    li s6, 16
    li s7, 32
    li s8, 0x5a5a5a5a
)";
  for (const std::string& run : runs()) {
    s += "    vsetvl x0, t2, s5\n    vmv.v.v v4, v3\n    mv t1, s8\n    " + run + "\n";
    s += "    vsetvl x0, s7, s6\n    vsw12.v v4, 0(v12)\n    sw t1, 128(s1)\n";
    s += "    addi s1, s1, 132\n    vadd.vx v12, v10, s1\n";
  }
  s += R"(
    vsetvl x0, t2, s5
    mv t1, s8
    vmseq.vv v5, v1, v2
    vmsltu.vx v0, v1, a0
    vmerge.vvm v6, v1, v2, v0
    vdivu.vv v7, v6, v2, v0.t
    vrem.vx v8, v7, a0
    vmacc.vv v8, v1, v5, v0.t
    vmv.x.s t1, v8
    vsetvl x0, s7, s6
    vsw12.v v5, 0(v12)
    vsw12.v v6, 128(v12)
    vsw12.v v7, 256(v12)
    vsw12.v v8, 384(v12)
    sw t1, 512(s1)
    endprg x0, x0, x0
)";
  return s;
}
const size_t kRunCount = runs().size();
const size_t kOutWords = kRunCount * 33 + 4 * 32 + 1;

const uint32_t kSpecials[] = {0,          1,          2,          3,          7,
                              31,         32,         33,         0x7fffffff, 0x80000000,
                              0x80000001, 0xffffffff, 0xfffffffe, 0xfffffff9, 0x0000ffff,
                              0x00010000, 0x12345678, 0x9abcdef0, 0xfffffff0, 0x0000000b};
constexpr size_t kSpecialCount = std::size(kSpecials);

struct Operands {
  uint32_t a[32], b[32], c[32];
};

// Sets 0..2: specials against specials in three lane pairings (set 0's first lanes divide
// INT_MIN by -1, by 0, and 5 by 0); 3: random bit patterns; 4: small values (-3..3), so that
// compares meet equal operands and divisions meet 0 and -1 often.
Operands operands(unsigned set) {
  Operands o{};
  std::mt19937 random(4321 + set);
  for (unsigned i = 0; i < 32; ++i) {
    if (set < 3) {
      o.a[i] = kSpecials[(i + 7 * set) % kSpecialCount];
      o.b[i] = kSpecials[(3 * i + 5 + 11 * set) % kSpecialCount];
      o.c[i] = kSpecials[(13 * i + 1 + 3 * set) % kSpecialCount];
    } else if (set == 3) {
      o.a[i] = static_cast<uint32_t>(random());
      o.b[i] = static_cast<uint32_t>(random());
      o.c[i] = static_cast<uint32_t>(random());
    } else {
      o.a[i] = static_cast<uint32_t>(static_cast<int32_t>(random() % 7) - 3);
      o.b[i] = static_cast<uint32_t>(static_cast<int32_t>(random() % 7) - 3);
      o.c[i] = static_cast<uint32_t>(random());
    }
  }
  if (set == 0) {
    const uint32_t pairs[3][2] = {{0x80000000, 0xffffffff}, {0x80000000, 0}, {5, 0}};
    for (unsigned i = 0; i < 3; ++i) {
      o.a[i] = pairs[i][0];
      o.b[i] = pairs[i][1];
    }
  }
  return o;
}

struct Config {
  uint32_t vl, vtype;  // vtype: 16 e32, 8 e16, 0 e8
};

class Tier {
 public:
  explicit Tier(sim::JitMode mode) : mode_(mode) {
    device_.memory().map(kIn, kMapped);
    elf::Image image;
    load_program(device_, kernel(), &image);
    for (const elf::Section& s : image.sections)
      if (s.alloc && s.exec) device_.memory().protect(s.address, s.size, s.name);
  }

  sim::LaunchResult run(const Operands& o, uint32_t scalar, const Config& config,
                        std::vector<uint32_t>& out) {
    std::vector<uint32_t> in(128);
    std::copy(o.a, o.a + 32, in.begin());
    std::copy(o.b, o.b + 32, in.begin() + 32);
    std::copy(o.c, o.c + 32, in.begin() + 64);
    // v0: bit 0 selects; the other bits must not.
    for (unsigned i = 0; i < 32; ++i)
      in[96 + i] = ((0x5a3c96e1u >> i) & 1) | (i % 3 == 0 ? 0xfffffff2u : 0);
    EXPECT_TRUE(device_.memory().write(kIn, in.data(), in.size() * 4));
    const uint32_t words[3] = {scalar, config.vl, config.vtype};
    EXPECT_TRUE(device_.memory().write(kArgs, words, sizeof words));
    const std::vector<uint32_t> fill(kOutWords, 0xdeadbeefu);
    EXPECT_TRUE(device_.memory().write(kOut, fill.data(), fill.size() * 4));
    sim::RunOptions options;
    options.jit = mode_;
    const sim::LaunchResult r = device_.run(launch_of(2, 30), options);
    out = read_words(device_, kOut, kOutWords);
    return r;
  }

 private:
  sim::JitMode mode_;
  sim::Device device_;
};

std::string hex(uint32_t value) {
  char text[12];
  std::snprintf(text, sizeof text, "0x%08x", value);
  return text;
}

// The run and the word of the output that `word` is.
std::string where(size_t word) {
  const size_t run = word / 33;
  if (run >= kRunCount) return "the chain's word " + std::to_string(word - kRunCount * 33);
  return runs()[run] + (word % 33 == 32 ? ": x result" : ": lane " + std::to_string(word % 33));
}

// Runs the rows in both tiers and compares every output word.
void expect_same(Tier& off, Tier& forced, const Operands& o, uint32_t scalar, const Config& config,
                 const std::string& what) {
  std::vector<uint32_t> expected, got;
  const sim::LaunchResult a = off.run(o, scalar, config, expected);
  const sim::LaunchResult b = forced.run(o, scalar, config, got);
  ASSERT_FALSE(a.fault.has_value()) << what << ": " << fault_text(a);
  ASSERT_EQ(fault_text(a), fault_text(b)) << what;
  EXPECT_EQ(a.stats.warp_instructions, b.stats.warp_instructions) << what;
  EXPECT_EQ(a.stats.thread_instructions, b.stats.thread_instructions) << what;
  for (size_t w = 0; w < expected.size(); ++w) {
    const size_t lane = w % 33;
    ASSERT_EQ(expected[w], got[w])
        << what << ", " << where(w)
        << (lane < 32 && w < kRunCount * 33
                ? "\n a " + hex(o.a[lane]) + " b " + hex(o.b[lane]) + " c " + hex(o.c[lane])
                : "");
  }
}

std::string describe(unsigned set, const Config& config, uint32_t scalar) {
  return "set " + std::to_string(set) + ", vl " + std::to_string(config.vl) + ", vtype " +
         std::to_string(config.vtype) + ", x " + hex(scalar);
}

TEST(JitVint, EveryInlinedRowMatchesTheInterpreter) {
  // Both tiers: the blocks compiled at once as hot blocks end up (Force) and as they start
  // (ForceQuick: -O0 code generation).
  Tier off(sim::JitMode::Off), forced(sim::JitMode::Force), quick(sim::JitMode::ForceQuick);
  const uint64_t before = jit::blocks_translated_in_process();
  std::mt19937 random(77);
  for (unsigned set = 0; set < 5; ++set) {
    const Operands o = operands(set);
    for (const Config config :
         {Config{32, 16}, Config{19, 16}, Config{0, 16}, Config{32, 8}, Config{13, 0}}) {
      for (const uint32_t scalar :
           {0u, 0xffffffffu, 0x80000000u, static_cast<uint32_t>(random())}) {
        expect_same(off, forced, o, scalar, config, describe(set, config, scalar));
        expect_same(off, quick, o, scalar, config, "quick tier, " + describe(set, config, scalar));
        if (HasFatalFailure()) return;
      }
    }
  }
  EXPECT_GT(jit::blocks_translated_in_process(), before);
}

// The .vx division rows divide by a reciprocal of x (emit_vint.cpp, divide_by_scalar): every
// divisor 1..24, powers of two, the signed and unsigned limits and their neighbours, values
// whose reciprocals round badly (3, 7, 641, 0xaaaaaaab), and random ones, against specials,
// random dividends and small ones.
TEST(JitVint, DivisionByAScalarMatchesTheInterpreter) {
  Tier off(sim::JitMode::Off), forced(sim::JitMode::Force), quick(sim::JitMode::ForceQuick);
  std::vector<uint32_t> divisors = {0x80,       0x10000,    0x7fffffff, 0x80000000, 0x80000001,
                                    0xffffffff, 0xfffffffe, 0xfffffff9, 0x55555555, 0xaaaaaaab,
                                    641,        6700417,    0x0000ffff, 0x00010001, 0xfffffc00};
  for (uint32_t d = 1; d <= 24; ++d) divisors.push_back(d);
  std::mt19937 random(5);
  for (int i = 0; i < 12; ++i) {
    divisors.push_back(static_cast<uint32_t>(random()));
    divisors.push_back(static_cast<uint32_t>(random()) >> (random() % 31));
  }
  const Config config{32, 16};
  for (const unsigned set : {0u, 3u, 4u}) {
    const Operands o = operands(set);
    for (const uint32_t divisor : divisors) {
      expect_same(off, forced, o, divisor, config, describe(set, config, divisor));
      expect_same(off, quick, o, divisor, config, "quick tier, " + describe(set, config, divisor));
      if (HasFatalFailure()) return;
    }
  }
}

// The rows the test above covers are the ones the translator inlines.
TEST(JitVint, TheRowsAreInlined) {
  for (const Row& row : kRows) {
    assembler::Options options;
    options.start_files = false;
    const elf::Image image =
        assembler::assemble({{"row.s", std::string(row.text) + "\n"}}, options);
    const elf::Section* text = nullptr;
    for (const elf::Section& s : image.sections)
      if (s.exec && s.size >= 4) text = &s;
    ASSERT_NE(text, nullptr) << row.text;
    uint32_t word = 0;
    std::memcpy(&word, text->bytes.data(), 4);
    const std::optional<isa::Decoded> decoded = isa::decode(word);
    ASSERT_TRUE(decoded) << row.text;
    sim::CachedInsn entry;
    entry.insn = *decoded;
    entry.fn = sim::kSemantics[static_cast<size_t>(decoded->op)];
    EXPECT_TRUE(jit::is_inlined(entry)) << row.text;
  }
}

}  // namespace
}  // namespace ventus::test
