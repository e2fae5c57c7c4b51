// Instruction selection: GCC-style inline assembly (docs/compiler.md, "Inline
// assembly"). Operands get registers of their constraint's class; the statement becomes
// one Pseudo::InlineAsm whose text the emitter writes with the allocated registers, for
// the assembler to check against the instruction table like any other line.
#include <llvm/IR/InlineAsm.h>

#include "inline_asm.h"
#include "isel_internal.h"

namespace ventus::cc::backend::selection {

void Selector::select_inline_asm(llvm::CallInst& call) {
  const auto& asm_value = *llvm::cast<llvm::InlineAsm>(call.getCalledOperand());
  const AsmConstraints constraints = parse_asm_constraints(asm_value);
  if (!constraints.error.empty()) error_at(&call, constraints.error);

  // The outputs' IR types: one value, or a struct of one field per output.
  std::vector<llvm::Type*> output_types;
  if (auto* st = llvm::dyn_cast<llvm::StructType>(call.getType()))
    output_types.assign(st->element_begin(), st->element_end());
  else if (!call.getType()->isVoidTy())
    output_types.push_back(call.getType());
  for (llvm::Type* t : output_types)
    if (!(t->isIntegerTy() && t->getIntegerBitWidth() <= 32) && !t->isFloatTy() &&
        !t->isPointerTy())
      error_at(&call,
               "an inline assembly operand must be a 32-bit (or narrower) scalar: int, "
               "uint, float, a pointer (one register per operand)");
  // The result values' registers (their class: the divergence analysis's), one per output.
  std::vector<uint32_t> results;
  if (output_types.size() == 1) {
    results = result_regs(&call);
  } else {
    for (size_t k = 0; k < output_types.size(); ++k)
      results.push_back(mf_.new_vreg(class_of(&call)));
    asm_outputs_[&call] = results;
  }

  MInst inst;
  inst.pseudo = Pseudo::InlineAsm;
  inst.ops.push_back(Operand::literal(asm_value.getAsmString()));
  inst.ops.push_back(
      Operand::literal(asm_begin_marker(source_location(&call), describe(*call.getFunction()))));
  const size_t first = inst.ops.size();
  // Outputs whose register is not the result's (a scalar-register output of a statement
  // whose result is per thread): copied into the result after the statement.
  std::vector<std::pair<uint32_t, uint32_t>> copies_after;
  size_t output = 0, argument = 0;
  for (const AsmConstraint& c : constraints.list) {
    if (c.role == AsmConstraint::Role::Clobber) {
      if (c.cls == AsmConstraint::Class::Physical) inst.implicit_defs.push_back(c.physical);
      continue;
    }
    const RegClass wanted =
        c.cls == AsmConstraint::Class::Vector ? RegClass::Vector : RegClass::Scalar;
    if (c.role == AsmConstraint::Role::Output) {
      const uint32_t result = results.at(output++);
      uint32_t reg = result;
      if (mf_.class_of(result) != wanted) {
        if (wanted == RegClass::Vector)
          throw Error("internal: a uniform vector-register asm output");
        reg = new_s();
        copies_after.push_back({result, reg});
      }
      Operand op = Operand::reg_of(reg);
      op.def = true;
      op.early_clobber = c.early_clobber;
      inst.ops.push_back(op);
      continue;
    }
    llvm::Value* value = call.getArgOperand(argument++);
    if (c.tied_to >= 0) {
      // The output's register holds the input when the statement starts.
      Operand& out = inst.ops.at(first + static_cast<size_t>(c.tied_to));
      move(out.reg, src(value));
      out.use = true;
      Operand op = Operand::reg_of(out.reg);
      op.use = true;
      inst.ops.push_back(op);
      continue;
    }
    if (c.cls == AsmConstraint::Class::Immediate) {
      auto* constant = llvm::dyn_cast<llvm::ConstantInt>(value);
      if (!constant)
        error_at(&call, fmt::format("the inline assembly's operand %{} (\"{}\") must be a constant",
                                    inst.ops.size() - first, c.text));
      inst.ops.push_back(Operand::immediate(constant->getSExtValue()));
      continue;
    }
    check_type(&call, value->getType());
    if (value->getType()->isVectorTy() || is_i64(value->getType()))
      error_at(&call,
               "an inline assembly operand must be a 32-bit (or narrower) scalar: int, "
               "uint, float, a pointer (one register per operand)");
    const Src s = src(value);
    uint32_t reg;
    if (wanted == RegClass::Scalar) {
      if (!s.is_imm && s.cls == RegClass::Vector)
        error_at(&call, fmt::format("the inline assembly's operand %{} (\"r\", a scalar register) "
                                    "has a value that differs between threads; use \"vr\"",
                                    inst.ops.size() - first));
      reg = scalar_reg(s);
    } else {
      reg = vector_reg(s);
    }
    Operand op = Operand::reg_of(reg);
    op.use = true;
    inst.ops.push_back(op);
  }
  std::string why;
  if (!substitute_asm_operands(
          asm_value.getAsmString(), inst.ops.size() - first, [](size_t) { return std::string(); },
          "", &why))
    error_at(&call,
             fmt::format("in the inline assembly \"{}\": {}", asm_value.getAsmString(), why));
  cur_->insts.push_back(std::move(inst));
  for (const auto& [result, reg] : copies_after) move(result, {false, 0, reg, RegClass::Scalar});
}

}  // namespace ventus::cc::backend::selection
