// SIMT control: the divergent branches (vbeq ... vbgeu), join, end of program, barriers and
// the register-extension prefixes. The SIMT stack follows ventus-facts.md exactly
// (docs/simulator.md, "SIMT stack").
#include <fmt/format.h>

#include "semantics.h"

namespace ventus::sim {
namespace {

// Lanes (of the active mask) where cmp(vs2[lane], vs1[lane]) holds; cmp compares four
// lanes at a time (lanes::where).
template <class Cmp>
inline uint32_t taken_lanes(const Warp& w, const Insn& in, Cmp cmp) {
  return lanes::where(w.v[in.rs2], w.v[in.rs1], cmp) & w.mask;
}

template <class Cmp>
inline void vbranch(Exec& ctx, const Insn& in, Cmp cmp) {
  if (in.rs1 >= kNumVRegs || in.rs2 >= kNumVRegs) fault("vector register beyond v255");
  const Warp& w = ctx.warp;
  const uint32_t taken = taken_lanes(w, in, cmp);
  const uint32_t target = ctx.pc + static_cast<uint32_t>(in.imm);
  if (taken == 0) return;  // every active lane falls through
  if (taken == w.mask) {   // every active lane jumps: no divergence
    ctx.next_pc = target;
    return;
  }
  split_warp(ctx, taken, target);
}

using lanes::U32x4;
inline lanes::I32x4 S(U32x4 v) {
  return reinterpret_cast<lanes::I32x4>(v);
}

}  // namespace

void split_warp(Exec& ctx, uint32_t taken, uint32_t target) {
  Warp& w = ctx.warp;
  SimtStack& stack = w.simt_stack;
  if (stack.depth > SimtStack::kCapacity - 2)
    fault(fmt::format("internal error: SIMT stack overflow ({} entries, room for {})",
                      stack.depth + 2, SimtStack::kCapacity));
  const uint32_t active = w.mask;
  const uint32_t fall_through = active & ~taken;
  // The reconvergence entry, then the path that runs second. The path with fewer active
  // lanes runs first; on a tie the taken path does.
  stack.entries[stack.depth] = {w.rpc, w.rpc, active};
  if (lanes::count(taken) <= lanes::count(fall_through)) {
    stack.entries[stack.depth + 1] = {w.rpc, ctx.pc + 4, fall_through};
    w.mask = taken;
    ctx.next_pc = target;
  } else {
    stack.entries[stack.depth + 1] = {w.rpc, target, taken};
    w.mask = fall_through;
  }
  stack.depth += 2;
  ++ctx.divergences;
}

bool join_pops(Warp& w, uint32_t pc, uint32_t& resume_pc) noexcept {
  SimtStack& stack = w.simt_stack;
  if (stack.empty() || stack.top().rpc != pc) return false;
  const SimtEntry top = stack.top();
  --stack.depth;
  w.mask = top.mask;
  resume_pc = top.resume_pc;
  return true;
}

VT_SEM(VBEQ) {
  vbranch(ctx, in, [](U32x4 a, U32x4 b) { return a == b; });
}
VT_SEM(VBNE) {
  vbranch(ctx, in, [](U32x4 a, U32x4 b) { return a != b; });
}
VT_SEM(VBLT) {
  vbranch(ctx, in, [](U32x4 a, U32x4 b) { return S(a) < S(b); });
}
VT_SEM(VBGE) {
  vbranch(ctx, in, [](U32x4 a, U32x4 b) { return S(a) >= S(b); });
}
VT_SEM(VBLTU) {
  vbranch(ctx, in, [](U32x4 a, U32x4 b) { return a < b; });
}
VT_SEM(VBGEU) {
  vbranch(ctx, in, [](U32x4 a, U32x4 b) { return a >= b; });
}

// join at A: if the top entry belongs to A, continue there with its mask and pop it;
// otherwise nothing happens. Its operand fields are ignored.
VT_SEM(JOIN) {
  join_pops(ctx.warp, ctx.pc, ctx.next_pc);
}

// Ending a warp whose threads have not reconverged would silently drop the paths still on
// the SIMT stack, and ending it with asynchronous copies that no cp_dma_mbarrier completed
// would drop copies whose completion nothing can observe: both are faults rather than an end.
VT_SEM(ENDPRG) {
  if (!ctx.warp.simt_stack.empty())
    fault("endprg while diverged: " + std::to_string(ctx.warp.simt_stack.size()) +
          " SIMT stack entries pending (a vbranch without its join?)");
  if (!ctx.warp.async_copies.empty())
    fault("endprg with " + std::to_string(ctx.warp.async_copies.size()) +
          " asynchronous copies pending (cp_dma* without a cp_dma_mbarrier after it)");
  ctx.flow = Flow::End;
}
// The workgroup barrier; the scheduler (sm.cpp) holds the warp until every live warp of the
// workgroup has arrived. imm[4:3] is the memory scope and imm[2:0] the fence flags (docs/isa.md);
// neither needs more: memory is coherent, so every scope and fence is already satisfied.
VT_SEM(BARRIER) {
  ctx.flow = Flow::Barrier;
}
// Subgroup scope: the subgroup is the warp itself, whose threads run in lockstep, so the
// barrier is complete as soon as the warp reaches it with all its threads. The guide fixes
// imm[4:3] (the memory scope) to 0 here. In divergent code the inactive threads could only
// arrive after the active ones went on, so the barrier could never complete: a fault.
VT_SEM(BARRIERSUB) {
  const Warp& w = ctx.warp;
  if ((in.imm >> 3) != 0)
    fault(
        fmt::format("barriersub {}: the memory-scope bits imm[4:3] must be 0 (the subgroup "
                    "form has no scope; imm[2:0] are the fence flags)",
                    in.imm));
  if (w.mask != w.lane_mask)
    fault(
        fmt::format("barriersub in divergent code: every thread of the subgroup (the warp) "
                    "must reach it, but only some are active (SIMT mask {:#010x})",
                    w.mask));
}

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
