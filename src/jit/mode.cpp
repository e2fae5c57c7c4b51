#include <cstdlib>
#include <stdexcept>
#include <string>

#include "translator.h"
#include "ventus/device.h"

namespace ventus::sim {

std::optional<JitMode> parse_jit_mode(std::string_view text) {
  if (text == "off") return JitMode::Off;
  if (text == "on") return JitMode::On;
  if (text == "force") return JitMode::Force;
  if (text == "force-quick") return JitMode::ForceQuick;
  return std::nullopt;
}

JitMode jit_mode_from_environment() {
  const char* text = std::getenv("VENTUS_JIT");
  if (text == nullptr || *text == '\0') return JitMode::On;
  if (const auto mode = parse_jit_mode(text)) return *mode;
  throw std::invalid_argument(std::string("VENTUS_JIT=") + text +
                              " is not a translation mode (off, on, force or force-quick)");
}

void prepare_translation(std::optional<JitMode> mode) noexcept {
  try {
    if (mode.value_or(jit_mode_from_environment()) != JitMode::Off)
      jit::Translator::prepare_process();
  } catch (...) {
    // VENTUS_JIT is invalid, or LLVM failed: the launch says so.
  }
}

}  // namespace ventus::sim
