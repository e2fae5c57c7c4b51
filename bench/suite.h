// The benchmark kernels of `ventus bench` and bench_kernels (Google Benchmark): assembly
// kernels (examples/saxpy.s, examples/vecadd.s, bench/kernels/*.s) embedded at build time,
// with their inputs and host reference results.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ventus/runtime.h"

namespace ventus::bench {

struct SuiteOptions {
  uint32_t scale = 1;              // multiplies the work size
  uint32_t threads_per_warp = 32;  // wf_size of the launches
};

// The largest scale: vecadd then holds three buffers of 2^26 floats (768 MiB of the
// device's 1.75 GiB of buffer space) and as much again on the host.
inline constexpr uint32_t kMaxScale = 256;
// ventus::Error unless options describe workloads that fit (scale 1 to kMaxScale); the
// workloads check it before they allocate anything.
void check_options(const SuiteOptions& options);

// One kernel with its inputs on a device.
class Workload {
 public:
  virtual ~Workload() = default;
  virtual std::string name() const = 0;
  virtual std::string work_description() const = 0;  // e.g. "n=262144"
  virtual uint64_t work_items() const = 0;
  // Restores the inputs the kernel overwrites, then launches once.
  virtual rt::Stats run() = 0;
  // Compares the last run's output with the host reference; ventus::Error names the first
  // mismatching element.
  virtual void check() const = 0;
};

std::vector<std::string> workload_names();
std::unique_ptr<Workload> make_workload(std::string_view name, rt::Device& device,
                                        const SuiteOptions& options);

// The embedded source of an assembly file, by file name ("saxpy.s").
std::string_view embedded_source(std::string_view file_name);

}  // namespace ventus::bench
