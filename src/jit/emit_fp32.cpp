#include "emit_fp32.h"

#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsX86.h>
#include <llvm/IR/Module.h>

#include <memory>
#include <optional>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "fp32.h"
#include "mxcsr.h"
#include "warp.h"
#include "warp_ir.h"

namespace ventus::jit {

using isa::Op;

namespace {

// What an inlined row computes, with a = vs2 and b = vs1 or x[rs1] (vector_float.cpp).
enum class Kind : uint8_t {
  // Round under frm; the host's MXCSR flags are theirs.
  Add,
  Sub,
  ReverseSub,
  Mul,
  Div,
  ReverseDiv,
  Sqrt,
  Fma,
  FromInt,
  FromUint,
  // Round under frm; their flags are computed.
  ToInt,
  ToUint,
  // Do not depend on frm.
  ToIntRtz,
  ToUintRtz,
  Min,
  Max,
  Eq,
  Ne,
  Lt,
  Le,
  Gt,
  Ge
};

struct Row {
  Kind kind;
  bool scalar = false;  // .vf: b is x[rs1]
  // The fma family: the addend is vs2 and the multiplicand the old vd (vfmadd..., else
  // vfmacc...); the product and the addend negated.
  bool addend_vs2 = false, negate_product = false, negate_addend = false;
};

bool uses_frm(Kind kind) {
  return kind <= Kind::ToUint;
}
bool flags_from_host(Kind kind) {
  return kind <= Kind::FromUint;
}
bool converts_to_integer(Kind kind) {
  return kind >= Kind::ToInt && kind <= Kind::ToUintRtz;
}
// Only vs2 is read.
bool is_unary(Kind kind) {
  return kind == Kind::Sqrt || (kind >= Kind::FromInt && kind <= Kind::ToUintRtz);
}

std::optional<Row> row_of(Op op) {
  switch (op) {
#define VT_PAIR(ID, KIND)                          \
  case Op::ID##_VV: return Row{Kind::KIND, false}; \
  case Op::ID##_VF: return Row{Kind::KIND, true};
    VT_PAIR(VFADD, Add)
    VT_PAIR(VFSUB, Sub)
    VT_PAIR(VFMUL, Mul)
    VT_PAIR(VFDIV, Div)
    VT_PAIR(VFMIN, Min)
    VT_PAIR(VFMAX, Max)
    VT_PAIR(VMFEQ, Eq)
    VT_PAIR(VMFNE, Ne)
    VT_PAIR(VMFLT, Lt)
    VT_PAIR(VMFLE, Le)
#undef VT_PAIR
    case Op::VFRSUB_VF: return Row{Kind::ReverseSub, true};
    case Op::VFRDIV_VF: return Row{Kind::ReverseDiv, true};
    case Op::VMFGT_VF: return Row{Kind::Gt, true};
    case Op::VMFGE_VF: return Row{Kind::Ge, true};
    case Op::VFSQRT_V: return Row{Kind::Sqrt};
    case Op::VFCVT_F_X_V: return Row{Kind::FromInt};
    case Op::VFCVT_F_XU_V: return Row{Kind::FromUint};
    case Op::VFCVT_X_F_V: return Row{Kind::ToInt};
    case Op::VFCVT_XU_F_V: return Row{Kind::ToUint};
    case Op::VFCVT_RTZ_X_F_V: return Row{Kind::ToIntRtz};
    case Op::VFCVT_RTZ_XU_F_V: return Row{Kind::ToUintRtz};
#define VT_FMA(ID, ADDEND_VS2, NEG_PRODUCT, NEG_ADDEND)                                \
  case Op::ID##_VV: return Row{Kind::Fma, false, ADDEND_VS2, NEG_PRODUCT, NEG_ADDEND}; \
  case Op::ID##_VF: return Row{Kind::Fma, true, ADDEND_VS2, NEG_PRODUCT, NEG_ADDEND};
      VT_FMA(VFMACC, false, false, false)
      VT_FMA(VFNMACC, false, true, true)
      VT_FMA(VFMSAC, false, false, true)
      VT_FMA(VFNMSAC, false, true, false)
      VT_FMA(VFMADD, true, false, false)
      VT_FMA(VFNMADD, true, true, true)
      VT_FMA(VFMSUB, true, false, true)
      VT_FMA(VFNMSUB, true, true, false)
#undef VT_FMA
    default: return std::nullopt;
  }
}

// Whether the host has what the row's inline form needs: for the rows that use frm, x86-64
// arithmetic under MXCSR (mxcsr.h); for the fma family FMA3, which rounds once and raises NV
// for inf*0 with a quiet-NaN addend as RISC-V does (LLVM would call fmaf without it); for
// uint32 -> fp32 AVX-512's VCVTUDQ2PS (LLVM 15's AVX2 sequence adds a 2^23-biased low half to
// a biased high half, which gives -0 for 0 when rounding down); for the conversions to integers
// SSE4.1's ROUNDPS (else LLVM calls rintf, truncf).
bool host_has(Kind kind) {
#if defined(__x86_64__)
  static const bool fma = __builtin_cpu_supports("fma");
  static const bool avx512f = __builtin_cpu_supports("avx512f");
  static const bool sse41 = __builtin_cpu_supports("sse4.1");
  switch (kind) {
    case Kind::Fma: return fma;
    case Kind::FromUint: return avx512f;
    default: return !converts_to_integer(kind) || sse41;
  }
#else
  return !uses_frm(kind) && !converts_to_integer(kind);
#endif
}

// warp->fflags |= flags.
void accrue_fflags(llvm::IRBuilder<>& b, llvm::Value* warp, llvm::Value* flags) {
  llvm::Value* fflags = b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), warp, warp_layout().fflags);
  b.CreateAlignedStore(
      b.CreateOr(b.CreateAlignedLoad(b.getInt32Ty(), fflags, llvm::Align(4)), flags), fflags,
      llvm::Align(4));
}

constexpr uint32_t kSignBit = 0x80000000u;
constexpr uint32_t kInfinity = 0x7f800000u;
constexpr uint32_t kQuietBit = 0x00400000u;
constexpr uint32_t kOne = 0x3f800000u;  // 1.0f

class Emitter {
 public:
  Emitter(llvm::IRBuilder<>& b, llvm::Value* warp, FieldShadows* shadows, MxcsrRun& run)
      : run_(run),
        b_(b),
        c_(b.getContext()),
        warp_(warp),
        w_(b, warp, shadows),
        fn_(b.GetInsertBlock()->getParent()) {
    i32_ = b_.getInt32Ty();
    lanes_ = llvm::FixedVectorType::get(i32_, sim::kMaxLanes);
    floats_ = llvm::FixedVectorType::get(b_.getFloatTy(), sim::kMaxLanes);
  }

  void emit(const sim::Insn& in, const Row& row, bool vtype_checked,
            const std::function<void()>& emit_call) {
    llvm::Value* applies = vtype_checked ? nullptr : w_.is_sew32_lmul1();
    llvm::Value* frm = nullptr;
    if (uses_frm(row.kind)) {
      frm = w_.load(w_.layout().frm);
      static_assert(fp::kRNE == 0 && fp::kRTZ == 1 && fp::kRDN == 2 && fp::kRUP == 3 &&
                    fp::kRMM == 4);
      llvm::Value* frm_applies = b_.CreateICmpULT(frm, b_.getInt32(fp::kRMM));
      applies = applies ? b_.CreateAnd(applies, frm_applies) : frm_applies;
    }
    llvm::BasicBlock* done = nullptr;
    if (applies) {
      auto* fast = llvm::BasicBlock::Create(c_, "fp32", fn_);
      auto* slow = llvm::BasicBlock::Create(c_, "fp32_call", fn_);
      done = llvm::BasicBlock::Create(c_, "fp32_done", fn_);
      b_.CreateCondBr(applies, fast, slow);
      b_.SetInsertPoint(slow);
      emit_call();
      b_.CreateBr(done);
      b_.SetInsertPoint(fast);
    }
    llvm::Value* on = w_.lane_bits(w_.active_lanes(in.vm));
    llvm::Value* a = w_.read_v(in.rs2);
    llvm::Value* second = nullptr;
    if (!is_unary(row.kind))
      second =
          row.scalar ? b_.CreateVectorSplat(sim::kMaxLanes, w_.read_x(in.rs1)) : w_.read_v(in.rs1);
    llvm::Value* result = nullptr;
    if (converts_to_integer(row.kind)) {
      result = to_integer(row.kind, frm, on, a);
    } else if (flags_from_host(row.kind)) {
      llvm::Value* third = row.kind == Kind::Fma ? w_.read_v(in.rs3) : nullptr;
      result = rounded(row, frm, on, a, second, third);
    } else if (row.kind == Kind::Min || row.kind == Kind::Max) {
      result = min_max(row.kind == Kind::Min, on, a, second);
    } else {
      result = compare(row.kind, on, a, second);
    }
    w_.write_lanes(in.rd, on, result);
    if (done) {
      b_.CreateBr(done);
      b_.SetInsertPoint(done);
    }
  }

 private:
  void accrue(llvm::Value* flags) { accrue_fflags(b_, warp_, flags); }

  // The IR builder set for constrained fp operations (dynamic rounding, strict exceptions,
  // in a strictfp function): LLVM neither folds them at its own rounding mode nor moves them
  // across the MXCSR accesses.
  class Constrained {
   public:
    explicit Constrained(Emitter& e) : guard_(e.b_) {
      e.fn_->addFnAttr(llvm::Attribute::StrictFP);
      e.b_.setIsFPConstrained(true);
      e.b_.setDefaultConstrainedRounding(llvm::RoundingMode::Dynamic);
      e.b_.setDefaultConstrainedExcept(llvm::fp::ebStrict);
    }

   private:
    llvm::IRBuilderBase::FastMathFlagGuard guard_;  // the builder's fp settings, restored
  };

  llvm::Value* constrained_call(llvm::Intrinsic::ID id, std::initializer_list<llvm::Value*> args) {
    return b_.CreateConstrainedFPCall(
        llvm::Intrinsic::getDeclaration(fn_->getParent(), id, {floats_}), args);
  }

  // The rows whose flags are the host's: the operation on all 32 lanes under frm, its flags
  // accumulating in the run's MXCSR (MxcsrRun). Inactive lanes compute 0 op 1, 0 * 1 + 0 or convert
  // 0, exact in every mode: they raise nothing. NaN results become the canonical NaN.
  llvm::Value* rounded(const Row& row, llvm::Value* frm, llvm::Value* on, llvm::Value* a,
                       llvm::Value* b, llvm::Value* old_vd) {
    const Constrained constrained(*this);
    const auto operand = [&](llvm::Value* lanes, uint32_t sign, uint32_t benign) {
      if (sign) lanes = b_.CreateXor(lanes, w_.splat(sign));
      return b_.CreateBitCast(b_.CreateSelect(on, lanes, w_.splat(benign)), floats_);
    };
    const auto binary = [&](llvm::Intrinsic::ID id, llvm::Value* x, llvm::Value* y) {
      return b_.CreateConstrainedFPBinOp(id, operand(x, 0, 0), operand(y, 0, kOne));
    };
    run_.open(b_, frm);
    llvm::Value* r = nullptr;
    {
      switch (row.kind) {
        case Kind::Add: r = binary(llvm::Intrinsic::experimental_constrained_fadd, a, b); break;
        case Kind::Sub: r = binary(llvm::Intrinsic::experimental_constrained_fsub, a, b); break;
        case Kind::ReverseSub:
          r = binary(llvm::Intrinsic::experimental_constrained_fsub, b, a);
          break;
        case Kind::Mul: r = binary(llvm::Intrinsic::experimental_constrained_fmul, a, b); break;
        case Kind::Div: r = binary(llvm::Intrinsic::experimental_constrained_fdiv, a, b); break;
        case Kind::ReverseDiv:
          r = binary(llvm::Intrinsic::experimental_constrained_fdiv, b, a);
          break;
        case Kind::Sqrt:
          r = constrained_call(llvm::Intrinsic::experimental_constrained_sqrt, {operand(a, 0, 0)});
          break;
        case Kind::FromInt:
        case Kind::FromUint:
          r = b_.CreateConstrainedFPCast(row.kind == Kind::FromInt
                                             ? llvm::Intrinsic::experimental_constrained_sitofp
                                             : llvm::Intrinsic::experimental_constrained_uitofp,
                                         b_.CreateSelect(on, a, w_.splat(0)), floats_);
          break;
        default: {  // Kind::Fma: x = b, y = vs2, z = the old vd
          llvm::Value* multiplicand = row.addend_vs2 ? old_vd : a;
          llvm::Value* addend = row.addend_vs2 ? a : old_vd;
          r = constrained_call(
              llvm::Intrinsic::experimental_constrained_fma,
              {operand(b, row.negate_product ? kSignBit : 0, 0), operand(multiplicand, 0, kOne),
               operand(addend, row.negate_addend ? kSignBit : 0, 0)});
          break;
        }
      }
    }
    llvm::Value* result = b_.CreateBitCast(r, lanes_);
    return b_.CreateSelect(is_nan(result), w_.splat(fp::kCanonicalNaN), result);
  }

  // fp::to_i32 / fp::to_u32: a rounded to an integral value (under frm, or toward zero), then
  // saturated where it is out of range or NaN (NV), else converted exactly; NX where the
  // rounding changed an in-range value. The flags are computed: what the host's rounding
  // raises in the run's MXCSR is a subset of them (ROUNDPS: inexact where the value changed,
  // invalid for a signaling NaN; the conversion sees only integral values in range).
  llvm::Value* to_integer(Kind kind, llvm::Value* frm, llvm::Value* on, llvm::Value* a) {
    const Constrained constrained(*this);
    llvm::Value* input = b_.CreateSelect(on, a, w_.splat(0));
    llvm::Value* x = b_.CreateBitCast(input, floats_);
    llvm::Value* integral = nullptr;
    if (frm) {
      run_.open(b_, frm);
      integral = constrained_call(llvm::Intrinsic::experimental_constrained_rint, {x});
    } else {
      integral = constrained_call(llvm::Intrinsic::experimental_constrained_trunc, {x});
    }
    const bool is_signed = kind == Kind::ToInt || kind == Kind::ToIntRtz;
    llvm::Value* bits = b_.CreateBitCast(integral, lanes_);
    llvm::Value* key = order_key(bits);
    // The first values out of range: 2^31 and below -2^31, or 2^32 and below -0.
    const auto key_of = [](uint32_t value) {
      const int32_t magnitude = static_cast<int32_t>(value & ~kSignBit);
      return static_cast<uint32_t>(value & kSignBit ? -magnitude : magnitude);
    };
    llvm::Value* nan = is_nan(input);
    llvm::Value* too_big =
        b_.CreateICmpSGE(key, w_.splat(key_of(is_signed ? 0x4f000000u : 0x4f800000u)));
    llvm::Value* too_small = b_.CreateICmpSLT(key, w_.splat(is_signed ? key_of(0xcf000000u) : 0));
    llvm::Value* high = b_.CreateOr(nan, too_big);
    llvm::Value* invalid = b_.CreateOr(high, too_small);
    llvm::Value* in_range =
        b_.CreateSelect(invalid, llvm::Constant::getNullValue(floats_), integral);
    llvm::Value* converted =
        b_.CreateConstrainedFPCast(is_signed ? llvm::Intrinsic::experimental_constrained_fptosi
                                             : llvm::Intrinsic::experimental_constrained_fptoui,
                                   in_range, lanes_);
    llvm::Value* inexact = b_.CreateAnd(b_.CreateNot(invalid), b_.CreateICmpNE(bits, input));
    accrue(b_.CreateOr(any_flag(on, invalid, fp::kNV), any_flag(on, inexact, fp::kNX)));
    return b_.CreateSelect(
        high, w_.splat(is_signed ? INT32_MAX : UINT32_MAX),
        b_.CreateSelect(too_small, w_.splat(is_signed ? 0x80000000u : 0), converted));
  }

  llvm::Value* is_nan(llvm::Value* x) {
    return b_.CreateICmpUGT(b_.CreateAnd(x, w_.splat(~kSignBit)), w_.splat(kInfinity));
  }
  llvm::Value* is_snan(llvm::Value* x) {
    return b_.CreateAnd(is_nan(x),
                        b_.CreateICmpEQ(b_.CreateAnd(x, w_.splat(kQuietBit)), w_.splat(0)));
  }
  // A signed integer that orders non-NaN values as floats do, with -0 and +0 equal.
  llvm::Value* order_key(llvm::Value* x) {
    llvm::Value* magnitude = b_.CreateAnd(x, w_.splat(~kSignBit));
    return b_.CreateSelect(b_.CreateICmpSLT(x, w_.splat(0)), b_.CreateNeg(magnitude), magnitude);
  }
  // `flag` when any active lane has `raises` set, else 0.
  llvm::Value* any_flag(llvm::Value* on, llvm::Value* raises, uint32_t flag) {
    llvm::Value* any =
        b_.CreateICmpNE(b_.CreateBitCast(b_.CreateAnd(on, raises), i32_), b_.getInt32(0));
    return b_.CreateSelect(any, b_.getInt32(flag), b_.getInt32(0));
  }
  void accrue_invalid(llvm::Value* on, llvm::Value* invalid) {
    accrue(any_flag(on, invalid, fp::kNV));
  }

  // fp::min / fp::max (minimumNumber, maximumNumber; -0 below +0) in integer operations.
  llvm::Value* min_max(bool min, llvm::Value* on, llvm::Value* a, llvm::Value* b) {
    accrue_invalid(on, b_.CreateOr(is_snan(a), is_snan(b)));
    llvm::Value* ka = order_key(a);
    llvm::Value* kb = order_key(b);
    llvm::Value* a_wins = min ? b_.CreateICmpSLT(ka, kb) : b_.CreateICmpSGT(ka, kb);
    llvm::Value* b_wins = min ? b_.CreateICmpSLT(kb, ka) : b_.CreateICmpSGT(kb, ka);
    llvm::Value* tie = min ? b_.CreateOr(a, b) : b_.CreateAnd(a, b);
    llvm::Value* ordered = b_.CreateSelect(a_wins, a, b_.CreateSelect(b_wins, b, tie));
    llvm::Value* nan_a = is_nan(a);
    llvm::Value* nan_b = is_nan(b);
    return b_.CreateSelect(nan_a, b_.CreateSelect(nan_b, w_.splat(fp::kCanonicalNaN), b),
                           b_.CreateSelect(nan_b, a, ordered));
  }

  // fp::eq (quiet: NV for a signaling NaN), fp::lt and fp::le (signaling: NV for any NaN),
  // as 0/1 lane values.
  llvm::Value* compare(Kind kind, llvm::Value* on, llvm::Value* a, llvm::Value* b) {
    llvm::Value* unordered = b_.CreateOr(is_nan(a), is_nan(b));
    const bool quiet = kind == Kind::Eq || kind == Kind::Ne;
    accrue_invalid(on, quiet ? b_.CreateOr(is_snan(a), is_snan(b)) : unordered);
    llvm::Value* ka = order_key(a);
    llvm::Value* kb = order_key(b);
    llvm::Value* holds = nullptr;
    switch (kind) {
      case Kind::Eq:
      case Kind::Ne: holds = b_.CreateICmpEQ(ka, kb); break;
      case Kind::Lt: holds = b_.CreateICmpSLT(ka, kb); break;
      case Kind::Le: holds = b_.CreateICmpSLE(ka, kb); break;
      case Kind::Gt: holds = b_.CreateICmpSGT(ka, kb); break;
      default: holds = b_.CreateICmpSGE(ka, kb); break;  // Kind::Ge
    }
    llvm::Value* result = b_.CreateAnd(b_.CreateNot(unordered), holds);
    if (kind == Kind::Ne) result = b_.CreateNot(result);
    return b_.CreateZExt(result, lanes_);
  }

  MxcsrRun& run_;
  llvm::IRBuilder<>& b_;
  llvm::LLVMContext& c_;
  llvm::Value* warp_;
  WarpIr w_;
  llvm::Function* fn_;
  llvm::Type* i32_ = nullptr;
  llvm::FixedVectorType *lanes_ = nullptr, *floats_ = nullptr;
};

}  // namespace

MxcsrRun::MxcsrRun(llvm::IRBuilder<>& b, llvm::Value* warp,
                   const std::vector<sim::CachedInsn>& entries)
    : warp_(warp) {
  for (const sim::CachedInsn& entry : entries)
    used_ |= is_fp32_inlined(entry) && uses_frm(row_of(entry.insn.op)->kind);
  if (!used_) return;
  b.GetInsertBlock()->getParent()->addFnAttr(llvm::Attribute::StrictFP);
  is_open_ = b.CreateAlloca(b.getInt1Ty());
  saved_ = b.CreateAlloca(b.getInt32Ty());
  mode_ = b.CreateAlloca(b.getInt32Ty());
  b.CreateStore(b.getFalse(), is_open_);
}

namespace {
void call_mxcsr(llvm::IRBuilder<>& b, llvm::Intrinsic::ID id, llvm::Value* slot) {
  b.CreateCall(llvm::Intrinsic::getDeclaration(b.GetInsertBlock()->getModule(), id), {slot});
}
}  // namespace

void MxcsrRun::open(llvm::IRBuilder<>& b, llvm::Value* frm) {
  llvm::Function* fn = b.GetInsertBlock()->getParent();
  auto* set = llvm::BasicBlock::Create(b.getContext(), "mxcsr_set", fn);
  auto* done = llvm::BasicBlock::Create(b.getContext(), "mxcsr_ready", fn);
  b.CreateCondBr(b.CreateLoad(b.getInt1Ty(), is_open_), done, set);
  b.SetInsertPoint(set);
  // frm 0..3 -> the rounding control field (two bits at bit 13), from a packed table.
  uint32_t packed = 0;
  for (uint32_t rm = 0; rm < 4; ++rm) packed |= (fp::mxcsr::kRoundingControl[rm] >> 13) << (2 * rm);
  llvm::Value* control = b.CreateShl(
      b.CreateAnd(b.CreateLShr(b.getInt32(packed), b.CreateShl(frm, 1)), b.getInt32(3)), 13);
  call_mxcsr(b, llvm::Intrinsic::x86_sse_stmxcsr, saved_);
  b.CreateStore(b.CreateOr(control, b.getInt32(fp::mxcsr::kAllMasked)), mode_);
  call_mxcsr(b, llvm::Intrinsic::x86_sse_ldmxcsr, mode_);
  b.CreateStore(b.getTrue(), is_open_);
  b.CreateBr(done);
  b.SetInsertPoint(done);
}

namespace {
// The end of a run, out of line (a block has a close at every exit): the run's sticky flags
// accrued, the host's control bits back (mxcsr::needs_restore).
void restore_mxcsr(uint32_t saved, sim::Warp* warp) noexcept {
#if defined(__x86_64__)
  const uint32_t current = _mm_getcsr();
  warp->fflags |= fp::mxcsr::to_flags(current);
  if (fp::mxcsr::needs_restore(saved, current)) _mm_setcsr(saved);
#else
  (void)saved, (void)warp;  // never emitted: no row opens a run on this host
#endif
}
}  // namespace

void MxcsrRun::close(llvm::IRBuilder<>& b) {
  if (!used_) return;
  llvm::Function* fn = b.GetInsertBlock()->getParent();
  auto* restore = llvm::BasicBlock::Create(b.getContext(), "mxcsr_restore", fn);
  auto* done = llvm::BasicBlock::Create(b.getContext(), "mxcsr_restored", fn);
  b.CreateCondBr(b.CreateLoad(b.getInt1Ty(), is_open_), restore, done);
  b.SetInsertPoint(restore);
  auto* type = llvm::FunctionType::get(b.getVoidTy(), {b.getInt32Ty(), b.getPtrTy()}, false);
  auto* callee = llvm::ConstantExpr::getIntToPtr(
      b.getInt64(reinterpret_cast<uint64_t>(&restore_mxcsr)), b.getPtrTy());
  llvm::CallInst* call = b.CreateCall(type, callee, {b.CreateLoad(b.getInt32Ty(), saved_), warp_});
  call->addFnAttr(llvm::Attribute::NoUnwind);
  FieldShadows::keeps_fields(call);
  b.CreateStore(b.getFalse(), is_open_);
  b.CreateBr(done);
  b.SetInsertPoint(done);
}

bool is_fp32_inlined(const sim::CachedInsn& entry) {
  const sim::Insn& in = entry.insn;
  const std::optional<Row> row = row_of(in.op);
  if (!row || in.abs || in.neg || in.pair) return false;
  const auto vector = [](unsigned r) { return r < sim::kNumVRegs; };
  const bool registers = vector(in.rd) && vector(in.rs2) &&
                         (row->scalar ? in.rs1 < sim::kNumXRegs : vector(in.rs1)) &&
                         (row->kind != Kind::Fma || vector(in.rs3));
  return registers && host_has(row->kind);
}

void emit_fp32(llvm::IRBuilder<>& b, llvm::Value* warp, FieldShadows* shadows, const sim::Insn& in,
               MxcsrRun& run, bool vtype_checked, const std::function<void()>& emit_call) {
  Emitter(b, warp, shadows, run).emit(in, *row_of(in.op), vtype_checked, emit_call);
}

}  // namespace ventus::jit
