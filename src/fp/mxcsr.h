// The x86-64 MXCSR settings under which host SSE/AVX arithmetic is RISC-V binary32
// arithmetic (docs/floating-point.md), shared by the fp library's lane helpers and the
// translating tier's inline fp32 code (src/jit/emit_fp32.cpp): every exception masked, no
// DAZ/FTZ (subnormals honoured), the rounding control for RNE/RTZ/RDN/RUP (RMM has none),
// and which sticky MXCSR bit is which RISC-V flag (the denormal-operand bit is none). x86
// detects tininess after rounding and signals a masked underflow only when inexact, as
// RISC-V does; NaN results still need canonicalising.
#pragma once

#include <cstdint>

#include "fp32.h"

namespace ventus::fp::mxcsr {

inline constexpr uint32_t kAllMasked = 0x1f80u;
inline constexpr uint32_t kStickyFlags = 0x3fu;
// By RISC-V rounding mode, kRNE..kRUP.
inline constexpr uint32_t kRoundingControl[4] = {0x0000u, 0x6000u, 0x2000u, 0x4000u};
inline constexpr bool has_rounding_mode(uint32_t rm) {
  return rm < kRMM;
}

struct FlagBit {
  uint32_t mxcsr_bit, flag;
};
inline constexpr FlagBit kFlags[] = {
    {0x01, kNV}, {0x04, kDZ}, {0x08, kOF}, {0x10, kUF}, {0x20, kNX}};

// The RISC-V flags that the sticky bits of an MXCSR value stand for.
constexpr uint32_t to_flags(uint32_t mxcsr) {
  uint32_t flags = 0;
  for (const FlagBit& entry : kFlags) {
    if (mxcsr & entry.mxcsr_bit) flags |= entry.flag;
  }
  return flags;
}

// Whether MXCSR, set from `saved` to a run's setting and now `current`, must be written back
// to `saved`: only when their control bits differ (a directed rounding mode; a host that
// set FTZ or DAZ). The host's sticky flags are not kept: nothing reads them (the simulator's
// own host arithmetic raises them freely), and loading MXCSR right after reading it costs
// about 150-200 ns on the x86 hosts measured, against a few ns for the rest of a run.
constexpr bool needs_restore(uint32_t saved, uint32_t current) {
  return ((saved ^ current) & ~kStickyFlags) != 0;
}

}  // namespace ventus::fp::mxcsr
