// Shared machinery of the vector semantics (vector_*.cpp): register-group checks, SEW
// dispatch and the lane loops. docs/vector.md describes the model these implement:
// register v[r][lane] holds thread `lane`'s element in its low SEW bits (results are
// written zero-extended); LMUL=2 applies an instruction to registers r and r+1 of each
// operand; a 2*SEW = 64-bit element is a register pair (low word in r, high word in r+1).
#pragma once

#include <bit>
#include <cstdint>
#include <string>
#include <type_traits>

#include "semantics.h"

namespace ventus::sim::vec {

inline constexpr uint32_t kAllLanes = 0xffffffffu;

// The fault paths are kept out of line so that the checks inline to a compare and a branch.
[[noreturn, gnu::cold, gnu::noinline]] inline void group_fault(unsigned reg, unsigned regs,
                                                               const char* role) {
  if (reg % regs != 0)
    fault(std::string(role) + " v" + std::to_string(reg) + " is not aligned to its group of " +
          std::to_string(regs) + " registers");
  fault(std::string(role) + " group v" + std::to_string(reg) + "..v" +
        std::to_string(reg + regs - 1) + " goes beyond v" + std::to_string(kNumVRegs - 1));
}
[[noreturn, gnu::cold, gnu::noinline]] inline void x_register_fault(unsigned r) {
  fault("scalar register x" + std::to_string(r) + " does not exist");
}

// Faults unless `regs` registers starting at `reg` form an aligned group inside v0..v255.
// Groups are almost always a power of two (LMUL, widening), whose alignment is a mask test
// rather than a division. (std::has_single_bit is a popcount, a libgcc call per vector
// instruction on baseline x86-64.)
inline bool aligned_to(unsigned reg, unsigned regs) {
  return (regs & (regs - 1)) == 0 ? (reg & (regs - 1)) == 0 : reg % regs == 0;
}
inline void check_group(unsigned reg, unsigned regs, const char* role) {
  const bool aligned = aligned_to(reg, regs);
  if (!aligned || reg + regs > kNumVRegs) [[unlikely]]
    group_fault(reg, regs, role);
}

// Faults for scalar register numbers beyond x63 (regext can encode up to x255).
inline void check_x(unsigned r) {
  if (r >= kNumXRegs) [[unlikely]]
    x_register_fault(r);
}
inline uint32_t read_x(const Exec& ctx, unsigned r) {
  check_x(r);
  return ctx.warp.x[r];
}
inline void write_x(Exec& ctx, unsigned r, uint32_t value) {
  check_x(r);
  ctx.warp.write_x(r, value);
}

// Runs body.template operator()<U>() with U the unsigned element type of the current SEW.
template <class Body>
inline void with_sew(const Warp& w, Body&& body) {
  switch (w.vcfg.sew) {
    case 8: body.template operator()<uint8_t>(); break;
    case 16: body.template operator()<uint16_t>(); break;
    case 32: body.template operator()<uint32_t>(); break;
    default: fault("unsupported element width SEW=" + std::to_string(w.vcfg.sew));
  }
}

// The vector fp rows that exist only for fp32 (vfrsqrt7, vfrec7, vfexp, vftta): other SEWs
// are illegal.
inline void require_sew32(const Warp& w) {
  if (w.vcfg.sew != 32)
    fault("this vector floating-point instruction needs SEW=32 (vtype has SEW=" +
          std::to_string(w.vcfg.sew) + ")");
}

// Vector floating point computes fp32 at SEW=32 and fp16 at SEW=16 (Zvfh); SEW=8 has no
// floating-point format. Returns whether the elements are fp16.
inline bool require_fp_sew(const Warp& w) {
  if (w.vcfg.sew != 32 && w.vcfg.sew != 16)
    fault("vector floating point needs SEW=16 or 32 (vtype has SEW=" + std::to_string(w.vcfg.sew) +
          ")");
  return w.vcfg.sew == 16;
}

// The 4-lane slice of a lane mask as 4 words of ~0 (lane on) or 0, indexed by a nibble.
struct NibbleMasks {
  uint32_t words[16][4];
};
inline constexpr NibbleMasks kNibbleMasks = [] {
  NibbleMasks t{};
  for (unsigned n = 0; n < 16; ++n)
    for (unsigned j = 0; j < 4; ++j) t.words[n][j] = ((n >> j) & 1u) ? ~0u : 0u;
  return t;
}();

// on[i] = ~0 for the lanes set in `active`, 0 for the others (masks for branch-free blends).
inline void expand_lanes(uint32_t active, uint32_t* on) {
  for (unsigned n = 0; n < kMaxLanes / 4; ++n)
    for (unsigned j = 0; j < 4; ++j)
      on[4 * n + j] = kNibbleMasks.words[(active >> (4 * n)) & 15u][j];
}

// d[i] = f(i) for every lane whose bit is set in `active`; the other lanes keep d[i].
// f must be pure and total: it is evaluated for every one of the 32 lane slots so that the
// loop has a fixed trip count and a branch-free blend, which the compiler vectorizes at -O2
// (ivdep: lane i only reads lane i of its sources, and d is a whole register that either is
// a source or does not overlap one). Slots at or above the warp's lane count are never
// active, so they are never written.
template <class F>
inline void write_lanes(uint32_t* d, uint32_t active, F&& f) {
  if (active == kAllLanes) {
#pragma GCC ivdep
    for (unsigned i = 0; i < kMaxLanes; ++i) d[i] = f(i);
    return;
  }
  uint32_t on[kMaxLanes];
  expand_lanes(active, on);
#pragma GCC ivdep
  for (unsigned i = 0; i < kMaxLanes; ++i) d[i] = (f(i) & on[i]) | (d[i] & ~on[i]);
}

// Calls f(i) for each active lane in increasing lane order (for work with side effects:
// fp flags, scalar writes).
template <class F>
inline void each_lane(uint32_t active, F&& f) {
  while (active) {
    f(static_cast<unsigned>(std::countr_zero(active)));
    active &= active - 1;
  }
}

template <class U>
using Signed = std::make_signed_t<U>;
template <class U>
inline constexpr unsigned kBits = sizeof(U) * 8;

// Sign- or zero-extends the low SEW bits of x (element type U) to 64 bits.
template <class U>
inline uint64_t extend(uint32_t x, bool is_signed) {
  return is_signed ? static_cast<uint64_t>(static_cast<int64_t>(static_cast<Signed<U>>(x)))
                   : static_cast<uint64_t>(static_cast<U>(x));
}

// The RVV 1.0 fixed-point rounding increment for shifting v right by d bits under vxrm
// (0 rnu, 1 rne, 2 rdn, 3 rod). v is the two's-complement bit pattern; d < 64.
inline uint64_t round_increment(uint64_t v, unsigned d, uint32_t vxrm) {
  if (d == 0) return 0;
  const uint64_t half = (v >> (d - 1)) & 1u;
  const uint64_t below_half = v & ((uint64_t{1} << (d - 1)) - 1u);
  const uint64_t lsb = (v >> d) & 1u;
  switch (vxrm & 3u) {
    case 0: return half;
    case 1: return half & ((below_half != 0) | lsb);
    case 2: return 0;
    default: return (lsb ^ 1u) & ((v & ((uint64_t{1} << d) - 1u)) != 0);
  }
}

// Where the second source operand of a vector-vector/scalar/immediate row comes from.
enum class Src : uint8_t { V, X, I };  // vs1, x[rs1], the immediate

// vd = op(vs2, second) on each register of the group, at the current SEW. op is called as
// op(U a, U b) with U the unsigned element type and returns the word to store (the U result
// zero-extended, or 0/1 for compares).
template <Src S, class Op>
inline void binary(Exec& ctx, const Insn& in, Op op) {
  Warp& w = ctx.warp;
  const unsigned g = w.vcfg.lmul;
  check_group(in.rd, g, "vd");
  check_group(in.rs2, g, "vs2");
  if constexpr (S == Src::V) check_group(in.rs1, g, "vs1");
  const uint32_t scalar = S == Src::X ? read_x(ctx, in.rs1) : static_cast<uint32_t>(in.imm);
  const uint32_t active = ctx.active_lanes(in.vm);
  if (active == 0) return;
  with_sew(w, [&]<class U>() {
    const U s = static_cast<U>(scalar);
    for (unsigned k = 0; k < g; ++k) {
      const uint32_t* a = w.v[in.rs2 + k];
      const uint32_t* b = S == Src::V ? w.v[in.rs1 + k] : a;
      write_lanes(w.v[in.rd + k], active, [&](unsigned i) -> uint32_t {
        return op(static_cast<U>(a[i]), S == Src::V ? static_cast<U>(b[i]) : s);
      });
    }
  });
}

}  // namespace ventus::sim::vec
