// Ventus custom vector computations (opcode custom-0): vadd12.vi, vsub12.vi, vfexp and
// vftta.vv, and the hardware's fp16 conversions in the OP-V unary space. The guide gives
// one sentence each or none; the decisions are in docs/vector.md and docs/isa.md.
#include "fp16.h"
#include "fp32.h"
#include "vector_util.h"

namespace ventus::sim {
namespace {

// vd = vs1 +- imm with the unsigned 12-bit immediate (the guide: "adds the unsigned
// immediate"; the compiler emits vsub12.vi for subtraction), at SEW, on every register of
// the group. The rows have no vm field: they act on the SIMT-active lanes below vl.
void add_immediate(Exec& ctx, const Insn& in, bool subtract) {
  Warp& w = ctx.warp;
  const unsigned g = w.vcfg.lmul;
  vec::check_group(in.rd, g, "vd");
  vec::check_group(in.rs1, g, "vs1");
  const uint32_t active = ctx.active_lanes(1);
  if (active == 0) return;
  const uint32_t imm =
      subtract ? 0u - static_cast<uint32_t>(in.imm) : static_cast<uint32_t>(in.imm);
  vec::with_sew(w, [&]<class U>() {
    for (unsigned k = 0; k < g; ++k) {
      const uint32_t* a = w.v[in.rs1 + k];
      vec::write_lanes(w.v[in.rd + k], active,
                       [&](unsigned i) -> uint32_t { return U(a[i] + imm); });
    }
  });
}

}  // namespace

VT_SEM(VADD12_VI) {
  add_immediate(ctx, in, false);
}
VT_SEM(VSUB12_VI) {
  add_immediate(ctx, in, true);
}

namespace {
// A one-operand float operation at SEW=32, element by element over the register group:
// d = op(a, frm, flags), with the flags it raises accrued in fflags.
template <class Op>
void unary_float_op(Exec& ctx, const Insn& in, Op op) {
  Warp& w = ctx.warp;
  vec::require_sew32(w);
  const unsigned g = w.vcfg.lmul;
  vec::check_group(in.rd, g, "vd");
  vec::check_group(in.rs2, g, "vs2");
  const uint32_t rm = ctx.rounding_mode(fp::kDYN);
  const uint32_t active = ctx.active_lanes(in.vm);
  if (active == 0) return;
  uint32_t flags = 0;
  for (unsigned k = 0; k < g; ++k) {
    const uint32_t* a = w.v[in.rs2 + k];
    uint32_t* d = w.v[in.rd + k];
    vec::each_lane(active, [&](unsigned i) { d[i] = op(a[i], rm, flags); });
  }
  w.fflags |= flags;
}
}  // namespace

// vfexp vd, vs2: e^vs2 correctly rounded in frm, with the flags of fp::exp.
VT_SEM(VFEXP_V) {
  unary_float_op(ctx, in,
                 [](uint32_t a, uint32_t rm, uint32_t& flags) { return fp::exp(a, rm, flags); });
}

// The fp16 conversions on vfwcvt.xu.f.v's and vfwcvt.x.f.v's encodings, at SEW=32: each
// element's low 16 bits as a half -> the float (exact), and a float -> the half in frm in
// the low 16 bits, the high 16 bits 0 (unary_float_op).

VT_SEM(VFCVT_F_H_V) {
  unary_float_op(ctx, in, [](uint32_t a, uint32_t, uint32_t& flags) {
    return fp::f16::to_f32(static_cast<uint16_t>(a), flags);
  });
}
VT_SEM(VFCVT_H_F_V) {
  unary_float_op(ctx, in, [](uint32_t a, uint32_t rm, uint32_t& flags) -> uint32_t {
    return fp::f16::from_f32(a, rm, flags);
  });
}

// vftta.vv vd, vs1, vs2: "computes the convolution of vectors vs1 and vs2, adds the result
// to vd". Per thread (one element of each operand per lane) the convolution is the product,
// so vd = vs1 * vs2 + vd with one rounding in frm, exactly vfmacc.vv. The accumulator is read
// through the vs3 slot (in.rs3), as for the other multiply-add rows.
VT_SEM(VFTTA_VV) {
  Warp& w = ctx.warp;
  vec::require_sew32(w);
  const unsigned g = w.vcfg.lmul;
  vec::check_group(in.rd, g, "vd");
  vec::check_group(in.rs3, g, "vd (accumulator)");
  vec::check_group(in.rs1, g, "vs1");
  vec::check_group(in.rs2, g, "vs2");
  const uint32_t rm = ctx.rounding_mode(fp::kDYN);
  const uint32_t active = ctx.active_lanes(in.vm);
  if (active == 0) return;
  uint32_t flags = 0;
  for (unsigned k = 0; k < g; ++k)
    fp::fma_lanes(w.v[in.rs1 + k], w.v[in.rs2 + k], w.v[in.rs3 + k], w.v[in.rd + k], active,
                  w.lanes, rm, flags);
  w.fflags |= flags;
}

}  // namespace ventus::sim
