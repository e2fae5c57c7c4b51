// libFuzzer target: any bytes as an OpenCL C source through the whole compiler (clang in
// process, the builtin library, LLVM's optimizer, the back end, the assembler). The contract
// of cc::compile: an executable, or no executable and an error; never an exception, a crash, a leak
// or a sanitizer report. The compiler's own failures that it reports instead of crashing (a crash
// inside clang or LLVM caught by its crash recovery, an internal error of the back end, assembly
// that does not assemble) are bugs too: the target stops on them.
#include <cstdint>
#include <cstdlib>
#include <regex>
#include <sstream>
#include <string>
#include <string_view>

#include "ventus/compiler.h"

namespace {

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

// Whether a diagnostic (not a source line that clang echoes under one) reports a bug of
// the compiler.
bool reports_compiler_bug(const std::string& diagnostics) {
  static const std::regex bug(
      "^fuzz\\.cl(:[0-9]+)*: error: (internal compiler error in |internal compiler error: the "
      "compiler crashed|internal compiler error: the generated assembly)");
  std::istringstream lines(diagnostics);
  for (std::string line; std::getline(lines, line);)
    if (std::regex_search(line, bug)) return true;
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The first byte picks the options, so that the corpus covers -O0 and -O2 and the
  // OpenCL C versions; the rest is the source.
  ventus::cc::Options options;
  options.file_name = "fuzz.cl";
  const uint8_t selector = size > 0 ? data[0] : 0;
  options.opt_level = selector & 1 ? 2 : 0;
  options.cl_std = (selector >> 1) % 3 == 0   ? "CL1.2"
                   : (selector >> 1) % 3 == 1 ? "CL2.0"
                                              : "CL3.0";
  const std::string_view source(reinterpret_cast<const char*>(data) + (size > 0),
                                size - (size > 0));
  const ventus::cc::Result result = ventus::cc::compile(source, options);
  // (Not "ok and no error:": a warning echoes source lines, which may hold anything.)
  if (result.ok == result.elf.empty()) std::abort();
  if (!result.ok && !contains(result.diagnostics, "error")) std::abort();
  if (reports_compiler_bug(result.diagnostics)) std::abort();
  return 0;
}
