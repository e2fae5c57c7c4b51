// Stopping kernels and the device's protections through the driver (docs/simulator.md,
// "Limits and errors"): vt_dev_close and vt_ext_cancel stop a running kernel at once,
// LaunchOptions::cancel stops a runtime launch, kernel stores into the program's code fault
// and leave the program intact, and a warp stack overflow is named.
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <stop_token>
#include <thread>

#include "support.h"
#include "ventus/elf.h"
#include "ventus/ventus.h"

namespace {

namespace rt = ventus::rt;
using ventus::test::program_from_text;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

constexpr const char* kEndless = R"(
    .text
    .globl spin
spin:
    j spin
    .globl quick
quick:
    ret
)";

// A device with no instruction budget (an endless kernel runs forever) and the program of
// kEndless; prepare(kernel) writes the KNL buffer of a launch of one workgroup of two warps,
// launch(m) queues it (buffers and copies wait for running kernels: prepare first).
class DriverCancel : public ::testing::Test {
 protected:
  void SetUp() override {
    vt_ext_config config;
    vt_ext_default_config(&config);
    config.instruction_budget = 0;
    ASSERT_EQ(vt_ext_dev_open_config(&device_, &config), 0) << vt_ext_last_error(nullptr);
    const std::vector<uint8_t> bytes =
        ventus::elf::write(ventus::assembler::assemble({{"spin.s", kEndless}}));
    ASSERT_EQ(vt_upload_kernel_bytes(device_, bytes.data(), bytes.size(), 0), 0) << error();
  }
  void TearDown() override {
    if (device_) {
      EXPECT_EQ(vt_dev_close(device_), 0);
    }
  }
  std::string error() const { return vt_ext_last_error(device_); }

  meta_data prepare(const char* kernel) {
    uint64_t entry = 0, knl_buffer = 0;
    EXPECT_EQ(vt_ext_symbol_address(device_, kernel, &entry), 0) << error();
    EXPECT_EQ(vt_buf_alloc(device_, 64, &knl_buffer, VT_BUF_READ_WRITE, 0, 0), 0) << error();
    uint32_t knl[16] = {};
    knl[0] = static_cast<uint32_t>(entry);
    knl[2] = 1;
    knl[3] = knl[4] = knl[5] = knl[6] = knl[7] = knl[8] = 1;
    EXPECT_EQ(vt_copy_to_dev(device_, knl_buffer, knl, sizeof knl, 0, 0), 0) << error();
    meta_data m{};
    m.kernel_size[0] = m.kernel_size[1] = m.kernel_size[2] = 1;
    m.wf_size = 8;
    m.wg_size = 2;
    m.metaDataBaseAddr = knl_buffer;
    m.ldsSize = 2048;
    m.sgprUsage = m.vgprUsage = 32;
    return m;
  }
  void launch(meta_data m) { ASSERT_EQ(vt_start(device_, &m, 0), 0) << error(); }

  vt_device_h device_ = nullptr;
};

// Item 11: closing the device does not wait for an endless kernel (it used to wait for the
// budget: 30-43 s by default, forever with none).
TEST_F(DriverCancel, CloseStopsARunningKernelAtOnce) {
  const meta_data spin = prepare("spin");
  launch(spin);
  launch(spin);  // vt_start does not wait for the running kernel
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const auto start = Clock::now();
  EXPECT_EQ(vt_dev_close(device_), 0);
  device_ = nullptr;
  EXPECT_LT(seconds_since(start), 0.5);
}

// vt_ext_cancel stops the running kernel and drops the queued one; the wait says so, and
// the device stays usable.
TEST_F(DriverCancel, CancelIsReportedAndTheDeviceStaysUsable) {
  const meta_data spin = prepare("spin"), quick = prepare("quick");
  launch(spin);
  launch(quick);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(vt_ready_wait(device_, 10), -1);  // still running
  EXPECT_NE(error().find("kernels still running after 10 ms"), std::string::npos) << error();
  ASSERT_EQ(vt_ext_cancel(device_), 0) << error();
  EXPECT_EQ(vt_ready_wait(device_, 5000), -1);
  EXPECT_NE(error().find("kernel 'spin' workgroup (0,0,0)"), std::string::npos) << error();
  EXPECT_NE(error().find("launch cancelled by the host (1 queued launch(es) dropped)"),
            std::string::npos)
      << error();
  launch(quick);
  EXPECT_EQ(vt_ready_wait(device_, 5000), 0) << error();
  // Cancelling an idle device is harmless.
  EXPECT_EQ(vt_ext_cancel(device_), 0);
  EXPECT_EQ(vt_ready_wait(device_, 10), 0) << error();
}

// The runtime: a stop request on LaunchOptions::cancel ends rt::launch with the fault.
TEST(RuntimeCancel, StopRequestEndsTheLaunch) {
  ventus::sim::DeviceConfig config;
  config.instruction_budget = 0;
  rt::Device device(config);
  const rt::Program program = program_from_text("spin.s", kEndless);
  std::stop_source cancel;
  rt::LaunchOptions options;
  options.cancel = cancel.get_token();
  auto launched = std::async(std::launch::async, [&]() -> std::string {
    try {
      rt::launch(device, program, "spin", rt::Range(64), rt::Range(32), {}, options);
    } catch (const ventus::Error& e) {
      return e.what();
    }
    return "(no error)";
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  cancel.request_stop();
  ASSERT_EQ(launched.wait_for(std::chrono::seconds(5)), std::future_status::ready);
  EXPECT_NE(launched.get().find("launch cancelled by the host"), std::string::npos);
}

// Item 16: a kernel store into the loaded program's code faults, naming the store and the
// section; the program is intact, so the next launch runs normally. Its .data can be written.
TEST(RuntimeProtection, StoresIntoCodeFaultAndLaterLaunchesWork) {
  rt::Device device;
  const rt::Program program = program_from_text("wild.s", R"(
    .text
    .globl wild
wild:
    la t0, victim
    sw zero, 0(t0)
    ret
    .globl victim
victim:
    lw t1, 0(a0)
    la t0, counter
    lw t2, 0(t0)
    addi t2, t2, 1
    sw t2, 0(t0)             # .data: writable
    sw t2, 0(t1)
    ret
    .data
counter: .word 0
)");
  rt::Buffer out(device, 4);
  std::string error;
  try {
    rt::launch(device, program, "wild", rt::Range(1), rt::Range(1), {});
  } catch (const ventus::Error& e) {
    error = e.what();
  }
  EXPECT_NE(error.find("sw zero, 0(t0)]: store to address"), std::string::npos) << error;
  EXPECT_NE(error.find("in the loaded program's read-only section .text"), std::string::npos)
      << error;
  for (uint32_t round = 1; round <= 2; ++round) {
    rt::launch(device, program, "victim", rt::Range(1), rt::Range(1), {out});
    EXPECT_EQ(out.download<uint32_t>()[0], round);
  }
}

// Item 23: an assembly recursion that never ends overflows its warp's 1 KiB stack: the
// fault says so at the first store beyond it (not after running over local memory).
TEST(RuntimeProtection, StackOverflowIsNamed) {
  rt::Device device;
  const rt::Program program = program_from_text("recurse.s", R"(
    .text
    .globl recurse
recurse:
    addi sp, sp, 16
    sw ra, -4(sp)
    call recurse
    lw ra, -4(sp)
    addi sp, sp, -16
    ret
)");
  std::string error;
  try {
    rt::launch(device, program, "recurse", rt::Range(64), rt::Range(64), {});
  } catch (const ventus::Error& e) {
    error = e.what();
  }
  EXPECT_NE(error.find("stack overflow: sp-relative 4-byte store to address 0x7000040c is "
                       "outside warp 0's stack [0x70000000, 0x70000400)"),
            std::string::npos)
      << error;
}

}  // namespace
