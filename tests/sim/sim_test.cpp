// Hand-assembled kernels on the simulator; expected values are computed here on the host.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <set>

#include "sim_harness.h"
#include "ventus/timing.h"

namespace ventus::test {
namespace {

constexpr uint32_t kOut = 0x90000000;

struct Fixture {
  explicit Fixture(const sim::DeviceConfig& config = {}) : device(config) {
    device.memory().map(kOut, 64 * 1024);
  }
  sim::Device device;
};

TEST(SimScalar, IntegerArithmeticBranchesAndCalls) {
  Fixture f;
  load_program(f.device, R"(
    li s0, 0x90000000
    li t0, -7
    li t1, 3
    div t2, t0, t1
    sw t2, 0(s0)
    rem t2, t0, t1
    sw t2, 4(s0)
    divu t2, t0, zero
    sw t2, 8(s0)
    mulh t2, t0, t1
    sw t2, 12(s0)
    mulhu t2, t0, t1
    sw t2, 16(s0)
    sra t2, t0, t1
    sw t2, 20(s0)
    srl t2, t0, t1
    sw t2, 24(s0)
    slt t2, t0, t1
    sw t2, 28(s0)
    sltu t2, t0, t1
    sw t2, 32(s0)
    li a0, 10
    call sum
    sw a0, 36(s0)
    li t0, 0x8081
    sh t0, 40(s0)
    lb t1, 40(s0)
    sw t1, 44(s0)
    lhu t1, 40(s0)
    sw t1, 48(s0)
    lh t1, 40(s0)
    sw t1, 52(s0)
    lui t1, 0xabcde
    sw t1, 56(s0)
    endprg x0, x0, x0
# sum of 1..a0 by a loop
sum:
    li t0, 0
1:  add t0, t0, a0
    addi a0, a0, -1
    bnez a0, 1b
    mv a0, t0
    ret
)");
  const auto r = f.device.run(launch_of(1, 4));
  ASSERT_TRUE(r.ok()) << fault_text(r);
  const int32_t a = -7, b = 3;
  const std::vector<uint32_t> expected = {
      static_cast<uint32_t>(a / b),
      static_cast<uint32_t>(a % b),
      0xffffffffu,
      static_cast<uint32_t>((int64_t{a} * b) >> 32),
      static_cast<uint32_t>((uint64_t{static_cast<uint32_t>(a)} * 3) >> 32),
      static_cast<uint32_t>(a >> 3),
      static_cast<uint32_t>(a) >> 3,
      1,
      0,
      55,
      0x8081,  // sh stored the low half; the upper half of the word stays 0
      0xffffff81u,
      0x8081,
      0xffff8081u,
      0xabcde000u};
  EXPECT_EQ(read_words(f.device, kOut, expected.size()), expected);
  EXPECT_EQ(r.stats.warp_instructions, r.stats.thread_instructions);  // all scalar
}

// The CSRs of every warp of a 3-workgroup launch, two warps of 8 threads each.
TEST(SimCsr, ValuesAtDispatch) {
  for (uint32_t sms : {1u, 2u}) {
    sim::DeviceConfig config;
    config.num_sms = sms;
    Fixture f(config);
    load_program(f.device, R"(
    csrr t0, gidx
    csrr t1, wid
    slli t0, t0, 1
    add t0, t0, t1
    slli t0, t0, 6
    li s0, 0x90000000
    add s0, s0, t0
    csrr t0, tid
    sw t0, 0(s0)
    csrr t0, numw
    sw t0, 4(s0)
    csrr t0, numt
    sw t0, 8(s0)
    csrr t0, knl
    sw t0, 12(s0)
    csrr t0, wgid
    sw t0, 16(s0)
    csrr t0, wid
    sw t0, 20(s0)
    csrr t0, lds
    sw t0, 24(s0)
    csrr t0, pds
    sw t0, 28(s0)
    csrr t0, gidx
    sw t0, 32(s0)
    csrr t0, gidy
    sw t0, 36(s0)
    csrr t0, vl
    sw t0, 40(s0)
    csrr t0, vlenb
    sw t0, 44(s0)
    csrr t0, vtype
    sw t0, 48(s0)
    li t0, 0x3
    csrw frm, t0
    li t0, 0x7
    csrs fflags, t0
    csrr t0, fcsr
    sw t0, 52(s0)
    endprg x0, x0, x0
)");
    sim::KernelLaunch l = launch_of(2, 8, 3);
    l.knl_address = 0x90008000;
    l.lds_bytes = 2048;
    l.pds_base = 0x91000000;
    l.pds_bytes_per_thread = 256;
    const auto r = f.device.run(l);
    ASSERT_TRUE(r.ok()) << fault_text(r);
    EXPECT_EQ(r.stats.workgroups, 3u);
    for (uint32_t g = 0; g < 3; ++g) {
      for (uint32_t w = 0; w < 2; ++w) {
        const auto words = read_words(f.device, kOut + (g * 2 + w) * 64, 14);
        // Workgroup g runs on SM g % sms, in slot (g / sms) there (all fit at once).
        const uint32_t slot = g / sms;
        EXPECT_EQ(words[0], w * 8);
        EXPECT_EQ(words[1], 2u);
        EXPECT_EQ(words[2], 8u);
        EXPECT_EQ(words[3], 0x90008000u);
        EXPECT_EQ(words[4], slot);
        EXPECT_EQ(words[5], w);
        EXPECT_EQ(words[6], 0x70000000u + slot * 2048);
        EXPECT_EQ(words[7], 0x91000000u + g * 16 * 256 + w * 8 * 256);
        EXPECT_EQ(words[8], g);
        EXPECT_EQ(words[9], 0u);
        EXPECT_EQ(words[10], 8u);
        EXPECT_EQ(words[11], 32u);
        EXPECT_EQ(words[12], 0xd0u);
        EXPECT_EQ(words[13], (3u << 5) | 7u);
      }
    }
  }
}

// With more workgroups than the device holds, a workgroup's private area is its slot's:
// CSR_PDS = pds_base + (sm * (workgroups an SM holds) + slot) * W * T * pdsSize + warp * T
// * pdsSize, worked out here from the configuration (2 workgroups of 2 warps per SM). Device::run
// gives every launch its layout once (PrivateLayout): the slot rounds and the cycle model, which
// places by its own rule, must both follow it, and a workgroup reusing a slot gets its area.
TEST(SimWarp, PrivateMemoryOfAWorkgroupIsItsSlotsArea) {
  constexpr uint32_t kGroups = 10, kWarps = 2, kThreads = 4, kPdsBytes = 64;
  sim::DeviceConfig config;
  config.num_sms = 2;
  config.max_workgroups_per_sm = 2;
  for (const bool with_timing : {false, true}) {
    Fixture f(config);
    load_program(f.device, R"(
    csrr t0, gidx
    slli t0, t0, 1
    csrr t1, wid
    add t0, t0, t1
    slli t0, t0, 3
    li s0, 0x90000000
    add s0, s0, t0
    csrr t0, pds
    sw t0, 0(s0)
    csrr t0, wgid
    sw t0, 4(s0)
    endprg x0, x0, x0
)");
    sim::KernelLaunch l = launch_of(kWarps, kThreads, kGroups);
    l.pds_base = 0x91000000;
    l.pds_bytes_per_thread = kPdsBytes;
    sim::RunOptions options;
    const timing::Config timing;
    if (with_timing) options.timing = &timing;
    const auto r = f.device.run(l, options);
    ASSERT_TRUE(r.ok()) << fault_text(r);
    const auto words = read_words(f.device, kOut, kGroups * kWarps * 2);
    std::set<uint32_t> areas;
    for (uint32_t g = 0; g < kGroups; ++g)
      for (uint32_t w = 0; w < kWarps; ++w) {
        const uint32_t pds = words[(g * kWarps + w) * 2], slot = words[(g * kWarps + w) * 2 + 1];
        ASSERT_LT(slot, 2u) << g;
        const uint32_t sm = g % config.num_sms, area = sm * 2 + slot;
        EXPECT_EQ(pds,
                  0x91000000u + area * kWarps * kThreads * kPdsBytes + w * kThreads * kPdsBytes)
            << "workgroup " << g << " warp " << w << (with_timing ? " (timing)" : "");
        areas.insert(area);
      }
    EXPECT_EQ(areas.size(), 4u);  // every slot of both SMs, reused
  }
}

// Warps are reused from launch to launch and zero only the vector registers that decoded
// code can write: a register another program wrote must read 0 in the next one, which only
// reads it (v17, v31 and v200).
TEST(SimWarp, RegistersStartAtZeroInAReusedWarp) {
  Fixture f;
  load_program(f.device, R"(
    li t0, 0x5a5a5a5a
    vmv.v.x v17, t0
    vmv.v.x v31, t0
    vmv.v.x v200, t0
    endprg x0, x0, x0
)");
  const auto dirty = f.device.run(launch_of(2, 8, 4));
  ASSERT_TRUE(dirty.ok()) << fault_text(dirty);
  const std::vector<uint32_t> ones(4 * 2 * 3 * 8, ~0u);
  ASSERT_TRUE(f.device.memory().write(kOut, ones.data(), ones.size() * 4));
  load_program(f.device, R"(
    csrr t0, gidx
    csrr t1, wid
    slli t0, t0, 1
    add t0, t0, t1
    li t1, 96
    mul t0, t0, t1
    li s0, 0x90000000
    add s0, s0, t0
    vse32.v v17, (s0)
    addi s0, s0, 32
    vse32.v v31, (s0)
    addi s0, s0, 32
    vmv.v.v v1, v200
    vse32.v v1, (s0)
    endprg x0, x0, x0
)");
  const auto clean = f.device.run(launch_of(2, 8, 4));
  ASSERT_TRUE(clean.ok()) << fault_text(clean);
  EXPECT_EQ(read_words(f.device, kOut, ones.size()), std::vector<uint32_t>(ones.size(), 0));
}

// The same for a widened group under LMUL=2: vwmulu.vv at e32, m2 writes two register pairs
// (v8..v11), and the next program, which only stores them, finds them zero.
TEST(SimWarp, AWideGroupStartsAtZeroInAReusedWarp) {
  Fixture f;
  load_program(f.device, R"(
    li t0, 0x5a5a5a5a
    vsetvli t1, zero, e32, m2, ta, ma
    vmv.v.x v2, t0
    vwmulu.vv v8, v2, v2
    endprg x0, x0, x0
)");
  const auto dirty = f.device.run(launch_of(2, 8, 4));
  ASSERT_TRUE(dirty.ok()) << fault_text(dirty);
  const std::vector<uint32_t> ones(4 * 2 * 4 * 8, ~0u);
  ASSERT_TRUE(f.device.memory().write(kOut, ones.data(), ones.size() * 4));
  load_program(f.device, R"(
    csrr t0, gidx
    csrr t1, wid
    slli t0, t0, 1
    add t0, t0, t1
    slli t0, t0, 7
    li s0, 0x90000000
    add s0, s0, t0
    vse32.v v8, (s0)
    addi s0, s0, 32
    vse32.v v9, (s0)
    addi s0, s0, 32
    vse32.v v10, (s0)
    addi s0, s0, 32
    vse32.v v11, (s0)
    endprg x0, x0, x0
)");
  const auto clean = f.device.run(launch_of(2, 8, 4));
  ASSERT_TRUE(clean.ok()) << fault_text(clean);
  EXPECT_EQ(read_words(f.device, kOut, ones.size()), std::vector<uint32_t>(ones.size(), 0));
}

// vblt with 3, 6 and 4 of 8 lanes taken: the path with fewer lanes runs first, the taken
// one on a tie. Each path appends a digit to s1 (1 = taken, 2 = fall-through) and sets v3.
TEST(SimSimt, FewerLanesFirstAndReconvergence) {
  for (uint32_t limit : {3u, 6u, 4u}) {
    Fixture f;
    load_program(f.device, "li a0, " + std::to_string(limit) + R"(
    vid.v v1
    vmv.v.x v2, a0
    li s1, 0
    li t1, 10
    la t6, .Ljoin
    setrpc zero, t6, 0
    vblt v1, v2, .Ltaken
    mul s1, s1, t1
    addi s1, s1, 2
    li t0, 200
    vmv.v.x v3, t0
    j .Ljoin
.Ltaken:
    mul s1, s1, t1
    addi s1, s1, 1
    li t0, 100
    vmv.v.x v3, t0
.Ljoin:
    join zero, zero, 0
    li s0, 0x90000000
    sw s1, 0(s0)
    vsll.vi v4, v1, 2
    vadd.vx v4, v4, s0
    vsw12.v v3, 4(v4)
    endprg x0, x0, x0
)");
    const auto r = f.device.run(launch_of(1, 8));
    ASSERT_TRUE(r.ok()) << fault_text(r);
    const bool taken_first = limit <= 8 - limit;
    const auto words = read_words(f.device, kOut, 9);
    EXPECT_EQ(words[0], taken_first ? 12u : 21u) << "limit " << limit;
    for (uint32_t lane = 0; lane < 8; ++lane)
      EXPECT_EQ(words[1 + lane], lane < limit ? 100u : 200u);
    EXPECT_EQ(r.stats.divergences, 1u);
  }
}

// Uniform branches push nothing; nested divergence inside a divergent path; a loop with
// per-thread trip counts (lane i iterates i times) built from vbranches.
TEST(SimSimt, NestedDivergenceAndLoops) {
  Fixture f;
  load_program(f.device, R"(
    li s0, 0x90000000
    vid.v v1
    vmv.v.i v9, 0
    vmv.v.i v3, 0
    # uniform: every lane has v1 >= 0
    la t6, .Lu
    setrpc zero, t6, 0
    vblt v1, v9, .Lnever
.Lnever:
.Lu:
    join zero, zero, 0
    # outer: lanes < 8 go to .Llow
    li t0, 8
    vmv.v.x v2, t0
    la t6, .Louter
    setrpc zero, t6, 0
    vblt v1, v2, .Llow
    # high lanes: inner split on odd/even
    vand.vi v4, v1, 1
    la t6, .Linner
    setrpc zero, t6, 0
    vbeq v4, v9, .Leven
    li t0, 1000
    vadd.vx v3, v1, t0
    j .Linner
.Leven:
    li t0, 2000
    vadd.vx v3, v1, t0
.Linner:
    join zero, zero, 0
    j .Louter
.Llow:
    # per-lane trip counts: 16 uniform iterations, lanes whose v5 reached 0 sit out
    vmv.v.v v5, v1
    li s2, 16
.Lloop:
    la t6, .Lskip
    setrpc zero, t6, 0
    vbeq v5, v9, .Lskip
    vadd.vi v3, v3, 1
    vadd.vi v5, v5, -1
.Lskip:
    join zero, zero, 0
    addi s2, s2, -1
    bnez s2, .Lloop
.Louter:
    join zero, zero, 0
    vsll.vi v7, v1, 2
    vadd.vx v7, v7, s0
    vsw12.v v3, 0(v7)
    endprg x0, x0, x0
)");
  const auto r = f.device.run(launch_of(1, 16));
  ASSERT_TRUE(r.ok()) << fault_text(r);
  const auto words = read_words(f.device, kOut, 16);
  for (uint32_t lane = 0; lane < 16; ++lane) {
    const uint32_t expected = lane < 8 ? lane : (lane % 2 ? 1000 + lane : 2000 + lane);
    EXPECT_EQ(words[lane], expected) << "lane " << lane;
  }
}

}  // namespace
}  // namespace ventus::test

namespace ventus::test {
namespace {

uint32_t bits_of(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// Zfinx: fp values in x registers, static and dynamic rounding, accrued flags.
TEST(SimFloat, RoundingModesAndFlags) {
  Fixture f;
  load_program(f.device, R"(
    li s0, 0x90000000
    li t0, 0x3f800000        # 1.0
    li t1, 0x33800000        # 2^-24: half an ulp of 1.0
    fadd.s t2, t0, t1        # dyn = frm = rne: 1.0, inexact
    sw t2, 0(s0)
    fadd.s t2, t0, t1, rup
    sw t2, 4(s0)
    li t3, 3
    fsrm t3                  # frm = rup
    fadd.s t2, t0, t1
    sw t2, 8(s0)
    frflags t4
    sw t4, 12(s0)
    li t5, 0
    fdiv.s t2, t0, t5        # 1/0: +inf, divide by zero
    sw t2, 16(s0)
    frflags t4
    sw t4, 20(s0)
    li t6, -7
    fcvt.s.w t2, t6
    sw t2, 24(s0)
    fcvt.w.s t4, t2, rtz
    sw t4, 28(s0)
    fmadd.s t2, t0, t0, t0   # 1*1+1
    sw t2, 32(s0)
    fle.s t4, t0, t2
    sw t4, 36(s0)
    fclass.s t4, t5
    sw t4, 40(s0)
    endprg x0, x0, x0
)");
  const auto r = f.device.run(launch_of(1, 4));
  ASSERT_TRUE(r.ok()) << fault_text(r);
  const uint32_t one = bits_of(1.0f), above = bits_of(std::nextafter(1.0f, 2.0f));
  const std::vector<uint32_t> expected = {one,
                                          above,
                                          above,
                                          1 /* NX */,
                                          bits_of(INFINITY),
                                          1 | 8 /* NX, DZ */,
                                          bits_of(-7.0f),
                                          static_cast<uint32_t>(-7),
                                          bits_of(2.0f),
                                          1,
                                          1u << 4 /* +0 */};
  EXPECT_EQ(read_words(f.device, kOut, expected.size()), expected);
}

// fmv.w.x / fmv.x.w, which the public compiler emits although the device is Zfinx: register
// moves (docs/isa.md), bits unchanged (a NaN payload too), no flags.
TEST(SimFloat, FmvIsARegisterMove) {
  Fixture f;
  load_program(f.device, R"(
    li s0, 0x90000000
    li t1, 0x7f812345        # a signalling NaN: kept as it is
    fmv.w.x t2, t1
    sw t2, 0(s0)
    li t3, -7
    fmv.x.w t4, t3
    sw t4, 4(s0)
    frflags t5
    sw t5, 8(s0)
    endprg x0, x0, x0
)");
  const auto r = f.device.run(launch_of(1, 4));
  ASSERT_TRUE(r.ok()) << fault_text(r);
  EXPECT_EQ(read_words(f.device, kOut, 3),
            (std::vector<uint32_t>{0x7f812345u, static_cast<uint32_t>(-7), 0u}));
}

// vfexp is spelt as the public toolchain prints it; the older "vfexp.v" still assembles.
TEST(SimAssembly, VfexpAndItsOlderSpelling) {
  assembler::Options options;
  options.start_files = false;
  const elf::Image image = assembler::assemble(
      {{"k.s", "vfexp v2, v4\nvfexp.v v2, v4\nvfexp v2, v4, v0.t\nvfexp.v v2, v4, v0.t\n"}},
      options);
  std::vector<uint32_t> words;
  for (const elf::Section& s : image.sections)
    if (s.name == ".text") {
      words.resize(s.bytes.size() / 4);
      std::memcpy(words.data(), s.bytes.data(), words.size() * 4);
    }
  EXPECT_EQ(words, (std::vector<uint32_t>{0x0a40610b, 0x0a40610b, 0x0840610b, 0x0840610b}));
}

// Masked (v0.t) unit-stride and indexed vector memory, with e8 elements and LMUL = 2.
TEST(SimVectorMemory, MaskedUnitStrideIndexedAndLmul2) {
  Fixture f;
  std::vector<uint8_t> bytes(64);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(200 + i);
  ASSERT_TRUE(f.device.memory().write(kOut + 0x100, bytes.data(), bytes.size()));
  load_program(f.device, R"(
    li s0, 0x90000000
    addi s1, s0, 0x100
    vid.v v1
    vand.vi v0, v1, 1          # odd lanes active under v0.t
    li t0, 99
    vmv.v.x v2, t0
    vle8.v v2, (s1), v0.t      # odd lanes load byte (200 + lane), even lanes keep 99
    vse32.v v2, (s0)
    # indexed: lane i loads word (3 - i) of the bytes above (e32 data, e8 index)
    li t1, 3
    vrsub.vx v3, v1, t1
    vsll.vi v3, v3, 2
    vluxei8.v v4, (s1), v3
    addi s2, s0, 0x20
    vse32.v v4, (s2)
    # LMUL 2: a group of two registers loads 8 consecutive words
    li t2, 4
    vsetvli t3, t2, e32, m2
    vle32.v v6, (s1)
    addi s2, s0, 0x40
    vse32.v v6, (s2)
    sw t3, 0x60(s0)
    endprg x0, x0, x0
)");
  const auto r = f.device.run(launch_of(1, 4));
  ASSERT_TRUE(r.ok()) << fault_text(r);
  EXPECT_EQ(read_words(f.device, kOut, 4), (std::vector<uint32_t>{99, 201, 99, 203}));
  std::vector<uint32_t> words(16);
  std::memcpy(words.data(), bytes.data(), 64);
  EXPECT_EQ(read_words(f.device, kOut + 0x20, 4),
            (std::vector<uint32_t>{words[3], words[2], words[1], words[0]}));
  EXPECT_EQ(read_words(f.device, kOut + 0x40, 8),
            std::vector<uint32_t>(words.begin(), words.begin() + 8));
  EXPECT_EQ(read_words(f.device, kOut + 0x60, 1)[0], 4u);
}

}  // namespace
}  // namespace ventus::test
