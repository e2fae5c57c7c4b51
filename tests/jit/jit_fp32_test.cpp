// The translating tier's inline fp32 vector arithmetic (src/jit/emit_fp32.cpp) against the
// interpreter: every inlined row, unmasked and under a partial v0 mask, on special operands
// (signed zeros, infinities, quiet and signaling NaNs, subnormals, the extreme normals, the
// integer limits, products and sums that overflow, underflow or round up to the smallest
// normal) and random ones, in all five rounding modes through frm and with a reserved frm, at vl =
// 32 and a short vl, 30 threads per warp, and at SEW=16 (the semantics' path). Each row's result
// and the fflags it raised are stored, so a wrong bit, a flag too many or too few, or a
// non-canonical NaN in the translated run makes the outputs differ.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <random>

#if defined(__x86_64__)
#include <immintrin.h>
#endif
#include <string>
#include <vector>

#include "row_kernel.h"
#include "semantics.h"
#include "sim_harness.h"
#include "translator.h"

namespace ventus::test {
namespace {

constexpr uint32_t kArgs = kIn + 640;  // frm, the .vf scalar, vl, vtype (e32: 16, e16: 8)
constexpr uint32_t kMapped = 32 * 1024;

// Every inlined row, with vd = v4 (preset to c), vs2 = v1 (a), vs1 = v2 (b), f = a0.
const char* const kRows[] = {
    "vfadd.vv v4, v1, v2",    "vfadd.vf v4, v1, a0",     "vfsub.vv v4, v1, v2",
    "vfsub.vf v4, v1, a0",    "vfrsub.vf v4, v1, a0",    "vfmul.vv v4, v1, v2",
    "vfmul.vf v4, v1, a0",    "vfdiv.vv v4, v1, v2",     "vfdiv.vf v4, v1, a0",
    "vfrdiv.vf v4, v1, a0",   "vfsqrt.v v4, v1",         "vfmacc.vv v4, v2, v1",
    "vfmacc.vf v4, a0, v1",   "vfnmacc.vv v4, v2, v1",   "vfnmacc.vf v4, a0, v1",
    "vfmsac.vv v4, v2, v1",   "vfmsac.vf v4, a0, v1",    "vfnmsac.vv v4, v2, v1",
    "vfnmsac.vf v4, a0, v1",  "vfmadd.vv v4, v2, v1",    "vfmadd.vf v4, a0, v1",
    "vfnmadd.vv v4, v2, v1",  "vfnmadd.vf v4, a0, v1",   "vfmsub.vv v4, v2, v1",
    "vfmsub.vf v4, a0, v1",   "vfnmsub.vv v4, v2, v1",   "vfnmsub.vf v4, a0, v1",
    "vfmin.vv v4, v1, v2",    "vfmin.vf v4, v1, a0",     "vfmax.vv v4, v1, v2",
    "vfmax.vf v4, v1, a0",    "vmfeq.vv v4, v1, v2",     "vmfeq.vf v4, v1, a0",
    "vmfne.vv v4, v1, v2",    "vmfne.vf v4, v1, a0",     "vmflt.vv v4, v1, v2",
    "vmflt.vf v4, v1, a0",    "vmfle.vv v4, v1, v2",     "vmfle.vf v4, v1, a0",
    "vmfgt.vf v4, v1, a0",    "vmfge.vf v4, v1, a0",     "vfcvt.f.x.v v4, v1",
    "vfcvt.f.xu.v v4, v1",    "vfcvt.x.f.v v4, v1",      "vfcvt.xu.f.v v4, v1",
    "vfcvt.rtz.x.f.v v4, v1", "vfcvt.rtz.xu.f.v v4, v1",
};
constexpr size_t kRowCount = std::size(kRows);

// Each row once unmasked and once under v0, its fflags read (and cleared) after it; then a
// chain of rows in one block whose flags accrue together.
std::string kernel() {
  std::string s = load_operands();
  s += R"(
    lw t0, 640(s0)
    csrw frm, t0
    lw a0, 644(s0)
    lw t2, 648(s0)
    lw s5, 652(s0)
    li s6, 16
    li s7, 32
    csrwi fflags, 0
)";
  for (const char* masking : {"", ", v0.t"}) {
    for (const char* row : kRows) {
      s += "    vsetvl x0, t2, s5\n    vmv.v.v v4, v3\n    " + std::string(row) + masking + "\n";
      s += "    csrrw t1, fflags, x0\n    vsetvl x0, s7, s6\n";
      s += "    vsw12.v v4, 0(v12)\n    sw t1, 128(s1)\n";
      s += "    addi s1, s1, 132\n    vadd.vx v12, v10, s1\n";
    }
  }
  s += R"(
    vsetvl x0, t2, s5
    vmv.v.v v4, v3
    vfmul.vv v5, v1, v2
    vfadd.vv v6, v5, v3
    vfmacc.vv v4, v1, v2, v0.t
    vfsub.vf v7, v6, a0
    vfmin.vv v8, v7, v1
    vmflt.vv v9, v8, v2
    vfdiv.vv v13, v1, v2, v0.t
    vfsqrt.v v14, v6
    csrr t1, fflags
    vsetvl x0, s7, s6
    vsw12.v v4, 0(v12)
    vsw12.v v5, 128(v12)
    vsw12.v v6, 256(v12)
    vsw12.v v7, 384(v12)
    vsw12.v v8, 512(v12)
    vsw12.v v9, 640(v12)
    vsw12.v v13, 768(v12)
    vsw12.v v14, 896(v12)
    sw t1, 1024(s1)
    endprg x0, x0, x0
)";
  return s;
}
constexpr size_t kOutWords = 2 * kRowCount * 33 + 8 * 32 + 1;

// Operands that reach every special case of fp/fp32.cpp.
const uint32_t kSpecials[] = {
    0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001, 0xff800001,
    0x7fa00000, 0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000, 0x80800000, 0x7f7fffff,
    0xff7fffff, 0x3f800000, 0xbf800000, 0x3f800001, 0x3f7fffff, 0x34000000, 0x33800000, 0x1f800000,
    0x5f800000, 0x00400000, 0x3fc00000, 0x40490fdb, 0x7effffff, 0x00800001, 0xc0000000, 0x3effffff,
    0x20000001, 0x5effffff, 0x0ffffff1,
    // Conversions: the int32/uint32 limits and halves, and integers that round to fp32.
    0x4f000000, 0x4effffff, 0xcf000000, 0xcf000001, 0x4f800000, 0x4f7fffff, 0x3f000000, 0xbf000000,
    0x40200000, 0xbfc00000, 0x01000001, 0xffffffff, 0x7fffffff, 0x00ffffff, 0x80000081};
constexpr size_t kSpecialCount = std::size(kSpecials);

struct Operands {
  uint32_t a[32], b[32], c[32];
};

// Set 0..2: specials against specials in three lane pairings; 3: random bit patterns (NaN
// payloads, subnormals, anything); 4: magnitudes near the top and the bottom of the range,
// whose products and sums overflow or underflow; 5: near-equal operands (cancellation, and
// the rounding of 1 +- a few ulp).
Operands operands(unsigned set) {
  Operands o{};
  std::mt19937 random(1234 + set);
  const auto bits = [&] { return static_cast<uint32_t>(random()); };
  for (unsigned i = 0; i < 32; ++i) {
    switch (set) {
      case 0:
      case 1:
      case 2:
        o.a[i] = kSpecials[(i + 11 * set) % kSpecialCount];
        o.b[i] = kSpecials[(7 * i + 3 + 5 * set) % kSpecialCount];
        o.c[i] = kSpecials[(13 * i + 5 + 17 * set) % kSpecialCount];
        break;
      case 3:
        o.a[i] = bits();
        o.b[i] = bits();
        o.c[i] = bits();
        break;
      case 4: {
        // Exponent fields 0..8 or 246..254 with random fractions and signs.
        const auto extreme = [&] {
          const uint32_t e = bits() % 18;
          return (bits() & 0x807fffffu) | ((e < 9 ? e : 237 + e) << 23);
        };
        o.a[i] = extreme();
        o.b[i] = (bits() & 0x807fffffu) | ((bits() % 9 + 59) << 23);  // 2^-68..2^-60
        if (i & 1) o.b[i] ^= 0x7f000000u & ~(o.b[i] & 0x40000000u);   // and big ones
        o.c[i] = extreme();
        break;
      }
      default: {
        const uint32_t base = (bits() & 0x807fffffu) | ((bits() % 60 + 100) << 23);
        o.a[i] = base;
        o.b[i] = base + (bits() % 5) - 2;
        o.c[i] = (base ^ 0x80000000u) + (bits() % 3);
        break;
      }
    }
  }
  // Lanes 0..3 of set 0: products that are tiny before rounding and round up to the
  // smallest normal or stay below it.
  if (set == 0) {
    const uint32_t pairs[4][2] = {{0x3f800001, 0x007fffff},
                                  {0x3f7fffff, 0x00800000},
                                  {0x3f000001, 0x00ffffff},
                                  {0xbf800001, 0x007fffff}};
    for (unsigned i = 0; i < 4; ++i) {
      o.a[i] = pairs[i][0];
      o.b[i] = pairs[i][1];
      o.c[i] = 0x80000000u;
    }
  }
  return o;
}

struct Args {
  uint32_t frm, scalar, vl, sew16;
};

// One device per tier, the kernel loaded once and its code protected, so that translations
// live from launch to launch while the inputs change.
class Tier {
 public:
  explicit Tier(sim::JitMode mode, const std::string& program = kernel(),
                sim::DeviceConfig config = {}, uint32_t warps = 2)
      : mode_(mode), device_(config), warps_(warps) {
    device_.memory().map(kIn, kMapped);
    elf::Image image;
    load_program(device_, program, &image);
    for (const elf::Section& s : image.sections)
      if (s.alloc && s.exec) device_.memory().protect(s.address, s.size, s.name);
  }

  sim::LaunchResult run(const Operands& o, const Args& args, std::vector<uint32_t>& out) {
    std::vector<uint32_t> in(160);
    std::copy(o.a, o.a + 32, in.begin());
    std::copy(o.b, o.b + 32, in.begin() + 32);
    std::copy(o.c, o.c + 32, in.begin() + 64);
    for (unsigned i = 0; i < 32; ++i) in[96 + i] = (0x5a3c96e1u >> i) & 1;  // v0
    EXPECT_TRUE(device_.memory().write(kIn, in.data(), in.size() * 4));
    const uint32_t words[4] = {args.frm, args.scalar, args.vl, args.sew16 ? 8u : 16u};
    EXPECT_TRUE(device_.memory().write(kArgs, words, sizeof words));
    const std::vector<uint32_t> zeros(kOutWords, 0xdeadbeefu);
    EXPECT_TRUE(device_.memory().write(kOut, zeros.data(), zeros.size() * 4));
    sim::RunOptions options;
    options.jit = mode_;
    const sim::LaunchResult r = device_.run(launch_of(warps_, 30), options);
    out = read_words(device_, kOut, kOutWords);
    return r;
  }

 private:
  sim::JitMode mode_;
  sim::Device device_;
  uint32_t warps_;
};

std::string hex(uint32_t value) {
  char text[12];
  std::snprintf(text, sizeof text, "0x%08x", value);
  return text;
}

// The row and the word of the output that `word` is.
std::string where(size_t word) {
  const size_t row = word / 33;
  if (row >= 2 * kRowCount) return "the chain's word " + std::to_string(word - 2 * kRowCount * 33);
  return std::string(kRows[row % kRowCount]) + (row >= kRowCount ? ", v0.t" : "") +
         (word % 33 == 32 ? ": fflags" : ": lane " + std::to_string(word % 33));
}

TEST(JitFp32, EveryInlinedRowMatchesTheInterpreter) {
  // Both tiers: the blocks compiled at once as hot blocks end up (Force) and as they start
  // (ForceQuick: -O0 code generation).
  Tier off(sim::JitMode::Off), forced(sim::JitMode::Force), quick(sim::JitMode::ForceQuick);
  const uint64_t before = jit::blocks_translated_in_process();
  std::mt19937 random(99);
  for (unsigned set = 0; set < 6; ++set) {
    const Operands o = operands(set);
    for (const Args args :
         {Args{0, 0, 32, 0}, Args{1, 0, 32, 0}, Args{2, 0, 32, 0}, Args{3, 0, 32, 0},
          Args{4, 0, 32, 0}, Args{0, 0, 19, 0}, Args{3, 0, 32, 1}, Args{5, 0, 32, 0}}) {
      Args with_scalar = args;
      with_scalar.scalar =
          set < 3 ? kSpecials[(set * 5 + args.frm) % kSpecialCount] : o.b[random() % 32];
      std::vector<uint32_t> expected;
      const sim::LaunchResult a = off.run(o, with_scalar, expected);
      EXPECT_EQ(args.frm == 5, a.fault.has_value()) << fault_text(a);
      for (Tier* translated : {&forced, &quick}) {
        std::vector<uint32_t> got;
        const sim::LaunchResult b = translated->run(o, with_scalar, got);
        const std::string what = std::string(translated == &quick ? "quick tier, " : "") + "set " +
                                 std::to_string(set) + ", frm " + std::to_string(args.frm) +
                                 ", vl " + std::to_string(args.vl) + (args.sew16 ? ", SEW=16" : "");
        ASSERT_EQ(fault_text(a), fault_text(b)) << what;
        EXPECT_EQ(a.stats.thread_instructions, b.stats.thread_instructions) << what;
        for (size_t w = 0; w < expected.size(); ++w) {
          const size_t lane = w % 33;
          ASSERT_EQ(expected[w], got[w])
              << what << ", " << where(w)
              << (lane < 32 && w < 2 * kRowCount * 33
                      ? "\n a " + hex(o.a[lane]) + " b " + hex(o.b[lane]) + " c " + hex(o.c[lane]) +
                            " f " + hex(with_scalar.scalar)
                      : "");
        }
      }
    }
  }
  EXPECT_GT(jit::blocks_translated_in_process(), before);
}

// A block that loops over rounding rows keeps MXCSR set across its rounds (MxcsrRun) while
// their values run into overflow and underflow round by round: 4 warps (the scheduling
// quantum leaves and re-enters the block), every rounding mode, and budgets that stop the
// launch inside the loop. Each warp stores its rows and the fflags accrued over the loop.
const std::string kLoopKernel = load_operands(R"(    csrr t6, wid
    slli t6, t6, 10
    add s1, s1, t6)") + R"(
    lw t0, 640(s0)
    csrw frm, t0
    csrwi fflags, 0
    li t0, 150
.Lloop:
    vfmul.vv v3, v3, v2
    vfadd.vv v4, v4, v3
    vfmacc.vv v5, v1, v3, v0.t
    vmflt.vv v6, v3, v1
    vfcvt.x.f.v v7, v4
    addi t0, t0, -1
    bnez t0, .Lloop
    csrr t1, fflags
    vsw12.v v3, 0(v12)
    vsw12.v v4, 128(v12)
    vsw12.v v5, 256(v12)
    vsw12.v v6, 384(v12)
    vsw12.v v7, 512(v12)
    sw t1, 640(s1)
    endprg x0, x0, x0
)";

TEST(JitFp32, LoopingBlockKeepsTheRoundingModeAndFlags) {
  Operands o{};
  std::mt19937 random(7);
  const uint32_t factors[] = {0x40000000, 0x3f000000, 0x3fc00000, 0x3f400000,
                              0xbfc00001, 0x3f800000, 0x40400000, 0x3e800000};
  for (unsigned i = 0; i < 32; ++i) {
    o.a[i] = (static_cast<uint32_t>(random()) & 0x807fffffu) | 0x3f800000u;
    o.b[i] = factors[i % 8];
    o.c[i] = (static_cast<uint32_t>(random()) & 0x807fffffu) | ((100 + i) << 23);
  }
  for (const uint64_t budget : {uint64_t{0}, uint64_t{333}, uint64_t{1201}, uint64_t{2599}}) {
    sim::DeviceConfig config;
    if (budget) config.instruction_budget = budget;
    Tier off(sim::JitMode::Off, kLoopKernel, config, 4);
    Tier forced(sim::JitMode::Force, kLoopKernel, config, 4);
    Tier quick(sim::JitMode::ForceQuick, kLoopKernel, config, 4);
    for (const uint32_t frm : {0u, 1u, 2u, 3u, 4u}) {
      std::vector<uint32_t> expected;
      const sim::LaunchResult a = off.run(o, Args{frm, 0, 32, 0}, expected);
      for (Tier* translated : {&forced, &quick}) {
        const std::string what = std::string(translated == &quick ? "quick tier, " : "") +
                                 "budget " + std::to_string(budget) + ", frm " +
                                 std::to_string(frm);
        std::vector<uint32_t> got;
        const sim::LaunchResult b = translated->run(o, Args{frm, 0, 32, 0}, got);
        ASSERT_EQ(fault_text(a), fault_text(b)) << what;
        EXPECT_EQ(budget != 0, a.fault.has_value()) << what;
        EXPECT_EQ(a.stats.warp_instructions, b.stats.warp_instructions) << what;
        EXPECT_EQ(a.stats.thread_instructions, b.stats.thread_instructions) << what;
        for (size_t w = 0; w < expected.size(); ++w)
          ASSERT_EQ(expected[w], got[w]) << what << ", word " << w;
        if (!budget) {
          EXPECT_NE(expected[160], 0u) << what << ": the loop raised no flag";
        }
      }
    }
  }
}

#if defined(__x86_64__)
// The host's own rounding mode (an OpenCL host program may set one) neither leaks into the
// simulated arithmetic nor is lost: results are those of a default host, and the host's MXCSR
// control bits are the same after each launch (the runs put them back, mxcsr::needs_restore).
TEST(JitFp32, TheHostsRoundingModeIsKept) {
  const Operands o = operands(3);
  const uint32_t host_default = _mm_getcsr();
  std::vector<uint32_t> expected[2];
  {
    Tier off(sim::JitMode::Off);
    off.run(o, Args{0, o.b[0], 32, 0}, expected[0]);
    off.run(o, Args{3, o.b[0], 32, 0}, expected[1]);
  }
  for (const uint32_t host : {0x7f80u, 0x5f80u}) {  // RTZ, RUP
    Tier off(sim::JitMode::Off), forced(sim::JitMode::Force), quick(sim::JitMode::ForceQuick);
    for (Tier* tier : {&off, &forced, &quick}) {
      for (const uint32_t frm : {0u, 3u}) {
        std::vector<uint32_t> got;
        _mm_setcsr(host);
        tier->run(o, Args{frm, o.b[0], 32, 0}, got);
        const uint32_t after = _mm_getcsr();
        _mm_setcsr(host_default);
        EXPECT_EQ(after & ~0x3fu, host) << "frm " << frm;
        EXPECT_TRUE(got == expected[frm == 3]) << "host MXCSR " << host << ", frm " << frm;
      }
    }
  }
}
#endif

// The rows the test above covers are the ones the translator inlines (on a host with all
// that emit_fp32 uses: FMA3, AVX-512, SSE4.1).
TEST(JitFp32, TheRowsAreInlined) {
  if (!__builtin_cpu_supports("fma") || !__builtin_cpu_supports("avx512f") ||
      !__builtin_cpu_supports("sse4.1"))
    GTEST_SKIP() << "the host lacks FMA3, AVX-512 or SSE4.1: some rows are not inlined";
  for (const char* row : kRows) {
    assembler::Options options;
    options.start_files = false;
    const elf::Image image = assembler::assemble({{"row.s", std::string(row) + "\n"}}, options);
    const elf::Section* text = nullptr;
    for (const elf::Section& s : image.sections)
      if (s.exec && s.size >= 4) text = &s;
    ASSERT_NE(text, nullptr) << row;
    uint32_t word = 0;
    std::memcpy(&word, text->bytes.data(), 4);
    const std::optional<isa::Decoded> decoded = isa::decode(word);
    ASSERT_TRUE(decoded) << row;
    sim::CachedInsn entry;
    entry.insn = *decoded;
    entry.fn = sim::kSemantics[static_cast<size_t>(decoded->op)];
    EXPECT_TRUE(jit::is_inlined(entry)) << row;
  }
}

}  // namespace
}  // namespace ventus::test
