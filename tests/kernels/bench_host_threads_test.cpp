// The `ventus bench` kernels (bench/suite.h) on 1, 2, 3 and 8 host threads: every run
// matches the host reference, and the statistics (instructions, divergences, barriers,
// workgroups, decodes) are the same for every thread count (docs/simulator.md, "Host
// threads").
#include <gtest/gtest.h>

#include <tuple>

#include "suite.h"

namespace ventus::test {
namespace {

class BenchHostThreads : public ::testing::TestWithParam<std::string> {};

TEST_P(BenchHostThreads, SameResultsAndStatisticsForAnyThreadCount) {
  std::optional<std::tuple<uint64_t, uint64_t, uint64_t, uint64_t, uint64_t, uint64_t>> reference;
  for (unsigned threads : {1u, 2u, 3u, 8u}) {
    sim::DeviceConfig config;
    config.host_threads = threads;
    rt::Device device(config);
    const auto workload = bench::make_workload(GetParam(), device, {});
    const rt::Stats s = workload->run();
    EXPECT_NO_THROW(workload->check()) << threads << " host threads";
    const auto stats = std::make_tuple(s.warp_instructions, s.thread_instructions, s.divergences,
                                       s.barriers, s.workgroups, s.decodes);
    if (!reference) reference = stats;
    EXPECT_EQ(stats, *reference) << threads << " host threads";
  }
}

INSTANTIATE_TEST_SUITE_P(Suite, BenchHostThreads, ::testing::ValuesIn(bench::workload_names()));

}  // namespace
}  // namespace ventus::test
