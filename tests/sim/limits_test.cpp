// The device's limits and errors (docs/simulator.md, "Limits and errors"): huge grids,
// cancellation, host failures inside worker threads, null and small pointers, stores into
// the program's code, warp stack overflows, and when a launch sees code that was written.
#include <fmt/format.h>

#include <chrono>
#include <future>
#include <new>
#include <stop_token>
#include <thread>

#include "sim_harness.h"

namespace ventus::test {
namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

constexpr uint32_t kOut = 0x90000000;
constexpr uint32_t kPds = 0x91000000;

sim::DeviceConfig config(uint32_t sms, unsigned host_threads, uint64_t budget) {
  sim::DeviceConfig c;
  c.num_sms = sms;
  c.host_threads = host_threads;
  c.instruction_budget = budget;
  return c;
}

// Item 6: the workgroup ids of 2^32 - 1 workgroups are generated as they are admitted; the
// launch starts at once (a workgroup that never ends stops it) instead of listing 16 GiB of
// ids first.
TEST(SimLimits, HugeGridStartsWithoutListingWorkgroups) {
  for (unsigned threads : {1u, 2u}) {
    sim::Device device(config(2, threads, 1000));
    load_program(device, R"(
    csrr t0, 0x808             # workgroup id x
    li t1, 50000
    beq t0, t1, 1f
    endprg x0, x0, x0
1:  j 1b
)");
    sim::KernelLaunch l = launch_of(1, 1, 0xffffffffu);
    const auto start = Clock::now();
    const sim::LaunchResult r = device.run(l);
    EXPECT_LT(seconds_since(start), 5.0);
    EXPECT_NE(fault_text(r).find("instruction budget exhausted"), std::string::npos)
        << fault_text(r);
    EXPECT_EQ(r.fault->workgroup[0], 50'000u);
    // The workgroups before it ran; the other 15 slots finished the round (workgroups of 3
    // instructions each).
    EXPECT_GT(r.stats.workgroups, 50'000u);
    EXPECT_LT(r.stats.workgroups, 50'000u + 16 * (sim::kRoundWarpInstructions / 3 + 1));
  }
}

// Placement is unchanged: workgroup i runs on SM i mod num_sms, in order, whatever the
// number of host threads (the fault names the SM of the faulting workgroup).
TEST(SimLimits, PlacementIsWorkgroupModuloSms) {
  for (unsigned threads : {1u, 3u}) {
    sim::Device device(config(3, threads, 0));
    load_program(device, R"(
    csrr t0, 0x808             # workgroup id x
    li t1, 7
    beq t0, t1, 1f
    endprg x0, x0, x0
1:  lw t2, 0(zero)            # only workgroup 7 faults
)");
    const sim::LaunchResult r = device.run(launch_of(1, 4, 10));
    ASSERT_TRUE(r.fault);
    EXPECT_EQ(r.fault->workgroup[0], 7u);
    EXPECT_EQ(r.fault->sm, 7u % 3);
  }
}

// Item 11: RunOptions::cancel stops an endless kernel (unlimited budget) at the next warp
// switch, on one host thread and on several.
TEST(SimLimits, CancelStopsAnEndlessKernel) {
  for (unsigned threads : {1u, 2u}) {
    sim::Device device(config(2, threads, 0));
    load_program(device, "1: j 1b\n");
    std::stop_source cancel;
    sim::RunOptions options;
    options.cancel = cancel.get_token();
    auto result =
        std::async(std::launch::async, [&] { return device.run(launch_of(2, 8, 4), options); });
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    const auto start = Clock::now();
    cancel.request_stop();
    ASSERT_EQ(result.wait_for(std::chrono::seconds(10)), std::future_status::ready);
    EXPECT_LT(seconds_since(start), 1.0);
    const sim::LaunchResult r = result.get();
    EXPECT_NE(fault_text(r).find("launch cancelled by the host"), std::string::npos)
        << fault_text(r);
    EXPECT_TRUE(r.fault->at_warp);  // where the kernel was: the endless loop
    EXPECT_EQ(r.fault->pc, 0x80000000u);
    // The device stays usable.
    load_program(device, "endprg x0, x0, x0\n");
    EXPECT_TRUE(device.run(launch_of(1, 8, 4)).ok());
  }
}

// Item 5: an exception from the host side of an instruction (here the print handler runs
// out of memory) becomes a fault at that instruction, "out of memory", on one host thread
// and on several (where it used to terminate the process).
TEST(SimLimits, OutOfMemoryInAWorkerIsAFault) {
  for (unsigned threads : {1u, 2u}) {
    sim::Device device(config(2, threads, 0));
    load_program(device, R"(
    li t0, 1
    csrw 0x80b, t0             # CSR_PRINT: the host formats a record
    endprg x0, x0, x0
)");
    sim::RunOptions options;
    options.on_print = [](const sim::PrintRequest&) { throw std::bad_alloc(); };
    const sim::LaunchResult r = device.run(launch_of(1, 4, 4), options);
    ASSERT_TRUE(r.fault);
    EXPECT_TRUE(r.fault->at_warp);
    EXPECT_EQ(r.fault->pc, 0x80000004u);
    EXPECT_NE(fault_text(r).find("out of memory: host memory was exhausted while simulating "
                                 "this instruction"),
              std::string::npos)
        << fault_text(r);
  }
}

// Other exceptions keep their message; one outside any warp (a progress handler) is a fault
// of the launch without a bogus location.
TEST(SimLimits, HostExceptionsOutsideWarpsAreFaultsOfTheLaunch) {
  for (unsigned threads : {1u, 2u}) {
    sim::Device device(config(2, threads, 0));
    load_program(device, "1: j 1b\n");
    sim::RunOptions options;
    options.progress_interval = 0.01;
    options.on_progress = [](const sim::LaunchProgress&) { throw std::bad_alloc(); };
    const sim::LaunchResult r = device.run(launch_of(1, 4, 4), options);
    ASSERT_TRUE(r.fault);
    EXPECT_FALSE(r.fault->at_warp);
    EXPECT_EQ(fault_text(r),
              "kernel 'test': out of memory: host memory was exhausted while simulating the "
              "launch");

    sim::RunOptions tracing;
    tracing.trace =
        sim::trace_lines([](std::string_view) { throw std::runtime_error("trace: disk full"); });
    const sim::LaunchResult t = device.run(launch_of(1, 4, 4), tracing);
    EXPECT_NE(fault_text(t).find("pc 0x80000000 ["), std::string::npos) << fault_text(t);
    EXPECT_NE(fault_text(t).find("]: trace: disk full"), std::string::npos) << fault_text(t);
  }
}

// Item 15: global, flat and RVV accesses below 0x01000000 fault as null or small pointers
// and never reach private memory; private memory still works through its instructions.
TEST(SimLimits, NullAndSmallPointersFault) {
  struct Case {
    const char* code;
    const char* message;
  };
  const Case cases[] = {
      {"li t0, 16\nvmv.v.x v1, t0\nvsw12.v v2, 0(v1)\n",
       "thread 0: store through a null or small pointer: address 0x00000010 is below "
       "0x01000000"},
      {"vmv.v.i v1, 0\nvlw12.v v2, 0(v1)\n",
       "thread 0: load through a null or small pointer: address 0x00000000"},
      {"li t0, 0xfffffc\nvmv.v.x v1, t0\nvsw12.v v2, 0(v1)\n",
       "store through a null or small pointer: address 0x00fffffc"},
      {"vmv.v.i v4, 0\nvmv.v.i v5, 0\nvsw12d.v v3, 8(v4)\n",
       "store through a null or small pointer: address 0x00000008"},
      {"sw t0, 4(zero)\n", "store through a null or small pointer: address 0x00000004"},
      {"li t0, 64\nvle32.v v1, (t0)\n", "load through a null or small pointer: address 0x00000040"},
      {"amoadd.w t1, t0, (zero)\n", "store through a null or small pointer: address 0x00000000"},
  };
  for (const Case& c : cases) {
    sim::Device device(config(1, 1, 0));
    device.memory().map(kPds, 64 * 1024);
    // Words 0..3 of every thread's private memory, which a null global store used to hit.
    load_program(device, std::string(R"(
    vid.v v9
    vmv.v.i v8, 0
    vsw.v v9, 0(v8)
    vsw.v v9, 4(v8)
    vsw.v v9, 8(v8)
    vsw.v v9, 16(v8)
    vmv.v.i v2, -1
)") + c.code + "endprg x0, x0, x0\n");
    sim::KernelLaunch l = launch_of(1, 8);
    l.pds_base = kPds;
    l.pds_bytes_per_thread = 64;
    const sim::LaunchResult r = device.run(l);
    EXPECT_NE(fault_text(r).find(c.message), std::string::npos) << c.code << fault_text(r);
    const auto words = read_words(device, kPds, 8 * 5);
    for (uint32_t lane = 0; lane < 8; ++lane)
      for (uint32_t k : {0u, 1u, 2u, 4u}) EXPECT_EQ(words[k * 8 + lane], lane) << c.code;
  }
}

// The private-memory instructions still reach private address 0 (tp starts there).
TEST(SimLimits, PrivateInstructionsStillReachPrivateAddressZero) {
  sim::Device device(config(1, 1, 0));
  device.memory().map(kPds, 64 * 1024);
  device.memory().map(kOut, 4096);
  load_program(device, R"(
    vid.v v1
    vmv.v.i v8, 0
    vsw.v v1, 0(v8)
    vsw_private.v v1, 4(v8)
    vlw.v v2, 4(v8)
    vlw_private.v v3, 0(v8)
    vadd.vv v4, v2, v3
    li t0, 0x90000000
    vsll.vi v5, v1, 2
    vadd.vx v5, v5, t0
    vsw12.v v4, 0(v5)
    endprg x0, x0, x0
)");
  sim::KernelLaunch l = launch_of(1, 8);
  l.pds_base = kPds;
  l.pds_bytes_per_thread = 64;
  const sim::LaunchResult r = device.run(l);
  ASSERT_TRUE(r.ok()) << fault_text(r);
  const auto out = read_words(device, kOut, 8);
  for (uint32_t lane = 0; lane < 8; ++lane) EXPECT_EQ(out[lane], 2 * lane);
}

// Issue 17 item 9: private memory is reserved per resident workgroup, not per workgroup of
// the grid. 3 SMs hold 8 workgroups of 4 warps each (32 warp slots / 4), so a launch needs
// at most 24 areas of 4 x 8 threads x 64 bytes, whatever its grid; a small grid keeps one
// area per workgroup (the public driver's layout), and a tighter resource lowers the count.
TEST(SimLimits, PrivateMemoryIsReservedPerResidentWorkgroup) {
  const sim::DeviceConfig c = config(3, 1, 0);
  sim::KernelLaunch l = launch_of(4, 8);
  l.pds_bytes_per_thread = 64;
  constexpr uint64_t kArea = 4 * 8 * 64;
  for (const auto& [groups, areas] : std::vector<std::pair<uint32_t, uint64_t>>{
           {1, 1}, {23, 23}, {24, 24}, {25, 24}, {1u << 20, 24}, {0xffffffffu, 24}}) {
    l.grid[0] = groups;
    EXPECT_EQ(sim::private_memory_bytes(l, c), areas * kArea) << groups << " workgroups";
  }
  // 16 warps: the warp slots hold 2 workgroups an SM; 20 KiB of local memory: 3 an SM.
  l.grid[0] = 1000;
  l.warps_per_workgroup = 16;
  EXPECT_EQ(sim::private_memory_bytes(l, c), 3 * 2 * 16 * 8 * 64u);
  l.warps_per_workgroup = 4;
  l.lds_bytes = 20 * 1024;
  EXPECT_EQ(sim::private_memory_bytes(l, c), 3 * 3 * kArea);
  // The one refusal left: the resident workgroups' areas beyond the 32-bit address space.
  l.pds_base = 0xffffe000;  // 8 KiB of room: 9 areas of 2 KiB do not fit
  const std::optional<sim::LaunchError> e = sim::check_launch(l, c);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->limit, sim::LaunchLimit::private_memory);
  EXPECT_EQ(e->requested, 9 * kArea);
  EXPECT_EQ(e->available, 8192u);
  EXPECT_NE(e->message.find(
                "the private memory of the resident workgroups (9 x 2048 bytes: pdsSize 64 x 32 "
                "threads) from pds_base 0xffffe000 goes beyond"),
            std::string::npos)
      << e->message;
}

// 100 workgroups on 24 resident slots: every warp's CSR_PDS is its slot's area (SM g mod 3,
// its slot there), and what a thread stores in private memory is what it loads back after
// a wait long enough for the other resident workgroups to run: no two resident workgroups
// share private memory, and a slot's next workgroup starts on its own data.
TEST(SimLimits, ResidentWorkgroupsHaveTheirOwnPrivateMemory) {
  for (unsigned threads : {1u, 3u}) {
    sim::Device device(config(3, threads, 0));
    device.memory().map(kPds, 64 * 1024);
    device.memory().map(kOut, 64 * 1024);
    load_program(device, R"(
    csrr t0, gidx
    csrr t1, wid
    slli s0, t0, 2
    add s0, s0, t1
    slli s0, s0, 7             # record (g * 4 + wid) * 128
    li t2, 0x90000000
    add s0, s0, t2
    csrr t2, pds
    sw t2, 0(s0)
    csrr t2, wgid
    sw t2, 4(s0)
    slli t2, t0, 5             # global thread id: g * 32 + tid + lane
    csrr t3, tid
    add t2, t2, t3
    vid.v v1
    vadd.vx v1, v1, t2
    vmv.v.i v8, 0
    vsw.v v1, 0(v8)
    vadd.vi v2, v1, 7
    vsw.v v2, 4(v8)
    li t4, 300                 # 600 instructions: the SM's other warps run
1:  addi t4, t4, -1
    bnez t4, 1b
    vlw.v v3, 0(v8)
    vlw.v v4, 4(v8)
    vsub.vv v4, v4, v3         # 7 when both words are the thread's own
    vid.v v5
    vsll.vi v5, v5, 2
    vadd.vx v5, v5, s0
    vsw12.v v3, 8(v5)
    vsw12.v v4, 40(v5)
    endprg x0, x0, x0
)");
    sim::KernelLaunch l = launch_of(4, 8, 100);
    l.pds_base = kPds;
    l.pds_bytes_per_thread = 64;
    const sim::LaunchResult r = device.run(l);
    ASSERT_TRUE(r.ok()) << fault_text(r);
    EXPECT_EQ(r.stats.workgroups, 100u);
    for (uint32_t g = 0; g < 100; ++g)
      for (uint32_t w = 0; w < 4; ++w) {
        SCOPED_TRACE(fmt::format("workgroup {}, warp {}", g, w));
        const auto words = read_words(device, kOut + (g * 4 + w) * 128, 2 + 2 * 8);
        const uint32_t slot = words[1];
        ASSERT_LT(slot, 8u);
        EXPECT_EQ(words[0], kPds + ((g % 3) * 8 + slot) * 2048 + w * 8 * 64);
        for (uint32_t lane = 0; lane < 8; ++lane) {
          EXPECT_EQ(words[2 + lane], g * 32 + w * 8 + lane) << "lane " << lane;
          EXPECT_EQ(words[10 + lane], 7u) << "lane " << lane;
        }
      }
  }
}

// Item 16: a kernel store into a read-only range (the program's code) faults and names
// the store and the section; the code stays intact for the next launch. Writable data next
// to it on the same page can still be written, and the host may still write the code.
TEST(SimLimits, StoresIntoTheProgramsCodeFault) {
  sim::Device device(config(2, 2, 0));
  load_program(device, R"(
    la t0, data
    li t1, 5
    sw t1, 0(t0)               # writable data on the code's page: fine
    la t0, target
    li t1, 0x00100073          # ebreak
    sw t1, 0(t0)
target:
    endprg x0, x0, x0
    .data
data: .word 0
)");
  device.memory().protect(0x80000000, 0x28, ".text");
  uint32_t endprg = 0, word = 0;
  ASSERT_TRUE(device.memory().read(0x80000024, &endprg, 4));
  const sim::LaunchResult r = device.run(launch_of(1, 4, 4));
  EXPECT_NE(fault_text(r).find("sw t1, 0(t0)]: store to address 0x80000024 in the loaded "
                               "program's read-only section .text [0x80000000, 0x80000028)"),
            std::string::npos)
      << fault_text(r);
  ASSERT_TRUE(device.memory().read(0x80000024, &word, 4));
  EXPECT_EQ(word, endprg);  // unchanged
  ASSERT_TRUE(device.memory().read(0x80000028, &word, 4));
  EXPECT_EQ(word, 5u);  // .data, right after .text on the same page
  // Vector stores too, lane by lane with the thread named.
  load_program(device, R"(
    li t0, 0x80000000
    vmv.v.x v1, t0
    vsw12.v v2, 0(v1)
    endprg x0, x0, x0
)");
  EXPECT_NE(fault_text(device.run(launch_of(1, 4)))
                .find("thread 0: store to address 0x80000000 "
                      "in the loaded program's read-only"),
            std::string::npos);
  // Unmapping the program drops its read-only ranges.
  device.memory().unmap(0x80000000, 0x1000);
  load_program(device, R"(
    la t0, 1f
    sw zero, 0(t0)
1:  endprg x0, x0, x0
)");
  EXPECT_NE(fault_text(device.run(launch_of(1, 4))).find("illegal instruction"), std::string::npos);
}

// Item 23: with KernelLaunch::warp_stack_bytes, an sp-relative access outside the warp's
// stack is a stack overflow (or underflow) before it reaches other warps' stacks.
TEST(SimLimits, StackOverflowIsDetected) {
  const char* kernel = R"(
    csrr t0, 0x805             # warp id
    csrr sp, 0x806             # CSR_LDS
    slli t0, t0, 10
    add sp, sp, t0             # sp = CSR_LDS + 1 KiB * warp, as the start code
1:  addi sp, sp, 16
    sw ra, -4(sp)
    j 1b
)";
  sim::Device device(config(1, 1, 0));
  load_program(device, kernel);
  sim::KernelLaunch l = launch_of(2, 4);
  l.lds_bytes = 2048;
  l.warp_stack_bytes = 1024;
  const sim::LaunchResult r = device.run(l);
  EXPECT_NE(fault_text(r).find("stack overflow: sp-relative 4-byte store to address 0x7000040c "
                               "is outside warp 0's stack [0x70000000, 0x70000400)"),
            std::string::npos)
      << fault_text(r);
  load_program(device, "csrr sp, 0x806\nlw t0, -4(sp)\nendprg x0, x0, x0\n");
  EXPECT_NE(fault_text(device.run(l))
                .find("stack underflow: sp-relative 4-byte load from address "
                      "0x6ffffffc"),
            std::string::npos);
  // Stacks that do not fit the workgroup's local memory are refused up front.
  l.lds_bytes = 1024;
  EXPECT_EQ(fault_text(device.run(l)),
            "kernel 'test': the launch cannot run: 2 warp stacks of 1024 bytes do not fit the "
            "workgroup's 1024 bytes of local memory");
  // Without a stack size the layout is unknown: nothing is checked.
  l.warp_stack_bytes = 0;
  load_program(device, "csrr sp, 0x806\nsw t0, 2044(sp)\nendprg x0, x0, x0\n");
  EXPECT_TRUE(device.run(l).ok());
}

// Item 29: code is read when an SM first executes it in a launch. A store to an
// instruction the launch already ran is not seen by that launch but by the next one (no
// host write needed in between); a store before the first execution is seen at once.
TEST(SimLimits, CodeWritesAreSeenByTheNextLaunch) {
  sim::Device device(config(1, 1, 0));
  device.memory().map(kOut, 4096);
  load_program(device, R"(
    li s0, 0x90000000
    lw s1, 8(s0)               # launches so far
    li s2, 0                   # round
again:
patched:
    li a0, 1                   # patched below to li a0, 2
    slli t0, s2, 2
    add t0, t0, s0
    sw a0, 0(t0)               # out[round] = a0
    bnez s2, done
    la t1, patched
    li t2, 0x00200513          # li a0, 2
    sw t2, 0(t1)
    la t1, later
    sw t2, 0(t1)
later:
    li a0, 1                   # patched before its first execution: runs as li a0, 2
    sw a0, 12(s0)
    li s2, 1
    j again
done:
    addi s1, s1, 1
    sw s1, 8(s0)
    endprg x0, x0, x0
)");
  const sim::KernelLaunch l = launch_of(1, 1);
  ASSERT_TRUE(device.run(l).ok());
  EXPECT_EQ(read_words(device, kOut, 4), (std::vector<uint32_t>{1, 1, 1, 2}));
  ASSERT_TRUE(device.run(l).ok());  // both instructions now read li a0, 2
  EXPECT_EQ(read_words(device, kOut, 4), (std::vector<uint32_t>{2, 2, 2, 2}));
}

}  // namespace
}  // namespace ventus::test
