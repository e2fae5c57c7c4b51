// Scalar floating point in Zfinx form: fp32 values live in x registers. Results are
// bit-exact RISC-V (src/fp/fp32.h); exceptions accrue into fflags; rm = dyn uses frm.
#include "fp32.h"
#include "semantics.h"

namespace ventus::sim {
namespace {

constexpr uint32_t kSign = 0x80000000u;

inline uint32_t X(const Exec& ctx, unsigned r) {
  return ctx.warp.x[r];
}

// rd = op(rs1, rs2) with the instruction's rounding mode.
template <class Op>
inline void binary_rounded(Exec& ctx, const Insn& in, Op op) {
  const uint32_t rm = ctx.rounding_mode(in.rm);
  ctx.warp.write_x(in.rd, op(X(ctx, in.rs1), X(ctx, in.rs2), rm, ctx.warp.fflags));
}

// rd = a*b + c with the operands' signs flipped as the row says.
inline void fused(Exec& ctx, const Insn& in, uint32_t negate_product, uint32_t negate_addend) {
  const uint32_t rm = ctx.rounding_mode(in.rm);
  ctx.warp.write_x(in.rd, fp::fma(X(ctx, in.rs1) ^ negate_product, X(ctx, in.rs2),
                                  X(ctx, in.rs3) ^ negate_addend, rm, ctx.warp.fflags));
}

}  // namespace

VT_SEM(FADD_S) {
  binary_rounded(ctx, in, fp::add);
}
VT_SEM(FSUB_S) {
  binary_rounded(ctx, in, fp::sub);
}
VT_SEM(FMUL_S) {
  binary_rounded(ctx, in, fp::mul);
}
VT_SEM(FDIV_S) {
  binary_rounded(ctx, in, fp::div);
}
VT_SEM(FSQRT_S) {
  const uint32_t rm = ctx.rounding_mode(in.rm);
  ctx.warp.write_x(in.rd, fp::sqrt(X(ctx, in.rs1), rm, ctx.warp.fflags));
}
VT_SEM(FSGNJ_S) {
  ctx.warp.write_x(in.rd, (X(ctx, in.rs1) & ~kSign) | (X(ctx, in.rs2) & kSign));
}
VT_SEM(FSGNJN_S) {
  ctx.warp.write_x(in.rd, (X(ctx, in.rs1) & ~kSign) | (~X(ctx, in.rs2) & kSign));
}
VT_SEM(FSGNJX_S) {
  ctx.warp.write_x(in.rd, X(ctx, in.rs1) ^ (X(ctx, in.rs2) & kSign));
}
// fmv.x.w / fmv.w.x: with x and f registers one file (Zfinx) both are moves, as the
// hardware executes the public compiler's code (docs/isa.md).
VT_SEM(FMV_X_W) {
  ctx.warp.write_x(in.rd, X(ctx, in.rs1));
}
VT_SEM(FMV_W_X) {
  ctx.warp.write_x(in.rd, X(ctx, in.rs1));
}
VT_SEM(FMIN_S) {
  ctx.warp.write_x(in.rd, fp::min(X(ctx, in.rs1), X(ctx, in.rs2), ctx.warp.fflags));
}
VT_SEM(FMAX_S) {
  ctx.warp.write_x(in.rd, fp::max(X(ctx, in.rs1), X(ctx, in.rs2), ctx.warp.fflags));
}
VT_SEM(FCVT_W_S) {
  const uint32_t rm = ctx.rounding_mode(in.rm);
  ctx.warp.write_x(in.rd, static_cast<uint32_t>(fp::to_i32(X(ctx, in.rs1), rm, ctx.warp.fflags)));
}
VT_SEM(FCVT_WU_S) {
  const uint32_t rm = ctx.rounding_mode(in.rm);
  ctx.warp.write_x(in.rd, fp::to_u32(X(ctx, in.rs1), rm, ctx.warp.fflags));
}
VT_SEM(FCVT_S_W) {
  const uint32_t rm = ctx.rounding_mode(in.rm);
  ctx.warp.write_x(in.rd, fp::from_i32(static_cast<int32_t>(X(ctx, in.rs1)), rm, ctx.warp.fflags));
}
VT_SEM(FCVT_S_WU) {
  const uint32_t rm = ctx.rounding_mode(in.rm);
  ctx.warp.write_x(in.rd, fp::from_u32(X(ctx, in.rs1), rm, ctx.warp.fflags));
}
VT_SEM(FEQ_S) {
  ctx.warp.write_x(in.rd, fp::eq(X(ctx, in.rs1), X(ctx, in.rs2), ctx.warp.fflags));
}
VT_SEM(FLT_S) {
  ctx.warp.write_x(in.rd, fp::lt(X(ctx, in.rs1), X(ctx, in.rs2), ctx.warp.fflags));
}
VT_SEM(FLE_S) {
  ctx.warp.write_x(in.rd, fp::le(X(ctx, in.rs1), X(ctx, in.rs2), ctx.warp.fflags));
}
VT_SEM(FCLASS_S) {
  ctx.warp.write_x(in.rd, fp::classify(X(ctx, in.rs1)));
}
VT_SEM(FMADD_S) {
  fused(ctx, in, 0, 0);
}
VT_SEM(FMSUB_S) {
  fused(ctx, in, 0, kSign);
}
VT_SEM(FNMSUB_S) {
  fused(ctx, in, kSign, 0);
}
VT_SEM(FNMADD_S) {
  fused(ctx, in, kSign, kSign);
}

}  // namespace ventus::sim
