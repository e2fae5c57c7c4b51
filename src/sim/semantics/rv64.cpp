// RV64I on scalar register pairs (docs/isa.md, "RV64I / RV64A on register pairs"): addw ..
// sraiw compute on 64-bit values held in even-aligned pairs {x[r+1]:x[r]}; ld/sd move 32-bit
// data at a 64-bit address held in the rs1 pair. Executed once per warp.
#include "memsys.h"
#include "semantics.h"

namespace ventus::sim {
namespace {

inline std::string_view mnemonic(const Insn& in) {
  return isa::info(in.op).mnemonic;
}

// rd = f(rs1, rs2) on pairs.
template <class F>
inline void pair_op(Exec& ctx, const Insn& in, F f) {
  check_pair(in.rd, "rd", "x", mnemonic(in));
  check_pair(in.rs1, "rs1", "x", mnemonic(in));
  check_pair(in.rs2, "rs2", "x", mnemonic(in));
  ctx.warp.write_x_pair(in.rd, f(ctx.warp.x_pair(in.rs1), ctx.warp.x_pair(in.rs2)));
}

// rd = f(rs1, imm) on pairs; imm is the sign-extended simm12 or the 6-bit shift amount.
template <class F>
inline void pair_op_imm(Exec& ctx, const Insn& in, F f) {
  check_pair(in.rd, "rd", "x", mnemonic(in));
  check_pair(in.rs1, "rs1", "x", mnemonic(in));
  ctx.warp.write_x_pair(in.rd, f(ctx.warp.x_pair(in.rs1), static_cast<uint64_t>(int64_t{in.imm})));
}

// rs1 pair + simm12 as a 32-bit device address (a non-zero high word faults).
inline uint32_t pair_address(Exec& ctx, const Insn& in, bool store) {
  check_pair(in.rs1, "rs1", "x", mnemonic(in));
  const uint64_t address = ctx.warp.x_pair(in.rs1) + static_cast<uint64_t>(int64_t{in.imm});
  return MemorySystem::device_address(address, store);
}

constexpr auto kAdd = [](uint64_t a, uint64_t b) { return a + b; };
constexpr auto kSub = [](uint64_t a, uint64_t b) { return a - b; };
// Shift amounts are 6 bits: the low 6 bits of the rs2 pair's low word, or shamt6.
constexpr auto kSll = [](uint64_t a, uint64_t b) { return a << (b & 63); };
constexpr auto kSrl = [](uint64_t a, uint64_t b) { return a >> (b & 63); };
constexpr auto kSra = [](uint64_t a, uint64_t b) {
  return static_cast<uint64_t>(static_cast<int64_t>(a) >> (b & 63));
};

}  // namespace

VT_SEM(ADDW) {
  pair_op(ctx, in, kAdd);
}
VT_SEM(SUBW) {
  pair_op(ctx, in, kSub);
}
VT_SEM(SLLW) {
  pair_op(ctx, in, kSll);
}
VT_SEM(SRLW) {
  pair_op(ctx, in, kSrl);
}
VT_SEM(SRAW) {
  pair_op(ctx, in, kSra);
}
VT_SEM(ADDIW) {
  pair_op_imm(ctx, in, kAdd);
}
VT_SEM(SLLIW) {
  pair_op_imm(ctx, in, kSll);
}
VT_SEM(SRLIW) {
  pair_op_imm(ctx, in, kSrl);
}
VT_SEM(SRAIW) {
  pair_op_imm(ctx, in, kSra);
}

// ld/sd: 32-bit data (the guide: "fetches 32-bit data from the 64-bit address space"), in
// local or global memory by address as lw/sw.
VT_SEM(LD) {
  const uint32_t address = pair_address(ctx, in, false);
  const uint32_t value = load_bytes(ctx.mem->data_pointer(address, 4, false), 4);
  ctx.mem->record(address, value, MemorySystem::kScalarLane, 4, false);
  ctx.warp.write_x(in.rd, value);
}
VT_SEM(SD) {
  const uint32_t address = pair_address(ctx, in, true);
  const uint32_t value = ctx.warp.x[in.rs2];
  store_bytes(ctx.mem->data_pointer(address, 4, true), value, 4);
  ctx.mem->record(address, value, MemorySystem::kScalarLane, 4, true);
}

}  // namespace ventus::sim
