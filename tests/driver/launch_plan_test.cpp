// One launch plan, checked once against the device's rule (sim::check_launch): every limit
// is refused with a structured error (which limit, requested, available) at the C++
// runtime and at the C driver, the runtime counts the warp stacks against local memory, and
// the decode cache survives launches that do not touch code.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <functional>
#include <vector>

#include "support.h"
#include "ventus/elf.h"
#include "ventus/ventus.h"

namespace {

namespace rt = ventus::rt;
namespace sim = ventus::sim;
using sim::LaunchLimit;
using ventus::test::program_from;
using ventus::test::source_text;

// The error a launch is refused with; fails the test when it is not refused.
sim::LaunchError refusal(const std::function<void()>& launch) {
  try {
    launch();
  } catch (const sim::LaunchRefused& e) {
    EXPECT_EQ(std::string(e.what()).find(e.error().message), 0u);
    return e.error();
  }
  ADD_FAILURE() << "the launch was not refused";
  return {};
}

// A program whose kernel "k" has the compiler's metadata (local and private bytes, one
// global pointer argument, or the arguments given).
rt::Program program_with_kernel(uint32_t local_bytes, uint32_t private_bytes = 0, uint32_t vgpr = 8,
                                uint32_t stack_bytes = ventus::abi::kWarpStackBytes) {
  ventus::elf::Image image =
      program_from({"tests/programs/common.s", "tests/programs/ndrange.s"}).image();
  for (ventus::elf::Symbol& s : image.symbols)
    if (s.name == "ndrange") s.name = "k";
  rt::KernelInfo info;
  info.name = "k";
  info.local_bytes = local_bytes;
  info.private_bytes = private_bytes;
  info.stack_bytes = stack_bytes;
  info.sgpr = 32;
  info.vgpr = vgpr;
  info.args.push_back({"out", "int*", rt::AddressSpace::global, "", 0, 4});
  return ventus::test::with_kernel_metadata(
      std::move(image), rt::write_kernel_metadata(std::vector<rt::KernelInfo>{info}));
}

class RuntimeLimits : public ::testing::Test {
 protected:
  rt::Device device_;
  rt::Buffer out_{device_, 1 << 16};
};

TEST_F(RuntimeLimits, WorkGroupSizeInWarps) {
  const rt::Program program = program_with_kernel(0);
  rt::LaunchOptions options;
  options.threads_per_warp = 4;
  const sim::LaunchError e =
      refusal([&] { rt::launch(device_, program, "k", {1024}, {1024}, {out_}, options); });
  EXPECT_EQ(e.limit, LaunchLimit::work_group_size);
  EXPECT_EQ(e.requested, 256u);  // warps of 4 threads
  EXPECT_EQ(e.available, 32u);
  EXPECT_NE(e.message.find("launch of kernel 'k'"), std::string::npos) << e.message;
}

TEST_F(RuntimeLimits, LocalMemoryCountsTheWarpStacks) {
  // 60032 bytes of local data (60000 aligned) fit beside one warp's stack, not beside eight.
  const rt::Program program = program_with_kernel(60000);
  rt::launch(device_, program, "k", {32}, {32}, {out_});
  const sim::LaunchError e =
      refusal([&] { rt::launch(device_, program, "k", {256}, {256}, {out_}); });
  EXPECT_EQ(e.limit, LaunchLimit::local_memory);
  EXPECT_EQ(e.requested, 8u * rt::kWarpStackBytes + 60032);
  EXPECT_EQ(e.available, device_.config().lds_bytes_per_sm);
  EXPECT_NE(e.message.find("bytes too many"), std::string::npos) << e.message;
}

// A kernel that declares 4 KiB of stack per warp gets them: the local data starts after
// the W stacks of 4 KiB (the simulator checks sp against them), and the largest workgroup
// is what 64 KiB holds.
TEST_F(RuntimeLimits, LocalMemoryCountsTheDeclaredWarpStacks) {
  const rt::Program program = program_with_kernel(128, 0, 8, 4096);
  const rt::LaunchPlan plan =
      rt::plan_launch(device_.config(), program, "k", {512}, {256}, std::vector<rt::Arg>{out_}, {});
  EXPECT_EQ(plan.device.warp_stack_bytes, 4096u);
  EXPECT_EQ(plan.device.lds_bytes, 8u * 4096 + 128);
  rt::launch(device_, program, "k", {512}, {256}, {out_});
  EXPECT_EQ(rt::max_work_group_size(device_.config(), program.kernel_info("k"), 128, {}), 15u * 32);
  const sim::LaunchError e =
      refusal([&] { rt::launch(device_, program, "k", {512}, {512}, {out_}); });
  EXPECT_EQ(e.limit, LaunchLimit::local_memory);
  EXPECT_EQ(e.requested, 16u * 4096 + 128);
  EXPECT_NE(e.message.find("(16 warps x 4096 bytes of stack + 128 bytes of local data)"),
            std::string::npos)
      << e.message;
}

// The private memory the runtime reserves is that of the workgroups the device holds at
// once (2 SMs x 8 workgroups of one warp here, fewer for large workgroups), whatever the
// grid: 2^21 work-items took 2 GiB (refused) and now take 512 KiB.
TEST_F(RuntimeLimits, PrivateMemoryIsPerResidentWorkgroup) {
  const rt::Program program = program_with_kernel(0);
  const std::vector<rt::Arg> args = {out_};
  struct Case {
    uint32_t global, local;
    uint64_t bytes;
  };
  for (const Case& c :
       {Case{32, 32, 32 * 1024}, Case{1u << 21, 32, 2 * 8 * 32 * 1024},
        // 8 warps: 4 an SM (warp slots); 32 warps: 1 (warp slots).
        Case{1u << 21, 256, 2 * 4 * 256 * 1024}, Case{1u << 31, 1024, 2 * 1 * 1024 * 1024}}) {
    SCOPED_TRACE(fmt::format("{} work-items in groups of {}", c.global, c.local));
    const rt::LaunchPlan plan =
        rt::plan_launch(device_.config(), program, "k", {c.global}, {c.local}, args, {});
    EXPECT_EQ(plan.private_bytes, c.bytes);
  }
}

// The refusal left: the resident workgroups' private memory beyond the runtime's 1 GiB.
TEST_F(RuntimeLimits, PrivateMemory) {
  const rt::Program program = program_with_kernel(0, 4 << 20);  // 4 MiB per work-item
  const sim::LaunchError e =
      refusal([&] { rt::launch(device_, program, "k", {2048}, {32}, {out_}); });
  EXPECT_EQ(e.limit, LaunchLimit::private_memory);
  EXPECT_EQ(e.requested, uint64_t{2} * 8 * 32 * (4 << 20));
  EXPECT_EQ(e.available, rt::kMaxPrivateBytes);
  EXPECT_NE(e.message.find("private memory of 2147483648 bytes for the resident workgroups (32 "
                           "threads x 4194304 bytes each) exceeds 1 GiB"),
            std::string::npos)
      << e.message;
}

// 2^21 work-items in 32768 workgroups take turns in 16 resident slots: every work-item fills
// 16 words of private memory with its global id + 4k and sums them back, which fails if
// two resident workgroups shared private memory or a slot's next workgroup saw stale words.
TEST_F(RuntimeLimits, LargeNDRangeWithPrivateMemory) {
  const rt::Program program = ventus::test::program_from_text("private_sum.s", R"(
    .text
    .globl private_sum
    .type private_sum, @function
private_sum:
    lw t0, 0(a0)
    csrr t3, CSR_KNL
    lw t3, 24(t3)               # local size x
    csrr t1, CSR_GIDX
    mul t1, t1, t3
    csrr t2, CSR_TID
    add t1, t1, t2
    vid.v v1
    vadd.vx v1, v1, t1          # global id
    vmv.v.i v8, 0
    li t4, 0
    li t5, 64
1:  vadd.vx v2, v1, t4          # word k: global id + 4k
    vsw.v v2, 0(v8)
    vadd.vi v8, v8, 4
    addi t4, t4, 4
    bne t4, t5, 1b
    vmv.v.i v3, 0
2:  vadd.vi v8, v8, -4
    vlw.v v2, 0(v8)
    vadd.vv v3, v3, v2
    addi t4, t4, -4
    bnez t4, 2b
    vsll.vi v4, v1, 2
    vadd.vx v4, v4, t0
    vsw12.v v3, 0(v4)
    ret
    .size private_sum, .-private_sum
)");
  constexpr uint32_t kItems = 1u << 21;
  rt::Buffer out(device_, 4 * kItems);
  const rt::Stats stats = rt::launch(device_, program, "private_sum", {kItems}, {64}, {out});
  EXPECT_EQ(stats.workgroups, kItems / 64);
  const std::vector<uint32_t> got = out.download<uint32_t>();
  for (uint32_t i = 0; i < kItems; ++i) ASSERT_EQ(got[i], 16 * i + 4 * 120) << "work-item " << i;
}

TEST_F(RuntimeLimits, ArgumentBytes) {
  // Without metadata an argument takes a word at 4 x its index, a value its bytes from there.
  const rt::Program program = program_from({"tests/programs/common.s", "tests/programs/ndrange.s"});
  const std::vector<uint8_t> big(rt::kMaxArgumentBytes, 0);
  const sim::LaunchError e = refusal([&] {
    rt::launch(device_, program, "ndrange", {32}, {32}, {rt::Arg(out_), rt::Arg::bytes(big)});
  });
  EXPECT_EQ(e.limit, LaunchLimit::argument_bytes);
  EXPECT_EQ(e.requested, 4 + rt::kMaxArgumentBytes);
  EXPECT_EQ(e.available, rt::kMaxArgumentBytes);
}

TEST_F(RuntimeLimits, ArgumentsOfTheKernel) {
  const rt::Program program = program_with_kernel(0);
  const sim::LaunchError e = refusal([&] {
    rt::launch(device_, program, "k", {32}, {32}, {out_, 1});
  });
  EXPECT_EQ(e.limit, LaunchLimit::arguments);
  EXPECT_EQ(e.requested, 2u);
  EXPECT_EQ(e.available, 1u);
}

TEST_F(RuntimeLimits, Grid) {
  const rt::Program program = program_with_kernel(0);
  const sim::LaunchError e = refusal(
      [&] { rt::launch(device_, program, "k", rt::Range(1u << 31, 4), rt::Range(1, 1), {out_}); });
  EXPECT_EQ(e.limit, LaunchLimit::grid);
  EXPECT_EQ(e.requested, uint64_t{1} << 33);
  EXPECT_EQ(e.available, UINT32_MAX);
}

TEST_F(RuntimeLimits, VectorRegisters) {
  // 32 warps x 256 vector registers; an SM has 4096.
  const rt::Program program = program_with_kernel(0, 0, 256);
  const sim::LaunchError e =
      refusal([&] { rt::launch(device_, program, "k", {1024}, {1024}, {out_}); });
  EXPECT_EQ(e.limit, LaunchLimit::vector_registers);
  EXPECT_EQ(e.requested, 32u * 256);
  EXPECT_EQ(e.available, device_.config().vgprs_per_sm);
}

TEST_F(RuntimeLimits, MaxWorkGroupSizeIsTheLargestThePlanAccepts) {
  // The workgroup limit the OpenCL platform reports follows the same rule: the largest
  // workgroup it names runs, one warp more is refused.
  const rt::Program program = program_with_kernel(40000);
  const rt::KernelInfo* info = program.kernel_info("k");
  const uint32_t largest = rt::max_work_group_size(device_.config(), info, 40064);
  EXPECT_EQ(largest, (65536u - 40064) / rt::kWarpStackBytes * 32);
  rt::launch(device_, program, "k", {largest}, {largest}, {out_});
  EXPECT_EQ(refusal([&] {
              rt::launch(device_, program, "k", {largest + 32}, {largest + 32}, {out_});
            }).limit,
            LaunchLimit::local_memory);
}

TEST(DecodeCache, SurvivesLaunchesThatWriteOnlyData) {
  rt::Device device;
  const rt::Program program = program_from({"tests/programs/common.s", "tests/programs/ndrange.s"});
  rt::Buffer out(device, 4 * 64);
  const rt::Stats first = rt::launch(device, program, "ndrange", {64}, {32}, {out});
  EXPECT_GT(first.decodes, 0u);
  // The argument, KNL and private buffers are written again, the output buffer too: data.
  out.upload(std::span<const uint32_t>(std::vector<uint32_t>(64, 7)));
  const rt::Stats second = rt::launch(device, program, "ndrange", {64}, {32}, {out});
  EXPECT_EQ(second.decodes, 0u);
  EXPECT_EQ(second.warp_instructions, first.warp_instructions);
  // A host write into the code is seen: the code is decoded again.
  const uint32_t entry = program.kernel_address("ndrange");
  uint32_t word = 0;
  device.read(entry, &word, 4);
  device.write(entry, &word, 4);
  const rt::Stats third = rt::launch(device, program, "ndrange", {64}, {32}, {out});
  EXPECT_GT(third.decodes, 0u);
}

// ---- the C driver ----

class DriverLimits : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(vt_dev_open(&device_), 0);
    const std::vector<uint8_t> bytes = ventus::elf::write(
        ventus::assembler::assemble({{"vecadd.s", source_text("examples/vecadd.s")}}));
    ASSERT_EQ(vt_upload_kernel_bytes(device_, bytes.data(), bytes.size(), 0), 0);
    uint64_t entry = 0;
    ASSERT_EQ(vt_ext_symbol_address(device_, "vecadd", &entry), 0);
    uint32_t knl[ventus::abi::kKnlWords] = {};
    knl[ventus::abi::knl::ENTRY] = static_cast<uint32_t>(entry);
    ASSERT_EQ(vt_buf_alloc(device_, sizeof knl, &knl_, VT_BUF_READ_WRITE, 0, 0), 0);
    ASSERT_EQ(vt_copy_to_dev(device_, knl_, knl, sizeof knl, 0, 0), 0);
    good_.kernel_size[0] = good_.kernel_size[1] = good_.kernel_size[2] = 1;
    good_.wf_size = 32;
    good_.wg_size = 1;
    good_.metaDataBaseAddr = knl_;
    good_.ldsSize = rt::kWarpStackBytes;
    good_.sgprUsage = good_.vgprUsage = 32;
  }
  void TearDown() override { EXPECT_EQ(vt_dev_close(device_), 0); }

  // Starts `m`; expects a refusal for `limit` and returns it.
  vt_ext_launch_error refused(const meta_data& m, uint32_t limit) {
    meta_data copy = m;
    EXPECT_EQ(vt_start(device_, &copy, 0), -1);
    vt_ext_launch_error e{};
    EXPECT_EQ(vt_ext_get_launch_error(device_, &e), 0);
    EXPECT_EQ(e.limit, limit) << vt_ext_last_error(device_);
    return e;
  }
  std::string error() const { return vt_ext_last_error(device_); }

  vt_device_h device_ = nullptr;
  uint64_t knl_ = 0;
  meta_data good_{};
};

TEST_F(DriverLimits, EveryLimitIsAStructuredError) {
  meta_data m = good_;
  m.wg_size = 33;
  vt_ext_launch_error e = refused(m, VT_EXT_LIMIT_WORK_GROUP_SIZE);
  EXPECT_EQ(e.requested, 33u);
  EXPECT_EQ(e.available, 32u);
  EXPECT_NE(error().find("vt_start: a workgroup of 33 warps needs more than the 32 warp slots"), std::string::npos) << error();

  m = good_;
  m.wf_size = 33;
  e = refused(m, VT_EXT_LIMIT_THREADS_PER_WARP);
  EXPECT_EQ(e.requested, 33u);

  m = good_;
  m.kernel_size[1] = 0;
  refused(m, VT_EXT_LIMIT_GRID);

  m = good_;
  m.ldsSize = 65536 + 4;
  e = refused(m, VT_EXT_LIMIT_LOCAL_MEMORY);
  EXPECT_EQ(e.requested, 65540u);
  EXPECT_EQ(e.available, 65536u);

  m = good_;
  m.wg_size = 2;
  m.sgprUsage = 2048;
  e = refused(m, VT_EXT_LIMIT_SCALAR_REGISTERS);
  EXPECT_EQ(e.requested, 4096u);

  m = good_;
  m.vgprUsage = 8192;
  refused(m, VT_EXT_LIMIT_VECTOR_REGISTERS);

  m = good_;
  m.pdsBaseAddr = 0xfff00000u;
  m.pdsSize = 1 << 20;  // 32 MiB from 1 MiB below the top
  e = refused(m, VT_EXT_LIMIT_PRIVATE_MEMORY);
  EXPECT_EQ(e.requested, 32u << 20);
  EXPECT_EQ(e.available, 1u << 20);
  EXPECT_NE(error().find("the private memory of the resident workgroups (1 x 33554432 bytes: "
                         "pdsSize 1048576 x 32 threads) from pds_base 0xfff00000 goes beyond"),
            std::string::npos)
      << error();

  // A start that is not refused clears it.
  meta_data fine = good_;
  ASSERT_EQ(vt_start(device_, &fine, 0), 0) << error();
  ASSERT_EQ(vt_ext_get_launch_error(device_, &e), 0);
  EXPECT_EQ(e.limit, static_cast<uint32_t>(VT_EXT_LIMIT_NONE));
  vt_ready_wait(device_, MAX_TIMEOUT);  // vecadd without arguments: it may fault
}

}  // namespace
