// RV32A, executed once per warp on global or local memory. Global memory may be shared
// with SMs simulated on other host threads, so every access goes through std::atomic_ref.
// lr.w/sc.w: lr.w reserves the address and remembers the loaded value; sc.w succeeds when
// the warp holds a reservation for that address and the word still holds that value, as one
// compare-and-swap (docs/simulator.md, "Atomics").
#include <atomic>

#include "memsys.h"
#include "semantics.h"

namespace ventus::sim {
namespace {

inline std::atomic_ref<uint32_t> word_at(Exec& ctx, uint32_t address) {
  return std::atomic_ref<uint32_t>(
      *reinterpret_cast<uint32_t*>(ctx.mem->data_pointer(address, 4, true)));
}

// rd = old; mem = op(old, rs2), atomically.
template <class Op>
inline void amo(Exec& ctx, const Insn& in, Op op) {
  const uint32_t address = ctx.warp.x[in.rs1];
  const uint32_t operand = ctx.warp.x[in.rs2];
  auto word = word_at(ctx, address);
  uint32_t old = word.load(std::memory_order_relaxed);
  while (!word.compare_exchange_weak(old, op(old, operand), std::memory_order_acq_rel)) {
  }
  ctx.mem->record(address, old, MemorySystem::kScalarLane, 4, false);
  ctx.mem->record(address, op(old, operand), MemorySystem::kScalarLane, 4, true);
  ctx.warp.write_x(in.rd, old);
}

inline void load_reserved(Exec& ctx, const Insn& in) {
  const uint32_t address = ctx.warp.x[in.rs1];
  const uint32_t value = word_at(ctx, address).load(std::memory_order_acquire);
  ctx.mem->record(address, value, MemorySystem::kScalarLane, 4, false);
  ctx.warp.reservation_valid = true;
  ctx.warp.reservation_addr = address;
  ctx.warp.reservation_value = value;
  ctx.warp.write_x(in.rd, value);
}

inline void store_conditional(Exec& ctx, const Insn& in) {
  const uint32_t address = ctx.warp.x[in.rs1];
  auto word = word_at(ctx, address);  // faults on a bad address even without a reservation
  bool stored = false;
  if (ctx.warp.reservation_valid && ctx.warp.reservation_addr == address) {
    uint32_t expected = ctx.warp.reservation_value;
    stored = word.compare_exchange_strong(expected, ctx.warp.x[in.rs2], std::memory_order_acq_rel);
  }
  ctx.warp.reservation_valid = false;
  if (stored) ctx.mem->record(address, ctx.warp.x[in.rs2], MemorySystem::kScalarLane, 4, true);
  ctx.warp.write_x(in.rd, stored ? 0 : 1);
}

constexpr auto kSwap = [](uint32_t, uint32_t b) { return b; };
constexpr auto kAdd = [](uint32_t a, uint32_t b) { return a + b; };
constexpr auto kXor = [](uint32_t a, uint32_t b) { return a ^ b; };
constexpr auto kAnd = [](uint32_t a, uint32_t b) { return a & b; };
constexpr auto kOr = [](uint32_t a, uint32_t b) { return a | b; };
constexpr auto kMin = [](uint32_t a, uint32_t b) {
  return static_cast<int32_t>(a) < static_cast<int32_t>(b) ? a : b;
};
constexpr auto kMax = [](uint32_t a, uint32_t b) {
  return static_cast<int32_t>(a) > static_cast<int32_t>(b) ? a : b;
};
constexpr auto kMinu = [](uint32_t a, uint32_t b) { return a < b ? a : b; };
constexpr auto kMaxu = [](uint32_t a, uint32_t b) { return a > b ? a : b; };

}  // namespace

// The .aq/.rl/.aqrl forms order memory around the access; every simulated access is
// performed at once in program order, so they behave like the plain forms.
#define VT_AMO_SEMANTICS(ID, OP) \
  VT_SEM(ID) {                   \
    amo(ctx, in, OP);            \
  }                              \
  VT_SEM(ID##_AQ) {              \
    amo(ctx, in, OP);            \
  }                              \
  VT_SEM(ID##_RL) {              \
    amo(ctx, in, OP);            \
  }                              \
  VT_SEM(ID##_AQRL) {            \
    amo(ctx, in, OP);            \
  }
VT_AMO_SEMANTICS(AMOSWAP_W, kSwap)
VT_AMO_SEMANTICS(AMOADD_W, kAdd)
VT_AMO_SEMANTICS(AMOXOR_W, kXor)
VT_AMO_SEMANTICS(AMOAND_W, kAnd)
VT_AMO_SEMANTICS(AMOOR_W, kOr)
VT_AMO_SEMANTICS(AMOMIN_W, kMin)
VT_AMO_SEMANTICS(AMOMAX_W, kMax)
VT_AMO_SEMANTICS(AMOMINU_W, kMinu)
VT_AMO_SEMANTICS(AMOMAXU_W, kMaxu)
#undef VT_AMO_SEMANTICS

VT_SEM(LR_W) {
  load_reserved(ctx, in);
}
VT_SEM(LR_W_AQ) {
  load_reserved(ctx, in);
}
VT_SEM(LR_W_RL) {
  load_reserved(ctx, in);
}
VT_SEM(LR_W_AQRL) {
  load_reserved(ctx, in);
}
VT_SEM(SC_W) {
  store_conditional(ctx, in);
}
VT_SEM(SC_W_AQ) {
  store_conditional(ctx, in);
}
VT_SEM(SC_W_RL) {
  store_conditional(ctx, in);
}
VT_SEM(SC_W_AQRL) {
  store_conditional(ctx, in);
}

}  // namespace ventus::sim
