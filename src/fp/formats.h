// The narrow number formats of the v2025 additions (fp16, bfloat16, OCP fp8/fp6/fp4) and
// their conversions to and from binary32 / binary64. Values are raw bit patterns in the
// low bits of a uint32_t. Every value of these formats is exactly a binary32 value, so
// widening is exact; narrowing rounds once in a RISC-V rounding mode and raises RISC-V
// flags. See docs/floating-point.md ("Narrow formats") for the exact rules.
#pragma once

#include <cstdint>

namespace ventus::fp {

enum class Format : uint8_t {
  F16,   // IEEE binary16: 1.5.10, bias 15, inf and NaN
  BF16,  // bfloat16: 1.8.7, bias 127, inf and NaN
  E4M3,  // OCP fp8 E4M3: 1.4.3, bias 7, no inf, NaN = S.1111.111 only, max 448
  E5M2,  // OCP fp8 E5M2: 1.5.2, bias 15, IEEE-like (inf, NaN), max 57344
  E3M2,  // OCP fp6 E3M2: 1.3.2, bias 3, no inf, no NaN, max 28
  E2M3,  // OCP fp6 E2M3: 1.2.3, bias 1, no inf, no NaN, max 7.5
  E2M1,  // OCP fp4 E2M1: 1.2.1, bias 1, no inf, no NaN, max 6
};

struct FormatInfo {
  const char* name;  // "f16", "bf16", "e4m3", "e5m2", "e3m2", "e2m3", "e2m1"
  unsigned bits;     // total width (sign included)
  unsigned exponent_bits;
  unsigned mantissa_bits;  // stored fraction bits
  int bias;
  bool has_inf;
  bool has_nan;
  uint32_t max_finite;     // bit pattern of +largest finite value
  uint32_t canonical_nan;  // bit pattern of the NaN conversions produce (0 when !has_nan)
};

const FormatInfo& format_info(Format f);

// bits (low format_info(f).bits bits; higher bits ignored) as binary32, exactly. Every NaN
// becomes the canonical binary32 NaN 0x7fc00000. Raises nothing.
uint32_t widen_to_f32(Format f, uint32_t bits);

// Rounds a binary32 (narrow_from_f32) or binary64 (narrow_from_f64) value to format f in
// rounding mode rm (0..4, RMM included), OR-ing RISC-V flags into `flags`: NX, UF (tiny after
// rounding and inexact), OF (with NX), NV (signalling NaN input; NaN or infinity input to a
// format that cannot represent it). Overflow of a finite value: ±inf or ±max finite as IEEE
// 754 says for the mode (formats with inf); ±max finite when `saturate` or when the format
// has no NaN; otherwise (E4M3) NaN for RNE/RMM and the modes that round away from zero.
// Infinite input: ±inf where the format has inf; else ±max finite (saturate or no NaN) or NaN,
// with NV. NaN input: the canonical NaN (positive); formats without NaN give +max finite
// with NV. The result is in the low bits, zero above.
uint32_t narrow_from_f32(Format f, uint32_t f32, uint32_t rm, bool saturate, uint32_t& flags);
uint32_t narrow_from_f64(Format f, uint64_t f64, uint32_t rm, bool saturate, uint32_t& flags);

}  // namespace ventus::fp
