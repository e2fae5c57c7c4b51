// Google Benchmark over the kernel suite (bench/suite.h): one benchmark per kernel and
// threads-per-warp setting, reporting simulated thread-instructions per second.
#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include "suite.h"

namespace {

void run_workload(benchmark::State& state, const std::string& name, uint32_t threads_per_warp) {
  ventus::rt::Device device;
  ventus::bench::SuiteOptions options;
  options.threads_per_warp = threads_per_warp;
  auto workload = ventus::bench::make_workload(name, device, options);
  uint64_t thread_instructions = 0, warp_instructions = 0;
  for (auto _ : state) {
    const ventus::rt::Stats stats = workload->run();
    thread_instructions += stats.thread_instructions;
    warp_instructions += stats.warp_instructions;
  }
  workload->check();
  state.counters["thread_insn/s"] =
      benchmark::Counter(static_cast<double>(thread_instructions), benchmark::Counter::kIsRate);
  state.counters["warp_insn/s"] =
      benchmark::Counter(static_cast<double>(warp_instructions), benchmark::Counter::kIsRate);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * workload->work_items()));
}

const bool registered = [] {
  for (const std::string& name : ventus::bench::workload_names())
    for (uint32_t threads : {8u, 32u})
      benchmark::RegisterBenchmark(
          fmt::format("{}/T{}", name, threads).c_str(),
          [name, threads](benchmark::State& s) { run_workload(s, name, threads); })
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
