// What the OpenCL platform costs on top of the simulator: building a program, launching a
// kernel, moving buffer data, and a whole vector addition, each through the ICD loader as
// an application sees it. Run with OCL_ICD_VENDORS=build/ventus.icd (or pocl's, to compare).
#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_ENABLE_EXCEPTIONS
#include <CL/opencl.hpp>
#include <benchmark/benchmark.h>

#include <numeric>
#include <vector>

namespace {

constexpr char kSource[] = R"(
kernel void empty(global int* out) {}
kernel void vector_add(global const float* a, global const float* b, global float* c) {
  int i = get_global_id(0);
  c[i] = a[i] + b[i];
}
)";

struct Platform {
  cl::Context context{CL_DEVICE_TYPE_ALL};
  cl::CommandQueue queue{context};
  cl::Program program{context, kSource, true};
};

Platform& platform() {
  static Platform p;
  return p;
}

void BM_BuildProgram(benchmark::State& state) {
  Platform& p = platform();
  for (auto _ : state) {
    cl::Program program(p.context, kSource, true);
    benchmark::DoNotOptimize(program());
  }
}
BENCHMARK(BM_BuildProgram)->Unit(benchmark::kMillisecond)->UseRealTime();

// One warp of an empty kernel: the runtime's fixed cost per launch.
void BM_LaunchEmptyKernel(benchmark::State& state) {
  Platform& p = platform();
  cl::Buffer out(p.context, CL_MEM_READ_WRITE, 4);
  cl::Kernel kernel(p.program, "empty");
  kernel.setArg(0, out);
  for (auto _ : state) {
    p.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(32), cl::NDRange(32));
    p.queue.finish();
  }
}
BENCHMARK(BM_LaunchEmptyKernel)->Unit(benchmark::kMicrosecond)->UseRealTime();

void BM_WriteReadBuffer(benchmark::State& state) {
  Platform& p = platform();
  const size_t bytes = static_cast<size_t>(state.range(0));
  std::vector<uint8_t> host(bytes, 7);
  cl::Buffer buffer(p.context, CL_MEM_READ_WRITE, bytes);
  for (auto _ : state) {
    p.queue.enqueueWriteBuffer(buffer, CL_TRUE, 0, bytes, host.data());
    p.queue.enqueueReadBuffer(buffer, CL_TRUE, 0, bytes, host.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * 2 * bytes));
}
BENCHMARK(BM_WriteReadBuffer)->Arg(4 << 10)->Arg(1 << 20)->Arg(16 << 20)->Unit(benchmark::kMicrosecond)->UseRealTime();

// n small buffers created, then released (issue 16, item 26: allocation must not be
// quadratic in the number of buffers).
void BM_CreateBuffers(benchmark::State& state) {
  Platform& p = platform();
  const auto n = static_cast<size_t>(state.range(0));
  for (auto _ : state) {
    std::vector<cl::Buffer> buffers;
    buffers.reserve(n);
    for (size_t i = 0; i < n; ++i) buffers.emplace_back(p.context, CL_MEM_READ_WRITE, 64);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * n));
}
BENCHMARK(BM_CreateBuffers)->Arg(30000)->Unit(benchmark::kMillisecond)->UseRealTime();

// Upload, add, download: elements per second of the whole round trip.
void BM_VectorAdd(benchmark::State& state) {
  Platform& p = platform();
  const size_t n = static_cast<size_t>(state.range(0));
  std::vector<float> a(n), b(n), c(n);
  std::iota(a.begin(), a.end(), 0.0f);
  std::iota(b.begin(), b.end(), 1.0f);
  cl::Buffer da(p.context, CL_MEM_READ_ONLY, n * 4), db(p.context, CL_MEM_READ_ONLY, n * 4),
      dc(p.context, CL_MEM_WRITE_ONLY, n * 4);
  cl::Kernel kernel(p.program, "vector_add");
  kernel.setArg(0, da);
  kernel.setArg(1, db);
  kernel.setArg(2, dc);
  for (auto _ : state) {
    p.queue.enqueueWriteBuffer(da, CL_FALSE, 0, n * 4, a.data());
    p.queue.enqueueWriteBuffer(db, CL_FALSE, 0, n * 4, b.data());
    p.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(n), cl::NDRange(256));
    p.queue.enqueueReadBuffer(dc, CL_TRUE, 0, n * 4, c.data());
  }
  if (c[n - 1] != a[n - 1] + b[n - 1]) state.SkipWithError("wrong result");
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * n));
}
BENCHMARK(BM_VectorAdd)->Arg(1 << 14)->Arg(1 << 20)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
