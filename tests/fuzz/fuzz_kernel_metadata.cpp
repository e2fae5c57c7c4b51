// libFuzzer target: any bytes as the JSON of a `.ventus.kernels` section. The reader must
// accept it or throw ventus::Error, and what it accepts must be in range.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "ventus/error.h"
#include "ventus/runtime.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const auto kernels = ventus::rt::parse_kernel_metadata(
        std::string_view(reinterpret_cast<const char*>(data), size));
    for (const ventus::rt::KernelInfo& kernel : kernels)
      for (const ventus::rt::KernelArgInfo& arg : kernel.args)
        if (arg.size == 0 || uint64_t{arg.offset} + arg.size > 64 * 1024) std::abort();
  } catch (const ventus::Error&) {
  }
  return 0;
}
