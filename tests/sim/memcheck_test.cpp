// The memory checker (RunOptions::memcheck, docs/simulator.md "Memory checking"): each kind
// of invalid access (past the end, before the start, between two allocations, in a freed
// allocation, beyond the workgroup's local memory or the thread's private memory) is
// reported once per lane with the kernel, workgroup, warp, lane, work-item, pc and
// instruction of the access and the nearest allocation; valid accesses report nothing. The
// expected addresses and distances are worked out here from the kernels' own arithmetic.
#include <fmt/format.h>

#include "sim_harness.h"

namespace ventus::test {
namespace {

constexpr uint32_t kA = 0x90001000;  // a 4096-byte buffer
constexpr uint32_t kB = 0x90003000;  // a 256-byte buffer
constexpr uint32_t kPds = 0x91000000;

struct Checked {
  Checked() : device(one_sm()) {
    device.memory().map(0x90000000, 64 * 1024);
    device.memory().map(kPds, 64 * 1024);
    memcheck.allocations = {{kB, 256, ""}, {kA, 4096, ""}};  // any order
  }
  static sim::DeviceConfig one_sm() {
    sim::DeviceConfig c;
    c.num_sms = 1;
    return c;
  }
  // Two warps of 8 threads (local ids 0..15), 256 bytes of private memory per thread. The
  // kernel's instruction labelled `bad:` is the one expected to report.
  sim::LaunchResult run(const std::string& source, bool check = true, uint32_t groups = 1) {
    elf::Image image;
    load_program(device, source, &image);
    bad_pc = image.symbol_address("bad").value_or(0);
    sim::KernelLaunch l = launch_of(2, 8, groups);
    l.pds_base = kPds;
    l.pds_bytes_per_thread = 256;
    sim::RunOptions o;
    if (check) o.memcheck = &memcheck;
    return device.run(l, o);
  }
  uint32_t word(uint32_t address) {
    uint32_t w = 0;
    EXPECT_TRUE(device.memory().read(address, &w, 4));
    return w;
  }
  sim::Device device;
  sim::Memcheck memcheck;
  uint32_t bad_pc = 0;
};

// v0 = the thread's local id (CSR_TID + lane).
constexpr char kLocalId[] = R"(
    csrr t0, CSR_TID
    vid.v v0
    vadd.vx v0, v0, t0
)";

// Thread t stores t + 1 at A + 4036 + 4t: t = 15 writes the 4 bytes just past the buffer.
TEST(SimMemcheck, WritePastTheEndNamesTheLaneAndTheAllocation) {
  Checked c;
  const auto r = c.run(std::string(kLocalId) + R"(
    vsll.vi v1, v0, 2
    li t1, 0x90001fc4
    vadd.vx v1, v1, t1
    vadd.vi v2, v0, 1
bad:
    vsw12.v v2, 0(v1)
    endprg x0, x0, x0
)");
  ASSERT_EQ(r.memcheck_error_count, 1u) << fault_text(r);
  ASSERT_EQ(r.memcheck_errors.size(), 1u);
  const sim::MemcheckError& e = r.memcheck_errors[0];
  EXPECT_TRUE(e.store);
  EXPECT_EQ(e.size, 4u);
  EXPECT_EQ(e.space, sim::MemorySpace::global);
  EXPECT_EQ(e.address, kA + 4096);
  EXPECT_EQ(e.where.warp, 1u);
  EXPECT_EQ(e.lane, 7u);
  EXPECT_EQ(e.local_linear, 15u);
  EXPECT_EQ(e.where.kernel, "test");
  ASSERT_NE(c.bad_pc, 0u);
  EXPECT_EQ(e.where.pc, c.bad_pc);
  EXPECT_EQ(e.where.disassembly, "vsw12.v v2, 0(v1)");
  EXPECT_NE(e.where.message.find("invalid global write of 4 bytes at 0x90002000 by thread 7 of "
                                 "warp 1 (local id 15): 0 bytes after the end of the 4096-byte "
                                 "allocation at 0x90001000"),
            std::string::npos)
      << e.where.message;
  // The launch ran to its end (the store was performed, as without the checker) and then
  // failed with the error.
  ASSERT_TRUE(r.fault);
  EXPECT_EQ(r.fault->pc, c.bad_pc);
  EXPECT_EQ(r.fault->message, "memcheck: " + e.where.message);
  EXPECT_EQ(c.word(kA + 4096), 16u);
  EXPECT_EQ(c.word(kA + 4092), 15u);
}

TEST(SimMemcheck, OffByDefault) {
  Checked c;
  const auto r = c.run(std::string(kLocalId) + R"(
    vsll.vi v1, v0, 2
    li t1, 0x90001fc4
    vadd.vx v1, v1, t1
    vsw12.v v0, 0(v1)
    endprg x0, x0, x0
)",
                       false);
  EXPECT_TRUE(r.ok()) << fault_text(r);
  EXPECT_EQ(r.memcheck_error_count, 0u);
}

// A scalar load 8 bytes before A, once per warp.
TEST(SimMemcheck, ScalarReadBeforeTheStart) {
  Checked c;
  const auto r = c.run(R"(
    li t1, 0x90001000
bad:
    lw t2, -8(t1)
    endprg x0, x0, x0
)");
  ASSERT_EQ(r.memcheck_error_count, 2u) << fault_text(r);
  for (uint32_t w = 0; w < 2; ++w) {
    const sim::MemcheckError& e = r.memcheck_errors[w];
    EXPECT_FALSE(e.store);
    EXPECT_EQ(e.address, kA - 8);
    EXPECT_EQ(e.lane, sim::MemcheckError::kWarpAccess);
    EXPECT_EQ(e.where.warp, w);
    EXPECT_EQ(e.where.pc, c.bad_pc);
    EXPECT_NE(e.where.message.find("by warp " + std::to_string(w) +
                                   " (a scalar access): 8 bytes before the start of the "
                                   "4096-byte allocation at 0x90001000"),
              std::string::npos)
        << e.where.message;
  }
  EXPECT_NE(r.fault->message.find("; 2 invalid accesses in all\n  kernel 'test' workgroup "
                                  "(0,0,0) warp 1"),
            std::string::npos)
      << r.fault->message;
}

// Between A (ends 0x90002000) and B (starts 0x90003000): the nearer one is named.
TEST(SimMemcheck, BetweenTwoAllocationsNamesTheNearer) {
  Checked c;
  const auto r = c.run(R"(
    csrr t0, CSR_WID
    bnez t0, .Lend
    li t1, 0x90002400
    lw t2, 0(t1)
    li t1, 0x90002f00
    sh t2, 2(t1)
.Lend:
    endprg x0, x0, x0
)");
  ASSERT_EQ(r.memcheck_error_count, 2u) << fault_text(r);
  EXPECT_NE(r.memcheck_errors[0].where.message.find(
                "read of 4 bytes at 0x90002400 by warp 0 (a scalar access): 1024 bytes after "
                "the end of the 4096-byte allocation at 0x90001000"),
            std::string::npos)
      << r.memcheck_errors[0].where.message;
  EXPECT_NE(r.memcheck_errors[1].where.message.find(
                "write of 2 bytes at 0x90002f02 by warp 0 (a scalar access): 254 bytes before "
                "the start of the 256-byte allocation at 0x90003000"),
            std::string::npos)
      << r.memcheck_errors[1].where.message;
}

TEST(SimMemcheck, FreedAllocationIsNamed) {
  Checked c;
  c.memcheck.freed = {{0x90005000, 512, ""}};
  const auto r = c.run(R"(
    li t1, 0x90005100
    lw t2, 0(t1)
    endprg x0, x0, x0
)");
  ASSERT_EQ(r.memcheck_error_count, 2u) << fault_text(r);
  EXPECT_NE(r.memcheck_errors[0].where.message.find(
                "in the freed 512-byte allocation at 0x90005000; 8192 bytes after the end of "
                "the 256-byte allocation at 0x90003000"),
            std::string::npos)
      << r.memcheck_errors[0].where.message;
}

// An access the checker reports and that then faults: both are in the launch's fault.
TEST(SimMemcheck, UnmappedAccessIsReportedThenFaults) {
  Checked c;
  const auto r = c.run(R"(
    li t1, 0x95000000
    sw t1, 0(t1)
    endprg x0, x0, x0
)");
  ASSERT_EQ(r.memcheck_error_count, 1u) << fault_text(r);
  ASSERT_TRUE(r.fault);
  EXPECT_NE(r.fault->message.find("memcheck: invalid global write of 4 bytes at 0x95000000"),
            std::string::npos)
      << r.fault->message;
  EXPECT_NE(r.fault->message.find("\nthen the launch stopped: kernel 'test' workgroup (0,0,0) "
                                  "warp 0 (SM 0) pc 0x80000004"),
            std::string::npos)
      << r.fault->message;
  EXPECT_NE(r.fault->message.find("store to unmapped address 0x95000000"), std::string::npos)
      << r.fault->message;
}

// Local memory: 1024 bytes per workgroup; two workgroups on one SM take windows 0x70000000
// and 0x70000400. Thread t of each writes window + 960 + 4t: t = 0..15 reach + 1020, valid;
// the flat and the explicit-local forms both write 4 bytes further, t = 15 past the end.
TEST(SimMemcheck, LocalMemoryBeyondTheWorkgroupsSize) {
  Checked c;
  const auto r = c.run(std::string(kLocalId) + R"(
    vsll.vi v1, v0, 2
    li t3, 964
    vadd.vx v2, v1, t3
    csrr t1, CSR_LDS
    addi t1, t1, 960
    vadd.vx v1, v1, t1
    vsw12.v v0, 0(v1)
bad:
    vsw12.v v0, 4(v1)
    vsw_local.v v0, 0(v2)
    endprg x0, x0, x0
)",
                       true, 2);
  ASSERT_EQ(r.memcheck_error_count, 4u) << fault_text(r);
  for (uint32_t g = 0; g < 2; ++g)
    for (uint32_t k = 0; k < 2; ++k) {
      const sim::MemcheckError& e = r.memcheck_errors[2 * g + k];
      EXPECT_EQ(e.space, sim::MemorySpace::local);
      EXPECT_EQ(e.where.workgroup[0], g);
      EXPECT_EQ(e.lane, 7u);
      EXPECT_EQ(e.where.pc, c.bad_pc + 4 * k);
      const uint32_t window = 0x70000000 + 1024 * g;
      EXPECT_EQ(e.address, window + 1024);
      EXPECT_NE(e.where.message.find(fmt::format(
                    "invalid local write of 4 bytes at {:#010x} by thread 7 of warp 1 (local id "
                    "15): 0 bytes after the end of the workgroup's 1024-byte local memory at "
                    "{:#010x}",
                    window + 1024, window)),
                std::string::npos)
          << e.where.message;
    }
}

// Private memory: 256 bytes per thread; thread t accesses private address 4t + 196, so
// t = 15 reads 4 bytes at 256.
TEST(SimMemcheck, PrivateMemoryBeyondTheThreadsSize) {
  Checked c;
  const auto r = c.run(std::string(kLocalId) + R"(
    vsll.vi v1, v0, 2
bad:
    vlw.v v2, 196(v1)
    endprg x0, x0, x0
)");
  ASSERT_EQ(r.memcheck_error_count, 1u) << fault_text(r);
  const sim::MemcheckError& e = r.memcheck_errors[0];
  EXPECT_EQ(e.space, sim::MemorySpace::private_);
  EXPECT_EQ(e.address, 256u);
  EXPECT_EQ(e.where.pc, c.bad_pc);
  EXPECT_NE(e.where.message.find("invalid private read of 4 bytes at private address 0x00000100 "
                                 "by thread 7 of warp 1 (local id 15): 0 bytes after the end of "
                                 "the thread's 256-byte private memory"),
            std::string::npos)
      << e.where.message;
}

// Lanes whose addresses lie in one mapped page (the vector fast path) are still checked one
// by one; the work-item ids follow the local size; beyond max_errors only the count grows.
TEST(SimMemcheck, EveryLaneOfAOnePageSpanAndTheCap) {
  Checked c;
  c.memcheck.max_errors = 3;
  c.memcheck.local_size[0] = 4;
  c.memcheck.local_size[1] = 4;
  c.memcheck.local_size[2] = 1;
  c.memcheck.global_offset[0] = 100;
  const auto r = c.run(std::string(kLocalId) + R"(
    vsll.vi v1, v0, 5
    li t1, 0x90003000
    vadd.vx v1, v1, t1
    vsw12.v v0, 0(v1)
    endprg x0, x0, x0
)");
  // Threads 8..15 write B + 256 .. B + 480.
  EXPECT_EQ(r.memcheck_error_count, 8u) << fault_text(r);
  ASSERT_EQ(r.memcheck_errors.size(), 3u);
  EXPECT_EQ(r.memcheck_errors[2].address, kB + 32 * 10);
  // Thread 10 of the 4x4 workgroup: local (2,2,0); global x = 100 + 2.
  EXPECT_NE(r.memcheck_errors[2].where.message.find(
                "by work-item (102,2,0) (thread 2 of warp 1, local (2,2,0)): 64 bytes after the "
                "end of the 256-byte allocation at 0x90003000"),
            std::string::npos)
      << r.memcheck_errors[2].where.message;
  EXPECT_NE(r.fault->message.find("; 8 invalid accesses in all"), std::string::npos);
  EXPECT_NE(r.fault->message.find("\n  ... and 5 more, not listed (Memcheck::max_errors is 3)"),
            std::string::npos)
      << r.fault->message;
}

// With max_errors 0 the accesses are only counted, and the launch still fails.
TEST(SimMemcheck, CountedOnlyStillFails) {
  Checked c;
  c.memcheck.max_errors = 0;
  const auto r = c.run("li t1, 0x90000ff8\nlw t2, 0(t1)\nendprg x0, x0, x0\n");
  EXPECT_EQ(r.memcheck_error_count, 2u);
  EXPECT_TRUE(r.memcheck_errors.empty());
  ASSERT_TRUE(r.fault);
  EXPECT_EQ(r.fault->describe(),
            "kernel 'test': memcheck: 2 invalid accesses, none listed (Memcheck::max_errors is 0)");
}

// Valid accesses of every kind report nothing, and the results are those of an unchecked
// run.
TEST(SimMemcheck, ValidAccessesReportNothing) {
  const std::string kernel = std::string(kLocalId) + R"(
    vsll.vi v1, v0, 2
    li t1, 0x90001000
    vadd.vx v3, v1, t1
    vsw12.v v0, 0(v3)
    vlw12.v v4, 0(v3)
    csrr t2, CSR_LDS
    vadd.vx v5, v1, t2
    vsw12.v v4, 0(v5)
    vlw12.v v6, 0(v5)
    vsw.v v6, 0(v1)
    vlw.v v7, 0(v1)
    li t3, 0x90003000
    vadd.vx v8, v1, t3
    vadd.vi v7, v7, 1
    vsw12.v v7, 0(v8)
    lw t4, 0(t3)
    amoadd.w t5, t4, (t3)
    endprg x0, x0, x0
)";
  Checked checked, plain;
  const auto r = checked.run(kernel);
  EXPECT_TRUE(r.ok()) << fault_text(r);
  EXPECT_EQ(r.memcheck_error_count, 0u);
  ASSERT_TRUE(plain.run(kernel, false).ok());
  for (uint32_t i = 0; i < 16; ++i)
    EXPECT_EQ(checked.word(kB + 4 * i), plain.word(kB + 4 * i)) << i;
  EXPECT_EQ(checked.word(kB), 4u);  // 1, then each warp's atomic add of what it holds
}

}  // namespace
}  // namespace ventus::test
