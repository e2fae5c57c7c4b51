// The back end's driver: IR lowering the selector relies on, then per function
// selection -> register allocation -> emission, then global data and kernel metadata.
#include "backend.h"

#include <fmt/format.h>

#include <llvm/Analysis/TargetTransformInfo.h>
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Transforms/Scalar/InferAddressSpaces.h>
#include <llvm/Transforms/Utils/BreakCriticalEdges.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/LowerMemIntrinsics.h>
#include <llvm/Transforms/Utils/LowerSwitch.h>
#include <llvm/Transforms/Utils/UnifyFunctionExitNodes.h>

#include <set>

#include "emit.h"
#include "isel.h"
#include "regalloc.h"
#include "ventus/device.h"
#include "ventus/error.h"
#include "ventus/runtime.h"

namespace ventus::cc::backend {

namespace {

// The end of the __local variables function f addresses (their layout is the module's): a
// kernel needs the local data up to the highest end among the functions it reaches, not
// the whole module's, so a kernel without __local variables is not charged for another's.
uint32_t local_data_end(const llvm::Function& f, const ModuleLayout& layout,
                        const llvm::DataLayout& dl) {
  uint32_t end = 0;
  std::set<const llvm::Value*> seen;
  std::vector<const llvm::Value*> work;
  for (const llvm::Instruction& inst : llvm::instructions(f))
    for (const llvm::Use& op : inst.operands()) work.push_back(op.get());
  while (!work.empty()) {
    const llvm::Value* v = work.back();
    work.pop_back();
    if (!seen.insert(v).second) continue;
    if (auto* gv = llvm::dyn_cast<llvm::GlobalVariable>(v)) {
      if (auto it = layout.local_offsets.find(gv); it != layout.local_offsets.end())
        end = std::max(end, it->second +
                                static_cast<uint32_t>(dl.getTypeAllocSize(gv->getValueType())));
    } else if (auto* c = llvm::dyn_cast<llvm::ConstantExpr>(v)) {
      for (const llvm::Use& op : c->operands()) work.push_back(op.get());
    }
  }
  return end;
}

// SPIR's address spaces, as clang gives them.
constexpr unsigned kPrivateAddressSpace = 0, kGlobalAddressSpace = 1, kConstantAddressSpace = 2;

// Constant expressions (a GEP into a global, a cast of one) become instructions so the
// selector sees every address computation as an instruction.
void expand_constant_expressions(llvm::Function& f) {
  bool changed = true;
  while (changed) {
    changed = false;
    for (llvm::Instruction& inst : llvm::instructions(f)) {
      for (unsigned i = 0; i < inst.getNumOperands(); ++i) {
        auto* ce = llvm::dyn_cast<llvm::ConstantExpr>(inst.getOperand(i));
        if (!ce) continue;
        llvm::Instruction* insert_before = &inst;
        if (auto* phi = llvm::dyn_cast<llvm::PHINode>(&inst))
          insert_before = phi->getIncomingBlock(i)->getTerminator();
        llvm::Instruction* expanded = ce->getAsInstruction(insert_before);
        inst.setOperand(i, expanded);
        changed = true;
      }
      if (changed) break;
    }
  }
}

void expand_memory_intrinsics(llvm::Function& f) {
  llvm::TargetTransformInfo tti(f.getParent()->getDataLayout());
  std::vector<llvm::Instruction*> calls;
  for (llvm::Instruction& inst : llvm::instructions(f))
    if (llvm::isa<llvm::MemIntrinsic>(inst)) calls.push_back(&inst);
  for (llvm::Instruction* inst : calls) {
    if (auto* cpy = llvm::dyn_cast<llvm::MemCpyInst>(inst))
      llvm::expandMemCpyAsLoop(cpy, tti);
    else if (auto* mov = llvm::dyn_cast<llvm::MemMoveInst>(inst))
      llvm::expandMemMoveAsLoop(mov);
    else if (auto* set = llvm::dyn_cast<llvm::MemSetInst>(inst))
      llvm::expandMemSetAsLoop(set);
    else
      continue;
    inst->eraseFromParent();
  }
}

// The double operations that have no pair instruction become integer code on the value's
// bits (an i64, two registers) before selection: compares, negation, fabs, copysign.
// Compares order the bits as sign-magnitude integers (key = x or -(x & ~sign), so that
// -0 == +0) after ruling out NaNs (magnitude above the infinity's); unordered predicates
// are true when either operand is a NaN. Vectors go element by element.
llvm::Value* fcmp64(llvm::IRBuilder<>& b, llvm::CmpInst::Predicate pred, llvm::Value* x,
                    llvm::Value* y) {
  using P = llvm::CmpInst::Predicate;
  llvm::Type* i64 = b.getInt64Ty();
  llvm::Value* magnitude_mask = llvm::ConstantInt::get(i64, 0x7fffffffffffffffull);
  llvm::Value* infinity = llvm::ConstantInt::get(i64, 0x7ff0000000000000ull);
  llvm::Value* xi = b.CreateBitCast(x, i64);
  llvm::Value* yi = b.CreateBitCast(y, i64);
  llvm::Value* xm = b.CreateAnd(xi, magnitude_mask);
  llvm::Value* ym = b.CreateAnd(yi, magnitude_mask);
  llvm::Value* unordered = b.CreateOr(b.CreateICmpUGT(xm, infinity), b.CreateICmpUGT(ym, infinity));
  auto key = [&](llvm::Value* bits, llvm::Value* magnitude) {
    llvm::Value* zero = llvm::ConstantInt::get(i64, 0);
    return b.CreateSelect(b.CreateICmpSLT(bits, zero), b.CreateSub(zero, magnitude), bits);
  };
  llvm::Value* kx = key(xi, xm);
  llvm::Value* ky = key(yi, ym);
  P ordered_pred = pred;
  bool is_unordered = llvm::CmpInst::isUnordered(pred);
  switch (pred) {
    case P::FCMP_FALSE: return b.getFalse();
    case P::FCMP_TRUE: return b.getTrue();
    case P::FCMP_ORD: return b.CreateNot(unordered);
    case P::FCMP_UNO: return unordered;
    default: break;
  }
  // FCMP_U.. = FCMP_O.. | 8 (LLVM's encoding: the unordered bit).
  if (is_unordered) ordered_pred = static_cast<P>(pred & 7);
  P ipred;
  switch (ordered_pred) {
    case P::FCMP_OEQ: ipred = P::ICMP_EQ; break;
    case P::FCMP_ONE: ipred = P::ICMP_NE; break;
    case P::FCMP_OLT: ipred = P::ICMP_SLT; break;
    case P::FCMP_OLE: ipred = P::ICMP_SLE; break;
    case P::FCMP_OGT: ipred = P::ICMP_SGT; break;
    case P::FCMP_OGE: ipred = P::ICMP_SGE; break;
    default: throw Error("internal: fcmp predicate");
  }
  llvm::Value* compare = b.CreateICmp(ipred, kx, ky);
  return is_unordered ? b.CreateOr(unordered, compare)
                      : b.CreateAnd(b.CreateNot(unordered), compare);
}

void expand_fp64_operations(llvm::Function& f) {
  std::vector<llvm::Instruction*> work;
  for (llvm::Instruction& inst : llvm::instructions(f)) {
    if (auto* cmp = llvm::dyn_cast<llvm::FCmpInst>(&inst)) {
      if (cmp->getOperand(0)->getType()->getScalarType()->isDoubleTy()) work.push_back(cmp);
    } else if (inst.getOpcode() == llvm::Instruction::FNeg) {
      if (inst.getType()->getScalarType()->isDoubleTy()) work.push_back(&inst);
    } else if (auto* call = llvm::dyn_cast<llvm::IntrinsicInst>(&inst)) {
      if ((call->getIntrinsicID() == llvm::Intrinsic::fabs ||
           call->getIntrinsicID() == llvm::Intrinsic::copysign) &&
          call->getType()->getScalarType()->isDoubleTy())
        work.push_back(call);
    }
  }
  for (llvm::Instruction* inst : work) {
    llvm::IRBuilder<> b(inst);
    llvm::Type* i64 = b.getInt64Ty();
    llvm::Type* f64 = b.getDoubleTy();
    llvm::Value* sign = llvm::ConstantInt::get(i64, 0x8000000000000000ull);
    llvm::Value* magnitude = llvm::ConstantInt::get(i64, 0x7fffffffffffffffull);
    auto element = [&](unsigned i) -> llvm::Value* {
      auto operand = [&](unsigned n) {
        llvm::Value* v = inst->getOperand(n);
        return v->getType()->isVectorTy() ? b.CreateExtractElement(v, i) : v;
      };
      if (auto* cmp = llvm::dyn_cast<llvm::FCmpInst>(inst))
        return fcmp64(b, cmp->getPredicate(), operand(0), operand(1));
      llvm::Value* x = b.CreateBitCast(operand(0), i64);
      llvm::Value* r;
      if (inst->getOpcode() == llvm::Instruction::FNeg)
        r = b.CreateXor(x, sign);
      else if (llvm::cast<llvm::IntrinsicInst>(inst)->getIntrinsicID() == llvm::Intrinsic::fabs)
        r = b.CreateAnd(x, magnitude);
      else
        r = b.CreateOr(b.CreateAnd(x, magnitude),
                       b.CreateAnd(b.CreateBitCast(operand(1), i64), sign));
      return b.CreateBitCast(r, f64);
    };
    llvm::Value* result;
    if (auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(inst->getType())) {
      result = llvm::PoisonValue::get(vector);
      for (unsigned i = 0; i < vector->getNumElements(); ++i)
        result = b.CreateInsertElement(result, element(i), i);
    } else {
      result = element(0);
    }
    inst->replaceAllUsesWith(result);
    inst->eraseFromParent();
  }
}

// llvm.abs/smin/smax/umin/umax on 64-bit integers (InstCombine makes them from compares
// and selects, in the library's 64-bit division among others) become the compare and
// select again: the selector has both for register pairs. The saturating add and subtract
// become the wrapped result and a select on its overflow test.
void expand_int64_intrinsics(llvm::Function& f) {
  std::vector<llvm::IntrinsicInst*> calls;
  for (llvm::Instruction& inst : llvm::instructions(f))
    if (auto* call = llvm::dyn_cast<llvm::IntrinsicInst>(&inst)) {
      switch (call->getIntrinsicID()) {
        case llvm::Intrinsic::abs:
        case llvm::Intrinsic::smin:
        case llvm::Intrinsic::smax:
        case llvm::Intrinsic::umin:
        case llvm::Intrinsic::umax:
        case llvm::Intrinsic::uadd_sat:
        case llvm::Intrinsic::usub_sat:
        case llvm::Intrinsic::sadd_sat:
        case llvm::Intrinsic::ssub_sat:
          if (call->getType()->getScalarType()->isIntegerTy(64)) calls.push_back(call);
          break;
        default: break;
      }
    }
  for (llvm::IntrinsicInst* call : calls) {
    llvm::IRBuilder<> b(call);
    llvm::Value* x = call->getArgOperand(0);
    llvm::Type* t = x->getType();
    llvm::Value* zero = llvm::Constant::getNullValue(t);
    llvm::Value* result = nullptr;
    switch (call->getIntrinsicID()) {
      case llvm::Intrinsic::abs:
        result = b.CreateSelect(b.CreateICmpSLT(x, zero), b.CreateSub(zero, x), x);
        break;
      case llvm::Intrinsic::uadd_sat: {
        llvm::Value* sum = b.CreateAdd(x, call->getArgOperand(1));
        result = b.CreateSelect(b.CreateICmpULT(sum, x), llvm::Constant::getAllOnesValue(t), sum);
        break;
      }
      case llvm::Intrinsic::usub_sat: {
        llvm::Value* y = call->getArgOperand(1);
        result = b.CreateSelect(b.CreateICmpULT(x, y), zero, b.CreateSub(x, y));
        break;
      }
      case llvm::Intrinsic::sadd_sat:
      case llvm::Intrinsic::ssub_sat: {
        // Overflow: the operands' signs allow it and the result's sign differs from x's;
        // the limit then has x's sign (INT64_MIN for negative x, INT64_MAX otherwise).
        const bool add = call->getIntrinsicID() == llvm::Intrinsic::sadd_sat;
        llvm::Value* y = call->getArgOperand(1);
        llvm::Value* wrapped = add ? b.CreateAdd(x, y) : b.CreateSub(x, y);
        llvm::Value* sign_change = b.CreateXor(x, wrapped);
        llvm::Value* overflow_bits =
            b.CreateAnd(sign_change, add ? b.CreateXor(y, wrapped) : b.CreateXor(x, y));
        llvm::Value* limit = b.CreateXor(b.CreateAShr(x, llvm::ConstantInt::get(t, 63)),
                                         llvm::ConstantInt::get(t, uint64_t{0x7fffffffffffffff}));
        result = b.CreateSelect(b.CreateICmpSLT(overflow_bits, zero), limit, wrapped);
        break;
      }
      default: {
        llvm::Value* y = call->getArgOperand(1);
        llvm::CmpInst::Predicate pred = llvm::CmpInst::ICMP_SLT;
        switch (call->getIntrinsicID()) {
          case llvm::Intrinsic::smax: pred = llvm::CmpInst::ICMP_SGT; break;
          case llvm::Intrinsic::umin: pred = llvm::CmpInst::ICMP_ULT; break;
          case llvm::Intrinsic::umax: pred = llvm::CmpInst::ICMP_UGT; break;
          default: break;
        }
        result = b.CreateSelect(b.CreateICmp(pred, x, y), x, y);
      }
    }
    call->replaceAllUsesWith(result);
    call->eraseFromParent();
  }
}

// GVN forwards bytes between loads of different vector types (a uint4 read from inside a
// float16) through a vector of integers wider than 64 bits: extractelement (bitcast X to
// <M x i128>), C, then a bitcast to a legal type. Those become a shufflevector of X's
// elements (register moves), bitcast to that type directly.
void narrow_wide_integer_extracts(llvm::Function& f) {
  std::vector<llvm::BitCastInst*> wide_casts;
  for (llvm::Instruction& inst : llvm::instructions(f))
    if (auto* cast = llvm::dyn_cast<llvm::BitCastInst>(&inst))
      if (auto* to = llvm::dyn_cast<llvm::FixedVectorType>(cast->getType());
          to && to->getElementType()->isIntegerTy() && to->getScalarSizeInBits() > 64 &&
          llvm::isa<llvm::FixedVectorType>(cast->getSrcTy()))
        wide_casts.push_back(cast);
  for (llvm::BitCastInst* cast : wide_casts) {
    auto* from = llvm::cast<llvm::FixedVectorType>(cast->getSrcTy());
    auto* to = llvm::cast<llvm::FixedVectorType>(cast->getType());
    if (from->getNumElements() % to->getNumElements() != 0) continue;
    const unsigned per_element = from->getNumElements() / to->getNumElements();
    for (llvm::User* user : llvm::make_early_inc_range(cast->users())) {
      auto* extract = llvm::dyn_cast<llvm::ExtractElementInst>(user);
      auto* index =
          extract ? llvm::dyn_cast<llvm::ConstantInt>(extract->getIndexOperand()) : nullptr;
      if (!index) continue;
      llvm::SmallVector<int, 16> mask;
      for (unsigned k = 0; k < per_element; ++k)
        mask.push_back(static_cast<int>(index->getZExtValue() * per_element + k));
      for (llvm::User* use : llvm::make_early_inc_range(extract->users()))
        if (auto* narrow = llvm::dyn_cast<llvm::BitCastInst>(use)) {
          llvm::IRBuilder<> b(narrow);
          llvm::Value* part = b.CreateShuffleVector(cast->getOperand(0), mask);
          narrow->replaceAllUsesWith(b.CreateBitCast(part, narrow->getType()));
          narrow->eraseFromParent();
        }
      if (extract->use_empty()) extract->eraseFromParent();
    }
    if (cast->use_empty()) cast->eraseFromParent();
  }
}

// SROA turns a private array written as one type and read as another (an int4 copied into
// a buffer read as halves, as in vload_half8 of a private pointer) into one wide integer: a
// load of i128, or a bitcast of a vector to i128, that is sliced (trunc, lshr by a constant
// then trunc) or stored whole. The wide value becomes a vector of 32-bit words and each slice
// is assembled from the words it spans; a wide integer used any other way is left to the
// selector, which names it.
void split_wide_integers(llvm::Function& f) {
  auto is_slice = [](const llvm::User* user) {
    return llvm::isa<llvm::TruncInst>(user) && user->getType()->getIntegerBitWidth() <= 64;
  };
  auto splittable = [&](const llvm::Instruction* wide) {
    const unsigned width = wide->getType()->getIntegerBitWidth();
    for (const llvm::User* user : wide->users()) {
      if (is_slice(user)) continue;
      if (auto* store = llvm::dyn_cast<llvm::StoreInst>(user);
          store && store->getValueOperand() == wide)
        continue;
      auto* shift = llvm::dyn_cast<llvm::BinaryOperator>(user);
      auto* amount = shift ? llvm::dyn_cast<llvm::ConstantInt>(shift->getOperand(1)) : nullptr;
      if (amount && shift->getOpcode() == llvm::Instruction::LShr && shift->getOperand(0) == wide &&
          amount->getZExtValue() < width && llvm::all_of(shift->users(), is_slice))
        continue;
      return false;
    }
    return true;
  };
  std::vector<llvm::Instruction*> wides;
  for (llvm::Instruction& inst : llvm::instructions(f))
    if (inst.getType()->isIntegerTy() && inst.getType()->getIntegerBitWidth() > 64 &&
        inst.getType()->getIntegerBitWidth() % 32 == 0 &&
        (llvm::isa<llvm::LoadInst>(inst) ||
         (llvm::isa<llvm::BitCastInst>(inst) && inst.getOperand(0)->getType()->isVectorTy())) &&
        splittable(&inst))
      wides.push_back(&inst);
  for (llvm::Instruction* wide : wides) {
    const unsigned words = wide->getType()->getIntegerBitWidth() / 32;
    auto* words_type = llvm::FixedVectorType::get(llvm::Type::getInt32Ty(f.getContext()), words);
    llvm::IRBuilder<> b(wide);
    llvm::Value* vector;
    if (auto* load = llvm::dyn_cast<llvm::LoadInst>(wide))
      vector = b.CreateAlignedLoad(words_type, load->getPointerOperand(), load->getAlign(),
                                   load->isVolatile());
    else
      vector = b.CreateBitCast(wide->getOperand(0), words_type);
    // Bits [first, first + bits) of the value, bits <= 64, built before `at`.
    auto slice = [&](llvm::Instruction* at, uint64_t first, unsigned bits) {
      llvm::IRBuilder<> s(at);
      auto word_at = [&](uint64_t bit) -> llvm::Value* {  // 32 bits from `bit`, zeros beyond
        const uint64_t word = bit / 32, offset = bit % 32;
        if (word >= words) return s.getInt32(0);
        llvm::Value* low = s.CreateExtractElement(vector, word);
        if (offset == 0) return low;
        low = s.CreateLShr(low, offset);
        if (word + 1 == words) return low;
        return s.CreateOr(low, s.CreateShl(s.CreateExtractElement(vector, word + 1), 32 - offset));
      };
      llvm::Value* value = word_at(first);
      if (bits > 32)
        value = s.CreateOr(s.CreateZExt(value, s.getInt64Ty()),
                           s.CreateShl(s.CreateZExt(word_at(first + 32), s.getInt64Ty()), 32));
      return s.CreateZExtOrTrunc(value, s.getIntNTy(bits));
    };
    auto replace_slice = [&](llvm::User* user, uint64_t first) {
      auto* trunc = llvm::cast<llvm::TruncInst>(user);
      trunc->replaceAllUsesWith(slice(trunc, first, trunc->getType()->getIntegerBitWidth()));
      trunc->eraseFromParent();
    };
    for (llvm::User* user : llvm::make_early_inc_range(wide->users())) {
      if (auto* store = llvm::dyn_cast<llvm::StoreInst>(user)) {
        llvm::IRBuilder<> s(store);
        s.CreateAlignedStore(vector, store->getPointerOperand(), store->getAlign(),
                             store->isVolatile());
        store->eraseFromParent();
      } else if (llvm::isa<llvm::TruncInst>(user)) {
        replace_slice(user, 0);
      } else {
        auto* shift = llvm::cast<llvm::Instruction>(user);
        const uint64_t first = llvm::cast<llvm::ConstantInt>(shift->getOperand(1))->getZExtValue();
        for (llvm::User* piece : llvm::make_early_inc_range(shift->users()))
          replace_slice(piece, first);
        shift->eraseFromParent();
      }
    }
    wide->eraseFromParent();
  }
}

// A vector element selected by a variable index (`v[k]` on an OpenCL vector; at -O0 a loop
// over the elements keeps it) becomes a select per element: vectors live in registers, one
// element each, and have no address to index.
void expand_variable_element_indices(llvm::Function& f) {
  std::vector<llvm::Instruction*> accesses;
  for (llvm::Instruction& inst : llvm::instructions(f))
    if ((llvm::isa<llvm::ExtractElementInst>(inst) &&
         !llvm::isa<llvm::Constant>(inst.getOperand(1))) ||
        (llvm::isa<llvm::InsertElementInst>(inst) &&
         !llvm::isa<llvm::Constant>(inst.getOperand(2))))
      accesses.push_back(&inst);
  for (llvm::Instruction* access : accesses) {
    llvm::IRBuilder<> b(access);
    llvm::Value* vector = access->getOperand(0);
    const unsigned n = llvm::cast<llvm::FixedVectorType>(vector->getType())->getNumElements();
    llvm::Value* result;
    if (auto* extract = llvm::dyn_cast<llvm::ExtractElementInst>(access)) {
      llvm::Value* index = extract->getIndexOperand();
      result = b.CreateExtractElement(vector, uint64_t{0});
      for (unsigned k = 1; k < n; ++k)
        result = b.CreateSelect(b.CreateICmpEQ(index, llvm::ConstantInt::get(index->getType(), k)),
                                b.CreateExtractElement(vector, uint64_t{k}), result);
    } else {
      llvm::Value* element = access->getOperand(1);
      llvm::Value* index = access->getOperand(2);
      result = vector;
      for (unsigned k = 0; k < n; ++k) {
        llvm::Value* here = b.CreateICmpEQ(index, llvm::ConstantInt::get(index->getType(), k));
        llvm::Value* old = b.CreateExtractElement(vector, uint64_t{k});
        result = b.CreateInsertElement(result, b.CreateSelect(here, element, old), uint64_t{k});
      }
    }
    access->replaceAllUsesWith(result);
    access->eraseFromParent();
  }
}

// Funnel shifts of 64-bit integers (rotate(long)) as two shifts and an or; a zero
// amount selects the first operand (the shifts by 64 it implies would be poison).
void expand_int64_funnel_shifts(llvm::Function& f) {
  std::vector<llvm::IntrinsicInst*> calls;
  for (llvm::Instruction& inst : llvm::instructions(f))
    if (auto* call = llvm::dyn_cast<llvm::IntrinsicInst>(&inst))
      if (call->getType()->getScalarType()->isIntegerTy(64) &&
          (call->getIntrinsicID() == llvm::Intrinsic::fshl || call->getIntrinsicID() == llvm::Intrinsic::fshr))
        calls.push_back(call);
  for (llvm::IntrinsicInst* call : calls) {
    llvm::IRBuilder<> b(call);
    llvm::Value* x = call->getArgOperand(0);
    llvm::Value* y = call->getArgOperand(1);
    llvm::Type* t = x->getType();
    llvm::Value* amount = b.CreateAnd(call->getArgOperand(2), llvm::ConstantInt::get(t, 63));
    llvm::Value* back = b.CreateSub(llvm::ConstantInt::get(t, 64), amount);
    bool left = call->getIntrinsicID() == llvm::Intrinsic::fshl;
    llvm::Value* joined = left ? b.CreateOr(b.CreateShl(x, amount), b.CreateLShr(y, back))
                               : b.CreateOr(b.CreateLShr(y, amount), b.CreateShl(x, back));
    llvm::Value* zero = b.CreateICmpEQ(amount, llvm::Constant::getNullValue(t));
    call->replaceAllUsesWith(b.CreateSelect(zero, left ? x : y, joined));
    call->eraseFromParent();
  }
}

// A kernel called from device code (OpenCL allows it) is an ordinary function there:
// the calls go to a copy with the device-function convention (arguments in vector
// registers), the kernel itself stays the launch entry.
void clone_called_kernels(llvm::Module& m) {
  std::vector<llvm::Function*> kernels;
  for (llvm::Function& f : m)
    if (f.getCallingConv() == llvm::CallingConv::SPIR_KERNEL && !f.isDeclaration()) kernels.push_back(&f);
  for (llvm::Function* kernel : kernels) {
    std::vector<llvm::CallInst*> calls;
    for (llvm::User* user : kernel->users())
      if (auto* call = llvm::dyn_cast<llvm::CallInst>(user); call && call->getCalledFunction() == kernel)
        calls.push_back(call);
    if (calls.empty()) continue;
    llvm::ValueToValueMapTy map;
    llvm::Function* copy = llvm::CloneFunction(kernel, map);
    copy->setName(kernel->getName() + ".device");
    copy->setCallingConv(llvm::CallingConv::SPIR_FUNC);
    copy->setLinkage(llvm::GlobalValue::InternalLinkage);
    for (llvm::CallInst* call : calls) {
      call->setCalledFunction(copy);
      call->setCallingConv(llvm::CallingConv::SPIR_FUNC);
    }
  }
}

// A function whose arguments or result do not fit the calling convention's registers
// (mad_sat on long8 takes 48) is inlined into its callers. OpenCL C has no recursion, so a
// call chain is at most as deep as the module has functions; a recursive one stops there
// and is reported as such later. A local function left without callers goes.
void inline_calls_beyond_registers(llvm::Module& m) {
  for (size_t round = 0; round < m.size(); ++round) {
    std::vector<llvm::CallInst*> calls;
    for (llvm::Function& f : m)
      for (llvm::Instruction& inst : llvm::instructions(f))
        if (auto* call = llvm::dyn_cast<llvm::CallInst>(&inst))
          if (llvm::Function* callee = call->getCalledFunction();
              callee && !callee->isDeclaration() && !passes_in_registers(*callee))
            calls.push_back(call);
    if (calls.empty()) break;
    std::set<llvm::Function*> callees;
    for (llvm::CallInst* call : calls) {
      callees.insert(call->getCalledFunction());
      llvm::InlineFunctionInfo info;
      llvm::InlineFunction(*call, info);
    }
    for (llvm::Function* callee : callees)
      if (callee->use_empty() && callee->hasLocalLinkage()) callee->eraseFromParent();
  }
}

// OpenCL C has no program-scope data in address space 0, which is private memory here:
// globals there are LLVM's own (SimplifyCFG's switch lookup tables, among others). They
// live in the code image like __constant or __global data, so they move to that address
// space (before any address computation is selected, InferAddressSpaces in prepare()
// carries the address space to every pointer derived from them) and are loaded as what
// they are, not as private memory.
void move_private_globals(llvm::Module& m) {
  std::vector<llvm::GlobalVariable*> found;  // (llvm.used and the like are bookkeeping, not data)
  for (llvm::GlobalVariable& gv : m.globals())
    if (gv.getAddressSpace() == kPrivateAddressSpace && !gv.getName().startswith("llvm."))
      found.push_back(&gv);
  for (llvm::GlobalVariable* gv : found) {
    auto* moved = new llvm::GlobalVariable(
        m, gv->getValueType(), gv->isConstant(), gv->getLinkage(),
        gv->hasInitializer() ? gv->getInitializer() : nullptr, "", gv, gv->getThreadLocalMode(),
        gv->isConstant() ? kConstantAddressSpace : kGlobalAddressSpace);
    moved->copyAttributesFrom(gv);
    moved->takeName(gv);
    gv->replaceAllUsesWith(llvm::ConstantExpr::getAddrSpaceCast(moved, gv->getType()));
    gv->eraseFromParent();
  }
}

// After InferAddressSpaces, a cast of a global's address to address space 0 is a pointer
// that could not be followed (stored, passed to a call, merged with a private one): the
// selector would load it as private memory, so it is an error, not wrong data.
void check_no_private_casts(llvm::Function& f) {
  for (llvm::Instruction& inst : llvm::instructions(f))
    if (auto* cast = llvm::dyn_cast<llvm::AddrSpaceCastInst>(&inst);
        cast && cast->getDestAddressSpace() == kPrivateAddressSpace &&
        (cast->getSrcAddressSpace() == kGlobalAddressSpace ||
         cast->getSrcAddressSpace() == kConstantAddressSpace))
      throw Error(fmt::format(
          "{}error: the Ventus back end cannot use this pointer to address space {} as a "
          "private pointer",
          source_location(cast), cast->getSrcAddressSpace()));
}

void prepare(llvm::Module& m) {
  clone_called_kernels(m);
  inline_calls_beyond_registers(m);
  move_private_globals(m);
  llvm::PassBuilder pb;
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cam;
  llvm::ModuleAnalysisManager mam;
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cam, mam);
  llvm::FunctionPassManager fpm;
  fpm.addPass(llvm::InferAddressSpacesPass(kPrivateAddressSpace));
  fpm.addPass(llvm::LowerSwitchPass());
  fpm.addPass(llvm::UnifyFunctionExitNodesPass());
  fpm.addPass(llvm::BreakCriticalEdgesPass());
  for (llvm::Function& f : m) {
    if (f.isDeclaration()) continue;
    expand_memory_intrinsics(f);
    expand_fp64_operations(f);
    expand_int64_intrinsics(f);
    expand_int64_funnel_shifts(f);
    narrow_wide_integer_extracts(f);
    split_wide_integers(f);
    expand_variable_element_indices(f);
    expand_constant_expressions(f);
    fpm.run(f, fam);
    fam.invalidate(f, llvm::PreservedAnalyses::none());
    check_no_private_casts(f);
  }
}

std::string sanitize(llvm::StringRef name) {
  std::string out;
  for (char c : name) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.') ? c : '_';
  return out;
}

class DataWriter {
 public:
  DataWriter(const llvm::DataLayout& dl, const ModuleLayout& layout, std::string& out)
      : dl_(dl), layout_(layout), out_(out) {}

  // The initializer of `variable`.
  void variable(const llvm::GlobalVariable& variable) {
    variable_ = &variable;
    constant(variable.getInitializer());
  }

 private:
  void constant(const llvm::Constant* c) {
    llvm::Type* t = c->getType();
    uint64_t size = dl_.getTypeAllocSize(t);
    if (llvm::isa<llvm::ConstantAggregateZero>(c) || llvm::isa<llvm::UndefValue>(c) ||
        llvm::isa<llvm::ConstantPointerNull>(c)) {
      line(fmt::format(".zero {}", size));
      return;
    }
    if (auto* ci = llvm::dyn_cast<llvm::ConstantInt>(c)) {
      uint64_t v = ci->getZExtValue();
      unsigned bytes = static_cast<unsigned>(dl_.getTypeStoreSize(t));
      if (bytes == 1) line(fmt::format(".byte {}", v & 0xff));
      else if (bytes == 2) line(fmt::format(".half {}", v & 0xffff));
      else if (bytes == 4) line(fmt::format(".word {}", v & 0xffffffff));
      else line(fmt::format(".word {}, {}", v & 0xffffffff, v >> 32));
      return;
    }
    if (auto* cf = llvm::dyn_cast<llvm::ConstantFP>(c)) {
      uint64_t v = cf->getValueAPF().bitcastToAPInt().getZExtValue();
      if (t->isFloatTy()) line(fmt::format(".word {}", v));
      else if (t->isHalfTy()) line(fmt::format(".half {}", v));
      else line(fmt::format(".word {}, {}", v & 0xffffffff, v >> 32));
      return;
    }
    if (auto* seq = llvm::dyn_cast<llvm::ConstantDataSequential>(c)) {
      for (unsigned i = 0; i < seq->getNumElements(); ++i) constant(seq->getElementAsConstant(i));
      pad(size - dl_.getTypeStoreSize(seq->getElementType()) * seq->getNumElements() -
          (dl_.getTypeAllocSize(seq->getElementType()) - dl_.getTypeStoreSize(seq->getElementType())) *
              seq->getNumElements());
      return;
    }
    if (auto* st = llvm::dyn_cast<llvm::ConstantStruct>(c)) {
      const llvm::StructLayout* sl = dl_.getStructLayout(st->getType());
      uint64_t at = 0;
      for (unsigned i = 0; i < st->getNumOperands(); ++i) {
        uint64_t off = sl->getElementOffset(i);
        pad(off - at);
        constant(st->getOperand(i));
        at = off + dl_.getTypeAllocSize(st->getOperand(i)->getType());
      }
      pad(size - at);
      return;
    }
    if (llvm::isa<llvm::ConstantArray>(c) || llvm::isa<llvm::ConstantVector>(c)) {
      for (const llvm::Use& op : c->operands()) constant(llvm::cast<llvm::Constant>(op.get()));
      return;
    }
    // Addresses: a global, or a constant offset from one.
    llvm::APInt offset(32, 0);
    const llvm::Value* base = c->stripAndAccumulateConstantOffsets(dl_, offset, true);
    if (auto* gv = llvm::dyn_cast<llvm::GlobalVariable>(base)) {
      if (gv->getAddressSpace() == 3)
        throw Error(fmt::format("{}error: the initializer of '{}' takes the address of __local "
                                "variable '{}', which has none outside a workgroup",
                                definition_location(*variable_), variable_->getName().str(),
                                gv->getName().str()));
      line(fmt::format(".word {}+{}", layout_.symbols.at(gv), offset.getSExtValue()));
      return;
    }
    std::string text;
    llvm::raw_string_ostream os(text);
    c->print(os);
    throw Error(fmt::format("{}error: the Ventus back end cannot emit the initializer of '{}': {}",
                            definition_location(*variable_), variable_->getName().str(), text));
  }

  void line(const std::string& s) { out_ += "\t" + s + "\n"; }
  void pad(uint64_t n) {
    if (n) line(fmt::format(".zero {}", n));
  }
  const llvm::DataLayout& dl_;
  const ModuleLayout& layout_;
  std::string& out_;
  const llvm::GlobalVariable* variable_ = nullptr;
};

// The device's address ranges a program's data must fit (docs/compiler.md, "Limits and
// errors"): the program from sim::kCodeBase up to the buffers, of which the data may take
// all but 1 MiB (the code's; compile checks code and data together after assembling), a
// workgroup's local memory in the local window below the code.
constexpr uint64_t kProgramBytes = uint64_t{sim::kBufferBase} - sim::kCodeBase - (1 << 20);
constexpr uint64_t kLocalWindowBytes = uint64_t{sim::kCodeBase} - sim::kLdsWindowBase;

std::string mib(uint64_t bytes) { return fmt::format("{} MiB", bytes >> 20); }

// A variable's name as the source spells it: clang names a kernel's __local variable
// "kernel.variable".
std::string variable_name(const llvm::GlobalVariable& gv) {
  const llvm::StringRef name = gv.getName();
  const auto [function, variable] = name.split('.');
  if (!variable.empty() && gv.getParent()->getFunction(function))
    return fmt::format("'{}' (in '{}')", variable.str(), function.str());
  return "'" + name.str() + "'";
}

// Sizes of program-scope data, checked before anything is laid out: a variable that does
// not fit is an error at its declaration, not a wrapped offset or an assembler message.
void check_data_sizes(const llvm::Module& module) {
  const llvm::DataLayout& dl = module.getDataLayout();
  uint64_t program = 0, local = 0;
  for (const llvm::GlobalVariable& gv : module.globals()) {
    const uint64_t bytes = dl.getTypeAllocSize(gv.getValueType());
    const bool is_local = gv.getAddressSpace() == 3;
    uint64_t& total = is_local ? local : program;
    const uint64_t limit = is_local ? kLocalWindowBytes : kProgramBytes;
    total += bytes;
    if (bytes > limit)
      throw Error(fmt::format(
          "{}error: {} variable {} is {} bytes; {}", definition_location(gv),
          is_local ? "__local" : "program-scope", variable_name(gv), bytes,
          is_local ? "a workgroup's local memory window is " + mib(limit)
                   : "a program's data must fit in " + mib(limit) +
                         " (the code at 0x80000000 and its data end at the buffers, 0x90000000)"));
    if (total > limit)
      throw Error(fmt::format("{}error: with {} variable {} ({} bytes), the program's {} data "
                              "reach {} bytes, more than the {} limit",
                              definition_location(gv), is_local ? "__local" : "program-scope",
                              variable_name(gv), bytes, is_local ? "__local" : "program-scope",
                              total, mib(limit)));
  }
}

// Selection, register allocation and emission of one function. An error without a source
// position (an internal one) gets the function's.
FunctionSummary compile_function(llvm::Function& f, const ModuleLayout& layout, std::string& out) {
  try {
    MFunction mf = select_instructions(f, layout);
    allocate_registers(mf);
    return emit_function(mf, out);
  } catch (const std::bad_alloc&) {
    throw;  // not a bug: compile reports it as out of memory
  } catch (const std::exception& e) {
    // Also the standard library's (a failed map lookup): a bug, at the function's line.
    const std::string message = e.what();
    if (dynamic_cast<const Error*>(&e) && message.find("error: ") != std::string::npos) throw;
    throw Error(fmt::format("{}error: internal compiler error in {}: {}", definition_location(f),
                            describe(f), message));
  }
}

// The OpenCL C name of a vec_type_hint type: "float4", "uint", "char16".
std::string opencl_type_name(llvm::Type* type, bool is_signed) {
  std::string suffix;
  if (auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(type)) {
    suffix = std::to_string(vector->getNumElements());
    type = vector->getElementType();
  }
  std::string base;
  if (type->isHalfTy())
    base = "half";
  else if (type->isFloatTy())
    base = "float";
  else if (type->isDoubleTy())
    base = "double";
  else if (type->isIntegerTy(8))
    base = is_signed ? "char" : "uchar";
  else if (type->isIntegerTy(16))
    base = is_signed ? "short" : "ushort";
  else if (type->isIntegerTy(32))
    base = is_signed ? "int" : "uint";
  else if (type->isIntegerTy(64))
    base = is_signed ? "long" : "ulong";
  else
    return "";
  return base + suffix;
}

// Three constants of a work-group-size attribute, "X,Y,Z"; empty when it is not there.
std::string size_triple(const llvm::Function& kernel, const char* name) {
  const llvm::MDNode* node = kernel.getMetadata(name);
  if (!node || node->getNumOperands() != 3) return "";
  std::string text;
  for (unsigned d = 0; d < 3; ++d) {
    auto* c = llvm::mdconst::dyn_extract<llvm::ConstantInt>(node->getOperand(d));
    text += fmt::format("{}{}", d ? "," : "", c ? c->getZExtValue() : 1);
  }
  return text;
}

// CL_KERNEL_ATTRIBUTES: the attributes clang records on a kernel, written as in the source
// (OpenCL 1.2, clGetKernelInfo), in clang's order, space-separated.
std::string kernel_attributes(const llvm::Function& kernel) {
  std::vector<std::string> attributes;
  if (const llvm::MDNode* hint = kernel.getMetadata("vec_type_hint");
      hint && hint->getNumOperands() == 2) {
    auto* type = llvm::dyn_cast<llvm::ValueAsMetadata>(hint->getOperand(0).get());
    auto* is_signed = llvm::mdconst::dyn_extract<llvm::ConstantInt>(hint->getOperand(1));
    if (type && is_signed)
      if (std::string name = opencl_type_name(type->getType(), is_signed->isOne()); !name.empty())
        attributes.push_back("vec_type_hint(" + name + ")");
  }
  if (std::string sizes = size_triple(kernel, "work_group_size_hint"); !sizes.empty())
    attributes.push_back("work_group_size_hint(" + sizes + ")");
  if (std::string sizes = size_triple(kernel, "reqd_work_group_size"); !sizes.empty())
    attributes.push_back("reqd_work_group_size(" + sizes + ")");
  std::string text;
  for (const std::string& a : attributes) text += (text.empty() ? "" : " ") + a;
  return text;
}

}  // namespace

std::string generate_assembly(llvm::Module& module, int) {
  const llvm::DataLayout& dl = module.getDataLayout();
  prepare(module);

  // Global data: __local variables get offsets in the workgroup's local data; the
  // others get symbols in .rodata/.data/.bss of the code image.
  check_data_sizes(module);
  ModuleLayout layout;
  std::set<std::string> used_names;
  for (llvm::GlobalVariable& gv : module.globals()) {
    if (gv.getAddressSpace() == 3) {
      // Natural alignment: the runtime starts the workgroup's __local data at a multiple
      // of rt::kLocalDataAlign (include/ventus/runtime.h).
      uint32_t align =
          std::max<uint32_t>(4, static_cast<uint32_t>(dl.getPreferredAlign(&gv).value()));
      if (align > rt::kLocalDataAlign)
        throw Error(fmt::format(
            "error: __local variable '{}' is aligned to {} bytes; local memory gives at most {}",
            gv.getName().str(), align, rt::kLocalDataAlign));
      layout.local_bytes = (layout.local_bytes + align - 1) & ~(align - 1);
      layout.local_offsets[&gv] = layout.local_bytes;
      layout.local_bytes += static_cast<uint32_t>(dl.getTypeAllocSize(gv.getValueType()));
      continue;
    }
    std::string name = "__vt_data." + sanitize(gv.getName());
    while (!used_names.insert(name).second) name += "_";
    layout.symbols[&gv] = name;
  }
  for (llvm::Function& f : module)
    for (llvm::Instruction& inst : llvm::instructions(f))
      if (auto* alloca = llvm::dyn_cast<llvm::AllocaInst>(&inst))
        layout.private_align = std::max<uint32_t>(
            layout.private_align, static_cast<uint32_t>(alloca->getAlign().value()));
  for (llvm::Function& f : module)
    if (f.getCallingConv() == llvm::CallingConv::SPIR_KERNEL && !f.isDeclaration())
      for (llvm::Argument& arg : f.args())
        if (arg.hasByValAttr())
          layout.private_align = std::max<uint32_t>(layout.private_align,
                                                    static_cast<uint32_t>(private_alignment(arg)));

  std::map<std::string, const llvm::Function*> functions;
  std::vector<llvm::Function*> kernels;
  for (llvm::Function& f : module) {
    if (f.isDeclaration()) continue;
    if (f.getCallingConv() == llvm::CallingConv::SPIR_KERNEL) kernels.push_back(&f);
    functions[f.getName().str()] = &f;
  }
  std::string out;
  std::map<std::string, FunctionSummary> summaries;
  auto compile_functions = [&] {
    out.clear();
    summaries.clear();
    for (llvm::Function& f : module) {
      if (f.isDeclaration()) continue;
      FunctionSummary& summary = summaries[f.getName().str()];
      summary = compile_function(f, layout, out);
      summary.local_data_end = local_data_end(f, layout, dl);
    }
  };

  // A kernel's scalar stack: its frame and the deepest chain of its callees' frames;
  // likewise its private memory, registers and __local data. `stack`: the calls from the
  // kernel down to `name`, to name a cycle.
  std::function<FunctionSummary(const std::string&, std::vector<std::string>&)> total =
      [&](const std::string& name, std::vector<std::string>& stack) {
        FunctionSummary s = summaries.at(name);
        if (auto cycle = std::find(stack.begin(), stack.end(), name); cycle != stack.end()) {
          const llvm::Function& f = *functions.at(name);
          std::string calls;
          for (auto it = cycle; it != stack.end(); ++it)
            calls += llvm::demangle(*it) + " -> ";
          throw Error(fmt::format("{}error: {} is recursive ({}{}); recursion is not supported "
                                  "(every call needs a fixed frame)",
                                  definition_location(f), describe(f), calls,
                                  llvm::demangle(name)));
        }
        stack.push_back(name);
        uint32_t deepest_scalar = 0, deepest_private = 0;
        for (const std::string& callee : s.callees) {
          FunctionSummary c = total(callee, stack);
          deepest_scalar = std::max(deepest_scalar, c.scalar_frame);
          deepest_private = std::max(deepest_private, c.private_frame);
          s.sgpr = std::max(s.sgpr, c.sgpr);
          s.vgpr = std::max(s.vgpr, c.vgpr);
          s.local_data_end = std::max(s.local_data_end, c.local_data_end);
        }
        stack.pop_back();
        s.scalar_frame += deepest_scalar;
        s.private_frame += deepest_private;
        return s;
      };
  std::map<const llvm::Function*, FunctionSummary> kernel_totals;
  auto total_kernels = [&] {
    for (llvm::Function* kernel : kernels) {
      std::vector<std::string> stack;
      kernel_totals[kernel] = total(kernel->getName().str(), stack);
    }
  };

  // The warps' stacks: one stride for the program (every function computes the local data
  // base from it), the start code's 1 KiB unless a kernel needs more. Another stride
  // changes the code that computes the local data base, and so possibly the frames: the
  // program is compiled again until the stride holds every kernel's stack (the frames
  // grow by a few spill slots a round at most; later rounds leave room for that).
  compile_functions();
  total_kernels();
  for (int round = 0;; ++round) {
    uint32_t need = abi::kWarpStackBytes;
    for (const auto& [kernel, s] : kernel_totals) {
      if (s.private_frame > kMaxPrivateFrameBytes)
        throw Error(fmt::format(
            "{}error: {} needs {} bytes of private memory per work-item (its frame and those of "
            "the functions it calls); a work-item has at most {}",
            definition_location(*kernel), describe(*kernel), s.private_frame,
            kMaxPrivateFrameBytes));
      // As the runtime lays out a workgroup of one warp: the stack, then the local data.
      const uint64_t local = rt::align_local_data(s.local_data_end);
      if (uint64_t{s.scalar_frame} + local > kDeviceLocalBytes)
        throw Error(fmt::format(
            "{}error: {} needs {} bytes of scalar stack per warp (its frame and those of the "
            "functions it calls) and {} bytes of __local variables; a workgroup's local "
            "memory is at most an SM's {} bytes",
            definition_location(*kernel), describe(*kernel), s.scalar_frame, local,
            kDeviceLocalBytes));
      need = std::max(need, s.scalar_frame);
    }
    if (need <= layout.warp_stack_bytes) break;
    if (round == 6)
      throw Error(
          fmt::format("error: internal compiler error: the warp stack stride did not "
                      "settle ({} bytes needed, {} laid out)",
                      need, layout.warp_stack_bytes));
    // 16-byte aligned stacks.
    layout.warp_stack_bytes = (need + (round >= 2 ? 64 : 0) + 15) & ~15u;
    compile_functions();
    total_kernels();
  }

  for (const auto& [name, summary] : summaries)
    if (summary.uses_printf) {
      out += printf_routine();
      break;
    }

  DataWriter writer(dl, layout, out);
  for (llvm::GlobalVariable& gv : module.globals()) {
    if (gv.getAddressSpace() == 3) continue;
    if (!gv.hasInitializer())
      throw Error(fmt::format("{}error: program-scope variable '{}' is declared but not defined",
                              definition_location(gv), gv.getName().str()));
    const llvm::Constant* init = gv.getInitializer();
    bool zero = init->isNullValue();
    const char* section = gv.isConstant() || gv.getAddressSpace() == 2 ? ".rodata" : zero ? ".bss" : ".data";
    uint64_t align = std::max<uint64_t>(4, dl.getPreferredAlign(&gv).value());
    unsigned log2 = 0;
    while ((uint64_t{1} << log2) < align) ++log2;
    out += fmt::format("\t.section {}\n\t.p2align {}\n{}:\n", section, log2, layout.symbols[&gv]);
    if (zero)
      out += fmt::format("\t.zero {}\n", std::max<uint64_t>(1, dl.getTypeAllocSize(gv.getValueType())));
    else
      writer.variable(gv);
  }

  // Per-kernel metadata for the runtime: resources and the argument buffer layout.
  std::vector<rt::KernelInfo> infos;
  for (llvm::Function* kernel : kernels) {
    rt::KernelInfo& info = infos.emplace_back();
    info.name = kernel->getName().str();
    const FunctionSummary& s = kernel_totals.at(kernel);
    auto round4 = [](uint32_t v) { return (v + 3) & ~3u; };
    info.local_bytes = (s.local_data_end + 15) & ~15u;
    info.private_bytes = s.private_frame;
    info.stack_bytes = layout.warp_stack_bytes;
    info.sgpr = round4(std::max<uint32_t>(32, s.sgpr));
    info.vgpr = round4(std::max<uint32_t>(4, s.vgpr));
    // __attribute__((reqd_work_group_size(X, Y, Z))): the only local size the kernel runs with.
    if (llvm::MDNode* reqd = kernel->getMetadata("reqd_work_group_size");
        reqd && reqd->getNumOperands() == 3)
      for (unsigned d = 0; d < 3; ++d) {
        info.reqd_work_group_size[d] = 1;
        if (auto* c = llvm::mdconst::dyn_extract<llvm::ConstantInt>(reqd->getOperand(d)))
          info.reqd_work_group_size[d] = static_cast<uint32_t>(c->getZExtValue());
      }
    info.attributes = kernel_attributes(*kernel);
    info.args = kernel_arguments(*kernel);
  }
  const std::string json = rt::write_kernel_metadata(infos);
  std::string escaped;
  for (char c : json) {
    if (c == '"' || c == '\\') escaped += '\\';
    escaped += c;
  }
  out += "\t.section .ventus.kernels, \"\"\n\t.ascii \"" + escaped + "\"\n";
  return out;
}

}  // namespace ventus::cc::backend
