// libFuzzer target: any bytes as an OpenCL C source through the whole compiler (clang in
// process, the builtin library, LLVM's optimizer, the back end, the assembler). The contract
// of cc::compile: an executable and no error, or no executable and at least one
// "error:" line; never an exception, a crash, a leak or a sanitizer report. The compiler's
// own failures that it reports instead of crashing (a crash inside clang or LLVM caught by
// its crash recovery, an internal error of the back end, assembly that does not assemble)
// are bugs too: the target stops on them.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "ventus/compiler.h"

namespace {

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
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
  const bool has_error = contains(result.diagnostics, "error:");
  if (result.ok == has_error || result.ok == result.elf.empty()) std::abort();
  for (const char* bug :
       {"the compiler crashed", "does not assemble", "internal compiler error in "})
    if (contains(result.diagnostics, bug)) std::abort();
  return 0;
}
