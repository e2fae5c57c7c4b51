// IEEE 754 binary64 arithmetic with the semantics of the RISC-V D extension: the five
// rounding modes, RISC-V flags (tininess after rounding), canonical NaN
// 0x7ff8000000000000, minimumNumber/maximumNumber for min/max, saturating integer
// conversions. Values are raw bit patterns (uint64_t). The same rules as fp32.h; see
// docs/floating-point.md.
#pragma once

#include <cstdint>

namespace ventus::fp::f64 {

inline constexpr uint64_t kCanonicalNaN = 0x7ff8000000000000u;

// rm is a static rounding mode 0..4 (fp::kRNE..kRMM); flags accumulates (|=) fp::Flag bits.
uint64_t add(uint64_t a, uint64_t b, uint32_t rm, uint32_t& flags);
uint64_t sub(uint64_t a, uint64_t b, uint32_t rm, uint32_t& flags);
uint64_t mul(uint64_t a, uint64_t b, uint32_t rm, uint32_t& flags);
uint64_t div(uint64_t a, uint64_t b, uint32_t rm, uint32_t& flags);
uint64_t sqrt(uint64_t a, uint32_t rm, uint32_t& flags);
uint64_t fma(uint64_t a, uint64_t b, uint64_t c, uint32_t rm, uint32_t& flags);  // a*b+c
uint64_t min(uint64_t a, uint64_t b, uint32_t& flags);
uint64_t max(uint64_t a, uint64_t b, uint32_t& flags);
bool eq(uint64_t a, uint64_t b, uint32_t& flags);  // quiet
bool lt(uint64_t a, uint64_t b, uint32_t& flags);  // signaling
bool le(uint64_t a, uint64_t b, uint32_t& flags);  // signaling
uint32_t classify(uint64_t a);                     // fclass.d bit mask
int32_t to_i32(uint64_t a, uint32_t rm, uint32_t& flags);
uint32_t to_u32(uint64_t a, uint32_t rm, uint32_t& flags);
int64_t to_i64(uint64_t a, uint32_t rm, uint32_t& flags);
uint64_t to_u64(uint64_t a, uint32_t rm, uint32_t& flags);
uint64_t from_i32(int32_t a, uint32_t rm, uint32_t& flags);  // exact
uint64_t from_u32(uint32_t a, uint32_t rm, uint32_t& flags);  // exact
uint64_t from_i64(int64_t a, uint32_t rm, uint32_t& flags);
uint64_t from_u64(uint64_t a, uint32_t rm, uint32_t& flags);
uint64_t from_f32(uint32_t a, uint32_t& flags);  // fcvt.d.s: exact; NV for a signalling NaN
uint32_t to_f32(uint64_t a, uint32_t rm, uint32_t& flags);  // fcvt.s.d

}  // namespace ventus::fp::f64
