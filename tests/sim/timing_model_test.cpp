// The cycle model's pipeline rules (docs/timing.md), each measured on a hand-written kernel
// the way one would on the RTL: the cycles a loop body of 2K instructions takes minus those
// of K instructions, over many iterations, so that fetch misses, dispatch and the end of
// the launch cancel out. The expected figures are the rules of
// ../shared/spec/timing-facts.md, not values read from the model.
#include <fmt/format.h>

#include <chrono>
#include <stop_token>
#include <thread>

#include "sim_harness.h"
#include "ventus/timing.h"

namespace ventus::test {
namespace {

constexpr uint32_t kIterations = 64;

// A loop of `iterations` passes over `body` repeated `copies` times; `trailer` follows the
// final endprg (labels the body branches to).
std::string loop_kernel(const std::string& body, unsigned copies, uint32_t iterations,
                        const std::string& trailer = "") {
  std::string s = fmt::format(R"(
    li t4, 32
    vsetvli t4, t4, e32, m1, ta, ma
    li a2, 5
    li a3, 7
    li a6, 9
    vmv.v.i v2, 1
    vmv.v.i v3, 2
    li t0, {}
.Lloop:
)",
                              iterations);
  for (unsigned i = 0; i < copies; ++i) s += body;
  s += R"(
    addi t0, t0, -1
    bnez t0, .Lloop
    endprg x0, x0, x0
)";
  return s + trailer;
}

struct Timed {
  sim::LaunchResult result;
  uint64_t cycles() const { return result.timing ? result.timing->cycles : 0; }
};

Timed run_timed(const std::string& source, uint32_t warps, uint32_t threads,
                const timing::Config& config = timing::Config{}) {
  sim::DeviceConfig device_config;
  device_config.num_sms = 1;
  sim::Device device(device_config);
  Timed t;
  load_program(device, source);
  device.memory().map(sim::kBufferBase, 1 << 16);
  sim::RunOptions options;
  options.timing = &config;
  t.result = device.run(launch_of(warps, threads), options);
  EXPECT_TRUE(t.result.ok()) << fault_text(t.result);
  EXPECT_TRUE(t.result.timing.has_value());
  return t;
}

// Cycles per instruction of `body` (`count` instructions) in steady state, for `warps`
// warps running it together.
double cycles_per_instruction(const std::string& body, unsigned count, uint32_t warps = 1,
                              const std::string& trailer = "") {
  constexpr unsigned kCopies = 4;
  const Timed once = run_timed(loop_kernel(body, kCopies, kIterations, trailer), warps, 16);
  const Timed twice = run_timed(loop_kernel(body, 2 * kCopies, kIterations, trailer), warps, 16);
  return double(twice.cycles() - once.cycles()) / (kIterations * kCopies * count);
}

// Four instructions with distinct destinations (no WAW between neighbours) that read only
// registers nothing in the loop writes.
constexpr const char* kIndependentScalar =
    "    add a1, a2, a3\n    add a4, a2, a3\n    add a5, a2, a3\n    add a7, a2, a3\n";
constexpr const char* kIndependentVector =
    "    vadd.vv v4, v2, v3\n    vadd.vv v5, v2, v3\n    vadd.vv v6, v2, v3\n"
    "    vadd.vv v7, v2, v3\n";

TEST(TimingModel, OneWarpIssuesIndependentAluInstructionsEveryFourCycles) {
  EXPECT_NEAR(cycles_per_instruction(kIndependentScalar, 4), 4.0, 0.1);
  EXPECT_NEAR(cycles_per_instruction(kIndependentVector, 4), 4.0, 0.1);
}

TEST(TimingModel, ADependentChainIssuesEveryFiveCycles) {
  EXPECT_NEAR(cycles_per_instruction("    add a2, a2, a3\n", 1), 5.0, 0.1);
  EXPECT_NEAR(cycles_per_instruction("    vadd.vv v2, v2, v3\n", 1), 5.0, 0.1);
  // A write after a write of the same register waits like a read (WAW).
  EXPECT_NEAR(cycles_per_instruction("    add a1, a2, a3\n", 1), 5.0, 0.1);
}

TEST(TimingModel, FourWarpsFillTheIssueSlot) {
  // Four warps each issuing every fourth cycle: the SM issues every cycle, so the loop takes
  // as long as for one warp alone, one instruction per cycle.
  const double one = cycles_per_instruction(kIndependentScalar, 4, 1);
  const double four = cycles_per_instruction(kIndependentScalar, 4, 4);
  EXPECT_NEAR(four, one, 0.1);
  EXPECT_NEAR(four / 4, 1.0, 0.05);
}

TEST(TimingModel, ARegisterBankConflictCostsACycle) {
  // For warp 0, x12 (a2) and x13 (a3) are in banks 0 and 1; x12 and x16 (a6) share bank 0.
  constexpr const char* kConflicting =
      "    add a1, a2, a6\n    add a4, a2, a6\n    add a5, a2, a6\n    add a7, a2, a6\n";
  EXPECT_NEAR(cycles_per_instruction(kConflicting, 4), 5.0, 0.1);
  const Timed t = run_timed(loop_kernel(kConflicting, 2, 4), 1, 16);
  EXPECT_EQ(t.result.timing->sms.at(0).register_bank_conflicts, 2u * 4 * 4);
}

TEST(TimingModel, BranchesCostFiveNotTakenAndEightToTenTaken) {
  // Not taken: the warp waits for the compare (collector 3 + ALU 1 + resolve 1).
  EXPECT_NEAR(cycles_per_instruction("    beq a2, a3, .Lnever\n", 1, 1,
                                     ".Lnever:\n    endprg x0, x0, x0\n"),
              5.0, 0.1);
  // Taken (over one instruction that never issues): flush, refetch, I-cache hit; "about 8-10".
  const double taken = cycles_per_instruction("    beq a2, a2, 1f\n    add a1, a2, a3\n1:\n", 1);
  EXPECT_GE(taken, 8.0);
  EXPECT_LE(taken, 10.0);
}

TEST(TimingModel, TheSfuWorksOnAQuarterOfTheLanesAtATime) {
  // 16 lanes: 4 groups of 4 in sequence, sfu_fp_latency each, one instruction at a time.
  const timing::Config c;
  EXPECT_NEAR(cycles_per_instruction("    vfdiv.vv v4, v2, v3\n    vfdiv.vv v5, v2, v3\n", 2),
              4.0 * c.sfu_fp_latency, 0.1);
  // A scalar divide is one group: sfu_int_base + 32 quotient bits.
  EXPECT_NEAR(cycles_per_instruction("    div a1, a2, a3\n    div a4, a2, a3\n", 2),
              c.sfu_int_base + 32.0, 0.1);
}

TEST(TimingModel, SharedMemoryBankConflictsCostARoundEach) {
  // 16 consecutive words over the preset's 2 banks: 8 rounds, 7 of them conflicts.
  const std::string kernel = R"(
    li t4, 16
    vsetvli t4, t4, e32, m1, ta, ma
    csrr a0, lds
    vle32.v v4, (a0)
    endprg x0, x0, x0
)";
  const Timed t = run_timed(kernel, 1, 16);
  const timing::SmStats& sm = t.result.timing->sms.at(0);
  EXPECT_EQ(sm.lds_accesses, 1u);
  EXPECT_EQ(sm.lds_bank_conflict_cycles, 7u);
  EXPECT_EQ(sm.unit_busy[static_cast<size_t>(timing::Unit::Lsu)], 2u + 8u);
  EXPECT_EQ(sm.dcache.accesses, 0u);
}

TEST(TimingModel, DualIssueTakesAScalarAndAVectorInstructionPerCycle) {
  // Odd warps run vector instructions, even ones scalar: four warps saturate one path, so
  // with dual issue the SM issues more than one instruction per cycle (the fetch port, two
  // instructions per cycle for all warps, keeps it below two).
  const std::string kernel = R"(
    li t4, 16
    vsetvli t4, t4, e32, m1, ta, ma
    li a2, 5
    li a3, 7
    csrr s1, wid
    andi s1, s1, 1
    li t0, 64
    bnez s1, .Lvector
.Lscalar:
)" + std::string(kIndependentScalar) +
                             kIndependentScalar + kIndependentScalar + kIndependentScalar + R"(
    addi t0, t0, -1
    bnez t0, .Lscalar
    endprg x0, x0, x0
.Lvector:
)" + kIndependentVector + kIndependentVector +
                             kIndependentVector + kIndependentVector + R"(
    addi t0, t0, -1
    bnez t0, .Lvector
    endprg x0, x0, x0
)";
  timing::Config single = timing::Config{}, dual = timing::Config{};
  dual.dual_issue = 1;
  const double single_ipc = run_timed(kernel, 8, 16, single).result.timing->ipc();
  const double dual_ipc = run_timed(kernel, 8, 16, dual).result.timing->ipc();
  EXPECT_LE(single_ipc, 1.0);
  EXPECT_GT(single_ipc, 0.9);
  EXPECT_GT(dual_ipc, 1.3);
  EXPECT_LE(dual_ipc, 2.0);
}

TEST(TimingModel, AUnitStrideLoadOfSixteenLanesOnEightByteLinesTakesTenLsuCycles) {
  // 16 lanes x 4 bytes = 64 bytes = 8 lines of 8 bytes: 2 + 8 cycles in the LSU.
  const std::string kernel = R"(
    li t4, 16
    vsetvli t4, t4, e32, m1, ta, ma
    li a0, 0x90000000
    vle32.v v4, (a0)
    endprg x0, x0, x0
)";
  const Timed t = run_timed(kernel, 1, 16);
  const timing::SmStats& sm = t.result.timing->sms.at(0);
  EXPECT_EQ(sm.unit_issued[static_cast<size_t>(timing::Unit::Lsu)], 1u);
  EXPECT_EQ(sm.unit_busy[static_cast<size_t>(timing::Unit::Lsu)], 10u);
  EXPECT_EQ(sm.dcache.accesses, 8u);
}

TEST(TimingModel, StallKindsAddUpToTheCycles) {
  const Timed t =
      run_timed(loop_kernel("    add a2, a2, a3\n    vadd.vv v4, v2, v3\n", 4, 8), 3, 8);
  const timing::LaunchTiming& timing = *t.result.timing;
  ASSERT_EQ(timing.sms.size(), 1u);
  uint64_t sm_total = 0;
  for (uint64_t n : timing.sms[0].stalls) sm_total += n;
  EXPECT_EQ(sm_total, timing.cycles);
  ASSERT_EQ(timing.sms[0].warps.size(), 3u);
  for (const timing::WarpSlotStats& w : timing.sms[0].warps) {
    uint64_t total = 0;
    for (uint64_t n : w.stalls) total += n;
    EXPECT_EQ(total, timing.cycles) << "warp slot " << w.slot;
    EXPECT_EQ(w.stalls[static_cast<size_t>(timing::Stall::Issued)], w.instructions);
  }
  EXPECT_EQ(timing.instructions, t.result.stats.warp_instructions);
}

TEST(TimingModel, TimingDoesNotChangeResults) {
  // Each warp sums its lanes' ids through a barrier-separated exchange in global memory.
  const std::string kernel = R"(
    li t4, 8
    vsetvli t4, t4, e32, m1, ta, ma
    csrr s1, wid
    li a0, 0x90000000
    slli t1, s1, 5
    add a1, a0, t1
    vid.v v1
    vadd.vx v1, v1, s1
    vse32.v v1, (a1)
    barrier x0, x0, 0
    csrr s2, numw
    addi t2, s1, 1
    remu t2, t2, s2
    slli t2, t2, 5
    add t2, a0, t2
    vle32.v v2, (t2)
    vadd.vv v2, v2, v1
    addi a1, a1, 1024
    vse32.v v2, (a1)
    endprg x0, x0, x0
)";
  sim::DeviceConfig device_config;
  device_config.num_sms = 1;
  std::vector<uint32_t> plain, timed;
  for (bool with_timing : {false, true}) {
    sim::Device device(device_config);
    load_program(device, kernel);
    device.memory().map(sim::kBufferBase, 1 << 16);
    sim::RunOptions options;
    const timing::Config config;
    if (with_timing) options.timing = &config;
    const sim::LaunchResult r = device.run(launch_of(4, 8), options);
    ASSERT_TRUE(r.ok()) << fault_text(r);
    (with_timing ? timed : plain) = read_words(device, sim::kBufferBase, 512);
  }
  EXPECT_EQ(plain, timed);
  // Warp w stored lanes + w + (lanes + (w + 1) mod 4): spot-check one word.
  EXPECT_EQ(plain[256 + 8 * 1 + 3], (3u + 1) + (3u + 2));
}

// What goes wrong goes wrong the same way with timing: the same fault at the same place,
// the budget ends an endless kernel, a cancel stops it, a deadlock is reported.
TEST(TimingModel, FaultsAreTheFunctionalModesFaults) {
  const std::string kernel = R"(
    li t4, 8
    vsetvli t4, t4, e32, m1, ta, ma
    li a0, 0x90000000
    vle32.v v1, (a0)
    li a1, 0x12345678
    lw a2, 0(a1)
    endprg x0, x0, x0
)";
  std::string plain, timed;
  for (bool with_timing : {false, true}) {
    sim::Device device;
    load_program(device, kernel);
    device.memory().map(sim::kBufferBase, 4096);
    sim::RunOptions options;
    const timing::Config config;
    if (with_timing) options.timing = &config;
    const sim::LaunchResult r = device.run(launch_of(2, 8), options);
    ASSERT_FALSE(r.ok());
    (with_timing ? timed : plain) = r.fault->describe();
    if (with_timing) {
      ASSERT_TRUE(r.timing.has_value());
      EXPECT_GT(r.timing->cycles, 0u);
    }
  }
  EXPECT_EQ(plain, timed);
  EXPECT_NE(timed.find("pc 0x80000018"), std::string::npos) << timed;
}

TEST(TimingModel, TheBudgetEndsAnEndlessKernelAndACancelStopsOne) {
  const std::string endless = R"(
.Lspin:
    addi a0, a0, 1
    j .Lspin
)";
  {
    sim::DeviceConfig config;
    config.instruction_budget = 10'000;
    sim::Device device(config);
    load_program(device, endless);
    sim::RunOptions options;
    const timing::Config timing_config;
    options.timing = &timing_config;
    const sim::LaunchResult r = device.run(launch_of(4, 8), options);
    EXPECT_NE(fault_text(r).find("instruction budget exhausted"), std::string::npos)
        << fault_text(r);
    EXPECT_LE(r.stats.warp_instructions, 10'000u);
  }
  {
    sim::DeviceConfig config;
    config.instruction_budget = 0;
    sim::Device device(config);
    load_program(device, endless);
    std::stop_source cancel;
    sim::RunOptions options;
    const timing::Config timing_config;
    options.timing = &timing_config;
    options.cancel = cancel.get_token();
    std::jthread stopper([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      cancel.request_stop();
    });
    const sim::LaunchResult r = device.run(launch_of(4, 8), options);
    EXPECT_NE(fault_text(r).find("launch cancelled by the host"), std::string::npos)
        << fault_text(r);
  }
}

TEST(TimingModel, DifferentBarriersAreADeadlock) {
  const std::string kernel = R"(
    csrr s1, wid
    bnez s1, .Lother
    barrier x0, x0, 0
    endprg x0, x0, x0
.Lother:
    barrier x0, x0, 0
    endprg x0, x0, x0
)";
  sim::Device device;
  load_program(device, kernel);
  sim::RunOptions options;
  const timing::Config config;
  options.timing = &config;
  const sim::LaunchResult r = device.run(launch_of(2, 8), options);
  EXPECT_NE(fault_text(r).find("deadlock"), std::string::npos) << fault_text(r);
}

TEST(TimingModel, ManyWorkgroupsOnTwoSmsFinishWithTheSameResults) {
  // 64 workgroups of 2 warps over 2 SMs: workgroups leave and new ones are accepted; each
  // work-item stores its global id.
  const std::string kernel = R"(
    li t4, 8
    vsetvli t4, t4, e32, m1, ta, ma
    csrr t0, gidx
    csrr t1, numw
    csrr t2, wid
    mul t0, t0, t1
    add t0, t0, t2
    slli t0, t0, 3
    vid.v v1
    vadd.vx v1, v1, t0
    vsll.vi v2, v1, 2
    li a0, 0x90000000
    vadd.vx v2, v2, a0
    vsw12.v v1, 0(v2)
    endprg x0, x0, x0
)";
  sim::DeviceConfig device_config;
  device_config.num_sms = 2;
  sim::Device device(device_config);
  load_program(device, kernel);
  device.memory().map(sim::kBufferBase, 4096);
  sim::RunOptions options;
  const timing::Config config;
  options.timing = &config;
  const sim::LaunchResult r = device.run(launch_of(2, 8, 64), options);
  ASSERT_TRUE(r.ok()) << fault_text(r);
  const std::vector<uint32_t> words = read_words(device, sim::kBufferBase, 64 * 16);
  for (uint32_t i = 0; i < words.size(); ++i) ASSERT_EQ(words[i], i) << "word " << i;
  ASSERT_EQ(r.timing->sms.size(), 2u);
  EXPECT_EQ(r.timing->instructions, r.stats.warp_instructions);
  EXPECT_GT(r.timing->sms[0].instructions, 0u);
  EXPECT_GT(r.timing->sms[1].instructions, 0u);
  // Both SMs share the L2: its requests are the L1s' misses and writes.
  const timing::CacheStats& l2 = r.timing->l2;
  EXPECT_EQ(l2.accesses + l2.writes,
            r.timing->sms[0].icache.misses + r.timing->sms[1].icache.misses +
                r.timing->sms[0].dcache.misses + r.timing->sms[1].dcache.misses +
                r.timing->sms[0].dcache.writes + r.timing->sms[1].dcache.writes);
}

}  // namespace
}  // namespace ventus::test
