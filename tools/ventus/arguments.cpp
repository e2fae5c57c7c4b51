#include "arguments.h"

#include <fmt/format.h>

#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <system_error>

#include "files.h"
#include "ventus/error.h"
#include "ventus/file.h"
#include "ventus/runtime.h"

namespace ventus::cli {

namespace {

ElementType parse_type(std::string_view text, const std::string& spec) {
  if (text == "i32") return ElementType::I32;
  if (text == "u32") return ElementType::U32;
  if (text == "f32") return ElementType::F32;
  throw Error(fmt::format("--arg {}: unknown type '{}' (i32, u32 or f32)", spec, text));
}

// splitmix64: a fixed generator, so random:N:SEED gives the same data everywhere.
uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// random elements: i32 in [-1000, 1000], u32 in [0, 1000], f32 multiples of 2^-10 in
// [-8, 8) (few significant bits, so sums and small products are exact and checkable).
uint32_t random_element(uint64_t& state, ElementType type) {
  const uint64_t r = splitmix64(state);
  switch (type) {
    case ElementType::I32: return static_cast<uint32_t>(static_cast<int32_t>(r % 2001) - 1000);
    case ElementType::U32: return static_cast<uint32_t>(r % 1001);
    case ElementType::F32:
      return std::bit_cast<uint32_t>(static_cast<float>(static_cast<int32_t>(r % 16384) - 8192) /
                                     1024.0f);
  }
  return 0;
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  for (size_t start = 0;;) {
    const size_t at = text.find(separator, start);
    parts.push_back(
        text.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
    if (at == std::string_view::npos) return parts;
    start = at + 1;
  }
}

uint64_t element_count(std::string_view text, const std::string& what) {
  const uint64_t n = parse_unsigned(text, what, kMaxBufferElements);
  if (n == 0) throw Error(fmt::format("{}: element count 0 (1 to 2^28)", what));
  return n;
}

enum class Digits { Ok, Malformed, Overflow };

// Decimal, or hexadecimal after 0x; the whole text, no sign, no spaces.
Digits read_digits(std::string_view text, uint64_t& value) {
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X'))
    text.remove_prefix(2), base = 16;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (text.empty() || end != text.data() + text.size() ||
      (ec != std::errc{} && ec != std::errc::result_out_of_range))
    return Digits::Malformed;
  return ec == std::errc::result_out_of_range ? Digits::Overflow : Digits::Ok;
}

}  // namespace

uint64_t parse_unsigned(std::string_view text, const std::string& what, uint64_t max) {
  uint64_t v = 0;
  const Digits digits = read_digits(text, v);
  if (digits == Digits::Malformed)
    throw Error(fmt::format("{}: '{}' is not an unsigned number (decimal, or hexadecimal with 0x)",
                            what, text));
  if (digits == Digits::Overflow || v > max)
    throw Error(fmt::format("{}: {} is too large (at most {})", what, text, max));
  return v;
}

uint32_t parse_address(std::string_view text, const std::string& option) {
  try {
    return static_cast<uint32_t>(parse_unsigned(text, option, UINT32_MAX));
  } catch (const Error&) {
    throw Error(fmt::format("{}: '{}' is not a 32-bit address", option, text));
  }
}

uint32_t parse_element(std::string_view text, ElementType type, const std::string& what) {
  switch (type) {
    case ElementType::F32: {
      std::string_view digits = text;
      if (digits.size() > 1 && digits[0] == '+' && digits[1] != '-') digits.remove_prefix(1);
      float f = 0;
      const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), f,
                                             std::chars_format::general);
      if (digits.empty() || end != digits.data() + digits.size() ||
          (ec != std::errc{} && ec != std::errc::result_out_of_range))
        throw Error(fmt::format("{}: '{}' is not a number", what, text));
      // Out of range: too large for f32 (not inf, which is asked for by name), or so small
      // that it would read as zero.
      if (ec == std::errc::result_out_of_range)
        throw Error(
            fmt::format("{}: {} is out of the range of f32 (about 1.4e-45 to 3.4e38)", what, text));
      return std::bit_cast<uint32_t>(f);
    }
    case ElementType::I32: {
      const bool negative = text.starts_with('-');
      uint64_t magnitude = 0;
      const Digits digits = read_digits(negative ? text.substr(1) : text, magnitude);
      if (digits == Digits::Malformed)
        throw Error(fmt::format(
            "{}: '{}' is not an integer (decimal, or hexadecimal with 0x, after an optional -)",
            what, text));
      if (digits == Digits::Overflow || magnitude > (negative ? 0x80000000u : INT32_MAX))
        throw Error(fmt::format("{}: {} is out of the range of i32 (-2147483648 to 2147483647)",
                                what, text));
      return negative ? static_cast<uint32_t>(-static_cast<int64_t>(magnitude))
                      : static_cast<uint32_t>(magnitude);
    }
    case ElementType::U32: return static_cast<uint32_t>(parse_unsigned(text, what, UINT32_MAX));
  }
  return 0;
}

std::string element_text(uint32_t bits, ElementType type) {
  switch (type) {
    case ElementType::F32: return fmt::format("{:.9g}", std::bit_cast<float>(bits));
    case ElementType::I32: return fmt::format("{}", static_cast<int32_t>(bits));
    case ElementType::U32: return fmt::format("{}", bits);
  }
  return {};
}

KernelArgument parse_argument(const std::string& text) {
  KernelArgument a;
  a.spec = text;
  const std::string what = "--arg " + text;
  std::string_view rest = text;
  const size_t colon = rest.find(':');
  if (const size_t eq = rest.find('='); eq != std::string_view::npos && eq < colon) {
    if (eq == 0) throw Error(fmt::format("{}: an empty NAME before '='", what));
    a.name = std::string(rest.substr(0, eq));
    rest.remove_prefix(eq + 1);
  }
  const size_t type_end = rest.find(':');
  if (type_end == std::string_view::npos)
    throw Error(fmt::format("{}: expected TYPE:VALUE, TYPE[]:CONTENTS or local:BYTES", what));
  std::string_view type = rest.substr(0, type_end);
  const std::string_view value = rest.substr(type_end + 1);
  if (type == "local") {
    a.kind = KernelArgument::Kind::Local;
    a.local_bytes = static_cast<uint32_t>(parse_unsigned(value, what, kMaxLocalArgumentBytes));
    if (a.local_bytes == 0) throw Error(fmt::format("{}: a local buffer of 1 to 2^20 bytes", what));
    return a;
  }
  if (type.ends_with("[]")) {
    a.kind = KernelArgument::Kind::Buffer;
    type.remove_suffix(2);
  }
  a.type = parse_type(type, text);
  if (!a.is_buffer()) {
    a.scalar = parse_element(value, a.type, what);
    return a;
  }
  const std::vector<std::string_view> parts = split(value, ':');
  const std::string_view source = parts[0];
  const auto expect_fields = [&](size_t least, size_t most, const char* form) {
    if (parts.size() < least || parts.size() > most)
      throw Error(fmt::format("{}: expected {}[]:{}", what, type, form));
  };
  if (source == "zeros" || source == "iota") {
    expect_fields(2, 2, source == "zeros" ? "zeros:N" : "iota:N");
    a.source = source == "zeros" ? KernelArgument::Source::Zeros : KernelArgument::Source::Iota;
    a.count = element_count(parts[1], what);
  } else if (source == "random") {
    expect_fields(2, 3, "random:N[:SEED]");
    a.source = KernelArgument::Source::Random;
    a.count = element_count(parts[1], what);
    if (parts.size() == 3) a.seed = parse_unsigned(parts[2], what);
  } else if (source == "file" || source == "text") {
    // The path is everything after the first colon: it may hold colons itself.
    a.source = source == "file" ? KernelArgument::Source::File : KernelArgument::Source::Text;
    if (parts.size() < 2 || value.size() == source.size() + 1)
      throw Error(fmt::format("{}: {} needs a path ({}[]:{}:PATH)", what, source, type, source));
    a.path = std::string(value.substr(source.size() + 1));
  } else {
    a.source = KernelArgument::Source::Listed;
    for (std::string_view element : split(value, ','))
      a.elements.push_back(parse_element(element, a.type, what));
  }
  return a;
}

void load_contents(KernelArgument& a) {
  if (!a.is_buffer()) return;
  const std::string what = "--arg " + a.spec;
  switch (a.source) {
    case KernelArgument::Source::Listed: return;
    case KernelArgument::Source::Zeros: a.elements.assign(a.count, 0); return;
    case KernelArgument::Source::Iota:
      a.elements.resize(a.count);
      for (uint64_t i = 0; i < a.count; ++i)
        a.elements[i] = a.type == ElementType::F32 ? std::bit_cast<uint32_t>(static_cast<float>(i))
                                                   : static_cast<uint32_t>(i);
      return;
    case KernelArgument::Source::Random: {
      uint64_t state = a.seed;
      a.elements.resize(a.count);
      for (uint32_t& e : a.elements) e = random_element(state, a.type);
      return;
    }
    case KernelArgument::Source::File: {
      const std::string bytes = read_input_file(a.path, kToolInput);
      if (bytes.empty() || bytes.size() % 4 != 0 || bytes.size() / 4 > kMaxBufferElements)
        throw Error(fmt::format("{}: {} has {} bytes, not a positive multiple of 4 up to 1 GiB",
                                what, a.path, bytes.size()));
      a.elements.resize(bytes.size() / 4);
      std::memcpy(a.elements.data(), bytes.data(), bytes.size());
      return;
    }
    case KernelArgument::Source::Text: {
      const std::string text = read_input_file(a.path, kToolInput);
      const std::string where = fmt::format("{} ({})", what, a.path);
      size_t line = 1;
      for (size_t at = 0; at < text.size();) {
        const char c = text[at];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
          line += c == '\n';
          ++at;
          continue;
        }
        const size_t end = text.find_first_of(" \t\r\n", at);
        const std::string_view word = std::string_view(text).substr(
            at, end == std::string::npos ? std::string::npos : end - at);
        if (a.elements.size() == kMaxBufferElements)
          throw Error(fmt::format("{}: more than 2^28 numbers", where));
        a.elements.push_back(parse_element(word, a.type, fmt::format("{} line {}", where, line)));
        at += word.size();
      }
      if (a.elements.empty()) throw Error(fmt::format("{}: {} holds no numbers", what, a.path));
      return;
    }
  }
}

Dimensions parse_dimensions(const std::string& text, const std::string& option, uint32_t min_size) {
  const std::vector<std::string_view> parts = split(text, ',');
  if (parts.size() > 3)
    throw Error(fmt::format("{}: '{}' has more than 3 dimensions", option, text));
  Dimensions d;
  d.dims = static_cast<uint32_t>(parts.size());
  for (size_t i = 0; i < parts.size(); ++i) {
    const uint64_t n = parse_unsigned(parts[i], option, UINT32_MAX);
    if (n < min_size) throw Error(fmt::format("{}: size {} ({} to 2^32-1)", option, n, min_size));
    d.size[i] = static_cast<uint32_t>(n);
  }
  return d;
}

void check_offset(const Dimensions& offset, const Dimensions& global) {
  if (offset.dims > global.dims)
    throw Error(
        fmt::format("--offset: {} dimensions, the global size has {}", offset.dims, global.dims));
  for (uint32_t i = 0; i < offset.dims; ++i)
    if (uint64_t{offset.size[i]} + global.size[i] > (uint64_t{1} << 32))
      throw Error(
          fmt::format("--offset: offset {} + global size {} in dimension {} exceeds 2^32 (global "
                      "ids are 32-bit)",
                      offset.size[i], global.size[i], i));
}

void check_against_kernel(const std::vector<KernelArgument>& arguments,
                          const rt::KernelInfo& kernel) {
  if (arguments.size() != kernel.args.size()) {
    std::vector<std::string> expected;
    for (const rt::KernelArgInfo& a : kernel.args)
      expected.push_back(fmt::format("{} {}", a.type, a.name));
    throw Error(fmt::format("kernel '{}' takes {} argument(s) ({}), {} --arg given", kernel.name,
                            kernel.args.size(), fmt::join(expected, ", "), arguments.size()));
  }
  for (size_t i = 0; i < arguments.size(); ++i) {
    const KernelArgument& given = arguments[i];
    const rt::KernelArgInfo& expected = kernel.args[i];
    // Values are in the "private" address space; pointers in the one they point to.
    const bool pointer = expected.address_space != rt::AddressSpace::private_;
    const bool local = expected.address_space == rt::AddressSpace::local;
    const char* needs = nullptr;
    if (local && given.kind != KernelArgument::Kind::Local)
      needs = "a __local buffer (local:BYTES)";
    else if (pointer && !local && !given.is_buffer())
      needs = "a buffer (TYPE[]:...)";
    else if (!pointer && given.kind != KernelArgument::Kind::Scalar)
      needs = "a scalar (i32:, u32: or f32:)";
    else if (!pointer && expected.size > 4)
      throw Error(
          fmt::format("--arg {}: argument {} ('{} {}') is a {}-byte value; --arg gives 32-bit "
                      "scalars only",
                      given.spec, i, expected.type, expected.name, expected.size));
    if (needs)
      throw Error(fmt::format(
          "--arg {}: argument {} of kernel '{}' is '{} {}' ({}), which needs {}", given.spec, i,
          kernel.name, expected.type, expected.name, rt::to_string(expected.address_space), needs));
  }
}

}  // namespace ventus::cli
