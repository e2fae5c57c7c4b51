// libFuzzer target: the command line of `ventus run` (tools/ventus/arguments.h). Each input
// line is one --arg spec, NDRange or number; the parser must accept it or throw
// ventus::Error, and a number it accepts must print and parse back to the same bits.
#include <cstdint>
#include <string>
#include <string_view>

#include "arguments.h"
#include "ventus/error.h"

namespace {

using namespace ventus::cli;

void round_trip(std::string_view text, ElementType type) {
  try {
    const uint32_t bits = parse_element(text, type, "fuzz");
    const bool nan =
        type == ElementType::F32 && (bits & 0x7f800000u) == 0x7f800000u && (bits & 0x7fffffu);
    if (!nan && parse_element(element_text(bits, type), type, "fuzz") != bits) __builtin_trap();
  } catch (const ventus::Error&) {
  }
}

void one_line(const std::string& line) {
  try {
    KernelArgument argument = parse_argument(line);
    // Generated contents only (no files), and small: the parser allows 2^28 elements.
    if (argument.source != KernelArgument::Source::File &&
        argument.source != KernelArgument::Source::Text && argument.count <= 4096)
      load_contents(argument);
    if (argument.is_buffer() && argument.source == KernelArgument::Source::Listed &&
        argument.elements.empty())
      __builtin_trap();  // a listed buffer has at least one element
  } catch (const ventus::Error&) {
  }
  try {
    const Dimensions global = parse_dimensions(line, "--global");
    if (global.dims < 1 || global.dims > 3) __builtin_trap();
    check_offset(parse_dimensions(line, "--offset", 0), global);
  } catch (const ventus::Error&) {
  }
  try {
    parse_address(line, "--base");
  } catch (const ventus::Error&) {
  }
  for (ElementType type : {ElementType::I32, ElementType::U32, ElementType::F32})
    round_trip(line, type);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  for (size_t start = 0; start <= text.size();) {
    const size_t end = text.find('\n', start);
    one_line(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return 0;
}
