// The C driver API (include/ventus/ventus.h): device, buffers, copies, program upload,
// launches through meta_data, and the errors for bad input.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <bit>
#include <cstdio>
#include <cstring>
#include <queue>

#include "support.h"
#include "ventus/elf.h"
#include "ventus/ventus.h"

namespace {

using ventus::test::source_text;

class DriverApi : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(vt_dev_open(&device_), 0) << vt_ext_last_error(nullptr); }
  void TearDown() override { EXPECT_EQ(vt_dev_close(device_), 0); }
  std::string error() const { return vt_ext_last_error(device_); }

  uint64_t alloc(uint64_t size) {
    uint64_t address = 0;
    EXPECT_EQ(vt_buf_alloc(device_, size, &address, VT_BUF_READ_WRITE, 0, 0), 0) << error();
    return address;
  }
  void upload(const std::vector<ventus::assembler::SourceFile>& sources) {
    const std::vector<uint8_t> bytes = ventus::elf::write(ventus::assembler::assemble(sources));
    ASSERT_EQ(vt_upload_kernel_bytes(device_, bytes.data(), bytes.size(), 0), 0) << error();
  }
  // Writes the argument and KNL buffers for a 1-D launch and returns the meta_data.
  meta_data prepare(const char* kernel, const std::vector<uint32_t>& args, uint32_t global,
                    uint32_t local, uint32_t threads) {
    uint64_t entry = 0;
    EXPECT_EQ(vt_ext_symbol_address(device_, kernel, &entry), 0) << error();
    const uint64_t arg_buffer = alloc(4 * args.size());
    EXPECT_EQ(vt_copy_to_dev(device_, arg_buffer, args.data(), 4 * args.size(), 0, 0), 0)
        << error();
    uint32_t knl[16] = {};
    knl[0] = static_cast<uint32_t>(entry);
    knl[1] = static_cast<uint32_t>(arg_buffer);
    knl[2] = 1;
    knl[3] = global, knl[4] = knl[5] = 1;
    knl[6] = local, knl[7] = knl[8] = 1;
    const uint64_t knl_buffer = alloc(sizeof knl);
    EXPECT_EQ(vt_copy_to_dev(device_, knl_buffer, knl, sizeof knl, 0, 0), 0) << error();
    meta_data m{};
    m.kernel_id = 3;
    m.kernel_size[0] = global / local, m.kernel_size[1] = m.kernel_size[2] = 1;
    m.wf_size = threads;
    m.wg_size = (local + threads - 1) / threads;
    m.metaDataBaseAddr = knl_buffer;
    m.ldsSize = 1024 * m.wg_size;
    m.pdsSize = 0;
    m.sgprUsage = m.vgprUsage = 32;
    return m;
  }

  vt_device_h device_ = nullptr;
};

TEST(DriverOpen, CapsWithAndWithoutConfiguration) {
  vt_ext_config config;
  vt_ext_default_config(&config);
  config.num_sms = 3;
  config.max_threads_per_warp = 16;
  vt_device_h device = nullptr;
  ASSERT_EQ(vt_ext_dev_open_config(&device, &config), 0) << vt_ext_last_error(nullptr);
  uint64_t value = 0;
  ASSERT_EQ(vt_dev_caps(&device, VT_CAPS_MAX_CORES, &value), 0);
  EXPECT_EQ(value, 3u);
  ASSERT_EQ(vt_dev_caps(&device, VT_CAPS_MAX_THREADS, &value), 0);
  EXPECT_EQ(value, 16u);
  ASSERT_EQ(vt_dev_caps(&device, VT_CAPS_KERNEL_BASE_ADDR, &value), 0);
  EXPECT_EQ(value, 0x80000000u);
  EXPECT_EQ(vt_dev_caps(&device, 99, &value), -1);
  EXPECT_NE(std::string(vt_ext_last_error(device)).find("unknown caps id 99"), std::string::npos);
  EXPECT_EQ(vt_dev_close(device), 0);

  config.max_threads_per_warp = 64;
  EXPECT_EQ(vt_ext_dev_open_config(&device, &config), -1);
  EXPECT_NE(std::string(vt_ext_last_error(nullptr)).find("max_threads_per_warp 64"),
            std::string::npos);
  EXPECT_EQ(vt_dev_open(nullptr), -1);
}

TEST_F(DriverApi, BuffersAreAlignedZeroedAndReleased) {
  const uint64_t a = alloc(10), b = alloc(5000), c = alloc(1);
  EXPECT_EQ(a, 0x90000000u);
  EXPECT_EQ(b, 0x90001000u);
  EXPECT_EQ(c, 0x90003000u);
  uint32_t word = 1;
  ASSERT_EQ(vt_copy_from_dev(device_, b + 4996, &word, 4, 0, 0), 0) << error();
  EXPECT_EQ(word, 0u);
  const char text[] = "hello";
  ASSERT_EQ(vt_copy_to_dev(device_, b + 100, text, sizeof text, 0, 0), 0);
  char back[sizeof text] = {};
  ASSERT_EQ(vt_copy_from_dev(device_, b + 100, back, sizeof back, 0, 0), 0);
  EXPECT_STREQ(back, "hello");

  uint64_t address = b;
  ASSERT_EQ(vt_one_buf_free(device_, 5000, &address, 0, 0), 0) << error();
  EXPECT_EQ(vt_copy_to_dev(device_, b, text, 1, 0, 0), -1);
  EXPECT_EQ(alloc(8192), b);  // first fit reuses the hole
  EXPECT_EQ(vt_one_buf_free(device_, 0, &address, 0, 0), 0);
  address = b + 4;
  EXPECT_EQ(vt_one_buf_free(device_, 0, &address, 0, 0), -1);
  EXPECT_NE(error().find("not the start of an allocated buffer"), std::string::npos) << error();

  uint64_t other_task = 0;
  ASSERT_EQ(vt_buf_alloc(device_, 64, &other_task, VT_BUF_READ_WRITE, 7, 0), 0);
  ASSERT_EQ(vt_buf_free(device_, 0, nullptr, 0, 0), 0);  // every buffer of task 0
  EXPECT_EQ(vt_copy_from_dev(device_, a, &word, 4, 0, 0), -1);
  EXPECT_EQ(vt_copy_from_dev(device_, other_task, &word, 4, 7, 0), 0) << error();
  EXPECT_EQ(vt_root_mem_free(device_, 7), 0);
  EXPECT_EQ(vt_copy_from_dev(device_, other_task, &word, 4, 7, 0), -1);
}

TEST_F(DriverApi, BadCopiesAndArgumentsSayWhy) {
  const uint64_t a = alloc(4096);
  std::vector<uint8_t> data(8192);
  EXPECT_EQ(vt_copy_to_dev(device_, a + 4000, data.data(), 200, 0, 0), -1);
  EXPECT_NE(error().find("vt_copy_to_dev"), std::string::npos);
  EXPECT_NE(error().find("not inside one allocated buffer"), std::string::npos) << error();
  EXPECT_EQ(vt_copy_from_dev(device_, 0x10, data.data(), 4, 0, 0), -1);
  EXPECT_EQ(vt_copy_from_dev(device_, uint64_t{1} << 40, data.data(), 4, 0, 0), -1);
  EXPECT_NE(error().find("32-bit device address space"), std::string::npos) << error();
  EXPECT_EQ(vt_copy_to_dev(device_, a, nullptr, 4, 0, 0), -1);
  EXPECT_EQ(vt_copy_to_dev(device_, a, data.data(), 0, 0, 0), -1);
  uint64_t address = 0;
  EXPECT_EQ(vt_buf_alloc(device_, 0, &address, 0, 0, 0), -1);
  EXPECT_EQ(vt_buf_alloc(device_, uint64_t{1} << 33, &address, 0, 0, 0), -1);
  EXPECT_NE(error().find("8589934592 bytes requested"), std::string::npos) << error();
  EXPECT_EQ(vt_buf_alloc(nullptr, 4, &address, 0, 0, 0), -1);
  EXPECT_NE(std::string(vt_ext_last_error(nullptr)).find("NULL"), std::string::npos);
  EXPECT_EQ(vt_start(device_, nullptr, 0), -1);
}

TEST_F(DriverApi, BadProgramsAreRejected) {
  const char not_elf_but_magic[] =
      "\x7f"
      "ELF garbage that is not an ELF file";
  EXPECT_EQ(vt_upload_kernel_bytes(device_, not_elf_but_magic, sizeof not_elf_but_magic, 0), -1);
  EXPECT_NE(error().find("vt_upload_kernel_bytes"), std::string::npos);
  EXPECT_EQ(vt_upload_kernel_file(device_, "/nonexistent/kernel.elf", 0), -1);
  EXPECT_NE(error().find("cannot open"), std::string::npos) << error();
  EXPECT_EQ(vt_upload_kernel_bytes(device_, nullptr, 4, 0), -1);
  meta_data m{};
  m.kernel_size[0] = m.kernel_size[1] = m.kernel_size[2] = 1;
  m.wf_size = 4, m.wg_size = 1;
  EXPECT_EQ(vt_start(device_, &m, 0), -1);  // nothing uploaded
  EXPECT_NE(error().find("no kernel program"), std::string::npos) << error();
  uint64_t entry = 0;
  EXPECT_EQ(vt_ext_symbol_address(device_, "vecadd", &entry), -1);
}

TEST_F(DriverApi, VecaddThroughMetaData) {
  upload({{"vecadd.s", source_text("examples/vecadd.s")}});
  const uint32_t n = 100;
  std::vector<float> a(n), b(n);
  for (uint32_t i = 0; i < n; ++i) a[i] = 0.5f * i, b[i] = 1000.0f - i;
  const uint64_t da = alloc(4 * n), db = alloc(4 * n), dc = alloc(4 * n);
  ASSERT_EQ(vt_copy_to_dev(device_, da, a.data(), 4 * n, 0, 0), 0);
  ASSERT_EQ(vt_copy_to_dev(device_, db, b.data(), 4 * n, 0, 0), 0);
  meta_data m = prepare("vecadd", {uint32_t(da), uint32_t(db), uint32_t(dc), n}, 128, 32, 8);
  ASSERT_EQ(vt_start(device_, &m, 2), 0) << error();
  ASSERT_EQ(vt_ready_wait(device_, MAX_TIMEOUT), 0) << error();
  std::vector<float> c(n + 1, -1.0f);
  ASSERT_EQ(vt_copy_from_dev(device_, dc, c.data(), 4 * n, 0, 0), 0);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(c[i], a[i] + b[i]) << i;
  vt_ext_launch_stats stats{};
  ASSERT_EQ(vt_ext_get_launch_stats(device_, &stats), 0);
  EXPECT_EQ(stats.workgroups, 4u);
  EXPECT_GT(stats.thread_instructions, stats.warp_instructions);

  // Two more launches queued, then collected: (task << 4 | kernel id) each.
  ASSERT_EQ(vt_start(device_, &m, 2), 0);
  ASSERT_EQ(vt_start(device_, &m, 5), 0);
  std::queue<int> finished;
  ASSERT_EQ(vt_finish_all_kernel(device_, &finished), 0) << error();
  ASSERT_EQ(finished.size(), 3u);
  EXPECT_EQ(finished.front(), 2 << 4 | 3);
  finished.pop();
  finished.pop();
  EXPECT_EQ(finished.front(), 5 << 4 | 3);
}

// The cycle model through the C API: off by default, a preset per device, a parameter that
// reaches the model, and the cycles of the last launch.
TEST_F(DriverApi, TimingCountsTheCyclesOfTheLastLaunch) {
  upload({{"vecadd.s", source_text("examples/vecadd.s")}});
  const uint32_t n = 128;
  std::vector<float> a(n), b(n);
  for (uint32_t i = 0; i < n; ++i) a[i] = 0.25f * i, b[i] = 3.0f - i;
  const uint64_t da = alloc(4 * n), db = alloc(4 * n), dc = alloc(4 * n);
  ASSERT_EQ(vt_copy_to_dev(device_, da, a.data(), 4 * n, 0, 0), 0);
  ASSERT_EQ(vt_copy_to_dev(device_, db, b.data(), 4 * n, 0, 0), 0);
  meta_data m = prepare("vecadd", {uint32_t(da), uint32_t(db), uint32_t(dc), n}, n, 32, 8);
  const auto run_cycles = [&]() -> uint64_t {
    std::vector<float> zeros(n, 0.0f), c(n);
    EXPECT_EQ(vt_copy_to_dev(device_, dc, zeros.data(), 4 * n, 0, 0), 0);
    EXPECT_EQ(vt_start(device_, &m, 0), 0) << error();
    EXPECT_EQ(vt_ready_wait(device_, MAX_TIMEOUT), 0) << error();
    EXPECT_EQ(vt_copy_from_dev(device_, dc, c.data(), 4 * n, 0, 0), 0);
    for (uint32_t i = 0; i < n; ++i) EXPECT_EQ(c[i], a[i] + b[i]) << i;
    uint64_t cycles = 0;
    return vt_ext_get_last_cycles(device_, &cycles) == 0 ? cycles : 0;
  };
  uint64_t cycles = 0;
  // Functional by default: no cycles.
  EXPECT_EQ(run_cycles(), 0u);
  EXPECT_EQ(vt_ext_get_last_cycles(device_, &cycles), -1);
  EXPECT_NE(error().find("without timing"), std::string::npos) << error();
  EXPECT_EQ(vt_ext_set_timing_parameter(device_, "memory_latency=50"), -1);
  EXPECT_EQ(vt_ext_set_timing(device_, "no-such-preset"), -1);
  EXPECT_NE(error().find("no-such-preset"), std::string::npos) << error();

  ASSERT_EQ(vt_ext_set_timing(device_, "verilog-release"), 0) << error();
  const uint64_t base = run_cycles();
  EXPECT_GT(base, 0u);
  EXPECT_EQ(run_cycles(), base);  // deterministic
  EXPECT_EQ(vt_ext_get_last_cycles(device_, nullptr), -1);
  // vt_dump_perf adds the cycles.
  FILE* perf = std::tmpfile();
  ASSERT_NE(perf, nullptr);
  ASSERT_EQ(vt_dump_perf(device_, perf), 0);
  std::rewind(perf);
  char text[512] = {};
  text[std::fread(text, 1, sizeof text - 1, perf)] = '\0';
  std::fclose(perf);
  EXPECT_NE(std::string(text).find("cycles " + std::to_string(base) + "\n"), std::string::npos)
      << text;

  // A slower memory reaches the model: more cycles, the same results.
  ASSERT_EQ(vt_ext_set_timing_parameter(device_, "memory_latency=200"), 0) << error();
  EXPECT_GT(run_cycles(), base);
  EXPECT_EQ(vt_ext_set_timing_parameter(device_, "no_such_parameter=1"), -1);
  EXPECT_NE(error().find("no_such_parameter"), std::string::npos) << error();
  EXPECT_EQ(vt_ext_set_timing_parameter(device_, "icache_sets=0"), -1);  // cannot run

  // Off again.
  ASSERT_EQ(vt_ext_set_timing(device_, nullptr), 0) << error();
  EXPECT_EQ(run_cycles(), 0u);
}

constexpr char kFaulting[] = R"(
    .text
    .globl bad_load
bad_load:
    li t0, 0x10
    lw t1, 0(t0)       # nothing is mapped at 0x10
    ret
    .globl spin
spin:
    j spin
)";

// vt_ext_set_memcheck: vecadd with n = 101 over 100-element buffers reads a[100] and b[100]
// and writes c[100], just past each buffer; vt_ready_wait fails and vt_ext_last_error lists
// the three accesses. Off again, the same launch passes silently.
TEST_F(DriverApi, MemcheckReportsAccessesPastTheBuffers) {
  upload({{"vecadd.s", source_text("examples/vecadd.s")}});
  const uint32_t n = 100;
  const uint64_t da = alloc(4 * n), db = alloc(4 * n), dc = alloc(4 * n);
  meta_data m = prepare("vecadd", {uint32_t(da), uint32_t(db), uint32_t(dc), n + 1}, 128, 32, 8);
  ASSERT_EQ(vt_ext_set_memcheck(device_, 1), 0) << error();
  ASSERT_EQ(vt_start(device_, &m, 0), 0) << error();
  ASSERT_EQ(vt_ready_wait(device_, MAX_TIMEOUT), -1);
  const std::string e = error();
  const auto in = [&](const std::string& part) { return e.find(part) != std::string::npos; };
  EXPECT_TRUE(in(fmt::format("kernel 'vecadd' workgroup (3,0,0) warp 0 (SM 1) pc")) ||
              in(fmt::format("kernel 'vecadd' workgroup (3,0,0) warp 0 (SM 0) pc")))
      << e;
  EXPECT_TRUE(in(fmt::format(
      "memcheck: invalid global read of 4 bytes at {:#010x} by work-item (100,0,0) (thread 4 of "
      "warp 0, local (4,0,0)): 0 bytes after the end of the 400-byte allocation at {:#010x}; 3 "
      "invalid accesses in all",
      da + 4 * n, da)))
      << e;
  EXPECT_TRUE(in(fmt::format("invalid global write of 4 bytes at {:#010x}", dc + 4 * n))) << e;
  ASSERT_EQ(vt_ext_set_memcheck(device_, 0), 0);
  ASSERT_EQ(vt_start(device_, &m, 0), 0) << error();
  EXPECT_EQ(vt_ready_wait(device_, MAX_TIMEOUT), 0) << error();
}

TEST_F(DriverApi, FaultIsReportedAndTheDeviceStaysUsable) {
  upload({{"faulting.s", kFaulting}, {"vecadd.s", source_text("examples/vecadd.s")}});
  meta_data bad = prepare("bad_load", {0}, 8, 8, 8);
  ASSERT_EQ(vt_start(device_, &bad, 0), 0);
  ASSERT_EQ(vt_ready_wait(device_, MAX_TIMEOUT), -1);
  EXPECT_NE(error().find("bad_load"), std::string::npos) << error();
  EXPECT_NE(error().find("lw"), std::string::npos) << error();

  const uint64_t da = alloc(16), dc = alloc(16);
  const float ones[4] = {1, 1, 1, 1};
  ASSERT_EQ(vt_copy_to_dev(device_, da, ones, 16, 0, 0), 0);
  meta_data good = prepare("vecadd", {uint32_t(da), uint32_t(da), uint32_t(dc), 4}, 4, 4, 4);
  ASSERT_EQ(vt_start(device_, &good, 0), 0);
  ASSERT_EQ(vt_ready_wait(device_, MAX_TIMEOUT), 0) << error();
  float c[4] = {};
  ASSERT_EQ(vt_copy_from_dev(device_, dc, c, 16, 0, 0), 0);
  EXPECT_EQ(c[3], 2.0f);
}

TEST(DriverBudget, HangingKernelStopsAtTheBudget) {
  vt_ext_config config;
  vt_ext_default_config(&config);
  config.instruction_budget = 20000;
  vt_device_h device = nullptr;
  ASSERT_EQ(vt_ext_dev_open_config(&device, &config), 0);
  const std::vector<uint8_t> bytes =
      ventus::elf::write(ventus::assembler::assemble({{"spin.s", kFaulting}}));
  ASSERT_EQ(vt_upload_kernel_bytes(device, bytes.data(), bytes.size(), 0), 0);
  uint64_t entry = 0, args = 0, knl = 0;
  ASSERT_EQ(vt_ext_symbol_address(device, "spin", &entry), 0);
  ASSERT_EQ(vt_buf_alloc(device, 4, &args, 0, 0, 0), 0);
  ASSERT_EQ(vt_buf_alloc(device, 64, &knl, 0, 0, 0), 0);
  uint32_t words[16] = {uint32_t(entry), uint32_t(args), 1, 4, 1, 1, 4, 1, 1};
  ASSERT_EQ(vt_copy_to_dev(device, knl, words, sizeof words, 0, 0), 0);
  meta_data m{};
  m.kernel_size[0] = m.kernel_size[1] = m.kernel_size[2] = 1;
  m.wf_size = 4, m.wg_size = 1, m.metaDataBaseAddr = knl, m.ldsSize = 1024,
  m.sgprUsage = m.vgprUsage = 32;
  ASSERT_EQ(vt_start(device, &m, 0), 0);
  EXPECT_EQ(vt_ready_wait(device, MAX_TIMEOUT), -1);
  const std::string message = vt_ext_last_error(device);
  EXPECT_NE(message.find("spin"), std::string::npos) << message;
  EXPECT_NE(message.find("budget"), std::string::npos) << message;
  EXPECT_EQ(vt_dev_close(device), 0);
}

}  // namespace
