// cc_vs_pocl_run: runs OpenCL C test specs (tests/cc_vs_pocl/kernels/*.cl) outside ctest.
//
//   cc_vs_pocl_run FILE.cl ...              compare pocl and ventus, print PASS/FAIL and times
//   cc_vs_pocl_run --pocl FILE.cl           run on pocl only
//   cc_vs_pocl_run --dump NAME[:N] FILE.cl  print the first N (default 16) elements of buffer
//                                           NAME after each configuration, from each runner
//   -O0 .. -O3, --threads T, --ventus-arg ARG (repeatable): the Ventus side's
//                                           optimisation level, warp width, extra compiler option
//   --stats                                 also print the warp and thread instructions the
//                                           Ventus side executed (all launches, every range)
#include <chrono>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "runner.h"
#include "ventus/error.h"

using namespace ventus::clspec;

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void dump(const Spec& spec, const Buffers& buffers, const std::string& runner,
          const std::string& name, size_t limit) {
  const std::optional<size_t> b = spec.find_buffer(name);
  if (!b) throw ventus::Error("no buffer '" + name + "'");
  const BufferSpec& buffer = spec.buffers[*b];
  const uint32_t size = buffer.type.scalar_bytes();
  const size_t scalars =
      std::min<size_t>(limit * buffer.type.components(), buffer.count * buffer.type.components());
  std::cout << runner << " " << name << ":";
  for (size_t i = 0; i < scalars; ++i)
    std::cout << (i % 8 ? " " : "\n  ")
              << format_scalar(buffer.type.scalar, buffers[*b].data() + i * size);
  std::cout << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  bool pocl_only = false;
  VentusOptions ventus_options;
  VentusOptions::Counts counts;
  bool stats = false;
  std::string dump_name;
  size_t dump_count = 16;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--pocl") {
      pocl_only = true;
    } else if (a.size() == 3 && a[0] == '-' && a[1] == 'O' && a[2] >= '0' && a[2] <= '3') {
      ventus_options.opt_level = a[2] - '0';
    } else if (a == "--stats") {
      stats = true;
      ventus_options.counts = &counts;
    } else if (a == "--threads" && i + 1 < argc) {
      ventus_options.threads_per_warp = static_cast<uint32_t>(std::stoul(argv[++i]));
    } else if (a == "--ventus-arg" && i + 1 < argc) {
      ventus_options.extra_args.push_back(argv[++i]);
    } else if (a == "--dump" && i + 1 < argc) {
      dump_name = argv[++i];
      const size_t colon = dump_name.find(':');
      if (colon != std::string::npos) {
        dump_count = std::stoul(dump_name.substr(colon + 1));
        dump_name.resize(colon);
      }
    } else if (a.starts_with("-")) {
      std::cerr << "usage: cc_vs_pocl_run [--pocl] [--dump NAME[:N]] [-O0..3] [--threads T] "
                   "[--ventus-arg ARG] [--stats] FILE.cl ...\n";
      return 2;
    } else {
      files.push_back(a);
    }
  }
  std::string why;
  std::unique_ptr<Runner> pocl = make_pocl_runner(&why);
  if (!pocl) {
    std::cerr << "cc_vs_pocl_run: pocl: " << why << "\n";
    return 1;
  }
  std::unique_ptr<Runner> ventus;
  if (!pocl_only) {
    ventus = make_ventus_runner(&why, ventus_options);
    if (!ventus) std::cerr << "cc_vs_pocl_run: ventus: " << why << " (pocl only)\n";
  }
  int failures = 0;
  for (const std::string& file : files) {
    try {
      const std::string source = read_text_file(file);
      const Spec spec = parse(source, file);
      std::vector<Runner*> runners = {pocl.get()};
      if (ventus) runners.push_back(ventus.get());
      std::vector<double> times(runners.size(), 0.0);
      std::vector<std::vector<Buffers>> results(runners.size());
      counts = {};
      for (size_t r = 0; r < runners.size(); ++r) {
        const auto start = std::chrono::steady_clock::now();
        runners[r]->compile(spec, source);
        for (size_t c = 0; c < spec.configurations(); ++c)
          results[r].push_back(runners[r]->execute(spec, c, initial_buffers(spec)));
        times[r] = seconds_since(start);
        if (!dump_name.empty())
          for (size_t c = 0; c < spec.configurations(); ++c)
            dump(spec, results[r][c], runners[r]->name(), dump_name, dump_count);
      }
      std::string report = vacuous_checks(spec, results[0]);
      if (ventus) report += compare_results(spec, results[0], results[1], "pocl", "ventus");
      std::printf("%-4s %-40s pocl %.2fs", report.empty() ? (ventus ? "PASS" : "OK") : "FAIL",
                  file.c_str(), times[0]);
      if (ventus) std::printf("  ventus %.2fs", times[1]);
      if (ventus && stats)
        std::printf("  %llu warp-insn %llu thread-insn",
                    static_cast<unsigned long long>(counts.warp_instructions),
                    static_cast<unsigned long long>(counts.thread_instructions));
      std::printf("\n%s", report.c_str());
      failures += !report.empty();
    } catch (const std::exception& e) {
      std::printf("ERR  %s: %s\n", file.c_str(), e.what());
      ++failures;
    }
    std::fflush(stdout);
  }
  return failures ? 1 : 0;
}
