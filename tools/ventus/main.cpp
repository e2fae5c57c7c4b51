// ventus: the command-line tool. Each subcommand lives in its own cmd_*.cpp.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
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

Registration::Registration(int order, Setup setup) { registry().emplace_back(order, std::move(setup)); }

}  // namespace ventus::cli

int main(int argc, char** argv) {
  CLI::App app{"ventus: toolchain, simulator and driver for the Ventus (乘影) RISC-V GPGPU"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "ventus 0.1.0");
  auto& reg = ventus::cli::registry();
  std::stable_sort(reg.begin(), reg.end(), [](auto& a, auto& b) { return a.first < b.first; });
  for (auto& [order, setup] : reg) setup(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // CLI11 prints the message; every usage error exits with 1 (--help and --version with 0).
    return app.exit(e) == 0 ? 0 : 1;
  } catch (const ventus::Error& e) {
    std::string sub = app.get_subcommands().empty() ? "" : " " + app.get_subcommands()[0]->get_name();
    fmt::print(stderr, "ventus{}: error: {}\n", sub, e.what());
    return 1;
  }
  return 0;
}
