#include "emit_vint.h"

#include <llvm/IR/Intrinsics.h>

#include <optional>

#include "warp_ir.h"

namespace ventus::jit {

using isa::Op;

namespace {

// What an inlined row computes (semantics/vector_int.cpp), with a = vs2 and b = vs1, x[rs1]
// or the immediate.
enum class Kind : uint8_t {
  Add,
  Sub,
  ReverseSub,
  And,
  Or,
  Xor,
  Sll,
  Srl,
  Sra,
  Minu,
  Min,
  Maxu,
  Max,
  // The compares write 0/1 into the element (Ventus: no packed mask bits).
  Eq,
  Ne,
  Ltu,
  Lt,
  Leu,
  Le,
  Gtu,
  Gt,
  Mul,
  Mulh,
  Mulhu,
  Mulhsu,
  Divu,
  Div,
  Remu,
  Rem,
  // Multiply-add: x = b, y = vs2 and z = the accumulator v[rs3] (the old vd).
  Macc,   // z + x * y
  Nmsac,  // z - x * y
  Madd,   // x * z + y
  Nmsub,  // y - x * z
  Merge,  // v0 bit 0 ? b : a, on the SIMT-active lanes below vl (v0 selects, it does not mask)
  Move,   // b
  Id,     // the lane index
  ToX,    // vmv.x.s: x[rd] = the highest active lane's vs2
};

// Where b comes from.
enum class Src : uint8_t { None, V, X, I };

struct Row {
  Kind kind;
  Src src;
};

bool is_division(Kind kind) {
  return kind >= Kind::Divu && kind <= Kind::Rem;
}
bool is_multiply_add(Kind kind) {
  return kind >= Kind::Macc && kind <= Kind::Nmsub;
}

std::optional<Row> row_of(Op op) {
  switch (op) {
// clang-format off
#define VT_VV(ID, KIND) case Op::ID##_VV: return Row{Kind::KIND, Src::V};
#define VT_VX(ID, KIND) case Op::ID##_VX: return Row{Kind::KIND, Src::X};
#define VT_VI(ID, KIND) case Op::ID##_VI: return Row{Kind::KIND, Src::I};
// clang-format on
#define VT_VVX(ID, KIND) VT_VV(ID, KIND) VT_VX(ID, KIND)
#define VT_VVXI(ID, KIND) VT_VV(ID, KIND) VT_VX(ID, KIND) VT_VI(ID, KIND)
    VT_VVXI(VADD, Add)
    VT_VVX(VSUB, Sub)
    VT_VX(VRSUB, ReverseSub)
    VT_VI(VRSUB, ReverseSub)
    VT_VVXI(VAND, And)
    VT_VVXI(VOR, Or)
    VT_VVXI(VXOR, Xor)
    VT_VVXI(VSLL, Sll)
    VT_VVXI(VSRL, Srl)
    VT_VVXI(VSRA, Sra)
    VT_VVX(VMINU, Minu)
    VT_VVX(VMIN, Min)
    VT_VVX(VMAXU, Maxu)
    VT_VVX(VMAX, Max)
    VT_VVXI(VMSEQ, Eq)
    VT_VVXI(VMSNE, Ne)
    VT_VVX(VMSLTU, Ltu)
    VT_VVX(VMSLT, Lt)
    VT_VVXI(VMSLEU, Leu)
    VT_VVXI(VMSLE, Le)
    VT_VX(VMSGTU, Gtu)
    VT_VI(VMSGTU, Gtu)
    VT_VX(VMSGT, Gt)
    VT_VI(VMSGT, Gt)
    VT_VVX(VMUL, Mul)
    VT_VVX(VMULH, Mulh)
    VT_VVX(VMULHU, Mulhu)
    VT_VVX(VMULHSU, Mulhsu)
    VT_VVX(VDIVU, Divu)
    VT_VVX(VDIV, Div)
    VT_VVX(VREMU, Remu)
    VT_VVX(VREM, Rem)
    VT_VVX(VMACC, Macc)
    VT_VVX(VNMSAC, Nmsac)
    VT_VVX(VMADD, Madd)
    VT_VVX(VNMSUB, Nmsub)
#undef VT_VVXI
#undef VT_VVX
#undef VT_VI
#undef VT_VX
#undef VT_VV
    case Op::VMERGE_VVM: return Row{Kind::Merge, Src::V};
    case Op::VMERGE_VXM: return Row{Kind::Merge, Src::X};
    case Op::VMERGE_VIM: return Row{Kind::Merge, Src::I};
    case Op::VMV_V_V: return Row{Kind::Move, Src::V};
    case Op::VMV_V_X:
    case Op::VMV_S_X: return Row{Kind::Move, Src::X};  // Ventus makes vmv.s.x a vmv.v.x
    case Op::VMV_V_I: return Row{Kind::Move, Src::I};
    case Op::VID_V: return Row{Kind::Id, Src::None};
    case Op::VMV_X_S: return Row{Kind::ToX, Src::None};
    default: return std::nullopt;
  }
}

class Emitter {
 public:
  Emitter(llvm::IRBuilder<>& b, llvm::Value* warp, FieldShadows* shadows)
      : b_(b), c_(b.getContext()), w_(b, warp, shadows), fn_(b.GetInsertBlock()->getParent()) {}

  void emit(const sim::Insn& in, const Row& row, bool vtype_checked,
            const std::function<void()>& emit_call) {
    if (vtype_checked) {
      emit_inline(in, row);
      return;
    }
    auto* fast = llvm::BasicBlock::Create(c_, "vint", fn_);
    auto* slow = llvm::BasicBlock::Create(c_, "vint_call", fn_);
    auto* done = llvm::BasicBlock::Create(c_, "vint_done", fn_);
    b_.CreateCondBr(w_.is_sew32_lmul1(), fast, slow);
    b_.SetInsertPoint(slow);
    emit_call();
    b_.CreateBr(done);

    b_.SetInsertPoint(fast);
    emit_inline(in, row);
    b_.CreateBr(done);
    b_.SetInsertPoint(done);
  }

 private:
  void emit_inline(const sim::Insn& in, const Row& row) {
    if (row.kind == Kind::ToX)
      emit_to_x(in);
    else
      emit_lanes(in, row);
  }

  // vmv.x.s with no active lane keeps x[rd].
  void emit_to_x(const sim::Insn& in) {
    llvm::Value* active = w_.active_lanes(1);
    auto* some = llvm::BasicBlock::Create(c_, "vint_to_x", fn_);
    auto* done = llvm::BasicBlock::Create(c_, "vint_to_x_done", fn_);
    b_.CreateCondBr(b_.CreateICmpNE(active, b_.getInt32(0)), some, done);
    b_.SetInsertPoint(some);
    llvm::Value* last = b_.CreateSub(
        b_.getInt32(31), b_.CreateBinaryIntrinsic(llvm::Intrinsic::ctlz, active, b_.getTrue()));
    // From the warp's register file, which write_v keeps current: an extract at a lane known
    // only at run time spilled both halves of the register to the stack to load one lane.
    w_.write_x(in.rd, b_.CreateAlignedLoad(b_.getInt32Ty(),
                                           b_.CreateGEP(b_.getInt32Ty(), w_.v_row(in.rs2), last),
                                           llvm::Align(4)));
    b_.CreateBr(done);
    b_.SetInsertPoint(done);
  }

  void emit_lanes(const sim::Insn& in, const Row& row) {
    // merge and the mask-less moves ignore vm (vmerge's vm = 0 names v0 as the selector).
    llvm::Value* on = w_.lane_bits(w_.active_lanes(row.kind == Kind::Merge ? 1 : in.vm));
    llvm::Value* a = w_.read_v(in.rs2);
    if (row.src == Src::X && is_division(row.kind)) {
      w_.write_lanes(in.rd, on, divide_by_scalar(row.kind, a, w_.read_x(in.rs1)));
      return;
    }
    llvm::Value* second = nullptr;
    switch (row.src) {
      case Src::V: second = w_.read_v(in.rs1); break;
      case Src::X: second = b_.CreateVectorSplat(sim::kMaxLanes, w_.read_x(in.rs1)); break;
      case Src::I: second = w_.splat(static_cast<uint32_t>(in.imm)); break;
      case Src::None: break;
    }
    llvm::Value* z = is_multiply_add(row.kind) ? w_.read_v(in.rs3) : nullptr;
    w_.write_lanes(in.rd, on, compute(row.kind, a, second, z));
  }

  llvm::Value* compute(Kind kind, llvm::Value* a, llvm::Value* b, llvm::Value* z) {
    const auto bit = [&](llvm::Value* holds) { return b_.CreateZExt(holds, w_.lanes()); };
    const auto shift = [&] { return b_.CreateAnd(b, w_.splat(31)); };
    switch (kind) {
      case Kind::Add: return b_.CreateAdd(a, b);
      case Kind::Sub: return b_.CreateSub(a, b);
      case Kind::ReverseSub: return b_.CreateSub(b, a);
      case Kind::And: return b_.CreateAnd(a, b);
      case Kind::Or: return b_.CreateOr(a, b);
      case Kind::Xor: return b_.CreateXor(a, b);
      case Kind::Sll: return b_.CreateShl(a, shift());
      case Kind::Srl: return b_.CreateLShr(a, shift());
      case Kind::Sra: return b_.CreateAShr(a, shift());
      case Kind::Minu: return b_.CreateSelect(b_.CreateICmpULT(a, b), a, b);
      case Kind::Min: return b_.CreateSelect(b_.CreateICmpSLT(a, b), a, b);
      case Kind::Maxu: return b_.CreateSelect(b_.CreateICmpUGT(a, b), a, b);
      case Kind::Max: return b_.CreateSelect(b_.CreateICmpSGT(a, b), a, b);
      case Kind::Eq: return bit(b_.CreateICmpEQ(a, b));
      case Kind::Ne: return bit(b_.CreateICmpNE(a, b));
      case Kind::Ltu: return bit(b_.CreateICmpULT(a, b));
      case Kind::Lt: return bit(b_.CreateICmpSLT(a, b));
      case Kind::Leu: return bit(b_.CreateICmpULE(a, b));
      case Kind::Le: return bit(b_.CreateICmpSLE(a, b));
      case Kind::Gtu: return bit(b_.CreateICmpUGT(a, b));
      case Kind::Gt: return bit(b_.CreateICmpSGT(a, b));
      case Kind::Mul: return b_.CreateMul(a, b);
      case Kind::Mulh: return high_product(a, true, b, true);
      case Kind::Mulhu: return high_product(a, false, b, false);
      case Kind::Mulhsu: return high_product(a, true, b, false);
      case Kind::Divu:
      case Kind::Remu:
      case Kind::Div:
      case Kind::Rem: return divide(kind, a, b);
      case Kind::Macc: return b_.CreateAdd(z, b_.CreateMul(b, a));
      case Kind::Nmsac: return b_.CreateSub(z, b_.CreateMul(b, a));
      case Kind::Madd: return b_.CreateAdd(b_.CreateMul(b, z), a);
      case Kind::Nmsub: return b_.CreateSub(a, b_.CreateMul(b, z));
      case Kind::Merge: return b_.CreateSelect(w_.lane_bits(w_.v0_mask()), b, a);
      case Kind::Move: return b;
      case Kind::Id: return lane_times(c_, 1);
      case Kind::ToX: break;
    }
    throw std::logic_error("JIT: no inline lanes for this vector integer row");
  }

  // The high 32 bits of the 64-bit product of a and b, each sign- or zero-extended.
  llvm::Value* high_product(llvm::Value* a, bool a_signed, llvm::Value* b, bool b_signed) {
    auto* wide = llvm::FixedVectorType::get(b_.getInt64Ty(), sim::kMaxLanes);
    const auto extend = [&](llvm::Value* x, bool is_signed) {
      return is_signed ? b_.CreateSExt(x, wide) : b_.CreateZExt(x, wide);
    };
    llvm::Value* product = b_.CreateMul(extend(a, a_signed), extend(b, b_signed));
    return b_.CreateTrunc(b_.CreateLShr(product, 32), w_.lanes());
  }

  // RVV division: x / 0 = all ones, x % 0 = x; signed overflow (INT_MIN / -1) = INT_MIN,
  // remainder 0. The host divides by 1 where the row's divisor has no host quotient, which
  // gives x itself and remainder 0: INT_MIN and 0 for the overflow.
  llvm::Value* divide(Kind kind, llvm::Value* a, llvm::Value* b) {
    llvm::Value* by_zero = b_.CreateICmpEQ(b, w_.splat(0));
    const bool is_signed = kind == Kind::Div || kind == Kind::Rem;
    llvm::Value* no_quotient = by_zero;
    if (is_signed)
      no_quotient = b_.CreateOr(by_zero, b_.CreateAnd(b_.CreateICmpEQ(a, w_.splat(0x80000000u)),
                                                      b_.CreateICmpEQ(b, w_.splat(~0u))));
    llvm::Value* divisor = b_.CreateSelect(no_quotient, w_.splat(1), b);
    switch (kind) {
      case Kind::Divu: return b_.CreateSelect(by_zero, w_.splat(~0u), b_.CreateUDiv(a, divisor));
      case Kind::Div: return b_.CreateSelect(by_zero, w_.splat(~0u), b_.CreateSDiv(a, divisor));
      case Kind::Remu: return b_.CreateSelect(by_zero, a, b_.CreateURem(a, divisor));
      default: return b_.CreateSelect(by_zero, a, b_.CreateSRem(a, divisor));  // Kind::Rem
    }
  }

  // The .vx division rows: every lane divides by the same x. The unsigned rows by a power of
  // two (a work-group size: get_global_id's vremu.vx and vdivu.vx in a 2-D or 3-D range)
  // shift or mask each lane; the reciprocal below takes two 64-bit multiplies per lane.
  llvm::Value* divide_by_scalar(Kind kind, llvm::Value* a, llvm::Value* x) {
    if (kind != Kind::Divu && kind != Kind::Remu) return divide_by_reciprocal(kind, a, x);
    auto* shift = llvm::BasicBlock::Create(c_, "vdiv_power_of_two", fn_);
    auto* general = llvm::BasicBlock::Create(c_, "vdiv_reciprocal", fn_);
    auto* done = llvm::BasicBlock::Create(c_, "vdiv_done", fn_);
    llvm::Value* x_less_one = b_.CreateSub(x, b_.getInt32(1));
    b_.CreateCondBr(b_.CreateAnd(b_.CreateICmpNE(x, b_.getInt32(0)),
                                 b_.CreateICmpEQ(b_.CreateAnd(x, x_less_one), b_.getInt32(0))),
                    shift, general);
    b_.SetInsertPoint(shift);
    llvm::Value* by_shift =
        kind == Kind::Divu
            ? b_.CreateLShr(a, b_.CreateVectorSplat(sim::kMaxLanes,
                                                    b_.CreateBinaryIntrinsic(llvm::Intrinsic::cttz,
                                                                             x, b_.getTrue())))
            : b_.CreateAnd(a, b_.CreateVectorSplat(sim::kMaxLanes, x_less_one));
    b_.CreateBr(done);
    b_.SetInsertPoint(general);
    llvm::Value* by_reciprocal = divide_by_reciprocal(kind, a, x);
    llvm::BasicBlock* general_end = b_.GetInsertBlock();
    b_.CreateBr(done);
    b_.SetInsertPoint(done);
    llvm::PHINode* result = b_.CreatePHI(w_.lanes(), 2);
    result->addIncoming(by_shift, shift);
    result->addIncoming(by_reciprocal, general_end);
    return result;
  }

  // Instead of 32 host divisions, one 64-bit division gives a reciprocal for vector
  // multiplies. For 32-bit n and 1 < d < 2^32, n / d is the high 64 bits of n * M with
  // M = floor((2^64 - 1) / d) + 1 (Lemire, Kaser, Kurz, "Faster remainder by direct
  // computation", 2019); M wraps to 0 for d = 1, whose quotient is n. The signed rows divide
  // the magnitudes (|INT_MIN| = 2^31 as an unsigned word) and give the quotient the sign of
  // a ^ x; the remainders are a - q * x. So INT_MIN / -1 = 2^31 / 1 = INT_MIN with remainder
  // 0, and a zero x selects divide()'s results.
  llvm::Value* divide_by_reciprocal(Kind kind, llvm::Value* a, llvm::Value* x) {
    const bool is_signed = kind == Kind::Div || kind == Kind::Rem;
    llvm::Type* i64 = b_.getInt64Ty();
    auto* wide = llvm::FixedVectorType::get(i64, sim::kMaxLanes);
    const auto magnitude = [&](llvm::Value* v) {
      return b_.CreateSelect(b_.CreateICmpSLT(v, llvm::Constant::getNullValue(v->getType())),
                             b_.CreateNeg(v), v);
    };
    llvm::Value* d = is_signed ? magnitude(x) : x;
    llvm::Value* by_zero = b_.CreateICmpEQ(x, b_.getInt32(0));
    llvm::Value* safe = b_.CreateZExt(b_.CreateSelect(by_zero, b_.getInt32(1), d), i64);
    llvm::Value* m = b_.CreateAdd(b_.CreateUDiv(b_.getInt64(~uint64_t{0}), safe), b_.getInt64(1));
    llvm::Value* m_high = b_.CreateVectorSplat(sim::kMaxLanes, b_.CreateLShr(m, 32));
    llvm::Value* m_low =
        b_.CreateVectorSplat(sim::kMaxLanes, b_.CreateAnd(m, b_.getInt64(0xffffffffu)));
    llvm::Value* n = is_signed ? magnitude(a) : a;
    llvm::Value* n_wide = b_.CreateZExt(n, wide);
    llvm::Value* sum =
        b_.CreateAdd(b_.CreateMul(n_wide, m_high), b_.CreateLShr(b_.CreateMul(n_wide, m_low), 32));
    llvm::Value* q = b_.CreateTrunc(b_.CreateLShr(sum, 32), w_.lanes());
    q = b_.CreateSelect(b_.CreateICmpEQ(d, b_.getInt32(1)), n, q);
    llvm::Value* xs = b_.CreateVectorSplat(sim::kMaxLanes, x);
    if (is_signed)
      q = b_.CreateSelect(b_.CreateICmpSLT(b_.CreateXor(a, xs), w_.splat(0)), b_.CreateNeg(q), q);
    if (kind == Kind::Divu || kind == Kind::Div) return b_.CreateSelect(by_zero, w_.splat(~0u), q);
    return b_.CreateSelect(by_zero, a, b_.CreateSub(a, b_.CreateMul(q, xs)));
  }

  llvm::IRBuilder<>& b_;
  llvm::LLVMContext& c_;
  WarpIr w_;
  llvm::Function* fn_;
};

}  // namespace

bool is_vint_inlined(const sim::CachedInsn& entry) {
  const sim::Insn& in = entry.insn;
  const std::optional<Row> row = row_of(in.op);
  if (!row || in.abs || in.neg || in.pair) return false;
  const auto vector = [](unsigned r) { return r < sim::kNumVRegs; };
  if (row->kind == Kind::ToX) return in.rd < sim::kNumXRegs && vector(in.rs2);
  const bool second = row->src == Src::V   ? vector(in.rs1)
                      : row->src == Src::X ? in.rs1 < sim::kNumXRegs
                                           : true;
  const bool reads_vs2 = row->kind != Kind::Move && row->kind != Kind::Id;
  return vector(in.rd) && second && (!reads_vs2 || vector(in.rs2)) &&
         (!is_multiply_add(row->kind) || vector(in.rs3));
}

void emit_vint(llvm::IRBuilder<>& b, llvm::Value* warp, FieldShadows* shadows, const sim::Insn& in,
               bool vtype_checked, const std::function<void()>& emit_call) {
  Emitter(b, warp, shadows).emit(in, *row_of(in.op), vtype_checked, emit_call);
}

}  // namespace ventus::jit
