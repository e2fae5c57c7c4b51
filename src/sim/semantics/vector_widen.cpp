// Widening integer semantics (vwadd*, vwsub*, vwmul*, vwmacc*). A widened element has
// 2*SEW bits. With SEW=32 it is a register pair, as the guide says ("2*SEW-bit width
// elements are implemented via register pairs"): element k of a group lives in v[r+2k]
// (low word) and v[r+2k+1] (high word), so a wide group has 2*LMUL registers and must be
// aligned to that. With SEW=8/16 the wide element fits the lane word and a wide group has
// LMUL registers. The .wv forms read both vs2 and vs1 as wide elements ("64 = 64 op 64",
// the guide's deliberate change against RVV); .wx extends x[rs1] from SEW. docs/vector.md.
#include "vector_util.h"

namespace ventus::sim {
namespace {

// Where the two sources come from: a = vs2, b = vs1 or x[rs1]; Macc adds the accumulator.
enum class Shape { VV, VX, WV, WX, MaccVV, MaccVX };

// RVV allows a narrow source to overlap a wide destination only in its highest-numbered
// part (there the lane loop reads each source register before it is overwritten).
void check_narrow_overlap(unsigned src, unsigned g, unsigned dst, const char* role) {
  if (src + g > dst && src < dst + 2 * g && src != dst + g)
    fault(std::string(role) + " v" + std::to_string(src) +
          " overlaps the low part of the wide destination v" + std::to_string(dst));
}

template <Shape Sh, class Op>
void widening(Exec& ctx, const Insn& in, bool a_signed, bool b_signed, Op op) {
  constexpr bool kMacc = Sh == Shape::MaccVV || Sh == Shape::MaccVX;
  constexpr bool kWideA = Sh == Shape::WV || Sh == Shape::WX;
  constexpr bool kVectorB = Sh == Shape::VV || Sh == Shape::WV || Sh == Shape::MaccVV;
  constexpr bool kWideB = Sh == Shape::WV;
  Warp& w = ctx.warp;
  const unsigned g = w.vcfg.lmul;
  const bool pairs = w.vcfg.sew == 32;
  const unsigned wide_regs = pairs ? 2 * g : g;
  vec::check_group(in.rd, wide_regs, "vd");
  if constexpr (kMacc) vec::check_group(in.rs3, wide_regs, "vd (accumulator)");
  vec::check_group(in.rs2, kWideA ? wide_regs : g, "vs2");
  if (pairs && !kWideA) check_narrow_overlap(in.rs2, g, in.rd, "vs2");
  if constexpr (kVectorB) {
    vec::check_group(in.rs1, kWideB ? wide_regs : g, "vs1");
    if (pairs && !kWideB) check_narrow_overlap(in.rs1, g, in.rd, "vs1");
  }
  const uint32_t scalar = kVectorB ? 0 : vec::read_x(ctx, in.rs1);
  const uint32_t active = ctx.active_lanes(in.vm);
  if (active == 0) return;

  vec::with_sew(w, [&]<class U>() {
    constexpr unsigned kWideBits = 2 * vec::kBits<U>;
    constexpr uint64_t kWideMask = kWideBits == 64 ? ~uint64_t{0} : (uint64_t{1} << kWideBits) - 1;
    const auto wide = [&](unsigned reg, unsigned k, unsigned i) -> uint64_t {
      if (kWideBits == 64) return w.v[reg + 2 * k][i] | uint64_t{w.v[reg + 2 * k + 1][i]} << 32;
      return w.v[reg + k][i] & kWideMask;
    };
    const uint64_t b_scalar = vec::extend<U>(scalar, b_signed);
    for (unsigned k = 0; k < g; ++k) {
      uint64_t r[kMaxLanes];
      for (unsigned i = 0; i < kMaxLanes; ++i) {
        const uint64_t a =
            kWideA ? wide(in.rs2, k, i) : vec::extend<U>(w.v[in.rs2 + k][i], a_signed);
        uint64_t b = b_scalar;
        if constexpr (kWideB)
          b = wide(in.rs1, k, i);
        else if constexpr (kVectorB)
          b = vec::extend<U>(w.v[in.rs1 + k][i], b_signed);
        r[i] = op(a, b);
        if constexpr (kMacc) r[i] += wide(in.rs3, k, i);
      }
      if (kWideBits == 64) {
        vec::write_lanes(w.v[in.rd + 2 * k], active,
                         [&](unsigned i) { return static_cast<uint32_t>(r[i]); });
        vec::write_lanes(w.v[in.rd + 2 * k + 1], active,
                         [&](unsigned i) { return static_cast<uint32_t>(r[i] >> 32); });
      } else {
        vec::write_lanes(w.v[in.rd + k], active,
                         [&](unsigned i) { return static_cast<uint32_t>(r[i] & kWideMask); });
      }
    }
  });
}

// The 2*SEW-bit results are the low bits of these 64-bit operations on extended operands.
constexpr auto kAdd = [](uint64_t a, uint64_t b) { return a + b; };
constexpr auto kSub = [](uint64_t a, uint64_t b) { return a - b; };
constexpr auto kMul = [](uint64_t a, uint64_t b) { return a * b; };

}  // namespace

#define VT_WIDEN(ID, SHAPE, A_SIGNED, B_SIGNED, OP)          \
  VT_SEM(ID) {                                               \
    widening<Shape::SHAPE>(ctx, in, A_SIGNED, B_SIGNED, OP); \
  }

VT_WIDEN(VWADDU_VV, VV, false, false, kAdd)
VT_WIDEN(VWADDU_VX, VX, false, false, kAdd)
VT_WIDEN(VWADD_VV, VV, true, true, kAdd)
VT_WIDEN(VWADD_VX, VX, true, true, kAdd)
VT_WIDEN(VWSUBU_VV, VV, false, false, kSub)
VT_WIDEN(VWSUBU_VX, VX, false, false, kSub)
VT_WIDEN(VWSUB_VV, VV, true, true, kSub)
VT_WIDEN(VWSUB_VX, VX, true, true, kSub)
VT_WIDEN(VWADDU_WV, WV, false, false, kAdd)
VT_WIDEN(VWADDU_WX, WX, false, false, kAdd)
VT_WIDEN(VWADD_WV, WV, true, true, kAdd)
VT_WIDEN(VWADD_WX, WX, true, true, kAdd)
VT_WIDEN(VWSUBU_WV, WV, false, false, kSub)
VT_WIDEN(VWSUBU_WX, WX, false, false, kSub)
VT_WIDEN(VWSUB_WV, WV, true, true, kSub)
VT_WIDEN(VWSUB_WX, WX, true, true, kSub)
VT_WIDEN(VWMULU_VV, VV, false, false, kMul)
VT_WIDEN(VWMULU_VX, VX, false, false, kMul)
VT_WIDEN(VWMULSU_VV, VV, true, false, kMul)  // vs2 signed, vs1 unsigned
VT_WIDEN(VWMULSU_VX, VX, true, false, kMul)
VT_WIDEN(VWMUL_VV, VV, true, true, kMul)
VT_WIDEN(VWMUL_VX, VX, true, true, kMul)
// Multiply-add: a = vs2, b = vs1/rs1, so the signedness arguments are (vs2, vs1/rs1).
VT_WIDEN(VWMACCU_VV, MaccVV, false, false, kMul)
VT_WIDEN(VWMACCU_VX, MaccVX, false, false, kMul)
VT_WIDEN(VWMACC_VV, MaccVV, true, true, kMul)
VT_WIDEN(VWMACC_VX, MaccVX, true, true, kMul)
VT_WIDEN(VWMACCSU_VV, MaccVV, false, true, kMul)  // signed vs1 * unsigned vs2
VT_WIDEN(VWMACCSU_VX, MaccVX, false, true, kMul)  // signed rs1 * unsigned vs2
VT_WIDEN(VWMACCUS_VX, MaccVX, true, false, kMul)  // unsigned rs1 * signed vs2

}  // namespace ventus::sim
