// Throughput of the interpreter on an ALU-bound kernel (T = 32, one host thread). Prints
// thread instructions per second; docs/simulator.md quotes the number.
#include <cstdio>
#include <vector>

#include "sim_harness.h"

namespace ventus::test {
namespace {

TEST(SimSpeed, AluLoopThreadInstructionsPerSecond) {
  sim::DeviceConfig config;
  config.num_sms = 1;
  config.host_threads = 1;
  sim::Device device(config);
  load_program(device, R"(
    li s1, 20000
    vid.v v1
    vmv.v.i v2, 1
.Lloop:
    vadd.vv v3, v1, v2
    vmul.vv v4, v3, v1
    vxor.vv v1, v4, v2
    vsll.vi v5, v1, 1
    vadd.vv v2, v2, v5
    vand.vi v6, v2, 7
    vor.vv v1, v1, v6
    vsub.vv v2, v2, v3
    addi s1, s1, -1
    bnez s1, .Lloop
    endprg x0, x0, x0
)");
  const auto r = device.run(launch_of(8, 32, 4));
  ASSERT_TRUE(r.ok()) << fault_text(r);
  const double rate = static_cast<double>(r.stats.thread_instructions) / r.stats.seconds;
  std::printf(
      "ALU loop: %llu warp instructions, %llu thread instructions in %.3f s: %.0f M thread "
      "instructions/s, %.1f M warp instructions/s\n",
      static_cast<unsigned long long>(r.stats.warp_instructions),
      static_cast<unsigned long long>(r.stats.thread_instructions), r.stats.seconds, rate / 1e6,
      static_cast<double>(r.stats.warp_instructions) / r.stats.seconds / 1e6);
  EXPECT_EQ(r.stats.warp_instructions, 4u * 8 * (4 + 20000 * 10 + 1));  // li s1 is lui + addi
}

// Per-thread loads and stores (the "12" series the compiler emits): each of 8 warps adds
// one to its 32 words of a buffer, 20000 times.
TEST(SimSpeed, MemoryLoopThreadInstructionsPerSecond) {
  sim::DeviceConfig config;
  config.num_sms = 1;
  sim::Device device(config);
  device.memory().map(0x90000000, 8 * 32 * 4);
  load_program(device, R"(
    li s1, 20000
    vid.v v1
    csrr t0, tid
    vadd.vx v1, v1, t0
    vsll.vi v1, v1, 2
    li t1, 0x90000000
    vadd.vx v1, v1, t1
.Lloop:
    vlw12.v v2, 0(v1)
    vadd.vi v2, v2, 1
    vsw12.v v2, 0(v1)
    addi s1, s1, -1
    bnez s1, .Lloop
    endprg x0, x0, x0
)");
  const auto r = device.run(launch_of(8, 32));
  ASSERT_TRUE(r.ok()) << fault_text(r);
  std::printf("memory loop: %.0f M thread instructions/s, %.1f M warp instructions/s\n",
              static_cast<double>(r.stats.thread_instructions) / r.stats.seconds / 1e6,
              static_cast<double>(r.stats.warp_instructions) / r.stats.seconds / 1e6);
  std::vector<uint32_t> words(8 * 32);
  ASSERT_TRUE(device.memory().read(0x90000000, words.data(), words.size() * 4));
  EXPECT_EQ(words, std::vector<uint32_t>(words.size(), 20000u));
}

}  // namespace
}  // namespace ventus::test
