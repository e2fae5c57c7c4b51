// Instruction selection: 64-bit integers on register pairs (low word, high word).
#include "isel_internal.h"

namespace ventus::cc::backend::selection {

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
            hi = c >= 32 ? op(kSll, alo, imm_src(c - 32))
                         : op(kOr, op(kSll, ahi, imm_src(c)), op(kSrl, alo, imm_src(32 - c)));
          } else {
            const IntOp& right = arith ? kSra : kSrl;
            hi = c >= 32 ? (arith ? op(kSra, ahi, imm_src(31)) : imm_src(0))
                         : op(right, ahi, imm_src(c));
            lo = c >= 32 ? op(right, ahi, imm_src(c - 32))
                         : op(kOr, op(kSrl, alo, imm_src(c)), op(kSll, ahi, imm_src(32 - c)));
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
        auto pick = [&](Src when_big,
                        Src otherwise) {  // otherwise ^ ((when_big ^ otherwise) & mask)
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

void Selector::icmp64(llvm::CmpInst::Predicate pred, uint32_t dst, Src alo, Src ahi, Src blo,
                      Src bhi) {
  using P = llvm::CmpInst::Predicate;
  RegClass cls = mf_.class_of(dst);
  auto op = [&](const IntOp& o, Src a, Src b) { return op2(o, cls, a, b); };
  if (pred == P::ICMP_EQ || pred == P::ICMP_NE) {
    Src diff = op(kOr, op(kXor, alo, blo), op(kXor, ahi, bhi));
    icmp_element(pred, dst, diff, imm_src(0));
    return;
  }
  bool swap =
      pred == P::ICMP_SGT || pred == P::ICMP_UGT || pred == P::ICMP_SLE || pred == P::ICMP_ULE;
  bool negate =
      pred == P::ICMP_SGE || pred == P::ICMP_UGE || pred == P::ICMP_SLE || pred == P::ICMP_ULE;
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
        Src x = src(inst.getOperand(0), e);
        // extend() leaves a bool as its 0/1; sign-extended, true is all ones.
        Src lo = is_signed && from_bits == 1 ? op2(kSub, mf_.class_of(d[2 * e]), imm_src(0), x)
                                             : extend(x, from_bits, is_signed);
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
    unsupported(&inst,
                fmt::format("the '{}' conversion of a 64-bit integer", inst.getOpcodeName()));
  }
}

}  // namespace ventus::cc::backend::selection
