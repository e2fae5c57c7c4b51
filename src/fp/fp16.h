// IEEE 754 binary16 arithmetic with the semantics of the RISC-V Zfh extension: the five
// rounding modes, RISC-V flags (tininess after rounding), canonical NaN 0x7e00,
// minimumNumber/maximumNumber for min/max, saturating integer conversions. Values are raw
// bit patterns (uint16_t). The same rules as fp32.h; see docs/floating-point.md.
#pragma once

#include <cstdint>

namespace ventus::fp::f16 {

inline constexpr uint16_t kCanonicalNaN = 0x7e00u;

// rm is a static rounding mode 0..4 (fp::kRNE..kRMM); flags accumulates (|=) fp::Flag bits.
uint16_t add(uint16_t a, uint16_t b, uint32_t rm, uint32_t& flags);
uint16_t sub(uint16_t a, uint16_t b, uint32_t rm, uint32_t& flags);
uint16_t mul(uint16_t a, uint16_t b, uint32_t rm, uint32_t& flags);
uint16_t div(uint16_t a, uint16_t b, uint32_t rm, uint32_t& flags);
uint16_t sqrt(uint16_t a, uint32_t rm, uint32_t& flags);
uint16_t fma(uint16_t a, uint16_t b, uint16_t c, uint32_t rm, uint32_t& flags);  // a*b+c
uint16_t min(uint16_t a, uint16_t b, uint32_t& flags);
uint16_t max(uint16_t a, uint16_t b, uint32_t& flags);
bool eq(uint16_t a, uint16_t b, uint32_t& flags);  // quiet
bool lt(uint16_t a, uint16_t b, uint32_t& flags);  // signaling
bool le(uint16_t a, uint16_t b, uint32_t& flags);  // signaling
uint32_t classify(uint16_t a);                     // fclass.h bit mask
int32_t to_i32(uint16_t a, uint32_t rm, uint32_t& flags);
uint32_t to_u32(uint16_t a, uint32_t rm, uint32_t& flags);
uint16_t from_i32(int32_t a, uint32_t rm, uint32_t& flags);
uint16_t from_u32(uint32_t a, uint32_t rm, uint32_t& flags);
// Integer conversions at element width 16 (vfcvt at SEW=16): saturating like to_i32.
int16_t to_i16(uint16_t a, uint32_t rm, uint32_t& flags);
uint16_t to_u16(uint16_t a, uint32_t rm, uint32_t& flags);
uint32_t to_f32(uint16_t a, uint32_t& flags);  // fcvt.s.h: exact; NV for a signalling NaN
uint16_t from_f32(uint32_t a, uint32_t rm, uint32_t& flags);  // fcvt.h.s

}  // namespace ventus::fp::f16
