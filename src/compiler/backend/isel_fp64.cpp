// double arithmetic. The device computes binary64 only in the pair forms of its vector
// instructions (docs/isa.md, "regpair / regpairi"): `regpair zero, zero, 0` before
// `vfadd.vv v0, v0, v2` makes every register operand an even-aligned pair, {v1:v0} and
// {v3:v2}. A double value lives in two registers of any number (low word, high word, as a
// long does), so each operation copies its operands into the pairs v0:v1, v2:v3, v4:v5
// (physical registers: the allocator keeps other values out of them while they are
// live, as for call arguments), runs the pair instruction and copies the result out;
// a uniform result comes back to scalar registers with vmv.x.s (the value of the active
// lanes, which all computed the same). Compares, negation, fabs and copysign are integer
// code on the two words (expand_fp64_operations in backend.cpp), conversions library
// calls (the front end's lower_fp64_conversions).
#include "isel_internal.h"

namespace ventus::cc::backend::selection {

void Selector::pair_op(isa::Op op, const llvm::Instruction& inst,
                       const std::vector<const llvm::Value*>& operands) {
  const std::vector<uint32_t>& d = result_regs(&inst);
  for (size_t k = 0; k < d.size(); k += 2) {
    std::vector<std::pair<uint32_t, Src>> moves;
    for (size_t i = 0; i < operands.size(); ++i)
      for (unsigned half = 0; half < 2; ++half) {
        Src s = src(operands[i], static_cast<unsigned>(k + half));
        if (s.is_imm && !immediate_fits(isa::Op::VMV_V_I, s.imm))
          s = {false, 0, scalar_reg(s), RegClass::Scalar};
        moves.push_back({vreg_phys(static_cast<uint32_t>(2 * i + half)), s});
      }
    for (const auto& [phys, s] : moves) emit_vector_move(phys, s);
    emit(isa::Op::REGPAIR, {Operand::reg_of(kZero), Operand::reg_of(kZero), Operand::immediate(0)});
    const uint32_t v0 = vreg_phys(0), v2 = vreg_phys(2), v4 = vreg_phys(4);
    if (operands.size() == 1)
      emit(op, {Operand::reg_of(v0), Operand::reg_of(v0)});
    else if (operands.size() == 2)
      emit(op, {Operand::reg_of(v0), Operand::reg_of(v0), Operand::reg_of(v2)});
    else  // the vfmacc family: v0 = v2 * v4 + v0
      emit(op, {Operand::reg_of(v0), Operand::reg_of(v2), Operand::reg_of(v4)});
    for (unsigned half = 0; half < 2; ++half) {
      const uint32_t dst = d[k + half], from = vreg_phys(half);
      emit(mf_.class_of(dst) == RegClass::Scalar ? isa::Op::VMV_X_S : isa::Op::VMV_V_V,
           {Operand::reg_of(dst), Operand::reg_of(from)});
    }
  }
}

void Selector::select_fp64_binary(llvm::BinaryOperator& inst) {
  using BO = llvm::Instruction::BinaryOps;
  isa::Op op;
  switch (inst.getOpcode()) {
    case BO::FAdd: op = isa::Op::VFADD_VV; break;
    case BO::FSub: op = isa::Op::VFSUB_VV; break;
    case BO::FMul: op = isa::Op::VFMUL_VV; break;
    case BO::FDiv: op = isa::Op::VFDIV_VV; break;
    default: unsupported(&inst, fmt::format("the '{}' operation on double", inst.getOpcodeName()));
  }
  pair_op(op, inst, {inst.getOperand(0), inst.getOperand(1)});
}

bool Selector::select_fp64_intrinsic(llvm::IntrinsicInst& call) {
  switch (call.getIntrinsicID()) {
    case llvm::Intrinsic::fma:
    case llvm::Intrinsic::fmuladd:
      // One rounding: v0 = a * b + c.
      pair_op(isa::Op::VFMACC_VV, call,
              {call.getArgOperand(2), call.getArgOperand(0), call.getArgOperand(1)});
      return true;
    case llvm::Intrinsic::sqrt:
      pair_op(isa::Op::VFSQRT_V, call, {call.getArgOperand(0)});
      return true;
    case llvm::Intrinsic::minnum:
      pair_op(isa::Op::VFMIN_VV, call, {call.getArgOperand(0), call.getArgOperand(1)});
      return true;
    case llvm::Intrinsic::maxnum:
      pair_op(isa::Op::VFMAX_VV, call, {call.getArgOperand(0), call.getArgOperand(1)});
      return true;
    default: return false;
  }
}

}  // namespace ventus::cc::backend::selection
