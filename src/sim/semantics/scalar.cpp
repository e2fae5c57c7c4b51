// Scalar integer semantics: RV32I and M (once per warp), jumps and branches, scalar loads and
// stores, fence, and setrpc. Scalar register numbers were checked (< 64) when the
// instruction was decoded (decode_cache.cpp), so x[] is indexed directly.
#include <fmt/format.h>

#include "memsys.h"
#include "semantics.h"

namespace ventus::sim {
namespace {

inline uint32_t X(const Exec& ctx, unsigned r) {
  return ctx.warp.x[r];
}
inline void set_x(Exec& ctx, unsigned r, uint32_t v) {
  ctx.warp.write_x(r, v);
}
inline int32_t S(uint32_t v) {
  return static_cast<int32_t>(v);
}

inline void branch_if(Exec& ctx, const Insn& in, bool taken) {
  if (taken) ctx.next_pc = ctx.pc + static_cast<uint32_t>(in.imm);
}

// rs1 + imm; sp-relative accesses must stay in the warp's stack.
inline uint32_t effective_address(const Exec& ctx, const Insn& in, unsigned size, bool store) {
  const uint32_t address = X(ctx, in.rs1) + static_cast<uint32_t>(in.imm);
  if (in.rs1 == kStackPointer) check_stack(ctx.warp, address, size, store);
  return address;
}

inline void load(Exec& ctx, const Insn& in, unsigned size, bool is_signed) {
  const uint32_t address = effective_address(ctx, in, size, false);
  const uint32_t raw = load_bytes(ctx.mem->data_pointer(address, size, false), size);
  ctx.mem->record(address, raw, MemorySystem::kScalarLane, static_cast<uint8_t>(size), false);
  set_x(ctx, in.rd, is_signed ? sign_extend(raw, size) : raw);
}

inline void store(Exec& ctx, const Insn& in, unsigned size) {
  const uint32_t address = effective_address(ctx, in, size, true);
  const uint32_t value = size == 4 ? X(ctx, in.rs2) : X(ctx, in.rs2) & ((1u << (8 * size)) - 1);
  store_bytes(ctx.mem->data_pointer(address, size, true), value, size);
  ctx.mem->record(address, value, MemorySystem::kScalarLane, static_cast<uint8_t>(size), true);
}

}  // namespace

uint8_t* scalar_data_span(Exec& ctx, uint32_t address, uint32_t rs1, uint32_t size,
                          bool store) noexcept {
  if ((address & (size - 1)) != 0 || ctx.mem->log || ctx.mem->memcheck ||
      (rs1 == kStackPointer && !in_stack(ctx.warp, address, size)))
    return nullptr;
  try {
    // A store accepted before where whole_page was not open to it: it still is not (pages
    // and protections change only between launches), so that one is asked first.
    PageCache::Store& known = ctx.mem->page_cache.known_store(address);
    if (store && known.address == address && known.size == size) return known.host;
    // whole_page takes the common case (a mapped page without read-only data): an aligned
    // access of at most 4 bytes lies in one page, and may use it when its page may.
    if (uint8_t* page = ctx.mem->whole_page(address, store, false))
      return page + (address & (kPageSize - 1));
    if (!store) return ctx.mem->data_pointer(address, size, false);
    uint8_t* host = ctx.mem->data_pointer(address, size, true);
    known = {address, size, host};
    return host;
  } catch (...) {  // a fault, or no memory for the page: the semantics report it
    return nullptr;
  }
}

VT_SEM(LUI) {
  set_x(ctx, in.rd, static_cast<uint32_t>(in.imm) << 12);
}
VT_SEM(AUIPC) {
  set_x(ctx, in.rd, ctx.pc + (static_cast<uint32_t>(in.imm) << 12));
}
VT_SEM(JAL) {
  set_x(ctx, in.rd, ctx.pc + 4);
  ctx.next_pc = ctx.pc + static_cast<uint32_t>(in.imm);
}
VT_SEM(JALR) {
  const uint32_t target = (X(ctx, in.rs1) + static_cast<uint32_t>(in.imm)) & ~1u;
  set_x(ctx, in.rd, ctx.pc + 4);
  ctx.next_pc = target;
}
VT_SEM(BEQ) {
  branch_if(ctx, in, X(ctx, in.rs1) == X(ctx, in.rs2));
}
VT_SEM(BNE) {
  branch_if(ctx, in, X(ctx, in.rs1) != X(ctx, in.rs2));
}
VT_SEM(BLT) {
  branch_if(ctx, in, S(X(ctx, in.rs1)) < S(X(ctx, in.rs2)));
}
VT_SEM(BGE) {
  branch_if(ctx, in, S(X(ctx, in.rs1)) >= S(X(ctx, in.rs2)));
}
VT_SEM(BLTU) {
  branch_if(ctx, in, X(ctx, in.rs1) < X(ctx, in.rs2));
}
VT_SEM(BGEU) {
  branch_if(ctx, in, X(ctx, in.rs1) >= X(ctx, in.rs2));
}

VT_SEM(LB) {
  load(ctx, in, 1, true);
}
VT_SEM(LH) {
  load(ctx, in, 2, true);
}
VT_SEM(LW) {
  load(ctx, in, 4, false);
}
VT_SEM(LBU) {
  load(ctx, in, 1, false);
}
VT_SEM(LHU) {
  load(ctx, in, 2, false);
}
VT_SEM(SB) {
  store(ctx, in, 1);
}
VT_SEM(SH) {
  store(ctx, in, 2);
}
VT_SEM(SW) {
  store(ctx, in, 4);
}

VT_SEM(ADDI) {
  set_x(ctx, in.rd, X(ctx, in.rs1) + static_cast<uint32_t>(in.imm));
}
VT_SEM(SLTI) {
  set_x(ctx, in.rd, S(X(ctx, in.rs1)) < in.imm);
}
VT_SEM(SLTIU) {
  set_x(ctx, in.rd, X(ctx, in.rs1) < static_cast<uint32_t>(in.imm));
}
VT_SEM(XORI) {
  set_x(ctx, in.rd, X(ctx, in.rs1) ^ static_cast<uint32_t>(in.imm));
}
VT_SEM(ORI) {
  set_x(ctx, in.rd, X(ctx, in.rs1) | static_cast<uint32_t>(in.imm));
}
VT_SEM(ANDI) {
  set_x(ctx, in.rd, X(ctx, in.rs1) & static_cast<uint32_t>(in.imm));
}
VT_SEM(SLLI) {
  set_x(ctx, in.rd, X(ctx, in.rs1) << (in.imm & 31));
}
VT_SEM(SRLI) {
  set_x(ctx, in.rd, X(ctx, in.rs1) >> (in.imm & 31));
}
VT_SEM(SRAI) {
  set_x(ctx, in.rd, static_cast<uint32_t>(S(X(ctx, in.rs1)) >> (in.imm & 31)));
}
VT_SEM(ADD) {
  set_x(ctx, in.rd, X(ctx, in.rs1) + X(ctx, in.rs2));
}
VT_SEM(SUB) {
  set_x(ctx, in.rd, X(ctx, in.rs1) - X(ctx, in.rs2));
}
VT_SEM(SLL) {
  set_x(ctx, in.rd, X(ctx, in.rs1) << (X(ctx, in.rs2) & 31));
}
VT_SEM(SLT) {
  set_x(ctx, in.rd, S(X(ctx, in.rs1)) < S(X(ctx, in.rs2)));
}
VT_SEM(SLTU) {
  set_x(ctx, in.rd, X(ctx, in.rs1) < X(ctx, in.rs2));
}
VT_SEM(XOR) {
  set_x(ctx, in.rd, X(ctx, in.rs1) ^ X(ctx, in.rs2));
}
VT_SEM(SRL) {
  set_x(ctx, in.rd, X(ctx, in.rs1) >> (X(ctx, in.rs2) & 31));
}
VT_SEM(SRA) {
  set_x(ctx, in.rd, static_cast<uint32_t>(S(X(ctx, in.rs1)) >> (X(ctx, in.rs2) & 31)));
}
VT_SEM(OR) {
  set_x(ctx, in.rd, X(ctx, in.rs1) | X(ctx, in.rs2));
}
VT_SEM(AND) {
  set_x(ctx, in.rd, X(ctx, in.rs1) & X(ctx, in.rs2));
}
// One warp sees its own accesses in order and the simulator performs every access at once,
// so there is nothing to order.
VT_SEM(FENCE) {}
VT_SEM(ECALL) {
  fault("ecall is not supported by Ventus (no traps, no environment calls)");
}
VT_SEM(EBREAK) {
  fault("ebreak is not supported by Ventus (no debugger traps)");
}

VT_SEM(MUL) {
  set_x(ctx, in.rd, X(ctx, in.rs1) * X(ctx, in.rs2));
}
VT_SEM(MULH) {
  const int64_t p = int64_t{S(X(ctx, in.rs1))} * int64_t{S(X(ctx, in.rs2))};
  set_x(ctx, in.rd, static_cast<uint32_t>(static_cast<uint64_t>(p) >> 32));
}
VT_SEM(MULHSU) {
  const int64_t p = int64_t{S(X(ctx, in.rs1))} * static_cast<int64_t>(X(ctx, in.rs2));
  set_x(ctx, in.rd, static_cast<uint32_t>(static_cast<uint64_t>(p) >> 32));
}
VT_SEM(MULHU) {
  set_x(ctx, in.rd, static_cast<uint32_t>((uint64_t{X(ctx, in.rs1)} * X(ctx, in.rs2)) >> 32));
}
VT_SEM(DIV) {
  const int32_t a = S(X(ctx, in.rs1)), b = S(X(ctx, in.rs2));
  uint32_t q;
  if (b == 0)
    q = ~0u;
  else if (a == INT32_MIN && b == -1)
    q = static_cast<uint32_t>(a);
  else
    q = static_cast<uint32_t>(a / b);
  set_x(ctx, in.rd, q);
}
VT_SEM(DIVU) {
  const uint32_t a = X(ctx, in.rs1), b = X(ctx, in.rs2);
  set_x(ctx, in.rd, b == 0 ? ~0u : a / b);
}
VT_SEM(REM) {
  const int32_t a = S(X(ctx, in.rs1)), b = S(X(ctx, in.rs2));
  uint32_t r;
  if (b == 0)
    r = static_cast<uint32_t>(a);
  else if (a == INT32_MIN && b == -1)
    r = 0;
  else
    r = static_cast<uint32_t>(a % b);
  set_x(ctx, in.rd, r);
}
VT_SEM(REMU) {
  const uint32_t a = X(ctx, in.rs1), b = X(ctx, in.rs2);
  set_x(ctx, in.rd, b == 0 ? a : a % b);
}

// setrpc rd, rs1, imm: CSR_RPC = rd = rs1 + imm (the join address of the next vbranch).
VT_SEM(SETRPC) {
  const uint32_t rpc = X(ctx, in.rs1) + static_cast<uint32_t>(in.imm);
  ctx.warp.rpc = rpc;
  set_x(ctx, in.rd, rpc);
}

}  // namespace ventus::sim
