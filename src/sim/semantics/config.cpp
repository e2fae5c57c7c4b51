// vsetvli / vsetivli / vsetvl. Ventus runs one element per thread: VLMAX is the number of
// threads per warp whatever SEW and LMUL say, so vl = min(AVL, threads). SEW 8/16/32 and
// LMUL 1/2 are supported (the guide); other vtype values fault instead of setting vill.
#include <fmt/format.h>

#include "semantics.h"
#include "vtype.h"

namespace ventus::sim {
namespace {

void configure(Exec& ctx, const Insn& in, uint32_t vtype, bool avl_given, uint32_t avl) {
  Warp& w = ctx.warp;
  if (!is_supported_vtype(vtype))
    fault(fmt::format("unsupported vtype {:#x} ({}): Ventus supports e8/e16/e32 with m1 or m2",
                      vtype, isa::format_vtype(vtype)));
  w.vcfg.vtype = vtype;
  w.vcfg.sew = sew_of(vtype);
  w.vcfg.lmul = lmul_of(vtype);
  if (avl_given) w.vcfg.vl = std::min(avl, w.lanes);
  w.write_x(in.rd, w.vcfg.vl);
}

// The AVL rule of RVV 1.0 for the register forms: rs1 != x0 gives AVL = x[rs1];
// rs1 = x0 and rd != x0 asks for VLMAX; both x0 keeps vl.
void configure_from_registers(Exec& ctx, const Insn& in, uint32_t vtype) {
  if (in.rs1 != 0)
    configure(ctx, in, vtype, true, ctx.warp.x[in.rs1]);
  else
    configure(ctx, in, vtype, in.rd != 0, ctx.warp.lanes);
}

}  // namespace

VT_SEM(VSETVLI) {
  configure_from_registers(ctx, in, static_cast<uint32_t>(in.imm));
}
VT_SEM(VSETIVLI) {
  configure(ctx, in, static_cast<uint32_t>(in.imm), true, in.rs1 & 31);
}
VT_SEM(VSETVL) {
  configure_from_registers(ctx, in, ctx.warp.x[in.rs2]);
}

}  // namespace ventus::sim
