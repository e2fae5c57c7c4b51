// PREFIX / PREFIXI / PREFIX_MEMORY folded into the next instruction (docs/isa.md,
// "Prefixes"): kernels on the simulator, expected values computed here on the host.
#include <bit>
#include <cmath>
#include <cstring>

#include "sim_harness.h"

namespace ventus::test {
namespace {

constexpr uint32_t kIn = 0x90000000, kOut = 0x90001000;
constexpr unsigned kLanes = 8;

uint32_t bits_of(float f) {
  return std::bit_cast<uint32_t>(f);
}

struct Fixture {
  Fixture() {
    device.memory().map(kIn, 8192);
    device.memory().map(0x91000000, 64 * 1024);  // private memory
  }
  sim::LaunchResult run(const std::string& source) {
    load_program(device, source);
    sim::KernelLaunch l = launch_of(1, kLanes);
    l.pds_base = 0x91000000;
    l.pds_bytes_per_thread = 256;
    return device.run(l);
  }
  sim::Device device;
};

// ABS/NEG on vector fp, vector int (PREFIXI with an 11-bit immediate) and scalar fp32
// sources, with destinations above v31 whose high bits the assembler puts into the prefix.
TEST(Prefix, AbsNegOnVectorAndScalarSources) {
  Fixture f;
  const auto r = f.run(R"(
    li t0, 0x3fc00000          # 1.5
    vid.v v1
    vrsub.vi v2, v1, 0         # -lane
    vfcvt.f.x.v v2, v2         # float(-lane)
    vmv.v.x v3, t0
    prefix neg=1, abs=2
    vfsub.vv v40, v2, v3       # |v2| - (-v3) = lane + 1.5
    prefixi neg=2
    vadd.vi v41, v1, 300       # -lane + 300
    vmv.v.v v5, v1
    prefix neg=1
    vmax.vv v200, v1, v5       # max(lane, -lane)
    li a1, 0x40000000          # 2.0
    li a2, 0x3f800000          # 1.0
    prefix neg=3
    fadd.s a0, a1, a2          # -2 + -1
    prefix abs=1, neg=1
    fsub.s a3, a0, a2          # -|a0| - 1
    li s0, 0x90001000
    vsll.vi v4, v1, 2
    vadd.vx v4, v4, s0
    vsw12.v v40, 0(v4)
    vsw12.v v41, 32(v4)
    vsw12.v v200, 64(v4)
    sw a0, 96(s0)
    sw a3, 100(s0)
    sw a2, 104(s0)             # the sources are unchanged after the prefixed instruction
    prefix neg=1
    fadd.s zero, zero, a2      # -x0 is -0.0 for the instruction; x0 stays 0
    sw zero, 108(s0)
    endprg x0, x0, x0
)");
  ASSERT_TRUE(r.ok()) << fault_text(r);
  const auto out = read_words(f.device, kOut, 28);
  for (unsigned lane = 0; lane < kLanes; ++lane) {
    EXPECT_EQ(out[lane], bits_of(static_cast<float>(lane) + 1.5f)) << lane;
    EXPECT_EQ(out[8 + lane], 300u - lane) << lane;
    EXPECT_EQ(out[16 + lane], lane) << lane;
  }
  EXPECT_EQ(out[24], bits_of(-3.0f));
  EXPECT_EQ(out[25], bits_of(-4.0f));
  EXPECT_EQ(out[26], bits_of(1.0f));
  EXPECT_EQ(out[27], 0u);
}

// PREFIX_MEMORY: 128-bit loads and stores into v8..v11 from consecutive words, the global
// space (a + csr_gds), a 64-bit private store through the interleaved formula read back
// word by word, and a 64-bit address pair.
TEST(Prefix, MemoryWidthSpaceAndAddressPair) {
  Fixture f;
  std::vector<uint32_t> input(4 * kLanes);
  for (size_t i = 0; i < input.size(); ++i) input[i] = 0x1000u * static_cast<uint32_t>(i) + 7;
  ASSERT_TRUE(f.device.memory().write(kIn, input.data(), input.size() * 4));
  const auto r = f.run(R"(
    li s0, 0x90000000
    li s1, 0x90001000
    vid.v v1
    vsll.vi v2, v1, 4            # 16 * lane
    vadd.vx v3, v2, s0
    prefix.mem width=3
    vlw12.v v8, 0(v3)            # v8..v11 = in[4 lane .. 4 lane + 3]
    vadd.vx v5, v2, s1
    prefix.mem width=3, space=1
    vsw12.v v8, 0(v5)            # global: out[4 lane ..] (csr_gds = 0)
    vmv.v.i v6, 0
    prefix.mem width=1, space=2
    vsw12.v v9, 8(v6)            # private words 2 and 3 of each thread
    vmv.v.i v7, 8
    vlw.v v20, 0(v7)
    vlw.v v21, 4(v7)
    vsll.vi v12, v1, 2
    vadd.vx v12, v12, s1
    vsw12.v v20, 128(v12)
    vsw12.v v21, 160(v12)
    vmv.v.x v14, s1              # {v15:v14} = 64-bit address of out + 192
    vmv.v.i v15, 0
    prefix.mem width=2, addr64=1
    vsw12.v v8, 192(v14)         # all lanes to the same 3 words: the last lane wins
    endprg x0, x0, x0
)");
  ASSERT_TRUE(r.ok()) << fault_text(r);
  const auto out = read_words(f.device, kOut, 51);
  for (unsigned lane = 0; lane < kLanes; ++lane) {
    for (unsigned k = 0; k < 4; ++k) EXPECT_EQ(out[4 * lane + k], input[4 * lane + k]);
    EXPECT_EQ(out[32 + lane], input[4 * lane + 1]) << lane;
    EXPECT_EQ(out[40 + lane], input[4 * lane + 2]) << lane;
  }
  for (unsigned k = 0; k < 3; ++k) EXPECT_EQ(out[48 + k], input[4 * (kLanes - 1) + k]);
  // The private words sit where the guide's formula puts them: pds + (a & ~3) * lanes +
  // 4 * lane.
  uint32_t word = 0;
  ASSERT_TRUE(f.device.memory().read(0x91000000 + 8 * kLanes + 4 * 3, &word, 4));
  EXPECT_EQ(word, input[4 * 3 + 1]);
}

// The pair bit: the same 64-bit pair forms as regpair (a carry from the low word into
// the high one shows that the operands are pairs).
TEST(Prefix, PairBitSelectsThePairForm) {
  Fixture f;
  const auto r = f.run(R"(
    vmv.v.i v8, -1
    vid.v v9                   # {v9:v8} = (lane << 32) | 0xffffffff
    vmv.v.i v12, 1
    vmv.v.i v13, 0             # {v13:v12} = 1
    prefix pair=1
    vadd.vv v4, v8, v12
    li s0, 0x90001000
    vid.v v1
    vsll.vi v1, v1, 2
    vadd.vx v1, v1, s0
    vsw12.v v4, 0(v1)
    vsw12.v v5, 32(v1)
    endprg x0, x0, x0
)");
  ASSERT_TRUE(r.ok()) << fault_text(r);
  const auto out = read_words(f.device, kOut, 16);
  for (unsigned lane = 0; lane < kLanes; ++lane) {
    const uint64_t sum = ((uint64_t{lane} << 32) | 0xffffffffu) + 1;
    EXPECT_EQ(out[lane], static_cast<uint32_t>(sum)) << lane;
    EXPECT_EQ(out[8 + lane], static_cast<uint32_t>(sum >> 32)) << lane;
  }
}

TEST(Prefix, Faults) {
  struct Case {
    const char* source;
    const char* message;
  };
  const Case cases[] = {
      {"prefix.mem space=1\naddi t0, t0, 1\n", "prefix.mem applies only to per-thread loads"},
      {"prefix abs=1\nadd t0, t0, t1\n", "ABS/NEG do not apply to add"},
      {"prefix neg=4\nvfadd.vv v1, v2, v3\n", "names source operand 3, which vfadd.vv does not"},
      {"prefix abs=1\nvfadd.vv v3, v2, v3\n", "source v3 of vfadd.vv overlaps its destination"},
      {"prefix abs=1, neg=2\nvfadd.vv v1, v2, v2\n", "which are the same register"},
      {"prefix neg=1\nvmax.vv v1, v2, v2\n", "which are the same register"},
      {"prefix.mem width=1\nvlb12.v v1, 0(v2)\n", "64-bit PREFIX_MEMORY width needs a word load"},
      {"prefix pair=1\nadd t0, t0, t1\n", "add has no 64-bit pair form"},
      {"prefix pair=1, neg=1\nvadd.vv v4, v8, v12\n", "ABS/NEG together with the pair bit"},
      {"prefix\nprefix\n", "which it cannot extend"},
      {"prefix.mem\nv64add.i32 v1, v2, v3\n", "which it cannot extend"},
  };
  for (const Case& c : cases) {
    Fixture f;
    const auto r = f.run(c.source);
    ASSERT_FALSE(r.ok()) << c.source;
    EXPECT_NE(r.fault->message.find(c.message), std::string::npos) << r.fault->message;
  }
  // The fault shows the instruction as it executes.
  Fixture f;
  const auto r = f.run("prefix abs=4, rd=1\nvfadd.vv v3, v2, v3\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.fault->disassembly, "prefix rd=1, abs=4; vfadd.vv v3, v2, v3 # vfadd.vv v35, v2, v3");
}

}  // namespace
}  // namespace ventus::test
