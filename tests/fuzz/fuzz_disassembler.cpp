// libFuzzer target: any bytes as code words, decoded and printed in every mode, the first
// word also used as a regext/regexti prefix.
#include <cstdint>
#include <cstring>
#include <span>

#include "ventus/disasm.h"
#include "ventus/isa.h"
#include "ventus/listing.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const uint8_t> bytes(data, size);
  for (int mode = 0; mode < 4; ++mode) {
    ventus::listing::Options options;
    options.aliases = mode & 1;
    options.extended_registers = mode & 2;
    ventus::listing::disassemble_raw(bytes, size >= 4 ? data[0] << 24 : 0x80000000u, options);
  }
  if (size < 8) return 0;
  uint32_t prefix, word;
  std::memcpy(&prefix, data, 4);
  std::memcpy(&word, data + 4, 4);
  for (const auto& ext : {ventus::isa::RegExt::from_regext(prefix >> 20),
                          ventus::isa::RegExt::from_regexti(prefix >> 20)}) {
    ventus::isa::decode(word, ext);
    ventus::isa::PrintOptions o;
    o.extended_registers = true;
    ventus::isa::print_instruction(word, prefix, o, ext);
  }
  return 0;
}
