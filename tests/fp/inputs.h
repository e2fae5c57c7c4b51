// Deterministic operand generators that favour the hard cases of binary32 arithmetic:
// specials, subnormals, exponent pairs that cancel, underflow or overflow, halfway points.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

namespace ventus::testing {

enum class OperandMix {
  kArithmetic,     // a, b related (cancellation, underflow, overflow); c any
  kFusedMultiply,  // as kArithmetic, but c is often close to -(a*b): massive cancellation
  kToInteger,      // a near the int32/uint32 range, halfway cases
  kFromInteger,    // a is an integer bit pattern
};

struct Operands {
  uint32_t a, b, c;
};

// `count` operand triples for an operation of the given mix, from a fixed seed.
std::vector<Operands> generate_operands(OperandMix mix, size_t count, uint32_t seed);

// The special values every operation must get right (zeros, infinities, NaNs of both
// kinds, subnormal and normal extremes, integer-conversion boundaries).
const std::vector<uint32_t>& special_values();

}  // namespace ventus::testing
