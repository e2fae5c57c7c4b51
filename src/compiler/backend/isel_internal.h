// Instruction selection's shared parts: the Selector, which turns one LLVM function into
// an MFunction, and the helpers its files share. isel.cpp holds the core (values,
// arithmetic, compares, conversions, the function's entry); isel_int64.cpp 64-bit
// integers on register pairs; isel_memory.cpp loads, stores, addresses and atomics;
// isel_calls.cpp calls, builtins (CSR reads, barriers, printf) and LLVM intrinsics;
// isel_control.cpp branches, returns, phi copies and the extra-lane guard.
#pragma once

#include <fmt/format.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/GetElementPtrTypeIterator.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>
#include <llvm/IR/PatternMatch.h>

#include <bit>
#include <map>
#include <unordered_map>

#include "backend.h"
#include "divergence.h"
#include "isel.h"
#include "ventus/error.h"

namespace ventus::cc::backend::selection {

[[noreturn]] void unsupported(const llvm::Value* where, const std::string& what);

// An error at `where`'s source line that is not about a missing feature of the back end.
[[noreturn]] void error_at(const llvm::Value* where, const std::string& message);

// Whether v fits the immediate operand of row op (its range and alignment, as the table
// says: a 12-bit signed immediate, a shift amount, a 5-bit signed or unsigned vector one).
bool immediate_fits(isa::Op op, int64_t v);

inline unsigned int_bits(llvm::Type* t) {
  if (t->isIntegerTy()) return t->getIntegerBitWidth();
  return 32;
}

// One element of an operand: a register of some class, or an immediate.
struct Src {
  bool is_imm = false;
  int64_t imm = 0;
  uint32_t reg = kNoReg;
  RegClass cls = RegClass::Scalar;
};

inline constexpr isa::Op kNone = isa::Op::Count;  // no such form
inline constexpr int64_t kRoundTowardZero = 1;    // the rm operand of a conversion: rtz

// dst = a OP b for an integer operation that has RV32 and RVV forms (kNone where a form
// does not exist).
struct IntOp {
  isa::Op scalar, scalar_imm;  // add, addi
  isa::Op vv, vx, vi;          // vadd.vv, vadd.vx, vadd.vi
  bool commutative;
};

// The integer operations the expansions below combine.
inline constexpr IntOp kAdd{isa::Op::ADD,     isa::Op::ADDI,    isa::Op::VADD_VV,
                            isa::Op::VADD_VX, isa::Op::VADD_VI, true};
inline constexpr IntOp kSub{isa::Op::SUB, kNone, isa::Op::VSUB_VV, isa::Op::VSUB_VX, kNone, false};
inline constexpr IntOp kAnd{isa::Op::AND,     isa::Op::ANDI,    isa::Op::VAND_VV,
                            isa::Op::VAND_VX, isa::Op::VAND_VI, true};
inline constexpr IntOp kOr{isa::Op::OR,     isa::Op::ORI,    isa::Op::VOR_VV,
                           isa::Op::VOR_VX, isa::Op::VOR_VI, true};
inline constexpr IntOp kXor{isa::Op::XOR,     isa::Op::XORI,    isa::Op::VXOR_VV,
                            isa::Op::VXOR_VX, isa::Op::VXOR_VI, true};
inline constexpr IntOp kSll{isa::Op::SLL,     isa::Op::SLLI,    isa::Op::VSLL_VV,
                            isa::Op::VSLL_VX, isa::Op::VSLL_VI, false};
inline constexpr IntOp kSrl{isa::Op::SRL,     isa::Op::SRLI,    isa::Op::VSRL_VV,
                            isa::Op::VSRL_VX, isa::Op::VSRL_VI, false};
inline constexpr IntOp kSra{isa::Op::SRA,     isa::Op::SRAI,    isa::Op::VSRA_VV,
                            isa::Op::VSRA_VX, isa::Op::VSRA_VI, false};
inline constexpr IntOp kMul{isa::Op::MUL, kNone, isa::Op::VMUL_VV, isa::Op::VMUL_VX, kNone, true};
inline constexpr IntOp kMulhu{isa::Op::MULHU,     kNone, isa::Op::VMULHU_VV,
                              isa::Op::VMULHU_VX, kNone, true};
inline constexpr IntOp kSltu{isa::Op::SLTU,      kNone, isa::Op::VMSLTU_VV,
                             isa::Op::VMSLTU_VX, kNone, false};
inline constexpr IntOp kSlt{isa::Op::SLT,      kNone, isa::Op::VMSLT_VV,
                            isa::Op::VMSLT_VX, kNone, false};

// dst = a OP b for a float operation: Zfinx scalar, RVV .vv/.vf forms, and the reversed
// .vf form (uniform OP vector) where OP does not commute.
struct FpOp {
  isa::Op scalar, vv, vf;
  bool commutative;
  isa::Op reversed_vf = kNone;
};

inline Src imm_src(int64_t v) {
  return {true, v, kNoReg, RegClass::Scalar};
}

class Selector {
 public:
  Selector(llvm::Function& f, const ModuleLayout& layout)
      : f_(f),
        layout_(layout),
        dl_(f.getParent()->getDataLayout()),
        dt_(f),
        pdt_(f),
        loops_(dt_),
        div_(f, f.getCallingConv() == llvm::CallingConv::SPIR_KERNEL, pdt_, loops_) {
    mf_.name = f.getName().str();
    mf_.location = definition_location(f);
    mf_.is_kernel = f.getCallingConv() == llvm::CallingConv::SPIR_KERNEL;
  }

  MFunction run();

 private:
  // ---- values -------------------------------------------------------------------------
  RegClass class_of(const llvm::Value* v) const {
    return div_.divergent(v) ? RegClass::Vector : RegClass::Scalar;
  }
  // Registers per value: one per vector element, two (low word, high word) per 64-bit
  // integer, as the guide's register pairs hold 64-bit data.
  static llvm::Type* scalar_type(llvm::Type* t) {
    if (auto* vt = llvm::dyn_cast<llvm::FixedVectorType>(t)) return vt->getElementType();
    return t;
  }
  static unsigned parts(llvm::Type* t) { return scalar_type(t)->isIntegerTy(64) ? 2 : 1; }
  static bool is_i64(llvm::Type* t) { return scalar_type(t)->isIntegerTy(64); }
  static unsigned elements(llvm::Type* t) {
    unsigned n = 1;
    if (auto* vt = llvm::dyn_cast<llvm::FixedVectorType>(t)) n = vt->getNumElements();
    return n * parts(t);
  }
  // The type of one register's worth of a value (a 64-bit integer's words are i32).
  static llvm::Type* element_type(llvm::Type* t) {
    llvm::Type* e = scalar_type(t);
    return e->isIntegerTy(64) ? llvm::Type::getInt32Ty(t->getContext()) : e;
  }
  void check_type(const llvm::Value* v, llvm::Type* t) {
    llvm::Type* e = scalar_type(t);
    if (e->isIntegerTy() && e->getIntegerBitWidth() > 32 && e->getIntegerBitWidth() != 64)
      unsupported(v, fmt::format("{}-bit integers", e->getIntegerBitWidth()));
    if (e->isDoubleTy()) unsupported(v, "double precision (no cl_khr_fp64 on Ventus)");
    if (e->isHalfTy()) unsupported(v, "half-precision arithmetic (no cl_khr_fp16)");
    if (t->isStructTy() || t->isArrayTy()) unsupported(v, "aggregate values in registers");
  }
  const std::vector<uint32_t>& result_regs(const llvm::Value* v) {
    auto it = regs_.find(v);
    if (it != regs_.end()) return it->second;
    check_type(v, v->getType());
    std::vector<uint32_t> r;
    for (unsigned i = 0; i < elements(v->getType()); ++i) r.push_back(mf_.new_vreg(class_of(v)));
    return regs_[v] = r;
  }
  // Register `part` of a scalar constant (part 1: the high word of a 64-bit integer).
  int64_t constant_bits(const llvm::Constant* c, unsigned part = 0) {
    if (auto* ci = llvm::dyn_cast<llvm::ConstantInt>(c)) {
      if (ci->getBitWidth() == 1) return ci->getZExtValue();
      if (ci->getBitWidth() == 64)
        return static_cast<int32_t>(static_cast<uint32_t>(ci->getZExtValue() >> (32 * part)));
      if (ci->getBitWidth() > 32) unsupported(c, "integers wider than 64 bits");
      return static_cast<int32_t>(ci->getSExtValue());
    }
    if (auto* cf = llvm::dyn_cast<llvm::ConstantFP>(c)) {
      if (!cf->getType()->isFloatTy()) unsupported(c, "non-float fp constants");
      return static_cast<int32_t>(cf->getValueAPF().bitcastToAPInt().getZExtValue());
    }
    if (llvm::isa<llvm::ConstantPointerNull>(c) || llvm::isa<llvm::UndefValue>(c) ||
        llvm::isa<llvm::ConstantAggregateZero>(c))
      return 0;
    unsupported(c, "this constant");
  }

  Src src(const llvm::Value* v, unsigned elem = 0) {
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

  uint32_t global_address(const llvm::GlobalValue* gv) {
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

  // Base of the workgroup's __local data: CSR_LDS + one scalar stack per warp (the start
  // code's stacks come first).
  uint32_t local_base() {
    if (local_base_ != kNoReg) return local_base_;
    uint32_t lds = mf_.new_vreg(RegClass::Scalar), numw = mf_.new_vreg(RegClass::Scalar);
    local_base_ = mf_.new_vreg(RegClass::Scalar);
    MBlock& entry = mf_.blocks[0];
    std::vector<MInst> code = {
        make_inst(Pseudo::Csrr, {Operand::reg_of(lds), Operand::csr(abi::csr::LDS)}),
        make_inst(Pseudo::Csrr, {Operand::reg_of(numw), Operand::csr(abi::csr::NUMW)}),
        make_inst(isa::Op::SLLI, {Operand::reg_of(numw), Operand::reg_of(numw),
                                  Operand::immediate(std::countr_zero(kScalarStackBytes))}),
        make_inst(isa::Op::ADD,
                  {Operand::reg_of(local_base_), Operand::reg_of(lds), Operand::reg_of(numw)})};
    entry.insts.insert(entry.insts.begin() + entry_insert_point_, code.begin(), code.end());
    entry_insert_point_ += code.size();
    return local_base_;
  }

  // ---- emission helpers ---------------------------------------------------------------
  void emit(isa::Op op, std::vector<Operand> ops) {
    cur_->insts.push_back(make_inst(op, std::move(ops)));
  }
  void emit(Pseudo op, std::vector<Operand> ops) {
    cur_->insts.push_back(make_inst(op, std::move(ops)));
  }
  // A load from the kernel's argument buffer; offsets past a 12-bit immediate (a kernel
  // with kilobytes of arguments) go through an address register.
  void load_argument(isa::Op op, uint32_t dst, uint64_t offset) {
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
  uint32_t new_s() { return mf_.new_vreg(RegClass::Scalar); }
  uint32_t new_v() { return mf_.new_vreg(RegClass::Vector); }

  uint32_t scalar_reg(const Src& s) {
    if (!s.is_imm) {
      if (s.cls != RegClass::Scalar) throw Error("internal: vector value where a scalar is needed");
      return s.reg;
    }
    if (s.imm == 0) return kZero;
    uint32_t r = new_s();
    emit(Pseudo::Li, {Operand::reg_of(r), Operand::immediate(s.imm)});
    return r;
  }
  uint32_t vector_reg(const Src& s) {
    if (!s.is_imm && s.cls == RegClass::Vector) return s.reg;
    uint32_t r = new_v();
    if (s.is_imm && immediate_fits(isa::Op::VMV_V_I, s.imm))
      emit(isa::Op::VMV_V_I, {Operand::reg_of(r), Operand::immediate(s.imm)});
    else
      emit(isa::Op::VMV_V_X, {Operand::reg_of(r), Operand::reg_of(scalar_reg(s))});
    return r;
  }
  void move(uint32_t dst, const Src& s) {
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

  // Sign- or zero-extends a sub-word integer so that all 32 bits are meaningful.
  Src extend(Src s, unsigned bits, bool is_signed) {
    if (bits >= 32 || bits == 1) return s;
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
        emit(isa::Op::SLLI,
             {Operand::reg_of(r), Operand::reg_of(s.reg), Operand::immediate(shift)});
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

  void int_op(const IntOp& op, uint32_t dst, Src a, Src b) {
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
      emit(isa::Op::VADD_VI,
           {Operand::reg_of(dst), Operand::reg_of(va), Operand::immediate(-b.imm)});
    } else if (b.is_imm || b.cls == RegClass::Scalar) {
      emit(op.vx, {Operand::reg_of(dst), Operand::reg_of(va), Operand::reg_of(scalar_reg(b))});
    } else {
      emit(op.vv, {Operand::reg_of(dst), Operand::reg_of(va), Operand::reg_of(b.reg)});
    }
  }

  void fp_op(const FpOp& op, uint32_t dst, Src a, Src b) {
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

  void not_bit(uint32_t dst, uint32_t src_reg) {
    if (mf_.class_of(dst) == RegClass::Scalar)
      emit(isa::Op::XORI, {Operand::reg_of(dst), Operand::reg_of(src_reg), Operand::immediate(1)});
    else
      emit(isa::Op::VXOR_VI,
           {Operand::reg_of(dst), Operand::reg_of(src_reg), Operand::immediate(1)});
  }

  // ---- instructions -------------------------------------------------------------------
  void select_block(llvm::BasicBlock& bb);
  void select(llvm::Instruction& inst);
  void select_binary(llvm::BinaryOperator& inst);
  void select_icmp(llvm::ICmpInst& inst);
  void icmp_element(llvm::CmpInst::Predicate pred, uint32_t dst, Src a, Src b);
  void select_fcmp(llvm::FCmpInst& inst);
  void fcmp_element(llvm::CmpInst::Predicate pred, uint32_t dst, Src a, Src b);
  void select_cast(llvm::CastInst& inst);
  void select_binary64(llvm::BinaryOperator& inst);
  void select_cast64(llvm::CastInst& inst);
  void repack(llvm::CastInst& inst);
  void icmp64(llvm::CmpInst::Predicate pred, uint32_t dst, Src alo, Src ahi, Src blo, Src bhi);
  Src op2(const IntOp& o, RegClass cls, Src a, Src b);
  void select_select(llvm::SelectInst& inst);
  void select_load(llvm::LoadInst& inst);
  void select_store(llvm::StoreInst& inst);
  void select_gep(llvm::GetElementPtrInst& inst);
  void select_call(llvm::CallInst& inst);
  void select_intrinsic(llvm::IntrinsicInst& inst);
  void select_atomic(llvm::Instruction& inst);
  void select_phi_copies(llvm::BasicBlock& from, llvm::BasicBlock& to);
  void select_terminator(llvm::Instruction& inst);
  void select_ret(llvm::ReturnInst& inst);
  void select_cond_branch(llvm::BranchInst& inst);
  void fma_element(uint32_t dst, Src a, Src b, Src c, bool negate_product, bool negate_addend);
  void bit_count(llvm::Intrinsic::ID id, uint32_t dst, Src x);
  void reverse(llvm::Intrinsic::ID id, unsigned bits, uint32_t dst, Src x);
  void saturating(llvm::Intrinsic::ID id, unsigned bits, uint32_t dst, Src a, Src b);
  void minmax(llvm::Intrinsic::ID id, uint32_t dst, Src a, Src b);

  struct Address {
    Src base;
    int64_t offset = 0;
  };
  // `offset` is the kind of the memory row's offset operand: the address is base + offset
  // where that fits it.
  Address address_of(llvm::Value* pointer, int64_t extra, isa::OperandKind offset);
  bool foldable_gep(const llvm::GetElementPtrInst* gep) const;
  bool folded_into_fma(const llvm::Instruction* fneg) const;
  bool only_printf_uses(const llvm::Instruction* inst) const;
  void select_printf(llvm::CallInst& call);
  void guard_extra_lanes();

  llvm::Function& f_;
  const ModuleLayout& layout_;
  const llvm::DataLayout& dl_;
  llvm::DominatorTree dt_;
  llvm::PostDominatorTree pdt_;
  llvm::LoopInfo loops_;
  Divergence div_;
  MFunction mf_;
  MBlock* cur_ = nullptr;
  // Node-based: result_regs() hands out references that must survive later insertions
  // (a DenseMap moves its values when it grows).
  std::unordered_map<const llvm::Value*, std::vector<uint32_t>> regs_;
  llvm::DenseMap<const llvm::BasicBlock*, int> block_index_;
  llvm::DenseMap<const llvm::GlobalValue*, uint32_t> global_regs_;
  llvm::DenseSet<const llvm::Instruction*> folded_;  // compares fused into branches
  std::map<const llvm::Instruction*, std::pair<uint32_t, uint32_t>> cmpxchg_parts_;
  std::map<const llvm::AllocaInst*, uint32_t> alloca_offsets_;
  std::map<const llvm::Argument*, uint32_t> byval_offsets_;
  uint32_t local_base_ = kNoReg;
  uint32_t kernel_args_ = kNoReg;
  size_t entry_insert_point_ = 0;  // where entry-block address computations go
  unsigned label_counter_ = 0;
};

}  // namespace ventus::cc::backend::selection
