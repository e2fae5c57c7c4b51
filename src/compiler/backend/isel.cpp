// Instruction selection. Every LLVM value gets one virtual register per element (a
// <4 x float> is a group of four registers, as the guide lowers OpenCL vector types);
// the divergence analysis decides the class: uniform values are computed once per warp
// in scalar registers with RV32IM/Zfinx instructions, divergent ones per thread in
// vector registers. Sub-word integers (i8, i16) live in 32-bit registers with undefined
// high bits and are extended where the high bits matter; i1 values are always 0 or 1.
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/DebugInfoMetadata.h>

#include "isel_internal.h"

namespace ventus::cc::backend {

std::string source_location(const llvm::Value* value) {
  if (const auto* inst = llvm::dyn_cast_or_null<llvm::Instruction>(value)) {
    if (const llvm::DebugLoc& loc = inst->getDebugLoc(); loc && loc.getLine() != 0) {
      const auto* scope = llvm::cast<llvm::DIScope>(loc.getScope());
      return fmt::format("{}:{}:{}: ", scope->getFilename().str(), loc.getLine(), loc.getCol());
    }
    return definition_location(*inst->getFunction());
  }
  if (const auto* variable = llvm::dyn_cast_or_null<llvm::GlobalVariable>(value))
    return definition_location(*variable);
  if (const auto* function = llvm::dyn_cast_or_null<llvm::Function>(value))
    return definition_location(*function);
  return "";
}

std::string definition_location(const llvm::Function& function) {
  if (const llvm::DISubprogram* sp = function.getSubprogram(); sp && sp->getLine() != 0)
    return fmt::format("{}:{}: ", sp->getFilename().str(), sp->getLine());
  return function.getParent()->getSourceFileName() + ": ";
}

std::string definition_location(const llvm::GlobalVariable& variable) {
  if (const llvm::MDNode* node = variable.getMetadata(kDeclarationMetadata))
    if (node->getNumOperands() == 1)
      if (const auto* text = llvm::dyn_cast<llvm::MDString>(node->getOperand(0)))
        return text->getString().str() + ": ";
  for (const llvm::User* user : variable.users())
    if (const auto* inst = llvm::dyn_cast<llvm::Instruction>(user)) return source_location(inst);
  return variable.getParent()->getSourceFileName() + ": ";
}

std::string describe(const llvm::Function& function) {
  const std::string name = function.getName().str(), readable = llvm::demangle(name);
  return fmt::format("{} '{}'",
                     function.getCallingConv() == llvm::CallingConv::SPIR_KERNEL ? "kernel"
                                                                                 : "function",
                     readable);
}

uint64_t private_alignment(const llvm::Argument& byval) {
  const llvm::DataLayout& dl = byval.getParent()->getParent()->getDataLayout();
  return std::max<uint64_t>(byval.getParamAlign().valueOrOne().value(),
                            dl.getABITypeAlign(byval.getParamByValType()).value());
}

unsigned value_registers(llvm::Type* t) {
  unsigned n = 1;
  if (auto* vt = llvm::dyn_cast<llvm::FixedVectorType>(t)) n = vt->getNumElements();
  const bool wide = t->getScalarType()->isIntegerTy(64) || t->getScalarType()->isDoubleTy();
  return wide ? 2 * n : n;
}

bool passes_in_registers(const llvm::Function& f) {
  unsigned arguments = 0;
  for (const llvm::Argument& arg : f.args()) arguments += value_registers(arg.getType());
  llvm::Type* result = f.getReturnType();
  return arguments <= kArgumentRegisters &&
         (result->isVoidTy() || value_registers(result) <= kResultRegisters);
}

namespace selection {

[[noreturn]] void unsupported(const llvm::Value* where, const std::string& what) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (where) where->print(os);
  std::string loc = source_location(where);
  const auto* inst = llvm::dyn_cast_or_null<llvm::Instruction>(where);
  throw Error(fmt::format("{}error: the Ventus back end cannot compile {}{}{}", loc, what,
                          inst ? " (in " + describe(*inst->getFunction()) + ")" : "",
                          text.empty() ? "" : ": " + llvm::StringRef(text).trim().str()));
}

// An error at `where`'s source line that is not about a missing feature of the back end.
[[noreturn]] void error_at(const llvm::Value* where, const std::string& message) {
  throw Error(fmt::format("{}error: {}", source_location(where), message));
}

// An fneg whose every use is the first or third operand of an fma, where the fused
// negated forms absorb it.
bool Selector::folded_into_fma(const llvm::Instruction* fneg) const {
  if (fneg->use_empty()) return false;
  for (const llvm::Use& use : fneg->uses()) {
    auto* call = llvm::dyn_cast<llvm::IntrinsicInst>(use.getUser());
    if (!call || (call->getIntrinsicID() != llvm::Intrinsic::fma && call->getIntrinsicID() != llvm::Intrinsic::fmuladd))
      return false;
    if (use.getOperandNo() == 1 || call->getArgOperand(1) == fneg) return false;
  }
  return true;
}

// ---- values and emission helpers ------------------------------------------------------

void Selector::check_type(const llvm::Value* v, llvm::Type* t) {
  llvm::Type* e = scalar_type(t);
  if (e->isIntegerTy() && e->getIntegerBitWidth() > 32 && e->getIntegerBitWidth() != 64)
    unsupported(v, fmt::format("{}-bit integers", e->getIntegerBitWidth()));
  if (t->isStructTy() || t->isArrayTy()) unsupported(v, "aggregate values in registers");
}

const std::vector<uint32_t>& Selector::result_regs(const llvm::Value* v) {
  auto it = regs_.find(v);
  if (it != regs_.end()) return it->second;
  check_type(v, v->getType());
  std::vector<uint32_t> r;
  for (unsigned i = 0; i < elements(v->getType()); ++i) r.push_back(mf_.new_vreg(class_of(v)));
  return regs_[v] = r;
}

int64_t Selector::constant_bits(const llvm::Constant* c, unsigned part) {
  if (auto* ci = llvm::dyn_cast<llvm::ConstantInt>(c)) {
    if (ci->getBitWidth() == 1) return ci->getZExtValue();
    if (ci->getBitWidth() == 64)
      return static_cast<int32_t>(static_cast<uint32_t>(ci->getZExtValue() >> (32 * part)));
    if (ci->getBitWidth() > 32) unsupported(c, "integers wider than 64 bits");
    return static_cast<int32_t>(ci->getSExtValue());
  }
  if (auto* cf = llvm::dyn_cast<llvm::ConstantFP>(c)) {
    const uint64_t bits = cf->getValueAPF().bitcastToAPInt().getZExtValue();
    if (cf->getType()->isDoubleTy())
      return static_cast<int32_t>(static_cast<uint32_t>(bits >> (32 * part)));
    // half: 16-bit data, as an i16 constant (the front end promoted its arithmetic).
    if (cf->getType()->isHalfTy()) return static_cast<int16_t>(bits);
    if (!cf->getType()->isFloatTy()) unsupported(c, "non-float fp constants");
    return static_cast<int32_t>(bits);
  }
  if (llvm::isa<llvm::ConstantPointerNull>(c) || llvm::isa<llvm::UndefValue>(c) ||
      llvm::isa<llvm::ConstantAggregateZero>(c))
    return 0;
  unsupported(c, "this constant");
}

Src Selector::src(const llvm::Value* v, unsigned elem) {
  if (auto* c = llvm::dyn_cast<llvm::Constant>(v)) {
    if (auto* gv = llvm::dyn_cast<llvm::GlobalValue>(c))
      return {false, 0, global_address(gv), RegClass::Scalar};
    unsigned p = parts(c->getType());
    if (auto* vec = llvm::dyn_cast<llvm::ConstantDataVector>(c))
      return {true, constant_bits(vec->getElementAsConstant(elem / p), elem % p), kNoReg,
              RegClass::Scalar};
    if (auto* vec = llvm::dyn_cast<llvm::ConstantVector>(c))
      return {true, constant_bits(vec->getOperand(elem / p), elem % p), kNoReg, RegClass::Scalar};
    if (llvm::isa<llvm::ConstantExpr>(c)) unsupported(v, "a constant expression");
    return {true, constant_bits(c, elem % p), kNoReg, RegClass::Scalar};
  }
  auto it = regs_.find(v);
  if (it == regs_.end()) {
    // A value defined in a block not selected yet (phi operands, loops): create it.
    result_regs(v);
    it = regs_.find(v);
  }
  return {false, 0, it->second.at(elem), mf_.class_of(it->second.at(elem))};
}

uint32_t Selector::global_address(const llvm::GlobalValue* gv) {
  auto cached = global_regs_.find(gv);
  if (cached != global_regs_.end()) return cached->second;
  uint32_t r = mf_.new_vreg(RegClass::Scalar);
  auto* var = llvm::dyn_cast<llvm::GlobalVariable>(gv);
  MBlock& entry = mf_.blocks[0];
  std::vector<MInst> code;
  if (var && var->getAddressSpace() == 3) {
    auto off = layout_.local_offsets.find(var);
    if (off == layout_.local_offsets.end()) unsupported(gv, "this __local variable");
    uint32_t base = local_base();
    if (immediate_fits(isa::Op::ADDI, off->second)) {
      code.push_back(make_inst(isa::Op::ADDI, {Operand::reg_of(r), Operand::reg_of(base),
                                               Operand::immediate(off->second)}));
    } else {
      uint32_t offset = new_s();
      code.push_back(
          make_inst(Pseudo::Li, {Operand::reg_of(offset), Operand::immediate(off->second)}));
      code.push_back(make_inst(
          isa::Op::ADD, {Operand::reg_of(r), Operand::reg_of(base), Operand::reg_of(offset)}));
    }
  } else {
    std::string sym = gv->getName().str();
    if (auto s = layout_.symbols.find(gv); s != layout_.symbols.end()) sym = s->second;
    code.push_back(make_inst(Pseudo::La, {Operand::reg_of(r), Operand::literal(sym)}));
  }
  entry.insts.insert(entry.insts.begin() + entry_insert_point_, code.begin(), code.end());
  entry_insert_point_ += code.size();
  global_regs_[gv] = r;
  return r;
}

uint32_t Selector::local_base() {
  if (local_base_ != kNoReg) return local_base_;
  uint32_t lds = mf_.new_vreg(RegClass::Scalar), numw = mf_.new_vreg(RegClass::Scalar);
  local_base_ = mf_.new_vreg(RegClass::Scalar);
  MBlock& entry = mf_.blocks[0];
  // The local data follows the W warps' stacks (rt::plan_launch's layout).
  const uint32_t stack = layout_.warp_stack_bytes;
  std::vector<MInst> code = {
      make_inst(Pseudo::Csrr, {Operand::reg_of(lds), Operand::csr(abi::csr::LDS)}),
      make_inst(Pseudo::Csrr, {Operand::reg_of(numw), Operand::csr(abi::csr::NUMW)})};
  if (std::has_single_bit(stack)) {
    code.push_back(make_inst(isa::Op::SLLI, {Operand::reg_of(numw), Operand::reg_of(numw),
                                             Operand::immediate(std::countr_zero(stack))}));
  } else {
    const uint32_t bytes = mf_.new_vreg(RegClass::Scalar);
    code.push_back(make_inst(Pseudo::Li, {Operand::reg_of(bytes), Operand::immediate(stack)}));
    code.push_back(make_inst(
        isa::Op::MUL, {Operand::reg_of(numw), Operand::reg_of(numw), Operand::reg_of(bytes)}));
  }
  code.push_back(make_inst(
      isa::Op::ADD, {Operand::reg_of(local_base_), Operand::reg_of(lds), Operand::reg_of(numw)}));
  entry.insts.insert(entry.insts.begin() + entry_insert_point_, code.begin(), code.end());
  entry_insert_point_ += code.size();
  return local_base_;
}

void Selector::load_argument(isa::Op op, uint32_t dst, uint64_t offset) {
  if (immediate_fits(op, static_cast<int64_t>(offset))) {
    emit(op, {Operand::reg_of(dst), Operand::immediate(static_cast<int64_t>(offset)),
              Operand::reg_of(kernel_args_)});
    return;
  }
  const uint32_t address = new_s();
  emit(Pseudo::Li, {Operand::reg_of(address), Operand::immediate(static_cast<int64_t>(offset))});
  emit(isa::Op::ADD,
       {Operand::reg_of(address), Operand::reg_of(address), Operand::reg_of(kernel_args_)});
  emit(op, {Operand::reg_of(dst), Operand::immediate(0), Operand::reg_of(address)});
}

void Selector::emit_vector_move(uint32_t phys, const Src& s) {
  if (s.is_imm)
    emit(isa::Op::VMV_V_I, {Operand::reg_of(phys), Operand::immediate(s.imm)});
  else if (s.cls == RegClass::Vector)
    emit(isa::Op::VMV_V_V, {Operand::reg_of(phys), Operand::reg_of(s.reg)});
  else
    emit(isa::Op::VMV_V_X, {Operand::reg_of(phys), Operand::reg_of(s.reg)});
}

uint32_t Selector::scalar_reg(const Src& s) {
  if (!s.is_imm) {
    if (s.cls != RegClass::Scalar) throw Error("internal: vector value where a scalar is needed");
    return s.reg;
  }
  if (s.imm == 0) return kZero;
  uint32_t r = new_s();
  emit(Pseudo::Li, {Operand::reg_of(r), Operand::immediate(s.imm)});
  return r;
}

uint32_t Selector::vector_reg(const Src& s) {
  if (!s.is_imm && s.cls == RegClass::Vector) return s.reg;
  uint32_t r = new_v();
  if (s.is_imm && immediate_fits(isa::Op::VMV_V_I, s.imm))
    emit(isa::Op::VMV_V_I, {Operand::reg_of(r), Operand::immediate(s.imm)});
  else
    emit(isa::Op::VMV_V_X, {Operand::reg_of(r), Operand::reg_of(scalar_reg(s))});
  return r;
}

void Selector::move(uint32_t dst, const Src& s) {
  if (mf_.class_of(dst) == RegClass::Scalar) {
    if (s.is_imm)
      emit(Pseudo::Li, {Operand::reg_of(dst), Operand::immediate(s.imm)});
    else
      emit(Pseudo::Mv, {Operand::reg_of(dst), Operand::reg_of(s.reg)});
    return;
  }
  if (s.is_imm && immediate_fits(isa::Op::VMV_V_I, s.imm))
    emit(isa::Op::VMV_V_I, {Operand::reg_of(dst), Operand::immediate(s.imm)});
  else if (!s.is_imm && s.cls == RegClass::Vector)
    emit(isa::Op::VMV_V_V, {Operand::reg_of(dst), Operand::reg_of(s.reg)});
  else
    emit(isa::Op::VMV_V_X, {Operand::reg_of(dst), Operand::reg_of(scalar_reg(s))});
}

Src Selector::extend(Src s, unsigned bits, bool is_signed, const llvm::Value* of) {
  if (bits >= 32 || bits == 1) return s;
  if (!is_signed && of && llvm::isa<llvm::LoadInst>(of)) return s;
  if (s.is_imm) {
    int64_t mask = (int64_t{1} << bits) - 1;
    int64_t v = s.imm & mask;
    if (is_signed && (v >> (bits - 1))) v -= int64_t{1} << bits;
    return {true, v, kNoReg, RegClass::Scalar};
  }
  unsigned shift = 32 - bits;
  if (s.cls == RegClass::Scalar) {
    uint32_t r = new_s();
    if (!is_signed && bits == 8) {
      emit(isa::Op::ANDI, {Operand::reg_of(r), Operand::reg_of(s.reg), Operand::immediate(255)});
    } else {
      emit(isa::Op::SLLI, {Operand::reg_of(r), Operand::reg_of(s.reg), Operand::immediate(shift)});
      emit(is_signed ? isa::Op::SRAI : isa::Op::SRLI,
           {Operand::reg_of(r), Operand::reg_of(r), Operand::immediate(shift)});
    }
    return {false, 0, r, RegClass::Scalar};
  }
  uint32_t r = new_v();
  emit(isa::Op::VSLL_VI, {Operand::reg_of(r), Operand::reg_of(s.reg), Operand::immediate(shift)});
  emit(is_signed ? isa::Op::VSRA_VI : isa::Op::VSRL_VI,
       {Operand::reg_of(r), Operand::reg_of(r), Operand::immediate(shift)});
  return {false, 0, r, RegClass::Vector};
}

void Selector::int_op(const IntOp& op, uint32_t dst, Src a, Src b) {
  if (mf_.class_of(dst) == RegClass::Scalar) {
    if (b.is_imm && op.scalar_imm != kNone && immediate_fits(op.scalar_imm, b.imm)) {
      emit(op.scalar_imm,
           {Operand::reg_of(dst), Operand::reg_of(scalar_reg(a)), Operand::immediate(b.imm)});
      return;
    }
    if (a.is_imm && op.commutative && op.scalar_imm != kNone &&
        immediate_fits(op.scalar_imm, a.imm))
      return int_op(op, dst, b, a);
    emit(op.scalar,
         {Operand::reg_of(dst), Operand::reg_of(scalar_reg(a)), Operand::reg_of(scalar_reg(b))});
    return;
  }
  bool a_vec = !a.is_imm && a.cls == RegClass::Vector;
  bool b_vec = !b.is_imm && b.cls == RegClass::Vector;
  const bool subtract = op.vv == isa::Op::VSUB_VV;
  if (!a_vec && b_vec) {
    if (op.commutative) return int_op(op, dst, b, a);
    if (subtract) {  // uniform - vector: reverse subtract
      if (a.is_imm && immediate_fits(isa::Op::VRSUB_VI, a.imm))
        emit(isa::Op::VRSUB_VI,
             {Operand::reg_of(dst), Operand::reg_of(b.reg), Operand::immediate(a.imm)});
      else
        emit(isa::Op::VRSUB_VX,
             {Operand::reg_of(dst), Operand::reg_of(b.reg), Operand::reg_of(scalar_reg(a))});
      return;
    }
  }
  uint32_t va = vector_reg(a);
  if (b.is_imm && op.vi != kNone && immediate_fits(op.vi, b.imm)) {
    emit(op.vi, {Operand::reg_of(dst), Operand::reg_of(va), Operand::immediate(b.imm)});
  } else if (b.is_imm && subtract && immediate_fits(isa::Op::VADD_VI, -b.imm)) {
    emit(isa::Op::VADD_VI, {Operand::reg_of(dst), Operand::reg_of(va), Operand::immediate(-b.imm)});
  } else if (b.is_imm || b.cls == RegClass::Scalar) {
    emit(op.vx, {Operand::reg_of(dst), Operand::reg_of(va), Operand::reg_of(scalar_reg(b))});
  } else {
    emit(op.vv, {Operand::reg_of(dst), Operand::reg_of(va), Operand::reg_of(b.reg)});
  }
}

void Selector::fp_op(const FpOp& op, uint32_t dst, Src a, Src b) {
  if (mf_.class_of(dst) == RegClass::Scalar) {
    emit(op.scalar,
         {Operand::reg_of(dst), Operand::reg_of(scalar_reg(a)), Operand::reg_of(scalar_reg(b))});
    return;
  }
  bool a_vec = !a.is_imm && a.cls == RegClass::Vector;
  bool b_vec = !b.is_imm && b.cls == RegClass::Vector;
  if (!a_vec && b_vec) {
    if (op.commutative) return fp_op(op, dst, b, a);
    if (op.reversed_vf != kNone) {
      emit(op.reversed_vf,
           {Operand::reg_of(dst), Operand::reg_of(b.reg), Operand::reg_of(scalar_reg(a))});
      return;
    }
  }
  uint32_t va = vector_reg(a);
  if (!b_vec)
    emit(op.vf, {Operand::reg_of(dst), Operand::reg_of(va), Operand::reg_of(scalar_reg(b))});
  else
    emit(op.vv, {Operand::reg_of(dst), Operand::reg_of(va), Operand::reg_of(b.reg)});
}

void Selector::not_bit(uint32_t dst, uint32_t src_reg) {
  if (mf_.class_of(dst) == RegClass::Scalar)
    emit(isa::Op::XORI, {Operand::reg_of(dst), Operand::reg_of(src_reg), Operand::immediate(1)});
  else
    emit(isa::Op::VXOR_VI, {Operand::reg_of(dst), Operand::reg_of(src_reg), Operand::immediate(1)});
}

bool immediate_fits(isa::Op op, int64_t v) {
  for (const isa::OperandSlot& slot : isa::info(op).operands)
    if (!isa::is_register_kind(slot.kind) && slot.kind != isa::OperandKind::V0)
      return isa::operand_fits(slot, v);
  throw Error(fmt::format("internal: '{}' has no immediate operand", isa::info(op).mnemonic));
}

MFunction Selector::run() {
  // Blocks first, so branches can name any of them.
  int index = 0;
  for (llvm::BasicBlock& bb : f_) {
    block_index_[&bb] = index;
    MBlock block;
    block.label = index == 0 ? mf_.name : fmt::format(".LBB_{}_{}", mf_.name, index);
    mf_.blocks.push_back(std::move(block));
    ++index;
  }
  for (llvm::BasicBlock& bb : f_)
    for (llvm::BasicBlock* succ : llvm::successors(&bb))
      mf_.blocks[block_index_[&bb]].succs.push_back(block_index_[succ]);

  // Private frame: allocas at fixed offsets below tp, each naturally aligned (the frame
  // starts at a multiple of layout_.private_align, docs/compiler.md). Sizes add up in 64
  // bits and stop at the limit, so that no huge array wraps around to a small frame.
  uint64_t frame = 0;
  auto place = [&](uint64_t bytes, uint64_t align) {
    frame = llvm::alignTo(frame, std::max<uint64_t>(4, align));
    const uint64_t at = frame;
    frame += llvm::alignTo(bytes, 4);
    if (bytes > kMaxPrivateFrameBytes || frame > kMaxPrivateFrameBytes)
      error_at(&f_, fmt::format("{} needs at least {} bytes of private memory per work-item for "
                                "its variables; a work-item has at most {}",
                                describe(f_), std::max(bytes, frame), kMaxPrivateFrameBytes));
    return static_cast<uint32_t>(at);
  };
  for (llvm::Instruction& i : llvm::instructions(f_)) {
    auto* alloca = llvm::dyn_cast<llvm::AllocaInst>(&i);
    if (!alloca) continue;
    if (!alloca->isStaticAlloca()) unsupported(alloca, "variable-length private arrays");
    const llvm::APInt count = llvm::cast<llvm::ConstantInt>(alloca->getArraySize())->getValue();
    const uint64_t element = dl_.getTypeAllocSize(alloca->getAllocatedType());
    const uint64_t bytes = count.getActiveBits() > 32 || element > UINT32_MAX
                               ? UINT64_MAX / 2
                               : element * count.getZExtValue();
    alloca_offsets_[alloca] = place(bytes, alloca->getAlign().value());
  }
  // Struct arguments of a kernel arrive by value in the argument buffer; the function
  // sees a pointer to a private copy.
  if (mf_.is_kernel)
    for (llvm::Argument& arg : f_.args())
      if (arg.hasByValAttr())
        byval_offsets_[&arg] =
            place(dl_.getTypeAllocSize(arg.getParamByValType()), private_alignment(arg));
  mf_.private_align = layout_.private_align;
  mf_.warp_stack_bytes = layout_.warp_stack_bytes;
  mf_.private_frame = static_cast<uint32_t>(llvm::alignTo(frame, mf_.private_align));

  // Entry: incoming arguments.
  cur_ = &mf_.blocks[0];
  if (mf_.is_kernel) {
    kernel_args_ = new_s();
    emit(Pseudo::Mv, {Operand::reg_of(kernel_args_), Operand::reg_of(kA0)});
    guard_extra_lanes();
    std::vector<rt::KernelArgInfo> layout = kernel_arguments(f_);
    for (llvm::Argument& arg : f_.args()) {
      if (arg.use_empty()) continue;
      const rt::KernelArgInfo& info = layout[arg.getArgNo()];
      if (arg.hasByValAttr()) {
        uint32_t r = result_regs(&arg)[0];
        int64_t at = static_cast<int64_t>(byval_offsets_.at(&arg)) - mf_.private_frame;
        int_op(kAdd, r, {false, 0, kTp, RegClass::Scalar}, {true, at, kNoReg, RegClass::Scalar});
        uint32_t base = new_v(), word = new_s(), value = new_v();
        emit(isa::Op::VMV_V_X, {Operand::reg_of(base), Operand::reg_of(r)});
        for (uint32_t w = 0; w < info.size; w += 4) {
          load_argument(isa::Op::LW, word, info.offset + w);
          emit(isa::Op::VMV_V_X, {Operand::reg_of(value), Operand::reg_of(word)});
          emit(isa::Op::VSW_V,
               {Operand::reg_of(value), Operand::immediate(w), Operand::reg_of(base)});
        }
        continue;
      }
      const std::vector<uint32_t>& regs = result_regs(&arg);
      llvm::Type* elem = element_type(arg.getType());
      uint32_t elem_size = static_cast<uint32_t>(dl_.getTypeStoreSize(elem));
      for (size_t k = 0; k < regs.size(); ++k) {
        const isa::Op load = elem_size == 1   ? isa::Op::LBU
                             : elem_size == 2 ? isa::Op::LHU
                                              : isa::Op::LW;
        load_argument(load, regs[k], info.offset + k * elem_size);
      }
      if (info.address_space == rt::AddressSpace::local) {
        uint32_t lds = new_s();
        emit(Pseudo::Csrr, {Operand::reg_of(lds), Operand::csr(abi::csr::LDS)});
        emit(isa::Op::ADD,
             {Operand::reg_of(regs[0]), Operand::reg_of(regs[0]), Operand::reg_of(lds)});
      }
    }
  } else {
    unsigned next = 0;
    for (llvm::Argument& arg : f_.args()) {
      if (arg.hasByValAttr() || arg.hasStructRetAttr()) {
        // A pointer into the caller's private frame: the same for every thread.
      }
      const std::vector<uint32_t>& regs = result_regs(&arg);
      for (uint32_t r : regs) {
        if (next >= kArgumentRegisters)
          unsupported(&arg,
                      fmt::format("more than {} argument registers in a call", kArgumentRegisters));
        emit(isa::Op::VMV_V_V, {Operand::reg_of(r), Operand::reg_of(vreg_phys(next++))});
      }
    }
  }
  entry_insert_point_ = cur_->insts.size();

  // Blocks in dominator-tree order so every operand is defined before use (phis aside).
  for (llvm::BasicBlock& bb : f_) select_block(bb);
  return std::move(mf_);
}

void Selector::select_block(llvm::BasicBlock& bb) {
  cur_ = &mf_.blocks[block_index_[&bb]];
  for (llvm::Instruction& i : bb) {
    if (i.isTerminator()) {
      // Phi copies into successors go before the branch.
      for (llvm::BasicBlock* succ : llvm::successors(&bb)) select_phi_copies(bb, *succ);
      select_terminator(i);
    } else {
      select(i);
    }
  }
}

void Selector::select(llvm::Instruction& i) {
  if (llvm::isa<llvm::PHINode>(i)) {
    result_regs(&i);
    return;
  }
  if (folded_.contains(&i)) return;
  if (auto* bin = llvm::dyn_cast<llvm::BinaryOperator>(&i)) return select_binary(*bin);
  if (auto* cmp = llvm::dyn_cast<llvm::ICmpInst>(&i)) {
    // A compare used only by the branch of its block becomes a compare-and-branch (of the
    // extended operands, for bytes and halfwords).
    if (cmp->hasOneUse()) {
      auto* br = llvm::dyn_cast<llvm::BranchInst>(*cmp->user_begin());
      const unsigned bits = int_bits(cmp->getOperand(0)->getType());
      if (br && br->getParent() == cmp->getParent() && (bits == 8 || bits == 16 || bits == 32) &&
          !cmp->getOperand(0)->getType()->isVectorTy()) {
        folded_.insert(cmp);
        return;
      }
    }
    return select_icmp(*cmp);
  }
  if (auto* cmp = llvm::dyn_cast<llvm::FCmpInst>(&i)) return select_fcmp(*cmp);
  if (auto* cast = llvm::dyn_cast<llvm::CastInst>(&i)) {
    return select_cast(*cast);
  }
  if (auto* sel = llvm::dyn_cast<llvm::SelectInst>(&i)) return select_select(*sel);
  if (auto* load = llvm::dyn_cast<llvm::LoadInst>(&i)) return select_load(*load);
  if (auto* store = llvm::dyn_cast<llvm::StoreInst>(&i)) return select_store(*store);
  if (auto* gep = llvm::dyn_cast<llvm::GetElementPtrInst>(&i)) return select_gep(*gep);
  if (auto* call = llvm::dyn_cast<llvm::CallInst>(&i)) return select_call(*call);
  if (llvm::isa<llvm::AtomicRMWInst>(i) || llvm::isa<llvm::AtomicCmpXchgInst>(i)) return select_atomic(i);
  if (llvm::isa<llvm::AllocaInst>(i)) {
    uint32_t r = result_regs(&i)[0];
    int64_t offset = static_cast<int64_t>(alloca_offsets_.at(llvm::cast<llvm::AllocaInst>(&i))) - mf_.private_frame;
    int_op(kAdd, r, {false, 0, kTp, RegClass::Scalar}, {true, offset, kNoReg, RegClass::Scalar});
    return;
  }
  if (auto* fneg = llvm::dyn_cast<llvm::UnaryOperator>(&i); fneg && fneg->getOpcode() == llvm::Instruction::FNeg) {
    if (folded_into_fma(fneg)) return;
    const std::vector<uint32_t>& d = result_regs(&i);
    for (size_t k = 0; k < d.size(); ++k) {
      Src a = src(i.getOperand(0), k);
      if (mf_.class_of(d[k]) == RegClass::Scalar) {
        uint32_t r = scalar_reg(a);
        emit(isa::Op::FSGNJN_S, {Operand::reg_of(d[k]), Operand::reg_of(r), Operand::reg_of(r)});
      } else {
        uint32_t r = vector_reg(a);
        emit(isa::Op::VFSGNJN_VV, {Operand::reg_of(d[k]), Operand::reg_of(r), Operand::reg_of(r)});
      }
    }
    return;
  }
  if (llvm::isa<llvm::FreezeInst>(i)) {
    if (!llvm::isa<llvm::Constant>(i.getOperand(0)) && regs_.count(i.getOperand(0))) {
      regs_[&i] = regs_[i.getOperand(0)];  // same registers: freeze only stops poison
      return;
    }
    const std::vector<uint32_t>& d = result_regs(&i);
    for (size_t k = 0; k < d.size(); ++k) move(d[k], src(i.getOperand(0), k));
    return;
  }
  if (auto* ext = llvm::dyn_cast<llvm::ExtractElementInst>(&i)) {
    auto* idx = llvm::dyn_cast<llvm::ConstantInt>(ext->getIndexOperand());
    if (!idx) unsupported(&i, "a vector element selected by a variable index");
    const std::vector<uint32_t>& d = result_regs(&i);
    for (size_t k = 0; k < d.size(); ++k)
      move(d[k], src(ext->getVectorOperand(), static_cast<unsigned>(idx->getZExtValue() * d.size() + k)));
    return;
  }
  if (auto* ins = llvm::dyn_cast<llvm::InsertElementInst>(&i)) {
    auto* idx = llvm::dyn_cast<llvm::ConstantInt>(ins->getOperand(2));
    if (!idx) unsupported(&i, "a vector element selected by a variable index");
    const std::vector<uint32_t>& d = result_regs(&i);
    unsigned p = parts(i.getType());
    for (size_t k = 0; k < d.size(); ++k)
      move(d[k], k / p == idx->getZExtValue() ? src(ins->getOperand(1), k % p) : src(ins->getOperand(0), k));
    return;
  }
  if (auto* shuf = llvm::dyn_cast<llvm::ShuffleVectorInst>(&i)) {
    const std::vector<uint32_t>& d = result_regs(&i);
    unsigned p = parts(i.getType());
    unsigned n = elements(shuf->getOperand(0)->getType()) / p;
    for (size_t k = 0; k < d.size(); ++k) {
      int m = shuf->getMaskValue(k / p);
      if (m < 0) continue;
      unsigned part = k % p;
      move(d[k], m < static_cast<int>(n) ? src(shuf->getOperand(0), m * p + part)
                                          : src(shuf->getOperand(1), (m - n) * p + part));
    }
    return;
  }
  if (auto* ev = llvm::dyn_cast<llvm::ExtractValueInst>(&i)) {
    if (auto* call = llvm::dyn_cast<llvm::CallInst>(ev->getAggregateOperand());
        call && call->isInlineAsm() && ev->getNumIndices() == 1) {
      auto outputs = asm_outputs_.find(call);
      if (outputs == asm_outputs_.end())
        unsupported(&i, "an inline assembly result used before its definition");
      regs_[&i] = {outputs->second.at(ev->getIndices()[0])};
      return;
    }
    auto* cx = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(ev->getAggregateOperand());
    if (!cx || ev->getNumIndices() != 1) unsupported(&i, "aggregate values in registers");
    auto parts = cmpxchg_parts_.find(cx);
    if (parts == cmpxchg_parts_.end()) unsupported(&i, "a cmpxchg result used before its definition");
    regs_[&i] = {ev->getIndices()[0] == 0 ? parts->second.first : parts->second.second};
    return;
  }
  if (llvm::isa<llvm::FenceInst>(i)) {
    emit(Pseudo::Fence, {});
    return;
  }
  unsupported(&i, fmt::format("the '{}' instruction", i.getOpcodeName()));
}

// half + - * min max on the device's fp16 instructions (docs/isa.md, "The 64-bit compute
// instruction"): v64fadd.f16 vd, vs2, vs1 computes the low halves (opsel 0) of vs2 and vs1
// in binary16, rounded by frm, and writes the low half of vd, keeping the other half (vd
// is read: it first holds the first operand, which is also vs2). A uniform value is
// computed in a vector register and read back with vmv.x.s (every active lane computed
// the same).
void Selector::half_op(isa::Op op, uint32_t dst, Src a, Src b) {
  const bool scalar = mf_.class_of(dst) == RegClass::Scalar;
  const uint32_t out = scalar ? new_v() : dst;
  move(out, a);
  emit(op, {Operand::reg_of(out), Operand::reg_of(out), Operand::reg_of(vector_reg(b)),
            Operand::immediate(0), Operand::immediate(0), Operand::immediate(0)});
  if (scalar) emit(isa::Op::VMV_X_S, {Operand::reg_of(dst), Operand::reg_of(out)});
}

void Selector::select_binary(llvm::BinaryOperator& inst) {
  if (is_f64(inst.getType())) return select_fp64_binary(inst);
  if (is_f16(inst.getType())) {
    using BO = llvm::Instruction::BinaryOps;
    const BO opcode = inst.getOpcode();
    if (opcode != BO::FAdd && opcode != BO::FSub && opcode != BO::FMul)
      unsupported(&inst, fmt::format("the '{}' operation on half", inst.getOpcodeName()));
    const isa::Op op = opcode == BO::FAdd   ? isa::Op::V64FADD_F16
                       : opcode == BO::FSub ? isa::Op::V64FSUB_F16
                                            : isa::Op::V64FMUL_F16;
    const std::vector<uint32_t>& d = result_regs(&inst);
    for (size_t k = 0; k < d.size(); ++k)
      half_op(op, d[k], src(inst.getOperand(0), k), src(inst.getOperand(1), k));
    return;
  }
  if (is_i64(inst.getType())) {
    using BO = llvm::Instruction::BinaryOps;
    BO opc = inst.getOpcode();
    if (opc != BO::And && opc != BO::Or && opc != BO::Xor) return select_binary64(inst);
  }
  const std::vector<uint32_t>& d = result_regs(&inst);
  unsigned bits = int_bits(element_type(inst.getType()));
  for (size_t k = 0; k < d.size(); ++k) {
    Src a = src(inst.getOperand(0), k), b = src(inst.getOperand(1), k);
    using BO = llvm::Instruction::BinaryOps;
    switch (inst.getOpcode()) {
      case BO::Add: int_op(kAdd, d[k], a, b); break;
      case BO::Sub:
        if (b.is_imm && immediate_fits(isa::Op::ADDI, -b.imm) &&
            mf_.class_of(d[k]) == RegClass::Scalar)
          int_op(kAdd, d[k], a, {true, -b.imm, kNoReg, RegClass::Scalar});
        else
          int_op(kSub, d[k], a, b);
        break;
      case BO::Mul: int_op(kMul, d[k], a, b); break;
      case BO::And: int_op(kAnd, d[k], a, b); break;
      case BO::Or: int_op(kOr, d[k], a, b); break;
      case BO::Xor: int_op(kXor, d[k], a, b); break;
      case BO::Shl: int_op(kSll, d[k], a, b); break;
      case BO::LShr:
        int_op(kSrl, d[k], extend(a, bits, false, inst.getOperand(0)), b);
        break;
      case BO::AShr:
        int_op(kSra, d[k], extend(a, bits, true), b);
        break;
      case BO::UDiv:
        int_op({isa::Op::DIVU, kNone, isa::Op::VDIVU_VV, isa::Op::VDIVU_VX, kNone, false}, d[k],
               extend(a, bits, false, inst.getOperand(0)),
               extend(b, bits, false, inst.getOperand(1)));
        break;
      case BO::SDiv:
        int_op({isa::Op::DIV, kNone, isa::Op::VDIV_VV, isa::Op::VDIV_VX, kNone, false}, d[k],
               extend(a, bits, true), extend(b, bits, true));
        break;
      case BO::URem:
        int_op({isa::Op::REMU, kNone, isa::Op::VREMU_VV, isa::Op::VREMU_VX, kNone, false}, d[k],
               extend(a, bits, false, inst.getOperand(0)),
               extend(b, bits, false, inst.getOperand(1)));
        break;
      case BO::SRem:
        int_op({isa::Op::REM, kNone, isa::Op::VREM_VV, isa::Op::VREM_VX, kNone, false}, d[k],
               extend(a, bits, true), extend(b, bits, true));
        break;
      case BO::FAdd:
        fp_op({isa::Op::FADD_S, isa::Op::VFADD_VV, isa::Op::VFADD_VF, true}, d[k], a, b);
        break;
      case BO::FSub:
        fp_op({isa::Op::FSUB_S, isa::Op::VFSUB_VV, isa::Op::VFSUB_VF, false, isa::Op::VFRSUB_VF},
              d[k], a, b);
        break;
      case BO::FMul:
        fp_op({isa::Op::FMUL_S, isa::Op::VFMUL_VV, isa::Op::VFMUL_VF, true}, d[k], a, b);
        break;
      case BO::FDiv:
        fp_op({isa::Op::FDIV_S, isa::Op::VFDIV_VV, isa::Op::VFDIV_VF, false, isa::Op::VFRDIV_VF},
              d[k], a, b);
        break;
      default: unsupported(&inst, fmt::format("the '{}' operation", inst.getOpcodeName()));
    }
    if (bits == 1 && (inst.getOpcode() == llvm::Instruction::Add || inst.getOpcode() == llvm::Instruction::Sub ||
                      inst.getOpcode() == llvm::Instruction::Mul || inst.getOpcode() == llvm::Instruction::Shl))
      int_op(kAnd, d[k], {false, 0, d[k], mf_.class_of(d[k])},
             {true, 1, kNoReg, RegClass::Scalar});
  }
}

void Selector::icmp_element(llvm::CmpInst::Predicate pred, uint32_t dst, Src a, Src b) {
  using P = llvm::CmpInst::Predicate;
  bool scalar = mf_.class_of(dst) == RegClass::Scalar;
  if (scalar) {
    // x < y: slt/sltu, or slti/sltiu with an immediate that fits.
    auto less = [&](bool is_signed, Src x, Src y) {
      const isa::Op with_imm = is_signed ? isa::Op::SLTI : isa::Op::SLTIU;
      if (y.is_imm && immediate_fits(with_imm, y.imm)) {
        emit(with_imm,
             {Operand::reg_of(dst), Operand::reg_of(scalar_reg(x)), Operand::immediate(y.imm)});
        return;
      }
      emit(is_signed ? isa::Op::SLT : isa::Op::SLTU,
           {Operand::reg_of(dst), Operand::reg_of(scalar_reg(x)), Operand::reg_of(scalar_reg(y))});
    };
    switch (pred) {
      case P::ICMP_EQ:
      case P::ICMP_NE: {
        uint32_t x = scalar_reg(a);
        if (!(b.is_imm && b.imm == 0)) {
          uint32_t t = new_s();
          int_op(kXor, t, {false, 0, x, RegClass::Scalar}, b);
          x = t;
        }
        emit(pred == P::ICMP_EQ ? Pseudo::Seqz : Pseudo::Snez,
             {Operand::reg_of(dst), Operand::reg_of(x)});
        return;
      }
      case P::ICMP_SLT: return less(true, a, b);
      case P::ICMP_ULT: return less(false, a, b);
      case P::ICMP_SGT: return less(true, b, a);
      case P::ICMP_UGT: return less(false, b, a);
      case P::ICMP_SLE: less(true, b, a); return not_bit(dst, dst);
      case P::ICMP_ULE: less(false, b, a); return not_bit(dst, dst);
      case P::ICMP_SGE: less(true, a, b); return not_bit(dst, dst);
      case P::ICMP_UGE: less(false, a, b); return not_bit(dst, dst);
      default: break;
    }
    throw Error("internal: icmp predicate");
  }
  // Vector compares write 0/1 per lane. Forms: .vv for all, .vx/.vi for some.
  bool b_vec = !b.is_imm && b.cls == RegClass::Vector;
  bool a_vec = !a.is_imm && a.cls == RegClass::Vector;
  if (!a_vec && b_vec) return icmp_element(llvm::CmpInst::getSwappedPredicate(pred), dst, b, a);
  uint32_t va = vector_reg(a);
  auto vv = [&](isa::Op op, uint32_t x, uint32_t y) {
    emit(op, {Operand::reg_of(dst), Operand::reg_of(x), Operand::reg_of(y)});
  };
  if (b_vec) {
    switch (pred) {
      case P::ICMP_EQ: return vv(isa::Op::VMSEQ_VV, va, b.reg);
      case P::ICMP_NE: return vv(isa::Op::VMSNE_VV, va, b.reg);
      case P::ICMP_SLT: return vv(isa::Op::VMSLT_VV, va, b.reg);
      case P::ICMP_ULT: return vv(isa::Op::VMSLTU_VV, va, b.reg);
      case P::ICMP_SLE: return vv(isa::Op::VMSLE_VV, va, b.reg);
      case P::ICMP_ULE: return vv(isa::Op::VMSLEU_VV, va, b.reg);
      case P::ICMP_SGT: return vv(isa::Op::VMSLT_VV, b.reg, va);
      case P::ICMP_UGT: return vv(isa::Op::VMSLTU_VV, b.reg, va);
      case P::ICMP_SGE: return vv(isa::Op::VMSLE_VV, b.reg, va);
      case P::ICMP_UGE: return vv(isa::Op::VMSLEU_VV, b.reg, va);
      default: break;
    }
  }
  // a (vector) OP b (uniform): the .vi form where the compare has one (vmslt has none).
  auto vx = [&](isa::Op vx_op, isa::Op vi_op, Src y) {
    if (y.is_imm && vi_op != kNone && immediate_fits(vi_op, y.imm))
      emit(vi_op, {Operand::reg_of(dst), Operand::reg_of(va), Operand::immediate(y.imm)});
    else
      emit(vx_op, {Operand::reg_of(dst), Operand::reg_of(va), Operand::reg_of(scalar_reg(y))});
  };
  switch (pred) {
    case P::ICMP_EQ: return vx(isa::Op::VMSEQ_VX, isa::Op::VMSEQ_VI, b);
    case P::ICMP_NE: return vx(isa::Op::VMSNE_VX, isa::Op::VMSNE_VI, b);
    case P::ICMP_SLT: return vx(isa::Op::VMSLT_VX, kNone, b);
    case P::ICMP_ULT: return vx(isa::Op::VMSLTU_VX, kNone, b);
    case P::ICMP_SLE: return vx(isa::Op::VMSLE_VX, isa::Op::VMSLE_VI, b);
    case P::ICMP_ULE: return vx(isa::Op::VMSLEU_VX, isa::Op::VMSLEU_VI, b);
    case P::ICMP_SGT: return vx(isa::Op::VMSGT_VX, isa::Op::VMSGT_VI, b);
    case P::ICMP_UGT: return vx(isa::Op::VMSGTU_VX, isa::Op::VMSGTU_VI, b);
    case P::ICMP_SGE: vx(isa::Op::VMSLT_VX, kNone, b); return not_bit(dst, dst);
    case P::ICMP_UGE: vx(isa::Op::VMSLTU_VX, kNone, b); return not_bit(dst, dst);
    default: break;
  }
  throw Error("internal: icmp predicate");
}

void Selector::select_icmp(llvm::ICmpInst& inst) {
  if (is_i64(inst.getOperand(0)->getType())) {
    const std::vector<uint32_t>& d = result_regs(&inst);
    for (size_t k = 0; k < d.size(); ++k)
      icmp64(inst.getPredicate(), d[k], src(inst.getOperand(0), 2 * k), src(inst.getOperand(0), 2 * k + 1),
             src(inst.getOperand(1), 2 * k), src(inst.getOperand(1), 2 * k + 1));
    return;
  }
  const std::vector<uint32_t>& d = result_regs(&inst);
  unsigned bits = int_bits(element_type(inst.getOperand(0)->getType()));
  bool is_signed = inst.isSigned();
  for (size_t k = 0; k < d.size(); ++k)
    icmp_element(inst.getPredicate(), d[k],
                 extend(src(inst.getOperand(0), k), bits, is_signed, inst.getOperand(0)),
                 extend(src(inst.getOperand(1), k), bits, is_signed, inst.getOperand(1)));
}

void Selector::fcmp_element(llvm::CmpInst::Predicate pred, uint32_t dst, Src a, Src b) {
  using P = llvm::CmpInst::Predicate;
  if (pred == P::FCMP_FALSE || pred == P::FCMP_TRUE) {
    move(dst, {true, pred == P::FCMP_TRUE ? 1 : 0, kNoReg, RegClass::Scalar});
    return;
  }
  // Ordered forms from feq/flt/fle; unordered = not(ordered opposite).
  bool negate = false;
  switch (pred) {
    case P::FCMP_UNE: pred = P::FCMP_OEQ; negate = true; break;
    case P::FCMP_UGE: pred = P::FCMP_OLT; negate = true; break;
    case P::FCMP_UGT: pred = P::FCMP_OLE; negate = true; break;
    case P::FCMP_ULE: pred = P::FCMP_OGT; negate = true; break;
    case P::FCMP_ULT: pred = P::FCMP_OGE; negate = true; break;
    case P::FCMP_UEQ: pred = P::FCMP_ONE; negate = true; break;
    case P::FCMP_UNO: pred = P::FCMP_ORD; negate = true; break;
    default: break;
  }
  // A uniform first operand of a vector compare takes the reversed .vf form.
  const FpOp eq{isa::Op::FEQ_S, isa::Op::VMFEQ_VV, isa::Op::VMFEQ_VF, true};
  const FpOp lt{isa::Op::FLT_S, isa::Op::VMFLT_VV, isa::Op::VMFLT_VF, false, isa::Op::VMFGT_VF};
  const FpOp le{isa::Op::FLE_S, isa::Op::VMFLE_VV, isa::Op::VMFLE_VF, false, isa::Op::VMFGE_VF};
  const RegClass cls = mf_.class_of(dst);
  switch (pred) {
    case P::FCMP_OEQ: fp_op(eq, dst, a, b); break;
    case P::FCMP_OLT: fp_op(lt, dst, a, b); break;
    case P::FCMP_OLE: fp_op(le, dst, a, b); break;
    case P::FCMP_OGT: fp_op(lt, dst, b, a); break;
    case P::FCMP_OGE: fp_op(le, dst, b, a); break;
    case P::FCMP_ONE: {
      uint32_t t = mf_.new_vreg(cls);
      fp_op(lt, t, a, b);
      fp_op(lt, dst, b, a);
      int_op(kOr, dst, {false, 0, dst, cls}, {false, 0, t, cls});
      break;
    }
    case P::FCMP_ORD: {
      uint32_t t = mf_.new_vreg(cls);
      fp_op(eq, t, a, a);
      fp_op(eq, dst, b, b);
      int_op(kAnd, dst, {false, 0, dst, cls}, {false, 0, t, cls});
      break;
    }
    default: throw Error("internal: fcmp predicate");
  }
  if (negate) not_bit(dst, dst);
}

void Selector::select_fcmp(llvm::FCmpInst& inst) {
  const std::vector<uint32_t>& d = result_regs(&inst);
  for (size_t k = 0; k < d.size(); ++k)
    fcmp_element(inst.getPredicate(), d[k], src(inst.getOperand(0), k), src(inst.getOperand(1), k));
}

void Selector::select_cast(llvm::CastInst& inst) {
  llvm::Type* from = element_type(inst.getSrcTy());
  llvm::Type* to = element_type(inst.getDestTy());
  using CO = llvm::Instruction::CastOps;
  if ((is_i64(inst.getSrcTy()) || is_i64(inst.getDestTy())) && inst.getOpcode() != CO::BitCast)
    return select_cast64(inst);
  switch (inst.getOpcode()) {
    case CO::BitCast:
      if (elements(inst.getSrcTy()) != elements(inst.getDestTy())) return repack(inst);
      [[fallthrough]];
    case CO::PtrToInt:
    case CO::IntToPtr:
    case CO::AddrSpaceCast: {
      const std::vector<uint32_t>& d = result_regs(&inst);
      for (size_t k = 0; k < d.size(); ++k) move(d[k], src(inst.getOperand(0), k));
      return;
    }
    default: break;
  }
  const std::vector<uint32_t>& d = result_regs(&inst);
  for (size_t k = 0; k < d.size(); ++k) {
    Src a = src(inst.getOperand(0), k);
    bool scalar = mf_.class_of(d[k]) == RegClass::Scalar;
    auto unary = [&](isa::Op sop, isa::Op vop, Src x) {
      if (scalar)
        emit(sop, {Operand::reg_of(d[k]), Operand::reg_of(scalar_reg(x))});
      else
        emit(vop, {Operand::reg_of(d[k]), Operand::reg_of(vector_reg(x))});
    };
    switch (inst.getOpcode()) {
      case CO::Trunc:
        if (to->isIntegerTy(1))
          int_op(kAnd, d[k], a, {true, 1, kNoReg, RegClass::Scalar});
        else
          move(d[k], a);
        break;
      case CO::ZExt: move(d[k], extend(a, int_bits(from), false, inst.getOperand(0))); break;
      case CO::SExt:
        if (from->isIntegerTy(1))
          int_op(kSub, d[k], {true, 0, kNoReg, RegClass::Scalar}, a);
        else
          move(d[k], extend(a, int_bits(from), true));
        break;
      case CO::FPToSI:
        if (scalar)
          emit(isa::Op::FCVT_W_S, {Operand::reg_of(d[k]), Operand::reg_of(scalar_reg(a)),
                                   Operand::immediate(kRoundTowardZero)});
        else
          unary(kNone, isa::Op::VFCVT_RTZ_X_F_V, a);
        break;
      case CO::FPToUI:
        if (scalar)
          emit(isa::Op::FCVT_WU_S, {Operand::reg_of(d[k]), Operand::reg_of(scalar_reg(a)),
                                    Operand::immediate(kRoundTowardZero)});
        else
          unary(kNone, isa::Op::VFCVT_RTZ_XU_F_V, a);
        break;
      case CO::SIToFP:
        unary(isa::Op::FCVT_S_W, isa::Op::VFCVT_F_X_V, extend(a, int_bits(from), true));
        break;
      case CO::UIToFP:
        unary(isa::Op::FCVT_S_WU, isa::Op::VFCVT_F_XU_V, extend(a, int_bits(from), false));
        break;
      default: unsupported(&inst, fmt::format("the '{}' conversion", inst.getOpcodeName()));
    }
  }
}

// A bit cast between element sizes (as_short2(float), as_uint(uchar4)): the source
// elements are packed into 32-bit words, the words split into the result's elements.
void Selector::repack(llvm::CastInst& inst) {
  unsigned from_bits = static_cast<unsigned>(dl_.getTypeSizeInBits(element_type(inst.getSrcTy())));
  unsigned to_bits = static_cast<unsigned>(dl_.getTypeSizeInBits(element_type(inst.getDestTy())));
  unsigned total = static_cast<unsigned>(dl_.getTypeSizeInBits(inst.getSrcTy()));
  if (total % 32 != 0 && total > 32) unsupported(&inst, "a bit cast of this size");
  const std::vector<uint32_t>& d = result_regs(&inst);
  RegClass cls = mf_.class_of(d[0]);
  auto imm = [](int64_t v) { return Src{true, v, kNoReg, RegClass::Scalar}; };
  std::vector<Src> words;
  unsigned per_word = from_bits >= 32 ? 1 : 32 / from_bits;
  unsigned n_from = elements(inst.getSrcTy());
  for (unsigned w = 0; w * per_word < n_from; ++w) {
    if (from_bits >= 32) {
      words.push_back(src(inst.getOperand(0), w));
      continue;
    }
    Src word = imm(0);
    for (unsigned k = 0; k < per_word && w * per_word + k < n_from; ++k) {
      Src part = op2(kAnd, cls, src(inst.getOperand(0), w * per_word + k), imm((int64_t{1} << from_bits) - 1));
      if (k) part = op2(kSll, cls, part, imm(k * from_bits));
      word = k ? op2(kOr, cls, word, part) : part;
    }
    words.push_back(word);
  }
  unsigned per_dest_word = to_bits >= 32 ? 1 : 32 / to_bits;
  for (size_t k = 0; k < d.size(); ++k) {
    Src word = words.at(k / per_dest_word);
    unsigned shift = static_cast<unsigned>(k % per_dest_word) * to_bits;
    move(d[k], shift ? op2(kSrl, cls, word, imm(shift)) : word);  // high bits: any-extended
  }
}

void Selector::select_select(llvm::SelectInst& inst) {
  const std::vector<uint32_t>& d = result_regs(&inst);
  bool vector_condition = inst.getCondition()->getType()->isVectorTy();
  for (size_t k = 0; k < d.size(); ++k) {
    Src c = src(inst.getCondition(), vector_condition ? static_cast<unsigned>(k / parts(inst.getType())) : 0);
    Src t = src(inst.getTrueValue(), k), e = src(inst.getFalseValue(), k);
    if (c.is_imm) {
      move(d[k], c.imm ? t : e);
      continue;
    }
    if (inst.getType()->getScalarType()->isIntegerTy(1) && (e.is_imm && e.imm == 0)) {  // c && t
      int_op(kAnd, d[k], c, t);
      continue;
    }
    if (inst.getType()->getScalarType()->isIntegerTy(1) && (t.is_imm && t.imm == 1)) {  // c || e
      int_op(kOr, d[k], c, e);
      continue;
    }
    if (mf_.class_of(d[k]) == RegClass::Scalar) {
      // d = e ^ ((t ^ e) & -c)
      uint32_t mask = new_s(), diff = new_s();
      emit(Pseudo::Neg, {Operand::reg_of(mask), Operand::reg_of(c.reg)});
      int_op(kXor, diff, t, e);
      emit(isa::Op::AND, {Operand::reg_of(diff), Operand::reg_of(diff), Operand::reg_of(mask)});
      int_op(kXor, d[k], {false, 0, diff, RegClass::Scalar}, e);
      continue;
    }
    uint32_t v0 = vreg_phys(0);
    bool t_vec = !t.is_imm && t.cls == RegClass::Vector;
    bool e_vec = !e.is_imm && e.cls == RegClass::Vector;
    bool invert = !e_vec && t_vec;  // vmerge takes the uniform operand as the "true" side
    if (c.cls == RegClass::Vector) {
      if (invert)
        emit(isa::Op::VXOR_VI,
             {Operand::reg_of(v0), Operand::reg_of(c.reg), Operand::immediate(1)});
      else
        emit(isa::Op::VMV_V_V, {Operand::reg_of(v0), Operand::reg_of(c.reg)});
    } else {
      uint32_t cond = c.reg;
      if (invert) {
        cond = new_s();
        emit(isa::Op::XORI, {Operand::reg_of(cond), Operand::reg_of(c.reg), Operand::immediate(1)});
      }
      emit(isa::Op::VMV_V_X, {Operand::reg_of(v0), Operand::reg_of(cond)});
    }
    if (invert) std::swap(t, e);
    uint32_t false_reg = vector_reg(e);
    t_vec = !t.is_imm && t.cls == RegClass::Vector;
    if (t_vec)
      emit(isa::Op::VMERGE_VVM, {Operand::reg_of(d[k]), Operand::reg_of(false_reg),
                                 Operand::reg_of(t.reg), Operand::reg_of(v0)});
    else if (t.is_imm && immediate_fits(isa::Op::VMERGE_VIM, t.imm))
      emit(isa::Op::VMERGE_VIM, {Operand::reg_of(d[k]), Operand::reg_of(false_reg),
                                 Operand::immediate(t.imm), Operand::reg_of(v0)});
    else
      emit(isa::Op::VMERGE_VXM, {Operand::reg_of(d[k]), Operand::reg_of(false_reg),
                                 Operand::reg_of(scalar_reg(t)), Operand::reg_of(v0)});
  }
}

}  // namespace selection

using selection::Selector;

std::vector<rt::KernelArgInfo> kernel_arguments(const llvm::Function& kernel) {
  const llvm::DataLayout& dl = kernel.getParent()->getDataLayout();
  std::vector<rt::KernelArgInfo> out;
  uint32_t offset = 0;
  auto md_string = [&](const char* kind, unsigned i) -> std::string {
    if (llvm::MDNode* node = kernel.getMetadata(kind))
      if (i < node->getNumOperands())
        if (auto* s = llvm::dyn_cast<llvm::MDString>(node->getOperand(i))) return s->getString().str();
    return "";
  };
  for (const llvm::Argument& arg : kernel.args()) {
    rt::KernelArgInfo a;
    a.name = md_string("kernel_arg_name", arg.getArgNo());
    if (a.name.empty()) a.name = arg.getName().str();
    a.type = md_string("kernel_arg_type", arg.getArgNo());
    a.qualifiers = md_string("kernel_arg_type_qual", arg.getArgNo());
    llvm::Type* t = arg.getType();
    uint32_t size = 0, align = 4;
    if (arg.hasByValAttr()) {
      a.address_space = rt::AddressSpace::private_;
      size = static_cast<uint32_t>(dl.getTypeAllocSize(arg.getParamByValType()));
      align = std::max<uint32_t>(4, static_cast<uint32_t>(arg.getParamAlign().valueOrOne().value()));
    } else if (t->isPointerTy()) {
      switch (t->getPointerAddressSpace()) {
        case 1: a.address_space = rt::AddressSpace::global; break;
        case 2: a.address_space = rt::AddressSpace::constant; break;
        case 3: a.address_space = rt::AddressSpace::local; break;
        default: a.address_space = rt::AddressSpace::private_; break;
      }
      size = 4;
    } else {
      a.address_space = rt::AddressSpace::private_;
      size = static_cast<uint32_t>(dl.getTypeAllocSize(t));
      align = std::max<uint32_t>(4, static_cast<uint32_t>(dl.getABITypeAlign(t).value()));
    }
    offset = (offset + align - 1) & ~(align - 1);
    a.offset = offset;
    a.size = size;
    offset += std::max<uint32_t>(4, (size + 3) & ~3u);
    out.push_back(std::move(a));
  }
  return out;
}

MFunction select_instructions(llvm::Function& function, const ModuleLayout& layout) {
  return Selector(function, layout).run();
}

}  // namespace ventus::cc::backend
