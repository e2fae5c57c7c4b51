// SIMT control: the divergent branches (vbeq ... vbgeu), join, end of program, barriers and
// the register-extension prefixes. The SIMT stack follows ventus-facts.md exactly
// (docs/simulator.md, "SIMT stack").
#include <bit>

#include "semantics.h"

namespace ventus::sim {
namespace {

// Lanes (of the active mask) where cmp(vs2[lane], vs1[lane]) holds.
template <class Cmp>
inline uint32_t taken_lanes(const Warp& w, const Insn& in, Cmp cmp) {
  const uint32_t* a = w.v[in.rs2];
  const uint32_t* b = w.v[in.rs1];
  uint32_t taken = 0;
  for (unsigned i = 0; i < kMaxLanes; ++i) taken |= static_cast<uint32_t>(cmp(a[i], b[i])) << i;
  return taken & w.mask;
}

template <class Cmp>
inline void vbranch(Exec& ctx, const Insn& in, Cmp cmp) {
  if (in.rs1 >= kNumVRegs || in.rs2 >= kNumVRegs) fault("vector register beyond v255");
  Warp& w = ctx.warp;
  const uint32_t active = w.mask;
  const uint32_t taken = taken_lanes(w, in, cmp);
  const uint32_t target = ctx.pc + static_cast<uint32_t>(in.imm);
  if (taken == 0) return;  // every active lane falls through
  if (taken == active) {   // every active lane jumps: no divergence
    ctx.next_pc = target;
    return;
  }
  const uint32_t fall_through = active & ~taken;
  // The reconvergence entry, then the path that runs second. The path with fewer active
  // lanes runs first; on a tie the taken path does.
  w.simt_stack.push_back({w.rpc, w.rpc, active});
  if (std::popcount(taken) <= std::popcount(fall_through)) {
    w.simt_stack.push_back({w.rpc, ctx.pc + 4, fall_through});
    w.mask = taken;
    ctx.next_pc = target;
  } else {
    w.simt_stack.push_back({w.rpc, target, taken});
    w.mask = fall_through;
  }
  ++ctx.divergences;
}

inline int32_t S(uint32_t v) {
  return static_cast<int32_t>(v);
}

}  // namespace

VT_SEM(VBEQ) {
  vbranch(ctx, in, [](uint32_t a, uint32_t b) { return a == b; });
}
VT_SEM(VBNE) {
  vbranch(ctx, in, [](uint32_t a, uint32_t b) { return a != b; });
}
VT_SEM(VBLT) {
  vbranch(ctx, in, [](uint32_t a, uint32_t b) { return S(a) < S(b); });
}
VT_SEM(VBGE) {
  vbranch(ctx, in, [](uint32_t a, uint32_t b) { return S(a) >= S(b); });
}
VT_SEM(VBLTU) {
  vbranch(ctx, in, [](uint32_t a, uint32_t b) { return a < b; });
}
VT_SEM(VBGEU) {
  vbranch(ctx, in, [](uint32_t a, uint32_t b) { return a >= b; });
}

// join at A: if the top entry belongs to A, continue there with its mask and pop it;
// otherwise nothing happens. Its operand fields are ignored.
VT_SEM(JOIN) {
  Warp& w = ctx.warp;
  if (w.simt_stack.empty() || w.simt_stack.back().rpc != ctx.pc) return;
  const SimtEntry top = w.simt_stack.back();
  w.simt_stack.pop_back();
  w.mask = top.mask;
  ctx.next_pc = top.resume_pc;
}

// Ending a warp whose threads have not reconverged would silently drop the paths still on
// the SIMT stack, so it is a fault rather than an end.
VT_SEM(ENDPRG) {
  if (!ctx.warp.simt_stack.empty())
    fault("endprg while diverged: " + std::to_string(ctx.warp.simt_stack.size()) +
          " SIMT stack entries pending (a vbranch without its join?)");
  ctx.flow = Flow::End;
}
// The workgroup barrier; the scheduler (sm.cpp) holds the warp until every live warp of the
// workgroup has arrived. The fence flags need nothing more: memory is coherent.
VT_SEM(BARRIER) {
  ctx.flow = Flow::Barrier;
}
// Subgroup scope: the subgroup is the warp itself, whose threads run in lockstep, so the
// barrier is complete as soon as the warp reaches it.
VT_SEM(BARRIERSUB) {}

// regext/regexti are folded into the instruction that follows them when code is decoded
// (decode_cache.cpp): the cache entry of a prefix runs the extended instruction, so these
// bodies only run if that folding was bypassed.
VT_SEM(REGEXT) {
  fault("internal error: regext executed without the instruction it extends");
}
VT_SEM(REGEXTI) {
  fault("internal error: regexti executed without the instruction it extends");
}
VT_SEM(REGPAIR) {
  fault("internal error: regpair executed without the instruction it extends");
}
VT_SEM(REGPAIRI) {
  fault("internal error: regpairi executed without the instruction it extends");
}

}  // namespace ventus::sim
