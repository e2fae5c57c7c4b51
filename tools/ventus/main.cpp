// ventus: the command-line tool. Each subcommand lives in its own cmd_*.cpp.
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <new>
#include <vector>

#include "commands.h"
#include "ventus/error.h"

namespace ventus::cli {
namespace {
std::vector<std::pair<int, Setup>>& registry() {
  static std::vector<std::pair<int, Setup>> r;
  return r;
}
}  // namespace

Registration::Registration(int order, Setup setup) {
  registry().emplace_back(order, std::move(setup));
}

std::string error_text(const std::exception& e) {
  if (dynamic_cast<const std::bad_alloc*>(&e)) return "out of memory";
  return e.what();
}

}  // namespace ventus::cli

int main(int argc, char** argv) {
  CLI::App app{"ventus: toolchain, simulator and driver for the Ventus (乘影) RISC-V GPGPU"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "ventus 0.1.0");
  auto& reg = ventus::cli::registry();
  std::stable_sort(reg.begin(), reg.end(), [](auto& a, auto& b) { return a.first < b.first; });
  for (auto& [order, setup] : reg) setup(app);
  const auto report = [&app](const std::string& message) {
    const std::string sub =
        app.get_subcommands().empty() ? "" : " " + app.get_subcommands()[0]->get_name();
    ventus::cli::print_stderr(fmt::format("ventus{}: error: {}\n", sub, message));
  };
  int status = 0;
  bool reported = false;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // CLI11 prints the message; every usage error exits with 1 (--help and --version with 0).
    status = app.exit(e) == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    // ventus::Error, and whatever else escapes a subcommand (filesystem, iostream and
    // system errors, bad_alloc): a message and exit status 1, never an abort.
    report(ventus::cli::error_text(e));
    reported = true;
    status = 1;
  }
  // Output that stdio still buffers, and write errors it recorded (a full disk, a closed
  // pipe): a command whose output was lost must not report success. One error message
  // per run: print_stdout may have reported this failure already.
  errno = 0;
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    if (!reported)
      report(fmt::format("standard output: write failed: {}",
                         errno ? std::strerror(errno) : "an I/O error"));
    return 1;
  }
  return status;
}
