// Instruction selection: branches (uniform and divergent), returns, phi copies and the
// guard that sends a workgroup's extra lanes to the end of the kernel.
#include "isel_internal.h"

namespace ventus::cc::backend::selection {

// A workgroup whose size is not a multiple of the warp width leaves lanes of its last
// warp without a work-item; they would compute ids that belong to the next workgroup.
// They skip the kernel: a vector branch sends them to the join before the epilogue
// (emit.cpp), where they wait for the others. Warps whose lanes are all in range (every
// warp but a workgroup's last) see that with scalar instructions only and skip the test.
void Selector::guard_extra_lanes() {
  uint32_t tid = new_s(), numt = new_s(), last = new_s(), knl = new_s(), x = new_s(), y = new_s(),
           z = new_s();
  uint32_t lanes = new_v(), total = new_v(), rpc = new_s();
  std::string done = fmt::format(".Lguard_done_{}", mf_.name);
  emit(Pseudo::Csrr, {Operand::reg_of(tid), Operand::csr(abi::csr::TID)});
  emit(Pseudo::Csrr, {Operand::reg_of(numt), Operand::csr(abi::csr::NUMT)});
  emit(isa::Op::ADD, {Operand::reg_of(last), Operand::reg_of(tid), Operand::reg_of(numt)});
  emit(Pseudo::Csrr, {Operand::reg_of(knl), Operand::csr(abi::csr::KNL)});
  // The workgroup's size in work-items: the product of the KNL local sizes.
  const auto local_size = [](int dim) {
    return Operand::immediate(4 * (abi::knl::LOCAL_SIZE + dim));
  };
  emit(isa::Op::LW, {Operand::reg_of(x), local_size(0), Operand::reg_of(knl)});
  emit(isa::Op::LW, {Operand::reg_of(y), local_size(1), Operand::reg_of(knl)});
  emit(isa::Op::LW, {Operand::reg_of(z), local_size(2), Operand::reg_of(knl)});
  emit(isa::Op::MUL, {Operand::reg_of(x), Operand::reg_of(x), Operand::reg_of(y)});
  emit(isa::Op::MUL, {Operand::reg_of(x), Operand::reg_of(x), Operand::reg_of(z)});
  emit(isa::Op::BGEU, {Operand::reg_of(x), Operand::reg_of(last), Operand::literal(done)});
  emit(isa::Op::VID_V, {Operand::reg_of(lanes)});
  emit(isa::Op::VADD_VX, {Operand::reg_of(lanes), Operand::reg_of(lanes), Operand::reg_of(tid)});
  emit(isa::Op::VMV_V_X, {Operand::reg_of(total), Operand::reg_of(x)});
  std::string anchor = fmt::format(".Lguard_rpc_{}", mf_.name);
  std::string end = kernel_end_label(mf_.name);
  emit(Pseudo::Label, {Operand::label(anchor)});
  emit(isa::Op::AUIPC, {Operand::reg_of(rpc), Operand::literal(fmt::format("%pcrel_hi({})", end))});
  emit(isa::Op::SETRPC, {Operand::reg_of(kZero), Operand::reg_of(rpc),
                         Operand::literal(fmt::format("%pcrel_lo({})", anchor))});
  emit(isa::Op::VBGEU, {Operand::reg_of(lanes), Operand::reg_of(total), Operand::literal(end)});
  emit(Pseudo::Label, {Operand::label(done)});
  mf_.guards_extra_lanes = true;
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
  MInst r = make_inst(Pseudo::Return, {});
  r.is_terminator = true;
  if (llvm::Value* value = ret.getReturnValue()) {
    if (mf_.is_kernel) unsupported(&ret, "a kernel returning a value");
    check_type(&ret, value->getType());
    unsigned n = elements(value->getType());
    if (n > kResultRegisters)
      unsupported(&ret, fmt::format("a result of more than {} registers", kResultRegisters));
    std::vector<Src> parts;
    for (unsigned k = 0; k < n; ++k) {
      Src s = src(value, k);
      if (s.is_imm && !immediate_fits(isa::Op::VMV_V_I, s.imm))
        s = {false, 0, scalar_reg(s), RegClass::Scalar};
      parts.push_back(s);
    }
    for (unsigned k = 0; k < n; ++k) {
      emit_vector_move(vreg_phys(k), parts[k]);
      r.implicit_uses.push_back(vreg_phys(k));
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
  // The operands of a fused compare, extended to 32 bits.
  const auto fused_operand = [&](unsigned i) {
    llvm::Value* v = cmp->getOperand(i);
    return extend(src(v), int_bits(v->getType()), cmp->isSigned(), v);
  };
  auto label = [&](int b) { return Operand::label(mf_.blocks[b].label); };
  auto finish = [&]() {
    MInst j = make_inst(Pseudo::J, {label(other)});
    j.is_terminator = true;
    cur_->insts.push_back(std::move(j));
  };
  // Compare-and-branch rows for a predicate (uniform, divergent) and whether the operands
  // swap.
  struct BranchForm {
    isa::Op scalar, vector;
    bool swap;
  };
  auto branch_form = [](llvm::CmpInst::Predicate p) -> BranchForm {
    using P = llvm::CmpInst::Predicate;
    using isa::Op;
    switch (p) {
      case P::ICMP_EQ: return {Op::BEQ, Op::VBEQ, false};
      case P::ICMP_NE: return {Op::BNE, Op::VBNE, false};
      case P::ICMP_SLT: return {Op::BLT, Op::VBLT, false};
      case P::ICMP_SGE: return {Op::BGE, Op::VBGE, false};
      case P::ICMP_ULT: return {Op::BLTU, Op::VBLTU, false};
      case P::ICMP_UGE: return {Op::BGEU, Op::VBGEU, false};
      case P::ICMP_SGT: return {Op::BLT, Op::VBLT, true};
      case P::ICMP_SLE: return {Op::BGE, Op::VBGE, true};
      case P::ICMP_UGT: return {Op::BLTU, Op::VBLTU, true};
      case P::ICMP_ULE: return {Op::BGEU, Op::VBGEU, true};
      default: throw Error("internal: branch predicate");
    }
  };
  if (!divergent) {
    if (fused) {
      const BranchForm form = branch_form(cmp->getPredicate());
      Src a = fused_operand(0), b = fused_operand(1);
      if (form.swap) std::swap(a, b);
      emit(form.scalar,
           {Operand::reg_of(scalar_reg(a)), Operand::reg_of(scalar_reg(b)), label(taken)});
    } else {
      Src c = src(cond);
      if (c.is_imm) {
        MInst j = make_inst(Pseudo::J, {label(c.imm ? taken : other)});
        j.is_terminator = true;
        cur_->insts.push_back(std::move(j));
        return;
      }
      cur_->insts.push_back(make_inst(Pseudo::Bnez, {Operand::reg_of(c.reg), label(taken)}));
    }
    return finish();
  }
  // Divergent: threads split; they meet again at the immediate post-dominator.
  llvm::DomTreeNode* node = pdt_.getNode(bb);
  if (!node || !node->getIDom() || !node->getIDom()->getBlock())
    unsupported(&br,
                "a divergent branch without a point where its threads meet again "
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
  emit(Pseudo::Label, {Operand::label(anchor)});
  emit(isa::Op::AUIPC, {Operand::reg_of(rpc),
                        Operand::literal(fmt::format("%pcrel_hi({})", mf_.blocks[join].label))});
  emit(isa::Op::SETRPC, {Operand::reg_of(kZero), Operand::reg_of(rpc),
                         Operand::literal(fmt::format("%pcrel_lo({})", anchor))});
  isa::Op branch = isa::Op::VBNE;
  uint32_t x, y;
  if (fused) {
    const BranchForm form = branch_form(cmp->getPredicate());
    branch = form.vector;
    Src a = fused_operand(0), b = fused_operand(1);
    if (form.swap) std::swap(a, b);
    x = vector_reg(a);
    y = vector_reg(b);
  } else {
    x = vector_reg(src(cond));
    y = vector_reg({true, 0, kNoReg, RegClass::Scalar});
  }
  emit(branch, {Operand::reg_of(x), Operand::reg_of(y), label(taken)});
  finish();
}

void Selector::select_terminator(llvm::Instruction& inst) {
  if (auto* ret = llvm::dyn_cast<llvm::ReturnInst>(&inst)) return select_ret(*ret);
  if (auto* br = llvm::dyn_cast<llvm::BranchInst>(&inst)) {
    if (br->isConditional()) return select_cond_branch(*br);
    MInst j =
        make_inst(Pseudo::J, {Operand::label(mf_.blocks[block_index_[br->getSuccessor(0)]].label)});
    j.is_terminator = true;
    cur_->insts.push_back(std::move(j));
    return;
  }
  if (llvm::isa<llvm::UnreachableInst>(inst)) {
    MInst u = make_inst(Pseudo::Unimp, {});
    u.is_terminator = true;
    cur_->insts.push_back(std::move(u));
    return;
  }
  unsupported(&inst, fmt::format("the '{}' terminator", inst.getOpcodeName()));
}

}  // namespace ventus::cc::backend::selection
