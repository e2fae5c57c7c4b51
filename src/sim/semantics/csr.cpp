// Zicsr: the CSRs a warp has (include/ventus/abi.def, docs/simulator.md "CSRs"). Unknown
// CSRs and writes to read-only ones fault; which CSRs are read-only is the ABI table's
// access column, and tests/sim/csr_abi_test.cpp checks these switches against it.
// csrrs/csrrc with rs1 = x0 (or uimm = 0) do not write, as in RISC-V, so reading a
// read-only CSR that way is fine.
#include <fmt/format.h>

#include "memsys.h"
#include "semantics.h"
#include "ventus/abi.h"

namespace ventus::sim {
namespace {

namespace csr = abi::csr;

[[noreturn]] void unknown_csr(uint32_t number) {
  fault(fmt::format("CSR {:#05x} does not exist on Ventus", number));
}

uint32_t read_csr(const Warp& w, uint32_t number) {
  if (const uint32_t* field = csr_field(w, number)) return *field;
  switch (number) {
    case csr::FCSR: return (w.frm << 5) | w.fflags;
    case csr::VSTART: return 0;
    case csr::VCSR: return (w.vxrm << 1) | w.vxsat;
    case csr::VLENB: return 4 * w.lanes;
    case csr::GDS_BASE: return kGdsBase;
    case csr::GDS_LIMIT: return kGdsLimit;
    case csr::LDS_BASE: return kLdsBase;
    case csr::LDS_LIMIT: return kLdsLimit;
    default: unknown_csr(number);
  }
}

void write_csr(Exec& ctx, uint32_t number, uint32_t value) {
  Warp& w = ctx.warp;
  if (uint32_t* field = csr_written_field(w, number)) {
    *field = value;
    return;
  }
  switch (number) {
    case csr::FFLAGS: w.fflags = value & 0x1f; return;
    case csr::FRM: w.frm = value & 7; return;
    case csr::FCSR:
      w.fflags = value & 0x1f;
      w.frm = (value >> 5) & 7;
      return;
    case csr::VSTART:
      // Ventus vector instructions never trap, so they never restart mid-way.
      if (value != 0)
        fault(fmt::format("vstart = {} (Ventus vector instructions do not restart)", value));
      return;
    case csr::VXSAT: w.vxsat = value & 1; return;
    case csr::VXRM: w.vxrm = value & 3; return;
    case csr::VCSR:
      w.vxsat = value & 1;
      w.vxrm = (value >> 1) & 3;
      return;
    case csr::PRINT:
      w.print = value;
      ctx.flow = Flow::Print;
      return;
    default: {
      const abi::CsrInfo* info = abi::csr_by_number(static_cast<uint16_t>(number));
      if (info && info->access == abi::CsrAccess::ReadOnly)
        fault(fmt::format("CSR {:#05x} is read-only", number));
      unknown_csr(number);
    }
  }
}

// old = csr; csr = f(old); rd = old. write says whether the instruction writes at all.
template <class F>
void csr_op(Exec& ctx, const Insn& in, bool write, F f) {
  const uint32_t number = static_cast<uint32_t>(in.imm) & 0xfff;
  const uint32_t old = read_csr(ctx.warp, number);
  if (write) write_csr(ctx, number, f(old));
  ctx.warp.write_x(in.rd, old);
}

}  // namespace

const uint32_t* csr_field(const Warp& w, uint32_t number) noexcept {
  switch (number) {
    case csr::FFLAGS: return &w.fflags;
    case csr::FRM: return &w.frm;
    case csr::VXSAT: return &w.vxsat;
    case csr::VXRM: return &w.vxrm;
    case csr::MSTATUS: return &w.mstatus;
    case csr::MTVEC: return &w.mtvec;
    case csr::MSCRATCH: return &w.mscratch;
    case csr::VL: return &w.vcfg.vl;
    case csr::VTYPE: return &w.vcfg.vtype;
    case csr::TID: return &w.csr_tid;
    case csr::NUMW: return &w.csr_numw;
    case csr::NUMT: return &w.csr_numt;
    case csr::KNL: return &w.csr_knl;
    case csr::WGID: return &w.csr_wgid;
    case csr::WID: return &w.csr_wid;
    case csr::LDS: return &w.csr_lds;
    case csr::PDS: return &w.csr_pds;
    case csr::GIDX: return &w.csr_gid[0];
    case csr::GIDY: return &w.csr_gid[1];
    case csr::GIDZ: return &w.csr_gid[2];
    case csr::PRINT: return &w.print;
    case csr::RPC: return &w.rpc;
    case csr::GDS: return &w.csr_gds;
    default: return nullptr;
  }
}

uint32_t* csr_written_field(Warp& w, uint32_t number) noexcept {
  switch (number) {
    case csr::MSTATUS: return &w.mstatus;
    case csr::MTVEC: return &w.mtvec;
    case csr::MSCRATCH: return &w.mscratch;
    case csr::RPC: return &w.rpc;
    case csr::GDS: return &w.csr_gds;
    default: return nullptr;
  }
}

VT_SEM(CSRRW) {
  const uint32_t v = ctx.warp.x[in.rs1];
  csr_op(ctx, in, true, [v](uint32_t) { return v; });
}
VT_SEM(CSRRS) {
  const uint32_t v = ctx.warp.x[in.rs1];
  csr_op(ctx, in, in.rs1 != 0, [v](uint32_t old) { return old | v; });
}
VT_SEM(CSRRC) {
  const uint32_t v = ctx.warp.x[in.rs1];
  csr_op(ctx, in, in.rs1 != 0, [v](uint32_t old) { return old & ~v; });
}
// The immediate forms keep their 5-bit immediate in the rs1 field.
VT_SEM(CSRRWI) {
  const uint32_t v = in.rs1 & 31;
  csr_op(ctx, in, true, [v](uint32_t) { return v; });
}
VT_SEM(CSRRSI) {
  const uint32_t v = in.rs1 & 31;
  csr_op(ctx, in, v != 0, [v](uint32_t old) { return old | v; });
}
VT_SEM(CSRRCI) {
  const uint32_t v = in.rs1 & 31;
  csr_op(ctx, in, v != 0, [v](uint32_t old) { return old & ~v; });
}

}  // namespace ventus::sim
