// Internal to ventus_fp: the one rounding step shared by binary16, binary64 and the narrow
// formats. A value sign * sig * 2^exp is rounded to a format described by its Layout; the
// caller decides what an overflow becomes (inf, max finite or NaN differ by format).
#pragma once

#include <bit>
#include <cstdint>

#include "fp32.h"

namespace ventus::fp::detail {

// Shift right, OR-ing every bit shifted out into bit 0 (the sticky bit), so a later
// rounding still sees that the value lies strictly above the truncated one.
constexpr uint64_t shift_right_jam(uint64_t value, int count) {
  if (count <= 0) return value;
  if (count >= 64) return value != 0;
  return (value >> count) | ((value & ((uint64_t{1} << count) - 1)) != 0);
}

constexpr unsigned __int128 shift_right_jam(unsigned __int128 value, int count) {
  if (count <= 0) return value;
  if (count >= 128) return value != 0;
  const unsigned __int128 lost = value & ((static_cast<unsigned __int128>(1) << count) - 1);
  return (value >> count) | (lost != 0);
}

constexpr int msb_of(unsigned __int128 value) {  // value != 0
  const auto high = static_cast<uint64_t>(value >> 64);
  return high ? 127 - std::countl_zero(high) : 63 - std::countl_zero(static_cast<uint64_t>(value));
}

// Whether a magnitude whose kept part ends in kept_lsb and whose dropped part is `dropped`
// (`half` is the weight of the dropped part's top bit) rounds away from zero.
constexpr bool round_up(bool sign, uint64_t kept_lsb, uint64_t dropped, uint64_t half,
                        uint32_t rm) {
  switch (rm) {
    case kRNE: return dropped > half || (dropped == half && (kept_lsb & 1));
    case kRTZ: return false;
    case kRDN: return sign && dropped != 0;
    case kRUP: return !sign && dropped != 0;
    default: return dropped >= half;  // kRMM
  }
}

// Whether an overflowing result becomes the largest finite value rather than infinity in
// this rounding mode (IEEE 754 7.4: the directed modes that round toward zero).
constexpr bool overflow_to_max_finite(bool sign, uint32_t rm) {
  return rm == kRTZ || (rm == kRDN && !sign) || (rm == kRUP && sign);
}

struct Layout {
  int mantissa_bits;    // stored fraction bits; the precision is one more
  int bias;             // a normal value is 1.f * 2^(field - bias), field >= 1
  uint64_t max_finite;  // encoding (sign excluded) of the largest finite magnitude
};

struct Rounded {
  uint64_t magnitude;  // encoding without the sign; meaningless when overflow
  bool overflow;       // above max_finite after rounding (OF|NX already raised)
};

// Rounds sign * sig * 2^exp (sig != 0) to the layout. Bit 0 of sig may be a sticky bit
// standing for lost lower-order bits as long as sig has at least precision + 2 significant
// bits. Tininess is detected after rounding, as RISC-V requires.
constexpr Rounded round_to_layout(const Layout& layout, bool sign, int exp, uint64_t sig,
                                  uint32_t rm, uint32_t& flags) {
  const int precision = layout.mantissa_bits + 1;
  const int dropped_bits = 63 - precision;  // a 63-bit window with the leading bit at 62
  const uint64_t dropped_mask = (uint64_t{1} << dropped_bits) - 1;
  const uint64_t half = uint64_t{1} << (dropped_bits - 1);
  const uint64_t carry = uint64_t{1} << precision;
  const int msb = 63 - std::countl_zero(sig);
  if (msb < 62) {
    sig <<= 62 - msb;
  } else if (msb == 63) {
    sig = shift_right_jam(sig, 1);
  }
  int64_t biased = int64_t{exp} + msb + layout.bias;  // biased exponent of the leading bit
  if (biased >= 1) {
    uint64_t kept = sig >> dropped_bits;
    const uint64_t dropped = sig & dropped_mask;
    if (round_up(sign, kept, dropped, half, rm) && ++kept == carry) {
      kept >>= 1;
      ++biased;
    }
    // The leading bit of kept stands for the exponent field's lowest bit: field f, fraction
    // kept - 2^m encodes as (f << m) + kept - 2^m = ((f - 1) << m) + kept.
    if (biased > 4096 ||
        ((static_cast<uint64_t>(biased - 1) << layout.mantissa_bits) + kept) > layout.max_finite) {
      flags |= kOF | kNX;
      return {0, true};
    }
    if (dropped) flags |= kNX;
    return {(static_cast<uint64_t>(biased - 1) << layout.mantissa_bits) + kept, false};
  }
  // Below the smallest normal before rounding. Still not tiny if rounding to full precision
  // with an unbounded exponent would carry up to the smallest normal.
  bool tiny = true;
  if (biased == 0) {
    const uint64_t kept = sig >> dropped_bits;
    tiny = !(round_up(sign, kept, sig & dropped_mask, half, rm) && kept + 1 == carry);
  }
  sig = shift_right_jam(sig, static_cast<int>(biased < -100 ? 101 : 1 - biased));
  uint64_t kept = sig >> dropped_bits;
  const uint64_t dropped = sig & dropped_mask;
  if (round_up(sign, kept, dropped, half, rm)) ++kept;  // a carry makes the smallest normal
  if (dropped) flags |= tiny ? (kNX | kUF) : kNX;
  return {kept, false};
}

// The same for a 128-bit significand (products of binary64 significands, fma sums).
constexpr Rounded round_to_layout(const Layout& layout, bool sign, int exp, unsigned __int128 sig,
                                  uint32_t rm, uint32_t& flags) {
  const int msb = msb_of(sig);
  const int shift = msb > 62 ? msb - 62 : 0;
  return round_to_layout(layout, sign, exp + shift, static_cast<uint64_t>(shift_right_jam(sig, shift)),
                         rm, flags);
}

}  // namespace ventus::fp::detail
