// Assembly kernels (examples/, bench/kernels/, tests/programs/, tests/kernels/) run through
// the runtime with 4, 8, 16 and 32 threads per warp, each checked against host code, and
// again on the cycle model.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <mutex>
#include <string_view>
#include <tuple>

#include "support.h"
#include "ventus/timing.h"

namespace {

namespace rt = ventus::rt;
using ventus::test::program_from;

// splitmix64, for fixed inputs.
struct Random {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  float uniform() { return static_cast<float>(next() >> 40) / static_cast<float>(1 << 23) - 1.0f; }
  uint32_t below(uint32_t n) { return static_cast<uint32_t>(next() % n); }
};

// With VENTUS_MEMCHECK set (the ctest kernels.memcheck), every launch runs with the memory
// checker: these correct kernels must make no invalid access.
bool memcheck_requested() {
  const char* value = std::getenv("VENTUS_MEMCHECK");
  return value != nullptr && std::string_view(value) == "1";
}

// Threads per warp, and whether the launches run on the cycle model (whose results must be
// the same: it decides when instructions execute, not what they compute).
class Kernels : public ::testing::TestWithParam<std::tuple<uint32_t, bool>> {
 protected:
  void SetUp() override {
    if (std::get<1>(GetParam())) device_.set_timing(ventus::timing::preset("verilog-release"));
    device_.set_memcheck(memcheck_requested());
  }
  void TearDown() override {
    if (std::get<1>(GetParam())) {
      ASSERT_TRUE(device_.last_timing().has_value()) << "the launches did not run on the model";
      EXPECT_GT(device_.last_timing()->cycles, 0u);
    }
  }
  uint32_t threads() const { return std::get<0>(GetParam()); }
  rt::LaunchOptions options() const {
    rt::LaunchOptions o;
    o.threads_per_warp = threads();
    return o;
  }
  rt::Device device_;
};

TEST_P(Kernels, Saxpy) {
  const rt::Program program = program_from({"examples/saxpy.s"});
  const uint32_t n = 1000;  // not a multiple of the local size: the kernel checks bounds
  Random r{1};
  std::vector<float> x(n), y(n);
  for (uint32_t i = 0; i < n; ++i) x[i] = r.uniform(), y[i] = r.uniform();
  rt::Buffer dx = rt::Buffer::from(device_, x), dy = rt::Buffer::from(device_, y);
  rt::launch(device_, program, "saxpy", rt::Range(1024), rt::Range(4 * threads()),
             {dx, dy, 0.75f, int32_t(n)}, options());
  const std::vector<float> got = dy.download<float>();
  for (uint32_t i = 0; i < n; ++i)
    ASSERT_EQ(std::bit_cast<uint32_t>(got[i]), std::bit_cast<uint32_t>(std::fma(0.75f, x[i], y[i])))
        << i;
}

TEST_P(Kernels, Vecadd) {
  const rt::Program program = program_from({"examples/vecadd.s"});
  const uint32_t n = 777;
  Random r{2};
  std::vector<float> a(n), b(n);
  for (uint32_t i = 0; i < n; ++i) a[i] = r.uniform(), b[i] = r.uniform();
  rt::Buffer da = rt::Buffer::from(device_, a), db = rt::Buffer::from(device_, b),
             dc(device_, 4 * n);
  rt::launch(device_, program, "vecadd", rt::Range(800), rt::Range(5 * threads()),
             {da, db, dc, int32_t(n)}, options());
  const std::vector<float> got = dc.download<float>();
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(got[i], a[i] + b[i]) << i;
}

// examples/prefix.s: PREFIX (ABS/NEG, registers above v31), PREFIXI (NEG, an 11-bit
// immediate) and PREFIX_MEMORY (128-bit loads and stores, the global space).
TEST_P(Kernels, PrefixExample) {
  const rt::Program program = program_from({"examples/prefix.s"});
  const uint32_t n = 301;
  Random r{7};
  std::vector<float> a(4 * n), b(4 * n);
  std::vector<int32_t> e(4 * n);
  for (uint32_t i = 0; i < 4 * n; ++i) {
    a[i] = r.uniform();
    b[i] = r.uniform();
    e[i] = static_cast<int32_t>(r.below(20001)) - 10000;
  }
  rt::Buffer da = rt::Buffer::from(device_, a), db = rt::Buffer::from(device_, b),
             dc(device_, 16 * n), de = rt::Buffer::from(device_, e), dd(device_, 16 * n);
  rt::launch(device_, program, "prefix", rt::Range(320), rt::Range(2 * threads()),
             {da, db, dc, de, dd, int32_t(n)}, options());
  const std::vector<float> c = dc.download<float>();
  const std::vector<int32_t> d = dd.download<int32_t>();
  for (uint32_t i = 0; i < 4 * n; ++i) {
    ASSERT_EQ(std::bit_cast<uint32_t>(c[i]), std::bit_cast<uint32_t>(std::fabs(a[i]) - b[i])) << i;
    ASSERT_EQ(d[i], 300 - e[i]) << i;
  }
}

// 64-bit addresses: negative offsets make the high word of the per-thread sum carry.
TEST_P(Kernels, Addr64Gather) {
  const rt::Program program = program_from({"examples/addr64.s"});
  const uint32_t size = 600, origin = 300, n = 555;
  Random r{9};
  std::vector<int32_t> src(size), offset(n);
  for (int32_t& v : src) v = static_cast<int32_t>(r.next());
  for (int32_t& o : offset) o = static_cast<int32_t>(r.below(size)) - static_cast<int32_t>(origin);
  rt::Buffer dsrc = rt::Buffer::from(device_, src), doffset = rt::Buffer::from(device_, offset),
             ddst(device_, 4 * n);
  rt::launch(device_, program, "gather64", rt::Range(576), rt::Range(2 * threads()),
             {dsrc, doffset, ddst, int32_t(origin), int32_t(n)}, options());
  const std::vector<int32_t> got = ddst.download<int32_t>();
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(got[i], src[origin + offset[i]]) << i;
}

TEST_P(Kernels, ReduceWithBarriersAndLocalMemory) {
  const rt::Program program = program_from({"bench/kernels/reduce.s"});
  const uint32_t local = 8 * threads(), groups = 6, n = local * groups;
  Random r{3};
  std::vector<int32_t> in(n);
  for (int32_t& v : in) v = static_cast<int32_t>(r.below(2001)) - 1000;
  rt::Buffer din = rt::Buffer::from(device_, in), dout(device_, 4 * groups);
  rt::LaunchOptions o = options();
  o.local_memory_bytes = 4 * local;
  const rt::Stats stats =
      rt::launch(device_, program, "reduce", rt::Range(n), rt::Range(local), {din, dout}, o);
  const std::vector<int32_t> got = dout.download<int32_t>();
  for (uint32_t g = 0; g < groups; ++g) {
    int32_t sum = 0;
    for (uint32_t i = 0; i < local; ++i) sum += in[g * local + i];
    ASSERT_EQ(got[g], sum) << "group " << g;
  }
  EXPECT_GT(stats.barriers, 0u);
}

// examples/tensor_tile.s: a transpose through 32 x 32 tiles that cp_dma_tensor copies into
// local memory (128-byte swizzle, zero fill at the edges); 70 x 100 leaves partial tiles on
// both edges.
TEST_P(Kernels, TensorTileTranspose) {
  const rt::Program program = program_from({"examples/tensor_tile.s"});
  const uint32_t rows = 70, cols = 100;
  Random r{5};
  std::vector<float> in(rows * cols);
  for (float& v : in) v = r.uniform();
  rt::Buffer din = rt::Buffer::from(device_, in), dout(device_, 4 * rows * cols);
  rt::LaunchOptions o = options();
  o.local_memory_bytes = 4096 + 640;
  rt::launch(device_, program, "tensor_tile", rt::Range(32 * ((cols + 31) / 32), (rows + 31) / 32),
             rt::Range(32, 1), {din, dout, int32_t(rows), int32_t(cols)}, o);
  const std::vector<float> got = dout.download<float>();
  for (uint32_t y = 0; y < rows; ++y)
    for (uint32_t x = 0; x < cols; ++x)
      ASSERT_EQ(std::bit_cast<uint32_t>(got[x * rows + y]),
                std::bit_cast<uint32_t>(in[y * cols + x]))
          << "in[" << y << "][" << x << "]";
}

// binary16 -> float for the finite normal values the GEMM test uses.
float half_value(uint16_t h) {
  const int exponent = (h >> 10) & 0x1f;
  const float magnitude = std::ldexp(1.0f + static_cast<float>(h & 0x3ff) / 1024.0f, exponent - 15);
  return (h & 0x8000) ? -magnitude : magnitude;
}

// examples/gemm_fp16.s: fp16 GEMM through cp_dma_tensor tiles and mma.m16n8k16.f32.f16, for
// 8, 16 and 32 threads per warp. m, n, k are not multiples of the tile sizes, so the edge
// tiles are zero-filled. The reference accumulates in the order the MMA rows define (k = 0,
// 1, ... with one fp32 fused multiply-add per step, round to nearest even).
TEST(KernelsGemm, Fp16GemmWithTensorCopiesAndMma) {
  const rt::Program program = program_from({"examples/gemm_fp16.s"});
  const uint32_t m = 40, n = 20, k = 40;
  Random r{6};
  // Finite normal halves in [2^-5, 2^5) of either sign.
  const auto random_half = [&] {
    return static_cast<uint16_t>((r.below(2) << 15) | ((10 + r.below(11)) << 10) | r.below(1024));
  };
  std::vector<uint16_t> a(m * k), bt(n * k);  // bt: B column-major (n x k)
  for (uint16_t& v : a) v = random_half();
  for (uint16_t& v : bt) v = random_half();
  std::vector<float> expected(m * n);
  for (uint32_t i = 0; i < m; ++i)
    for (uint32_t j = 0; j < n; ++j) {
      float acc = 0.0f;
      for (uint32_t p = 0; p < k; ++p)
        acc = std::fma(half_value(a[i * k + p]), half_value(bt[j * k + p]), acc);
      expected[i * n + j] = acc;
    }
  for (uint32_t threads : {8u, 16u, 32u}) {
    rt::Device device;
    device.set_memcheck(memcheck_requested());
    rt::Buffer da = rt::Buffer::from(device, a), db = rt::Buffer::from(device, bt),
               dc(device, 4 * m * n);
    rt::LaunchOptions o;
    o.threads_per_warp = threads;
    o.local_memory_bytes = 4608;
    rt::launch(device, program, "gemm_fp16", rt::Range(threads * ((n + 7) / 8), (m + 15) / 16),
               rt::Range(threads, 1), {da, db, dc, int32_t(m), int32_t(n), int32_t(k)}, o);
    const std::vector<float> got = dc.download<float>();
    for (uint32_t i = 0; i < m * n; ++i)
      ASSERT_EQ(std::bit_cast<uint32_t>(got[i]), std::bit_cast<uint32_t>(expected[i]))
          << threads << " threads, c[" << i / n << "][" << i % n << "]";
  }
}

TEST_P(Kernels, MatmulWithLoops) {
  const rt::Program program = program_from({"bench/kernels/matmul.s"});
  const uint32_t n = 24;
  Random r{4};
  std::vector<float> a(n * n), b(n * n);
  for (float& v : a) v = r.uniform();
  for (float& v : b) v = r.uniform();
  rt::Buffer da = rt::Buffer::from(device_, a), db = rt::Buffer::from(device_, b),
             dc(device_, 4 * n * n);
  rt::launch(device_, program, "matmul", rt::Range(n, n), rt::Range(8, 4), {da, db, dc, int32_t(n)},
             options());
  const std::vector<float> got = dc.download<float>();
  for (uint32_t y = 0; y < n; ++y)
    for (uint32_t x = 0; x < n; ++x) {
      float acc = 0;
      for (uint32_t k = 0; k < n; ++k) acc = std::fma(a[y * n + k], b[k * n + x], acc);
      ASSERT_EQ(got[y * n + x], acc) << x << "," << y;
    }
}

TEST_P(Kernels, CollatzDivergentLoop) {
  const rt::Program program = program_from({"bench/kernels/collatz.s"});
  const uint32_t n = 500, max_steps = 120;
  rt::Buffer steps(device_, 4 * n);
  const rt::Stats stats = rt::launch(device_, program, "collatz", rt::Range(512),
                                     rt::Range(2 * threads()), {steps, n, max_steps}, options());
  const std::vector<uint32_t> got = steps.download<uint32_t>();
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t x = i + 1, s = 0;
    while (x != 1 && s < max_steps) x = (x & 1) ? 3 * x + 1 : x / 2, ++s;
    ASSERT_EQ(got[i], s) << i;
  }
  EXPECT_GT(stats.divergences, 0u);
}

TEST_P(Kernels, NestedDivergenceAndCalls) {
  const rt::Program program =
      program_from({"tests/programs/common.s", "tests/programs/divergence.s"});
  const uint32_t n = 300;
  Random r{5};
  std::vector<uint32_t> in(n);
  for (uint32_t& v : in) v = r.below(100000);
  rt::Buffer din = rt::Buffer::from(device_, in), dout(device_, 4 * n);
  rt::launch(device_, program, "divergence", rt::Range(320), rt::Range(32), {din, dout, n},
             options());
  const std::vector<uint32_t> got = dout.download<uint32_t>();
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t x = in[i], expected = 0;
    if (x & 1) {
      expected = (x & 2) ? 3 * x : x + 7;
    } else {
      while (!(x <= 1) && expected != 40) x = (x & 1) ? 3 * x + 1 : x >> 1, ++expected;
    }
    ASSERT_EQ(got[i], expected) << "in " << in[i];
  }
}

TEST_P(Kernels, AtomicHistogram) {
  const rt::Program program =
      program_from({"tests/programs/common.s", "tests/programs/histogram.s"});
  const uint32_t n = 1000;
  Random r{6};
  std::vector<uint32_t> in(n), expected(16, 0);
  for (uint32_t& v : in) v = r.below(1 << 20), ++expected[v & 15];
  rt::Buffer din = rt::Buffer::from(device_, in),
             hist = rt::Buffer::from(device_, std::vector<uint32_t>(16, 0));
  rt::launch(device_, program, "histogram", rt::Range(1024), rt::Range(64), {din, hist, n},
             options());
  EXPECT_EQ(hist.download<uint32_t>(), expected);
}

TEST_P(Kernels, PrivateMemorySpills) {
  const rt::Program program = program_from({"tests/programs/common.s", "tests/programs/private.s"});
  const uint32_t n = 200;
  Random r{7};
  std::vector<uint32_t> in(n);
  for (uint32_t& v : in) v = static_cast<uint32_t>(r.next());
  rt::Buffer din = rt::Buffer::from(device_, in), dout(device_, 4 * n);
  rt::launch(device_, program, "private_spill", rt::Range(256), rt::Range(64), {din, dout, n},
             options());
  const std::vector<uint32_t> got = dout.download<uint32_t>();
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t x = in[i];
    uint32_t expected = 0;
    for (uint32_t k = 0; k < 8; ++k) expected += (k + 1) * (x + k);
    expected += x & 0xffff;
    expected += static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>((x >> 8) & 0xff)));
    ASSERT_EQ(got[i], expected) << i;
  }
}

TEST_P(Kernels, PrintfFromEveryLane) {
  const rt::Program program = program_from({"tests/kernels/printf.s", "src/compiler/lib/printf.s"});
  std::mutex mutex;
  std::string output;
  device_.set_print_sink([&](std::string_view text) {
    std::lock_guard lock(mutex);
    output += text;
  });
  const uint32_t n = 45;
  rt::launch(device_, program, "print_items", rt::Range(64),
             rt::Range(2 * threads() > 64 ? 64 : 2 * threads()), {n}, options());
  std::vector<std::string> expected, got;
  char line[256];
  for (uint32_t i = 0; i < n; ++i) {
    std::snprintf(line, sizeof line, "item %d of %u: hex %x, half %f, %s %c 100%%", int(i), n,
                  17 * i, i / 2.0, "tag", 'a' + i % 26);
    expected.push_back(line);
    if (i & 1) {
      std::snprintf(line, sizeof line, "odd %03d", int(i));
      expected.push_back(line);
    }
  }
  for (size_t start = 0; start < output.size();) {
    const size_t end = output.find('\n', start);
    ASSERT_NE(end, std::string::npos) << "unterminated output: " << output.substr(start);
    got.push_back(output.substr(start, end - start));
    start = end + 1;
  }
  // Warps print in scheduling order; every line must appear once.
  std::sort(expected.begin(), expected.end());
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, expected);
}

TEST_P(Kernels, PrintBufferOverflowIsReported) {
  const rt::Program program = program_from({"tests/kernels/printf.s", "src/compiler/lib/printf.s"});
  std::string output;
  std::mutex mutex;
  device_.set_print_sink([&](std::string_view text) {
    std::lock_guard lock(mutex);
    output += text;
  });
  rt::LaunchOptions o = options();
  // The header and one record of 1 argument: the buffer is drained as records are printed,
  // so only a record larger than the whole buffer (6 arguments) is dropped.
  o.print_buffer_bytes = 16 + 16 + 4 * threads() * 2;
  rt::launch(device_, program, "print_items", rt::Range(2 * threads()), rt::Range(threads()),
             {2 * threads()}, o);
  EXPECT_NE(output.find("2 record(s) dropped"), std::string::npos) << output;
  EXPECT_EQ(output.find("item "), std::string::npos) << output;
  EXPECT_NE(output.find("odd 001"), std::string::npos) << output;  // the records that fit
  EXPECT_NE(output.find("odd " + fmt::format("{:03}", 2 * threads() - 1)), std::string::npos)
      << output;
}

INSTANTIATE_TEST_SUITE_P(ThreadsPerWarp, Kernels,
                         ::testing::Combine(::testing::Values(4u, 8u, 16u, 32u), ::testing::Bool()),
                         [](const auto& info) {
                           return "T" + std::to_string(std::get<0>(info.param)) +
                                  (std::get<1>(info.param) ? "_timing" : "");
                         });

}  // namespace
