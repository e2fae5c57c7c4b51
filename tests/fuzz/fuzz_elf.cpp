// libFuzzer target: any bytes as an ELF file, then every listing of what the reader accepts.
#include <cstdint>
#include <span>

#include "ventus/elf.h"
#include "ventus/error.h"
#include "ventus/listing.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    const auto image = ventus::elf::read(std::span<const uint8_t>(data, size), "fuzz.elf");
    ventus::listing::disassemble(image, "fuzz.elf");
    ventus::listing::symbol_table(image, "fuzz.elf");
    ventus::listing::section_headers(image, "fuzz.elf");
    ventus::listing::section_contents(image, "fuzz.elf");
  } catch (const ventus::Error&) {
  }
  return 0;
}
