// Instruction selection: addresses, loads, stores and atomic operations.
#include "isel_internal.h"

namespace ventus::cc::backend::selection {

namespace {

// The memory rows by access size (1, 2 or 4 bytes): scalar, per-thread 12-bit offset
// (global and local memory), per-thread private memory (11-bit offset).
struct MemoryRows {
  isa::Op scalar, vector, vector_private;
};
MemoryRows load_rows(unsigned size) {
  if (size == 1) return {isa::Op::LBU, isa::Op::VLBU12_V, isa::Op::VLBU_V};
  if (size == 2) return {isa::Op::LHU, isa::Op::VLHU12_V, isa::Op::VLHU_V};
  return {isa::Op::LW, isa::Op::VLW12_V, isa::Op::VLW_V};
}
MemoryRows store_rows(unsigned size) {
  if (size == 1) return {isa::Op::SB, isa::Op::VSB12_V, isa::Op::VSB_V};
  if (size == 2) return {isa::Op::SH, isa::Op::VSH12_V, isa::Op::VSH_V};
  return {isa::Op::SW, isa::Op::VSW12_V, isa::Op::VSW_V};
}

// Whether every use of the pointer is as the address of a load or a store.
bool only_addresses_loads_and_stores(const llvm::Value* pointer) {
  for (const llvm::User* user : pointer->users()) {
    if (auto* load = llvm::dyn_cast<llvm::LoadInst>(user)) {
      if (load->getPointerOperand() != pointer) return false;
    } else if (auto* store = llvm::dyn_cast<llvm::StoreInst>(user)) {
      if (store->getPointerOperand() != pointer) return false;
    } else {
      return false;
    }
  }
  return true;
}

}  // namespace

bool Selector::foldable_gep(const llvm::GetElementPtrInst* gep) const {
  llvm::APInt offset(32, 0);
  if (!gep->accumulateConstantOffset(dl_, offset) ||
      !isa::operand_fits(isa::OperandKind::Simm11, offset.getSExtValue()))
    return false;
  if (div_.divergent(gep) != div_.divergent(gep->getPointerOperand())) return false;
  return only_addresses_loads_and_stores(gep);
}

int64_t Selector::gep_offset_in_users(const llvm::GetElementPtrInst* gep) const {
  if (gep->hasAllConstantIndices() || gep->getType()->isVectorTy() ||
      !only_addresses_loads_and_stores(gep))
    return 0;
  int64_t constant = 0;
  for (auto it = llvm::gep_type_begin(gep); it != llvm::gep_type_end(gep); ++it) {
    if (llvm::StructType* st = it.getStructTypeOrNull()) {
      const auto field = llvm::cast<llvm::ConstantInt>(it.getOperand())->getZExtValue();
      constant += static_cast<int64_t>(dl_.getStructLayout(st)->getElementOffset(field));
    } else if (auto* ci = llvm::dyn_cast<llvm::ConstantInt>(it.getOperand())) {
      constant +=
          ci->getSExtValue() * static_cast<int64_t>(dl_.getTypeAllocSize(it.getIndexedType()));
    }
  }
  // Within the smaller (private) offsets, so that any load or store can take it.
  return isa::operand_fits(isa::OperandKind::Simm11, constant) ? constant : 0;
}

Selector::Address Selector::address_of(llvm::Value* pointer, int64_t extra,
                                       isa::OperandKind offset_kind) {
  auto fits = [&](int64_t v) { return isa::operand_fits(offset_kind, v); };
  if (auto* gep = llvm::dyn_cast<llvm::GetElementPtrInst>(pointer))
    extra += gep_offset_in_users(gep);
  if (auto* gep = llvm::dyn_cast<llvm::GetElementPtrInst>(pointer); gep && foldable_gep(gep)) {
    llvm::APInt offset(32, 0);
    gep->accumulateConstantOffset(dl_, offset);
    int64_t total = offset.getSExtValue() + extra;
    if (fits(total)) {
      Address inner = address_of(gep->getPointerOperand(), total, offset_kind);
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

void Selector::select_load(llvm::LoadInst& inst) {
  const std::vector<uint32_t>& d = result_regs(&inst);
  llvm::Type* elem = element_type(inst.getType());
  unsigned size = static_cast<unsigned>(dl_.getTypeStoreSize(elem));
  bool is_private = inst.getPointerAddressSpace() == 0;
  for (size_t k = 0; k < d.size(); ++k) {
    Address addr = address_of(inst.getPointerOperand(), static_cast<int64_t>(k * size),
                              is_private ? isa::OperandKind::Simm11 : isa::OperandKind::Simm12);
    bool scalar = mf_.class_of(d[k]) == RegClass::Scalar;
    if (scalar && !is_private) {
      emit(load_rows(size).scalar, {Operand::reg_of(d[k]), Operand::immediate(addr.offset),
                                    Operand::reg_of(scalar_reg(addr.base))});
      continue;
    }
    uint32_t base = vector_reg(addr.base);
    emit(is_private ? load_rows(size).vector_private : load_rows(size).vector,
         {Operand::reg_of(d[k]), Operand::immediate(addr.offset), Operand::reg_of(base)});
  }
}

void Selector::select_store(llvm::StoreInst& inst) {
  llvm::Value* value = inst.getValueOperand();
  check_type(&inst, value->getType());
  llvm::Type* elem = element_type(value->getType());
  unsigned size = static_cast<unsigned>(dl_.getTypeStoreSize(elem));
  bool is_private = inst.getPointerAddressSpace() == 0;
  for (unsigned k = 0; k < elements(value->getType()); ++k) {
    Address addr = address_of(inst.getPointerOperand(), static_cast<int64_t>(k * size),
                              is_private ? isa::OperandKind::Simm11 : isa::OperandKind::Simm12);
    Src v = src(value, k);
    bool uniform = !is_private && (addr.base.is_imm || addr.base.cls == RegClass::Scalar) &&
                   (v.is_imm || v.cls == RegClass::Scalar);
    if (uniform) {
      emit(store_rows(size).scalar,
           {Operand::reg_of(scalar_reg(v)), Operand::immediate(addr.offset),
            Operand::reg_of(scalar_reg(addr.base))});
      continue;
    }
    uint32_t vv = vector_reg(v);
    uint32_t base = vector_reg(addr.base);
    emit(is_private ? store_rows(size).vector_private : store_rows(size).vector,
         {Operand::reg_of(vv), Operand::immediate(addr.offset), Operand::reg_of(base)});
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
  constant = static_cast<int32_t>(constant) - gep_offset_in_users(&inst);
  if (constant != 0 || !have_acc_reg) {
    int_op(kAdd, d, acc, {true, constant, kNoReg, RegClass::Scalar});
  } else {
    move(d, acc);
  }
}

void Selector::select_atomic(llvm::Instruction& inst) {
  // Only scalar AMOs exist: a loop takes the active threads one at a time (the last
  // active lane, as vmv.x.s reads it), performs its AMO and writes its result lane, then
  // retires that lane with a vector branch (docs/compiler.md).
  llvm::Value* pointer;
  isa::Op op = isa::Op::SC_W;  // a compare and exchange: lr.w/sc.w
  bool subtract = false;
  llvm::Value* value = nullptr;
  llvm::Value* compare = nullptr;
  if (auto* rmw = llvm::dyn_cast<llvm::AtomicRMWInst>(&inst)) {
    pointer = rmw->getPointerOperand();
    value = rmw->getValOperand();
    using B = llvm::AtomicRMWInst::BinOp;
    switch (rmw->getOperation()) {
      case B::Xchg: op = isa::Op::AMOSWAP_W; break;
      case B::Add: op = isa::Op::AMOADD_W; break;
      case B::Sub:  // amoadd.w of the negated value
        op = isa::Op::AMOADD_W;
        subtract = true;
        break;
      case B::And: op = isa::Op::AMOAND_W; break;
      case B::Or: op = isa::Op::AMOOR_W; break;
      case B::Xor: op = isa::Op::AMOXOR_W; break;
      case B::Max: op = isa::Op::AMOMAX_W; break;
      case B::Min: op = isa::Op::AMOMIN_W; break;
      case B::UMax: op = isa::Op::AMOMAXU_W; break;
      case B::UMin: op = isa::Op::AMOMINU_W; break;
      default: unsupported(&inst, "this atomic operation");
    }
  } else {
    auto* cx = llvm::cast<llvm::AtomicCmpXchgInst>(&inst);
    pointer = cx->getPointerOperand();
    value = cx->getNewValOperand();
    compare = cx->getCompareOperand();
  }
  if (value->getType()->isFloatTy() || value->getType()->isIntegerTy(32) ||
      value->getType()->isPointerTy()) {
  } else {
    unsupported(&inst, "an atomic operation on a type other than 32-bit int or float");
  }
  if (pointer->getType()->getPointerAddressSpace() == 0)
    unsupported(&inst, "an atomic operation on private memory");
  uint32_t result = compare ? new_v() : result_regs(&inst)[0];
  Src addr = src(pointer), val = src(value);
  auto operand = [&](const Src& s) { return Operand::reg_of(s.is_imm ? scalar_reg(s) : s.reg); };
  MInst pseudo = make_inst(
      Pseudo::Atomic, {Operand::reg_of(result), operand(addr), operand(val),
                       compare ? operand(src(compare)) : Operand::reg_of(kZero),
                       Operand::reg_of(new_v()), Operand::reg_of(new_v()), Operand::reg_of(new_s()),
                       Operand::reg_of(new_s()), Operand::reg_of(new_s())});
  pseudo.op = op;
  pseudo.negate_value = subtract;
  pseudo.implicit_defs.push_back(vreg_phys(0));
  cur_->insts.push_back(std::move(pseudo));
  if (compare) {
    // LLVM's cmpxchg returns { old value, success }: success = (old == compare).
    uint32_t success = new_v();
    icmp_element(llvm::CmpInst::ICMP_EQ, success, {false, 0, result, RegClass::Vector},
                 src(compare));
    cmpxchg_parts_[&inst] = {result, success};
  }
}

}  // namespace ventus::cc::backend::selection
