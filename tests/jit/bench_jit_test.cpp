// The `ventus bench` kernels (bench/suite.h) with translation on (blocks compiled on the
// translator's thread while the interpreter goes on) against translation off: launch after
// launch on the same device, on 1 and 2 host threads, every run matches the host reference
// and every launch's statistics (decodes included) are the interpreter's, whenever the
// compiled blocks happen to be installed.
#include <gtest/gtest.h>

#include <cstdlib>
#include <tuple>
#include <vector>

#include "suite.h"
#include "translator.h"

namespace ventus::test {
namespace {

constexpr int kLaunches = 8;

using Figures = std::tuple<uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t>;

std::vector<Figures> launches(const std::string& kernel, unsigned host_threads, sim::JitMode mode) {
  sim::DeviceConfig config;
  config.host_threads = host_threads;
  rt::Device device(config);
  device.set_jit(mode);
  const auto workload = bench::make_workload(kernel, device, {});
  std::vector<Figures> figures;
  for (int i = 0; i < kLaunches; ++i) {
    const rt::Stats s = workload->run();
    EXPECT_NO_THROW(workload->check()) << "launch " << i;
    figures.emplace_back(s.warp_instructions, s.thread_instructions, s.divergences, s.barriers,
                         s.workgroups, s.decodes);
  }
  return figures;
}

class BenchJit : public ::testing::TestWithParam<std::string> {};

TEST_P(BenchJit, BackgroundTranslationMatchesTheInterpreter) {
  for (unsigned threads : {1u, 2u}) {
    const std::vector<Figures> off = launches(GetParam(), threads, sim::JitMode::Off);
    const std::vector<Figures> on = launches(GetParam(), threads, sim::JitMode::On);
    for (int i = 0; i < kLaunches; ++i)
      EXPECT_EQ(on[i], off[i]) << "launch " << i << ", " << threads << " host threads";
  }
}

INSTANTIATE_TEST_SUITE_P(Suite, BenchJit, ::testing::ValuesIn(bench::workload_names()));

// The ALU loop compiles blocks in the background: after the launches some are translated
// (else the test above would compare the interpreter with itself).
TEST(BenchJit, TranslationOnCompilesBlocks) {
  const uint64_t before = jit::blocks_translated_in_process();
  launches("aluloop", 1, sim::JitMode::On);
  EXPECT_GT(jit::blocks_translated_in_process(), before);
}

// A device destroyed right after a launch, while its compile thread may still be compiling
// or have blocks queued: the destructor waits for the compile in flight and frees the rest
// (no hang, no leak or use after free under ASan).
TEST(BenchJit, DeviceDestroyedWhileCompiling) {
  for (int i = 0; i < 10; ++i) {
    rt::Device device{sim::DeviceConfig{}};
    device.set_jit(sim::JitMode::On);
    const auto workload = bench::make_workload(i % 2 ? "aluloop" : "matmul", device, {});
    workload->run();
    EXPECT_NO_THROW(workload->check());
  }
}

// A device that is never destroyed (as the OpenCL library's) exits the process right after a
// launch, its compile thread busy with the blocks queued meanwhile: exit stops the thread
// before LLVM's static objects are destroyed, so the process exits normally (stopped by a
// function registered before its first compile, without the warm-up, the thread crashed
// here every time).
[[noreturn]] void launch_then_exit(const char* kernel) {
  auto* device = new rt::Device(sim::DeviceConfig{});  // never destroyed
  device->set_jit(sim::JitMode::On);
  const auto workload = bench::make_workload(kernel, *device, {});
  workload->run();
  workload->check();
  std::exit(0);
}

TEST(BenchJitDeathTest, ExitWhileCompilingIsClean) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  for (const char* kernel : {"matmul", "collatz", "aluloop"})
    EXPECT_EXIT(launch_then_exit(kernel), ::testing::ExitedWithCode(0), "") << kernel;
}

// The same after sim::prepare_translation, as the OpenCL platform calls it when it creates a
// kernel: LLVM's objects constructed and the exit hook registered before the first launch,
// which then starts the compile thread without a warm-up of its own (without the hook
// registered there, the thread crashed here at exit). An invalid VENTUS_JIT makes it do
// nothing, without throwing.
TEST(BenchJitDeathTest, ExitWhileCompilingAfterPrepareIsClean) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  for (const char* kernel : {"matmul", "aluloop"}) {
    EXPECT_EXIT(
        {
          setenv("VENTUS_JIT", "sometimes", 1);
          sim::prepare_translation();
          unsetenv("VENTUS_JIT");
          sim::prepare_translation(sim::JitMode::On);
          launch_then_exit(kernel);
        },
        ::testing::ExitedWithCode(0), "")
        << kernel;
  }
}

}  // namespace
}  // namespace ventus::test
