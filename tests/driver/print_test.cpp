// Host-side formatting of print records (src/driver/print_buffer.h), checked against the C
// library's printf on the same values; the device side's layout against the ABI.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <map>
#include <regex>

#include "print_buffer.h"
#include "ventus/abi.h"
#include "ventus/error.h"

namespace {

using ventus::driver::format_print;

std::string no_strings(uint32_t address) {
  return "<string at " + std::to_string(address) + ">";
}

template <typename... T>
std::string c_printf(const char* format, T... values) {
  char buffer[512];
  std::snprintf(buffer, sizeof buffer, format, values...);
  return buffer;
}

TEST(PrintFormat, IntegersLikePrintf) {
  const uint32_t minus = static_cast<uint32_t>(-42);
  EXPECT_EQ(format_print("%d %i %u", std::vector<uint32_t>{minus, 7, minus}, no_strings),
            c_printf("%d %i %u", -42, 7, 4294967254u));
  EXPECT_EQ(format_print("[%5d|%-5d|%05d|%+d]", std::vector<uint32_t>{12, 12, 12, 12}, no_strings),
            c_printf("[%5d|%-5d|%05d|%+d]", 12, 12, 12, 12));
  EXPECT_EQ(format_print("%x %X %08x %#x %o",
                         std::vector<uint32_t>{0xbeef, 0xbeef, 0xbeef, 0xbeef, 8}, no_strings),
            c_printf("%x %X %08x %#x %o", 0xbeef, 0xbeef, 0xbeef, 0xbeef, 8));
}

// l: a 64-bit integer in two words, low first; hh and h narrow the value as C's printf does.
TEST(PrintFormat, LengthModifiersLikePrintf) {
  const int64_t big = -123456789012345LL;
  const auto lo = static_cast<uint32_t>(static_cast<uint64_t>(big));
  const auto hi = static_cast<uint32_t>(static_cast<uint64_t>(big) >> 32);
  EXPECT_EQ(format_print("%ld %lx %lu|%5hd %hhd %hhu %hx",
                         std::vector<uint32_t>{lo, hi, lo, hi, 0xffffffffu, 0xffffffffu, 0x12345,
                                               0x1ff, 0x1ff, 0x12345},
                         no_strings),
            c_printf("%lld %llx %llu|%5hd %hhd %hhu %hx", static_cast<long long>(big),
                     static_cast<unsigned long long>(big), 0xffffffffffffffffULL, 0x2345, -1, 0xff,
                     0x2345));
}

// OpenCL 1.2 s6.12.13.2: %vNm prints N elements with the conversion, separated by commas.
TEST(PrintFormat, VectorsElementByElement) {
  const uint32_t one = std::bit_cast<uint32_t>(1.5f), two = std::bit_cast<uint32_t>(-2.25f);
  EXPECT_EQ(format_print("%v2hlf|%#v2hlx|%5.1v2hlf",
                         std::vector<uint32_t>{one, two, 0xbeef, 255, one, two}, no_strings),
            c_printf("%f,%f|%#x,%#x|%5.1f,%5.1f", 1.5, -2.25, 0xbeef, 255, 1.5, -2.25));
  EXPECT_EQ(
      format_print("%v3hhd %v2hu %v2ld",
                   std::vector<uint32_t>{0xff, 5, 0x80, 0x1ffff, 7, 0xffffffffu, 0xffffffffu, 0, 1},
                   no_strings),
      "-1,5,-128 65535,7 -1,4294967296");
}

// The two words of a double, low first (abi::PrintValue::float64).
std::vector<uint32_t> words_of(std::initializer_list<double> values) {
  std::vector<uint32_t> words;
  for (double v : values) {
    const uint64_t bits = std::bit_cast<uint64_t>(v);
    words.push_back(static_cast<uint32_t>(bits));
    words.push_back(static_cast<uint32_t>(bits >> 32));
  }
  return words;
}

// A scalar floating value is a double (C's promotion of float and half), printed as the C
// library prints that double, whatever its length modifier; values that are no float's
// (0.1, 1e300, a subnormal double) keep every digit.
TEST(PrintFormat, ScalarFloatingValuesAreDoubles) {
  const double third = 1.0 / 3.0, tiny = 4.9406564584124654e-324;
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(format_print("%f %.17g %e %g %10.3f %a %lf %.20a",
                         words_of({1.5, 0.1, third, 1e300, -0.0, tiny, third, 0.1}), no_strings),
            c_printf("%f %.17g %e %g %10.3f %a %lf %.20a", 1.5, 0.1, third, 1e300, -0.0, tiny,
                     third, 0.1));
  EXPECT_EQ(
      format_print("%F %G %E %A", words_of({inf, -inf, std::nan(""), -std::nan("")}), no_strings),
      c_printf("%F %G %E %A", inf, -inf, std::nan(""), -std::nan("")));
}

// Vector elements by the length: l doubles (two words), hl floats, h halves (the low 16
// bits: the high half of the word is ignored), each printed as the double of that value (a
// NaN keeps its sign, as the host C library shows it).
TEST(PrintFormat, VectorElementsByTheirLength) {
  std::vector<uint32_t> words = words_of({0.1, -1e-310});
  for (float f : {0.1f, -0.0f}) words.push_back(std::bit_cast<uint32_t>(f));
  // 1/3, 2^-24, inf; -NaN, the largest subnormal, -2^-24
  for (uint32_t h : {0xffff3555u, 0x0001u, 0x7c00u, 0xfe00u, 0x03ffu, 0x12348001u})
    words.push_back(h);
  EXPECT_EQ(
      format_print("%.17v2lg|%v2hla|%.10v3hg|%v3ha", words, no_strings),
      c_printf("%.17g,%.17g|%a,%a|%.10g,%.10g,%.10g|%a,%a,%a", 0.1, -1e-310,
               static_cast<double>(0.1f), -0.0, 0.333251953125, 0x1p-24,
               std::numeric_limits<double>::infinity(), -std::nan(""), 1023 * 0x1p-24, -0x1p-24));
  EXPECT_THROW(format_print("%v2hhf", std::vector<uint32_t>(4, 0), no_strings), ventus::Error);
}

TEST(PrintFormat, CharsStringsAndPercent) {
  EXPECT_EQ(format_print("%c%c %s 100%%", std::vector<uint32_t>{'o', 'k', 0x1234}, no_strings),
            "ok <string at 4660> 100%");
  EXPECT_EQ(
      format_print("%-6s|", std::vector<uint32_t>{1}, [](uint32_t) { return std::string("ab"); }),
      "ab    |");
  EXPECT_EQ(format_print("no conversions\n", {}, no_strings), "no conversions\n");
}

// %p prints a device address as the host's C library prints a pointer of that value.
TEST(PrintFormat, PointersLikePrintf) {
  EXPECT_EQ(format_print("%p %p", std::vector<uint32_t>{0x90000010u, 0}, no_strings),
            c_printf("%p %p", reinterpret_cast<void*>(uintptr_t{0x90000010u}),
                     static_cast<void*>(nullptr)));
  EXPECT_EQ(format_print("[%20p]", std::vector<uint32_t>{0x1234}, no_strings),
            c_printf("[%20p]", reinterpret_cast<void*>(uintptr_t{0x1234})));
}

TEST(PrintFormat, BadFormatsSayWhy) {
  try {
    format_print("%d %d", std::vector<uint32_t>{1}, no_strings);
    FAIL();
  } catch (const ventus::Error& e) {
    EXPECT_NE(std::string(e.what()).find("more than the 1 argument words"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(format_print("%q", std::vector<uint32_t>{1}, no_strings), ventus::Error);
  EXPECT_THROW(format_print("%5", std::vector<uint32_t>{1}, no_strings), ventus::Error);
  // A vector needs a length modifier and 2, 3, 4, 8 or 16 elements; hl needs a vector.
  for (const char* bad : {"%v4f", "%v5hlf", "%vhld", "%hld", "%v2hls", "%v2hl"})
    EXPECT_THROW(format_print(bad, std::vector<uint32_t>(16, 1), no_strings), ventus::Error) << bad;
  EXPECT_THROW(format_print("%v4hld", std::vector<uint32_t>(3, 1), no_strings), ventus::Error);
}

}  // namespace

namespace {

// The device side of the protocol, src/compiler/lib/printf.s, names the layout by `.equ` lines:
// each must be the ABI's value (include/ventus/abi.def) of the same name, and the record
// fields it stores must all be named there.
TEST(PrintLayout, PrintfRoutineUsesTheAbisLayout) {
  const std::string path = std::string(VENTUS_SOURCE_DIR) + "/src/compiler/lib/printf.s";
  std::ifstream in(path);
  ASSERT_TRUE(in) << "cannot read " << path;
  std::map<std::string, uint32_t> equates;
  const std::regex equ(R"(^\s*\.equ\s+(\w+),\s*(\w+))");
  for (std::string line; std::getline(in, line);)
    if (std::smatch m; std::regex_search(line, m, equ))
      equates[m[1].str()] = static_cast<uint32_t>(std::stoul(m[2].str(), nullptr, 0));
  for (const char* name :
       {"PRINT_NEXT_FREE", "PRINT_DROPPED", "PRINT_HEADER_BYTES", "PRINT_RECORD_FORMAT",
        "PRINT_RECORD_ARG_COUNT", "PRINT_RECORD_LANES", "PRINT_RECORD_LANE_FLAGS"})
    EXPECT_TRUE(equates.count(name)) << name << " is not defined in printf.s";
  for (const auto& [name, value] : equates) {
    const auto abi = std::find_if(ventus::abi::values().begin(), ventus::abi::values().end(),
                                  [&](const ventus::abi::Value& v) { return v.asm_name == name; });
    ASSERT_NE(abi, ventus::abi::values().end()) << name << " is no value of the ABI";
    EXPECT_EQ(value, abi->value) << name;
  }
}

}  // namespace
