// Divergence (uniformity) analysis: which values may differ between the threads of a
// warp (they live in vector registers) and which are the same for all of them (scalar
// registers, computed once per warp).
#pragma once

#include <llvm/ADT/DenseSet.h>

namespace llvm {
class Function;
class Value;
class PostDominatorTree;
class LoopInfo;
}  // namespace llvm

namespace ventus::cc::backend {

class Divergence {
 public:
  Divergence(llvm::Function& function, bool is_kernel, llvm::PostDominatorTree& pdt,
             llvm::LoopInfo& loops);
  bool divergent(const llvm::Value* value) const { return divergent_.contains(value); }

 private:
  llvm::DenseSet<const llvm::Value*> divergent_;
};

// Blocks reachable from `branch_block`'s successors without passing through `join`
// (the region whose threads a divergent branch at the end of branch_block splits).
template <typename Block>
void collect_region(Block* branch_block, Block* join, llvm::DenseSet<Block*>& region);

}  // namespace ventus::cc::backend
