// Instruction selection. Every LLVM value gets one virtual register per element (a
// <4 x float> is a group of four registers, as the guide lowers OpenCL vector types);
// the divergence analysis decides the class: uniform values are computed once per warp
// in scalar registers with RV32IM/Zfinx instructions, divergent ones per thread in
// vector registers. Sub-word integers (i8, i16) live in 32-bit registers with undefined
// high bits and are extended where the high bits matter; i1 values are always 0 or 1.
#include "isel.h"

#include <fmt/format.h>

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/GetElementPtrTypeIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>
#include <llvm/IR/PatternMatch.h>
#include <llvm/Demangle/Demangle.h>

#include <unordered_map>

#include "backend.h"
#include "divergence.h"
#include "ventus/error.h"

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

namespace {

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

bool fits_simm12(int64_t v) { return v >= -2048 && v <= 2047; }
bool fits_simm11(int64_t v) { return v >= -1024 && v <= 1023; }
bool fits_simm5(int64_t v) { return v >= -16 && v <= 15; }

unsigned int_bits(llvm::Type* t) {
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

// dst = a OP b for an integer operation that has RV32 and RVV forms.
struct IntOp {
  const char* scalar;      // "add"
  const char* scalar_imm;  // "addi" or nullptr
  const char* vector;      // "vadd" (forms .vv .vx .vi)
  bool vector_imm;         // has a .vi form
  bool commutative;
  bool shift;              // immediate forms take a 5-bit unsigned amount
};

// The integer operations the expansions below combine.
const IntOp kAdd{"add", "addi", "vadd", true, true, false};
const IntOp kSub{"sub", nullptr, "vsub", false, false, false};
const IntOp kAnd{"and", "andi", "vand", true, true, false};
const IntOp kOr{"or", "ori", "vor", true, true, false};
const IntOp kXor{"xor", "xori", "vxor", true, true, false};
const IntOp kSll{"sll", "slli", "vsll", true, false, true};
const IntOp kSrl{"srl", "srli", "vsrl", true, false, true};
const IntOp kSra{"sra", "srai", "vsra", true, false, true};
const IntOp kMul{"mul", nullptr, "vmul", false, true, false};
const IntOp kMulhu{"mulhu", nullptr, "vmulhu", false, true, false};
const IntOp kSltu{"sltu", nullptr, "vmsltu", false, false, false};
const IntOp kSlt{"slt", nullptr, "vmslt", false, false, false};

Src imm_src(int64_t v) { return {true, v, kNoReg, RegClass::Scalar}; }

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
      if (ci->getBitWidth() == 64) return static_cast<int32_t>(static_cast<uint32_t>(ci->getZExtValue() >> (32 * part)));
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
      if (auto* gv = llvm::dyn_cast<llvm::GlobalValue>(c)) return {false, 0, global_address(gv), RegClass::Scalar};
      unsigned p = parts(c->getType());
      if (auto* vec = llvm::dyn_cast<llvm::ConstantDataVector>(c))
        return {true, constant_bits(vec->getElementAsConstant(elem / p), elem % p), kNoReg, RegClass::Scalar};
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
      if (fits_simm12(off->second)) {
        code.push_back(inst("addi", {Operand::def_of(r), Operand::use_of(base), Operand::immediate(off->second)}));
      } else {
        uint32_t offset = new_s();
        code.push_back(inst("li", {Operand::def_of(offset), Operand::immediate(off->second)}));
        code.push_back(inst("add", {Operand::def_of(r), Operand::use_of(base), Operand::use_of(offset)}));
      }
    } else {
      std::string sym = gv->getName().str();
      if (auto s = layout_.symbols.find(gv); s != layout_.symbols.end()) sym = s->second;
      code.push_back(inst("la", {Operand::def_of(r), Operand::literal(sym)}));
    }
    entry.insts.insert(entry.insts.begin() + entry_insert_point_, code.begin(), code.end());
    entry_insert_point_ += code.size();
    global_regs_[gv] = r;
    return r;
  }

  // Base of the workgroup's __local data: CSR_LDS + 1 KiB per warp (the start code's
  // scalar stacks come first).
  uint32_t local_base() {
    if (local_base_ != kNoReg) return local_base_;
    uint32_t lds = mf_.new_vreg(RegClass::Scalar), numw = mf_.new_vreg(RegClass::Scalar);
    local_base_ = mf_.new_vreg(RegClass::Scalar);
    MBlock& entry = mf_.blocks[0];
    std::vector<MInst> code = {
        inst("csrr", {Operand::def_of(lds), Operand::literal("0x806")}),
        inst("csrr", {Operand::def_of(numw), Operand::literal("0x801")}),
        inst("slli", {Operand::def_of(numw), Operand::use_of(numw), Operand::immediate(10)}),
        inst("add", {Operand::def_of(local_base_), Operand::use_of(lds), Operand::use_of(numw)})};
    entry.insts.insert(entry.insts.begin() + entry_insert_point_, code.begin(), code.end());
    entry_insert_point_ += code.size();
    return local_base_;
  }

  // ---- emission helpers ---------------------------------------------------------------
  static MInst inst(std::string op, std::vector<Operand> ops) {
    MInst i;
    i.op = std::move(op);
    i.ops = std::move(ops);
    return i;
  }
  void emit(std::string op, std::vector<Operand> ops) { cur_->insts.push_back(inst(std::move(op), std::move(ops))); }
  void emit_mem(std::string op, std::vector<Operand> ops) {
    MInst i = inst(std::move(op), std::move(ops));
    i.memory_form = true;
    cur_->insts.push_back(std::move(i));
  }
  // A load from the kernel's argument buffer; offsets past a 12-bit immediate (a kernel
  // with kilobytes of arguments) go through an address register.
  void load_argument(const char* op, uint32_t dst, uint64_t offset) {
    if (fits_simm12(static_cast<int64_t>(offset))) {
      emit_mem(op, {Operand::def_of(dst), Operand::immediate(static_cast<int64_t>(offset)),
                    Operand::use_of(kernel_args_)});
      return;
    }
    const uint32_t address = new_s();
    emit("li", {Operand::def_of(address), Operand::immediate(static_cast<int64_t>(offset))});
    emit("add", {Operand::def_of(address), Operand::use_of(address), Operand::use_of(kernel_args_)});
    emit_mem(op, {Operand::def_of(dst), Operand::immediate(0), Operand::use_of(address)});
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
    emit("li", {Operand::def_of(r), Operand::immediate(s.imm)});
    return r;
  }
  uint32_t vector_reg(const Src& s) {
    if (!s.is_imm && s.cls == RegClass::Vector) return s.reg;
    uint32_t r = new_v();
    if (s.is_imm && fits_simm5(s.imm))
      emit("vmv.v.i", {Operand::def_of(r), Operand::immediate(s.imm)});
    else
      emit("vmv.v.x", {Operand::def_of(r), Operand::use_of(scalar_reg(s))});
    return r;
  }
  void move(uint32_t dst, const Src& s) {
    if (mf_.class_of(dst) == RegClass::Scalar) {
      if (s.is_imm)
        emit("li", {Operand::def_of(dst), Operand::immediate(s.imm)});
      else
        emit("mv", {Operand::def_of(dst), Operand::use_of(s.reg)});
      return;
    }
    if (s.is_imm && fits_simm5(s.imm))
      emit("vmv.v.i", {Operand::def_of(dst), Operand::immediate(s.imm)});
    else if (!s.is_imm && s.cls == RegClass::Vector)
      emit("vmv.v.v", {Operand::def_of(dst), Operand::use_of(s.reg)});
    else
      emit("vmv.v.x", {Operand::def_of(dst), Operand::use_of(scalar_reg(s))});
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
        emit("andi", {Operand::def_of(r), Operand::use_of(s.reg), Operand::immediate(255)});
      } else {
        emit("slli", {Operand::def_of(r), Operand::use_of(s.reg), Operand::immediate(shift)});
        emit(is_signed ? "srai" : "srli", {Operand::def_of(r), Operand::use_of(r), Operand::immediate(shift)});
      }
      return {false, 0, r, RegClass::Scalar};
    }
    uint32_t r = new_v();
    emit("vsll.vi", {Operand::def_of(r), Operand::use_of(s.reg), Operand::immediate(shift)});
    emit(is_signed ? "vsra.vi" : "vsrl.vi", {Operand::def_of(r), Operand::use_of(r), Operand::immediate(shift)});
    return {false, 0, r, RegClass::Vector};
  }

  void int_op(const IntOp& op, uint32_t dst, Src a, Src b) {
    if (mf_.class_of(dst) == RegClass::Scalar) {
      if (b.is_imm && op.scalar_imm &&
          (op.shift ? (b.imm >= 0 && b.imm < 32) : fits_simm12(b.imm))) {
        emit(op.scalar_imm, {Operand::def_of(dst), Operand::use_of(scalar_reg(a)), Operand::immediate(b.imm)});
        return;
      }
      if (a.is_imm && op.commutative && op.scalar_imm && fits_simm12(a.imm)) return int_op(op, dst, b, a);
      emit(op.scalar, {Operand::def_of(dst), Operand::use_of(scalar_reg(a)), Operand::use_of(scalar_reg(b))});
      return;
    }
    bool a_vec = !a.is_imm && a.cls == RegClass::Vector;
    bool b_vec = !b.is_imm && b.cls == RegClass::Vector;
    if (!a_vec && b_vec) {
      if (op.commutative) return int_op(op, dst, b, a);
      if (std::string(op.vector) == "vsub") {  // uniform - vector: reverse subtract
        if (a.is_imm && fits_simm5(a.imm))
          emit("vrsub.vi", {Operand::def_of(dst), Operand::use_of(b.reg), Operand::immediate(a.imm)});
        else
          emit("vrsub.vx", {Operand::def_of(dst), Operand::use_of(b.reg), Operand::use_of(scalar_reg(a))});
        return;
      }
    }
    uint32_t va = vector_reg(a);
    std::string base = op.vector;
    if (b.is_imm && op.vector_imm && (op.shift ? (b.imm >= 0 && b.imm < 32) : fits_simm5(b.imm))) {
      emit(base + ".vi", {Operand::def_of(dst), Operand::use_of(va), Operand::immediate(b.imm)});
    } else if (b.is_imm && base == "vsub" && fits_simm5(-b.imm)) {
      emit("vadd.vi", {Operand::def_of(dst), Operand::use_of(va), Operand::immediate(-b.imm)});
    } else if (b.is_imm || b.cls == RegClass::Scalar) {
      emit(base + ".vx", {Operand::def_of(dst), Operand::use_of(va), Operand::use_of(scalar_reg(b))});
    } else {
      emit(base + ".vv", {Operand::def_of(dst), Operand::use_of(va), Operand::use_of(b.reg)});
    }
  }

  // Float operation with Zfinx scalar and RVV .vv/.vf forms.
  void fp_op(const char* scalar, const char* vector, uint32_t dst, Src a, Src b, bool commutative,
             const char* reversed_vf = nullptr) {
    if (mf_.class_of(dst) == RegClass::Scalar) {
      emit(scalar, {Operand::def_of(dst), Operand::use_of(scalar_reg(a)), Operand::use_of(scalar_reg(b))});
      return;
    }
    bool a_vec = !a.is_imm && a.cls == RegClass::Vector;
    bool b_vec = !b.is_imm && b.cls == RegClass::Vector;
    if (!a_vec && b_vec) {
      if (commutative) return fp_op(scalar, vector, dst, b, a, commutative);
      if (reversed_vf) {
        emit(reversed_vf, {Operand::def_of(dst), Operand::use_of(b.reg), Operand::use_of(scalar_reg(a))});
        return;
      }
    }
    uint32_t va = vector_reg(a);
    if (!b_vec)
      emit(std::string(vector) + ".vf", {Operand::def_of(dst), Operand::use_of(va), Operand::use_of(scalar_reg(b))});
    else
      emit(std::string(vector) + ".vv", {Operand::def_of(dst), Operand::use_of(va), Operand::use_of(b.reg)});
  }

  void not_bit(uint32_t dst, uint32_t src_reg) {
    if (mf_.class_of(dst) == RegClass::Scalar)
      emit("xori", {Operand::def_of(dst), Operand::use_of(src_reg), Operand::immediate(1)});
    else
      emit("vxor.vi", {Operand::def_of(dst), Operand::use_of(src_reg), Operand::immediate(1)});
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
  Address address_of(llvm::Value* pointer, unsigned addrspace, int64_t extra, int64_t limit_bits);
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

bool Selector::only_printf_uses(const llvm::Instruction* inst) const {
  for (const llvm::User* user : inst->users()) {
    auto* call = llvm::dyn_cast<llvm::CallInst>(user);
    if (!call || !call->getCalledFunction() || call->getCalledFunction()->getName() != "printf") return false;
  }
  return !inst->use_empty();
}

bool Selector::foldable_gep(const llvm::GetElementPtrInst* gep) const {
  llvm::APInt offset(32, 0);
  if (!gep->accumulateConstantOffset(dl_, offset) || !fits_simm11(offset.getSExtValue())) return false;
  if (div_.divergent(gep) != div_.divergent(gep->getPointerOperand())) return false;
  for (const llvm::User* user : gep->users()) {
    if (auto* load = llvm::dyn_cast<llvm::LoadInst>(user)) {
      if (load->getPointerOperand() != gep) return false;
    } else if (auto* store = llvm::dyn_cast<llvm::StoreInst>(user)) {
      if (store->getPointerOperand() != gep) return false;
    } else {
      return false;
    }
  }
  return true;
}

Selector::Address Selector::address_of(llvm::Value* pointer, unsigned, int64_t extra,
                                       int64_t limit_bits) {
  auto fits = [&](int64_t v) { return limit_bits == 12 ? fits_simm12(v) : fits_simm11(v); };
  if (auto* gep = llvm::dyn_cast<llvm::GetElementPtrInst>(pointer); gep && foldable_gep(gep)) {
    llvm::APInt offset(32, 0);
    gep->accumulateConstantOffset(dl_, offset);
    int64_t total = offset.getSExtValue() + extra;
    if (fits(total)) {
      Address inner = address_of(gep->getPointerOperand(), 0, total, limit_bits);
      return inner;
    }
  }
  if (auto* alloca = llvm::dyn_cast<llvm::AllocaInst>(pointer)) {
    // tp points just past this function's private frame.
    int64_t total = static_cast<int64_t>(alloca_offsets_.at(alloca)) - mf_.private_frame + extra;
    if (fits(total)) return {{false, 0, kTp, RegClass::Scalar}, total};
  }
  if (fits(extra)) return {src(pointer), extra};
  Src base = src(pointer);
  uint32_t r = mf_.new_vreg(base.is_imm ? RegClass::Scalar : base.cls);
  int_op(kAdd, r, base, {true, extra, kNoReg, RegClass::Scalar});
  return {{false, 0, r, mf_.class_of(r)}, 0};
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
    if (bytes > kPrivateFrameBytes || frame > kPrivateFrameBytes)
      error_at(&f_, fmt::format("{} needs at least {} bytes of private memory per work-item for "
                                "its variables; at most {} are addressable",
                                describe(f_), std::max(bytes, frame), kPrivateFrameBytes));
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
  mf_.private_frame = static_cast<uint32_t>(llvm::alignTo(frame, mf_.private_align));

  // Entry: incoming arguments.
  cur_ = &mf_.blocks[0];
  if (mf_.is_kernel) {
    kernel_args_ = new_s();
    emit("mv", {Operand::def_of(kernel_args_), Operand::use_of(kA0)});
    guard_extra_lanes();
    std::vector<KernelArgument> layout = kernel_arguments(f_);
    for (llvm::Argument& arg : f_.args()) {
      if (arg.use_empty()) continue;
      const KernelArgument& info = layout[arg.getArgNo()];
      if (arg.hasByValAttr()) {
        uint32_t r = result_regs(&arg)[0];
        int64_t at = static_cast<int64_t>(byval_offsets_.at(&arg)) - mf_.private_frame;
        emit("addi", {Operand::def_of(r), Operand::use_of(kTp), Operand::immediate(at)});
        uint32_t base = new_v(), word = new_s(), value = new_v();
        emit("vmv.v.x", {Operand::def_of(base), Operand::use_of(r)});
        for (uint32_t w = 0; w < info.size; w += 4) {
          load_argument("lw", word, info.offset + w);
          emit("vmv.v.x", {Operand::def_of(value), Operand::use_of(word)});
          emit_mem("vsw.v", {Operand::use_of(value), Operand::immediate(w), Operand::use_of(base)});
        }
        continue;
      }
      const std::vector<uint32_t>& regs = result_regs(&arg);
      llvm::Type* elem = element_type(arg.getType());
      uint32_t elem_size = static_cast<uint32_t>(dl_.getTypeStoreSize(elem));
      for (size_t k = 0; k < regs.size(); ++k) {
        const char* load = elem_size == 1 ? "lbu" : elem_size == 2 ? "lhu" : "lw";
        load_argument(load, regs[k], info.offset + k * elem_size);
      }
      if (info.address_space == "local") {
        uint32_t lds = new_s();
        emit("csrr", {Operand::def_of(lds), Operand::literal("0x806")});
        emit("add", {Operand::def_of(regs[0]), Operand::use_of(regs[0]), Operand::use_of(lds)});
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
        if (next >= 32) unsupported(&arg, "more than 32 argument registers in a call");
        emit("vmv.v.v", {Operand::def_of(r), Operand::use_of(vreg_phys(next++))});
      }
    }
  }
  entry_insert_point_ = cur_->insts.size();

  // Blocks in dominator-tree order so every operand is defined before use (phis aside).
  for (llvm::BasicBlock& bb : f_) select_block(bb);
  return std::move(mf_);
}

// A workgroup whose size is not a multiple of the warp width leaves lanes of its last
// warp without a work-item; they would compute ids that belong to the next workgroup.
// They skip the kernel: a vector branch sends them to the join before the epilogue
// (emit.cpp), where they wait for the others. Warps whose lanes are all in range (every
// warp but a workgroup's last) see that with scalar instructions only and skip the test.
void Selector::guard_extra_lanes() {
  uint32_t tid = new_s(), numt = new_s(), last = new_s(), knl = new_s(), x = new_s(), y = new_s(), z = new_s();
  uint32_t lanes = new_v(), total = new_v(), rpc = new_s();
  std::string done = fmt::format(".Lguard_done_{}", mf_.name);
  emit("csrr", {Operand::def_of(tid), Operand::literal("0x800")});
  emit("csrr", {Operand::def_of(numt), Operand::literal("0x802")});
  emit("add", {Operand::def_of(last), Operand::use_of(tid), Operand::use_of(numt)});
  emit("csrr", {Operand::def_of(knl), Operand::literal("0x803")});
  emit_mem("lw", {Operand::def_of(x), Operand::immediate(24), Operand::use_of(knl)});
  emit_mem("lw", {Operand::def_of(y), Operand::immediate(28), Operand::use_of(knl)});
  emit_mem("lw", {Operand::def_of(z), Operand::immediate(32), Operand::use_of(knl)});
  emit("mul", {Operand::def_of(x), Operand::use_of(x), Operand::use_of(y)});
  emit("mul", {Operand::def_of(x), Operand::use_of(x), Operand::use_of(z)});
  emit("bgeu", {Operand::use_of(x), Operand::use_of(last), Operand::literal(done)});
  emit("vid.v", {Operand::def_of(lanes)});
  emit("vadd.vx", {Operand::def_of(lanes), Operand::use_of(lanes), Operand::use_of(tid)});
  emit("vmv.v.x", {Operand::def_of(total), Operand::use_of(x)});
  std::string anchor = fmt::format(".Lguard_rpc_{}", mf_.name);
  std::string end = kernel_end_label(mf_.name);
  emit("", {Operand::label(anchor)});
  emit("auipc", {Operand::def_of(rpc), Operand::literal(fmt::format("%pcrel_hi({})", end))});
  emit("setrpc", {Operand::use_of(kZero), Operand::use_of(rpc), Operand::literal(fmt::format("%pcrel_lo({})", anchor))});
  emit("vbgeu", {Operand::use_of(lanes), Operand::use_of(total), Operand::literal(end)});
  emit("", {Operand::label(done)});
  mf_.guards_extra_lanes = true;
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
    // A compare used only by the branch of its block becomes a compare-and-branch.
    if (cmp->hasOneUse()) {
      auto* br = llvm::dyn_cast<llvm::BranchInst>(*cmp->user_begin());
      if (br && br->getParent() == cmp->getParent() && int_bits(cmp->getOperand(0)->getType()) == 32 &&
          !cmp->getOperand(0)->getType()->isVectorTy()) {
        folded_.insert(cmp);
        return;
      }
    }
    return select_icmp(*cmp);
  }
  if (auto* cmp = llvm::dyn_cast<llvm::FCmpInst>(&i)) return select_fcmp(*cmp);
  if (auto* cast = llvm::dyn_cast<llvm::CastInst>(&i)) {
    if (llvm::isa<llvm::FPExtInst>(cast) && only_printf_uses(cast)) return;  // printf takes the float bits
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
        emit("fsgnjn.s", {Operand::def_of(d[k]), Operand::use_of(r), Operand::use_of(r)});
      } else {
        uint32_t r = vector_reg(a);
        emit("vfsgnjn.vv", {Operand::def_of(d[k]), Operand::use_of(r), Operand::use_of(r)});
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
    auto* cx = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(ev->getAggregateOperand());
    if (!cx || ev->getNumIndices() != 1) unsupported(&i, "aggregate values in registers");
    auto parts = cmpxchg_parts_.find(cx);
    if (parts == cmpxchg_parts_.end()) unsupported(&i, "a cmpxchg result used before its definition");
    regs_[&i] = {ev->getIndices()[0] == 0 ? parts->second.first : parts->second.second};
    return;
  }
  if (llvm::isa<llvm::FenceInst>(i)) {
    emit("fence", {});
    return;
  }
  unsupported(&i, fmt::format("the '{}' instruction", i.getOpcodeName()));
}

void Selector::select_binary(llvm::BinaryOperator& inst) {
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
        if (b.is_imm && fits_simm12(-b.imm) && mf_.class_of(d[k]) == RegClass::Scalar)
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
        int_op(kSrl, d[k], extend(a, bits, false), b);
        break;
      case BO::AShr:
        int_op(kSra, d[k], extend(a, bits, true), b);
        break;
      case BO::UDiv:
        int_op({"divu", nullptr, "vdivu", false, false, false}, d[k], extend(a, bits, false), extend(b, bits, false));
        break;
      case BO::SDiv:
        int_op({"div", nullptr, "vdiv", false, false, false}, d[k], extend(a, bits, true), extend(b, bits, true));
        break;
      case BO::URem:
        int_op({"remu", nullptr, "vremu", false, false, false}, d[k], extend(a, bits, false), extend(b, bits, false));
        break;
      case BO::SRem:
        int_op({"rem", nullptr, "vrem", false, false, false}, d[k], extend(a, bits, true), extend(b, bits, true));
        break;
      case BO::FAdd: fp_op("fadd.s", "vfadd", d[k], a, b, true); break;
      case BO::FSub: fp_op("fsub.s", "vfsub", d[k], a, b, false, "vfrsub.vf"); break;
      case BO::FMul: fp_op("fmul.s", "vfmul", d[k], a, b, true); break;
      case BO::FDiv: fp_op("fdiv.s", "vfdiv", d[k], a, b, false, "vfrdiv.vf"); break;
      default: unsupported(&inst, fmt::format("the '{}' operation", inst.getOpcodeName()));
    }
    if (bits == 1 && (inst.getOpcode() == llvm::Instruction::Add || inst.getOpcode() == llvm::Instruction::Sub ||
                      inst.getOpcode() == llvm::Instruction::Mul || inst.getOpcode() == llvm::Instruction::Shl))
      int_op(kAnd, d[k], {false, 0, d[k], mf_.class_of(d[k])},
             {true, 1, kNoReg, RegClass::Scalar});
  }
}

// ---- 64-bit integers on register pairs ------------------------------------------------

Src Selector::op2(const IntOp& o, RegClass cls, Src a, Src b) {
  uint32_t r = mf_.new_vreg(cls);
  int_op(o, r, a, b);
  return {false, 0, r, cls};
}


void Selector::select_binary64(llvm::BinaryOperator& inst) {
  const std::vector<uint32_t>& d = result_regs(&inst);
  using BO = llvm::Instruction::BinaryOps;
  for (size_t k = 0; k + 1 < d.size(); k += 2) {
    RegClass cls = mf_.class_of(d[k]);
    Src alo = src(inst.getOperand(0), k), ahi = src(inst.getOperand(0), k + 1);
    Src blo = src(inst.getOperand(1), k), bhi = src(inst.getOperand(1), k + 1);
    auto op = [&](const IntOp& o, Src a, Src b) { return op2(o, cls, a, b); };
    switch (inst.getOpcode()) {
      case BO::Add: {
        Src lo = op(kAdd, alo, blo);
        Src carry = op(kSltu, lo, alo);
        int_op(kAdd, d[k + 1], op(kAdd, ahi, bhi), carry);
        move(d[k], lo);
        break;
      }
      case BO::Sub: {
        Src borrow = op(kSltu, alo, blo);
        Src lo = op(kSub, alo, blo);
        int_op(kSub, d[k + 1], op(kSub, ahi, bhi), borrow);
        move(d[k], lo);
        break;
      }
      case BO::Mul: {
        Src hi = op(kAdd, op(kMulhu, alo, blo), op(kAdd, op(kMul, alo, bhi), op(kMul, ahi, blo)));
        int_op(kMul, d[k], alo, blo);
        move(d[k + 1], hi);
        break;
      }
      case BO::Shl:
      case BO::LShr:
      case BO::AShr: {
        bool left = inst.getOpcode() == BO::Shl;
        bool arith = inst.getOpcode() == BO::AShr;
        if (blo.is_imm) {
          int64_t c = blo.imm & 63;
          Src lo, hi;
          if (c == 0) {
            lo = alo, hi = ahi;
          } else if (left) {
            lo = c >= 32 ? imm_src(0) : op(kSll, alo, imm_src(c));
            hi = c >= 32 ? op(kSll, alo, imm_src(c - 32)) : op(kOr, op(kSll, ahi, imm_src(c)), op(kSrl, alo, imm_src(32 - c)));
          } else {
            const IntOp& right = arith ? kSra : kSrl;
            hi = c >= 32 ? (arith ? op(kSra, ahi, imm_src(31)) : imm_src(0)) : op(right, ahi, imm_src(c));
            lo = c >= 32 ? op(right, ahi, imm_src(c - 32)) : op(kOr, op(kSrl, alo, imm_src(c)), op(kSll, ahi, imm_src(32 - c)));
          }
          move(d[k], lo);
          move(d[k + 1], hi);
          break;
        }
        // Variable amount s: the 32-bit shifts use s mod 32; big = s >= 32 picks the
        // crossed-over words through a mask (no branches).
        Src amount = op(kAnd, blo, imm_src(63));
        Src big = op(kSrl, amount, imm_src(5));
        Src mask = op(kSub, imm_src(0), big);
        Src s5 = op(kAnd, amount, imm_src(31));
        Src back = op(kSub, imm_src(31), s5);
        auto pick = [&](Src when_big, Src otherwise) {  // otherwise ^ ((when_big ^ otherwise) & mask)
          return op(kXor, otherwise, op(kAnd, op(kXor, when_big, otherwise), mask));
        };
        if (left) {
          Src lo_s = op(kSll, alo, s5);
          Src hi_s = op(kOr, op(kSll, ahi, s5), op(kSrl, op(kSrl, alo, imm_src(1)), back));
          move(d[k + 1], pick(lo_s, hi_s));
          move(d[k], pick(imm_src(0), lo_s));
        } else {
          const IntOp& right = arith ? kSra : kSrl;
          Src hi_s = op(right, ahi, s5);
          Src lo_s = op(kOr, op(kSrl, alo, s5), op(kSll, op(kSll, ahi, imm_src(1)), back));
          Src fill = arith ? op(kSra, ahi, imm_src(31)) : imm_src(0);
          move(d[k], pick(hi_s, lo_s));
          move(d[k + 1], pick(fill, hi_s));
        }
        break;
      }
      default:
        // Division and remainder never get here from the front end, which turns them
        // into calls to lib/int64.cl.
        unsupported(&inst, fmt::format("64-bit integer '{}'", inst.getOpcodeName()));
    }
  }
}

void Selector::icmp64(llvm::CmpInst::Predicate pred, uint32_t dst, Src alo, Src ahi, Src blo, Src bhi) {
  using P = llvm::CmpInst::Predicate;
  RegClass cls = mf_.class_of(dst);
  auto op = [&](const IntOp& o, Src a, Src b) { return op2(o, cls, a, b); };
  if (pred == P::ICMP_EQ || pred == P::ICMP_NE) {
    Src diff = op(kOr, op(kXor, alo, blo), op(kXor, ahi, bhi));
    icmp_element(pred, dst, diff, imm_src(0));
    return;
  }
  bool swap = pred == P::ICMP_SGT || pred == P::ICMP_UGT || pred == P::ICMP_SLE || pred == P::ICMP_ULE;
  bool negate = pred == P::ICMP_SGE || pred == P::ICMP_UGE || pred == P::ICMP_SLE || pred == P::ICMP_ULE;
  bool is_signed = llvm::CmpInst::isSigned(pred);
  if (swap) std::swap(alo, blo), std::swap(ahi, bhi);
  // a < b  <=>  hi(a) < hi(b)  or  (hi(a) == hi(b) and lo(a) <u lo(b))
  Src hi_less = op(is_signed ? kSlt : kSltu, ahi, bhi);
  uint32_t eq = mf_.new_vreg(cls);
  icmp_element(P::ICMP_EQ, eq, ahi, bhi);
  Src hi_equal{false, 0, eq, cls};
  Src lo_less = op(kSltu, alo, blo);
  Src less = op(kOr, hi_less, op(kAnd, hi_equal, lo_less));
  if (negate)
    int_op(kXor, dst, less, imm_src(1));
  else
    move(dst, less);
}

void Selector::select_cast64(llvm::CastInst& inst) {
  using CO = llvm::Instruction::CastOps;
  const std::vector<uint32_t>& d = result_regs(&inst);
  unsigned from_bits = int_bits(scalar_type(inst.getSrcTy()));
  bool to_wide = is_i64(inst.getDestTy());
  unsigned n = elements(inst.getDestTy()) / parts(inst.getDestTy());
  for (unsigned e = 0; e < n; ++e) {
    switch (inst.getOpcode()) {
      case CO::ZExt:
      case CO::SExt:
      case CO::PtrToInt: {
        if (!to_wide) break;
        bool is_signed = inst.getOpcode() == CO::SExt;
        Src lo = extend(src(inst.getOperand(0), e), from_bits, is_signed);
        move(d[2 * e], lo);
        if (is_signed)
          int_op(kSra, d[2 * e + 1], lo, imm_src(31));
        else
          move(d[2 * e + 1], imm_src(0));
        continue;
      }
      case CO::Trunc:
      case CO::IntToPtr: {
        Src lo = src(inst.getOperand(0), 2 * e);
        if (scalar_type(inst.getDestTy())->isIntegerTy(1))
          int_op(kAnd, d[e], lo, imm_src(1));
        else
          move(d[e], lo);
        continue;
      }
      default: break;
    }
    unsupported(&inst, fmt::format("the '{}' conversion of a 64-bit integer", inst.getOpcodeName()));
  }
}

void Selector::icmp_element(llvm::CmpInst::Predicate pred, uint32_t dst, Src a, Src b) {
  using P = llvm::CmpInst::Predicate;
  bool scalar = mf_.class_of(dst) == RegClass::Scalar;
  if (scalar) {
    auto rr = [&](const char* op, Src x, Src y) {
      if (y.is_imm && fits_simm12(y.imm) && (std::string(op) == "slt" || std::string(op) == "sltu")) {
        emit(std::string(op) == "slt" ? "slti" : "sltiu",
             {Operand::def_of(dst), Operand::use_of(scalar_reg(x)), Operand::immediate(y.imm)});
        return;
      }
      emit(op, {Operand::def_of(dst), Operand::use_of(scalar_reg(x)), Operand::use_of(scalar_reg(y))});
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
        emit(pred == P::ICMP_EQ ? "seqz" : "snez", {Operand::def_of(dst), Operand::use_of(x)});
        return;
      }
      case P::ICMP_SLT: return rr("slt", a, b);
      case P::ICMP_ULT: return rr("sltu", a, b);
      case P::ICMP_SGT: return rr("slt", b, a);
      case P::ICMP_UGT: return rr("sltu", b, a);
      case P::ICMP_SLE: rr("slt", b, a); return not_bit(dst, dst);
      case P::ICMP_ULE: rr("sltu", b, a); return not_bit(dst, dst);
      case P::ICMP_SGE: rr("slt", a, b); return not_bit(dst, dst);
      case P::ICMP_UGE: rr("sltu", a, b); return not_bit(dst, dst);
      default: break;
    }
    throw Error("internal: icmp predicate");
  }
  // Vector compares write 0/1 per lane. Forms: .vv for all, .vx/.vi for some.
  bool b_vec = !b.is_imm && b.cls == RegClass::Vector;
  bool a_vec = !a.is_imm && a.cls == RegClass::Vector;
  if (!a_vec && b_vec) return icmp_element(llvm::CmpInst::getSwappedPredicate(pred), dst, b, a);
  uint32_t va = vector_reg(a);
  auto vv = [&](const char* op, uint32_t x, uint32_t y) {
    emit(std::string(op) + ".vv", {Operand::def_of(dst), Operand::use_of(x), Operand::use_of(y)});
  };
  if (b_vec) {
    switch (pred) {
      case P::ICMP_EQ: return vv("vmseq", va, b.reg);
      case P::ICMP_NE: return vv("vmsne", va, b.reg);
      case P::ICMP_SLT: return vv("vmslt", va, b.reg);
      case P::ICMP_ULT: return vv("vmsltu", va, b.reg);
      case P::ICMP_SLE: return vv("vmsle", va, b.reg);
      case P::ICMP_ULE: return vv("vmsleu", va, b.reg);
      case P::ICMP_SGT: return vv("vmslt", b.reg, va);
      case P::ICMP_UGT: return vv("vmsltu", b.reg, va);
      case P::ICMP_SGE: return vv("vmsle", b.reg, va);
      case P::ICMP_UGE: return vv("vmsleu", b.reg, va);
      default: break;
    }
  }
  // a (vector) OP b (uniform)
  auto vx = [&](const char* op, Src y) {
    if (y.is_imm && fits_simm5(y.imm) && std::string(op) != "vmslt" && std::string(op) != "vmsltu")
      emit(std::string(op) + ".vi", {Operand::def_of(dst), Operand::use_of(va), Operand::immediate(y.imm)});
    else
      emit(std::string(op) + ".vx", {Operand::def_of(dst), Operand::use_of(va), Operand::use_of(scalar_reg(y))});
  };
  switch (pred) {
    case P::ICMP_EQ: return vx("vmseq", b);
    case P::ICMP_NE: return vx("vmsne", b);
    case P::ICMP_SLT: return vx("vmslt", b);
    case P::ICMP_ULT: return vx("vmsltu", b);
    case P::ICMP_SLE: return vx("vmsle", b);
    case P::ICMP_ULE: return vx("vmsleu", b);
    case P::ICMP_SGT: return vx("vmsgt", b);
    case P::ICMP_UGT: return vx("vmsgtu", b);
    case P::ICMP_SGE: vx("vmslt", b); return not_bit(dst, dst);
    case P::ICMP_UGE: vx("vmsltu", b); return not_bit(dst, dst);
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
    icmp_element(inst.getPredicate(), d[k], extend(src(inst.getOperand(0), k), bits, is_signed),
                 extend(src(inst.getOperand(1), k), bits, is_signed));
}

void Selector::fcmp_element(llvm::CmpInst::Predicate pred, uint32_t dst, Src a, Src b) {
  using P = llvm::CmpInst::Predicate;
  bool scalar = mf_.class_of(dst) == RegClass::Scalar;
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
  auto cmp = [&](const char* sop, const char* vop, uint32_t out, Src x, Src y) {
    if (scalar) {
      emit(sop, {Operand::def_of(out), Operand::use_of(scalar_reg(x)), Operand::use_of(scalar_reg(y))});
      return;
    }
    bool x_vec = !x.is_imm && x.cls == RegClass::Vector;
    bool y_vec = !y.is_imm && y.cls == RegClass::Vector;
    std::string v = vop;
    if (!x_vec && y_vec) {  // swap: x OP y == y OP' x
      std::string swapped = v == "vmflt" ? "vmfgt" : v == "vmfle" ? "vmfge" : v;
      emit(swapped + ".vf", {Operand::def_of(out), Operand::use_of(y.reg), Operand::use_of(scalar_reg(x))});
      return;
    }
    uint32_t vx = vector_reg(x);
    if (y_vec)
      emit(v + ".vv", {Operand::def_of(out), Operand::use_of(vx), Operand::use_of(y.reg)});
    else
      emit(v + ".vf", {Operand::def_of(out), Operand::use_of(vx), Operand::use_of(scalar_reg(y))});
  };
  auto combine = [&](const char* sop, const char* vop, uint32_t out, uint32_t x, uint32_t y) {
    if (scalar)
      emit(sop, {Operand::def_of(out), Operand::use_of(x), Operand::use_of(y)});
    else
      emit(std::string(vop) + ".vv", {Operand::def_of(out), Operand::use_of(x), Operand::use_of(y)});
  };
  switch (pred) {
    case P::FCMP_OEQ: cmp("feq.s", "vmfeq", dst, a, b); break;
    case P::FCMP_OLT: cmp("flt.s", "vmflt", dst, a, b); break;
    case P::FCMP_OLE: cmp("fle.s", "vmfle", dst, a, b); break;
    case P::FCMP_OGT: cmp("flt.s", "vmflt", dst, b, a); break;
    case P::FCMP_OGE: cmp("fle.s", "vmfle", dst, b, a); break;
    case P::FCMP_ONE: {
      uint32_t t = mf_.new_vreg(mf_.class_of(dst));
      cmp("flt.s", "vmflt", t, a, b);
      cmp("flt.s", "vmflt", dst, b, a);
      combine("or", "vor", dst, dst, t);
      break;
    }
    case P::FCMP_ORD: {
      uint32_t t = mf_.new_vreg(mf_.class_of(dst));
      cmp("feq.s", "vmfeq", t, a, a);
      cmp("feq.s", "vmfeq", dst, b, b);
      combine("and", "vand", dst, dst, t);
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
    auto unary = [&](const char* sop, const char* vop, Src x) {
      if (scalar)
        emit(sop, {Operand::def_of(d[k]), Operand::use_of(scalar_reg(x))});
      else
        emit(vop, {Operand::def_of(d[k]), Operand::use_of(vector_reg(x))});
    };
    switch (inst.getOpcode()) {
      case CO::Trunc:
        if (to->isIntegerTy(1))
          int_op(kAnd, d[k], a, {true, 1, kNoReg, RegClass::Scalar});
        else
          move(d[k], a);
        break;
      case CO::ZExt: move(d[k], extend(a, int_bits(from), false)); break;
      case CO::SExt:
        if (from->isIntegerTy(1))
          int_op(kSub, d[k], {true, 0, kNoReg, RegClass::Scalar}, a);
        else
          move(d[k], extend(a, int_bits(from), true));
        break;
      case CO::FPToSI:
        if (scalar)
          emit("fcvt.w.s", {Operand::def_of(d[k]), Operand::use_of(scalar_reg(a)), Operand::literal("rtz")});
        else
          unary("", "vfcvt.rtz.x.f.v", a);
        break;
      case CO::FPToUI:
        if (scalar)
          emit("fcvt.wu.s", {Operand::def_of(d[k]), Operand::use_of(scalar_reg(a)), Operand::literal("rtz")});
        else
          unary("", "vfcvt.rtz.xu.f.v", a);
        break;
      case CO::SIToFP: unary("fcvt.s.w", "vfcvt.f.x.v", extend(a, int_bits(from), true)); break;
      case CO::UIToFP: unary("fcvt.s.wu", "vfcvt.f.xu.v", extend(a, int_bits(from), false)); break;
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
      emit("neg", {Operand::def_of(mask), Operand::use_of(c.reg)});
      int_op(kXor, diff, t, e);
      emit("and", {Operand::def_of(diff), Operand::use_of(diff), Operand::use_of(mask)});
      int_op(kXor, d[k], {false, 0, diff, RegClass::Scalar}, e);
      continue;
    }
    uint32_t v0 = vreg_phys(0);
    bool t_vec = !t.is_imm && t.cls == RegClass::Vector;
    bool e_vec = !e.is_imm && e.cls == RegClass::Vector;
    bool invert = !e_vec && t_vec;  // vmerge takes the uniform operand as the "true" side
    if (c.cls == RegClass::Vector) {
      if (invert)
        emit("vxor.vi", {Operand::def_of(v0), Operand::use_of(c.reg), Operand::immediate(1)});
      else
        emit("vmv.v.v", {Operand::def_of(v0), Operand::use_of(c.reg)});
    } else {
      uint32_t cond = c.reg;
      if (invert) {
        cond = new_s();
        emit("xori", {Operand::def_of(cond), Operand::use_of(c.reg), Operand::immediate(1)});
      }
      emit("vmv.v.x", {Operand::def_of(v0), Operand::use_of(cond)});
    }
    if (invert) std::swap(t, e);
    uint32_t false_reg = vector_reg(e);
    t_vec = !t.is_imm && t.cls == RegClass::Vector;
    if (t_vec)
      emit("vmerge.vvm", {Operand::def_of(d[k]), Operand::use_of(false_reg), Operand::use_of(t.reg), Operand::use_of(v0)});
    else if (t.is_imm && fits_simm5(t.imm))
      emit("vmerge.vim", {Operand::def_of(d[k]), Operand::use_of(false_reg), Operand::immediate(t.imm), Operand::use_of(v0)});
    else
      emit("vmerge.vxm", {Operand::def_of(d[k]), Operand::use_of(false_reg), Operand::use_of(scalar_reg(t)), Operand::use_of(v0)});
  }
}

void Selector::select_load(llvm::LoadInst& inst) {
  const std::vector<uint32_t>& d = result_regs(&inst);
  llvm::Type* elem = element_type(inst.getType());
  unsigned size = static_cast<unsigned>(dl_.getTypeStoreSize(elem));
  unsigned as = inst.getPointerAddressSpace();
  bool is_private = as == 0;
  for (size_t k = 0; k < d.size(); ++k) {
    Address addr = address_of(inst.getPointerOperand(), as, static_cast<int64_t>(k * size), is_private ? 11 : 12);
    bool scalar = mf_.class_of(d[k]) == RegClass::Scalar;
    if (scalar && !is_private) {
      const char* op = size == 1 ? "lbu" : size == 2 ? "lhu" : "lw";
      emit_mem(op, {Operand::def_of(d[k]), Operand::immediate(addr.offset), Operand::use_of(scalar_reg(addr.base))});
      continue;
    }
    uint32_t base = vector_reg(addr.base);
    std::string op = size == 1 ? "vlbu" : size == 2 ? "vlhu" : "vlw";
    op += is_private ? ".v" : "12.v";
    emit_mem(op, {Operand::def_of(d[k]), Operand::immediate(addr.offset), Operand::use_of(base)});
  }
}

void Selector::select_store(llvm::StoreInst& inst) {
  llvm::Value* value = inst.getValueOperand();
  check_type(&inst, value->getType());
  llvm::Type* elem = element_type(value->getType());
  unsigned size = static_cast<unsigned>(dl_.getTypeStoreSize(elem));
  unsigned as = inst.getPointerAddressSpace();
  bool is_private = as == 0;
  for (unsigned k = 0; k < elements(value->getType()); ++k) {
    Address addr = address_of(inst.getPointerOperand(), as, static_cast<int64_t>(k * size), is_private ? 11 : 12);
    Src v = src(value, k);
    bool uniform = !is_private && (addr.base.is_imm || addr.base.cls == RegClass::Scalar) &&
                   (v.is_imm || v.cls == RegClass::Scalar);
    if (uniform) {
      const char* op = size == 1 ? "sb" : size == 2 ? "sh" : "sw";
      emit_mem(op, {Operand::use_of(scalar_reg(v)), Operand::immediate(addr.offset), Operand::use_of(scalar_reg(addr.base))});
      continue;
    }
    uint32_t vv = vector_reg(v);
    uint32_t base = vector_reg(addr.base);
    std::string op = size == 1 ? "vsb" : size == 2 ? "vsh" : "vsw";
    op += is_private ? ".v" : "12.v";
    emit_mem(op, {Operand::use_of(vv), Operand::immediate(addr.offset), Operand::use_of(base)});
  }
}

void Selector::select_gep(llvm::GetElementPtrInst& inst) {
  if (foldable_gep(&inst)) return;  // its loads and stores use base + offset
  if (inst.getType()->isVectorTy()) unsupported(&inst, "vectors of pointers");
  uint32_t d = result_regs(&inst)[0];
  Src acc = src(inst.getPointerOperand());
  int64_t constant = 0;
  bool have_acc_reg = false;
  auto add_to = [&](Src term) {
    uint32_t r = mf_.new_vreg((acc.is_imm ? RegClass::Scalar : acc.cls) == RegClass::Vector ||
                                      (!term.is_imm && term.cls == RegClass::Vector)
                                  ? RegClass::Vector
                                  : RegClass::Scalar);
    int_op(kAdd, r, acc, term);
    acc = {false, 0, r, mf_.class_of(r)};
    have_acc_reg = true;
  };
  for (auto it = llvm::gep_type_begin(inst); it != llvm::gep_type_end(inst); ++it) {
    llvm::Value* index = it.getOperand();
    if (llvm::StructType* st = it.getStructTypeOrNull()) {
      unsigned field = static_cast<unsigned>(llvm::cast<llvm::ConstantInt>(index)->getZExtValue());
      constant += dl_.getStructLayout(st)->getElementOffset(field);
      continue;
    }
    int64_t scale = static_cast<int64_t>(dl_.getTypeAllocSize(it.getIndexedType()));
    if (auto* ci = llvm::dyn_cast<llvm::ConstantInt>(index)) {
      constant += ci->getSExtValue() * scale;
      continue;
    }
    Src idx = extend(src(index), int_bits(index->getType()), true);
    Src scaled = idx;
    if (scale != 1) {
      uint32_t r = mf_.new_vreg(idx.cls);
      if ((scale & (scale - 1)) == 0) {
        int shift = 0;
        while ((int64_t{1} << shift) != scale) ++shift;
        int_op(kSll, r, idx, {true, shift, kNoReg, RegClass::Scalar});
      } else {
        int_op(kMul, r, idx, {true, scale, kNoReg, RegClass::Scalar});
      }
      scaled = {false, 0, r, idx.cls};
    }
    add_to(scaled);
  }
  constant = static_cast<int32_t>(constant);
  if (constant != 0 || !have_acc_reg) {
    int_op(kAdd, d, acc, {true, constant, kNoReg, RegClass::Scalar});
  } else {
    move(d, acc);
  }
}

void Selector::fma_element(uint32_t dst, Src a, Src b, Src c, bool negate_product, bool negate_addend) {
  if (mf_.class_of(dst) == RegClass::Scalar) {
    const char* op = !negate_product ? (negate_addend ? "fmsub.s" : "fmadd.s")
                                     : (negate_addend ? "fnmadd.s" : "fnmsub.s");
    emit(op, {Operand::def_of(dst), Operand::use_of(scalar_reg(a)), Operand::use_of(scalar_reg(b)),
              Operand::use_of(scalar_reg(c))});
    return;
  }
  // vfmacc family: vd = ±(vs1 * vs2) ± vd, with vd holding the addend.
  const char* base = !negate_product ? (negate_addend ? "vfmsac" : "vfmacc")
                                     : (negate_addend ? "vfnmacc" : "vfnmsac");
  move(dst, c);
  bool a_vec = !a.is_imm && a.cls == RegClass::Vector;
  bool b_vec = !b.is_imm && b.cls == RegClass::Vector;
  if (!a_vec && b_vec) std::swap(a, b), std::swap(a_vec, b_vec);
  if (a_vec && !b_vec) {
    emit(std::string(base) + ".vf", {Operand::def_use(dst), Operand::use_of(scalar_reg(b)), Operand::use_of(a.reg)});
    return;
  }
  emit(std::string(base) + ".vv", {Operand::def_use(dst), Operand::use_of(vector_reg(a)), Operand::use_of(vector_reg(b))});
}

void Selector::select_call(llvm::CallInst& call) {
  if (auto* intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(&call)) return select_intrinsic(*intrinsic);
  if (call.isInlineAsm()) error_at(&call, "inline assembly is not supported yet");
  llvm::Function* callee = call.getCalledFunction();
  if (!callee)
    error_at(&call, fmt::format("calls through a function pointer are not supported (in {})",
                                describe(*call.getFunction())));
  llvm::StringRef name = callee->getName();
  if (name == "__vt_csr") {
    auto* csr = llvm::dyn_cast<llvm::ConstantInt>(call.getArgOperand(0));
    if (!csr) unsupported(&call, "__vt_csr with a variable CSR number");
    uint32_t d = result_regs(&call)[0];
    if (mf_.class_of(d) != RegClass::Scalar) throw Error("internal: divergent CSR read");
    emit("csrr", {Operand::def_of(d), Operand::literal(fmt::format("{:#x}", csr->getZExtValue()))});
    return;
  }
  if (name == "__vt_lane_id") {
    emit("vid.v", {Operand::def_of(result_regs(&call)[0])});
    return;
  }
  if (name == "__vt_barrier") {
    auto* flags = llvm::dyn_cast<llvm::ConstantInt>(call.getArgOperand(0));
    if (!flags) unsupported(&call, "a barrier with variable fence flags");
    emit("barrier", {Operand::use_of(kZero), Operand::use_of(kZero), Operand::immediate(flags->getZExtValue() & 31)});
    return;
  }
  if (name == "__vt_mulh" || name == "__vt_mulhu") {
    bool s = name == "__vt_mulh";
    int_op({s ? "mulh" : "mulhu", nullptr, s ? "vmulh" : "vmulhu", false, true, false}, result_regs(&call)[0],
           src(call.getArgOperand(0)), src(call.getArgOperand(1)));
    return;
  }
  if (name == "printf") return select_printf(call);
  if (callee->isDeclaration())
    unsupported(&call, fmt::format("a call to '{}', which is not defined (not an OpenCL builtin "
                                   "this compiler provides)", name.str()));
  if (callee->getCallingConv() == llvm::CallingConv::SPIR_KERNEL)
    unsupported(&call, "a call to a kernel from device code");
  // The guide's convention: arguments in v0.., results in v0..v15, all per thread.
  mf_.makes_calls = true;
  mf_.callees.push_back(name.str());
  MInst jal = inst("jal", {Operand::def_of(kRa), Operand::literal(name.str())});
  jal.is_call = true;
  unsigned next = 0;
  std::vector<std::pair<uint32_t, Src>> moves;
  for (llvm::Value* arg : call.args()) {
    check_type(&call, arg->getType());
    for (unsigned k = 0; k < elements(arg->getType()); ++k) {
      if (next >= 32) unsupported(&call, "more than 32 argument registers in a call");
      moves.push_back({vreg_phys(next), src(arg, k)});
      jal.implicit_uses.push_back(vreg_phys(next++));
    }
  }
  // Materialize operands first so the physical argument registers are written last.
  for (auto& [phys, s] : moves)
    if (s.is_imm && !fits_simm5(s.imm)) s = {false, 0, scalar_reg(s), RegClass::Scalar};
  for (auto& [phys, s] : moves) {
    if (s.is_imm)
      emit("vmv.v.i", {Operand::def_of(phys), Operand::immediate(s.imm)});
    else if (s.cls == RegClass::Vector)
      emit("vmv.v.v", {Operand::def_of(phys), Operand::use_of(s.reg)});
    else
      emit("vmv.v.x", {Operand::def_of(phys), Operand::use_of(s.reg)});
  }
  if (!call.getType()->isVoidTy()) {
    const std::vector<uint32_t>& d = result_regs(&call);
    if (d.size() > 16) unsupported(&call, "a result of more than 16 registers");
    for (size_t k = 0; k < d.size(); ++k) jal.implicit_defs.push_back(vreg_phys(k));
    cur_->insts.push_back(std::move(jal));
    for (size_t k = 0; k < d.size(); ++k) emit("vmv.v.v", {Operand::def_of(d[k]), Operand::use_of(vreg_phys(k))});
    return;
  }
  cur_->insts.push_back(std::move(jal));
}

// printf goes to vt_printf (docs/driver.md, "Print buffer"): a0 = format, a1 = count,
// v0..v7 = one 32-bit value per thread; floats travel as float bits (OpenCL promotes
// them to double in the call; the device has no double, so the promotion is undone).
void Selector::select_printf(llvm::CallInst& call) {
  if (call.arg_size() > 9) unsupported(&call, "printf with more than 8 values");
  mf_.makes_calls = true;
  mf_.uses_printf = true;
  MInst jal = inst("jal", {Operand::def_of(kRa), Operand::literal("vt_printf")});
  jal.is_call = true;
  std::vector<std::pair<uint32_t, Src>> moves;
  for (unsigned a = 1; a < call.arg_size(); ++a) {
    llvm::Value* v = call.getArgOperand(a);
    Src s;
    if (auto* ext = llvm::dyn_cast<llvm::FPExtInst>(v)) {
      s = src(ext->getOperand(0));
    } else if (auto* cf = llvm::dyn_cast<llvm::ConstantFP>(v)) {
      llvm::APFloat f = cf->getValueAPF();
      bool lost = false;
      f.convert(llvm::APFloat::IEEEsingle(), llvm::APFloat::rmNearestTiesToEven, &lost);
      s = {true, static_cast<int32_t>(f.bitcastToAPInt().getZExtValue()), kNoReg, RegClass::Scalar};
    } else {
      check_type(&call, v->getType());
      if (v->getType()->isVectorTy()) unsupported(&call, "printf of a vector value");
      s = src(v);
    }
    if (s.is_imm && !fits_simm5(s.imm)) s = {false, 0, scalar_reg(s), RegClass::Scalar};
    moves.push_back({vreg_phys(a - 1), s});
    jal.implicit_uses.push_back(vreg_phys(a - 1));
  }
  Src format = src(call.getArgOperand(0));
  uint32_t format_reg = scalar_reg(format);
  for (auto& [phys, s] : moves) {
    if (s.is_imm)
      emit("vmv.v.i", {Operand::def_of(phys), Operand::immediate(s.imm)});
    else if (s.cls == RegClass::Vector)
      emit("vmv.v.v", {Operand::def_of(phys), Operand::use_of(s.reg)});
    else
      emit("vmv.v.x", {Operand::def_of(phys), Operand::use_of(s.reg)});
  }
  emit("mv", {Operand::def_of(kA0), Operand::use_of(format_reg)});
  emit("li", {Operand::def_of(kA0 + 1), Operand::immediate(static_cast<int64_t>(moves.size()))});
  jal.implicit_uses.push_back(kA0);
  jal.implicit_uses.push_back(kA0 + 1);
  cur_->insts.push_back(std::move(jal));
  if (!call.use_empty()) move(result_regs(&call)[0], {true, 0, kNoReg, RegClass::Scalar});
}

// Saturating add/subtract. Sub-word types: exact in 32 bits, then clamped; 32-bit types:
// the wrapped result, corrected where it overflowed (sign tricks, no branches).
void Selector::saturating(llvm::Intrinsic::ID id, unsigned bits, uint32_t dst, Src a, Src b) {
  RegClass cls = mf_.class_of(dst);
  auto imm = [](int64_t v) { return Src{true, v, kNoReg, RegClass::Scalar}; };
  auto op = [&](const IntOp& o, Src x, Src y) {
    uint32_t r = mf_.new_vreg(cls);
    int_op(o, r, x, y);
    return Src{false, 0, r, cls};
  };
  bool is_signed = id == llvm::Intrinsic::sadd_sat || id == llvm::Intrinsic::ssub_sat;
  bool is_add = id == llvm::Intrinsic::uadd_sat || id == llvm::Intrinsic::sadd_sat;
  if (bits < 32) {
    Src x = extend(a, bits, is_signed), y = extend(b, bits, is_signed);
    Src exact = op(is_add ? kAdd : kSub, x, y);
    int64_t lo = is_signed ? -(int64_t{1} << (bits - 1)) : 0;
    int64_t hi = is_signed ? (int64_t{1} << (bits - 1)) - 1 : (int64_t{1} << bits) - 1;
    uint32_t t = mf_.new_vreg(cls);
    minmax(llvm::Intrinsic::smax, t, exact, imm(lo));
    minmax(llvm::Intrinsic::smin, dst, {false, 0, t, cls}, imm(hi));
    return;
  }
  Src wrapped = op(is_add ? kAdd : kSub, a, b);
  if (!is_signed) {
    // Carry/borrow as 0/1, widened to a mask.
    Src carry = is_add ? op(kSltu, wrapped, a) : op(kSltu, a, b);
    Src mask = op(kSub, imm(0), carry);
    if (is_add) {
      int_op(kOr, dst, wrapped, mask);
    } else {
      Src keep = op(kXor, mask, imm(-1));
      int_op(kAnd, dst, wrapped, keep);
    }
    return;
  }
  Src overflow = is_add ? op(kAnd, op(kXor, wrapped, a), op(kXor, wrapped, b))
                        : op(kAnd, op(kXor, a, b), op(kXor, a, wrapped));
  Src mask = op(kSra, overflow, imm(31));
  Src limit = op(kXor, op(kSra, a, imm(31)), imm(0x7fffffff));
  // dst = wrapped ^ ((wrapped ^ limit) & mask)
  int_op(kXor, dst, wrapped, op(kAnd, op(kXor, wrapped, limit), mask));
}

void Selector::minmax(llvm::Intrinsic::ID id, uint32_t dst, Src a, Src b) {
  bool is_signed = id == llvm::Intrinsic::smin || id == llvm::Intrinsic::smax;
  bool is_min = id == llvm::Intrinsic::smin || id == llvm::Intrinsic::umin;
  if (mf_.class_of(dst) == RegClass::Vector) {
    const char* name = is_min ? (is_signed ? "vmin" : "vminu") : (is_signed ? "vmax" : "vmaxu");
    int_op({"", nullptr, name, false, true, false}, dst, a, b);
    return;
  }
  // RV32 has no min/max: d = b ^ ((a ^ b) & -(a < b)) for min, (b < a) for max.
  uint32_t less = new_s(), mask = new_s(), diff = new_s();
  const char* slt = is_signed ? "slt" : "sltu";
  if (is_min)
    emit(slt, {Operand::def_of(less), Operand::use_of(scalar_reg(a)), Operand::use_of(scalar_reg(b))});
  else
    emit(slt, {Operand::def_of(less), Operand::use_of(scalar_reg(b)), Operand::use_of(scalar_reg(a))});
  emit("neg", {Operand::def_of(mask), Operand::use_of(less)});
  int_op(kXor, diff, a, b);
  emit("and", {Operand::def_of(diff), Operand::use_of(diff), Operand::use_of(mask)});
  int_op(kXor, dst, {false, 0, diff, RegClass::Scalar}, b);
}

// Byte swap and bit reversal by swapping ever smaller fields with masks.
void Selector::reverse(llvm::Intrinsic::ID id, unsigned bits, uint32_t dst, Src x) {
  RegClass cls = mf_.class_of(dst);
  auto op = [&](const IntOp& o, Src a, Src b) { return op2(o, cls, a, b); };
  auto imm = [](int64_t v) { return Src{true, v, kNoReg, RegClass::Scalar}; };
  // swap(v, s, m) = ((v >> s) & m) | ((v & m) << s)
  auto swap = [&](Src v, int s, uint32_t m) {
    return op(kOr, op(kAnd, op(kSrl, v, imm(s)), imm(static_cast<int32_t>(m))),
              op(kSll, op(kAnd, v, imm(static_cast<int32_t>(m))), imm(s)));
  };
  Src v = x;
  if (bits == 16) {  // bswap.i16 on the low half; the high half is undefined
    v = op(kOr, op(kAnd, op(kSrl, v, imm(8)), imm(0xff)), op(kSll, v, imm(8)));
    move(dst, v);
    return;
  }
  v = op(kOr, op(kSrl, v, imm(16)), op(kSll, v, imm(16)));
  v = swap(v, 8, 0x00ff00ffu);
  if (id == llvm::Intrinsic::bitreverse) {
    v = swap(v, 4, 0x0f0f0f0fu);
    v = swap(v, 2, 0x33333333u);
    v = swap(v, 1, 0x55555555u);
  }
  move(dst, v);
}

void Selector::bit_count(llvm::Intrinsic::ID id, uint32_t dst, Src x) {
  // Branch-free bit tricks (no Zbb on Ventus).
  RegClass cls = mf_.class_of(dst);
  auto reg = [&](uint32_t r) { return Src{false, 0, r, cls}; };
  auto imm = [](int64_t v) { return Src{true, v, kNoReg, RegClass::Scalar}; };
  auto op = [&](const IntOp& o, Src a, Src b) {
    uint32_t r = mf_.new_vreg(cls);
    int_op(o, r, a, b);
    return reg(r);
  };
  auto popcount = [&](Src v) {
    Src t = op(kSub, v, op(kAnd, op(kSrl, v, imm(1)), imm(0x55555555)));
    t = op(kAdd, op(kAnd, t, imm(0x33333333)), op(kAnd, op(kSrl, t, imm(2)), imm(0x33333333)));
    t = op(kAnd, op(kAdd, t, op(kSrl, t, imm(4))), imm(0x0f0f0f0f));
    return op(kSrl, op(kMul, t, imm(0x01010101)), imm(24));
  };
  Src result;
  if (id == llvm::Intrinsic::ctpop) {
    result = popcount(x);
  } else if (id == llvm::Intrinsic::ctlz) {
    Src v = x;
    for (int s : {1, 2, 4, 8, 16}) v = op(kOr, v, op(kSrl, v, imm(s)));
    result = popcount(op(kXor, v, imm(-1)));
  } else {  // cttz: popcount((x & -x) - 1)
    Src neg = op(kSub, imm(0), x);
    result = popcount(op(kAdd, op(kAnd, x, neg), imm(-1)));
  }
  move(dst, result);
}

void Selector::select_intrinsic(llvm::IntrinsicInst& call) {
  using ID = llvm::Intrinsic::ID;
  ID id = call.getIntrinsicID();
  switch (id) {
    case llvm::Intrinsic::lifetime_start:
    case llvm::Intrinsic::lifetime_end:
    case llvm::Intrinsic::dbg_declare:
    case llvm::Intrinsic::dbg_value:
    case llvm::Intrinsic::dbg_label:
    case llvm::Intrinsic::assume:
    case llvm::Intrinsic::experimental_noalias_scope_decl:
    case llvm::Intrinsic::invariant_start:
    case llvm::Intrinsic::invariant_end:
      return;
    default: break;
  }
  if (!call.getType()->isVoidTy() && is_i64(call.getType()))
    unsupported(&call, fmt::format("the LLVM intrinsic '{}' on 64-bit integers", call.getCalledFunction()->getName().str()));
  const std::vector<uint32_t>& d = result_regs(&call);
  unsigned bits = call.getType()->isVoidTy() ? 32 : int_bits(element_type(call.getType()));
  for (size_t k = 0; k < d.size(); ++k) {
    auto arg = [&](unsigned i) { return src(call.getArgOperand(i), k); };
    bool scalar = mf_.class_of(d[k]) == RegClass::Scalar;
    switch (id) {
      case llvm::Intrinsic::fma:
      case llvm::Intrinsic::fmuladd: {
        // Fold negations of the operands into the fused forms.
        llvm::Value* a = call.getArgOperand(0);
        llvm::Value* b = call.getArgOperand(1);
        llvm::Value* c = call.getArgOperand(2);
        bool neg_product = false, neg_addend = false;
        llvm::Value* inner = nullptr;
        if (llvm::PatternMatch::match(a, llvm::PatternMatch::m_FNeg(llvm::PatternMatch::m_Value(inner)))) {
          a = inner;
          neg_product = true;
        }
        if (llvm::PatternMatch::match(c, llvm::PatternMatch::m_FNeg(llvm::PatternMatch::m_Value(inner)))) {
          c = inner;
          neg_addend = true;
        }
        fma_element(d[k], src(a, k), src(b, k), src(c, k), neg_product, neg_addend);
        break;
      }
      case llvm::Intrinsic::sqrt:
        if (scalar)
          emit("fsqrt.s", {Operand::def_of(d[k]), Operand::use_of(scalar_reg(arg(0)))});
        else
          emit("vfsqrt.v", {Operand::def_of(d[k]), Operand::use_of(vector_reg(arg(0)))});
        break;
      case llvm::Intrinsic::fabs: {
        if (scalar) {
          uint32_t r = scalar_reg(arg(0));
          emit("fsgnjx.s", {Operand::def_of(d[k]), Operand::use_of(r), Operand::use_of(r)});
        } else {
          uint32_t r = vector_reg(arg(0));
          emit("vfsgnjx.vv", {Operand::def_of(d[k]), Operand::use_of(r), Operand::use_of(r)});
        }
        break;
      }
      case llvm::Intrinsic::copysign: {
        Src a = arg(0), b = arg(1);
        if (scalar) {
          emit("fsgnj.s", {Operand::def_of(d[k]), Operand::use_of(scalar_reg(a)), Operand::use_of(scalar_reg(b))});
        } else if (!b.is_imm && b.cls == RegClass::Vector) {
          emit("vfsgnj.vv", {Operand::def_of(d[k]), Operand::use_of(vector_reg(a)), Operand::use_of(b.reg)});
        } else {
          emit("vfsgnj.vf", {Operand::def_of(d[k]), Operand::use_of(vector_reg(a)), Operand::use_of(scalar_reg(b))});
        }
        break;
      }
      case llvm::Intrinsic::minnum: fp_op("fmin.s", "vfmin", d[k], arg(0), arg(1), true); break;
      case llvm::Intrinsic::maxnum: fp_op("fmax.s", "vfmax", d[k], arg(0), arg(1), true); break;
      case llvm::Intrinsic::smin:
      case llvm::Intrinsic::smax:
      case llvm::Intrinsic::umin:
      case llvm::Intrinsic::umax: {
        bool is_signed = id == llvm::Intrinsic::smin || id == llvm::Intrinsic::smax;
        minmax(id, d[k], extend(arg(0), bits, is_signed), extend(arg(1), bits, is_signed));
        break;
      }
      case llvm::Intrinsic::abs: {
        Src a = extend(arg(0), bits, true);
        if (scalar) {
          // max(a, -a) without Zbb: select on the sign.
          uint32_t sign = new_s(), t = new_s();
          uint32_t ra = scalar_reg(a);
          emit("srai", {Operand::def_of(sign), Operand::use_of(ra), Operand::immediate(31)});
          emit("xor", {Operand::def_of(t), Operand::use_of(ra), Operand::use_of(sign)});
          emit("sub", {Operand::def_of(d[k]), Operand::use_of(t), Operand::use_of(sign)});
        } else {
          uint32_t neg = new_v();
          int_op(kSub, neg, {true, 0, kNoReg, RegClass::Scalar}, a);
          emit("vmax.vv", {Operand::def_of(d[k]), Operand::use_of(vector_reg(a)), Operand::use_of(neg)});
        }
        break;
      }
      case llvm::Intrinsic::bitreverse:
      case llvm::Intrinsic::bswap:
        if (bits != 32 && !(bits == 16 && id == llvm::Intrinsic::bswap))
          unsupported(&call, "bit or byte reversal of this width");
        reverse(id, bits, d[k], arg(0));
        break;
      case llvm::Intrinsic::ctpop:
      case llvm::Intrinsic::ctlz:
      case llvm::Intrinsic::cttz:
        if (bits != 32) unsupported(&call, "bit counting on sub-word integers");
        bit_count(id, d[k], arg(0));
        break;
      case llvm::Intrinsic::uadd_sat:
      case llvm::Intrinsic::usub_sat:
      case llvm::Intrinsic::sadd_sat:
      case llvm::Intrinsic::ssub_sat:
        saturating(id, bits, d[k], arg(0), arg(1));
        break;
      case llvm::Intrinsic::fshl:
      case llvm::Intrinsic::fshr: {
        if (bits != 32) {
          // i8/i16 (rotate on char/short): the other word zero-extended, amounts mod bits;
          // a shift by `bits` still fits the 32-bit shifter.
          RegClass cls = mf_.class_of(d[k]);
          bool left = id == llvm::Intrinsic::fshl;
          Src amount = op2(kAnd, cls, arg(2), {true, bits - 1, kNoReg, RegClass::Scalar});
          Src back = op2(kSub, cls, {true, bits, kNoReg, RegClass::Scalar}, amount);
          Src low = extend(arg(1), bits, false);
          Src main = left ? op2(kSll, cls, arg(0), amount) : op2(kSrl, cls, low, amount);
          Src other = left ? op2(kSrl, cls, low, back) : op2(kSll, cls, arg(0), back);
          int_op(kOr, d[k], main, other);
          break;
        }
        // fshl(a, b, s) = (a << s) | (b >> (32 - s)), s mod 32, s = 0 gives a.
        Src a = arg(0), b = arg(1), s = arg(2);
        RegClass cls = mf_.class_of(d[k]);
        if (!s.is_imm) {
          // fshl: (a << s) | ((b >> 1) >> (31 - s)); fshr: (b >> s) | ((a << 1) << (31 - s)),
          // s mod 32 (the 32-bit shifts take it), so that s = 0 shifts the other word out.
          Src amount = op2(kAnd, cls, s, {true, 31, kNoReg, RegClass::Scalar});
          Src back = op2(kSub, cls, {true, 31, kNoReg, RegClass::Scalar}, amount);
          bool left = id == llvm::Intrinsic::fshl;
          Src main = op2(left ? kSll : kSrl, cls, left ? a : b, amount);
          Src other = op2(left ? kSrl : kSll, cls, op2(left ? kSrl : kSll, cls, left ? b : a, {true, 1, kNoReg, RegClass::Scalar}), back);
          int_op(kOr, d[k], main, other);
          break;
        }
        int64_t amount = s.imm & 31;
        if (id == llvm::Intrinsic::fshr) amount = (32 - amount) & 31;
        if (amount == 0) {
          move(d[k], id == llvm::Intrinsic::fshl ? a : b);
          break;
        }
        uint32_t hi = mf_.new_vreg(cls), lo = mf_.new_vreg(cls);
        int_op(kSll, hi, a, {true, amount, kNoReg, RegClass::Scalar});
        int_op(kSrl, lo, b, {true, 32 - amount, kNoReg, RegClass::Scalar});
        int_op(kOr, d[k], {false, 0, hi, cls}, {false, 0, lo, cls});
        break;
      }
      default:
        unsupported(&call, fmt::format("the LLVM intrinsic '{}'", call.getCalledFunction()->getName().str()));
    }
  }
}

void Selector::select_atomic(llvm::Instruction& inst) {
  // Only scalar AMOs exist: a loop takes the active threads one at a time (the last
  // active lane, as vmv.x.s reads it), performs its AMO and writes its result lane, then
  // retires that lane with a vector branch (docs/compiler.md).
  llvm::Value* pointer;
  std::string op;
  llvm::Value* value = nullptr;
  llvm::Value* compare = nullptr;
  if (auto* rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&inst)) {
    pointer = rmw->getPointerOperand();
    value = rmw->getValOperand();
    using B = llvm::AtomicRMWInst::BinOp;
    switch (rmw->getOperation()) {
      case B::Xchg: op = "amoswap.w"; break;
      case B::Add: op = "amoadd.w"; break;
      case B::Sub: op = "amoadd.w"; break;  // negated operand below
      case B::And: op = "amoand.w"; break;
      case B::Or: op = "amoor.w"; break;
      case B::Xor: op = "amoxor.w"; break;
      case B::Max: op = "amomax.w"; break;
      case B::Min: op = "amomin.w"; break;
      case B::UMax: op = "amomaxu.w"; break;
      case B::UMin: op = "amominu.w"; break;
      default: unsupported(&inst, "this atomic operation");
    }
    if (rmw->getOperation() == B::Sub) op = "amosub";
  } else {
    auto* cx = llvm::cast<llvm::AtomicCmpXchgInst>(&inst);
    pointer = cx->getPointerOperand();
    value = cx->getNewValOperand();
    compare = cx->getCompareOperand();
    op = "cmpxchg";
  }
  if (value->getType()->isFloatTy() || value->getType()->isIntegerTy(32) || value->getType()->isPointerTy()) {
  } else {
    unsupported(&inst, "an atomic operation on a type other than 32-bit int or float");
  }
  if (pointer->getType()->getPointerAddressSpace() == 0) unsupported(&inst, "an atomic operation on private memory");
  uint32_t result = compare ? new_v() : result_regs(&inst)[0];
  Src addr = src(pointer), val = src(value);
  MInst pseudo;
  pseudo.op = "@atomic";
  pseudo.comment = op;
  auto operand = [&](const Src& s) {
    return Operand::use_of(s.is_imm ? scalar_reg(s) : s.reg);
  };
  Operand res = Operand::def_of(result);
  res.early_clobber = true;
  pseudo.ops.push_back(res);
  pseudo.ops.push_back(operand(addr));
  pseudo.ops.push_back(operand(val));
  pseudo.ops.push_back(compare ? operand(src(compare)) : Operand::use_of(kZero));
  for (int t = 0; t < 2; ++t) {
    Operand tmp = Operand::def_of(new_v());
    tmp.early_clobber = true;
    pseudo.ops.push_back(tmp);
  }
  for (int t = 0; t < 3; ++t) {
    Operand tmp = Operand::def_of(new_s());
    tmp.early_clobber = true;
    pseudo.ops.push_back(tmp);
  }
  pseudo.implicit_defs.push_back(vreg_phys(0));
  cur_->insts.push_back(std::move(pseudo));
  if (compare) {
    // LLVM's cmpxchg returns { old value, success }: success = (old == compare).
    uint32_t success = new_v();
    icmp_element(llvm::CmpInst::ICMP_EQ, success, {false, 0, result, RegClass::Vector}, src(compare));
    cmpxchg_parts_[&inst] = {result, success};
  }
}

void Selector::select_phi_copies(llvm::BasicBlock& from, llvm::BasicBlock& to) {
  std::vector<std::pair<uint32_t, Src>> copies;
  for (llvm::PHINode& phi : to.phis()) {
    const std::vector<uint32_t>& d = result_regs(&phi);
    llvm::Value* incoming = phi.getIncomingValueForBlock(&from);
    for (size_t k = 0; k < d.size(); ++k) copies.push_back({d[k], src(incoming, k)});
  }
  if (copies.empty()) return;
  // A phi may read another phi of the same block (a swap): copy through temporaries then.
  bool conflict = false;
  for (auto& [dst, s] : copies)
    for (auto& [dst2, s2] : copies)
      if (!s2.is_imm && s2.reg == dst) conflict = true;
  if (conflict) {
    for (auto& [dst, s] : copies) {
      uint32_t t = mf_.new_vreg(mf_.class_of(dst));
      move(t, s);
      s = {false, 0, t, mf_.class_of(t)};
    }
  }
  for (auto& [dst, s] : copies) move(dst, s);
}

void Selector::select_ret(llvm::ReturnInst& ret) {
  MInst r = inst("@ret", {});
  r.is_terminator = true;
  if (llvm::Value* value = ret.getReturnValue()) {
    if (mf_.is_kernel) unsupported(&ret, "a kernel returning a value");
    check_type(&ret, value->getType());
    unsigned n = elements(value->getType());
    if (n > 16) unsupported(&ret, "a result of more than 16 registers");
    std::vector<Src> parts;
    for (unsigned k = 0; k < n; ++k) {
      Src s = src(value, k);
      if (s.is_imm && !fits_simm5(s.imm)) s = {false, 0, scalar_reg(s), RegClass::Scalar};
      parts.push_back(s);
    }
    for (unsigned k = 0; k < n; ++k) {
      uint32_t phys = vreg_phys(k);
      const Src& s = parts[k];
      if (s.is_imm)
        emit("vmv.v.i", {Operand::def_of(phys), Operand::immediate(s.imm)});
      else if (s.cls == RegClass::Vector)
        emit("vmv.v.v", {Operand::def_of(phys), Operand::use_of(s.reg)});
      else
        emit("vmv.v.x", {Operand::def_of(phys), Operand::use_of(s.reg)});
      r.implicit_uses.push_back(phys);
    }
  }
  cur_->insts.push_back(std::move(r));
}

void Selector::select_cond_branch(llvm::BranchInst& br) {
  llvm::BasicBlock* bb = br.getParent();
  int taken = block_index_[br.getSuccessor(0)];
  int other = block_index_[br.getSuccessor(1)];
  llvm::Value* cond = br.getCondition();
  bool divergent = div_.divergent(cond);
  auto* cmp = llvm::dyn_cast<llvm::ICmpInst>(cond);
  bool fused = cmp && folded_.contains(cmp);
  auto label = [&](int b) { return Operand::label(mf_.blocks[b].label); };
  auto finish = [&]() {
    MInst j = inst("j", {label(other)});
    j.is_terminator = true;
    cur_->insts.push_back(std::move(j));
  };
  // Compare-and-branch mnemonic for a predicate: {name, swap operands}.
  auto branch_form = [](llvm::CmpInst::Predicate p) -> std::pair<const char*, bool> {
    using P = llvm::CmpInst::Predicate;
    switch (p) {
      case P::ICMP_EQ: return {"beq", false};
      case P::ICMP_NE: return {"bne", false};
      case P::ICMP_SLT: return {"blt", false};
      case P::ICMP_SGE: return {"bge", false};
      case P::ICMP_ULT: return {"bltu", false};
      case P::ICMP_UGE: return {"bgeu", false};
      case P::ICMP_SGT: return {"blt", true};
      case P::ICMP_SLE: return {"bge", true};
      case P::ICMP_UGT: return {"bltu", true};
      case P::ICMP_ULE: return {"bgeu", true};
      default: return {"", false};
    }
  };
  if (!divergent) {
    if (fused) {
      auto [name, swap] = branch_form(cmp->getPredicate());
      Src a = src(cmp->getOperand(0)), b = src(cmp->getOperand(1));
      if (swap) std::swap(a, b);
      MInst b_inst = inst(name, {Operand::use_of(scalar_reg(a)), Operand::use_of(scalar_reg(b)), label(taken)});
      cur_->insts.push_back(std::move(b_inst));
    } else {
      Src c = src(cond);
      if (c.is_imm) {
        MInst j = inst("j", {label(c.imm ? taken : other)});
        j.is_terminator = true;
        cur_->insts.push_back(std::move(j));
        return;
      }
      cur_->insts.push_back(inst("bnez", {Operand::use_of(c.reg), label(taken)}));
    }
    return finish();
  }
  // Divergent: threads split; they meet again at the immediate post-dominator.
  llvm::DomTreeNode* node = pdt_.getNode(bb);
  if (!node || !node->getIDom() || !node->getIDom()->getBlock())
    unsupported(&br, "a divergent branch without a point where its threads meet again "
                     "(an infinite loop?)");
  int join = block_index_[node->getIDom()->getBlock()];
  mf_.blocks[join].needs_join = true;
  MFunction::DivergentRegion region{block_index_[bb], {}};
  llvm::DenseSet<llvm::BasicBlock*> blocks;
  collect_region(bb, node->getIDom()->getBlock(), blocks);
  for (llvm::BasicBlock* b : blocks) region.blocks.push_back(block_index_[b]);
  mf_.divergent_regions.push_back(std::move(region));

  uint32_t rpc = new_s();
  std::string anchor = fmt::format(".Lrpc_{}_{}", mf_.name, label_counter_++);
  emit("", {Operand::label(anchor)});
  emit("auipc", {Operand::def_of(rpc), Operand::literal(fmt::format("%pcrel_hi({})", mf_.blocks[join].label))});
  emit("setrpc", {Operand::use_of(kZero), Operand::use_of(rpc), Operand::literal(fmt::format("%pcrel_lo({})", anchor))});
  std::string name = "vbne";
  uint32_t x, y;
  if (fused) {
    auto [n, swap] = branch_form(cmp->getPredicate());
    name = std::string("v") + n;
    Src a = src(cmp->getOperand(0)), b = src(cmp->getOperand(1));
    if (swap) std::swap(a, b);
    x = vector_reg(a);
    y = vector_reg(b);
  } else {
    x = vector_reg(src(cond));
    y = vector_reg({true, 0, kNoReg, RegClass::Scalar});
  }
  cur_->insts.push_back(inst(name, {Operand::use_of(x), Operand::use_of(y), label(taken)}));
  finish();
}

void Selector::select_terminator(llvm::Instruction& inst) {
  if (auto* ret = llvm::dyn_cast<llvm::ReturnInst>(&inst)) return select_ret(*ret);
  if (auto* br = llvm::dyn_cast<llvm::BranchInst>(&inst)) {
    if (br->isConditional()) return select_cond_branch(*br);
    MInst j = Selector::inst("j", {Operand::label(mf_.blocks[block_index_[br->getSuccessor(0)]].label)});
    j.is_terminator = true;
    cur_->insts.push_back(std::move(j));
    return;
  }
  if (llvm::isa<llvm::UnreachableInst>(inst)) {
    MInst u = Selector::inst("unimp", {});
    u.is_terminator = true;
    cur_->insts.push_back(std::move(u));
    return;
  }
  unsupported(&inst, fmt::format("the '{}' terminator", inst.getOpcodeName()));
}

}  // namespace

std::vector<KernelArgument> kernel_arguments(const llvm::Function& kernel) {
  const llvm::DataLayout& dl = kernel.getParent()->getDataLayout();
  std::vector<KernelArgument> out;
  uint32_t offset = 0;
  auto md_string = [&](const char* kind, unsigned i) -> std::string {
    if (llvm::MDNode* node = kernel.getMetadata(kind))
      if (i < node->getNumOperands())
        if (auto* s = llvm::dyn_cast<llvm::MDString>(node->getOperand(i))) return s->getString().str();
    return "";
  };
  for (const llvm::Argument& arg : kernel.args()) {
    KernelArgument a;
    a.name = md_string("kernel_arg_name", arg.getArgNo());
    if (a.name.empty()) a.name = arg.getName().str();
    a.type_name = md_string("kernel_arg_type", arg.getArgNo());
    a.qualifiers = md_string("kernel_arg_type_qual", arg.getArgNo());
    llvm::Type* t = arg.getType();
    uint32_t size = 0, align = 4;
    if (arg.hasByValAttr()) {
      a.address_space = "private";
      size = static_cast<uint32_t>(dl.getTypeAllocSize(arg.getParamByValType()));
      align = std::max<uint32_t>(4, static_cast<uint32_t>(arg.getParamAlign().valueOrOne().value()));
    } else if (t->isPointerTy()) {
      switch (t->getPointerAddressSpace()) {
        case 1: a.address_space = "global"; break;
        case 2: a.address_space = "constant"; break;
        case 3: a.address_space = "local"; break;
        default: a.address_space = "private"; break;
      }
      size = 4;
    } else {
      a.address_space = "private";
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
