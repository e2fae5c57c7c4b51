// libFuzzer target: any bytes as a timing configuration file (docs/timing.md). The parser
// must accept it or throw ventus::Error; a configuration it accepts must run a small kernel
// (branches, a loop, loads and stores to global and local memory, a barrier, a divide) to
// its end with the functional mode's results, however odd its sizes and latencies.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "ventus/asm.h"
#include "ventus/device.h"
#include "ventus/elf.h"
#include "ventus/error.h"
#include "ventus/timing.h"

namespace {

constexpr const char* kKernel = R"(
    li t4, 8
    vsetvli t4, t4, e32, m1, ta, ma
    csrr s1, wid
    csrr s2, lds
    li a0, 0x90000000
    slli t1, s1, 5
    add a1, a0, t1
    vid.v v1
    vadd.vx v1, v1, s1
    li t0, 3
.Lloop:
    vse32.v v1, (a1)
    vle32.v v2, (a1)
    vadd.vv v1, v1, v2
    addi t0, t0, -1
    bnez t0, .Lloop
    slli t2, s1, 2
    add t2, t2, s2
    sw s1, 0(t2)
    barrier x0, x0, 0
    lw t3, 0(s2)
    li t5, 7
    divu t3, s1, t5
    add t3, t3, s1
    sw t3, 256(a0)
    addi a2, a1, 512
    vse32.v v1, (a2)
    endprg x0, x0, x0
)";

// The kernel's memory after a launch with `config` (nullptr: functional).
std::vector<uint32_t> run(const ventus::timing::Config* config) {
  ventus::assembler::Options options;
  options.start_files = false;
  static const ventus::elf::Image image =
      ventus::assembler::assemble({{"kernel.s", kKernel}}, options);
  ventus::sim::DeviceConfig device_config;
  device_config.num_sms = 1;
  device_config.instruction_budget = 100'000;
  ventus::sim::Device device(device_config);
  for (const ventus::elf::Section& s : image.sections) {
    if (!s.alloc || s.size == 0) continue;
    device.memory().map(s.address, s.size);
    if (!s.nobits) device.memory().write(s.address, s.bytes.data(), s.bytes.size());
  }
  device.memory().map(ventus::sim::kBufferBase, 4096);
  ventus::sim::KernelLaunch launch;
  launch.kernel_name = "fuzz";
  launch.warps_per_workgroup = 4;
  launch.threads_per_warp = 8;
  launch.lds_bytes = 1024;
  ventus::sim::RunOptions run_options;
  run_options.timing = config;
  const ventus::sim::LaunchResult r = device.run(launch, run_options);
  if (!r.ok() || (config && (!r.timing || r.timing->cycles == 0))) std::abort();
  std::vector<uint32_t> words(1024);
  device.memory().read(ventus::sim::kBufferBase, words.data(), 4096);
  return words;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ventus::timing::Config config;
  try {
    config = ventus::timing::parse(std::string_view(reinterpret_cast<const char*>(data), size),
                                   "<fuzz input>");
  } catch (const ventus::Error&) {
    return 0;
  }
  // Sizes the fuzzer can reach are valid but would only measure the allocator.
  if (uint64_t{config.icache_sets} * config.icache_ways > 4096 ||
      uint64_t{config.dcache_sets} * config.dcache_ways > 4096 ||
      uint64_t{config.l2_sets} * config.l2_ways > 4096)
    return 0;
  // So are waits of thousands of cycles: each I-cache miss is then thousands of refetches.
  for (const ventus::timing::ParameterInfo& p : ventus::timing::parameters())
    if (p.unit == "cycles" && config.*p.member > 4096) return 0;
  static const std::vector<uint32_t> expected = run(nullptr);
  if (run(&config) != expected) std::abort();
  return 0;
}
