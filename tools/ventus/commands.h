// Subcommands of the `ventus` tool register themselves here, one file each (cmd_*.cpp).
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <string>

namespace ventus::cli {

// A subcommand's setup adds itself to the app (app.add_subcommand) with its options and a
// callback. A callback reports failure by throwing CLI::RuntimeError(exit_code) after
// printing its message to stderr; ventus::Error escaping a callback is printed as
// "ventus <sub>: error: ..." with exit status 1.
using Setup = std::function<void(CLI::App& app)>;

struct Registration {
  Registration(int order, Setup setup);  // order: position in --help
};

}  // namespace ventus::cli
