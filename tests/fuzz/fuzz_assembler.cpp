// libFuzzer target: any bytes as an assembly source. The assembler must return an image or
// throw ventus::Error; anything else (another exception, a crash, a sanitizer report) is a bug.
#include <cstdint>
#include <string>

#include "ventus/asm.h"
#include "ventus/error.h"
#include "ventus/listing.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ventus::assembler::Options options;
  options.start_files = size > 0 && data[0] & 1;  // both with and without the start file
  // A few bytes of source may ask for gigabytes of fill: keep every run small and fast.
  options.max_contents_bytes = 1 << 16;
  try {
    const auto image = ventus::assembler::assemble(
        {{"fuzz.s", std::string(reinterpret_cast<const char*>(data), size)}}, options);
    ventus::listing::disassemble(image, "fuzz");
  } catch (const ventus::Error&) {
  }
  return 0;
}
