#include "inputs.h"

#include <bit>

namespace ventus::testing {
namespace {

uint32_t make_float(bool sign, int biased_exp, uint32_t frac) {
  if (biased_exp < 0) biased_exp = 0;
  if (biased_exp > 255) biased_exp = 255;
  return (sign ? 0x80000000u : 0) | (static_cast<uint32_t>(biased_exp) << 23) | (frac & 0x7fffffu);
}

// Fractions that make rounding interesting: random, short (exact results), all ones
// (carries), a single low bit (sticky), halfway patterns.
uint32_t fraction(std::mt19937& rng) {
  switch (rng() % 6) {
    case 0: return rng() & 0x7ff000u;
    case 1: return 0x7fffffu ^ (rng() & 0x7u);
    case 2: return rng() & 0x7u;
    case 3: return (rng() & 0x7ffe00u) | 0x100u;
    default: return rng();
  }
}

uint32_t any_float(std::mt19937& rng) {
  const auto& specials = special_values();
  switch (rng() % 8) {
    case 0: return specials[rng() % specials.size()];
    case 1: return static_cast<uint32_t>(rng());
    case 2: return make_float(rng() & 1, 0, fraction(rng));  // subnormal
    case 3: return make_float(rng() & 1, 1 + static_cast<int>(rng() % 4), fraction(rng));
    case 4: return make_float(rng() & 1, 250 + static_cast<int>(rng() % 5), fraction(rng));
    default: return make_float(rng() & 1, 100 + static_cast<int>(rng() % 55), fraction(rng));
  }
}

int biased_exp(uint32_t a) {
  return static_cast<int>((a >> 23) & 0xff);
}

// A second operand whose exponent relates to the first one's: close (cancellation in
// sums), or so that their product or quotient lands near the subnormal or overflow border.
uint32_t related_float(std::mt19937& rng, uint32_t a) {
  const int delta = static_cast<int>(rng() % 61) - 30;
  const int ea = biased_exp(a);
  switch (rng() % 4) {
    case 0: return make_float(rng() & 1, ea + (delta % 3), fraction(rng));
    case 1: return make_float(rng() & 1, ea + delta, fraction(rng));
    case 2: return make_float(rng() & 1, 127 - ea + 127 - 126 + (delta % 26), fraction(rng));
    default: return make_float(rng() & 1, 254 - ea + 127 + (delta % 3), fraction(rng));
  }
}

uint32_t near_integer_range(std::mt19937& rng) {
  if (rng() % 4 == 0) return any_float(rng);
  const int exponent = static_cast<int>(rng() % 36) - 2;  // |x| from 0.25 to 2^33
  uint32_t frac = fraction(rng);
  if (rng() % 3 == 0 && exponent >= 1 && exponent <= 22) {
    frac = (frac & ~((1u << (23 - exponent)) - 1)) | (1u << (22 - exponent));  // x.5
  }
  return make_float(rng() & 1, 127 + exponent, frac);
}

uint32_t any_integer(std::mt19937& rng) {
  switch (rng() % 5) {
    case 0: return static_cast<uint32_t>(rng() % 2001) - 1000;
    case 1: return (1u << (rng() % 32)) + static_cast<uint32_t>(rng() % 3) - 1;
    case 2: return static_cast<uint32_t>(rng()) | 0x80000000u;
    case 3: return static_cast<uint32_t>(rng()) >> (rng() % 32);
    default: return static_cast<uint32_t>(rng());
  }
}

}  // namespace

const std::vector<uint32_t>& special_values() {
  static const std::vector<uint32_t> values = {
      0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001,
      0xff800001, 0x7fa00000, 0x7fffffff, 0x00000001, 0x80000001, 0x007fffff, 0x807fffff,
      0x00400000, 0x00800000, 0x80800000, 0x00800001, 0x7f7fffff, 0xff7fffff, 0x7f000000,
      0x3f800000, 0xbf800000, 0x3f800001, 0x3f7fffff, 0x3fc00000, 0x40000000, 0x3f000000,
      0xbf000000, 0x3ec00000, 0x3f400000, 0x40200000, 0x40400000, 0x4f000000, 0xcf000000,
      0x4f800000, 0x4effffff, 0xcf000001, 0x4f7fffff, 0x34000000, 0x33800000, 0x0c000000};
  return values;
}

std::vector<Operands> generate_operands(OperandMix mix, size_t count, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<Operands> operands;
  const auto& specials = special_values();
  // Every pair of specials first (for binary ops), then random operands.
  if (mix == OperandMix::kArithmetic || mix == OperandMix::kFusedMultiply) {
    for (uint32_t a : specials) {
      for (uint32_t b : specials) operands.push_back({a, b, specials[rng() % specials.size()]});
    }
  }
  while (operands.size() < count) {
    Operands o{};
    switch (mix) {
      case OperandMix::kArithmetic:
      case OperandMix::kFusedMultiply:
        o.a = any_float(rng);
        o.b = rng() % 3 ? related_float(rng, o.a) : any_float(rng);
        o.c = rng() % 2 ? related_float(rng, o.a) : any_float(rng);
        if (mix == OperandMix::kFusedMultiply && rng() % 2) {
          // The host product's negation, nudged by a few ulps.
          const float product = std::bit_cast<float>(o.a) * std::bit_cast<float>(o.b);
          o.c = (std::bit_cast<uint32_t>(product) ^ 0x80000000u) + (rng() % 5) - 2;
        }
        break;
      case OperandMix::kToInteger: o.a = near_integer_range(rng); break;
      case OperandMix::kFromInteger: o.a = any_integer(rng); break;
    }
    operands.push_back(o);
  }
  return operands;
}

}  // namespace ventus::testing
