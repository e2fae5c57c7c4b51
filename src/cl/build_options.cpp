#include "build_options.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <optional>
#include <vector>

namespace ventus::cl {
namespace {

// Splits like a shell does: whitespace separates, quotes group, backslash escapes.
bool split(std::string_view text, std::vector<std::string>& words, std::string& error) {
  std::string word;
  bool in_word = false;
  char quote = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quote != 0) {
      if (c == quote) {
        quote = 0;
      } else if (c == '\\' && quote == '"' && i + 1 < text.size()) {
        word += text[++i];
      } else {
        word += c;
      }
    } else if (c == '"' || c == '\'') {
      quote = c;
      in_word = true;
    } else if (c == '\\' && i + 1 < text.size()) {
      word += text[++i];
      in_word = true;
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (quote != 0) {
    error = fmt::format("unterminated {} quote", quote);
    return false;
  }
  if (in_word) words.push_back(std::move(word));
  return true;
}

// Options clang takes as they are.
constexpr std::array<std::string_view, 12> kPassedThrough = {
    "-cl-single-precision-constant", "-cl-fp32-correctly-rounded-divide-sqrt",
    "-cl-mad-enable", "-cl-no-signed-zeros", "-cl-unsafe-math-optimizations",
    "-cl-finite-math-only", "-cl-fast-relaxed-math", "-cl-kernel-arg-info",
    "-cl-uniform-work-group-size", "-cl-opt-disable", "-w", "-Werror"};

}  // namespace

std::string parse_build_options(std::string_view text, cc::Options& options) {
  std::vector<std::string> words;
  std::string error;
  if (!split(text, words, error)) return error;
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    auto value = [&](std::string_view flag) -> std::optional<std::string> {
      if (w.size() > flag.size()) return w.substr(flag.size());
      if (i + 1 < words.size()) return words[++i];
      return std::nullopt;
    };
    if (w.starts_with("-D")) {
      std::optional<std::string> v = value("-D");
      if (!v || v->empty() || (*v)[0] == '=') return fmt::format("'{}' names no macro", w);
      options.defines.push_back(*v);
    } else if (w.starts_with("-I")) {
      std::optional<std::string> v = value("-I");
      if (!v || v->empty()) return "'-I' names no directory";
      options.include_dirs.push_back(*v);
    } else if (w.starts_with("-cl-std=")) {
      const std::string version = w.substr(8);
      static constexpr std::array<std::string_view, 5> kVersions = {"CL1.0", "CL1.1", "CL1.2",
                                                                     "CL2.0", "CL3.0"};
      if (std::find(kVersions.begin(), kVersions.end(), version) == kVersions.end())
        return fmt::format("'{}': the compiler takes CL1.0, CL1.1, CL1.2, CL2.0 or CL3.0", w);
      options.cl_std = version;
    } else if (w.size() == 3 && w[0] == '-' && w[1] == 'O' && w[2] >= '0' && w[2] <= '3') {
      options.opt_level = w[2] - '0';
    } else if (w == "-cl-denorms-are-zero") {
      // Permission to flush single-precision denormals; the device keeps them.
    } else if (std::find(kPassedThrough.begin(), kPassedThrough.end(), w) != kPassedThrough.end()) {
      options.extra_args.push_back(w);
    } else {
      return fmt::format("unknown build option '{}'", w);
    }
  }
  return "";
}

std::string parse_link_options(std::string_view text, bool& create_library) {
  std::vector<std::string> words;
  std::string error;
  if (!split(text, words, error)) return error;
  static constexpr std::array<std::string_view, 5> kMath = {
      "-cl-denorms-are-zero", "-cl-no-signed-zeros", "-cl-unsafe-math-optimizations",
      "-cl-finite-math-only", "-cl-fast-relaxed-math"};
  create_library = false;
  bool enable_link_options = false;
  for (const std::string& w : words) {
    if (w == "-create-library")
      create_library = true;
    else if (w == "-enable-link-options")
      enable_link_options = true;
    else if (std::find(kMath.begin(), kMath.end(), w) == kMath.end())
      return fmt::format("unknown link option '{}'", w);
  }
  if (enable_link_options && !create_library) return "-enable-link-options needs -create-library";
  return "";
}

}  // namespace ventus::cl
