// IEEE-754 binary32 arithmetic with RISC-V semantics: the five rounding modes, accrued
// exception flags, the canonical NaN 0x7fc00000, minimumNumber/maximumNumber for
// fmin/fmax, saturating conversions. Bit-exact to a RISC-V hart (checked against
// qemu-riscv32 in tests/fp). Values are raw bit patterns (Zfinx keeps them in x registers).
// See docs/floating-point.md for the exact rules.
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
uint32_t fma(uint32_t a, uint32_t b, uint32_t c, uint32_t rm,
             uint32_t& flags);  // a*b+c, one rounding
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
uint32_t rsqrt7(uint32_t a, uint32_t& flags);             // vfrsqrt7.v estimate (RVV 1.0 table)
uint32_t rec7(uint32_t a, uint32_t rm, uint32_t& flags);  // vfrec7.v estimate (RVV 1.0 table)
uint32_t exp(uint32_t a, uint32_t rm, uint32_t& flags);   // vfexp: e^a correctly rounded

// Lane-wise forms for the vector instructions: for every lane i < lanes whose bit is set in
// active_mask, d[i] = op(a[i], b[i] [, c[i]]); inactive lanes of d are left untouched and
// raise nothing. d may alias a, b or c. One rounding-mode switch per call instead of per
// lane, so these are the fast way to run a warp. lanes <= 32.
void add_lanes(const uint32_t* a, const uint32_t* b, uint32_t* d, uint32_t active_mask,
               unsigned lanes, uint32_t rm, uint32_t& flags);
void sub_lanes(const uint32_t* a, const uint32_t* b, uint32_t* d, uint32_t active_mask,
               unsigned lanes, uint32_t rm, uint32_t& flags);
void mul_lanes(const uint32_t* a, const uint32_t* b, uint32_t* d, uint32_t active_mask,
               unsigned lanes, uint32_t rm, uint32_t& flags);
void div_lanes(const uint32_t* a, const uint32_t* b, uint32_t* d, uint32_t active_mask,
               unsigned lanes, uint32_t rm, uint32_t& flags);
void sqrt_lanes(const uint32_t* a, uint32_t* d, uint32_t active_mask, unsigned lanes, uint32_t rm,
                uint32_t& flags);
// d[i] = a[i] * b[i] + c[i] with one rounding (the vfmacc/vfmadd family maps its operands
// onto a, b, c and negates with sign-bit flips before calling).
void fma_lanes(const uint32_t* a, const uint32_t* b, const uint32_t* c, uint32_t* d,
               uint32_t active_mask, unsigned lanes, uint32_t rm, uint32_t& flags);

// The pure-integer implementation. Single operations above are exactly these; the lane
// helpers use host SSE arithmetic instead where the host has the rounding mode (not RMM) and
// at least 4 lanes are active. Exported so tests can hold both paths to the same reference.
namespace exact {
uint32_t add(uint32_t a, uint32_t b, uint32_t rm, uint32_t& flags);
uint32_t mul(uint32_t a, uint32_t b, uint32_t rm, uint32_t& flags);
uint32_t div(uint32_t a, uint32_t b, uint32_t rm, uint32_t& flags);
uint32_t sqrt(uint32_t a, uint32_t rm, uint32_t& flags);
uint32_t fma(uint32_t a, uint32_t b, uint32_t c, uint32_t rm, uint32_t& flags);
}  // namespace exact

}  // namespace ventus::fp
