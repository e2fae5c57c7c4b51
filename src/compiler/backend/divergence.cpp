#include "divergence.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>

#include "inline_asm.h"

namespace ventus::cc::backend {

template <typename Block>
void collect_region(Block* branch_block, Block* join, llvm::DenseSet<Block*>& region) {
  std::vector<Block*> work;
  for (Block* s : llvm::successors(branch_block)) work.push_back(s);
  while (!work.empty()) {
    Block* b = work.back();
    work.pop_back();
    if (b == join || !region.insert(b).second) continue;
    for (Block* s : llvm::successors(b)) work.push_back(s);
  }
}
template void collect_region<llvm::BasicBlock>(llvm::BasicBlock*, llvm::BasicBlock*,
                                               llvm::DenseSet<llvm::BasicBlock*>&);

namespace {

// Values whose thread-dependence does not come from their operands.
bool is_source(const llvm::Instruction& inst) {
  if (const auto* call = llvm::dyn_cast<llvm::CallInst>(&inst)) {
    // Inline assembly: per thread if any operand is a vector register; with only scalar
    // registers and immediates its results are as uniform as its inputs.
    if (const auto* asm_value = llvm::dyn_cast<llvm::InlineAsm>(call->getCalledOperand()))
      return !asm_is_scalar(*asm_value);
    const llvm::Function* callee = call->getCalledFunction();
    if (!callee) return true;
    llvm::StringRef name = callee->getName();
    if (name == "__vt_lane_id") return true;
    if (name == "__vt_csr" || name == "__vt_mulh" || name == "__vt_mulhu" ||
        name == "__vt_cvt_f16_f32" || name == "__vt_cvt_f32_f16")
      return false;
    if (callee->isIntrinsic()) return false;
    return !call->getType()->isVoidTy();  // results of calls come back in vector registers
  }
  if (const auto* load = llvm::dyn_cast<llvm::LoadInst>(&inst))
    return load->getPointerAddressSpace() == 0;  // private memory differs per thread
  return llvm::isa<llvm::AtomicRMWInst>(inst) || llvm::isa<llvm::AtomicCmpXchgInst>(inst);
}

}  // namespace

Divergence::Divergence(llvm::Function& function, bool is_kernel, llvm::PostDominatorTree& pdt,
                       llvm::LoopInfo& loops) {
  if (!is_kernel)
    for (llvm::Argument& arg : function.args()) divergent_.insert(&arg);
  for (llvm::Instruction& inst : llvm::instructions(function))
    if (is_source(inst)) divergent_.insert(&inst);

  llvm::DenseSet<const llvm::BasicBlock*> handled_branches;
  bool changed = true;
  while (changed) {
    changed = false;
    for (llvm::Instruction& inst : llvm::instructions(function)) {
      if (divergent_.contains(&inst) || inst.getType()->isVoidTy()) continue;
      bool any = false;
      for (const llvm::Use& operand : inst.operands())
        if (divergent_.contains(operand.get())) any = true;
      // A load from a uniform address reads the same word for all threads.
      if (any) changed |= divergent_.insert(&inst).second;
    }
    // Sync dependence: where the threads of a divergent branch meet again, a phi merges
    // values from different paths; inside a loop with a divergent exit, values used after
    // the loop hold each thread's last iteration (temporal divergence).
    for (llvm::BasicBlock& block : function) {
      auto* branch = llvm::dyn_cast<llvm::BranchInst>(block.getTerminator());
      if (!branch || !branch->isConditional() || !divergent_.contains(branch->getCondition()))
        continue;
      if (!handled_branches.insert(&block).second) continue;
      changed = true;
      llvm::BasicBlock* join = pdt.getNode(&block) && pdt.getNode(&block)->getIDom()
                                   ? pdt.getNode(&block)->getIDom()->getBlock()
                                   : nullptr;
      llvm::DenseSet<llvm::BasicBlock*> region;
      collect_region(&block, join, region);
      if (join) region.insert(join);
      for (llvm::BasicBlock* b : region)
        for (llvm::PHINode& phi : b->phis()) divergent_.insert(&phi);
      for (llvm::Loop* loop = loops.getLoopFor(&block); loop; loop = loop->getParentLoop()) {
        bool exits = false;
        for (llvm::BasicBlock* s : llvm::successors(&block))
          if (!loop->contains(s)) exits = true;
        if (!exits) continue;
        for (llvm::BasicBlock* b : loop->blocks())
          for (llvm::Instruction& inst : *b)
            for (llvm::User* user : inst.users())
              if (auto* user_inst = llvm::dyn_cast<llvm::Instruction>(user);
                  user_inst && !loop->contains(user_inst->getParent()))
                divergent_.insert(&inst);
      }
    }
  }
}

}  // namespace ventus::cc::backend
