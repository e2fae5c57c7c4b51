// IEEE-754 binary32 arithmetic with RISC-V semantics: the five rounding modes, accrued
// exception flags, the canonical NaN 0x7fc00000, minimumNumber/maximumNumber for
// fmin/fmax, saturating conversions. Bit-exact to a RISC-V hart (checked against
// qemu-riscv32 in tests/fp). Values are raw bit patterns (Zfinx keeps them in x registers).
#pragma once

#include <cstdint>

namespace ventus::fp {

enum RoundingMode : uint32_t { kRNE = 0, kRTZ = 1, kRDN = 2, kRUP = 3, kRMM = 4, kDYN = 7 };
enum Flag : uint32_t { kNX = 1, kUF = 2, kOF = 4, kDZ = 8, kNV = 16 };
inline constexpr uint32_t kCanonicalNaN = 0x7fc00000u;

// rm is a static rounding mode 0..4 (callers resolve DYN from frm and reject 5, 6).
// flags accumulates (|=) the exceptions raised.
uint32_t add(uint32_t a, uint32_t b, uint32_t rm, uint32_t& flags);
uint32_t sub(uint32_t a, uint32_t b, uint32_t rm, uint32_t& flags);
uint32_t mul(uint32_t a, uint32_t b, uint32_t rm, uint32_t& flags);
uint32_t div(uint32_t a, uint32_t b, uint32_t rm, uint32_t& flags);
uint32_t sqrt(uint32_t a, uint32_t rm, uint32_t& flags);
uint32_t fma(uint32_t a, uint32_t b, uint32_t c, uint32_t rm, uint32_t& flags);  // a*b+c, one rounding
uint32_t min(uint32_t a, uint32_t b, uint32_t& flags);
uint32_t max(uint32_t a, uint32_t b, uint32_t& flags);
bool eq(uint32_t a, uint32_t b, uint32_t& flags);  // quiet
bool lt(uint32_t a, uint32_t b, uint32_t& flags);  // signaling
bool le(uint32_t a, uint32_t b, uint32_t& flags);  // signaling
uint32_t classify(uint32_t a);                     // fclass.s bit mask
int32_t to_i32(uint32_t a, uint32_t rm, uint32_t& flags);
uint32_t to_u32(uint32_t a, uint32_t rm, uint32_t& flags);
uint32_t from_i32(int32_t a, uint32_t rm, uint32_t& flags);
uint32_t from_u32(uint32_t a, uint32_t rm, uint32_t& flags);
uint32_t rsqrt7(uint32_t a, uint32_t& flags);  // vfrsqrt7.v estimate (RVV 1.0 table)
uint32_t rec7(uint32_t a, uint32_t rm, uint32_t& flags);  // vfrec7.v estimate
uint32_t exp(uint32_t a, uint32_t rm, uint32_t& flags);   // vfexp.v: e^a, see docs/isa.md

}  // namespace ventus::fp
