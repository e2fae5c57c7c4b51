// How one printf value travels in a print record's argument words (docs/driver.md, "Print
// buffer"; the record's fields are include/ventus/abi.def's PRINT_*): the compiler picks the
// kind from the argument's type (a vector: per element), the host from the format's
// conversion and length modifier; both take its word count from print_words. OpenCL C
// promotes a scalar float or half argument to double (cl_khr_fp64), so every scalar
// floating value is a PrintValue::float64; vectors are not promoted.
#pragma once

#include <cstdint>

namespace ventus::abi {

enum class PrintValue : uint8_t {
  word,     // an integer of up to 32 bits (char, short: the low bits count), a pointer
  int64,    // long, ulong: the low word, then the high word
  float64,  // a scalar floating argument, doublen's elements (%v2lf): low word, high word
  float32,  // floatn's elements (%v4hlf): the binary32 bits
  float16,  // halfn's elements (%v4hf): the binary16 bits in the word's low half
};

constexpr uint32_t print_words(PrintValue value) {
  return value == PrintValue::int64 || value == PrintValue::float64 ? 2 : 1;
}

}  // namespace ventus::abi
