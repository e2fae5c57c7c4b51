// Subcommands of the `ventus` tool register themselves here, one file each (cmd_*.cpp).
#pragma once

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <exception>
#include <functional>
#include <limits>
#include <string>
#include <type_traits>

#include "arguments.h"
#include "files.h"
#include "ventus/error.h"

namespace ventus::cli {

// A subcommand's setup adds itself to the app (app.add_subcommand) with its options and a
// callback. A callback reports failure by throwing CLI::RuntimeError(exit_code) after
// printing its message to stderr; ventus::Error (or any other exception) escaping a
// callback is printed as "ventus <sub>: error: ..." with exit status 1. Callbacks read
// and write files through files.h and print to stdout with print_stdout.
using Setup = std::function<void(CLI::App& app)>;

struct Registration {
  Registration(int order, Setup setup);  // order: position in --help
};

// A numeric option, read strictly (parse_unsigned: decimal or 0x hexadecimal, whole, no
// sign) and checked against [min, max]; CLI11's own conversion would take "-1" as 2^64-1
// and "010" as 8. The error names the option: "--sms: ...".
template <typename T>
CLI::Option* add_number(CLI::App* sub, const std::string& names, T& value, const std::string& help,
                        std::type_identity_t<T> min = 0,
                        std::type_identity_t<T> max = std::numeric_limits<T>::max()) {
  std::string option = names.substr(names.rfind(',') + 1);
  return sub
      ->add_option_function<std::string>(
          names,
          [&value, option, min, max](const std::string& text) {
            const uint64_t v = parse_unsigned(text, option, max);
            if (v < min)
              throw ventus::Error(
                  fmt::format("{}: {} is too small (at least {})", option, text, min));
            value = static_cast<T>(v);
          },
          help)
      ->default_str(std::to_string(value));
}

// fmt::print to standard output, checked (print_stdout).
template <typename... T>
void print(fmt::format_string<T...> format, T&&... args) {
  print_stdout(fmt::format(format, std::forward<T>(args)...));
}

// An exception's message for users ("out of memory" for std::bad_alloc).
std::string error_text(const std::exception& e);

}  // namespace ventus::cli
