// The memory checker through the C++ runtime (rt::Device::set_memcheck): the start code's
// own accesses (KNL words, the argument buffer, the warps' stacks, private memory, the print
// buffer) and correct kernels report nothing; a kernel that reads or writes past a buffer,
// or into one freed before the launch, fails with each access, its work-item and pc.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <functional>

#include "support.h"

namespace {

namespace rt = ventus::rt;
using ventus::test::program_from;
using ventus::test::launch_error;

// saxpy with n = 61 over 60-element buffers: work-item 60 reads x[60] and y[60] and writes
// y[60].
TEST(RuntimeMemcheck, SaxpyPastTheEndNamesWorkItemPcAndBuffer) {
  rt::Device device;
  device.set_memcheck(true);
  const rt::Program program = program_from({"examples/saxpy.s"});
  rt::Buffer x(device, 240), y(device, 240);
  const std::string e = launch_error(
      [&] { rt::launch(device, program, "saxpy", {64}, {64}, x, y, 2.5f, int32_t{61}); });
  EXPECT_NE(e.find(fmt::format("memcheck: invalid global read of 4 bytes at {:#010x} by "
                               "work-item (60,0,0) (thread 28 of warp 1, local (60,0,0)): 0 "
                               "bytes after the end of the 240-byte allocation at {:#010x}; 3 "
                               "invalid accesses in all",
                               x.address() + 240, x.address())),
            std::string::npos)
      << e;
  const std::vector<ventus::sim::MemcheckError> errors = device.last_memcheck_errors();
  ASSERT_EQ(errors.size(), 3u);
  const uint32_t saxpy = program.kernel_address("saxpy");
  // The x[i] and y[i] loads and the y[i] store, in program order.
  EXPECT_FALSE(errors[0].store);
  EXPECT_EQ(errors[0].where.disassembly, "vlw12.v v3, 0(v3)");
  EXPECT_EQ(errors[1].address, y.address() + 240);
  EXPECT_TRUE(errors[2].store);
  EXPECT_EQ(errors[2].where.disassembly, "vsw12.v v5, 0(v4)");
  EXPECT_EQ(errors[2].where.pc, errors[1].where.pc + 8);
  EXPECT_GT(errors[0].where.pc, saxpy);
  for (const auto& error : errors) {
    EXPECT_EQ(error.where.kernel, "saxpy");
    EXPECT_EQ(error.where.warp, 1u);
    EXPECT_EQ(error.lane, 28u);
  }

  // n = 60: clean, and the device keeps checking.
  rt::launch(device, program, "saxpy", {64}, {64}, x, y, 2.5f, int32_t{60});
  EXPECT_TRUE(device.last_memcheck_errors().empty());
}

// Correct kernels with private memory, 3-D ranges with offsets, local memory and printf.
TEST(RuntimeMemcheck, CorrectKernelsReportNothing) {
  rt::Device device;
  device.set_memcheck(true);
  const rt::Program ndrange = program_from({"tests/programs/common.s", "tests/programs/ndrange.s"});
  rt::Buffer out(device, 4 * 6 * 4 * 2);
  rt::LaunchOptions options;
  options.global_offset[0] = 3;
  rt::launch(device, ndrange, "ndrange", {6, 4, 2}, {3, 2, 2}, {out}, options);
  const rt::Program spills = program_from({"tests/programs/common.s", "tests/programs/private.s"});
  const std::vector<int32_t> values(100, 7);
  rt::Buffer in = rt::Buffer::from(device, values), results(device, 400);
  rt::launch(device, spills, "private_spill", {128}, {32}, in, results, int32_t{100});
  EXPECT_TRUE(device.last_memcheck_errors().empty());
}

// A buffer freed before the launch: its last page stays unmapped (the launch's own small
// buffers reuse the first two), so the access faults too; the report names the freed
// buffer.
TEST(RuntimeMemcheck, FreedBufferIsNamed) {
  rt::Device device;
  device.set_memcheck(true);
  const rt::Program program = program_from({"examples/saxpy.s"});
  const uint32_t gone = device.allocate(3 * 4096);
  rt::Buffer y(device, 8192);
  device.free(gone);
  const uint32_t x = gone + 8192;
  const std::string e = launch_error([&] {
    rt::launch(device, program, "saxpy", {32}, {32}, rt::Arg::raw(x), y, 1.0f, int32_t{1});
  });
  EXPECT_NE(e.find(fmt::format("memcheck: invalid global read of 4 bytes at {:#010x} by "
                               "work-item (0,0,0) (thread 0 of warp 0, local (0,0,0)): in the "
                               "freed 12288-byte allocation at {:#010x}; ",
                               x, gone)),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("\nthen the launch stopped: kernel 'saxpy'"), std::string::npos) << e;
  EXPECT_NE(e.find(fmt::format("thread 0: load from unmapped address {:#010x}", x)),
            std::string::npos)
      << e;
}

}  // namespace
