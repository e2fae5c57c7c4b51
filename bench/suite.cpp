// The benchmark kernels with their inputs and host references (suite.h).
#include "suite.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <functional>
#include <map>
#include <utility>

#include "ventus/error.h"

namespace ventus::bench {

extern const std::pair<std::string_view, std::string_view> kEmbeddedSources[];
extern const unsigned kEmbeddedSourceCount;

std::string_view embedded_source(std::string_view file_name) {
  for (unsigned i = 0; i < kEmbeddedSourceCount; ++i)
    if (kEmbeddedSources[i].first == file_name) return kEmbeddedSources[i].second;
  throw Error(fmt::format("no embedded kernel source '{}'", file_name));
}

void check_options(const SuiteOptions& options) {
  if (options.scale == 0 || options.scale > kMaxScale)
    throw Error(
        fmt::format("bench: scale {} (1 to {}: the work sizes grow with the scale, and "
                    "at {} the largest workload needs 768 MiB of device memory)",
                    options.scale, kMaxScale, kMaxScale));
}

namespace {

// splitmix64: fixed inputs on every machine.
class Random {
 public:
  explicit Random(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  float uniform() {
    return static_cast<float>(next() >> 40) / static_cast<float>(1 << 23) - 1.0f;
  }  // [-1, 1)
  int32_t integer(int32_t lo, int32_t hi) {
    return lo + static_cast<int32_t>(next() % static_cast<uint64_t>(hi - lo + 1));
  }

 private:
  uint64_t state_;
};

template <typename T>
void compare(std::string_view kernel, const std::vector<T>& expected,
             const std::vector<T>& actual) {
  if (expected.size() != actual.size())
    throw Error(fmt::format("{}: {} results, expected {}", kernel, actual.size(), expected.size()));
  for (size_t i = 0; i < expected.size(); ++i) {
    if (std::bit_cast<uint32_t>(expected[i]) != std::bit_cast<uint32_t>(actual[i]))
      throw Error(fmt::format("{}: element {}: expected {} (0x{:08x}), got {} (0x{:08x})", kernel,
                              i, expected[i], std::bit_cast<uint32_t>(expected[i]), actual[i],
                              std::bit_cast<uint32_t>(actual[i])));
  }
}

class KernelWorkload : public Workload {
 public:
  KernelWorkload(rt::Device& device, const SuiteOptions& options, std::string name,
                 std::string_view source_file)
      : device_(device),
        name_(std::move(name)),
        program_(rt::Program::from_assembly(
            {{std::string(source_file), std::string(embedded_source(source_file))}})) {
    check_options(options);
    launch_options_.threads_per_warp = options.threads_per_warp;
    launch_options_.private_bytes_per_thread = 0;  // the kernels keep everything in registers
    launch_options_.print_buffer_bytes = 0;
    scale_ = options.scale;
    threads_ = options.threads_per_warp;
  }
  std::string name() const override { return name_; }

 protected:
  rt::Device& device_;
  std::string name_;
  rt::Program program_;
  rt::LaunchOptions launch_options_;
  uint32_t scale_ = 1;
  uint32_t threads_ = 32;
};

class Saxpy : public KernelWorkload {
 public:
  Saxpy(rt::Device& d, const SuiteOptions& o)
      : KernelWorkload(d, o, "saxpy", "saxpy.s"), n_((1u << 18) * scale_), x_(n_), y_(n_) {
    Random r(1);
    for (uint32_t i = 0; i < n_; ++i) x_[i] = r.uniform(), y_[i] = r.uniform();
    x_buf_.emplace(rt::Buffer::from(device_, x_));
    y_buf_.emplace(rt::Buffer::from(device_, y_));
  }
  std::string work_description() const override { return fmt::format("n={}", n_); }
  uint64_t work_items() const override { return n_; }
  rt::Stats run() override {
    y_buf_->upload(std::span<const float>(y_));
    return rt::launch(device_, program_, "saxpy", rt::Range(n_), rt::Range(8 * threads_),
                      {*x_buf_, *y_buf_, kA, static_cast<int32_t>(n_)}, launch_options_);
  }
  void check() const override {
    std::vector<float> expected(n_);
    for (uint32_t i = 0; i < n_; ++i) expected[i] = std::fma(kA, x_[i], y_[i]);
    compare(name_, expected, y_buf_->download<float>());
  }

 private:
  static constexpr float kA = 2.5f;
  uint32_t n_;
  std::vector<float> x_, y_;
  std::optional<rt::Buffer> x_buf_, y_buf_;
};

class Vecadd : public KernelWorkload {
 public:
  Vecadd(rt::Device& d, const SuiteOptions& o)
      : KernelWorkload(d, o, "vecadd", "vecadd.s"), n_((1u << 18) * scale_), a_(n_), b_(n_) {
    Random r(2);
    for (uint32_t i = 0; i < n_; ++i) a_[i] = r.uniform(), b_[i] = r.uniform();
    a_buf_.emplace(rt::Buffer::from(device_, a_));
    b_buf_.emplace(rt::Buffer::from(device_, b_));
    c_buf_.emplace(device_, 4ull * n_);
  }
  std::string work_description() const override { return fmt::format("n={}", n_); }
  uint64_t work_items() const override { return n_; }
  rt::Stats run() override {
    return rt::launch(device_, program_, "vecadd", rt::Range(n_), rt::Range(8 * threads_),
                      {*a_buf_, *b_buf_, *c_buf_, static_cast<int32_t>(n_)}, launch_options_);
  }
  void check() const override {
    std::vector<float> expected(n_);
    for (uint32_t i = 0; i < n_; ++i) expected[i] = a_[i] + b_[i];
    compare(name_, expected, c_buf_->download<float>());
  }

 private:
  uint32_t n_;
  std::vector<float> a_, b_;
  std::optional<rt::Buffer> a_buf_, b_buf_, c_buf_;
};

class Reduce : public KernelWorkload {
 public:
  Reduce(rt::Device& d, const SuiteOptions& o)
      : KernelWorkload(d, o, "reduce", "reduce.s"),
        n_((1u << 18) * scale_),
        local_(8 * threads_),
        in_(n_) {
    if (!std::has_single_bit(local_))
      throw Error(fmt::format("reduce: the workgroup size 8 x {} threads must be a power of two",
                              threads_));
    launch_options_.local_memory_bytes = 4 * local_;
    Random r(3);
    for (uint32_t i = 0; i < n_; ++i) in_[i] = r.integer(-1000, 1000);
    in_buf_.emplace(rt::Buffer::from(device_, in_));
    partial_buf_.emplace(device_, 4ull * (n_ / local_));
  }
  std::string work_description() const override {
    return fmt::format("n={}, groups of {}", n_, local_);
  }
  uint64_t work_items() const override { return n_; }
  rt::Stats run() override {
    return rt::launch(device_, program_, "reduce", rt::Range(n_), rt::Range(local_),
                      {*in_buf_, *partial_buf_}, launch_options_);
  }
  void check() const override {
    std::vector<int32_t> expected(n_ / local_, 0);
    for (uint32_t i = 0; i < n_; ++i)
      expected[i / local_] = static_cast<int32_t>(static_cast<uint32_t>(expected[i / local_]) +
                                                  static_cast<uint32_t>(in_[i]));
    compare(name_, expected, partial_buf_->download<int32_t>());
  }

 private:
  uint32_t n_, local_;
  std::vector<int32_t> in_;
  std::optional<rt::Buffer> in_buf_, partial_buf_;
};

class Matmul : public KernelWorkload {
 public:
  Matmul(rt::Device& d, const SuiteOptions& o)
      : KernelWorkload(d, o, "matmul", "matmul.s"), n_(side(scale_)), a_(n_ * n_), b_(n_ * n_) {
    Random r(4);
    for (float& v : a_) v = r.uniform();
    for (float& v : b_) v = r.uniform();
    a_buf_.emplace(rt::Buffer::from(device_, a_));
    b_buf_.emplace(rt::Buffer::from(device_, b_));
    c_buf_.emplace(device_, 4ull * n_ * n_);
  }
  // The work grows as n^3: the side grows with the cube root of the scale (a multiple of 8,
  // the local size).
  static uint32_t side(uint32_t scale) {
    return std::max<uint32_t>(
        8, static_cast<uint32_t>(std::lround(128.0 * std::cbrt(scale) / 8.0)) * 8);
  }
  std::string work_description() const override { return fmt::format("{}x{} matrices", n_, n_); }
  uint64_t work_items() const override { return uint64_t{n_} * n_; }
  rt::Stats run() override {
    return rt::launch(device_, program_, "matmul", rt::Range(n_, n_), rt::Range(8, 8),
                      {*a_buf_, *b_buf_, *c_buf_, static_cast<int32_t>(n_)}, launch_options_);
  }
  void check() const override {
    std::vector<float> expected(size_t{n_} * n_);
    for (uint32_t y = 0; y < n_; ++y)
      for (uint32_t x = 0; x < n_; ++x) {
        float acc = 0.0f;
        for (uint32_t k = 0; k < n_; ++k) acc = std::fma(a_[y * n_ + k], b_[k * n_ + x], acc);
        expected[y * n_ + x] = acc;
      }
    compare(name_, expected, c_buf_->download<float>());
  }

 private:
  uint32_t n_;
  std::vector<float> a_, b_;
  std::optional<rt::Buffer> a_buf_, b_buf_, c_buf_;
};

class Collatz : public KernelWorkload {
 public:
  Collatz(rt::Device& d, const SuiteOptions& o)
      : KernelWorkload(d, o, "collatz", "collatz.s"), n_((1u << 16) * scale_) {
    steps_buf_.emplace(device_, 4ull * n_);
  }
  std::string work_description() const override {
    return fmt::format("n={}, at most {} steps", n_, kMaxSteps);
  }
  uint64_t work_items() const override { return n_; }
  rt::Stats run() override {
    return rt::launch(device_, program_, "collatz", rt::Range(n_), rt::Range(8 * threads_),
                      {*steps_buf_, n_, kMaxSteps}, launch_options_);
  }
  void check() const override {
    std::vector<uint32_t> expected(n_);
    for (uint32_t i = 0; i < n_; ++i) {
      uint32_t x = i + 1, steps = 0;
      while (x != 1 && steps < kMaxSteps) {
        x = (x & 1) ? 3 * x + 1 : x / 2;  // 32-bit arithmetic, as the kernel
        ++steps;
      }
      expected[i] = steps;
    }
    compare(name_, expected, steps_buf_->download<uint32_t>());
  }

 private:
  static constexpr uint32_t kMaxSteps = 500;
  uint32_t n_;
  std::optional<rt::Buffer> steps_buf_;
};

// The loop that scripts/bench_vs_qemu.sh also runs on qemu-riscv32: 4 vector and 2 scalar
// instructions per round, no memory access and no divergence. Workgroups of 4 warps, 2 per
// scale step, so that the default 2 SMs both have work.
class Aluloop : public KernelWorkload {
 public:
  Aluloop(rt::Device& d, const SuiteOptions& o)
      : KernelWorkload(d, o, "aluloop", "aluloop.s"), n_(8 * threads_ * scale_) {
    out_buf_.emplace(device_, 4ull * n_);
  }
  std::string work_description() const override {
    return fmt::format("n={}, {} rounds", n_, kIterations);
  }
  uint64_t work_items() const override { return n_; }
  rt::Stats run() override {
    return rt::launch(device_, program_, "aluloop", rt::Range(n_), rt::Range(4 * threads_),
                      {*out_buf_, kIterations}, launch_options_);
  }
  void check() const override {
    std::vector<uint32_t> expected(n_);
    for (uint32_t i = 0; i < n_; ++i) expected[i] = rounds(i, kIterations);
    compare(name_, expected, out_buf_->download<uint32_t>());
  }
  // b after `iterations` rounds from a = i, b = i + 7 (32-bit arithmetic, as the kernel).
  static uint32_t rounds(uint32_t i, uint32_t iterations) {
    uint32_t a = i, b = i + 7;
    for (uint32_t k = 0; k < iterations; ++k) {
      a += b;
      b ^= a;
      b += a << 3;
    }
    return b;
  }

 private:
  static constexpr uint32_t kIterations = 65536;
  uint32_t n_;
  std::optional<rt::Buffer> out_buf_;
};

using Factory = std::function<std::unique_ptr<Workload>(rt::Device&, const SuiteOptions&)>;

const std::vector<std::pair<std::string, Factory>>& factories() {
  static const std::vector<std::pair<std::string, Factory>> list = {
      {"saxpy", [](rt::Device& d, const SuiteOptions& o) { return std::make_unique<Saxpy>(d, o); }},
      {"vecadd",
       [](rt::Device& d, const SuiteOptions& o) { return std::make_unique<Vecadd>(d, o); }},
      {"reduce",
       [](rt::Device& d, const SuiteOptions& o) { return std::make_unique<Reduce>(d, o); }},
      {"matmul",
       [](rt::Device& d, const SuiteOptions& o) { return std::make_unique<Matmul>(d, o); }},
      {"collatz",
       [](rt::Device& d, const SuiteOptions& o) { return std::make_unique<Collatz>(d, o); }},
      {"aluloop",
       [](rt::Device& d, const SuiteOptions& o) { return std::make_unique<Aluloop>(d, o); }},
  };
  return list;
}

}  // namespace

std::vector<std::string> workload_names() {
  std::vector<std::string> names;
  for (const auto& [name, factory] : factories()) names.push_back(name);
  return names;
}

std::unique_ptr<Workload> make_workload(std::string_view name, rt::Device& device,
                                        const SuiteOptions& options) {
  for (const auto& [n, factory] : factories())
    if (n == name) return factory(device, options);
  throw Error(fmt::format("no benchmark kernel '{}' (kernels: {})", name,
                          fmt::join(workload_names(), ", ")));
}

}  // namespace ventus::bench
