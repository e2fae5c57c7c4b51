// ventus bench: run the built-in benchmark kernels (bench/suite.h), check them against host
// references and report the simulation speed.
#ifdef VENTUS_HAVE_BENCH_SUITE
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <optional>

#include "commands.h"
#include "suite.h"
#include "timing_report.h"
#include "ventus/error.h"

namespace {

struct BenchArgs {
  std::vector<std::string> kernels;
  uint32_t scale = 1;
  uint32_t threads = 32;
  unsigned host_threads = 1;
  uint32_t sms = ventus::sim::DeviceConfig{}.num_sms;
  uint32_t repeat = 1;
  bool memcheck = false;
  std::vector<std::string> jit_modes;  // each kernel runs once per mode, in this order
  ventus::cli::TimingArgs timing;
};

// The fastest of `repeat` runs (each a launch) of a workload on its device.
ventus::rt::Stats fastest_run(ventus::bench::Workload& workload, uint32_t repeat) {
  ventus::rt::Stats best;
  for (uint32_t i = 0; i < repeat; ++i) {
    const ventus::rt::Stats s = workload.run();
    if (i == 0 || s.seconds < best.seconds) best = s;
  }
  return best;
}

void run(const BenchArgs& a) {
  const std::vector<std::string> kernels =
      a.kernels.empty() ? ventus::bench::workload_names() : a.kernels;
  ventus::sim::DeviceConfig config;
  config.host_threads = a.host_threads;
  config.num_sms = a.sms;
  ventus::bench::SuiteOptions options;
  options.scale = a.scale;
  options.threads_per_warp = a.threads;
  ventus::bench::check_options(options);  // before anything is printed or allocated
  ventus::cli::TimingSession timing(a.timing, {}, ventus::cli::TimingSession::Entries::Launches);
  ventus::cli::print("{} SMs, {} threads per warp, {} host thread(s), scale {}{}\n", config.num_sms,
                     a.threads, a.host_threads, a.scale,
                     timing.config() ? ", timing " + timing.config()->preset : std::string());
  // No --jit: one run per kernel in the mode VENTUS_JIT names.
  std::vector<std::optional<ventus::sim::JitMode>> jit_modes;
  for (const std::string& mode : a.jit_modes)
    jit_modes.push_back(ventus::sim::parse_jit_mode(mode));
  if (jit_modes.empty()) jit_modes.push_back(std::nullopt);
  const bool jit_column = !a.jit_modes.empty();
  ventus::cli::print("{:<9} {}{:<28} {:>14} {:>16} {:>10} {:>14}", "kernel",
                     jit_column ? fmt::format("{:<6}", "jit") : "", "work", "warp-insn",
                     "thread-insn", "seconds", "M thread-insn/s");
  // With --timing each kernel runs again on the cycle model: its cycles, and the speed in
  // simulated warp-instructions per host second both ways (docs/performance.md).
  if (timing.config())
    ventus::cli::print(" {:>12} {:>6} {:>10} {:>14} {:>14}", "cycles", "IPC", "t-seconds",
                       "M warp-insn/s", "t-M warp-insn/s");
  ventus::cli::print("\n");
  bool all_correct = true;
  // The compiler ready before the first launch, whose time is reported.
  for (const std::optional<ventus::sim::JitMode>& mode : jit_modes)
    ventus::sim::prepare_translation(mode);
  for (const std::string& name : kernels) {
    for (size_t m = 0; m < jit_modes.size(); ++m) {
      ventus::rt::Device device(config);
      device.set_memcheck(a.memcheck);
      device.set_jit(jit_modes[m]);
      auto workload = ventus::bench::make_workload(name, device, options);
      const ventus::rt::Stats best = fastest_run(*workload, a.repeat);
      std::string verdict = "ok";
      try {
        workload->check();
      } catch (const ventus::Error& e) {
        verdict = fmt::format("WRONG: {}", e.what());
        all_correct = false;
      }
      ventus::cli::print("{:<9} {}{:<28} {:>14} {:>16} {:>10.4f} {:>14.1f}", name,
                         jit_column ? fmt::format("{:<6}", a.jit_modes[m]) : "",
                         workload->work_description(), best.warp_instructions,
                         best.thread_instructions, best.seconds,
                         best.thread_instructions / std::max(best.seconds, 1e-9) / 1e6);
      if (timing.config() && m == 0) {
        // A fresh device and workload: the same inputs as the functional run had.
        ventus::rt::Device timed_device(config);
        timed_device.set_timing(*timing.config());
        timed_device.set_timeline(timing.timeline());
        auto timed = ventus::bench::make_workload(name, timed_device, options);
        ventus::rt::Stats timed_best;
        std::optional<ventus::timing::LaunchTiming> launch_timing;
        for (uint32_t i = 0; i < a.repeat; ++i) {
          timing.begin_launch(name);
          const ventus::rt::Stats s = timed->run();
          launch_timing = timed_device.last_timing();
          timing.record(name, *launch_timing);
          if (i == 0 || s.seconds < timed_best.seconds) timed_best = s;
        }
        try {
          timed->check();
        } catch (const ventus::Error& e) {
          verdict = fmt::format("WRONG with timing: {}", e.what());
          all_correct = false;
        }
        ventus::cli::print(" {:>12} {:>6.3f} {:>10.4f} {:>14.1f} {:>14.1f}", launch_timing->cycles,
                           launch_timing->ipc(), timed_best.seconds,
                           best.warp_instructions / std::max(best.seconds, 1e-9) / 1e6,
                           timed_best.warp_instructions / std::max(timed_best.seconds, 1e-9) / 1e6);
      }
      ventus::cli::print("  {}\n", verdict);
    }
  }
  timing.finish();
  if (!all_correct) throw CLI::RuntimeError(1);
}

ventus::cli::Registration reg(50, [](CLI::App& app) {
  auto a = std::make_shared<BenchArgs>();
  CLI::App* sub = app.add_subcommand(
      "bench", "Run the built-in benchmark kernels, checked against host results");
  sub->add_option("-k,--kernel", a->kernels,
                  fmt::format("kernels to run ({}; default: all)",
                              fmt::join(ventus::bench::workload_names(), " ")));
  ventus::cli::add_number(sub, "--scale", a->scale,
                          fmt::format("work size multiplier (1 to {})", ventus::bench::kMaxScale),
                          1u, ventus::bench::kMaxScale);
  ventus::cli::add_number(sub, "--threads", a->threads,
                          "threads per warp (1-32; reduce needs a power of two)", 1u, 32u);
  ventus::cli::add_number(sub, "--host-threads", a->host_threads,
                          "host threads running workgroup slots", 1u);
  ventus::cli::add_number(sub, "--sms", a->sms, "streaming multiprocessors", 1u);
  ventus::cli::add_number(sub, "--repeat", a->repeat,
                          "launches per kernel; the fastest is reported", 1u);
  sub->add_flag("--memcheck", a->memcheck,
                "run with the memory checker (docs/driver.md): its cost, and that the kernels "
                "make no invalid access");
  sub->add_option("--jit", a->jit_modes,
                  "translating tier: off, on (compiled in the background), force or force-quick "
                  "(every block at once, compiled as hot blocks end up or as they start); several "
                  "(--jit off,on) run each kernel "
                  "once per mode (default: VENTUS_JIT, else on)")
      ->delimiter(',')
      ->check(CLI::IsMember({"off", "on", "force", "force-quick"}));
  ventus::cli::add_timing_options(sub, a->timing);
  sub->callback([a] { run(*a); });
});

}  // namespace
#endif  // VENTUS_HAVE_BENCH_SUITE
