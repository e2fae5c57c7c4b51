// Application-style OpenCL kernels (stencil, convolution, reduction, sorting, matrix
// kernels, sparse and graph code, atomics, scan, all-pairs) through the ICD loader, timed
// as an application would see them: the sum of the profiling events' END - START of one
// run's kernel commands (the benchmark's time) and the wall time of enqueueing them and
// waiting (`wall_ms`). Every run's result is checked against a host computation first.
//
//   OCL_ICD_VENDORS=build/ventus.icd build/bench/bench_apps            # benchmarks
//   OCL_ICD_VENDORS=build/ventus.icd build/bench/bench_apps --check    # each once, small
//
// scripts/bench_vs_pocl.sh runs it on Ventus and on pocl and prints the ratios.
#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_ENABLE_EXCEPTIONS
#include <benchmark/benchmark.h>

#include <CL/opencl.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace {

struct Platform {
  cl::Context context{CL_DEVICE_TYPE_ALL};
  cl::Device device{context.getInfo<CL_CONTEXT_DEVICES>().front()};
  cl::CommandQueue queue{context, device, CL_QUEUE_PROFILING_ENABLE};
};

Platform& platform() {
  static Platform p;
  return p;
}

cl::Program build(Platform& p, const char* source) {
  cl::Program program(p.context, source);
  try {
    program.build({p.device});
  } catch (const cl::BuildError&) {
    std::fprintf(stderr, "%s\n", program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(p.device).c_str());
    throw;
  }
  return program;
}

template <typename T>
cl::Buffer upload(Platform& p, const std::vector<T>& host) {
  return cl::Buffer(p.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, host.size() * sizeof(T),
                    const_cast<T*>(host.data()));
}

template <typename T>
std::vector<T> download(Platform& p, const cl::Buffer& buffer, size_t count) {
  std::vector<T> host(count);
  p.queue.enqueueReadBuffer(buffer, CL_TRUE, 0, count * sizeof(T), host.data());
  return host;
}

// The first index where `got` differs from `want` by more than `tolerance` (relative to
// `scale`, the size of the terms that were summed), as a message; empty when all agree.
template <typename T>
std::string compare(const char* what, const std::vector<T>& got, const std::vector<T>& want,
                    double tolerance = 0, const std::vector<T>* scale = nullptr) {
  for (size_t i = 0; i < want.size(); ++i) {
    const double bound = tolerance * (scale ? std::fabs(double((*scale)[i])) : 1.0);
    if (std::fabs(double(got[i]) - double(want[i])) > bound || std::isnan(double(got[i])))
      return std::string(what) + "[" + std::to_string(i) + "] = " + std::to_string(got[i]) +
             ", expected " + std::to_string(want[i]);
  }
  return {};
}

// One application at one size: buffers and inputs made at construction (untimed);
// reset() restores what run() overwrites; run() enqueues one run's kernel commands and
// returns their events (it may wait in between, as a host loop over levels does);
// check() compares the device's result with the host's, empty when right.
class App {
 public:
  virtual ~App() = default;
  virtual void reset() {}
  virtual std::vector<cl::Event> run() = 0;
  virtual std::string check() = 0;

 protected:
  Platform& p = platform();
};

// ---------------------------------------------------------------------------------------
// Jacobi sweeps of a 2-D 5-point stencil over an n x n grid, boundary held fixed.
constexpr char kJacobiSource[] = R"(
kernel void jacobi(global const float* in, global float* out, int n) {
  int x = get_global_id(0), y = get_global_id(1);
  int at = y * n + x;
  if (x == 0 || y == 0 || x == n - 1 || y == n - 1) {
    out[at] = in[at];
    return;
  }
  out[at] = 0.25f * (in[at - 1] + in[at + 1] + in[at - n] + in[at + n]);
}
)";

class Jacobi : public App {
 public:
  static constexpr int kSweeps = 4;
  explicit Jacobi(size_t n) : n_(n), grid_(n * n) {
    std::mt19937 rng(1);
    std::uniform_real_distribution<float> value(0.0f, 1.0f);
    for (float& v : grid_) v = value(rng);
    a_ = upload(p, grid_);
    b_ = cl::Buffer(p.context, CL_MEM_READ_WRITE, grid_.size() * 4);
    kernel_ = cl::Kernel(build(p, kJacobiSource), "jacobi");
    kernel_.setArg(2, int(n_));
  }
  void reset() override {
    p.queue.enqueueWriteBuffer(a_, CL_TRUE, 0, grid_.size() * 4, grid_.data());
  }
  std::vector<cl::Event> run() override {
    std::vector<cl::Event> events(kSweeps);
    for (int s = 0; s < kSweeps; ++s) {
      kernel_.setArg(0, s % 2 ? b_ : a_);
      kernel_.setArg(1, s % 2 ? a_ : b_);
      p.queue.enqueueNDRangeKernel(kernel_, cl::NullRange, cl::NDRange(n_, n_), cl::NDRange(32, 8),
                                   nullptr, &events[s]);
    }
    return events;
  }
  std::string check() override {
    std::vector<float> in = grid_, out(grid_.size());
    for (int s = 0; s < kSweeps; ++s) {
      for (size_t y = 0; y < n_; ++y)
        for (size_t x = 0; x < n_; ++x) {
          const size_t at = y * n_ + x;
          out[at] = x == 0 || y == 0 || x == n_ - 1 || y == n_ - 1
                        ? in[at]
                        : 0.25f * (in[at - 1] + in[at + 1] + in[at - n_] + in[at + n_]);
        }
      std::swap(in, out);
    }
    return compare("grid", download<float>(p, a_, in.size()), in, 1e-5);
  }

 private:
  size_t n_;
  std::vector<float> grid_;
  cl::Buffer a_, b_;
  cl::Kernel kernel_;
};

// ---------------------------------------------------------------------------------------
// 1-D convolution with a 17-tap filter in constant memory, edges clamped.
constexpr char kConvolutionSource[] = R"(
#define RADIUS 8
kernel void convolve(global const float* in, constant float* taps, global float* out, int n) {
  int i = get_global_id(0);
  float sum = 0.0f;
  for (int k = -RADIUS; k <= RADIUS; ++k)
    sum += taps[k + RADIUS] * in[clamp(i + k, 0, n - 1)];
  out[i] = sum;
}
)";

class Convolution : public App {
 public:
  static constexpr int kRadius = 8;
  explicit Convolution(size_t n) : in_(n), taps_(2 * kRadius + 1) {
    std::mt19937 rng(2);
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    for (float& v : in_) v = value(rng);
    for (float& v : taps_) v = value(rng);
    in_buf_ = upload(p, in_);
    taps_buf_ = upload(p, taps_);
    out_ = cl::Buffer(p.context, CL_MEM_WRITE_ONLY, n * 4);
    kernel_ = cl::Kernel(build(p, kConvolutionSource), "convolve");
    kernel_.setArg(0, in_buf_);
    kernel_.setArg(1, taps_buf_);
    kernel_.setArg(2, out_);
    kernel_.setArg(3, int(n));
  }
  std::vector<cl::Event> run() override {
    std::vector<cl::Event> events(1);
    p.queue.enqueueNDRangeKernel(kernel_, cl::NullRange, cl::NDRange(in_.size()), cl::NDRange(256),
                                 nullptr, &events[0]);
    return events;
  }
  std::string check() override {
    const int n = int(in_.size());
    std::vector<float> want(in_.size()), magnitude(in_.size());
    for (int i = 0; i < n; ++i)
      for (int k = -kRadius; k <= kRadius; ++k) {
        const float term = taps_[k + kRadius] * in_[std::clamp(i + k, 0, n - 1)];
        want[i] += term;
        magnitude[i] += std::fabs(term);
      }
    return compare("out", download<float>(p, out_, want.size()), want, 1e-5, &magnitude);
  }

 private:
  std::vector<float> in_, taps_;
  cl::Buffer in_buf_, taps_buf_, out_;
  cl::Kernel kernel_;
};

// ---------------------------------------------------------------------------------------
// Sum of n ints: a grid-stride loop per work-item, then a tree in local memory per
// workgroup; a second launch of one workgroup adds the workgroups' partial sums.
constexpr char kReduceSource[] = R"(
kernel void reduce_sum(global const int* in, global int* partial, local int* scratch, int n) {
  int lid = get_local_id(0);
  int sum = 0;
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) sum += in[i];
  scratch[lid] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int span = get_local_size(0) / 2; span > 0; span >>= 1) {
    if (lid < span) scratch[lid] += scratch[lid + span];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) partial[get_group_id(0)] = scratch[0];
}
)";

class Reduce : public App {
 public:
  static constexpr size_t kGroups = 64, kGroupSize = 256;
  explicit Reduce(size_t n) : in_(n) {
    std::mt19937 rng(3);
    std::uniform_int_distribution<int> value(-1000, 1000);
    for (int& v : in_) v = value(rng);
    in_buf_ = upload(p, in_);
    partial_ = cl::Buffer(p.context, CL_MEM_READ_WRITE, kGroups * 4);
    total_ = cl::Buffer(p.context, CL_MEM_READ_WRITE, 4);
    cl::Program program = build(p, kReduceSource);
    groups_ = cl::Kernel(program, "reduce_sum");
    groups_.setArg(0, in_buf_);
    groups_.setArg(1, partial_);
    groups_.setArg(2, cl::Local(kGroupSize * 4));
    groups_.setArg(3, int(n));
    final_ = cl::Kernel(program, "reduce_sum");
    final_.setArg(0, partial_);
    final_.setArg(1, total_);
    final_.setArg(2, cl::Local(kGroups * 4));
    final_.setArg(3, int(kGroups));
  }
  std::vector<cl::Event> run() override {
    std::vector<cl::Event> events(2);
    p.queue.enqueueNDRangeKernel(groups_, cl::NullRange, cl::NDRange(kGroups * kGroupSize),
                                 cl::NDRange(kGroupSize), nullptr, &events[0]);
    p.queue.enqueueNDRangeKernel(final_, cl::NullRange, cl::NDRange(kGroups), cl::NDRange(kGroups),
                                 nullptr, &events[1]);
    return events;
  }
  std::string check() override {
    int want = 0;
    for (int v : in_) want += v;
    return compare("total", download<int>(p, total_, 1), {want});
  }

 private:
  std::vector<int> in_;
  cl::Buffer in_buf_, partial_, total_;
  cl::Kernel groups_, final_;
};

// ---------------------------------------------------------------------------------------
// Bitonic sort of n (a power of two) uints: one launch per compare-exchange pass,
// log2(n) * (log2(n) + 1) / 2 launches.
constexpr char kBitonicSource[] = R"(
kernel void bitonic_pass(global uint* keys, uint stride, uint block) {
  uint i = get_global_id(0);
  uint partner = i ^ stride;
  if (partner <= i) return;
  uint a = keys[i], b = keys[partner];
  bool ascending = (i & block) == 0;
  if ((a > b) == ascending) {
    keys[i] = b;
    keys[partner] = a;
  }
}
)";

class BitonicSort : public App {
 public:
  explicit BitonicSort(size_t n) : keys_(n) {
    std::mt19937 rng(4);
    for (unsigned& k : keys_) k = rng();
    buf_ = upload(p, keys_);
    kernel_ = cl::Kernel(build(p, kBitonicSource), "bitonic_pass");
    kernel_.setArg(0, buf_);
  }
  void reset() override {
    p.queue.enqueueWriteBuffer(buf_, CL_TRUE, 0, keys_.size() * 4, keys_.data());
  }
  std::vector<cl::Event> run() override {
    std::vector<cl::Event> events;
    for (cl_uint block = 2; block <= keys_.size(); block *= 2)
      for (cl_uint stride = block / 2; stride > 0; stride /= 2) {
        kernel_.setArg(1, stride);
        kernel_.setArg(2, block);
        p.queue.enqueueNDRangeKernel(kernel_, cl::NullRange, cl::NDRange(keys_.size()),
                                     cl::NDRange(256), nullptr, &events.emplace_back());
      }
    return events;
  }
  std::string check() override {
    std::vector<unsigned> want = keys_;
    std::sort(want.begin(), want.end());
    return compare("keys", download<unsigned>(p, buf_, want.size()), want);
  }

 private:
  std::vector<unsigned> keys_;
  cl::Buffer buf_;
  cl::Kernel kernel_;
};

// ---------------------------------------------------------------------------------------
// C = A B for n x n floats, 16 x 16 tiles staged in local memory. Small integer inputs
// make every sum exact, whatever the order.
constexpr char kMatmulSource[] = R"(
#define TILE 16
kernel void matmul(global const float* a, global const float* b, global float* c, int n) {
  local float ta[TILE][TILE], tb[TILE][TILE];
  int tx = get_local_id(0), ty = get_local_id(1);
  int col = get_global_id(0), row = get_global_id(1);
  float sum = 0.0f;
  for (int t = 0; t < n; t += TILE) {
    ta[ty][tx] = a[row * n + t + tx];
    tb[ty][tx] = b[(t + ty) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TILE; ++k) sum += ta[ty][k] * tb[k][tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  c[row * n + col] = sum;
}
)";

class Matmul : public App {
 public:
  static constexpr size_t kTile = 16;
  explicit Matmul(size_t n) : n_(n), a_(n * n), b_(n * n) {
    std::mt19937 rng(5);
    std::uniform_int_distribution<int> value(-4, 4);
    for (float& v : a_) v = float(value(rng));
    for (float& v : b_) v = float(value(rng));
    a_buf_ = upload(p, a_);
    b_buf_ = upload(p, b_);
    c_buf_ = cl::Buffer(p.context, CL_MEM_WRITE_ONLY, n * n * 4);
    kernel_ = cl::Kernel(build(p, kMatmulSource), "matmul");
    kernel_.setArg(0, a_buf_);
    kernel_.setArg(1, b_buf_);
    kernel_.setArg(2, c_buf_);
    kernel_.setArg(3, int(n));
  }
  std::vector<cl::Event> run() override {
    std::vector<cl::Event> events(1);
    p.queue.enqueueNDRangeKernel(kernel_, cl::NullRange, cl::NDRange(n_, n_),
                                 cl::NDRange(kTile, kTile), nullptr, &events[0]);
    return events;
  }
  std::string check() override {
    std::vector<float> want(n_ * n_);
    for (size_t r = 0; r < n_; ++r)
      for (size_t k = 0; k < n_; ++k)
        for (size_t c = 0; c < n_; ++c) want[r * n_ + c] += a_[r * n_ + k] * b_[k * n_ + c];
    return compare("c", download<float>(p, c_buf_, want.size()), want);
  }

 private:
  size_t n_;
  std::vector<float> a_, b_;
  cl::Buffer a_buf_, b_buf_, c_buf_;
  cl::Kernel kernel_;
};

// ---------------------------------------------------------------------------------------
// A random compressed-sparse-row graph: vertex v's neighbours are adjacency[offsets[v] ..
// offsets[v + 1]), 0 to 2 * mean_degree of them, uniformly chosen.
struct CsrGraph {
  std::vector<int> offsets{0}, adjacency;
  CsrGraph(size_t vertices, int mean_degree, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> degree(0, 2 * mean_degree), vertex(0, int(vertices) - 1);
    for (size_t v = 0; v < vertices; ++v) {
      for (int e = degree(rng); e > 0; --e) adjacency.push_back(vertex(rng));
      offsets.push_back(int(adjacency.size()));
    }
  }
};

// y = A x for a sparse A in CSR form, one row per work-item (rows of irregular length).
constexpr char kSpmvSource[] = R"(
kernel void spmv(global const int* offsets, global const int* columns, global const float* values,
                 global const float* x, global float* y, int rows) {
  int row = get_global_id(0);
  if (row >= rows) return;
  float sum = 0.0f;
  for (int at = offsets[row]; at < offsets[row + 1]; ++at) sum += values[at] * x[columns[at]];
  y[row] = sum;
}
)";

class Spmv : public App {
 public:
  explicit Spmv(size_t rows) : matrix_(rows, 16, 6), values_(matrix_.adjacency.size()), x_(rows) {
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> value(-8, 8);
    for (float& v : values_) v = float(value(rng));
    for (float& v : x_) v = float(value(rng));
    offsets_ = upload(p, matrix_.offsets);
    columns_ = upload(p, matrix_.adjacency);
    values_buf_ = upload(p, values_);
    x_buf_ = upload(p, x_);
    y_buf_ = cl::Buffer(p.context, CL_MEM_WRITE_ONLY, rows * 4);
    kernel_ = cl::Kernel(build(p, kSpmvSource), "spmv");
    kernel_.setArg(0, offsets_);
    kernel_.setArg(1, columns_);
    kernel_.setArg(2, values_buf_);
    kernel_.setArg(3, x_buf_);
    kernel_.setArg(4, y_buf_);
    kernel_.setArg(5, int(rows));
  }
  std::vector<cl::Event> run() override {
    std::vector<cl::Event> events(1);
    const size_t global = (x_.size() + 255) / 256 * 256;
    p.queue.enqueueNDRangeKernel(kernel_, cl::NullRange, cl::NDRange(global), cl::NDRange(256),
                                 nullptr, &events[0]);
    return events;
  }
  std::string check() override {
    std::vector<float> want(x_.size());
    for (size_t r = 0; r < x_.size(); ++r)
      for (int at = matrix_.offsets[r]; at < matrix_.offsets[r + 1]; ++at)
        want[r] += values_[at] * x_[matrix_.adjacency[at]];
    return compare("y", download<float>(p, y_buf_, want.size()), want);
  }

 private:
  CsrGraph matrix_;
  std::vector<float> values_, x_;
  cl::Buffer offsets_, columns_, values_buf_, x_buf_, y_buf_;
  cl::Kernel kernel_;
};

// ---------------------------------------------------------------------------------------
// Breadth-first search from vertex 0, one launch per level: the vertices of the frontier
// (level == depth) label their unvisited neighbours depth + 1. The host reads the
// `changed` flag after each level, as a level-synchronous BFS does.
constexpr char kBfsSource[] = R"(
kernel void bfs_level(global const int* offsets, global const int* adjacency, global int* level,
                      int depth, global int* changed, int vertices) {
  int v = get_global_id(0);
  if (v >= vertices || level[v] != depth) return;
  for (int at = offsets[v]; at < offsets[v + 1]; ++at) {
    int u = adjacency[at];
    if (level[u] < 0) {
      level[u] = depth + 1;
      *changed = 1;
    }
  }
}
)";

class Bfs : public App {
 public:
  explicit Bfs(size_t vertices) : graph_(vertices, 4, 8), start_(vertices, -1) {
    start_[0] = 0;
    offsets_ = upload(p, graph_.offsets);
    adjacency_ = upload(p, graph_.adjacency);
    level_ = upload(p, start_);
    changed_ = cl::Buffer(p.context, CL_MEM_READ_WRITE, 4);
    kernel_ = cl::Kernel(build(p, kBfsSource), "bfs_level");
    kernel_.setArg(0, offsets_);
    kernel_.setArg(1, adjacency_);
    kernel_.setArg(2, level_);
    kernel_.setArg(4, changed_);
    kernel_.setArg(5, int(vertices));
  }
  void reset() override {
    p.queue.enqueueWriteBuffer(level_, CL_TRUE, 0, start_.size() * 4, start_.data());
  }
  std::vector<cl::Event> run() override {
    std::vector<cl::Event> events;
    const size_t global = (start_.size() + 255) / 256 * 256;
    for (int depth = 0, changed = 1; changed; ++depth) {
      changed = 0;
      p.queue.enqueueWriteBuffer(changed_, CL_FALSE, 0, 4, &changed);
      kernel_.setArg(3, depth);
      p.queue.enqueueNDRangeKernel(kernel_, cl::NullRange, cl::NDRange(global), cl::NDRange(256),
                                   nullptr, &events.emplace_back());
      p.queue.enqueueReadBuffer(changed_, CL_TRUE, 0, 4, &changed);
    }
    return events;
  }
  std::string check() override {
    std::vector<int> want = start_, frontier{0};
    while (!frontier.empty()) {
      std::vector<int> next;
      for (int v : frontier)
        for (int at = graph_.offsets[v]; at < graph_.offsets[v + 1]; ++at) {
          const int u = graph_.adjacency[at];
          if (want[u] < 0) {
            want[u] = want[v] + 1;
            next.push_back(u);
          }
        }
      frontier = std::move(next);
    }
    return compare("level", download<int>(p, level_, want.size()), want);
  }

 private:
  CsrGraph graph_;
  std::vector<int> start_;
  cl::Buffer offsets_, adjacency_, level_, changed_;
  cl::Kernel kernel_;
};

// ---------------------------------------------------------------------------------------
// A 256-bin histogram of n bytes: each workgroup counts into local bins with local
// atomics, then adds its bins to the global ones with global atomics.
constexpr char kHistogramSource[] = R"(
kernel void histogram(global const uchar* data, int n, global uint* bins) {
  local uint counts[256];
  int lid = get_local_id(0), size = get_local_size(0);
  for (int b = lid; b < 256; b += size) counts[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) atomic_inc(&counts[data[i]]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int b = lid; b < 256; b += size) atomic_add(&bins[b], counts[b]);
}
)";

class Histogram : public App {
 public:
  static constexpr size_t kGroups = 32, kGroupSize = 256;
  explicit Histogram(size_t n) : data_(n) {
    // A skewed distribution, so that some bins see many collisions.
    std::mt19937 rng(9);
    std::binomial_distribution<int> value(255, 0.3);
    for (unsigned char& v : data_) v = static_cast<unsigned char>(value(rng));
    data_buf_ = upload(p, data_);
    bins_ = cl::Buffer(p.context, CL_MEM_READ_WRITE, 256 * 4);
    kernel_ = cl::Kernel(build(p, kHistogramSource), "histogram");
    kernel_.setArg(0, data_buf_);
    kernel_.setArg(1, int(n));
    kernel_.setArg(2, bins_);
  }
  void reset() override {
    p.queue.enqueueFillBuffer(bins_, cl_uint(0), 0, 256 * 4);
    p.queue.finish();
  }
  std::vector<cl::Event> run() override {
    std::vector<cl::Event> events(1);
    p.queue.enqueueNDRangeKernel(kernel_, cl::NullRange, cl::NDRange(kGroups * kGroupSize),
                                 cl::NDRange(kGroupSize), nullptr, &events[0]);
    return events;
  }
  std::string check() override {
    std::vector<unsigned> want(256);
    for (unsigned char v : data_) ++want[v];
    return compare("bins", download<unsigned>(p, bins_, want.size()), want);
  }

 private:
  std::vector<unsigned char> data_;
  cl::Buffer data_buf_, bins_;
  cl::Kernel kernel_;
};

// ---------------------------------------------------------------------------------------
// Exclusive prefix sum of n ints: each workgroup scans a block of 2 * its size in local
// memory (up-sweep and down-sweep) and writes the block's total; the totals are scanned
// the same way, level by level, and added back to the blocks below.
constexpr char kScanSource[] = R"(
kernel void scan_blocks(global const int* in, global int* out, global int* totals, local int* tmp) {
  int lid = get_local_id(0), pairs = get_local_size(0), size = 2 * pairs;
  int base = get_group_id(0) * size;
  tmp[2 * lid] = in[base + 2 * lid];
  tmp[2 * lid + 1] = in[base + 2 * lid + 1];
  int step = 1;
  for (int active = pairs; active > 0; active >>= 1) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < active) tmp[step * (2 * lid + 2) - 1] += tmp[step * (2 * lid + 1) - 1];
    step <<= 1;
  }
  if (lid == 0) {
    totals[get_group_id(0)] = tmp[size - 1];
    tmp[size - 1] = 0;
  }
  for (int active = 1; active < size; active <<= 1) {
    step >>= 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < active) {
      int left = step * (2 * lid + 1) - 1, right = step * (2 * lid + 2) - 1;
      int carry = tmp[left];
      tmp[left] = tmp[right];
      tmp[right] += carry;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  out[base + 2 * lid] = tmp[2 * lid];
  out[base + 2 * lid + 1] = tmp[2 * lid + 1];
}

kernel void add_block_offsets(global int* data, global const int* offsets) {
  int base = get_group_id(0) * 2 * get_local_size(0) + 2 * get_local_id(0);
  int offset = offsets[get_group_id(0)];
  data[base] += offset;
  data[base + 1] += offset;
}
)";

class Scan : public App {
 public:
  static constexpr size_t kGroupSize = 128, kBlock = 2 * kGroupSize;
  explicit Scan(size_t n) : in_(n) {
    std::mt19937 rng(10);
    std::uniform_int_distribution<int> value(-100, 100);
    for (int& v : in_) v = value(rng);
    in_buf_ = upload(p, in_);
    // levels_[0] holds the result; levels_[i + 1] the block totals of levels_[i], each
    // padded with zeros to whole blocks; the last level is one block.
    for (size_t count = (n + kBlock - 1) / kBlock * kBlock;;
         count = (count / kBlock + kBlock - 1) / kBlock * kBlock) {
      std::vector<int> zeros(count);
      levels_.push_back(upload(p, zeros));
      counts_.push_back(count);
      if (count == kBlock) break;
    }
    levels_.push_back(cl::Buffer(p.context, CL_MEM_READ_WRITE, 4));  // the grand total
    cl::Program program = build(p, kScanSource);
    scan_ = cl::Kernel(program, "scan_blocks");
    add_ = cl::Kernel(program, "add_block_offsets");
    scan_.setArg(3, cl::Local(kBlock * 4));
  }
  std::vector<cl::Event> run() override {
    std::vector<cl::Event> events;
    for (size_t i = 0; i < counts_.size(); ++i) {
      scan_.setArg(0, i == 0 ? in_buf_ : levels_[i]);
      scan_.setArg(1, levels_[i]);
      scan_.setArg(2, levels_[i + 1]);
      p.queue.enqueueNDRangeKernel(scan_, cl::NullRange, cl::NDRange(counts_[i] / 2),
                                   cl::NDRange(kGroupSize), nullptr, &events.emplace_back());
    }
    for (size_t i = counts_.size() - 1; i-- > 0;) {
      add_.setArg(0, levels_[i]);
      add_.setArg(1, levels_[i + 1]);
      p.queue.enqueueNDRangeKernel(add_, cl::NullRange, cl::NDRange(counts_[i] / 2),
                                   cl::NDRange(kGroupSize), nullptr, &events.emplace_back());
    }
    return events;
  }
  std::string check() override {
    std::vector<int> want(in_.size());
    for (size_t i = 1; i < in_.size(); ++i) want[i] = want[i - 1] + in_[i - 1];
    return compare("prefix", download<int>(p, levels_[0], want.size()), want);
  }

 private:
  std::vector<int> in_;
  std::vector<size_t> counts_;
  cl::Buffer in_buf_;
  std::vector<cl::Buffer> levels_;
  cl::Kernel scan_, add_;
};

// ---------------------------------------------------------------------------------------
// All-pairs gravitational acceleration of n bodies (softened), the bodies staged through
// local memory a workgroup's worth at a time.
constexpr char kNbodySource[] = R"(
kernel void accelerations(global const float* x, global const float* y, global const float* z,
                          global const float* mass, global float* ax, global float* ay, global float* az,
                          local float* tile, int n, float softening) {
  int i = get_global_id(0), lid = get_local_id(0), size = get_local_size(0);
  float px = x[i], py = y[i], pz = z[i];
  float sx = 0.0f, sy = 0.0f, sz = 0.0f;
  for (int base = 0; base < n; base += size) {
    tile[4 * lid] = x[base + lid];
    tile[4 * lid + 1] = y[base + lid];
    tile[4 * lid + 2] = z[base + lid];
    tile[4 * lid + 3] = mass[base + lid];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int j = 0; j < size; ++j) {
      float dx = tile[4 * j] - px, dy = tile[4 * j + 1] - py, dz = tile[4 * j + 2] - pz;
      float inv = rsqrt(dx * dx + dy * dy + dz * dz + softening);
      float s = tile[4 * j + 3] * inv * inv * inv;
      sx += dx * s;
      sy += dy * s;
      sz += dz * s;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  ax[i] = sx;
  ay[i] = sy;
  az[i] = sz;
}
)";

class Nbody : public App {
 public:
  static constexpr size_t kGroupSize = 128;
  static constexpr float kSoftening = 0.01f;
  explicit Nbody(size_t n) : coords_(3, std::vector<float>(n)), mass_(n) {
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> position(-1.0f, 1.0f), weight(0.5f, 1.5f);
    for (auto& c : coords_)
      for (float& v : c) v = position(rng);
    for (float& v : mass_) v = weight(rng);
    kernel_ = cl::Kernel(build(p, kNbodySource), "accelerations");
    for (int d = 0; d < 3; ++d) {
      kernel_.setArg(d, coords_buf_.emplace_back(upload(p, coords_[d])));
      kernel_.setArg(4 + d, acc_buf_.emplace_back(p.context, CL_MEM_WRITE_ONLY, n * 4));
    }
    mass_buf_ = upload(p, mass_);
    kernel_.setArg(3, mass_buf_);
    kernel_.setArg(7, cl::Local(kGroupSize * 16));
    kernel_.setArg(8, int(n));
    kernel_.setArg(9, kSoftening);
  }
  std::vector<cl::Event> run() override {
    std::vector<cl::Event> events(1);
    p.queue.enqueueNDRangeKernel(kernel_, cl::NullRange, cl::NDRange(mass_.size()),
                                 cl::NDRange(kGroupSize), nullptr, &events[0]);
    return events;
  }
  std::string check() override {
    const size_t n = mass_.size();
    std::vector<std::vector<double>> want(3, std::vector<double>(n)), magnitude = want;
    for (size_t i = 0; i < n; ++i)
      for (size_t j = 0; j < n; ++j) {
        double d[3], r2 = kSoftening;
        for (int k = 0; k < 3; ++k) {
          d[k] = double(coords_[k][j]) - coords_[k][i];
          r2 += d[k] * d[k];
        }
        const double s = mass_[j] / (r2 * std::sqrt(r2));
        for (int k = 0; k < 3; ++k) {
          want[k][i] += d[k] * s;
          magnitude[k][i] += std::fabs(d[k] * s);
        }
      }
    // rsqrt is within 2 ulp in OpenCL C, and the sums run in float.
    for (int k = 0; k < 3; ++k) {
      std::vector<double> got;
      for (float v : download<float>(p, acc_buf_[k], n)) got.push_back(v);
      if (std::string error =
              compare(std::string(1, "xyz"[k]).c_str(), got, want[k], 1e-4, &magnitude[k]);
          !error.empty())
        return error;
    }
    return {};
  }

 private:
  std::vector<std::vector<float>> coords_;
  std::vector<float> mass_;
  std::vector<cl::Buffer> coords_buf_, acc_buf_;
  cl::Buffer mass_buf_;
  cl::Kernel kernel_;
};

// ---------------------------------------------------------------------------------------
struct AppInfo {
  const char* name;
  size_t bench_size;  // runs for 20-500 ms per run on Ventus (docs/performance.md)
  size_t check_size;  // `--check`: a second or less on Ventus
  std::function<std::unique_ptr<App>(size_t)> make;
};

template <typename T>
std::function<std::unique_ptr<App>(size_t)> maker() {
  return [](size_t size) { return std::make_unique<T>(size); };
}

const std::vector<AppInfo>& apps() {
  static const std::vector<AppInfo> list{
      {"jacobi2d", 512, 64, maker<Jacobi>()},
      {"convolution1d", 1 << 18, 4096, maker<Convolution>()},
      {"reduce", 1 << 22, 1 << 14, maker<Reduce>()},
      {"bitonic_sort", 1 << 15, 1 << 10, maker<BitonicSort>()},
      {"matmul_tiled", 256, 32, maker<Matmul>()},
      {"spmv_csr", 1 << 16, 2048, maker<Spmv>()},
      {"bfs", 1 << 17, 4096, maker<Bfs>()},
      {"histogram", 1 << 19, 1 << 15, maker<Histogram>()},
      {"scan", 1 << 20, 1 << 16, maker<Scan>()},
      {"nbody", 2048, 256, maker<Nbody>()},
  };
  return list;
}

double kernel_seconds(const std::vector<cl::Event>& events) {
  cl_ulong ns = 0;
  for (const cl::Event& e : events)
    ns += e.getProfilingInfo<CL_PROFILING_COMMAND_END>() -
          e.getProfilingInfo<CL_PROFILING_COMMAND_START>();
  return double(ns) * 1e-9;
}

void measure(benchmark::State& state, const AppInfo& info) {
  std::unique_ptr<App> app = info.make(size_t(state.range(0)));
  // One run before timing: the kernels are compiled and the result is checked, so that no
  // wrong result is ever timed.
  app->reset();
  cl::WaitForEvents(app->run());
  if (std::string error = app->check(); !error.empty()) {
    state.SkipWithError(error.c_str());
    return;
  }
  double wall = 0, kernels = 0;
  for (auto _ : state) {
    app->reset();
    const auto start = std::chrono::steady_clock::now();
    std::vector<cl::Event> events = app->run();
    platform().queue.finish();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double kernel = kernel_seconds(events);
    state.SetIterationTime(kernel);
    wall += seconds;
    kernels += double(events.size());
  }
  if (std::string error = app->check(); !error.empty()) state.SkipWithError(error.c_str());
  const double runs = double(state.iterations());
  state.counters["wall_ms"] = wall / runs * 1e3;
  state.counters["launches"] = kernels / runs;
}

std::string describe(const cl::Error& e) {
  return std::string(e.what()) + " failed: " + std::to_string(e.err());
}

void run_app(benchmark::State& state, const AppInfo& info) {
  try {
    measure(state, info);
  } catch (const cl::Error& e) {
    state.SkipWithError(describe(e).c_str());
  }
}

// `--check`: every application once at its small size; prints one line each and fails
// when any result is wrong.
int check_all() {
  int failures = 0;
  for (const AppInfo& info : apps()) {
    std::string error;
    try {
      std::unique_ptr<App> app = info.make(info.check_size);
      app->reset();
      cl::WaitForEvents(app->run());
      error = app->check();
    } catch (const cl::Error& e) {
      error = describe(e);
    }
    std::printf("%-14s %s\n", info.name, error.empty() ? "PASS" : ("FAIL: " + error).c_str());
    failures += !error.empty();
  }
  return failures ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    platform();
  } catch (const cl::Error& e) {
    std::fprintf(stderr, "bench_apps: no OpenCL device (%s; is OCL_ICD_VENDORS set?)\n",
                 describe(e).c_str());
    return 1;
  }
  if (argc == 2 && std::strcmp(argv[1], "--check") == 0) return check_all();
  for (const AppInfo& info : apps())
    benchmark::RegisterBenchmark(info.name, run_app, info)
        ->Arg(int64_t(info.bench_size))
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
  // Which platform ran is part of the output (OCL_ICD_VENDORS may list several).
  benchmark::AddCustomContext("opencl_device", platform().device.getInfo<CL_DEVICE_NAME>());
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
