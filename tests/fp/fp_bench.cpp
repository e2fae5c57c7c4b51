// Throughput of the fp32 library as the simulator uses it (per lane and per 32-lane warp).
// Not a test: run build/tests/fp/bench_fp by hand.
#include <benchmark/benchmark.h>

#include <random>

#include "fp32.h"
#include "inputs.h"

namespace ventus::fp {
namespace {

const std::vector<testing::Operands>& operands() {
  static const auto values =
      testing::generate_operands(testing::OperandMix::kFusedMultiply, 4096, 1);
  return values;
}

// Kernel-like data for the warp benchmarks: normal numbers between 2^-10 and 2^10 (x86 is
// much slower on subnormals, which the generated test operands are full of).
struct TypicalLanes {
  uint32_t a[32], b[32], c[32];
  TypicalLanes() {
    std::mt19937 rng(5);
    for (unsigned i = 0; i < 32; ++i) {
      a[i] = ((rng() & 1) << 31) | ((117 + rng() % 20) << 23) | (rng() & 0x7fffffu);
      b[i] = ((117 + rng() % 20) << 23) | (rng() & 0x7fffffu);
      c[i] = ((rng() & 1) << 31) | ((117 + rng() % 20) << 23) | (rng() & 0x7fffffu);
    }
  }
};

template <uint32_t (*Op)(uint32_t, uint32_t, uint32_t, uint32_t&)>
void scalar(benchmark::State& state) {
  const uint32_t rm = static_cast<uint32_t>(state.range(0));
  const auto& ops = operands();
  uint32_t flags = 0;
  size_t i = 0;
  for (auto _ : state) {
    const auto& o = ops[i++ & 4095];
    benchmark::DoNotOptimize(Op(o.a, o.b, rm, flags));
  }
  state.SetItemsProcessed(state.iterations());
}

uint32_t fma_ab_a(uint32_t a, uint32_t b, uint32_t rm, uint32_t& flags) {
  return fma(a, b, a, rm, flags);
}
uint32_t exp_a(uint32_t a, uint32_t, uint32_t rm, uint32_t& flags) {
  return exp(a, rm, flags);
}

using LaneOp = void (*)(const uint32_t*, const uint32_t*, uint32_t*, uint32_t, unsigned, uint32_t,
                        uint32_t&);
template <LaneOp Op>
void warp(benchmark::State& state) {
  const uint32_t rm = static_cast<uint32_t>(state.range(0));
  const TypicalLanes in;
  uint32_t d[32], flags = 0;
  for (auto _ : state) {
    Op(in.a, in.b, d, 0xffffffffu, 32, rm, flags);
    benchmark::DoNotOptimize(d);
  }
  state.SetItemsProcessed(state.iterations() * 32);
}

void fma_warp(benchmark::State& state) {
  const uint32_t rm = static_cast<uint32_t>(state.range(0));
  const TypicalLanes in;
  uint32_t d[32], flags = 0;
  for (auto _ : state) {
    fma_lanes(in.a, in.b, in.c, d, 0xffffffffu, 32, rm, flags);
    benchmark::DoNotOptimize(d);
  }
  state.SetItemsProcessed(state.iterations() * 32);
}

// Arg: rounding mode (0 = RNE through the host path, 4 = RMM through the integer path).
BENCHMARK(scalar<add>)->Arg(kRNE)->Arg(kRMM);
BENCHMARK(scalar<exact::add>)->Arg(kRNE);
BENCHMARK(scalar<mul>)->Arg(kRNE)->Arg(kRMM);
BENCHMARK(scalar<div>)->Arg(kRNE)->Arg(kRMM);
BENCHMARK(scalar<fma_ab_a>)->Arg(kRNE);
BENCHMARK(scalar<exp_a>)->Arg(kRNE);
BENCHMARK(warp<add_lanes>)->Arg(kRNE)->Arg(kRMM);
BENCHMARK(warp<mul_lanes>)->Arg(kRNE);
BENCHMARK(warp<div_lanes>)->Arg(kRNE);
BENCHMARK(fma_warp)->Arg(kRNE)->Arg(kRMM);

}  // namespace
}  // namespace ventus::fp

BENCHMARK_MAIN();
