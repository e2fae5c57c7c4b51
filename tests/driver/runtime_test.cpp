// The C++ runtime (include/ventus/runtime.h): launch shapes, NDRanges of 1-3 dimensions
// with offsets, argument and metadata buffers, errors, and cleanup.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>

#include "support.h"
#include "ventus/ventus.h"

namespace {

namespace rt = ventus::rt;
using ventus::test::program_from;
using ventus::test::program_from_text;
using ventus::test::launch_error;

// What tests/programs/ndrange.s stores for every work-item.
void check_ndrange(const rt::Range& global, const rt::Range& local, const uint32_t offset[3],
                   uint32_t threads) {
  rt::Device device;
  const rt::Program program = program_from({"tests/programs/common.s", "tests/programs/ndrange.s"});
  rt::Buffer out(device, 4 * global.total());
  rt::LaunchOptions options;
  options.threads_per_warp = threads;
  for (int i = 0; i < 3; ++i) options.global_offset[i] = offset[i];
  const rt::Stats stats = rt::launch(device, program, "ndrange", global, local, {out}, options);
  const uint64_t groups = global.total() / local.total();
  EXPECT_EQ(stats.workgroups, groups);
  const std::vector<uint32_t> got = out.download<uint32_t>();
  for (uint32_t z = 0; z < global.size[2]; ++z)
    for (uint32_t y = 0; y < global.size[1]; ++y)
      for (uint32_t x = 0; x < global.size[0]; ++x) {
        const size_t index = (size_t{z} * global.size[1] + y) * global.size[0] + x;
        const uint32_t expected = (x + offset[0]) | (y + offset[1]) << 10 | (z + offset[2]) << 20;
        ASSERT_EQ(got[index], expected) << "item (" << x << "," << y << "," << z << ")";
      }
}

TEST(Runtime, NDRangesOfOneTwoAndThreeDimensionsWithOffsets) {
  const uint32_t none[3] = {0, 0, 0}, some[3] = {5, 7, 3};
  check_ndrange(rt::Range(96), rt::Range(32), none, 32);
  check_ndrange(rt::Range(96), rt::Range(24), some, 8);
  check_ndrange(rt::Range(12, 10), rt::Range(4, 5), some, 8);  // 20 items on 3 warps of 8
  check_ndrange(rt::Range(8, 6, 4), rt::Range(4, 3, 2), some, 4);
  check_ndrange(rt::Range(5, 5, 2), rt::Range(5, 5, 1), none, 16);
}

// The cycle model through the runtime: the same results, the cycles of the last launch, and
// the timeline told where each launch begins.
TEST(Runtime, TimingReportsTheLastLaunch) {
  struct Recorder : ventus::timing::TimelineSink {
    void slice(uint32_t, Track, uint32_t, uint64_t, uint64_t end, std::string_view) override {
      last_end = std::max(last_end, end);
      ++slices;
    }
    void begin_launch(std::string_view kernel, uint64_t offset) override {
      launches.emplace_back(kernel, offset);
    }
    std::vector<std::pair<std::string, uint64_t>> launches;
    uint64_t last_end = 0, slices = 0;
  } recorder;
  rt::Device device;
  EXPECT_FALSE(device.timing());
  const rt::Program program = program_from({"tests/programs/common.s", "tests/programs/ndrange.s"});
  rt::Buffer out(device, 4 * 64);
  rt::launch(device, program, "ndrange", rt::Range(64), rt::Range(32), {out});
  EXPECT_FALSE(device.last_timing());

  ventus::timing::Config bad = ventus::timing::preset("verilog-release");
  bad.icache_sets = 0;
  EXPECT_THROW(device.set_timing(bad), ventus::Error);
  device.set_timing(ventus::timing::preset("verilog-release"));
  ASSERT_TRUE(device.timing());
  EXPECT_EQ(device.timing()->preset, "verilog-release");
  device.set_timeline(&recorder);
  recorder.begin_launch("ndrange", 0);
  const rt::Stats stats =
      rt::launch(device, program, "ndrange", rt::Range(64), rt::Range(32), {out});
  const std::optional<ventus::timing::LaunchTiming> timing = device.last_timing();
  ASSERT_TRUE(timing);
  EXPECT_GT(timing->cycles, 0u);
  EXPECT_EQ(timing->instructions, stats.warp_instructions);
  EXPECT_GT(recorder.slices, 0u);
  EXPECT_LE(recorder.last_end, timing->cycles);
  const std::vector<uint32_t> got = out.download<uint32_t>();
  for (uint32_t x = 0; x < 64; ++x) ASSERT_EQ(got[x], x) << x;

  device.set_timing(std::nullopt);
  rt::launch(device, program, "ndrange", rt::Range(64), rt::Range(32), {out});
  EXPECT_FALSE(device.last_timing());
}

TEST(Runtime, LaunchPlanFollowsOpenCL) {
  const ventus::sim::DeviceConfig config;
  const rt::Program program = program_from({"tests/programs/common.s", "tests/programs/ndrange.s"});
  rt::LaunchOptions options;
  options.threads_per_warp = 8;
  options.global_offset[1] = 5;
  const rt::Arg args[] = {rt::Arg::raw(0x90000000u)};
  const rt::LaunchPlan plan = rt::plan_launch(config, program, "ndrange", rt::Range(64, 6),
                                              rt::Range(16, 3), args, options);
  EXPECT_EQ(plan.work_dim, 2u);
  EXPECT_EQ(plan.device.grid[0], 4u);
  EXPECT_EQ(plan.device.grid[1], 2u);
  EXPECT_EQ(plan.device.warps_per_workgroup, 6u);
  EXPECT_EQ(plan.device.lds_bytes, 6u * rt::kWarpStackBytes);
  EXPECT_EQ(plan.device.warp_stack_bytes, rt::kWarpStackBytes);
  // The KNL words but the addresses execute() places.
  EXPECT_EQ(plan.knl[ventus::abi::knl::ENTRY], program.kernel_address("ndrange"));
  EXPECT_EQ(plan.knl[ventus::abi::knl::WORK_DIM], 2u);
  EXPECT_EQ(plan.knl[ventus::abi::knl::GLOBAL_SIZE + 1], 6u);
  EXPECT_EQ(plan.knl[ventus::abi::knl::LOCAL_SIZE], 16u);
  EXPECT_EQ(plan.knl[ventus::abi::knl::GLOBAL_OFFSET + 1], 5u);
  // One word per argument without compiler metadata.
  ASSERT_EQ(plan.argument_bytes.size(), 4u);
  EXPECT_EQ(plan.argument_bytes[3], 0x90u);
  // 8 workgroups x 48 threads x 1 KiB.
  EXPECT_EQ(plan.private_bytes, 8u * 48 * 1024);
}

TEST(Runtime, UnknownKernelNamesTheKernels) {
  rt::Device device;
  const rt::Program program = program_from({"examples/saxpy.s", "examples/vecadd.s"});
  const std::string message = launch_error(
      [&] { rt::launch(device, program, "saxpyy", rt::Range(32), rt::Range(32), {1}); });
  EXPECT_NE(message.find("no kernel 'saxpyy'"), std::string::npos) << message;
  EXPECT_NE(message.find("saxpy, vecadd"), std::string::npos) << message;
}

TEST(Runtime, ScalarArgumentsAndBufferRoundTrip) {
  rt::Device device;
  const rt::Program program = program_from({"examples/saxpy.s"});
  const uint32_t n = 1000;
  std::vector<float> x(n), y(n);
  for (uint32_t i = 0; i < n; ++i) x[i] = 0.25f * i, y[i] = 3.0f - i;
  rt::Buffer dx = rt::Buffer::from(device, x), dy = rt::Buffer::from(device, y);
  const size_t buffers_before = device.buffer_count();
  rt::launch(device, program, "saxpy", rt::Range(1024), rt::Range(64), dx, dy, -1.5f,
             static_cast<int32_t>(n));
  EXPECT_EQ(device.buffer_count(),
            buffers_before);  // argument, KNL, private, print buffers released
  const std::vector<float> got = dy.download<float>();
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(got[i], std::fma(-1.5f, x[i], y[i])) << i;
}

TEST(Runtime, FaultRaisesTheDescriptionAndTheDeviceStaysUsable) {
  rt::Device device;
  const rt::Program bad = program_from_text("bad.s", R"(
    .text
    .globl store_far
store_far:
    li t0, 0x40000000
    vmv.v.x v1, t0
    vsw12.v v1, 0(v1)      # nothing is mapped there
    ret
)");
  const std::string message =
      launch_error([&] { rt::launch(device, bad, "store_far", rt::Range(8), rt::Range(8), {0}); });
  EXPECT_NE(message.find("launch of kernel 'store_far'"), std::string::npos) << message;
  EXPECT_NE(message.find("vsw12.v"), std::string::npos) << message;
  ASSERT_TRUE(device.last_fault().has_value());

  const rt::Program program = program_from({"examples/vecadd.s"});
  std::vector<float> ones(64, 1.0f);
  rt::Buffer a = rt::Buffer::from(device, ones), c(device, 256);
  rt::launch(device, program, "vecadd", rt::Range(64), rt::Range(32), a, a, c, 64);
  EXPECT_EQ(c.download<float>()[63], 2.0f);
}

TEST(Runtime, BufferBoundsAreChecked) {
  rt::Device device;
  rt::Buffer b(device, 16);
  uint32_t word = 0;
  EXPECT_THROW(b.write(16, &word, 4), ventus::Error);
  EXPECT_THROW(b.read(13, &word, 4), ventus::Error);
  rt::Buffer moved = std::move(b);
  EXPECT_THROW(b.read(0, &word, 4), ventus::Error);
  EXPECT_NO_THROW(moved.read(12, &word, 4));
}

// A kernel that stores its work-item id through its argument.
const char kStoreKernel[] = R"(
    .text
    .globl store
    .type store, @function
store:
    lw t0, 0(a0)
    csrr t1, CSR_TID
    vid.v v1
    vadd.vx v1, v1, t1
    vsll.vi v2, v1, 2
    vadd.vx v2, v2, t0
    vsw12.v v1, 0(v2)
    ret
    .size store, .-store
)";

TEST(RuntimeLifetime, BufferOfAnotherDeviceIsRejected) {
  rt::Device first, second;
  const rt::Program program = program_from_text("store.s", kStoreKernel);
  rt::Buffer on_first(first, 4 * 32);
  rt::Buffer on_second(second, 4 * 32);
  const std::string e =
      launch_error([&] { rt::launch(second, program, "store", {32}, {32}, on_first); });
  EXPECT_NE(e.find("argument 0: a buffer of another device"), std::string::npos) << e;
  // The same program on either device, with its own buffers.
  rt::launch(first, program, "store", {32}, {32}, on_first);
  rt::launch(second, program, "store", {32}, {32}, on_second);
  EXPECT_EQ(on_first.download<uint32_t>()[31], 31u);
  EXPECT_EQ(on_second.download<uint32_t>()[31], 31u);
  rt::Buffer moved_from(first, 4);
  rt::Buffer taker = std::move(moved_from);
  const std::string moved =
      launch_error([&] { rt::launch(first, program, "store", {32}, {32}, moved_from); });
  EXPECT_NE(moved.find("argument 0: a moved-from buffer"), std::string::npos) << moved;
}

TEST(RuntimeLifetime, BufferOutlivingItsDeviceThrows) {
  auto device = std::make_unique<rt::Device>();
  rt::Buffer buffer(*device, 16);
  rt::Buffer other(*device, 16);
  device.reset();
  uint32_t word = 0;
  std::string e = launch_error([&] { buffer.write(0, &word, 4); });
  EXPECT_NE(e.find("write to a buffer whose device was destroyed"), std::string::npos) << e;
  e = launch_error([&] { buffer.read(0, &word, 4); });
  EXPECT_NE(e.find("read from a buffer whose device was destroyed"), std::string::npos) << e;
  e = launch_error([&] { (void)other.download<uint32_t>(); });
  EXPECT_NE(e.find("destroyed"), std::string::npos) << e;
  // A new device, perhaps at the same host address, does not adopt the old buffers.
  rt::Device next;
  const rt::Program program = program_from_text("store.s", kStoreKernel);
  e = launch_error([&] { rt::launch(next, program, "store", {32}, {32}, buffer); });
  EXPECT_NE(e.find("a buffer of another device"), std::string::npos) << e;
}  // the buffers are destroyed after their device: nothing to free, no crash

// Address reuse: a Buffer's memory freed behind its back, or an Arg kept past its Buffer,
// would let the kernel or the Buffer's destructor reach another buffer at the same address.
TEST(RuntimeLifetime, ReusedAddressesAreNotMistakenForTheOldBuffer) {
  rt::Device device;
  const rt::Program program = program_from_text("store.s", kStoreKernel);
  rt::Buffer owned(device, 4 * 32);
  std::string e = launch_error([&] { device.free(owned.address()); });
  EXPECT_NE(e.find("belongs to an rt::Buffer, which releases it when destroyed"), std::string::npos)
      << e;
  EXPECT_EQ(device.buffer_count(), 1u);
  std::vector<rt::Arg> args;
  uint32_t old_address = 0;
  {
    rt::Buffer temporary(device, 4 * 32);
    old_address = temporary.address();
    args.emplace_back(temporary);
  }
  rt::Buffer reuser(device, 4 * 32);
  ASSERT_EQ(reuser.address(), old_address);
  e = launch_error([&] { rt::launch(device, program, "store", {32}, {32}, args); });
  EXPECT_NE(e.find("argument 0: its buffer was destroyed"), std::string::npos) << e;
  EXPECT_EQ(reuser.download<uint32_t>()[31], 0u);  // untouched
}

// Products of three 32-bit sizes pass 2^64: they must not wrap to small numbers that pass
// the checks (2^22 x 2^21 x 2^21 = 2^64 wrapped to 0 workgroups and 0 bytes of private memory).
TEST(Runtime, HugeNDRangesAreRefusedNotWrapped) {
  rt::Device device;
  const rt::Program program = program_from_text("store.s", kStoreKernel);
  rt::Buffer out(device, 4);
  std::string e = launch_error([&] {
    rt::launch(device, program, "store", {1u << 22, 1u << 21, 1u << 21}, {1, 1, 1}, out);
  });
  EXPECT_NE(e.find("the grid 4194304x2097152x2097152 has more than 2^32 - 1 workgroups"),
            std::string::npos)
      << e;
  e = launch_error([&] {
    rt::launch(device, program, "store", {1u << 22, 1u << 21, 1u << 21},
               {1u << 22, 1u << 21, 1u << 21}, out);
  });
  EXPECT_NE(e.find("local size x = 4194304; a workgroup holds at most 1024 work-items"),
            std::string::npos)
      << e;
  EXPECT_EQ(rt::Range(1u << 22, 1u << 21, 1u << 21).total(), UINT64_MAX);
}

TEST(RuntimeFiles, DirectoriesAndMissingFilesAreVentusErrors) {
  const std::string dir = VENTUS_SOURCE_DIR "/tests";
  std::string e = launch_error([&] { rt::Program::from_elf_file(dir); });
  EXPECT_NE(e.find(dir + ": is a directory, not a file"), std::string::npos) << e;
  e = launch_error([&] { rt::Program::from_assembly_files({dir}); });
  EXPECT_NE(e.find(dir + ": is a directory, not a file"), std::string::npos) << e;
  e = launch_error([&] { rt::Program::from_elf_file(dir + "/no-such-file.elf"); });
  EXPECT_NE(e.find("no-such-file.elf: cannot open file"), std::string::npos) << e;
  vt_device_h device = nullptr;
  ASSERT_EQ(vt_dev_open(&device), 0);
  EXPECT_EQ(vt_upload_kernel_file(device, dir.c_str(), 0), -1);
  EXPECT_NE(std::string(vt_ext_last_error(device)).find(dir + ": is a directory"),
            std::string::npos)
      << vt_ext_last_error(device);
  EXPECT_EQ(vt_dev_close(device), 0);
}

}  // namespace
