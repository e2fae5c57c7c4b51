// Buffer allocation through the C driver API (issue 16, item 26): allocating n buffers and
// releasing them must cost O(n log n), not O(n^2). Prints the time for the whole batch.
#include <benchmark/benchmark.h>

#include <vector>

#include "ventus/ventus.h"

namespace {

// n small buffers with vt_buf_alloc, then each released with vt_one_buf_free.
void BM_AllocateAndFreeBuffers(benchmark::State& state) {
  const auto n = static_cast<size_t>(state.range(0));
  vt_device_h device = nullptr;
  if (vt_dev_open(&device) != 0) return state.SkipWithError(vt_ext_last_error(nullptr));
  std::vector<uint64_t> addresses(n);
  for (auto _ : state) {
    for (uint64_t& address : addresses)
      if (vt_buf_alloc(device, 64, &address, VT_BUF_READ_WRITE, 0, 0) != 0)
        return state.SkipWithError(vt_ext_last_error(device));
    for (uint64_t& address : addresses)
      if (vt_one_buf_free(device, 64, &address, 0, 0) != 0)
        return state.SkipWithError(vt_ext_last_error(device));
  }
  vt_dev_close(device);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * n));
}
BENCHMARK(BM_AllocateAndFreeBuffers)->Arg(30000)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
