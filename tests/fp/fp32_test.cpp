// Hand-checked values, the lane helpers against the scalar functions, the host (SSE) path
// against the integer path, and vfexp against binary128 arithmetic.
#include "fp32.h"

#include <gtest/gtest.h>
#include <quadmath.h>

#include <bit>
#include <cstring>
#include <random>

#include "inputs.h"

namespace ventus::fp {
namespace {

constexpr uint32_t kOne = 0x3f800000u;
constexpr uint32_t kPlusInf = 0x7f800000u, kMinusInf = 0xff800000u;
constexpr uint32_t kSignalingNaN = 0x7f800001u;

TEST(Fp32, TiesRoundPerMode) {
  // 1 + 2^-24 is exactly halfway between 1 and 1 + 2^-23.
  const uint32_t half_ulp = 0x33800000u;
  const uint32_t expected[] = {kOne, kOne, kOne, kOne + 1, kOne + 1};  // RNE RTZ RDN RUP RMM
  for (uint32_t rm = kRNE; rm <= kRMM; ++rm) {
    uint32_t flags = 0;
    EXPECT_EQ(add(kOne, half_ulp, rm, flags), expected[rm]) << "rm " << rm;
    EXPECT_EQ(flags, kNX);
  }
}

TEST(Fp32, OverflowSaturatesByMode) {
  const uint32_t max = 0x7f7fffffu;
  const uint32_t positive[] = {kPlusInf, max, max, kPlusInf, kPlusInf};
  const uint32_t negative[] = {kMinusInf, max | 0x80000000u, kMinusInf, max | 0x80000000u,
                               kMinusInf};
  for (uint32_t rm = kRNE; rm <= kRMM; ++rm) {
    uint32_t flags = 0;
    EXPECT_EQ(mul(max, 0x40000000u, rm, flags), positive[rm]);
    EXPECT_EQ(mul(max | 0x80000000u, 0x40000000u, rm, flags), negative[rm]);
    EXPECT_EQ(flags, kOF | kNX);
  }
}

TEST(Fp32, TininessIsDetectedAfterRounding) {
  // (2^-126 - 2^-150) rounds to 2^-126 under RNE: not tiny, so NX without UF.
  uint32_t flags = 0;
  const uint32_t just_below = 0x007fffffu;  // largest subnormal
  EXPECT_EQ(mul(just_below, 0x3f800001u, kRNE, flags), 0x00800000u);
  EXPECT_EQ(flags, kNX);
  flags = 0;
  EXPECT_EQ(mul(just_below, 0x3f800001u, kRTZ, flags), just_below);
  EXPECT_EQ(flags, kNX | kUF);
}

TEST(Fp32, NaNsAreCanonicalAndSignalingOnesRaiseInvalid) {
  uint32_t flags = 0;
  EXPECT_EQ(add(0xffc12345u, kOne, kRNE, flags), kCanonicalNaN);
  EXPECT_EQ(flags, 0u);
  EXPECT_EQ(mul(kSignalingNaN, kOne, kRNE, flags), kCanonicalNaN);
  EXPECT_EQ(flags, kNV);
  flags = 0;
  EXPECT_EQ(fma(kPlusInf, 0, kCanonicalNaN, kRNE, flags), kCanonicalNaN);
  EXPECT_EQ(flags, kNV) << "inf * 0 + qNaN is invalid on RISC-V";
  flags = 0;
  EXPECT_EQ(sqrt(0xbf800000u, kRNE, flags), kCanonicalNaN);
  EXPECT_EQ(flags, kNV);
}

TEST(Fp32, MinMaxFollowMinimumNumber) {
  uint32_t flags = 0;
  EXPECT_EQ(min(0x00000000u, 0x80000000u, flags), 0x80000000u);
  EXPECT_EQ(max(0x80000000u, 0x00000000u, flags), 0x00000000u);
  EXPECT_EQ(min(kCanonicalNaN, kOne, flags), kOne);
  EXPECT_EQ(flags, 0u);
  EXPECT_EQ(max(kSignalingNaN, kOne, flags), kOne);
  EXPECT_EQ(flags, kNV);
  EXPECT_EQ(min(kSignalingNaN, kCanonicalNaN, flags), kCanonicalNaN);
}

TEST(Fp32, ComparisonsSignalAsSpecified) {
  uint32_t flags = 0;
  EXPECT_FALSE(eq(kCanonicalNaN, kCanonicalNaN, flags));
  EXPECT_EQ(flags, 0u);
  EXPECT_TRUE(eq(0x80000000u, 0, flags));
  EXPECT_FALSE(lt(kCanonicalNaN, kOne, flags));
  EXPECT_EQ(flags, kNV);
  flags = 0;
  EXPECT_TRUE(le(0x80000000u, 0, flags));
  EXPECT_TRUE(lt(0xbf800000u, 0x80000001u, flags));
  EXPECT_EQ(flags, 0u);
}

TEST(Fp32, ConversionsSaturate) {
  uint32_t flags = 0;
  EXPECT_EQ(to_i32(0x4f000000u, kRNE, flags), INT32_MAX);  // 2^31
  EXPECT_EQ(flags, kNV);
  flags = 0;
  EXPECT_EQ(to_i32(0xcf000000u, kRNE, flags), INT32_MIN);  // -2^31 fits
  EXPECT_EQ(flags, 0u);
  EXPECT_EQ(to_u32(0xbe800000u, kRTZ, flags), 0u);  // -0.25 truncates to 0: inexact only
  EXPECT_EQ(flags, kNX);
  flags = 0;
  EXPECT_EQ(to_u32(0xbe800000u, kRDN, flags), 0u);  // rounds to -1: invalid
  EXPECT_EQ(flags, kNV);
  flags = 0;
  EXPECT_EQ(to_i32(kCanonicalNaN, kRNE, flags), INT32_MAX);
  EXPECT_EQ(from_u32(0xffffffffu, kRTZ, flags), 0x4f7fffffu);
  EXPECT_EQ(from_i32(-3, kRNE, flags), 0xc0400000u);
}

TEST(Fp32, ClassifyMask) {
  EXPECT_EQ(classify(kMinusInf), 1u << 0);
  EXPECT_EQ(classify(0xbf800000u), 1u << 1);
  EXPECT_EQ(classify(0x80000001u), 1u << 2);
  EXPECT_EQ(classify(0x80000000u), 1u << 3);
  EXPECT_EQ(classify(0), 1u << 4);
  EXPECT_EQ(classify(1), 1u << 5);
  EXPECT_EQ(classify(kOne), 1u << 6);
  EXPECT_EQ(classify(kPlusInf), 1u << 7);
  EXPECT_EQ(classify(kSignalingNaN), 1u << 8);
  EXPECT_EQ(classify(kCanonicalNaN), 1u << 9);
}

// The lane helpers' host (SSE) path and the integer path must agree on everything.
TEST(Fp32, HostLanePathEqualsIntegerPath) {
  const auto operands = testing::generate_operands(testing::OperandMix::kFusedMultiply, 200000, 7);
  constexpr unsigned kLanes = 32;
  for (uint32_t rm = kRNE; rm < kRMM; ++rm) {
    for (size_t base = 0; base + kLanes <= operands.size(); base += kLanes) {
      uint32_t a[kLanes], b[kLanes], c[kLanes], sums[kLanes], products[kLanes], quotients[kLanes],
          roots[kLanes], fused[kLanes];
      for (unsigned i = 0; i < kLanes; ++i) {
        a[i] = operands[base + i].a;
        b[i] = operands[base + i].b;
        c[i] = operands[base + i].c;
      }
      // Each lane on its own so a flag difference points at one operand pair.
      for (unsigned i = 0; i < kLanes; ++i) {
        uint32_t host_flags = 0, exact_flags = 0;
        const uint32_t one_lane = 0xfu << (i & ~3u);  // 4 lanes: enough for the host path
        add_lanes(a, b, sums, one_lane, kLanes, rm, host_flags);
        mul_lanes(a, b, products, one_lane, kLanes, rm, host_flags);
        div_lanes(a, b, quotients, one_lane, kLanes, rm, host_flags);
        sqrt_lanes(a, roots, one_lane, kLanes, rm, host_flags);
        fma_lanes(a, b, c, fused, one_lane, kLanes, rm, host_flags);
        for (unsigned j = i & ~3u; j < (i & ~3u) + 4; ++j) {
          ASSERT_EQ(sums[j], exact::add(a[j], b[j], rm, exact_flags));
          ASSERT_EQ(products[j], exact::mul(a[j], b[j], rm, exact_flags));
          ASSERT_EQ(quotients[j], exact::div(a[j], b[j], rm, exact_flags));
          ASSERT_EQ(roots[j], exact::sqrt(a[j], rm, exact_flags));
          ASSERT_EQ(fused[j], exact::fma(a[j], b[j], c[j], rm, exact_flags));
        }
        ASSERT_EQ(host_flags, exact_flags)
            << std::hex << "lanes from a=" << a[i & ~3u] << " b=" << b[i & ~3u] << " rm=" << rm;
      }
    }
  }
}

TEST(Fp32, LaneHelpersEqualScalarFunctionsAndSkipInactiveLanes) {
  std::mt19937 rng(11);
  const auto operands = testing::generate_operands(testing::OperandMix::kFusedMultiply, 32 * 64, 3);
  for (size_t batch = 0; batch < operands.size() / 32; ++batch) {
    uint32_t a[32], b[32], c[32];
    for (unsigned i = 0; i < 32; ++i) {
      a[i] = operands[batch * 32 + i].a;
      b[i] = operands[batch * 32 + i].b;
      c[i] = operands[batch * 32 + i].c;
    }
    const uint32_t mask = static_cast<uint32_t>(rng());
    const uint32_t rm = batch % 5;
    const unsigned lanes = 1 + batch % 32;
    using Lanes = void (*)(const uint32_t*, const uint32_t*, uint32_t*, uint32_t, unsigned,
                           uint32_t, uint32_t&);
    using Scalar = uint32_t (*)(uint32_t, uint32_t, uint32_t, uint32_t&);
    const std::pair<Lanes, Scalar> binary[] = {
        {add_lanes, add}, {sub_lanes, sub}, {mul_lanes, mul}, {div_lanes, div}};
    for (const auto& [lanes_fn, scalar_fn] : binary) {
      uint32_t d[32], lane_flags = 0, scalar_flags = 0;
      std::fill(std::begin(d), std::end(d), 0xdeadbeefu);
      lanes_fn(a, b, d, mask, lanes, rm, lane_flags);
      for (unsigned i = 0; i < 32; ++i) {
        const bool active = i < lanes && ((mask >> i) & 1);
        EXPECT_EQ(d[i], active ? scalar_fn(a[i], b[i], rm, scalar_flags) : 0xdeadbeefu);
      }
      EXPECT_EQ(lane_flags, scalar_flags);
    }
    uint32_t d[32], lane_flags = 0, scalar_flags = 0;
    std::copy(std::begin(c), std::end(c), d);  // in place, as vfmacc does
    fma_lanes(a, b, d, d, mask, lanes, rm, lane_flags);
    for (unsigned i = 0; i < 32; ++i) {
      const bool active = i < lanes && ((mask >> i) & 1);
      EXPECT_EQ(d[i], active ? fma(a[i], b[i], c[i], rm, scalar_flags) : c[i]);
    }
    EXPECT_EQ(lane_flags, scalar_flags);
    std::copy(std::begin(a), std::end(a), d);
    lane_flags = scalar_flags = 0;
    sqrt_lanes(d, d, mask, lanes, rm, lane_flags);
    for (unsigned i = 0; i < 32; ++i) {
      const bool active = i < lanes && ((mask >> i) & 1);
      EXPECT_EQ(d[i], active ? sqrt(a[i], rm, scalar_flags) : a[i]);
    }
    EXPECT_EQ(lane_flags, scalar_flags);
  }
}

TEST(Fp32Exp, SpecialValues) {
  uint32_t flags = 0;
  EXPECT_EQ(exp(0, kRNE, flags), kOne);
  EXPECT_EQ(exp(0x80000000u, kRNE, flags), kOne);
  EXPECT_EQ(exp(kPlusInf, kRNE, flags), kPlusInf);
  EXPECT_EQ(exp(kMinusInf, kRNE, flags), 0u);
  EXPECT_EQ(exp(kCanonicalNaN, kRNE, flags), kCanonicalNaN);
  EXPECT_EQ(flags, 0u);
  EXPECT_EQ(exp(kSignalingNaN, kRNE, flags), kCanonicalNaN);
  EXPECT_EQ(flags, kNV);
  flags = 0;
  EXPECT_EQ(exp(0x402df854u, kRNE, flags), 0x417277dau);  // e^2.7182817 = 15.154261
  EXPECT_EQ(exp(kOne, kRNE, flags), 0x402df854u);         // e = 2.7182817
  EXPECT_EQ(exp(kOne, kRUP, flags), 0x402df855u);
  EXPECT_EQ(flags, kNX);
  flags = 0;
  EXPECT_EQ(exp(0x42b20000u, kRNE, flags), kPlusInf);  // e^89
  EXPECT_EQ(flags, kOF | kNX);
  flags = 0;
  EXPECT_EQ(exp(0xc2d00000u, kRUP, flags), 1u);  // e^-104 is below the smallest subnormal
  EXPECT_EQ(flags, kUF | kNX);
  flags = 0;
  EXPECT_EQ(exp(0x30000000u, kRUP, flags), kOne + 1);  // e^(2^-31) is just above 1
  EXPECT_EQ(exp(0xb0000000u, kRNE, flags), kOne);
  EXPECT_EQ(exp(0xb0000000u, kRDN, flags), 0x3f7fffffu);
}

// A float's value as binary128.
__float128 value_of(uint32_t bits) {
  return std::bit_cast<float>(bits);
}

// vfexp is defined as e^x correctly rounded: checks one result directly against a
// binary128 e^x (a different method from the library's interval rounding).
void expect_correctly_rounded(uint32_t x, uint32_t rm) {
  const float xf = std::bit_cast<float>(x);
  // exact - v without losing e^x - 1 to cancellation near x = 0.
  const auto minus = [xf](__float128 v) {
    return std::fabs(xf) < 1 ? expm1q(xf) - (v - 1) : expq(xf) - v;
  };
  uint32_t flags = 0;
  const uint32_t r = exp(x, rm, flags);
  if (r == 0 || r >= 0x7f800000u || (flags & kOF)) return;  // range ends: see SpecialValues
  const __float128 below = value_of(r - 1), at = value_of(r), above = value_of(r + 1);
  switch (rm) {
    case kRTZ:
    case kRDN: EXPECT_TRUE(minus(at) >= 0 && minus(above) < 0) << std::hex << x; break;
    case kRUP: EXPECT_TRUE(minus(below) > 0 && minus(at) <= 0) << std::hex << x; break;
    default:
      EXPECT_TRUE(2 * minus(at) >= below - at && 2 * minus(at) <= above - at) << std::hex << x;
  }
  // Tiny after rounding: below 2^-126 even when rounded with an unbounded exponent (on a
  // grid of 2^-150 there).
  const __float128 min_normal = at, grid = value_of(1);
  bool tiny = r < 0x00800000u;
  if (r == 0x00800000u && minus(min_normal) < 0) {
    tiny = rm == kRTZ || rm == kRDN || (rm == kRUP && minus(min_normal - grid) <= 0) ||
           ((rm == kRNE || rm == kRMM) && minus(min_normal - grid / 2) < 0);
  }
  EXPECT_EQ(flags, (tiny ? kUF : 0u) | kNX) << std::hex << x << " rm " << rm;
}

TEST(Fp32Exp, CorrectlyRoundedAgainstBinary128) {
  std::mt19937 rng(19);
  std::uniform_real_distribution<float> range(-104.0f, 89.0f);
  for (int i = 0; i < 100000; ++i) {
    // Half the samples anywhere in the finite range, the others anywhere at all (many tiny).
    const uint32_t x = i % 2 ? std::bit_cast<uint32_t>(range(rng)) : static_cast<uint32_t>(rng());
    // NaNs, and inputs whose e^x underflows even binary128, are covered by SpecialValues.
    if (!(std::bit_cast<float>(x) >= -104.0f)) continue;
    for (uint32_t rm = kRNE; rm <= kRMM; ++rm) expect_correctly_rounded(x, rm);
  }
}

// Every binary32 input whose e^x overflows or is near the overflow threshold, and every one
// whose e^x lies below about 2^-148 (results 0 and the smallest subnormals), in all five
// modes: rounded here from binary128 with an unbounded exponent on the result's grid (2^104
// at the top of the range, 2^-149 at the bottom), with the IEEE overflow/underflow rules.
TEST(Fp32Exp, RangeEndsAgainstBinary128) {
  const auto round_on_grid = [](__float128 v, __float128 quantum, uint32_t rm) {
    const __float128 n = v / quantum, below = floorq(n), frac = n - below;
    switch (rm) {
      case kRTZ:
      case kRDN: return below;  // v > 0
      case kRUP: return frac > 0 ? below + 1 : below;
      case kRMM: return frac >= 0.5 ? below + 1 : below;
      default: return frac > 0.5 || (frac == 0.5 && fmodq(below, 2) != 0) ? below + 1 : below;
    }
  };
  const __float128 top = 0x1p104, bottom = 0x1p-149, max_finite = 0x1.fffffep127;
  int overflows = 0, zeros = 0;
  // 88.5 .. 89: e^x from about 2.7e38 to 4.5e38 (the largest finite value is 3.4e38).
  for (uint32_t x = 0x42b10000u; x <= 0x42b20000u; ++x) {
    const __float128 v = expq(std::bit_cast<float>(x));
    for (uint32_t rm = kRNE; rm <= kRMM; ++rm) {
      const __float128 rounded = round_on_grid(v, top, rm) * top;
      uint32_t expected = 0, expected_flags = kNX;
      if (rounded > max_finite) {
        expected_flags |= kOF;
        expected = rm == kRTZ || rm == kRDN ? 0x7f7fffffu : kPlusInf;
      } else {
        expected = std::bit_cast<uint32_t>(static_cast<float>(rounded));
      }
      uint32_t flags = 0;
      ASSERT_EQ(exp(x, rm, flags), expected) << std::hex << x << " rm " << rm;
      ASSERT_EQ(flags, expected_flags) << std::hex << x << " rm " << rm;
      overflows += (expected_flags & kOF) != 0;
    }
  }
  // -103 .. -104.5: e^x from about 1.4e-45 (the smallest subnormal) down to 3.4e-46.
  for (uint32_t x = 0xc2ce0000u; x <= 0xc2d10000u; ++x) {
    const __float128 v = expq(std::bit_cast<float>(x));
    for (uint32_t rm = kRNE; rm <= kRMM; ++rm) {
      const auto expected = static_cast<uint32_t>(round_on_grid(v, bottom, rm));
      uint32_t flags = 0;
      ASSERT_EQ(exp(x, rm, flags), expected) << std::hex << x << " rm " << rm;
      ASSERT_EQ(flags, kUF | kNX) << std::hex << x << " rm " << rm;
      zeros += expected == 0;
    }
  }
  EXPECT_GT(overflows, 10000);
  EXPECT_GT(zeros, 10000);
}

// Inputs (found by an exhaustive search over RNE and RUP) whose binary64 enclosure straddles
// a rounding boundary, so the library has to settle them in binary128.
TEST(Fp32Exp, HardCasesNeedingBinary128) {
  for (uint32_t x : {0x33ffffffu, 0x347ffffeu, 0x373fffb8u, 0x3ab13d4fu, 0xb4800001u, 0xb7000020u,
                     0xbb32cf64u, 0xc16912cdu, 0xc236bd8cu}) {
    for (uint32_t rm = kRNE; rm <= kRMM; ++rm) expect_correctly_rounded(x, rm);
  }
}

}  // namespace
}  // namespace ventus::fp
