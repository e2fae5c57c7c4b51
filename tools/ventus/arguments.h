// The command line of `ventus run`: kernel arguments (--arg), NDRange sizes and the numbers
// in them. Parsing is strict: every number is read whole (decimal, or hexadecimal with
// 0x), out-of-range values and extra fields are errors (ventus::Error naming the option),
// and nothing is read from files until load_contents, so the parser can be fuzzed.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ventus::rt {
struct KernelInfo;
}

namespace ventus::cli {

enum class ElementType { I32, U32, F32 };

// Buffers hold at most this many elements (1 GiB).
inline constexpr uint64_t kMaxBufferElements = uint64_t{1} << 28;
// A local:BYTES argument: 1 to this many bytes.
inline constexpr uint64_t kMaxLocalArgumentBytes = uint64_t{1} << 20;

struct KernelArgument {
  enum class Kind { Scalar, Local, Buffer };
  // Where a buffer's elements come from.
  enum class Source { Listed, Zeros, Iota, Random, File, Text };

  std::string name;  // optional NAME= prefix
  std::string spec;  // the --arg text, for messages
  Kind kind = Kind::Scalar;
  ElementType type = ElementType::I32;
  uint32_t scalar = 0;       // Scalar: the raw 32 bits
  uint32_t local_bytes = 0;  // Local: bytes of the __local buffer
  Source source = Source::Listed;
  uint64_t count = 0;              // Zeros, Iota, Random: elements
  uint64_t seed = 1;               // Random
  std::string path;                // File, Text
  std::vector<uint32_t> elements;  // Listed at parse time; the others after load_contents

  bool is_buffer() const { return kind == Kind::Buffer; }
};

// One --arg: [NAME=]TYPE:VALUE, [NAME=]TYPE[]:CONTENTS or [NAME=]local:BYTES (the forms
// `ventus run --help` lists).
KernelArgument parse_argument(const std::string& text);
// Fills a buffer argument's elements (generates them, or reads its file).
void load_contents(KernelArgument& argument);

// A number of the command line: decimal or 0x hexadecimal, whole, at most max.
uint64_t parse_unsigned(std::string_view text, const std::string& what, uint64_t max = UINT64_MAX);
// An address of the 32-bit address space (--base, -Ttext, --section-start).
uint32_t parse_address(std::string_view text, const std::string& option);
// One element's 32 bits from its text: i32 and u32 as above (i32 with an optional '-'),
// f32 as a decimal floating-point number, inf or nan; a finite number too large for f32
// is an error, not inf.
uint32_t parse_element(std::string_view text, ElementType type, const std::string& what);
std::string element_text(uint32_t bits, ElementType type);

// An NDRange X[,Y,Z]: sizes of 1 to 2^32-1 (min_size 0 for offsets).
struct Dimensions {
  uint32_t dims = 1;
  uint32_t size[3] = {1, 1, 1};
};
Dimensions parse_dimensions(const std::string& text, const std::string& option,
                            uint32_t min_size = 1);
// The global offset must keep every global id within 32 bits: offset + global <= 2^32.
void check_offset(const Dimensions& offset, const Dimensions& global);

// Compares the arguments with a compiled kernel's description (.ventus.kernels): the count,
// and in each position the kind the kernel takes (a buffer for a __global or __constant
// pointer, local:BYTES for a __local one, a scalar of at most 4 bytes for a value).
void check_against_kernel(const std::vector<KernelArgument>& arguments,
                          const rt::KernelInfo& kernel);

}  // namespace ventus::cli
