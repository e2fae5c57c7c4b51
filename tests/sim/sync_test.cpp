// Barriers, local/private/global addressing, atomics, placement of workgroups on SMs and
// host threads, print, trace and regext.
#include <map>
#include <mutex>

#include "sim_harness.h"

namespace ventus::test {
namespace {

constexpr uint32_t kOut = 0x90000000;

// Each warp writes its LDS word, waits at the barrier, then reads its neighbour's word.
// Without the barrier warp 0 would read before warp 1 wrote (it runs 64 instructions first).
// Warp 3 ends before the barrier and must not block it.
constexpr const char* kBarrierKernel = R"(
    csrr s0, lds
    csrr s1, wid
    csrr s2, numw
    li t0, 3
    beq s1, t0, .Lend
    addi s2, s2, -1             # warps that reach the barrier
    slli t1, s1, 2
    add t1, t1, s0
    li t2, 10
    mul t2, s1, t2
    addi t2, t2, 1
    # a slow start for warp 0 would hide the bug; make warp 1 late instead
    li t3, 0
    li t4, 1
    bne s1, t4, .Lstore
    li t3, 200
.Ldelay:
    addi t3, t3, -1
    bnez t3, .Ldelay
.Lstore:
    sw t2, 0(t1)
    barrier x0, x0, 0
    addi t3, s1, 1
    remu t3, t3, s2
    slli t3, t3, 2
    add t3, t3, s0
    lw t4, 0(t3)
    csrr t5, gidx
    slli t5, t5, 4
    slli t6, s1, 2
    add t5, t5, t6
    li t6, 0x90000000
    add t5, t5, t6
    sw t4, 0(t5)
    barrier x0, x0, 0
.Lend:
    endprg x0, x0, x0
)";

TEST(SimBarrier, WaitsForLiveWarpsAndIgnoresEndedOnes) {
  sim::DeviceConfig config;
  config.num_sms = 1;
  sim::Device device(config);
  device.memory().map(kOut, 4096);
  load_program(device, kBarrierKernel);
  const auto r = device.run(launch_of(4, 4, 3));
  ASSERT_TRUE(r.ok()) << fault_text(r);
  EXPECT_EQ(r.stats.barriers, 3u * 3 * 2);
  for (uint32_t g = 0; g < 3; ++g) {
    const auto words = read_words(device, kOut + 16 * g, 3);
    EXPECT_EQ(words, (std::vector<uint32_t>{11, 21, 1})) << "workgroup " << g;
  }
}

TEST(SimBarrier, DifferentBarriersAreADeadlock) {
  sim::Device device;
  load_program(device, R"(
    csrr t0, wid
    bnez t0, .Lother
    barrier x0, x0, 0
    endprg x0, x0, x0
.Lother:
    barrier x0, x0, 0
    endprg x0, x0, x0
)");
  const auto r = device.run(launch_of(2, 4));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.fault->message.find("deadlock"), std::string::npos) << r.fault->message;
  EXPECT_NE(r.fault->message.find("warp 0 at 0x80000008, warp 1 at 0x80000010"), std::string::npos)
      << r.fault->message;
}

// Local memory per workgroup slot, private memory interleaved per thread, global memory by
// unit-stride, strided and indexed RVV accesses and the flat "12" series.
TEST(SimMemorySpaces, LocalPrivateAndGlobal) {
  sim::DeviceConfig config;
  config.num_sms = 1;
  sim::Device device(config);
  device.memory().map(kOut, 8192);
  const uint32_t pds = 0x90100000;
  device.memory().map(pds, 2 * 2 * 4 * 64);
  load_program(device, R"(
    li s0, 0x90000000
    csrr s1, wid
    csrr s2, gidx
    vid.v v1
    csrr t0, tid
    vadd.vx v1, v1, t0            # thread id in the workgroup
    slli t0, s2, 3
    vadd.vx v2, v1, t0            # global thread id (8 threads per workgroup)
    # private: thread stores 1000 * gid + 7 at private address 8, reads it back at 8
    li t0, 1000
    vmul.vx v3, v2, t0
    vadd.vi v3, v3, 7
    vmv.v.i v4, 0
    vsw.v v3, 8(v4)
    vlw.v v5, 8(v4)
    # local: through the flat series at CSR_LDS + 4 * tid, then back into v6
    csrr t1, lds
    vsll.vi v7, v1, 2
    vadd.vx v7, v7, t1
    vsw12.v v5, 0(v7)
    vlw12.v v6, 0(v7)
    # global: unit-stride store at out + 32 * gid
    slli t2, s2, 5
    add t2, t2, s0
    slli t3, s1, 4
    add t2, t2, t3
    vse32.v v6, (t2)
    # strided load of every other word of what warp 0 of this workgroup stored
    slli t2, s2, 5
    add t2, t2, s0
    li t3, 8
    vlse32.v v8, (t2), t3
    addi t4, t2, 0x100
    vse32.v v8, (t4)
    # indexed: load out[gid-major] reversed within the warp
    li t5, 3
    vrsub.vx v9, v1, t5         # 3 - local lane... uses tid within warp 0 only
    vand.vi v9, v9, 3
    vsll.vi v9, v9, 2
    slli t3, s1, 4
    add t6, t2, t3
    vluxei32.v v10, (t6), v9
    addi t6, t6, 0x200
    vse32.v v10, (t6)
    endprg x0, x0, x0
)");
  sim::KernelLaunch l = launch_of(2, 4, 2);
  l.pds_base = pds;
  l.pds_bytes_per_thread = 64;
  const auto r = device.run(l);
  ASSERT_TRUE(r.ok()) << fault_text(r);
  for (uint32_t g = 0; g < 2; ++g) {
    const auto words = read_words(device, kOut + 32 * g, 8);
    for (uint32_t t = 0; t < 8; ++t) EXPECT_EQ(words[t], 1000 * (8 * g + t) + 7);
    // Private address 8 of thread t (warp w, lane i): PDS(w) + 8 * 4 + 4 * i.
    for (uint32_t w = 0; w < 2; ++w)
      for (uint32_t i = 0; i < 4; ++i) {
        const uint32_t warp_base = pds + g * 8 * 64 + w * 4 * 64;
        EXPECT_EQ(read_words(device, warp_base + 8 * 4 + 4 * i, 1)[0],
                  1000 * (8 * g + 4 * w + i) + 7);
      }
  }
}

// amoadd from every warp of 8 workgroups on 2 SMs, lr/sc increments and amomax; the same
// results with 1 and 2 host threads.
TEST(SimAtomics, AcrossWarpsWorkgroupsAndSms) {
  for (unsigned threads : {1u, 2u}) {
    sim::DeviceConfig config;
    config.num_sms = 2;
    config.host_threads = threads;
    config.schedule_quantum = 3;
    sim::Device device(config);
    device.memory().map(kOut, 4096);
    load_program(device, R"(
    li s0, 0x90000000
    li s1, 100
    li t1, 1
.Lloop:
    amoadd.w zero, t1, (s0)
1:  lr.w t2, (s0)
    addi t2, t2, 0
    addi t3, s0, 4
    lr.w t2, (t3)
    addi t2, t2, 1
    sc.w t4, t2, (t3)
    bnez t4, 1b
    addi s1, s1, -1
    bnez s1, .Lloop
    csrr t0, gidx
    csrr t5, wid
    slli t0, t0, 4
    add t0, t0, t5
    addi t6, s0, 8
    amomax.w zero, t0, (t6)
    # local atomics: count the warps of the workgroup
    csrr t0, lds
    amoadd.w zero, t1, (t0)
    barrier x0, x0, 0
    lw t2, 0(t0)
    csrr t5, gidx
    slli t5, t5, 2
    add t5, t5, s0
    sw t2, 16(t5)
    endprg x0, x0, x0
)");
    const auto r = device.run(launch_of(4, 4, 8));
    ASSERT_TRUE(r.ok()) << fault_text(r);
    const auto words = read_words(device, kOut, 3);
    EXPECT_EQ(words[0], 8u * 4 * 100);
    EXPECT_EQ(words[1], 8u * 4 * 100);
    EXPECT_EQ(words[2], (7u << 4) + 3);
    EXPECT_EQ(read_words(device, kOut + 16, 8), std::vector<uint32_t>(8, 4u));
  }
}

// Workgroup placement: at most max_workgroups_per_sm at once, CSR_WGID below it, and the
// same memory for every SM count and host thread count.
TEST(SimPlacement, ResultsDoNotDependOnSmsOrHostThreads) {
  std::vector<uint32_t> reference;
  for (uint32_t sms : {1u, 2u, 3u}) {
    for (unsigned threads : {1u, 2u, 3u}) {
      sim::DeviceConfig config;
      config.num_sms = sms;
      config.host_threads = threads;
      config.max_workgroups_per_sm = 2;
      config.schedule_quantum = 5;
      sim::Device device(config);
      device.memory().map(kOut, 4096);
      load_program(device, R"(
    li s0, 0x90000000
    csrr t0, gidx
    csrr t1, wid
    slli t2, t0, 1
    add t2, t2, t1
    slli t2, t2, 3
    add s1, s0, t2
    csrr t3, wgid
    sw t3, 0(s1)
    # the counter of resident workgroups slots in use: wgid must stay below 2
    vid.v v1
    vmul.vv v2, v1, v1
    vmv.x.s t4, v2
    add t4, t4, t0
    sw t4, 4(s1)
    endprg x0, x0, x0
)");
      const auto r = device.run(launch_of(2, 4, 11));
      ASSERT_TRUE(r.ok()) << fault_text(r);
      EXPECT_EQ(r.stats.workgroups, 11u);
      const auto words = read_words(device, kOut, 11 * 2 * 2);
      for (uint32_t g = 0; g < 11; ++g) {
        EXPECT_LT(words[4 * g], 2u);
        EXPECT_EQ(words[4 * g + 1], 9u + g);  // last active lane's 3*3, plus gidx
      }
      std::vector<uint32_t> values;
      for (uint32_t g = 0; g < 11 * 2; ++g) values.push_back(words[2 * g + 1]);
      if (reference.empty()) reference = values;
      EXPECT_EQ(values, reference) << sms << " SMs, " << threads << " threads";
    }
  }
}

TEST(SimPlacement, WorkgroupsThatCannotFitAreReported) {
  sim::DeviceConfig config;
  config.warp_slots_per_sm = 4;
  sim::Device device(config);
  load_program(device, "endprg x0, x0, x0\n");
  auto r = device.run(launch_of(8, 4));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.fault->message.find("8 warps needs more than the 4 warp slots"), std::string::npos)
      << r.fault->message;
  sim::KernelLaunch l = launch_of(1, 4);
  l.lds_bytes = 1 << 20;
  r = device.run(l);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.fault->message.find("bytes of local memory"), std::string::npos) << r.fault->message;
  r = device.run(launch_of(1, 33));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.fault->message.find("33 threads per warp"), std::string::npos) << r.fault->message;
}

// Faults name kernel, workgroup, warp, pc, word and disassembly; the device stays usable.
struct FaultCase {
  const char* source;
  const char* message;
  uint32_t pc;
};

TEST(SimFaults, MessagesAndRecovery) {
  const FaultCase cases[] = {
      {"li t0, 0x12345678\nlw t1, 0(t0)\n", "load from unmapped address 0x12345678", 0x80000008},
      {"li t0, 0x90000002\nsw t1, 0(t0)\n", "misaligned 4-byte store to address 0x90000002",
       0x80000008},
      {"nop\n.word 0xffffffff\n", "illegal instruction: 0xffffffff is not a Ventus instruction",
       0x80000004},
      {"ecall\n", "ecall is not supported by Ventus", 0x80000000},
      {"csrr t0, 0x7c0\n", "CSR 0x7c0 does not exist", 0x80000000},
      {"csrw tid, t0\n", "CSR 0x800 is read-only", 0x80000000},
      {"li t0, 0x80000002\njr t0\n", "instruction address 0x80000002 is not 4-byte aligned",
       0x80000002},
      {"li t0, 0x20000000\njr t0\n", "instruction fetch from unmapped address 0x20000000",
       0x20000000},
      {"li t0, 0x20\nvmv.v.x v1, t0\nvlw12.v v2, 0(v1)\n",
       "load through a null or small pointer: address 0x00000020", 0x80000008},
      {"regpair zero, zero, 1\naddi t0, t0, 1\n", "addi has no 64-bit pair form", 0x80000004},
      {"li t0, 5\nvsetvli t1, t0, e64, m1\n", "unsupported vtype", 0x80000004},
      {"regext zero, zero, 2\naddi t0, t0, 1\n", "scalar register x69 does not exist", 0x80000004},
      {"regext zero, zero, 1\nregext zero, zero, 1\n", "which it cannot extend", 0x80000004},
      {"regext zero, zero, 1\nv64add.i32 v1, v2, v3\n", "which it cannot extend", 0x80000004},
      {"nop\n.word 0xffffffbf, 0xffffffff\n",
       "illegal instruction: 0xffffffffffffffbf is not a Ventus 64-bit instruction", 0x80000004},
      {"v64add.i16 v1, v2, v3, opsel=1, abs=4\n", "abs/neg bit 2 names a third source", 0x80000000},
      {"v64add.i32 v1, v2, v3, opsel=1\n", "it must be 0 for 32-bit elements", 0x80000000},
      {"vid.v v1\nvmv.v.i v2, 1\nsetrpc zero, zero, 16\nvblt v1, v2, 1f\n1: endprg x0, x0, x0\n",
       "endprg while diverged: 2 SIMT stack entries pending", 0x80000010},
  };
  sim::Device device;
  device.memory().map(kOut, 4096);
  for (const FaultCase& c : cases) {
    load_program(device, c.source);
    const auto r = device.run(launch_of(2, 4, 2));
    ASSERT_FALSE(r.ok()) << c.source;
    EXPECT_NE(r.fault->message.find(c.message), std::string::npos) << r.fault->message;
    EXPECT_EQ(r.fault->pc, c.pc) << r.fault->describe();
    EXPECT_EQ(r.fault->kernel, "test");
    EXPECT_NE(r.fault->describe().find("kernel 'test' workgroup (0,0,0) warp 0"), std::string::npos)
        << r.fault->describe();
  }
  // The illegal word shows in the fault.
  load_program(device, "nop\n.word 0xffffffff\n");
  auto r = device.run(launch_of(1, 4));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.fault->instruction, 0xffffffffu);
  load_program(device, "li t0, 0x98000000\nlw t1, 0(t0)\n");
  r = device.run(launch_of(1, 4));
  EXPECT_EQ(r.fault->disassembly, "lw t1, 0(t0)");
  // Still usable.
  load_program(device, "li t0, 0x90000000\nli t1, 42\nsw t1, 0(t0)\nendprg x0, x0, x0\n");
  r = device.run(launch_of(1, 4));
  ASSERT_TRUE(r.ok()) << fault_text(r);
  EXPECT_EQ(read_words(device, kOut, 1)[0], 42u);
}

TEST(SimFaults, InstructionBudget) {
  sim::DeviceConfig config;
  config.instruction_budget = 1000;
  sim::Device device(config);
  load_program(device, "1: j 1b\n");
  const auto r = device.run(launch_of(2, 4));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.fault->message.find("instruction budget exhausted: 1000 warp instructions"),
            std::string::npos)
      << r.fault->message;
  EXPECT_EQ(r.stats.warp_instructions, 1000u);
}

TEST(SimProgress, ReportsGrowingCountsWhileALaunchRuns) {
  sim::DeviceConfig config;
  config.instruction_budget = 0;
  config.num_sms = 2;
  config.host_threads = 2;
  sim::Device device(config);
  // 8 workgroups of one warp, each counting down 2^21 iterations (2 instructions each).
  load_program(device, "li t0, 0x200000\n1: addi t0, t0, -1\nbnez t0, 1b\nendprg x0, x0, x0\n");
  std::vector<sim::LaunchProgress> reports;
  sim::RunOptions options;
  options.progress_interval = 0.001;
  options.on_progress = [&](const sim::LaunchProgress& p) { reports.push_back(p); };
  const auto r = device.run(launch_of(1, 4, 8), options);
  ASSERT_TRUE(r.ok()) << fault_text(r);
  ASSERT_FALSE(reports.empty());
  for (size_t i = 0; i < reports.size(); ++i) {
    EXPECT_EQ(reports[i].workgroups, 8u);
    EXPECT_LE(reports[i].workgroups_done, 8u);
    EXPECT_LE(reports[i].warp_instructions, r.stats.warp_instructions);
    EXPECT_GT(reports[i].seconds, 0.0);
    if (i > 0) {
      EXPECT_GE(reports[i].warp_instructions, reports[i - 1].warp_instructions);
      EXPECT_GE(reports[i].workgroups_done, reports[i - 1].workgroups_done);
      EXPECT_GT(reports[i].seconds, reports[i - 1].seconds);
    }
  }
}

TEST(SimPrint, HandlerSeesEveryWriteAndTheCsrReadsZeroAfterwards) {
  sim::Device device;
  device.memory().map(kOut, 4096);
  load_program(device, R"(
    csrr t0, wid
    addi t0, t0, 5
    csrw print, t0
    csrr t1, print
    li t2, 0x90000000
    csrr t3, wid
    slli t3, t3, 2
    add t2, t2, t3
    sw t1, 0(t2)
    endprg x0, x0, x0
)");
  std::vector<sim::PrintRequest> seen;
  sim::RunOptions options;
  options.on_print = [&](const sim::PrintRequest& p) { seen.push_back(p); };
  const auto r = device.run(launch_of(2, 4, 2), options);
  ASSERT_TRUE(r.ok()) << fault_text(r);
  ASSERT_EQ(seen.size(), 4u);
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> values;
  for (const auto& p : seen) values[{p.workgroup_linear, p.warp}] = p.value;
  EXPECT_EQ(values[std::make_pair(0u, 0u)], 5u);
  EXPECT_EQ(values[std::make_pair(1u, 1u)], 6u);
  EXPECT_EQ(read_words(device, kOut, 2), (std::vector<uint32_t>{0, 0}));
}

TEST(SimTrace, CommitLogLines) {
  sim::Device device;
  device.memory().map(kOut, 4096);
  load_program(device, R"(
    li t0, 7
    li t1, 0x90000000
    sw t0, 4(t1)
    vid.v v1
    regext zero, zero, 1
    vadd.vx v1, v1, t0
    endprg x0, x0, x0
)");
  std::vector<std::string> lines;
  sim::RunOptions options;
  options.trace = sim::trace_lines([&](std::string_view line) { lines.emplace_back(line); });
  const auto r = device.run(launch_of(1, 4), options);
  ASSERT_TRUE(r.ok()) << fault_text(r);
  ASSERT_EQ(lines.size(), 6u);
  EXPECT_EQ(lines[0], "core 0 wg 0 warp 0: 0x80000000 (0x00700293) li t0, 7 x5 0x00000007");
  EXPECT_EQ(lines[2],
            "core 0 wg 0 warp 0: 0x80000008 (0x00532223) sw t0, 4(t1) st 0x90000004 0x00000007");
  EXPECT_EQ(lines[3],
            "core 0 wg 0 warp 0: 0x8000000c (0x5208a0d7) vid.v v1 v1 [0x0000000f] 00000000 "
            "00000001 00000002 "
            "00000003");
  // regext zero, zero, 1 extends vd: the add writes v33.
  EXPECT_EQ(lines[4],
            "core 0 wg 0 warp 0: 0x80000010 (0x0010200b 0x0212c0d7) regext zero, zero, 1; vadd.vx "
            "v1, v1, t0 "
            "v33 [0x0000000f] 00000007 00000008 00000009 0000000a");
  EXPECT_EQ(r.stats.warp_instructions, 7u);
}

// A 64-bit instruction: one trace line with the whole word, the next pc 8 bytes on.
TEST(SimTrace, SixtyFourBitInstruction) {
  sim::Device device;
  load_program(device, R"(
    vid.v v1
    v64sub.i32 v200, v1, v1, neg=1
    addi t0, zero, 1
    endprg x0, x0, x0
)");
  std::vector<std::string> lines;
  sim::RunOptions options;
  options.trace = sim::trace_lines([&](std::string_view line) { lines.emplace_back(line); });
  const auto r = device.run(launch_of(1, 4), options);
  ASSERT_TRUE(r.ok()) << fault_text(r);
  ASSERT_EQ(lines.size(), 4u);
  // v200 = v1 - (-v1) = 2 * lane.
  EXPECT_EQ(lines[1],
            "core 0 wg 0 warp 0: 0x80000004 (0x040202001c8040bf) v64sub.i32 v200, v1, v1, neg=1 "
            "v200 [0x0000000f] 00000000 00000002 00000004 00000006");
  EXPECT_EQ(lines[2], "core 0 wg 0 warp 0: 0x8000000c (0x00100293) li t0, 1 x5 0x00000001");
  EXPECT_EQ(r.stats.warp_instructions, 4u);
}

}  // namespace
}  // namespace ventus::test
