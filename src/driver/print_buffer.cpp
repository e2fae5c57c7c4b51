// Host side of the print buffer protocol (print_buffer.h).
#include "print_buffer.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

#include "ventus/error.h"
#include "ventus/print_value.h"

namespace ventus::driver {
namespace {

uint32_t read_word(const sim::Memory& memory, uint32_t address, const char* what) {
  uint32_t value = 0;
  if (!memory.read(address, &value, sizeof value))
    throw Error(fmt::format("print record: {} at 0x{:08x} is not in device memory", what, address));
  return value;
}

constexpr uint64_t kAddressSpaceEnd = uint64_t{1} << 32;

std::string read_c_string(const sim::Memory& memory, uint32_t address) {
  std::string text;
  for (uint32_t i = 0; i < kMaxPrintString; ++i) {
    char c = 0;
    if (uint64_t{address} + i >= kAddressSpaceEnd || !memory.read(address + i, &c, 1))
      throw Error(fmt::format("print: string at 0x{:08x} runs into unmapped memory", address));
    if (c == '\0') return text;
    text.push_back(c);
  }
  throw Error(
      fmt::format("print: string at 0x{:08x} is longer than {} bytes", address, kMaxPrintString));
}

// snprintf with one argument, into a std::string.
template <typename T>
std::string c_format(const std::string& spec, T value) {
  char small[128];
  int n = std::snprintf(small, sizeof small, spec.c_str(), value);
  if (n < 0) return {};
  if (static_cast<size_t>(n) < sizeof small) return std::string(small, n);
  std::string big(n + 1, '\0');
  std::snprintf(big.data(), big.size(), spec.c_str(), value);
  big.resize(n);
  return big;
}

}  // namespace

namespace {

// The length modifier of a conversion (OpenCL 1.2 s6.12.13.2): hh and h narrow the value
// to 8 or 16 bits, hl (vectors only) is 32 bits, l a 64-bit integer in two words.
enum class Length { plain, hh, h, hl, l };

bool is_floating_conversion(char c) {
  return std::string_view("fFeEgGaA").find(c) != std::string_view::npos;
}

// How the value of a conversion travels (abi::PrintValue): a scalar floating value is a
// double (C's promotion), a vector's elements are what the length says (h: half, hl:
// float, l: double or a 64-bit integer).
abi::PrintValue print_value(char conversion, Length length, bool vector) {
  if (is_floating_conversion(conversion)) {
    if (!vector || length == Length::l) return abi::PrintValue::float64;
    return length == Length::h ? abi::PrintValue::float16 : abi::PrintValue::float32;
  }
  const bool integer = std::string_view("diuxXo").find(conversion) != std::string_view::npos;
  return integer && length == Length::l ? abi::PrintValue::int64 : abi::PrintValue::word;
}

// The value as a double, exactly, a NaN keeping its sign (as the host's conversions do; the
// device's fcvt would give the canonical NaN).
double floating_value(abi::PrintValue value, uint64_t bits) {
  switch (value) {
    case abi::PrintValue::float64: return std::bit_cast<double>(bits);
    case abi::PrintValue::float32: return std::bit_cast<float>(static_cast<uint32_t>(bits));
    default: break;
  }
  const double sign = bits & 0x8000 ? -1.0 : 1.0;
  const int exponent = static_cast<int>(bits >> 10) & 0x1f;
  const int significand = static_cast<int>(bits) & 0x3ff;
  if (exponent == 0x1f)
    return std::copysign(significand != 0 ? std::numeric_limits<double>::quiet_NaN()
                                          : std::numeric_limits<double>::infinity(),
                         sign);
  if (exponent == 0) return sign * std::ldexp(significand, -24);  // subnormal
  return sign * std::ldexp(significand | 0x400, exponent - 25);
}

}  // namespace

std::string format_print(std::string_view format, std::span<const uint32_t> args,
                         const std::function<std::string(uint32_t)>& read_string) {
  std::string out;
  size_t next_arg = 0;
  const auto take = [&] {
    if (next_arg >= args.size())
      throw Error(fmt::format("print: format \"{}\" needs more than the {} argument words given",
                              format, args.size()));
    return args[next_arg++];
  };
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%') {
      out.push_back(format[i]);
      continue;
    }
    const size_t start = i++;
    if (i < format.size() && format[i] == '%') {
      out.push_back('%');
      continue;
    }
    std::string spec = "%";
    while (i < format.size() && std::string_view("-+ #0").find(format[i]) != std::string_view::npos)
      spec.push_back(format[i++]);
    while (i < format.size() && format[i] >= '0' && format[i] <= '9') spec.push_back(format[i++]);
    if (i < format.size() && format[i] == '.') {
      spec.push_back(format[i++]);
      while (i < format.size() && format[i] >= '0' && format[i] <= '9') spec.push_back(format[i++]);
    }
    unsigned elements = 1;
    const bool vector = i < format.size() && format[i] == 'v';
    if (vector) {
      size_t digits = ++i;
      while (i < format.size() && format[i] >= '0' && format[i] <= '9') ++i;
      const std::string_view n = format.substr(digits, i - digits);
      if (n != "2" && n != "3" && n != "4" && n != "8" && n != "16")
        throw Error(
            fmt::format("print: vector conversion '{}' in \"{}\" needs 2, 3, 4, 8 or 16 "
                        "elements",
                        format.substr(start, i - start), format));
      elements = static_cast<unsigned>(std::stoul(std::string(n)));
    }
    Length length = Length::plain;
    if (format.substr(i, 2) == "hh") {
      length = Length::hh, i += 2;
    } else if (format.substr(i, 2) == "hl") {
      length = Length::hl, i += 2;
    } else if (i < format.size() && (format[i] == 'h' || format[i] == 'l')) {
      length = format[i++] == 'h' ? Length::h : Length::l;
    }
    if (i >= format.size())
      throw Error(fmt::format("print: format \"{}\" ends inside a conversion", format));
    const char conversion = format[i];
    const std::string_view whole = format.substr(start, i - start + 1);
    if (std::string_view("diuxXocspfFeEgGaA").find(conversion) == std::string_view::npos)
      throw Error(fmt::format("print: unsupported conversion '{}' in \"{}\"", whole, format));
    if (vector ? length == Length::plain : length == Length::hl)
      throw Error(
          fmt::format("print: conversion '{}' in \"{}\": a vector conversion needs a "
                      "length modifier (hh, h, hl or l), and hl needs a vector",
                      whole, format));
    if (vector && std::string_view("csp").find(conversion) != std::string_view::npos)
      throw Error(
          fmt::format("print: conversion '{}' in \"{}\" cannot print a vector", whole, format));
    if (length == Length::hh && is_floating_conversion(conversion))
      throw Error(fmt::format("print: conversion '{}' in \"{}\": hh is not a floating length",
                              whole, format));
    const abi::PrintValue value = print_value(conversion, length, vector);
    if (value == abi::PrintValue::int64) spec += "ll";
    spec.push_back(conversion);
    for (unsigned e = 0; e < elements; ++e) {
      if (e > 0) out.push_back(',');
      const uint32_t bits = take();
      const uint64_t bits64 = abi::print_words(value) == 2 ? bits | (uint64_t{take()} << 32) : bits;
      switch (conversion) {
        case 'd':
        case 'i': {
          int64_t signed_value = static_cast<int32_t>(bits);
          if (value == abi::PrintValue::int64) signed_value = static_cast<int64_t>(bits64);
          if (length == Length::hh) signed_value = static_cast<int8_t>(bits);
          if (length == Length::h) signed_value = static_cast<int16_t>(bits);
          out += value == abi::PrintValue::int64
                     ? c_format(spec, static_cast<long long>(signed_value))
                     : c_format(spec, static_cast<int>(signed_value));
          break;
        }
        case 'u':
        case 'x':
        case 'X':
        case 'o': {
          uint64_t unsigned_value = bits64;
          if (length == Length::hh) unsigned_value = static_cast<uint8_t>(bits);
          if (length == Length::h) unsigned_value = static_cast<uint16_t>(bits);
          out += value == abi::PrintValue::int64
                     ? c_format(spec, static_cast<unsigned long long>(unsigned_value))
                     : c_format(spec, static_cast<unsigned>(unsigned_value));
          break;
        }
        case 'c': out += c_format(spec, static_cast<int>(bits & 0xff)); break;
        case 's': out += c_format(spec, read_string(bits).c_str()); break;
        // A device address, as the host C library prints a pointer ("0x90000010", "(nil)").
        case 'p': out += c_format(spec, reinterpret_cast<void*>(uintptr_t{bits})); break;
        // The value as a double, exactly (binary16 and binary32 widen without rounding),
        // so the host C library prints what it prints for the same value (as pocl does).
        default: out += c_format(spec, floating_value(value, bits64)); break;
      }
    }
  }
  return out;
}

std::string format_print_record(const sim::Memory& memory, uint32_t address) {
  const uint32_t format_address =
      read_word(memory, address + abi::kPrintRecordFormat, "format address");
  const uint32_t num_args =
      read_word(memory, address + abi::kPrintRecordArgCount, "argument count");
  const uint32_t lanes = read_word(memory, address + abi::kPrintRecordLanes, "lane count");
  if (num_args > abi::kPrintMaxArgs)
    throw Error(fmt::format("print record at 0x{:08x}: {} arguments (at most {})", address,
                            num_args, abi::kPrintMaxArgs));
  if (lanes == 0 || lanes > 32)
    throw Error(fmt::format("print record at 0x{:08x}: {} lanes (1 to 32)", address, lanes));
  if (address + print_record_bytes(lanes, num_args) > kAddressSpaceEnd)
    throw Error(fmt::format("print record at 0x{:08x}: its {} bytes leave the address space",
                            address, print_record_bytes(lanes, num_args)));
  const std::string format = read_c_string(memory, format_address);
  const auto read_string = [&](uint32_t a) { return read_c_string(memory, a); };
  const uint32_t lane_flags = address + abi::kPrintRecordLaneFlags;
  const uint32_t args_base = lane_flags + 4 * lanes;
  std::string text;
  std::vector<uint32_t> args(num_args);
  for (uint32_t lane = 0; lane < lanes; ++lane) {
    if (read_word(memory, lane_flags + 4 * lane, "lane flag") == 0) continue;
    for (uint32_t a = 0; a < num_args; ++a)
      args[a] = read_word(memory, args_base + 4 * (a * lanes + lane), "argument");
    text += format_print(format, args, read_string);
  }
  return text;
}

void PrintDrain::start(uint32_t base, uint32_t size) {
  base_ = base;
  size_ = size;
  printed_bytes_ = 0;
}

void PrintDrain::printed(sim::Memory& memory, uint32_t address) {
  const uint64_t records_begin = uint64_t{base_} + abi::kPrintHeaderBytes;
  const uint64_t buffer_end = uint64_t{base_} + size_;
  // A buffer the KNL words do not describe sensibly is not drained (not 4-byte aligned: no
  // atomic offset word).
  if (base_ == 0 || (base_ & 3) != 0 || address < records_begin || address >= buffer_end) return;
  uint32_t num_args = 0, lanes = 0;
  if (!memory.read(address + abi::kPrintRecordArgCount, &num_args, 4) ||
      !memory.read(address + abi::kPrintRecordLanes, &lanes, 4))
    return;
  if (num_args > abi::kPrintMaxArgs || lanes == 0 || lanes > 32) return;
  const uint64_t bytes = print_record_bytes(lanes, num_args);
  if (address + bytes > buffer_end) return;
  // vt_printf writes only the active lanes' flags: the next records placed here, at any
  // offset, must find zeros. Through the pages, as a store would: Memory::write would tell
  // the decode caches that code may have changed.
  if (!memory.is_mapped(address, bytes)) return;
  for (uint64_t done = 0; done < bytes;) {
    const uint32_t at = static_cast<uint32_t>(address + done);
    const uint64_t chunk =
        std::min<uint64_t>(bytes - done, sim::kPageSize - (at & (sim::kPageSize - 1)));
    std::memset(memory.writable_page(at) + (at & (sim::kPageSize - 1)), 0, chunk);
    done += chunk;
  }
  printed_bytes_ += bytes;
  // The offset word, shared with warps reserving space (lr.w/sc.w, atomic on device memory).
  const uint32_t next_free_address = base_ + abi::kPrintNextFree;
  uint8_t* page = memory.writable_page(next_free_address);
  if (page == nullptr) return;
  std::atomic_ref<uint32_t> next_free(
      *reinterpret_cast<uint32_t*>(page + (next_free_address & (sim::kPageSize - 1))));
  uint32_t expected = static_cast<uint32_t>(abi::kPrintHeaderBytes + printed_bytes_);
  if (next_free.compare_exchange_strong(expected, abi::kPrintHeaderBytes,
                                        std::memory_order_acq_rel))
    printed_bytes_ = 0;
}

}  // namespace ventus::driver
