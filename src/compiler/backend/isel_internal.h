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
  static llvm::Type* scalar_type(llvm::Type* t) {
    if (auto* vt = llvm::dyn_cast<llvm::FixedVectorType>(t)) return vt->getElementType();
    return t;
  }
  // A 64-bit element (long, double) takes two registers: low word, high word.
  static bool is_64bit(llvm::Type* t) {
    return scalar_type(t)->isIntegerTy(64) || scalar_type(t)->isDoubleTy();
  }
  static unsigned parts(llvm::Type* t) { return is_64bit(t) ? 2 : 1; }
  static bool is_i64(llvm::Type* t) { return scalar_type(t)->isIntegerTy(64); }
  static bool is_f64(llvm::Type* t) { return scalar_type(t)->isDoubleTy(); }
  static bool is_f16(llvm::Type* t) { return scalar_type(t)->isHalfTy(); }
  static unsigned elements(llvm::Type* t) { return value_registers(t); }
  // The type of one register's worth of a value (a long's or a double's words are i32).
  static llvm::Type* element_type(llvm::Type* t) {
    llvm::Type* e = scalar_type(t);
    return is_64bit(e) ? llvm::Type::getInt32Ty(t->getContext()) : e;
  }
  void check_type(const llvm::Value* v, llvm::Type* t);
  const std::vector<uint32_t>& result_regs(const llvm::Value* v);
  // Register `part` of a scalar constant (part 1: the high word of a 64-bit integer).
  int64_t constant_bits(const llvm::Constant* c, unsigned part = 0);

  Src src(const llvm::Value* v, unsigned elem = 0);

  uint32_t global_address(const llvm::GlobalValue* gv);

  // Base of the workgroup's __local data: CSR_LDS + one scalar stack per warp (the start
  // code's stacks come first).
  uint32_t local_base();

  // ---- emission helpers ---------------------------------------------------------------
  void emit(isa::Op op, std::vector<Operand> ops) {
    cur_->insts.push_back(make_inst(op, std::move(ops)));
  }
  void emit(Pseudo op, std::vector<Operand> ops) {
    cur_->insts.push_back(make_inst(op, std::move(ops)));
  }
  // A load from the kernel's argument buffer; offsets past a 12-bit immediate (a kernel
  // with kilobytes of arguments) go through an address register.
  void load_argument(isa::Op op, uint32_t dst, uint64_t offset);
  uint32_t new_s() { return mf_.new_vreg(RegClass::Scalar); }
  uint32_t new_v() { return mf_.new_vreg(RegClass::Vector); }

  uint32_t scalar_reg(const Src& s);
  // Copies s into every lane of the physical vector register phys (call arguments/results).
  void emit_vector_move(uint32_t phys, const Src& s);
  uint32_t vector_reg(const Src& s);
  void move(uint32_t dst, const Src& s);

  // Sign- or zero-extends a sub-word integer so that all 32 bits are meaningful. `of`: the
  // value s holds, when known: a byte or halfword load is zero-extended already (load_rows).
  Src extend(Src s, unsigned bits, bool is_signed, const llvm::Value* of = nullptr);

  void int_op(const IntOp& op, uint32_t dst, Src a, Src b);

  void fp_op(const FpOp& op, uint32_t dst, Src a, Src b);

  void not_bit(uint32_t dst, uint32_t src_reg);

  // ---- instructions -------------------------------------------------------------------
  void select_block(llvm::BasicBlock& bb);
  void select(llvm::Instruction& inst);
  void select_binary(llvm::BinaryOperator& inst);
  void half_op(isa::Op op, uint32_t dst, Src a, Src b);
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
  // double arithmetic on the pair forms of the vector instructions (isel_fp64.cpp).
  void select_fp64_binary(llvm::BinaryOperator& inst);
  bool select_fp64_intrinsic(llvm::IntrinsicInst& call);
  void pair_op(isa::Op op, const llvm::Instruction& inst,
               const std::vector<const llvm::Value*>& operands);
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
  // The constant part of a GEP with variable indices whose register leaves it out, for its
  // loads and stores to add as their offset (0: the register holds the whole address).
  int64_t gep_offset_in_users(const llvm::GetElementPtrInst* gep) const;
  bool folded_into_fma(const llvm::Instruction* fneg) const;
  void select_printf(llvm::CallInst& call);
  void select_inline_asm(llvm::CallInst& call);
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
  // The registers of each output of an inline assembly statement with several outputs.
  std::map<const llvm::CallInst*, std::vector<uint32_t>> asm_outputs_;
  std::map<const llvm::AllocaInst*, uint32_t> alloca_offsets_;
  std::map<const llvm::Argument*, uint32_t> byval_offsets_;
  uint32_t local_base_ = kNoReg;
  uint32_t kernel_args_ = kNoReg;
  size_t entry_insert_point_ = 0;  // where entry-block address computations go
  unsigned label_counter_ = 0;
};

}  // namespace ventus::cc::backend::selection
