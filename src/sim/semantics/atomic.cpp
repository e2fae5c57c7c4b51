// RV32A and the RV64A .d forms (a 64-bit address in the rs1 register pair, 32-bit data:
// docs/isa.md), executed once per warp on global or local memory. Global memory may be shared
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

// The address an atomic acts on: x[rs1] for .w, the rs1 pair for .d (its high word must be
// zero: the device address space is 32 bits).
enum class Width : uint8_t { W, D };
template <Width A>
inline uint32_t address_of(Exec& ctx, const Insn& in, bool store) {
  if constexpr (A == Width::W) {
    return ctx.warp.x[in.rs1];
  } else {
    check_pair(in.rs1, "rs1", "x", isa::info(in.op).mnemonic);
    return MemorySystem::device_address(ctx.warp.x_pair(in.rs1), store);
  }
}

// rd = old; mem = op(old, rs2), atomically.
template <Width A, class Op>
inline void amo(Exec& ctx, const Insn& in, Op op) {
  const uint32_t address = address_of<A>(ctx, in, true);
  const uint32_t operand = ctx.warp.x[in.rs2];
  auto word = word_at(ctx, address);
  uint32_t old = word.load(std::memory_order_relaxed);
  while (!word.compare_exchange_weak(old, op(old, operand), std::memory_order_acq_rel)) {
  }
  ctx.mem->record(address, old, MemorySystem::kScalarLane, 4, false);
  ctx.mem->record(address, op(old, operand), MemorySystem::kScalarLane, 4, true);
  ctx.warp.write_x(in.rd, old);
}

template <Width A>
inline void load_reserved(Exec& ctx, const Insn& in) {
  const uint32_t address = address_of<A>(ctx, in, false);
  const uint32_t value = word_at(ctx, address).load(std::memory_order_acquire);
  ctx.mem->record(address, value, MemorySystem::kScalarLane, 4, false);
  ctx.warp.reservation_valid = true;
  ctx.warp.reservation_addr = address;
  ctx.warp.reservation_value = value;
  ctx.warp.write_x(in.rd, value);
}

template <Width A>
inline void store_conditional(Exec& ctx, const Insn& in) {
  const uint32_t address = address_of<A>(ctx, in, true);
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
// performed at once in program order, so they behave like the plain forms. The .w and .d
// forms of lr/sc share one reservation.
#define VT_ATOMIC_SEMANTICS(ID, CALL) \
  VT_SEM(ID) {                        \
    CALL;                             \
  }                                   \
  VT_SEM(ID##_AQ) {                   \
    CALL;                             \
  }                                   \
  VT_SEM(ID##_RL) {                   \
    CALL;                             \
  }                                   \
  VT_SEM(ID##_AQRL) {                 \
    CALL;                             \
  }
#define VT_AMO_SEMANTICS(OP, FN)                                  \
  VT_ATOMIC_SEMANTICS(OP##_W, (amo<Width::W>(ctx, in, FN)))       \
  VT_ATOMIC_SEMANTICS(OP##_D, (amo<Width::D>(ctx, in, FN)))
VT_AMO_SEMANTICS(AMOSWAP, kSwap)
VT_AMO_SEMANTICS(AMOADD, kAdd)
VT_AMO_SEMANTICS(AMOXOR, kXor)
VT_AMO_SEMANTICS(AMOAND, kAnd)
VT_AMO_SEMANTICS(AMOOR, kOr)
VT_AMO_SEMANTICS(AMOMIN, kMin)
VT_AMO_SEMANTICS(AMOMAX, kMax)
VT_AMO_SEMANTICS(AMOMINU, kMinu)
VT_AMO_SEMANTICS(AMOMAXU, kMaxu)
VT_ATOMIC_SEMANTICS(LR_W, load_reserved<Width::W>(ctx, in))
VT_ATOMIC_SEMANTICS(LR_D, load_reserved<Width::D>(ctx, in))
VT_ATOMIC_SEMANTICS(SC_W, store_conditional<Width::W>(ctx, in))
VT_ATOMIC_SEMANTICS(SC_D, store_conditional<Width::D>(ctx, in))
#undef VT_AMO_SEMANTICS
#undef VT_ATOMIC_SEMANTICS

}  // namespace ventus::sim
