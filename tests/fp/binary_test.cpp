// What qemu-riscv32 cannot check for the binary16/binary64 library: the 64-bit integer
// conversions (RV64-only instructions), binary16 <-> 16-bit integers (Zvfh, absent from the
// installed qemu), and the shared binary template instantiated at binary32, held to the
// separately written fp32 library (itself checked against qemu).
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <random>

#include "binary.h"
#include "fp16.h"
#include "fp32.h"
#include "fp64.h"
#include "inputs.h"

namespace ventus::fp {
namespace {

using testing::OperandMix;

// Whether a magnitude with fractional part `part` (in [0, 1)) and integer part `whole`
// rounds up in mode rm.
bool rounds_up(long double whole, long double part, bool negative, uint32_t rm) {
  switch (rm) {
    case kRNE: return part > 0.5L || (part == 0.5L && std::fmod(whole, 2.0L) == 1);
    case kRTZ: return false;
    case kRDN: return negative && part != 0;
    case kRUP: return !negative && part != 0;
    default: return part >= 0.5L;
  }
}

// RISC-V fcvt.l[u].d from the definition, in long double (binary64 values are exact there).
template <typename Int>
Int reference_to_int(uint64_t bits, uint32_t rm, uint32_t& flags) {
  constexpr Int kMin = std::numeric_limits<Int>::min(), kMax = std::numeric_limits<Int>::max();
  const double x = std::bit_cast<double>(bits);
  if (std::isnan(x)) {
    flags |= kNV;
    return kMax;
  }
  const long double a = std::fabs(static_cast<long double>(x));
  const long double whole = std::floor(a), part = a - whole;
  const long double magnitude = whole + (rounds_up(whole, part, x < 0, rm) ? 1 : 0);
  const long double value = x < 0 ? -magnitude : magnitude;
  if (value < static_cast<long double>(kMin) || value > static_cast<long double>(kMax)) {
    flags |= kNV;
    return x < 0 ? kMin : kMax;
  }
  if (part != 0) flags |= kNX;
  return static_cast<Int>(value);
}

// fcvt.d.l[u] from the definition: keep the top 53 bits of |v|, round the rest away.
uint64_t reference_from_int(bool negative, uint64_t magnitude, uint32_t rm, uint32_t& flags) {
  if (magnitude == 0) return 0;
  const int width = 64 - std::countl_zero(magnitude);
  const int dropped = width > 53 ? width - 53 : 0;
  uint64_t kept = magnitude >> dropped;
  if (dropped) {
    const uint64_t rest = magnitude & ((uint64_t{1} << dropped) - 1);
    const long double part = std::ldexp(static_cast<long double>(rest), -dropped);
    if (rounds_up(static_cast<long double>(kept), part, negative, rm)) ++kept;
    if (rest) flags |= kNX;
  }
  const double value = std::ldexp(static_cast<double>(kept), dropped);  // exact
  return std::bit_cast<uint64_t>(negative ? -value : value);
}

std::vector<uint64_t> doubles_near_int64_range() {
  std::mt19937_64 rng(64);
  std::vector<uint64_t> values = {0, uint64_t{1} << 63, 0x7ff0000000000000u, 0xfff0000000000000u,
                                  0x7ff8000000000000u, 0x7ff0000000000001u,
                                  0x43e0000000000000u /* 2^63 */, 0xc3e0000000000000u,
                                  0x43dfffffffffffffu, 0x43f0000000000000u /* 2^64 */,
                                  0x43efffffffffffffu, 0x3fe0000000000000u, 0xbfe0000000000000u};
  for (int i = 0; i < 200000; ++i) {
    const uint64_t field = 1023 - 2 + rng() % 68;  // |x| from 0.25 to 2^66
    uint64_t fraction = rng() >> 12;
    if (i % 3 == 0) fraction &= ~uint64_t{0} << (rng() % 52);  // exact and halfway cases
    values.push_back((rng() & (uint64_t{1} << 63)) | field << 52 | fraction);
  }
  return values;
}

TEST(Binary64, ToInt64AndUint64MatchTheDefinition) {
  for (uint64_t x : doubles_near_int64_range()) {
    for (uint32_t rm = 0; rm < 5; ++rm) {
      uint32_t flags = 0, want_flags = 0;
      ASSERT_EQ(f64::to_i64(x, rm, flags), reference_to_int<int64_t>(x, rm, want_flags))
          << std::hex << x << " rm " << rm;
      ASSERT_EQ(flags, want_flags) << std::hex << x << " rm " << rm;
      flags = want_flags = 0;
      ASSERT_EQ(f64::to_u64(x, rm, flags), reference_to_int<uint64_t>(x, rm, want_flags))
          << std::hex << x << " rm " << rm;
      ASSERT_EQ(flags, want_flags) << std::hex << x << " rm " << rm;
    }
  }
}

TEST(Binary64, FromInt64AndUint64MatchTheDefinition) {
  std::mt19937_64 rng(65);
  std::vector<uint64_t> values = {0, 1, ~uint64_t{0}, uint64_t{1} << 63, (uint64_t{1} << 63) - 1,
                                  (uint64_t{1} << 53) + 1, (uint64_t{1} << 54) + 2};
  for (int i = 0; i < 200000; ++i) {
    uint64_t v = rng() >> (rng() % 64);
    if (i % 4 == 0) v = (v & (~uint64_t{0} << (rng() % 12))) | (uint64_t{1} << (rng() % 12));
    values.push_back(v);
  }
  for (uint64_t v : values) {
    for (uint32_t rm = 0; rm < 5; ++rm) {
      uint32_t flags = 0, want_flags = 0;
      ASSERT_EQ(f64::from_u64(v, rm, flags), reference_from_int(false, v, rm, want_flags))
          << v << " rm " << rm;
      ASSERT_EQ(flags, want_flags);
      const auto s = static_cast<int64_t>(v);
      flags = want_flags = 0;
      const uint64_t magnitude = s < 0 ? uint64_t{0} - v : v;
      ASSERT_EQ(f64::from_i64(s, rm, flags), reference_from_int(s < 0, magnitude, rm, want_flags))
          << s << " rm " << rm;
      ASSERT_EQ(flags, want_flags);
    }
  }
}

// vfcvt.x[u].f.v at SEW=16: the 32-bit conversion (checked against qemu), saturated to 16
// bits; an out-of-range value raises NV alone.
TEST(Binary16, To16BitIntegersSaturateLikeThe32BitConversion) {
  for (uint32_t a = 0; a < 0x10000; ++a) {
    for (uint32_t rm = 0; rm < 5; ++rm) {
      const auto x = static_cast<uint16_t>(a);
      uint32_t wide_flags = 0, flags = 0;
      const int32_t wide = f16::to_i32(x, rm, wide_flags);
      const int16_t got = f16::to_i16(x, rm, flags);
      if (wide < INT16_MIN || wide > INT16_MAX) {
        ASSERT_EQ(got, wide < 0 ? INT16_MIN : INT16_MAX) << a << " rm " << rm;
        ASSERT_EQ(flags, uint32_t{kNV});
      } else {
        ASSERT_EQ(got, wide) << a;
        ASSERT_EQ(flags, wide_flags) << a;
      }
      wide_flags = flags = 0;
      const uint32_t uwide = f16::to_u32(x, rm, wide_flags);
      const uint16_t ugot = f16::to_u16(x, rm, flags);
      const bool negative_saturated = (wide_flags & kNV) && uwide == 0;
      if (uwide > UINT16_MAX) {
        ASSERT_EQ(ugot, UINT16_MAX) << a;
        ASSERT_EQ(flags, uint32_t{kNV});
      } else {
        ASSERT_EQ(ugot, uwide) << a;
        ASSERT_EQ(flags, negative_saturated ? uint32_t{kNV} : wide_flags) << a;
      }
    }
  }
}

// The template at binary32 agrees with fp32.cpp bit for bit, flags included.
TEST(BinaryTemplate, AtBinary32MatchesTheFp32Library) {
  using B = detail::Binary32;
  const auto arithmetic = testing::generate_operands(OperandMix::kArithmetic, 30000, 32);
  const auto fused = testing::generate_operands(OperandMix::kFusedMultiply, 30000, 33);
  const auto to_int = testing::generate_operands(OperandMix::kToInteger, 10000, 34);
  for (uint32_t rm = 0; rm < 5; ++rm) {
    auto same = [&](uint32_t got, uint32_t got_flags, uint32_t want, uint32_t want_flags,
                    const char* op, uint32_t a) {
      ASSERT_EQ(got, want) << op << " a=" << std::hex << a << " rm " << rm;
      ASSERT_EQ(got_flags, want_flags) << op << " a=" << std::hex << a << " rm " << rm;
    };
    for (const auto& o : arithmetic) {
      uint32_t f1 = 0, f2 = 0;
      same(B::add(o.a, o.b, rm, f1), f1, add(o.a, o.b, rm, f2), f2, "add", o.a);
      f1 = f2 = 0;
      same(B::mul(o.a, o.b, rm, f1), f1, mul(o.a, o.b, rm, f2), f2, "mul", o.a);
      f1 = f2 = 0;
      same(B::div(o.a, o.b, rm, f1), f1, div(o.a, o.b, rm, f2), f2, "div", o.a);
      f1 = f2 = 0;
      same(B::sqrt(o.a, rm, f1), f1, sqrt(o.a, rm, f2), f2, "sqrt", o.a);
    }
    for (const auto& o : fused) {
      uint32_t f1 = 0, f2 = 0;
      same(B::fma(o.a, o.b, o.c, rm, f1), f1, fma(o.a, o.b, o.c, rm, f2), f2, "fma", o.a);
    }
    for (const auto& o : to_int) {
      uint32_t f1 = 0, f2 = 0;
      same(static_cast<uint32_t>(B::to_int<int32_t>(o.a, rm, f1)), f1,
           static_cast<uint32_t>(to_i32(o.a, rm, f2)), f2, "to_i32", o.a);
    }
  }
}

}  // namespace
}  // namespace ventus::fp
