// The shipped hardware cases (VENTUS_CASES_DIR): every one must pass, on several device
// configurations; the case readers reject malformed files with file:line messages.
#include "ventus/case.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "ventus/abi.h"
#include "ventus/error.h"
#include "ventus/timing.h"

namespace ventus::test {
namespace {

namespace fs = std::filesystem;

const char* const kCases[] = {"gaussian-1w16t", "gaussian-2x8", "gaussian-4x4", "gaussian-4x8",
                              "matadd-1w16t",   "matadd-1w32t", "matadd-2w8t",  "matadd-4w4t",
                              "vecadd-4w16t",   "vecadd-4w32t", "vecadd-4x8",   "vecadd-8w4t"};

std::string mismatches_text(const cases::CaseResult& r) {
  std::string text;
  for (const auto& m : r.mismatches)
    text += m.actual
                ? fmt::format("\n  {:#010x}: expected {:08x}, got {:08x}", m.address, m.expected,
                              *m.actual)
                : fmt::format("\n  {:#010x}: expected {:08x}, not mapped", m.address, m.expected);
  return text;
}

struct Variant {
  const char* name;
  sim::DeviceConfig config;
};

sim::DeviceConfig with(uint32_t sms, unsigned threads, uint32_t quantum) {
  sim::DeviceConfig c;
  c.num_sms = sms;
  c.host_threads = threads;
  c.schedule_quantum = quantum;
  return c;
}

class HardwareCase : public ::testing::TestWithParam<const char*> {};

TEST_P(HardwareCase, Passes) {
  const fs::path dir = fs::path(VENTUS_CASES_DIR) / GetParam();
  if (!fs::exists(dir / "case.txt")) GTEST_SKIP() << "hardware case folder not found: " << dir;
  const cases::Case c = cases::load_case(dir);
  const Variant variants[] = {{"default", {}},
                              {"1 SM, 1 thread, quantum 1", with(1, 1, 1)},
                              {"4 SMs, 2 threads, quantum 1000", with(4, 2, 1000)}};
  for (const Variant& v : variants) {
    sim::Device device(v.config);
    const cases::CaseResult r = cases::run_case(c, device);
    ASSERT_FALSE(r.fault) << v.name << ": " << r.fault->describe();
    EXPECT_TRUE(r.passed) << v.name << ": " << r.mismatches.size() << " of " << r.words_checked
                          << " words differ" << mismatches_text(r);
    EXPECT_GT(r.words_checked, 0u);
    EXPECT_EQ(r.stats.workgroups, c.launches.size());
  }
}

// With the memory checker (functional and on the cycle model) every case passes clean but
// gaussian-2x8, whose start code (object.dump 0x80000024..0x80000030: CSR_WID times 1024
// times 1024) puts warp 1's stack 1 MiB after CSR_LDS, beyond the case's 4 KiB ldsSize:
// every one of its errors is a scalar access of warp 1 to that stack, and the results are
// still right.
TEST_P(HardwareCase, PassesWithMemcheck) {
  const fs::path dir = fs::path(VENTUS_CASES_DIR) / GetParam();
  if (!fs::exists(dir / "case.txt")) GTEST_SKIP() << "hardware case folder not found: " << dir;
  const cases::Case c = cases::load_case(dir);
  const timing::Config verilog = timing::preset("verilog-release");
  for (const timing::Config* config : {static_cast<const timing::Config*>(nullptr), &verilog}) {
    sim::Device device;
    const sim::Memcheck memcheck;
    sim::RunOptions options;
    options.memcheck = &memcheck;
    options.timing = config;
    const cases::CaseResult r = cases::run_case(c, device, options);
    if (std::string_view(GetParam()) != "gaussian-2x8") {
      ASSERT_FALSE(r.fault) << r.fault->describe();
      EXPECT_TRUE(r.passed) << mismatches_text(r);
      continue;
    }
    ASSERT_TRUE(r.fault);
    // The first launch with two warps (Fan2_0) stops the case.
    EXPECT_EQ(r.fault->kernel, "Fan2_0");
    EXPECT_NE(r.fault->message.find("memcheck: invalid local write of 4 bytes at 0x70100000 by "
                                    "warp 1 (a scalar access): 1044480 bytes after the end of "
                                    "the workgroup's 4096-byte local memory at 0x70000000"),
              std::string::npos)
        << r.fault->message;
    EXPECT_EQ(r.fault->message.find("then the launch stopped"), std::string::npos);
    // The same launches on a fresh device, to see Fan2_0's errors (the buffers of the
    // earlier launches are its allocations too).
    sim::Device again;
    sim::Memcheck so_far;
    std::vector<sim::MemcheckError> errors;
    for (const cases::CaseLaunch& l : c.launches) {
      for (const cases::CaseBuffer& b : l.buffers) {
        if (b.alloc_size > 0) again.memory().map(b.base, b.alloc_size);
        if (b.size > 0) {
          ASSERT_TRUE(again.memory().write(b.base, b.data.data(), b.size));
        }
        so_far.allocations.push_back({b.base, b.alloc_size, ""});
      }
      sim::RunOptions o;
      o.memcheck = &so_far;
      const sim::LaunchResult lr = again.run(cases::to_kernel_launch(l), o);
      if (l.name != "Fan2_0") {
        EXPECT_EQ(lr.memcheck_error_count, 0u) << l.name;
        continue;
      }
      errors = lr.memcheck_errors;
      EXPECT_EQ(lr.memcheck_error_count, errors.size());
      break;
    }
    ASSERT_FALSE(errors.empty());
    for (const sim::MemcheckError& e : errors) {
      EXPECT_EQ(e.space, sim::MemorySpace::local);
      EXPECT_EQ(e.where.warp, 1u);
      EXPECT_EQ(e.lane, sim::MemcheckError::kWarpAccess);
      EXPECT_GE(e.address, 0x70100000u);
      EXPECT_LT(e.address, 0x70100000u + abi::kWarpStackBytes);
      EXPECT_NE(e.where.disassembly.find("(sp)"), std::string::npos) << e.where.disassembly;
    }
  }
}

// With the cycle model every case computes the same results (its instructions take effect
// in simulated time), with either preset's caches and issue rules.
TEST_P(HardwareCase, PassesWithTiming) {
  const fs::path dir = fs::path(VENTUS_CASES_DIR) / GetParam();
  if (!fs::exists(dir / "case.txt")) GTEST_SKIP() << "hardware case folder not found: " << dir;
  const cases::Case c = cases::load_case(dir);
  const timing::Config verilog = timing::preset("verilog-release");
  const timing::Config chisel = timing::preset("chisel-master");
  for (const timing::Config* config :
       std::initializer_list<const timing::Config*>{&verilog, &chisel}) {
    sim::Device device;
    sim::RunOptions options;
    options.timing = config;
    const cases::CaseResult r = cases::run_case(c, device, options);
    ASSERT_FALSE(r.fault) << r.fault->describe();
    EXPECT_TRUE(r.passed) << r.mismatches.size() << " of " << r.words_checked << " words differ"
                          << mismatches_text(r);
    // The model counts warp instructions as the functional mode does (prefixes included).
    ASSERT_TRUE(r.timing.has_value());
    EXPECT_EQ(r.timing->instructions, r.stats.warp_instructions);
  }
}

INSTANTIATE_TEST_SUITE_P(Shipped, HardwareCase, ::testing::ValuesIn(kCases), [](const auto& info) {
  std::string name = info.param;
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
});

// The cycle model against the Verilog release's published cycle counts
// (../shared/spec/timing-facts.md; docs/timing.md, "Validation"): one parameter set, the
// verilog-release preset, within 10 % of every case but vecadd-4x8, whose count no rule
// of the model can reproduce (docs/timing.md says why).
struct PublishedCount {
  const char* name;
  uint64_t cycles;
};
const PublishedCount kPublishedCycles[] = {
    {"vecadd-4w16t", 1800},  {"vecadd-4w32t", 2164},    {"vecadd-8w4t", 2899},
    {"matadd-1w32t", 2808},  {"matadd-1w16t", 2500},    {"matadd-2w8t", 2640},
    {"matadd-4w4t", 4054},   {"gaussian-1w16t", 10151}, {"gaussian-2x8", 11670},
    {"gaussian-4x4", 11537}, {"gaussian-4x8", 15940}};

class HardwareCaseTiming : public ::testing::TestWithParam<PublishedCount> {};

TEST_P(HardwareCaseTiming, WithinTenPercentOfTheRtl) {
  const fs::path dir = fs::path(VENTUS_CASES_DIR) / GetParam().name;
  if (!fs::exists(dir / "case.txt")) GTEST_SKIP() << "hardware case folder not found: " << dir;
  const timing::Config config = timing::preset("verilog-release");
  sim::Device device;
  sim::RunOptions options;
  options.timing = &config;
  const cases::CaseResult r = cases::run_case(cases::load_case(dir), device, options);
  ASSERT_TRUE(r.passed);
  ASSERT_TRUE(r.timing.has_value());
  const double published = double(GetParam().cycles);
  EXPECT_NEAR(double(r.timing->cycles), published, 0.10 * published)
      << GetParam().name << ": model " << r.timing->cycles << ", RTL " << GetParam().cycles;
}

INSTANTIATE_TEST_SUITE_P(Published, HardwareCaseTiming, ::testing::ValuesIn(kPublishedCycles),
                         [](const auto& info) {
                           std::string name = info.param.name;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

// A scratch copy of one case folder whose files a test then breaks.
class BrokenCase : public ::testing::Test {
 protected:
  void SetUp() override {
    source_ = fs::path(VENTUS_CASES_DIR) / "vecadd-4x8";
    if (!fs::exists(source_ / "case.txt"))
      GTEST_SKIP() << "hardware case folder not found: " << source_;
    dir_ = fs::temp_directory_path() / fmt::format("ventus_case_test_{}", ::getpid());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    for (const auto& e : fs::directory_iterator(source_))
      fs::copy_file(e.path(), dir_ / e.path().filename());
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }
  void write(const std::string& file, const std::string& text) {
    std::ofstream(dir_ / file, std::ios::binary) << text;
  }
  std::string read(const std::string& file) {
    std::ifstream in(dir_ / file, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  std::string error() {
    try {
      cases::load_case(dir_);
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  }
  fs::path source_, dir_;
};

TEST_F(BrokenCase, MessagesNameFileAndLine) {
  const std::string original = read("case.txt");
  write("case.txt", original + "expect 0x9000000 00000000\n");
  EXPECT_NE(error().find("case.txt:8: address '0x9000000'"), std::string::npos) << error();
  write("case.txt", original + "expect 0x90000000 0000000G\n");
  EXPECT_NE(error().find("case.txt:8: '0000000G' is not a word"), std::string::npos) << error();
  write("case.txt", original + "launch  x\n");
  EXPECT_NE(error().find("case.txt:8: tokens must be separated by single spaces"),
            std::string::npos)
      << error();
  write("case.txt", original.substr(0, original.size() - 1));
  EXPECT_NE(error().find("does not end with a newline"), std::string::npos) << error();
  write("case.txt", original);

  std::string metadata = read("vecadd_0.metadata");
  write("vecadd_0.metadata", "8000000\n" + metadata.substr(9));
  EXPECT_NE(error().find("vecadd_0.metadata:1: '8000000' is not a word"), std::string::npos)
      << error();
  write("vecadd_0.metadata", metadata.substr(0, metadata.size() - 9));
  EXPECT_NE(error().find("vecadd_0.metadata:"), std::string::npos) << error();
  write("vecadd_0.metadata", metadata);

  const std::string data = read("vecadd_0.data");
  write("vecadd_0.data", data + "00000000\n");
  EXPECT_NE(error().find("vecadd_0.data:"), std::string::npos) << error();
  EXPECT_NE(error().find("need"), std::string::npos) << error();
  write("vecadd_0.data", data);
  EXPECT_EQ(error(), "");
}

TEST_F(BrokenCase, WrongExpectationIsReportedWithAddress) {
  std::string text = read("case.txt");
  const size_t at = text.find("expect 0x90002000 42000000");
  ASSERT_NE(at, std::string::npos);
  text.replace(at + std::string("expect 0x90002000 ").size(), 8, "42000001");
  write("case.txt", text);
  sim::Device device;
  const cases::CaseResult r = cases::run_case(cases::load_case(dir_), device);
  ASSERT_FALSE(r.fault);
  EXPECT_FALSE(r.passed);
  ASSERT_EQ(r.mismatches.size(), 1u);
  EXPECT_EQ(r.mismatches[0].address, 0x90002000u);
  EXPECT_EQ(r.mismatches[0].expected, 0x42000001u);
  EXPECT_EQ(r.mismatches[0].actual, 0x42000000u);
}

}  // namespace
}  // namespace ventus::test
