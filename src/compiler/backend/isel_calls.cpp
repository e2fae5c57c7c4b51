// Instruction selection: calls, the builtins the library reaches through __vt_* functions
// (CSR reads, barriers, lane ids), printf and LLVM intrinsics.
#include "isel_internal.h"
#include "ventus/print_value.h"

namespace ventus::cc::backend::selection {

void Selector::fma_element(uint32_t dst, Src a, Src b, Src c, bool negate_product,
                           bool negate_addend) {
  if (mf_.class_of(dst) == RegClass::Scalar) {
    const isa::Op op = !negate_product ? (negate_addend ? isa::Op::FMSUB_S : isa::Op::FMADD_S)
                                       : (negate_addend ? isa::Op::FNMADD_S : isa::Op::FNMSUB_S);
    emit(op, {Operand::reg_of(dst), Operand::reg_of(scalar_reg(a)), Operand::reg_of(scalar_reg(b)),
              Operand::reg_of(scalar_reg(c))});
    return;
  }
  // vfmacc family: vd = ±(vs1 * vs2) ± vd, with vd holding the addend.
  const FpOp family =
      !negate_product
          ? (negate_addend ? FpOp{kNone, isa::Op::VFMSAC_VV, isa::Op::VFMSAC_VF, true}
                           : FpOp{kNone, isa::Op::VFMACC_VV, isa::Op::VFMACC_VF, true})
          : (negate_addend ? FpOp{kNone, isa::Op::VFNMACC_VV, isa::Op::VFNMACC_VF, true}
                           : FpOp{kNone, isa::Op::VFNMSAC_VV, isa::Op::VFNMSAC_VF, true});
  move(dst, c);
  bool a_vec = !a.is_imm && a.cls == RegClass::Vector;
  bool b_vec = !b.is_imm && b.cls == RegClass::Vector;
  if (!a_vec && b_vec) std::swap(a, b), std::swap(a_vec, b_vec);
  if (a_vec && !b_vec) {
    emit(family.vf, {Operand::reg_of(dst), Operand::reg_of(scalar_reg(b)), Operand::reg_of(a.reg)});
    return;
  }
  emit(family.vv,
       {Operand::reg_of(dst), Operand::reg_of(vector_reg(a)), Operand::reg_of(vector_reg(b))});
}

void Selector::select_call(llvm::CallInst& call) {
  if (auto* intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(&call))
    return select_intrinsic(*intrinsic);
  if (call.isInlineAsm()) return select_inline_asm(call);
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
    emit(Pseudo::Csrr,
         {Operand::reg_of(d), Operand::csr(static_cast<uint16_t>(csr->getZExtValue()))});
    return;
  }
  if (name == "__vt_lane_id") {
    emit(isa::Op::VID_V, {Operand::reg_of(result_regs(&call)[0])});
    return;
  }
  if (name == "__vt_barrier") {
    auto* flags = llvm::dyn_cast<llvm::ConstantInt>(call.getArgOperand(0));
    if (!flags) unsupported(&call, "a barrier with variable fence flags");
    emit(isa::Op::BARRIER, {Operand::reg_of(kZero), Operand::reg_of(kZero),
                            Operand::immediate(flags->getZExtValue() & 31)});
    return;
  }
  if (name == "__vt_mulh" || name == "__vt_mulhu") {
    bool s = name == "__vt_mulh";
    int_op({s ? isa::Op::MULH : isa::Op::MULHU, kNone, s ? isa::Op::VMULH_VV : isa::Op::VMULHU_VV,
            s ? isa::Op::VMULH_VX : isa::Op::VMULHU_VX, kNone, true},
           result_regs(&call)[0], src(call.getArgOperand(0)), src(call.getArgOperand(1)));
    return;
  }
  if (name == "__vt_cvt_f16_f32" || name == "__vt_cvt_f32_f16") {
    // The device's half <-> float conversions (SEW = 32); a uniform value is converted in
    // a vector register and read back with vmv.x.s.
    const isa::Op op = name == "__vt_cvt_f16_f32" ? isa::Op::VFCVT_F_H_V : isa::Op::VFCVT_H_F_V;
    const uint32_t d = result_regs(&call)[0];
    const bool scalar = mf_.class_of(d) == RegClass::Scalar;
    const uint32_t out = scalar ? new_v() : d;
    emit(op, {Operand::reg_of(out), Operand::reg_of(vector_reg(src(call.getArgOperand(0))))});
    if (scalar) emit(isa::Op::VMV_X_S, {Operand::reg_of(d), Operand::reg_of(out)});
    return;
  }
  if (name == "printf") return select_printf(call);
  if (callee->isDeclaration())
    unsupported(&call, fmt::format("a call to '{}', which is not defined (not an OpenCL builtin "
                                   "this compiler provides)",
                                   name.str()));
  if (callee->getCallingConv() == llvm::CallingConv::SPIR_KERNEL)
    unsupported(&call, "a call to a kernel from device code");
  // The guide's convention: arguments in v0.., results in v0..v15, all per thread.
  mf_.makes_calls = true;
  mf_.callees.push_back(name.str());
  MInst jal = make_inst(isa::Op::JAL, {Operand::reg_of(kRa), Operand::literal(name.str())});
  jal.is_call = true;
  unsigned next = 0;
  std::vector<std::pair<uint32_t, Src>> moves;
  for (llvm::Value* arg : call.args()) {
    check_type(&call, arg->getType());
    for (unsigned k = 0; k < elements(arg->getType()); ++k) {
      if (next >= kArgumentRegisters)
        unsupported(&call,
                    fmt::format("more than {} argument registers in a call", kArgumentRegisters));
      moves.push_back({vreg_phys(next), src(arg, k)});
      jal.implicit_uses.push_back(vreg_phys(next++));
    }
  }
  // Materialize operands first so the physical argument registers are written last.
  for (auto& [phys, s] : moves)
    if (s.is_imm && !immediate_fits(isa::Op::VMV_V_I, s.imm))
      s = {false, 0, scalar_reg(s), RegClass::Scalar};
  for (const auto& [phys, s] : moves) emit_vector_move(phys, s);
  if (!call.getType()->isVoidTy()) {
    const std::vector<uint32_t>& d = result_regs(&call);
    if (d.size() > kResultRegisters)
      unsupported(&call, fmt::format("a result of more than {} registers", kResultRegisters));
    for (size_t k = 0; k < d.size(); ++k) jal.implicit_defs.push_back(vreg_phys(k));
    cur_->insts.push_back(std::move(jal));
    for (size_t k = 0; k < d.size(); ++k)
      emit(isa::Op::VMV_V_V, {Operand::reg_of(d[k]), Operand::reg_of(vreg_phys(k))});
    return;
  }
  cur_->insts.push_back(std::move(jal));
}

namespace {

// How a printf argument's element travels (the host reads it back by the format).
abi::PrintValue print_value(const llvm::Type* element) {
  if (element->isDoubleTy()) return abi::PrintValue::float64;
  if (element->isFloatTy()) return abi::PrintValue::float32;
  if (element->isHalfTy()) return abi::PrintValue::float16;
  if (element->isIntegerTy(64)) return abi::PrintValue::int64;
  return abi::PrintValue::word;
}

}  // namespace

// printf goes to vt_printf (docs/driver.md, "Print buffer"): a0 = format, a1 = words,
// v0..v29 = the arguments' words per thread, each value as abi::PrintValue says (a double,
// which every scalar float and half argument is after C's promotion, as its two words;
// vectors element by element). The host reads the words back as the format's conversions
// say.
void Selector::select_printf(llvm::CallInst& call) {
  mf_.makes_calls = true;
  mf_.uses_printf = true;
  MInst jal = make_inst(isa::Op::JAL, {Operand::reg_of(kRa), Operand::literal("vt_printf")});
  jal.is_call = true;
  std::vector<Src> words;
  for (unsigned a = 1; a < call.arg_size(); ++a) {
    llvm::Value* v = call.getArgOperand(a);
    check_type(&call, v->getType());
    const uint32_t per_element = abi::print_words(print_value(scalar_type(v->getType())));
    auto* vector = llvm::dyn_cast<llvm::FixedVectorType>(v->getType());
    const unsigned count = vector ? vector->getNumElements() : 1;
    for (unsigned e = 0; e < count; ++e)
      for (uint32_t w = 0; w < per_element; ++w) words.push_back(src(v, e * per_element + w));
  }
  if (words.size() > abi::kPrintMaxArgs)
    unsupported(&call, fmt::format("printf of {} 32-bit words (a 64-bit value takes 2, a vector "
                                   "one per element); at most {} fit a print record",
                                   words.size(), abi::kPrintMaxArgs));
  std::vector<std::pair<uint32_t, Src>> moves;
  for (Src s : words) {
    if (s.is_imm && !immediate_fits(isa::Op::VMV_V_I, s.imm))
      s = {false, 0, scalar_reg(s), RegClass::Scalar};
    const uint32_t phys = vreg_phys(static_cast<uint32_t>(moves.size()));
    moves.push_back({phys, s});
    jal.implicit_uses.push_back(phys);
  }
  Src format = src(call.getArgOperand(0));
  uint32_t format_reg = scalar_reg(format);
  for (const auto& [phys, s] : moves) emit_vector_move(phys, s);
  emit(Pseudo::Mv, {Operand::reg_of(kA0), Operand::reg_of(format_reg)});
  emit(Pseudo::Li,
       {Operand::reg_of(kA0 + 1), Operand::immediate(static_cast<int64_t>(moves.size()))});
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
    const IntOp op =
        is_min
            ? (is_signed ? IntOp{kNone, kNone, isa::Op::VMIN_VV, isa::Op::VMIN_VX, kNone, true}
                         : IntOp{kNone, kNone, isa::Op::VMINU_VV, isa::Op::VMINU_VX, kNone, true})
            : (is_signed ? IntOp{kNone, kNone, isa::Op::VMAX_VV, isa::Op::VMAX_VX, kNone, true}
                         : IntOp{kNone, kNone, isa::Op::VMAXU_VV, isa::Op::VMAXU_VX, kNone, true});
    int_op(op, dst, a, b);
    return;
  }
  // RV32 has no min/max: d = b ^ ((a ^ b) & -(a < b)) for min, (b < a) for max.
  uint32_t less = new_s(), mask = new_s(), diff = new_s();
  const isa::Op slt = is_signed ? isa::Op::SLT : isa::Op::SLTU;
  if (is_min)
    emit(slt,
         {Operand::reg_of(less), Operand::reg_of(scalar_reg(a)), Operand::reg_of(scalar_reg(b))});
  else
    emit(slt,
         {Operand::reg_of(less), Operand::reg_of(scalar_reg(b)), Operand::reg_of(scalar_reg(a))});
  emit(Pseudo::Neg, {Operand::reg_of(mask), Operand::reg_of(less)});
  int_op(kXor, diff, a, b);
  emit(isa::Op::AND, {Operand::reg_of(diff), Operand::reg_of(diff), Operand::reg_of(mask)});
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
    case llvm::Intrinsic::invariant_end: return;
    default: break;
  }
  if (!call.getType()->isVoidTy() && is_f64(call.getType()) && select_fp64_intrinsic(call)) return;
  if (!call.getType()->isVoidTy() && is_64bit(call.getType()))
    unsupported(&call, fmt::format("the LLVM intrinsic '{}' on 64-bit values",
                                   call.getCalledFunction()->getName().str()));
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
        if (llvm::PatternMatch::match(
                a, llvm::PatternMatch::m_FNeg(llvm::PatternMatch::m_Value(inner)))) {
          a = inner;
          neg_product = true;
        }
        if (llvm::PatternMatch::match(
                c, llvm::PatternMatch::m_FNeg(llvm::PatternMatch::m_Value(inner)))) {
          c = inner;
          neg_addend = true;
        }
        fma_element(d[k], src(a, k), src(b, k), src(c, k), neg_product, neg_addend);
        break;
      }
      case llvm::Intrinsic::sqrt:
        if (scalar)
          emit(isa::Op::FSQRT_S, {Operand::reg_of(d[k]), Operand::reg_of(scalar_reg(arg(0)))});
        else
          emit(isa::Op::VFSQRT_V, {Operand::reg_of(d[k]), Operand::reg_of(vector_reg(arg(0)))});
        break;
      case llvm::Intrinsic::fabs: {
        if (scalar) {
          uint32_t r = scalar_reg(arg(0));
          emit(isa::Op::FSGNJX_S, {Operand::reg_of(d[k]), Operand::reg_of(r), Operand::reg_of(r)});
        } else {
          uint32_t r = vector_reg(arg(0));
          emit(isa::Op::VFSGNJX_VV,
               {Operand::reg_of(d[k]), Operand::reg_of(r), Operand::reg_of(r)});
        }
        break;
      }
      case llvm::Intrinsic::copysign: {
        Src a = arg(0), b = arg(1);
        if (scalar) {
          emit(isa::Op::FSGNJ_S, {Operand::reg_of(d[k]), Operand::reg_of(scalar_reg(a)),
                                  Operand::reg_of(scalar_reg(b))});
        } else if (!b.is_imm && b.cls == RegClass::Vector) {
          emit(isa::Op::VFSGNJ_VV,
               {Operand::reg_of(d[k]), Operand::reg_of(vector_reg(a)), Operand::reg_of(b.reg)});
        } else {
          emit(isa::Op::VFSGNJ_VF, {Operand::reg_of(d[k]), Operand::reg_of(vector_reg(a)),
                                    Operand::reg_of(scalar_reg(b))});
        }
        break;
      }
      case llvm::Intrinsic::minnum:
        if (is_f16(call.getType())) {
          half_op(isa::Op::V64FMIN_F16, d[k], arg(0), arg(1));
          break;
        }
        fp_op({isa::Op::FMIN_S, isa::Op::VFMIN_VV, isa::Op::VFMIN_VF, true}, d[k], arg(0), arg(1));
        break;
      case llvm::Intrinsic::maxnum:
        if (is_f16(call.getType())) {
          half_op(isa::Op::V64FMAX_F16, d[k], arg(0), arg(1));
          break;
        }
        fp_op({isa::Op::FMAX_S, isa::Op::VFMAX_VV, isa::Op::VFMAX_VF, true}, d[k], arg(0), arg(1));
        break;
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
          emit(isa::Op::SRAI, {Operand::reg_of(sign), Operand::reg_of(ra), Operand::immediate(31)});
          emit(isa::Op::XOR, {Operand::reg_of(t), Operand::reg_of(ra), Operand::reg_of(sign)});
          emit(isa::Op::SUB, {Operand::reg_of(d[k]), Operand::reg_of(t), Operand::reg_of(sign)});
        } else {
          uint32_t neg = new_v();
          int_op(kSub, neg, {true, 0, kNoReg, RegClass::Scalar}, a);
          emit(isa::Op::VMAX_VV,
               {Operand::reg_of(d[k]), Operand::reg_of(vector_reg(a)), Operand::reg_of(neg)});
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
      case llvm::Intrinsic::ssub_sat: saturating(id, bits, d[k], arg(0), arg(1)); break;
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
          Src other =
              op2(left ? kSrl : kSll, cls,
                  op2(left ? kSrl : kSll, cls, left ? b : a, {true, 1, kNoReg, RegClass::Scalar}),
                  back);
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
        unsupported(&call, fmt::format("the LLVM intrinsic '{}'",
                                       call.getCalledFunction()->getName().str()));
    }
  }
}

}  // namespace ventus::cc::backend::selection
