// Host threads (docs/simulator.md, "Host threads"): the functional results of a launch -
// memory, statistics, CSR values, the order of print requests, the fault reported and where
// the budget ran out - are the same for 1, 2, 3 and 8 host threads, and workgroups take the
// slots the placement rule gives them.
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "sim_harness.h"

namespace ventus::test {
namespace {

constexpr uint32_t kOut = 0x90000000;
constexpr unsigned kHostThreads[] = {1, 2, 3, 8};

sim::DeviceConfig config_with(unsigned host_threads) {
  sim::DeviceConfig c;
  c.num_sms = 2;
  c.max_workgroups_per_sm = 4;
  c.host_threads = host_threads;
  c.schedule_quantum = 7;
  return c;
}

std::tuple<uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t> stats_of(
    const sim::LaunchResult& r) {
  const sim::LaunchStats& s = r.stats;
  return {s.warp_instructions, s.thread_instructions, s.divergences,
          s.barriers,          s.workgroups,          s.decodes};
}

// 40 workgroups of 2 warps whose lengths differ (workgroup g loops 50 * (g mod 7) times, so
// they end out of order): each warp stores its slot (CSR_WGID) and what its loop computed,
// adds to a counter with amoadd, passes a barrier and prints.
const char* const kUneven = R"(
    li s0, 0x90000000
    csrr t0, gidx
    li t1, 7
    remu t1, t0, t1
    li t2, 50
    mul t1, t1, t2
    vid.v v1
1:  beqz t1, 2f
    vadd.vi v1, v1, 3
    addi t1, t1, -1
    j 1b
2:  csrr t2, wid
    slli t3, t0, 1
    add t3, t3, t2
    slli t3, t3, 3
    add s1, s0, t3
    csrr t4, wgid
    sw t4, 512(s1)
    vmv.x.s t5, v1
    sw t5, 516(s1)
    li t6, 1
    amoadd.w zero, t6, (s0)
    barrier x0, x0, 0
    add t5, t5, t0
    csrw print, t5
    endprg x0, x0, x0
)";

TEST(SimHostThreads, SameResultsForAnyThreadCount) {
  std::vector<uint32_t> reference_memory;
  std::vector<std::tuple<uint32_t, uint32_t, uint32_t>> reference_prints;
  for (unsigned threads : kHostThreads) {
    sim::Device device(config_with(threads));
    device.memory().map(kOut, 4096);
    load_program(device, kUneven);
    std::vector<std::tuple<uint32_t, uint32_t, uint32_t>> prints;
    sim::RunOptions options;
    options.on_print = [&](const sim::PrintRequest& p) {
      prints.emplace_back(p.workgroup_linear, p.warp, p.value);
    };
    const auto r = device.run(launch_of(2, 8, 40), options);
    ASSERT_TRUE(r.ok()) << fault_text(r);
    const std::vector<uint32_t> memory = read_words(device, kOut, 1024);
    EXPECT_EQ(memory[0], 80u);  // every warp's amoadd
    // Workgroup g: SM g mod 2, slot (g / 2) mod 4 (each SM holds 4 workgroups of 2 warps).
    for (uint32_t g = 0; g < 40; ++g)
      for (uint32_t w = 0; w < 2; ++w) EXPECT_EQ(memory[128 + 4 * g + 2 * w], (g / 2) % 4);
    ASSERT_EQ(prints.size(), 80u);
    if (reference_memory.empty()) {
      reference_memory = memory;
      reference_prints = prints;
      continue;
    }
    EXPECT_EQ(memory, reference_memory) << threads << " host threads";
    EXPECT_EQ(prints, reference_prints) << threads << " host threads";
  }
}

TEST(SimHostThreads, StatisticsDoNotDependOnTheThreadCount) {
  std::optional<decltype(stats_of(sim::LaunchResult{}))> reference;
  for (unsigned threads : kHostThreads) {
    sim::Device device(config_with(threads));
    device.memory().map(kOut, 4096);
    load_program(device, kUneven);
    const auto r = device.run(launch_of(2, 8, 40));
    ASSERT_TRUE(r.ok()) << fault_text(r);
    EXPECT_EQ(std::get<4>(stats_of(r)), 40u);
    if (!reference) reference = stats_of(r);
    EXPECT_EQ(stats_of(r), *reference) << threads << " host threads";
  }
}

// Workgroups 5, 7 and 9 fault, the higher ones earlier (workgroup g first loops 100 - g
// times): the fault of workgroup 5 is reported, whatever ran first on which thread.
TEST(SimHostThreads, TheLowestFaultingWorkgroupIsReported) {
  for (unsigned threads : kHostThreads) {
    sim::Device device(config_with(threads));
    load_program(device, R"(
    csrr t0, gidx
    li t1, 100
    sub t1, t1, t0
1:  addi t1, t1, -1
    bnez t1, 1b
    li t2, 5
    beq t0, t2, 2f
    li t2, 7
    beq t0, t2, 2f
    li t2, 9
    beq t0, t2, 2f
    endprg x0, x0, x0
2:  lw t3, 0(zero)
)");
    const auto r = device.run(launch_of(1, 4, 12));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.fault->workgroup[0], 5u) << threads << " host threads: " << fault_text(r);
    EXPECT_EQ(r.fault->sm, 1u);
    EXPECT_NE(r.fault->message.find("null or small pointer"), std::string::npos)
        << r.fault->message;
  }
}

// Every workgroup spins; each resident workgroup runs out of its budget in the same round,
// the lowest one is reported, and every thread count executes the same instructions.
TEST(SimHostThreads, TheBudgetRunsOutTheSameWay) {
  std::string reference;
  uint64_t reference_instructions = 0;
  for (unsigned threads : kHostThreads) {
    sim::DeviceConfig config = config_with(threads);
    config.instruction_budget = 100'003;
    sim::Device device(config);
    load_program(device, "1: j 1b\n");
    const auto r = device.run(launch_of(2, 4, 6));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.fault->workgroup[0], 0u);
    // Each of the 6 workgroups (all resident: 2 SMs of 4 slots) executed its budget.
    EXPECT_EQ(r.stats.warp_instructions, 6 * 100'003u);
    EXPECT_NE(r.fault->message.find("instruction budget exhausted: 100003 warp instructions "
                                    "executed by this workgroup"),
              std::string::npos)
        << r.fault->message;
    if (reference.empty()) reference = fault_text(r);
    EXPECT_EQ(fault_text(r), reference) << threads << " host threads";
    if (reference_instructions == 0) reference_instructions = r.stats.warp_instructions;
    EXPECT_EQ(r.stats.warp_instructions, reference_instructions) << threads << " host threads";
  }
}

// Each workgroup stores its id after a loop of 50 iterations (about 100 warp instructions a
// warp); 3,000 workgroups of 2 warps execute about 600,000 warp instructions, 300 times the
// budget of 2,000, which is per workgroup: the launch completes (the CTS's
// min_max_constant_buffer_size launches 58.7 M workgroups and was refused by a per-launch
// budget).
constexpr char kShortWorkgroups[] = R"(
    csrr t0, gidx
    li t1, 50
1:  addi t1, t1, -1
    bnez t1, 1b
    slli t2, t0, 2
    li t3, 0x90000000
    add t2, t2, t3
    sw t0, 0(t2)
    endprg x0, x0, x0
)";

TEST(SimHostThreads, ABudgetPerWorkgroupLetsManyShortWorkgroupsRun) {
  constexpr uint32_t kGroups = 3000;
  std::optional<decltype(stats_of(sim::LaunchResult{}))> reference;
  for (unsigned threads : kHostThreads) {
    sim::DeviceConfig config = config_with(threads);
    config.instruction_budget = 2000;
    sim::Device device(config);
    device.memory().map(kOut, kGroups * 4);
    load_program(device, kShortWorkgroups);
    const auto r = device.run(launch_of(2, 4, kGroups));
    ASSERT_TRUE(r.ok()) << fault_text(r);
    EXPECT_GT(r.stats.warp_instructions, 100 * config.instruction_budget);
    EXPECT_EQ(r.stats.workgroups, kGroups);
    const std::vector<uint32_t> ids = read_words(device, kOut, kGroups);
    for (uint32_t g = 0; g < kGroups; ++g) ASSERT_EQ(ids[g], g) << threads << " host threads";
    if (!reference) reference = stats_of(r);
    EXPECT_EQ(stats_of(r), *reference) << threads << " host threads";
  }
}

// Among those workgroups, 1,234 and 2,345 never end: the budget stops the launch at the
// lower one, names its warp and pc inside the loop, and the workgroups before it completed.
TEST(SimHostThreads, AHangingWorkgroupAmongManyIsReported) {
  std::string reference;
  for (unsigned threads : kHostThreads) {
    sim::DeviceConfig config = config_with(threads);
    config.instruction_budget = 2000;
    sim::Device device(config);
    device.memory().map(kOut, 3000 * 4);
    load_program(device, R"(
    csrr t0, gidx
    li t1, 1234
    beq t0, t1, spin
    li t1, 2345
    beq t0, t1, spin
    slli t2, t0, 2
    li t3, 0x90000000
    add t2, t2, t3
    sw t0, 0(t2)
    endprg x0, x0, x0
spin:
    j spin
)");
    const auto r = device.run(launch_of(2, 4, 3000));
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.fault->workgroup[0], 1234u) << fault_text(r);
    EXPECT_NE(r.fault->message.find("instruction budget exhausted: 2000 warp instructions "
                                    "executed by this workgroup"),
              std::string::npos)
        << r.fault->message;
    EXPECT_EQ(r.fault->disassembly.rfind("j ", 0), 0u) << fault_text(r);
    const std::vector<uint32_t> ids = read_words(device, kOut, 1234);
    for (uint32_t g = 0; g < 1234; ++g) ASSERT_EQ(ids[g], g) << threads << " host threads";
    if (reference.empty()) reference = fault_text(r);
    EXPECT_EQ(fault_text(r), reference) << threads << " host threads";
  }
}

// A run of many short launches (an application's passes, like a bitonic sort's 120): launch
// k reads buffer k mod 2 and writes the other, each element i becoming 3 src[i] + src[i ^
// (k mod 512)] + k; workgroups loop (id mod 5) * 10 times first, so they end out of order,
// count their warps with amoadd, pass a barrier, and every fifth launch prints. Launch
// kFaultLaunch faults in workgroups 3, 11, 19, ... (3 is reported) and launch kBudgetLaunch
// spins in workgroups 13 and 21 (13 runs out of its budget). The pool's threads serve every
// launch of a device; each launch's results, statistics, prints and fault must be those of
// one thread, and the buffers those computed here.
constexpr uint32_t kLaunches = 62, kFaultLaunch = 60, kBudgetLaunch = 61;
constexpr uint32_t kElements = 512, kBufferA = kOut + 0x1000, kBufferB = kOut + 0x2000;
const char* const kPasses = R"(
    li s0, 0x90000000
    lw s1, 0(s0)
    csrr t0, gidx
    li t1, 5
    remu t1, t0, t1
    li t2, 10
    mul t1, t1, t2
1:  beqz t1, 2f
    addi t1, t1, -1
    j 1b
2:  li t1, 60
    bne s1, t1, 3f
    andi t1, t0, 7
    li t2, 3
    bne t1, t2, 3f
    lw t3, 0(zero)
3:  li t1, 61
    bne s1, t1, 5f
    li t1, 13
    beq t0, t1, 4f
    li t1, 21
    bne t0, t1, 5f
4:  j 4b
5:  csrr t1, wid
    slli t2, t0, 1
    add t2, t2, t1
    slli t2, t2, 3
    vid.v v1
    vadd.vx v1, v1, t2
    li a0, 0x90001000
    li a1, 0x90002000
    andi t3, s1, 1
    beqz t3, 6f
    mv t4, a0
    mv a0, a1
    mv a1, t4
6:  andi t3, s1, 511
    vxor.vx v2, v1, t3
    vsll.vi v1, v1, 2
    vsll.vi v2, v2, 2
    vadd.vx v3, v1, a0
    vlw12.v v4, 0(v3)
    vadd.vx v3, v2, a0
    vlw12.v v5, 0(v3)
    vsll.vi v6, v4, 1
    vadd.vv v6, v6, v4
    vadd.vv v6, v6, v5
    vadd.vx v6, v6, s1
    li t5, 1
    addi t4, s0, 4
    amoadd.w zero, t5, (t4)
    barrier x0, x0, 0
    vadd.vx v3, v1, a1
    vsw12.v v6, 0(v3)
    li t1, 5
    remu t1, s1, t1
    bnez t1, 7f
    vmv.x.s t5, v6
    csrw print, t5
7:  endprg x0, x0, x0
)";

TEST(SimHostThreads, ManyShortLaunchesGiveTheSameResultsOnAnyThreadCount) {
  struct Launch {
    decltype(stats_of(sim::LaunchResult{})) stats;
    std::string fault;
    std::vector<std::tuple<uint32_t, uint32_t, uint32_t>> prints;
    bool operator==(const Launch&) const = default;
  };
  // The buffers after the launches that complete, computed here.
  std::vector<uint32_t> want(kElements), next(kElements);
  for (uint32_t i = 0; i < kElements; ++i) want[i] = i * 7 + 1;
  const std::vector<uint32_t> initial = want;
  for (uint32_t k = 0; k < kFaultLaunch; ++k) {
    for (uint32_t i = 0; i < kElements; ++i) next[i] = 3 * want[i] + want[i ^ (k % 512)] + k;
    want.swap(next);
  }
  std::optional<std::vector<Launch>> reference;
  std::vector<uint32_t> reference_memory;
  for (unsigned threads : {1u, 2u, 7u}) {
    sim::DeviceConfig config = config_with(threads);
    config.instruction_budget = 5000;
    sim::Device device(config);
    device.memory().map(kOut, 0x3000);
    load_program(device, kPasses);
    ASSERT_TRUE(device.memory().write(kBufferA, initial.data(), kElements * 4));
    std::vector<Launch> launches;
    for (uint32_t k = 0; k < kLaunches; ++k) {
      ASSERT_TRUE(device.memory().write(kOut, &k, 4));
      Launch l;
      sim::RunOptions options;
      options.on_print = [&](const sim::PrintRequest& p) {
        l.prints.emplace_back(p.workgroup_linear, p.warp, p.value);
      };
      const auto r = device.run(launch_of(2, 8, kElements / 16), options);
      l.stats = stats_of(r);
      l.fault = fault_text(r);
      ASSERT_EQ(r.ok(), k < kFaultLaunch) << k << ": " << l.fault;
      EXPECT_EQ(l.prints.size(), k % 5 == 0 && k < kFaultLaunch ? 64u : 0u) << k;
      launches.push_back(std::move(l));
      if (k == kFaultLaunch - 1) {
        EXPECT_EQ(read_words(device, kFaultLaunch % 2 ? kBufferB : kBufferA, kElements), want)
            << threads << " host threads";
        EXPECT_EQ(read_words(device, kOut + 4, 1)[0], kFaultLaunch * 64) << threads;
      }
    }
    EXPECT_NE(launches[kFaultLaunch].fault.find("workgroup (3,0,0)"), std::string::npos)
        << launches[kFaultLaunch].fault;
    EXPECT_NE(launches[kBudgetLaunch].fault.find("workgroup (13,0,0)"), std::string::npos)
        << launches[kBudgetLaunch].fault;
    EXPECT_NE(launches[kBudgetLaunch].fault.find("instruction budget exhausted"),
              std::string::npos);
    const std::vector<uint32_t> memory = read_words(device, kOut, 0x3000 / 4);
    if (!reference) {
      reference = launches;
      reference_memory = memory;
      continue;
    }
    for (uint32_t k = 0; k < kLaunches; ++k)
      EXPECT_TRUE(launches[k] == (*reference)[k])
          << "launch " << k << ", " << threads << " host threads: " << launches[k].fault;
    EXPECT_EQ(memory, reference_memory) << threads << " host threads";
  }
}

}  // namespace
}  // namespace ventus::test
