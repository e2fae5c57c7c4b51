// The commit log's writer (src/sim/trace.cpp) byte for byte against lines written out by
// hand from the program's semantics: scalar and vector rows, a write of an unchanged value
// (not shown), lanes outside the SIMT mask (their kept values), per-thread and scalar
// accesses, the SIMT mask's changes, two workgroups on two SMs, on 1 to 4 host threads;
// and the TraceSink contract (lines written into the sink's memory, a commit that throws).
#include <stdexcept>

#include "sim_harness.h"

namespace ventus::test {
namespace {

constexpr uint32_t kOut = 0x90000000;

// One warp of 4 threads per workgroup; workgroup g works on kOut + 16 g. Lanes 0 and 1
// branch to the join, lanes 2 and 3 add 10 under the mask 0b1100.
const char* const kProgram = R"(
    csrr t0, CSR_GIDX
    slli t3, t0, 4
    lui t1, 0x90000
    add t1, t1, t3
    vid.v v1
    vadd.vx v2, v1, t0
    vsll.vi v3, v1, 2
    vadd.vx v3, v3, t1
    li t2, 2
    vmv.v.x v4, t2
    auipc s3, 0
    addi s3, s3, 20
    setrpc zero, s3, 0
    vblt v1, v4, .Ljoin
    vadd.vi v2, v2, 10
.Ljoin:
    join zero, zero, 0
    vsw12.v v2, 0(v3)
    lw t4, 4(t1)
    endprg x0, x0, x0
)";

// The log of workgroup 1 (on core 1) follows that of workgroup 0 (core 0): each finishes
// within its first turn.
const char* const kExpected =
    "core 0 wg 0 warp 0: 0x80000000 (0x808022f3) csrr t0, 2056\n"
    "core 0 wg 0 warp 0: 0x80000004 (0x00429e13) slli t3, t0, 4\n"
    "core 0 wg 0 warp 0: 0x80000008 (0x90000337) lui t1, 589824 x6 0x90000000\n"
    "core 0 wg 0 warp 0: 0x8000000c (0x01c30333) add t1, t1, t3\n"
    "core 0 wg 0 warp 0: 0x80000010 (0x5208a0d7) vid.v v1 v1 [0x0000000f] 00000000 00000001 "
    "00000002 00000003\n"
    "core 0 wg 0 warp 0: 0x80000014 (0x0212c157) vadd.vx v2, v1, t0 v2 [0x0000000f] 00000000 "
    "00000001 00000002 00000003\n"
    "core 0 wg 0 warp 0: 0x80000018 (0x961131d7) vsll.vi v3, v1, 2 v3 [0x0000000f] 00000000 "
    "00000004 00000008 0000000c\n"
    "core 0 wg 0 warp 0: 0x8000001c (0x023341d7) vadd.vx v3, v3, t1 v3 [0x0000000f] 90000000 "
    "90000004 90000008 9000000c\n"
    "core 0 wg 0 warp 0: 0x80000020 (0x00200393) li t2, 2 x7 0x00000002\n"
    "core 0 wg 0 warp 0: 0x80000024 (0x5e03c257) vmv.v.x v4, t2 v4 [0x0000000f] 00000002 "
    "00000002 00000002 00000002\n"
    "core 0 wg 0 warp 0: 0x80000028 (0x00000997) auipc s3, 0 x19 0x80000028\n"
    "core 0 wg 0 warp 0: 0x8000002c (0x01498993) addi s3, s3, 20 x19 0x8000003c\n"
    "core 0 wg 0 warp 0: 0x80000030 (0x0009b05b) setrpc zero, s3, 0\n"
    "core 0 wg 0 warp 0: 0x80000034 (0x0012445b) vblt v1, v4, 0x8000003c simt 0x00000003\n"
    "core 0 wg 0 warp 0: 0x8000003c (0x0000205b) join zero, zero, 0 simt 0x0000000c\n"
    "core 0 wg 0 warp 0: 0x80000038 (0x02253157) vadd.vi v2, v2, 10 v2 [0x0000000c] 00000000 "
    "00000001 0000000c 0000000d\n"
    "core 0 wg 0 warp 0: 0x8000003c (0x0000205b) join zero, zero, 0 simt 0x0000000f\n"
    "core 0 wg 0 warp 0: 0x8000003c (0x0000205b) join zero, zero, 0\n"
    "core 0 wg 0 warp 0: 0x80000040 (0x0021e07b) vsw12.v v2, 0(v3) st[t0] 0x90000000 "
    "0x00000000 st[t1] 0x90000004 0x00000001 st[t2] 0x90000008 0x0000000c st[t3] 0x9000000c "
    "0x0000000d\n"
    "core 0 wg 0 warp 0: 0x80000044 (0x00432e83) lw t4, 4(t1) x29 0x00000001 ld 0x90000004 "
    "0x00000001\n"
    "core 0 wg 0 warp 0: 0x80000048 (0x0000400b) endprg x0, x0, x0\n"
    "core 1 wg 1 warp 0: 0x80000000 (0x808022f3) csrr t0, 2056 x5 0x00000001\n"
    "core 1 wg 1 warp 0: 0x80000004 (0x00429e13) slli t3, t0, 4 x28 0x00000010\n"
    "core 1 wg 1 warp 0: 0x80000008 (0x90000337) lui t1, 589824 x6 0x90000000\n"
    "core 1 wg 1 warp 0: 0x8000000c (0x01c30333) add t1, t1, t3 x6 0x90000010\n"
    "core 1 wg 1 warp 0: 0x80000010 (0x5208a0d7) vid.v v1 v1 [0x0000000f] 00000000 00000001 "
    "00000002 00000003\n"
    "core 1 wg 1 warp 0: 0x80000014 (0x0212c157) vadd.vx v2, v1, t0 v2 [0x0000000f] 00000001 "
    "00000002 00000003 00000004\n"
    "core 1 wg 1 warp 0: 0x80000018 (0x961131d7) vsll.vi v3, v1, 2 v3 [0x0000000f] 00000000 "
    "00000004 00000008 0000000c\n"
    "core 1 wg 1 warp 0: 0x8000001c (0x023341d7) vadd.vx v3, v3, t1 v3 [0x0000000f] 90000010 "
    "90000014 90000018 9000001c\n"
    "core 1 wg 1 warp 0: 0x80000020 (0x00200393) li t2, 2 x7 0x00000002\n"
    "core 1 wg 1 warp 0: 0x80000024 (0x5e03c257) vmv.v.x v4, t2 v4 [0x0000000f] 00000002 "
    "00000002 00000002 00000002\n"
    "core 1 wg 1 warp 0: 0x80000028 (0x00000997) auipc s3, 0 x19 0x80000028\n"
    "core 1 wg 1 warp 0: 0x8000002c (0x01498993) addi s3, s3, 20 x19 0x8000003c\n"
    "core 1 wg 1 warp 0: 0x80000030 (0x0009b05b) setrpc zero, s3, 0\n"
    "core 1 wg 1 warp 0: 0x80000034 (0x0012445b) vblt v1, v4, 0x8000003c simt 0x00000003\n"
    "core 1 wg 1 warp 0: 0x8000003c (0x0000205b) join zero, zero, 0 simt 0x0000000c\n"
    "core 1 wg 1 warp 0: 0x80000038 (0x02253157) vadd.vi v2, v2, 10 v2 [0x0000000c] 00000001 "
    "00000002 0000000d 0000000e\n"
    "core 1 wg 1 warp 0: 0x8000003c (0x0000205b) join zero, zero, 0 simt 0x0000000f\n"
    "core 1 wg 1 warp 0: 0x8000003c (0x0000205b) join zero, zero, 0\n"
    "core 1 wg 1 warp 0: 0x80000040 (0x0021e07b) vsw12.v v2, 0(v3) st[t0] 0x90000010 "
    "0x00000001 st[t1] 0x90000014 0x00000002 st[t2] 0x90000018 0x0000000d st[t3] 0x9000001c "
    "0x0000000e\n"
    "core 1 wg 1 warp 0: 0x80000044 (0x00432e83) lw t4, 4(t1) x29 0x00000002 ld 0x90000014 "
    "0x00000002\n"
    "core 1 wg 1 warp 0: 0x80000048 (0x0000400b) endprg x0, x0, x0\n";

// A sink as ventus run's: lines written one after another into one buffer. The room it
// gives is poisoned, so that a line with bytes the writer skipped shows them.
class BufferSink final : public sim::TraceSink {
 public:
  char* room(size_t bytes) override {
    space_.assign(bytes, '#');
    return space_.data();
  }
  void commit(const char* end) override {
    if (lines_ == throw_at) throw std::runtime_error("the log is full");
    text_.append(space_.data(), static_cast<size_t>(end - space_.data()));
    ++lines_;
  }
  const std::string& text() const { return text_; }
  size_t throw_at = ~size_t{0};  // the line (from 0) whose commit throws

 private:
  std::string space_;
  std::string text_;
  size_t lines_ = 0;
};

sim::DeviceConfig two_sms(unsigned host_threads) {
  sim::DeviceConfig config;
  config.num_sms = 2;
  config.host_threads = host_threads;
  return config;
}

TEST(SimTrace, LinesEqualTheHandWrittenLogOnAnyNumberOfHostThreads) {
  for (unsigned threads : {1u, 2u, 4u}) {
    SCOPED_TRACE(threads);
    sim::Device device(two_sms(threads));
    device.memory().map(kOut, 4096);
    load_program(device, kProgram);
    sim::RunOptions options;
    const auto sink = std::make_shared<BufferSink>();
    options.trace = sink;
    const sim::LaunchResult r = device.run(launch_of(1, 4, 2), options);
    ASSERT_TRUE(r.ok()) << fault_text(r);
    EXPECT_EQ(sink->text(), kExpected);
  }
}

TEST(SimTrace, LineCallbacksGetTheSameLinesWithoutNewlines) {
  sim::Device device(two_sms(2));
  device.memory().map(kOut, 4096);
  load_program(device, kProgram);
  std::string joined;
  sim::RunOptions options;
  options.trace = sim::trace_lines([&](std::string_view line) {
    EXPECT_EQ(line.find('\n'), std::string_view::npos);
    joined.append(line).push_back('\n');
  });
  const sim::LaunchResult r = device.run(launch_of(1, 4, 2), options);
  ASSERT_TRUE(r.ok()) << fault_text(r);
  EXPECT_EQ(joined, kExpected);
}

// A commit that throws (a full disk, ventus run's --trace-limit) is the fault of the
// instruction whose line it was: the launch stops there, the log holds the lines before.
TEST(SimTrace, ACommitThatThrowsStopsTheLaunchAtItsInstruction) {
  sim::Device device(two_sms(1));
  device.memory().map(kOut, 4096);
  load_program(device, kProgram);
  sim::RunOptions options;
  const auto sink = std::make_shared<BufferSink>();
  sink->throw_at = 4;  // the line of vid.v at 0x80000010
  options.trace = sink;
  const sim::LaunchResult r = device.run(launch_of(1, 4, 1), options);
  ASSERT_TRUE(r.fault);
  EXPECT_NE(fault_text(r).find("pc 0x80000010 ["), std::string::npos) << fault_text(r);
  EXPECT_NE(fault_text(r).find("]: the log is full"), std::string::npos) << fault_text(r);
  const std::string expected = kExpected;
  size_t end = 0;
  for (int line = 0; line < 4; ++line) end = expected.find('\n', end) + 1;
  EXPECT_EQ(sink->text(), expected.substr(0, end));
}

}  // namespace
}  // namespace ventus::test
