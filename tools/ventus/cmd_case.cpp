// ventus case: replay hardware test cases (../shared/cases format) and check their results.
// Built when the driver (and with it the simulator) is: VENTUS_HAVE_DRIVER.
#ifdef VENTUS_HAVE_DRIVER
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "commands.h"
#include "timing_report.h"
#include "ventus/case.h"
#include "ventus/elf.h"
#include "ventus/error.h"

namespace {

namespace fs = std::filesystem;

// Where --all looks without a folder: $VENTUS_CASES_DIR, else the build's configured
// folder, else ../shared/cases (next to the checkout).
fs::path default_cases_root() {
  if (const char* env = std::getenv("VENTUS_CASES_DIR"); env && *env) return env;
#ifdef VENTUS_CASES_DIR
  return VENTUS_CASES_DIR;
#else
  return "../shared/cases";
#endif
}

struct CaseArgs {
  std::vector<std::string> dirs;
  bool all = false;
  unsigned host_threads = 1;
  size_t max_mismatches = 8;
  std::string program;  // run this ELF's kernels instead of the case's code
  bool memcheck = false;
  ventus::cli::TimingArgs timing;
};

// Folders under root that hold a case.txt, sorted by name.
std::vector<fs::path> cases_under(const fs::path& root) {
  std::error_code ec;
  if (!fs::is_directory(root, ec))
    throw ventus::Error(fmt::format("{}: not a directory{}", root.string(),
                                    ec ? " (" + ec.message() + ")" : std::string()));
  std::vector<fs::path> dirs;
  // An entry that cannot be examined (a looping link, no permission) is not a case folder.
  for (const fs::directory_entry& e : fs::directory_iterator(root))
    if (e.is_directory(ec) && fs::exists(e.path() / "case.txt", ec)) dirs.push_back(e.path());
  std::sort(dirs.begin(), dirs.end());
  if (dirs.empty())
    throw ventus::Error(fmt::format("{}: no case folders (with a case.txt) inside", root.string()));
  return dirs;
}

// The PASS line, or the FAIL line and the first mismatches.
void print_result(const ventus::cases::Case& c, const ventus::cases::CaseResult& r,
                  const CaseArgs& a) {
  const ventus::sim::LaunchStats& s = r.stats;
  if (r.passed) {
    ventus::cli::print(
        "PASS {}: {} words checked, {} launch(es), {} warp-insn, {} thread-insn, {} divergences, "
        "{} barriers, {:.3f} ms\n",
        c.name, r.words_checked, c.launches.size(), s.warp_instructions, s.thread_instructions,
        s.divergences, s.barriers, s.seconds * 1e3);
    return;
  }
  if (r.fault) {
    ventus::cli::print("FAIL {}: fault: {}\n", c.name, r.fault->describe());
  } else {
    ventus::cli::print("FAIL {}: {} of {} words differ\n", c.name, r.mismatches.size(),
                       r.words_checked);
  }
  const size_t shown = std::min(r.mismatches.size(), a.max_mismatches);
  for (size_t i = 0; i < shown; ++i) {
    const ventus::cases::Mismatch& m = r.mismatches[i];
    ventus::cli::print("  0x{:08x}: expected {:08x}, got {}\n", m.address, m.expected,
                       m.actual ? fmt::format("{:08x}", *m.actual) : std::string("(unmapped)"));
  }
  if (r.mismatches.size() > shown)
    ventus::cli::print("  ... {} more\n", r.mismatches.size() - shown);
}

// Runs one case; prints its PASS/FAIL line (and the first mismatches), then with timing the
// summary ending in "cycles N". True when it passed.
bool run_one(const fs::path& dir, const CaseArgs& a, ventus::cli::TimingSession& timing) {
  ventus::cases::Case c = ventus::cases::load_case(dir);
  if (!a.program.empty())
    c = ventus::cases::with_program(
        c, ventus::elf::read(ventus::read_input_bytes(a.program, ventus::kToolInput), a.program),
        dir / "object.dump");
  ventus::sim::DeviceConfig config;
  config.host_threads = a.host_threads;
  ventus::sim::Device device(config);
  ventus::sim::RunOptions options;
  options.timing = timing.config();
  options.timeline = timing.timeline();
  const ventus::sim::Memcheck memcheck;  // the allocations are the case's buffers
  if (a.memcheck) options.memcheck = &memcheck;
  const ventus::cases::CaseResult r =
      ventus::cases::run_case(c, device, options, timing.elapsed_cycles());
  print_result(c, r, a);
  if (r.timing) {
    timing.record(c.name, *r.timing);
    ventus::cli::print("{}", ventus::cli::timing_summary(*r.timing, *timing.config()));
  }
  return r.passed;
}

void run(const CaseArgs& a) {
  std::vector<std::string> inputs;
  if (!a.program.empty()) inputs.push_back(a.program);
  ventus::cli::TimingSession timing(a.timing, inputs, ventus::cli::TimingSession::Entries::Cases);
  std::vector<fs::path> dirs;
  if (a.all) {
    if (a.dirs.size() > 1) throw ventus::Error("--all takes at most one folder (the cases root)");
    dirs = cases_under(a.dirs.empty() ? default_cases_root() : fs::path(a.dirs[0]));
  } else {
    if (a.dirs.empty()) throw ventus::Error("give case folders, or --all [CASES_ROOT]");
    for (const std::string& d : a.dirs) dirs.emplace_back(d);
  }
  size_t failed = 0;
  for (const fs::path& dir : dirs) {
    // A case that cannot even run (a missing or unreadable file, no memory) fails alone:
    // the others still run, and their results are printed as they come.
    try {
      if (!run_one(dir, a, timing)) ++failed;
    } catch (const std::exception& e) {
      ventus::cli::print("FAIL {}: {}\n", dir.filename().string(), ventus::cli::error_text(e));
      ++failed;
    }
    std::fflush(stdout);
  }
  timing.finish();
  if (dirs.size() > 1)
    ventus::cli::print("{} of {} cases passed\n", dirs.size() - failed, dirs.size());
  if (failed != 0) throw CLI::RuntimeError(1);
}

ventus::cli::Registration reg(40, [](CLI::App& app) {
  auto a = std::make_shared<CaseArgs>();
  CLI::App* sub =
      app.add_subcommand("case", "Replay hardware test cases and check the expected words");
  sub->add_option("dirs", a->dirs, "case folders (with --all: the folder holding them)");
  sub->add_flag("--all", a->all,
                "run every case under CASES_ROOT (default: $VENTUS_CASES_DIR or the configured "
                "cases folder)");
  ventus::cli::add_number(sub, "--host-threads", a->host_threads,
                          "host threads running workgroup slots", 1u);
  sub->add_flag("--memcheck", a->memcheck,
                "fail a case whose kernels access memory outside its buffers or their "
                "workgroup's local or thread's private memory (docs/simulator.md)");
  ventus::cli::add_number(sub, "--max-mismatches", a->max_mismatches,
                          "mismatching words to show per case");
  sub->add_option("--program", a->program,
                  "run the kernels of this ELF (e.g. from `ventus cc object.cl`) on the case's "
                  "inputs instead of the case's own code");
  ventus::cli::add_timing_options(sub, a->timing);
  sub->footer(
      "With --timing every case also runs on the cycle model (docs/timing.md): after a case's\n"
      "PASS/FAIL line come a short summary (cycles, IPC, largest stall kinds, cache hit rates)\n"
      "and the line \"cycles N\", the cycles of the case's launches summed, counted as the\n"
      "hardware testbench counts them. With several cases (--all) each case's output ends with\n"
      "its own \"cycles N\" line, and the \"M of N cases passed\" line comes last.\n"
      "--stats-json lists each case's statistics and their total; --timeline lays the cases'\n"
      "launches one after another.");
  sub->callback([a] { run(*a); });
});

}  // namespace
#endif  // VENTUS_HAVE_DRIVER
