// Zicsr: the CSRs a warp has (docs/simulator.md, "CSRs"). Unknown CSRs and writes to
// read-only ones fault. csrrs/csrrc with rs1 = x0 (or uimm = 0) do not write, as in RISC-V,
// so reading a read-only CSR that way is fine.
#include <fmt/format.h>

#include "memsys.h"
#include "semantics.h"

namespace ventus::sim {
namespace {

enum : uint32_t {
  kFflags = 0x001,
  kFrm = 0x002,
  kFcsr = 0x003,
  kVstart = 0x008,
  kVxsat = 0x009,
  kVxrm = 0x00a,
  kVcsr = 0x00f,
  kMstatus = 0x300,
  kMtvec = 0x305,
  kMscratch = 0x340,
  kVl = 0xc20,
  kVtype = 0xc21,
  kVlenb = 0xc22,
  kTid = 0x800,
  kNumw,
  kNumt,
  kKnl,
  kWgid,
  kWid,
  kLds,
  kPds,
  kGidx,
  kGidy,
  kGidz,
  kPrint,
  kRpc,
  kGds,         // 0x80d: base added by the explicit global series (read/write, 0 at dispatch)
  kGdsBaseCsr,  // 0x80e-0x811: the windows of the flat range check (read-only constants)
  kGdsLimitCsr,
  kLdsBaseCsr,
  kLdsLimitCsr
};

[[noreturn]] void unknown_csr(uint32_t csr) {
  fault(fmt::format("CSR {:#05x} does not exist on Ventus", csr));
}

uint32_t read_csr(const Warp& w, uint32_t csr) {
  switch (csr) {
    case kFflags: return w.fflags;
    case kFrm: return w.frm;
    case kFcsr: return (w.frm << 5) | w.fflags;
    case kVstart: return 0;
    case kVxsat: return w.vxsat;
    case kVxrm: return w.vxrm;
    case kVcsr: return (w.vxrm << 1) | w.vxsat;
    case kMstatus: return w.mstatus;
    case kMtvec: return w.mtvec;
    case kMscratch: return w.mscratch;
    case kVl: return w.vcfg.vl;
    case kVtype: return w.vcfg.vtype;
    case kVlenb: return 4 * w.lanes;
    case kTid: return w.csr_tid;
    case kNumw: return w.csr_numw;
    case kNumt: return w.csr_numt;
    case kKnl: return w.csr_knl;
    case kWgid: return w.csr_wgid;
    case kWid: return w.csr_wid;
    case kLds: return w.csr_lds;
    case kPds: return w.csr_pds;
    case kGidx: return w.csr_gid[0];
    case kGidy: return w.csr_gid[1];
    case kGidz: return w.csr_gid[2];
    case kPrint: return w.print;
    case kRpc: return w.rpc;
    case kGds: return w.csr_gds;
    case kGdsBaseCsr: return kGdsBase;
    case kGdsLimitCsr: return kGdsLimit;
    case kLdsBaseCsr: return kLdsBase;
    case kLdsLimitCsr: return kLdsLimit;
    default: unknown_csr(csr);
  }
}

void write_csr(Exec& ctx, uint32_t csr, uint32_t value) {
  Warp& w = ctx.warp;
  switch (csr) {
    case kFflags: w.fflags = value & 0x1f; return;
    case kFrm: w.frm = value & 7; return;
    case kFcsr:
      w.fflags = value & 0x1f;
      w.frm = (value >> 5) & 7;
      return;
    case kVstart:
      // Ventus vector instructions never trap, so they never restart mid-way.
      if (value != 0)
        fault(fmt::format("vstart = {} (Ventus vector instructions do not restart)", value));
      return;
    case kVxsat: w.vxsat = value & 1; return;
    case kVxrm: w.vxrm = value & 3; return;
    case kVcsr:
      w.vxsat = value & 1;
      w.vxrm = (value >> 1) & 3;
      return;
    case kMstatus: w.mstatus = value; return;
    case kMtvec: w.mtvec = value; return;
    case kMscratch: w.mscratch = value; return;
    case kPrint:
      w.print = value;
      ctx.flow = Flow::Print;
      return;
    case kRpc: w.rpc = value; return;
    case kGds: w.csr_gds = value; return;
    case kVl:
    case kVtype:
    case kVlenb:
    case kTid:
    case kNumw:
    case kNumt:
    case kKnl:
    case kWgid:
    case kWid:
    case kLds:
    case kPds:
    case kGidx:
    case kGidy:
    case kGidz:
    case kGdsBaseCsr:
    case kGdsLimitCsr:
    case kLdsBaseCsr:
    case kLdsLimitCsr: fault(fmt::format("CSR {:#05x} is read-only", csr));
    default: unknown_csr(csr);
  }
}

// old = csr; csr = f(old); rd = old. write says whether the instruction writes at all.
template <class F>
void csr_op(Exec& ctx, const Insn& in, bool write, F f) {
  const uint32_t csr = static_cast<uint32_t>(in.imm) & 0xfff;
  const uint32_t old = read_csr(ctx.warp, csr);
  if (write) write_csr(ctx, csr, f(old));
  ctx.warp.write_x(in.rd, old);
}

}  // namespace

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
