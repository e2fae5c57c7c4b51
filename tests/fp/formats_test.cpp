// The narrow-format conversions against a straightforward reference written here: decoding
// by the format's definition in double arithmetic, and rounding by scaling to an integer
// multiple of the result's quantum (exact in double) and choosing a neighbour by the mode.
// Widening is checked for every encoding of every format; narrowing for every
// representable value, every midpoint between neighbours and their binary32 neighbours,
// and random binary32/binary64 values, in all five rounding modes, saturating or not.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <unordered_map>
#include <random>
#include <string>
#include <vector>

#include "formats.h"
#include "fp32.h"

namespace ventus::fp {
namespace {

constexpr Format kAllFormats[] = {Format::F16,  Format::BF16, Format::E4M3, Format::E5M2,
                                  Format::E3M2, Format::E2M3, Format::E2M1};

struct Decoded {
  enum Kind { kFinite, kInf, kNaN } kind;
  double value;  // finite: the value; kInf: ±1 for the sign
};

// The OCP / IEEE definition of each encoding, written out per format.
Decoded reference_decode(Format f, uint32_t bits) {
  struct Def {
    int bits, e, m, bias;
  };
  static const std::unordered_map<Format, Def> defs = {
      {Format::F16, {16, 5, 10, 15}}, {Format::BF16, {16, 8, 7, 127}},
      {Format::E4M3, {8, 4, 3, 7}},   {Format::E5M2, {8, 5, 2, 15}},
      {Format::E3M2, {6, 3, 2, 3}},   {Format::E2M3, {6, 2, 3, 1}},
      {Format::E2M1, {4, 2, 1, 1}}};
  const Def d = defs.at(f);
  const bool negative = (bits >> (d.bits - 1)) & 1;
  const int field = static_cast<int>((bits >> d.m) & ((1u << d.e) - 1));
  const int fraction = static_cast<int>(bits & ((1u << d.m) - 1));
  const bool ieee_like = f == Format::F16 || f == Format::BF16 || f == Format::E5M2;
  if (ieee_like && field == (1 << d.e) - 1) {
    if (fraction == 0) return {Decoded::kInf, negative ? -1.0 : 1.0};
    return {Decoded::kNaN, 0};
  }
  if (f == Format::E4M3 && field == 15 && fraction == 7) return {Decoded::kNaN, 0};
  const double magnitude = field == 0
                               ? std::ldexp(fraction, 1 - d.bias - d.m)
                               : std::ldexp(fraction + (1 << d.m), field - d.bias - d.m);
  return {Decoded::kFinite, negative ? -magnitude : magnitude};
}

uint32_t encodings(Format f) {
  return 1u << format_info(f).bits;
}

TEST(NarrowFormats, InfoMatchesTheDefinitions) {
  for (Format f : kAllFormats) {
    const FormatInfo& info = format_info(f);
    EXPECT_EQ(info.bits, 1 + info.exponent_bits + info.mantissa_bits) << info.name;
    const Decoded max = reference_decode(f, info.max_finite);
    ASSERT_EQ(max.kind, Decoded::kFinite) << info.name;
    // max_finite is the largest finite encoding: the next one up is not finite.
    if (info.max_finite + 1 < encodings(f) / 2) {
      EXPECT_NE(reference_decode(f, info.max_finite + 1).kind, Decoded::kFinite) << info.name;
    }
    if (info.has_nan) {
      EXPECT_EQ(reference_decode(f, info.canonical_nan).kind, Decoded::kNaN) << info.name;
    }
  }
  EXPECT_EQ(reference_decode(Format::E4M3, format_info(Format::E4M3).max_finite).value, 448);
  EXPECT_EQ(reference_decode(Format::E5M2, format_info(Format::E5M2).max_finite).value, 57344);
  EXPECT_EQ(reference_decode(Format::E3M2, format_info(Format::E3M2).max_finite).value, 28);
  EXPECT_EQ(reference_decode(Format::E2M3, format_info(Format::E2M3).max_finite).value, 7.5);
  EXPECT_EQ(reference_decode(Format::E2M1, format_info(Format::E2M1).max_finite).value, 6);
}

TEST(NarrowFormats, WideningIsExactForEveryEncoding) {
  for (Format f : kAllFormats) {
    for (uint32_t bits = 0; bits < encodings(f); ++bits) {
      const Decoded d = reference_decode(f, bits);
      const uint32_t got = widen_to_f32(f, bits);
      uint32_t want = kCanonicalNaN;
      if (d.kind == Decoded::kInf) want = d.value < 0 ? 0xff800000u : 0x7f800000u;
      if (d.kind == Decoded::kFinite) {
        want = std::bit_cast<uint32_t>(static_cast<float>(d.value));
        if (d.value == 0 && ((bits >> (format_info(f).bits - 1)) & 1)) want = 0x80000000u;
      }
      ASSERT_EQ(got, want) << format_info(f).name << " bits " << bits;
    }
  }
}

// What narrowing must give, from the values alone.
struct Expected {
  uint32_t bits;
  uint32_t flags;
};

class Reference {
 public:
  explicit Reference(Format f) : f_(f), info_(format_info(f)) {
    for (uint32_t bits = 0; bits < encodings(f); ++bits) {
      const Decoded d = reference_decode(f, bits);
      if (d.kind != Decoded::kFinite) continue;
      // +0 and -0 both decode to 0: keep the one whose sign matches.
      if (d.value == 0) continue;
      code_of_[d.value] = bits;
      if (d.value > max_) max_ = d.value;
    }
    min_normal_ = std::ldexp(1.0, 1 - info_.bias);
  }

  double max() const { return max_; }

  Expected narrow(double x, bool signaling_nan, uint32_t rm, bool saturate) const {
    const uint32_t sign_bit = 1u << (info_.bits - 1);
    const uint32_t max_code = code_of_.at(max_);
    if (std::isnan(x)) {
      if (!info_.has_nan) return {max_code, kNV};
      return {info_.canonical_nan, signaling_nan ? kNV : 0u};
    }
    const bool negative = std::signbit(x);
    const uint32_t sign = negative ? sign_bit : 0;
    const uint32_t nan_or_max = saturate || !info_.has_nan ? sign | max_code : info_.canonical_nan;
    if (std::isinf(x)) {
      if (info_.has_inf) return {sign | inf_code(), 0};
      return {nan_or_max, kNV};
    }
    if (x == 0) return {sign, 0};
    const double a = std::fabs(x);
    int e = 0;
    std::frexp(a, &e);  // a in [2^(e-1), 2^e)
    --e;
    const int m = static_cast<int>(info_.mantissa_bits);
    const int emin = 1 - info_.bias;
    bool inexact = false;
    const double rounded = round_at(a, std::max(e, emin) - m, negative, rm, inexact);
    uint32_t flags = inexact ? kNX : 0u;
    if (rounded > max_) {
      const bool to_max = rm == kRTZ || (rm == kRDN && !negative) || (rm == kRUP && negative);
      uint32_t bits = info_.has_inf ? sign | inf_code() : nan_or_max;
      if (saturate || to_max) bits = sign | max_code;
      return {bits, kOF | kNX};
    }
    if (inexact && a < min_normal_) {
      bool unused = false;
      if (round_at(a, e - m, negative, rm, unused) < min_normal_) flags |= kUF;
    }
    return {rounded == 0 ? sign : sign | code_of_.at(rounded), flags};
  }

 private:
  uint32_t inf_code() const {
    return ((1u << info_.exponent_bits) - 1) << info_.mantissa_bits;
  }

  // a rounded to a multiple of 2^quantum_exp in mode rm (a's sign given separately).
  static double round_at(double a, int quantum_exp, bool negative, uint32_t rm, bool& inexact) {
    const double n = std::ldexp(a, -quantum_exp);  // exact: a power-of-two scaling
    const double whole = std::floor(n), part = n - whole;
    inexact = part != 0;
    bool up = false;
    switch (rm) {
      case kRNE: up = part > 0.5 || (part == 0.5 && std::fmod(whole, 2) == 1); break;
      case kRTZ: up = false; break;
      case kRDN: up = negative && part != 0; break;
      case kRUP: up = !negative && part != 0; break;
      case kRMM: up = part >= 0.5; break;
    }
    return std::ldexp(whole + (up ? 1 : 0), quantum_exp);
  }

  Format f_;
  const FormatInfo& info_;
  std::unordered_map<double, uint32_t> code_of_;
  double max_ = 0;
  double min_normal_ = 0;
};

// Binary32 inputs: every representable value, every midpoint and their float neighbours,
// around the overflow threshold, specials, and random floats spread over the format's range.
std::vector<uint32_t> f32_inputs(Format f) {
  std::vector<uint32_t> inputs = {0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000,
                                  0xffc00000, 0x7f800001, 0x7fa00000, 0x00000001, 0x80000001,
                                  0x7f7fffff, 0xff7fffff, 0x3f800000, 0x007fffff};
  std::vector<double> values;
  for (uint32_t bits = 0; bits < encodings(f) / 2; ++bits) {
    const Decoded d = reference_decode(f, bits);
    if (d.kind == Decoded::kFinite) values.push_back(d.value);
  }
  std::sort(values.begin(), values.end());
  const double step_above_max = values.back() - values[values.size() - 2];
  values.push_back(values.back() + step_above_max);  // where the format would continue
  values.push_back(values.back() + step_above_max);
  for (size_t i = 0; i < values.size(); ++i) {
    std::vector<double> points = {values[i]};
    if (i + 1 < values.size()) points.push_back((values[i] + values[i + 1]) / 2);
    for (double p : points) {
      const auto center = std::bit_cast<uint32_t>(static_cast<float>(p));
      for (uint32_t v : {center - 1, center, center + 1}) {
        if (std::bit_cast<float>(center) == 0 && v == center - 1) continue;
        inputs.push_back(v);
        inputs.push_back(v | 0x80000000u);
      }
    }
  }
  std::mt19937 rng(static_cast<uint32_t>(f) + 1);
  const int top = static_cast<int>(std::ilogb(values.back())) + 2;
  const int bottom = 1 - format_info(f).bias - static_cast<int>(format_info(f).mantissa_bits) - 3;
  for (int i = 0; i < 20000; ++i) {
    const int exponent = bottom + static_cast<int>(rng() % static_cast<uint32_t>(top - bottom + 1));
    const uint32_t biased = static_cast<uint32_t>(std::clamp(exponent + 127, 0, 255));
    inputs.push_back((rng() & 0x80000000u) | biased << 23 | (rng() & 0x7fffffu));
    inputs.push_back(static_cast<uint32_t>(rng()));
  }
  return inputs;
}

bool is_signaling_f32(uint32_t bits) {
  return (bits & 0x7fffffffu) > 0x7f800000u && !(bits & 0x00400000u);
}

class Narrowing : public ::testing::TestWithParam<Format> {};

TEST_P(Narrowing, FromF32MatchesTheReference) {
  const Format f = GetParam();
  const Reference reference(f);
  int failures = 0;
  for (uint32_t input : f32_inputs(f)) {
    for (uint32_t rm = 0; rm < 5; ++rm) {
      for (bool saturate : {false, true}) {
        const Expected want = reference.narrow(std::bit_cast<float>(input),
                                               is_signaling_f32(input), rm, saturate);
        uint32_t flags = 0;
        const uint32_t got = narrow_from_f32(f, input, rm, saturate, flags);
        if (got == want.bits && flags == want.flags) continue;
        ASSERT_LT(++failures, 10) << "too many mismatches";
        ADD_FAILURE() << format_info(f).name << " f32 " << std::hex << input << " rm " << rm
                      << " saturate " << saturate << ": got " << got << " flags " << flags
                      << ", want " << want.bits << " flags " << want.flags;
      }
    }
  }
}

TEST_P(Narrowing, FromF64MatchesTheReference) {
  const Format f = GetParam();
  const Reference reference(f);
  std::mt19937_64 rng(static_cast<uint64_t>(f) + 7);
  std::vector<uint64_t> inputs = {0x7ff0000000000001u, 0x7ff8000000000000u,
                                  0xfff0000000000000u, 0x0000000000000001u,
                                  0x7fefffffffffffffu};
  // Each binary32 boundary input widened, nudged by one binary64 ulp either way (midpoints
  // plus or minus a little below binary32 resolution), and random doubles in range.
  // (For the 16-bit formats every third one is plenty and keeps the test fast.)
  const std::vector<uint32_t> boundaries = f32_inputs(f);
  const size_t stride = format_info(f).bits == 16 ? 3 : 1;
  for (size_t i = 0; i < boundaries.size(); i += stride) {
    const double x = std::bit_cast<float>(boundaries[i]);
    if (!std::isfinite(x) || x == 0) continue;
    const auto bits = std::bit_cast<uint64_t>(x);
    for (uint64_t v : {bits - 1, bits, bits + 1}) inputs.push_back(v);
  }
  const int top = std::ilogb(reference.max()) + 2;
  const int bottom = 1 - format_info(f).bias - static_cast<int>(format_info(f).mantissa_bits) - 3;
  for (int i = 0; i < 20000; ++i) {
    const int exponent = bottom + static_cast<int>(rng() % static_cast<uint64_t>(top - bottom + 1));
    inputs.push_back((rng() & (uint64_t{1} << 63)) |
                     static_cast<uint64_t>(exponent + 1023) << 52 | (rng() >> 12));
  }
  int failures = 0;
  for (uint64_t input : inputs) {
    const bool signaling =
        (input & ~(uint64_t{1} << 63)) > 0x7ff0000000000000u && !(input & (uint64_t{1} << 51));
    for (uint32_t rm = 0; rm < 5; ++rm) {
      for (bool saturate : {false, true}) {
        const Expected want =
            reference.narrow(std::bit_cast<double>(input), signaling, rm, saturate);
        uint32_t flags = 0;
        const uint32_t got = narrow_from_f64(f, input, rm, saturate, flags);
        if (got == want.bits && flags == want.flags) continue;
        ASSERT_LT(++failures, 10) << "too many mismatches";
        ADD_FAILURE() << format_info(f).name << " f64 " << std::hex << input << " rm " << rm
                      << " saturate " << saturate << ": got " << got << " flags " << flags
                      << ", want " << want.bits << " flags " << want.flags;
      }
    }
  }
}

// Values every format can hold survive a round trip unchanged and raise nothing.
TEST_P(Narrowing, RoundTripsEveryEncoding) {
  const Format f = GetParam();
  for (uint32_t bits = 0; bits < encodings(f); ++bits) {
    if (reference_decode(f, bits).kind == Decoded::kNaN) continue;
    uint32_t flags = 0;
    EXPECT_EQ(narrow_from_f32(f, widen_to_f32(f, bits), kRNE, false, flags), bits);
    EXPECT_EQ(flags, 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(AllFormats, Narrowing, ::testing::ValuesIn(kAllFormats),
                         [](const auto& info) { return std::string(format_info(info.param).name); });

}  // namespace
}  // namespace ventus::fp
