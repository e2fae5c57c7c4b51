// IR that reads and writes a warp's state (sim::Warp at the pointer `warp`, WarpLayout's
// offsets), shared by the inline vector rows of emit_vint.cpp and emit_fp32.cpp.
#pragma once

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/IntrinsicInst.h>

#include <vector>

#include "warp_layout.h"

namespace ventus::jit {

// factor * i in lane i.
inline llvm::Constant* lane_times(llvm::LLVMContext& c, uint32_t factor) {
  std::vector<uint32_t> values(sim::kMaxLanes);
  for (uint32_t lane = 0; lane < sim::kMaxLanes; ++lane) values[lane] = factor * lane;
  return llvm::ConstantDataVector::get(c, values);
}

// The warp's registers and the fields that the inline rows read before each instruction
// (mask, vl, sew, lmul, lane_mask), held in allocas of the block function that SROA turns
// into SSA values: what an entry stores, the next one uses without loading it back, and the
// mask and vl are not loaded again for each row. Without them LLVM forwards nothing from one
// entry to the next, since every entry can also be entered directly (a turn that ended
// inside the block resumes there), so no store of one dominates the next one's loads.
// Stores go to the warp too (written through), so the warp is always up to date for the
// semantics, the helpers and the caller; fill() loads every slot from the warp where the
// function starts and again after every call it makes (a call may change any of them).
class FieldShadows {
 public:
  // The slot of the field at `offset`, made at the top of the entry block on first use.
  llvm::AllocaInst* slot(llvm::Function& fn, uint64_t offset, llvm::Type* type) {
    for (const Slot& s : slots_)
      if (s.offset == offset) return s.alloca;
    llvm::BasicBlock& entry = fn.getEntryBlock();
    llvm::IRBuilder<> at(&entry, entry.begin());
    slots_.push_back({offset, type, at.CreateAlloca(type)});
    return slots_.back().alloca;
  }
  // Marks a call of a host function that writes none of the shadowed fields (the memory
  // system's lookups, the MXCSR restore), after which fill() need not load them again.
  static void keeps_fields(llvm::CallInst* call) {
    call->setMetadata(kKeepsFields, llvm::MDNode::get(call->getContext(), {}));
  }
  // Call once the function is complete.
  void fill(llvm::Function& fn, llvm::Value* warp) {
    if (slots_.empty()) return;
    llvm::BasicBlock& entry = fn.getEntryBlock();
    auto after_allocas = entry.begin();
    while (llvm::isa<llvm::AllocaInst>(*after_allocas)) ++after_allocas;
    llvm::IRBuilder<> b(&entry, after_allocas);
    fill_at(b, warp);
    for (llvm::BasicBlock& block : fn)
      for (llvm::Instruction& instruction : block)
        if (auto* call = llvm::dyn_cast<llvm::CallInst>(&instruction);
            call && !llvm::isa<llvm::IntrinsicInst>(call) && !call->getMetadata(kKeepsFields)) {
          b.SetInsertPoint(call->getNextNode());
          fill_at(b, warp);
        }
  }

 private:
  static constexpr const char* kKeepsFields = "ventus.keeps_warp_fields";
  struct Slot {
    uint64_t offset;
    llvm::Type* type;
    llvm::AllocaInst* alloca;
  };
  void fill_at(llvm::IRBuilder<>& b, llvm::Value* warp) {
    for (const Slot& s : slots_)
      b.CreateStore(
          b.CreateAlignedLoad(s.type, b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), warp, s.offset),
                              llvm::Align(4)),
          s.alloca);
  }
  std::vector<Slot> slots_;
};

class WarpIr {
 public:
  // shadows: the block function's, or none (every access goes to the warp).
  WarpIr(llvm::IRBuilder<>& b, llvm::Value* warp, FieldShadows* shadows)
      : b_(b),
        warp_(warp),
        shadows_(shadows),
        layout_(warp_layout()),
        i32_(b.getInt32Ty()),
        lanes_(llvm::FixedVectorType::get(b.getInt32Ty(), sim::kMaxLanes)),
        bits_(llvm::FixedVectorType::get(b.getInt1Ty(), sim::kMaxLanes)) {}

  const WarpLayout& layout() const { return layout_; }
  llvm::FixedVectorType* lanes() const { return lanes_; }  // <32 x i32>: a register's lanes
  llvm::FixedVectorType* bits() const { return bits_; }    // <32 x i1>: a lane mask

  llvm::Value* field(uint64_t offset) {
    return b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), warp_, offset);
  }
  // A 32-bit field; the shadowed ones (FieldShadows) from their slots.
  llvm::Value* load(uint64_t offset) {
    if (shadowed(offset)) return b_.CreateLoad(i32_, slot(offset, i32_));
    return b_.CreateAlignedLoad(i32_, field(offset), llvm::Align(4));
  }
  llvm::Value* read_x(unsigned r) { return r == 0 ? b_.getInt32(0) : load(layout_.x + 4 * r); }
  void write_x(unsigned r, llvm::Value* value) {
    if (r != 0) store(layout_.x + 4 * r, value);
  }
  llvm::Value* v_row(unsigned r) { return field(v_offset(r)); }
  llvm::Value* read_v(unsigned r) {
    if (shadows_) return b_.CreateLoad(lanes_, slot(v_offset(r), lanes_));
    return b_.CreateAlignedLoad(lanes_, v_row(r), llvm::Align(4));
  }
  // v[r] = value on every lane.
  void write_v(unsigned r, llvm::Value* value) {
    b_.CreateAlignedStore(value, v_row(r), llvm::Align(4));
    if (shadows_) b_.CreateStore(value, slot(v_offset(r), lanes_));
  }
  // Stores a 32-bit field (and its slot when it is shadowed).
  void store(uint64_t offset, llvm::Value* value) {
    b_.CreateAlignedStore(value, field(offset), llvm::Align(4));
    if (shadowed(offset)) b_.CreateStore(value, slot(offset, i32_));
  }
  llvm::Value* splat(uint32_t value) {
    return b_.CreateVectorSplat(sim::kMaxLanes, b_.getInt32(value));
  }

  // Whether the warp is at SEW = 32 and LMUL = 1, the configuration of the inline rows.
  llvm::Value* is_sew32_lmul1() {
    return b_.CreateAnd(b_.CreateICmpEQ(load(layout_.sew), b_.getInt32(32)),
                        b_.CreateICmpEQ(load(layout_.lmul), b_.getInt32(1)));
  }

  // Warp::v0_mask: the lanes whose v0 element has bit 0 set, within the warp's lanes.
  llvm::Value* v0_mask() {
    llvm::Value* set = b_.CreateICmpNE(b_.CreateAnd(read_v(0), splat(1)), splat(0));
    return b_.CreateAnd(b_.CreateBitCast(set, i32_), load(layout_.lane_mask));
  }

  // Exec::active_lanes as an i32: the SIMT-active lanes below vl, with vm == 0 only those
  // v0_mask has.
  llvm::Value* active_lanes(uint8_t vm) {
    llvm::Value* vl = load(layout_.vl);
    llvm::Value* vl_mask =
        b_.CreateSelect(b_.CreateICmpUGE(vl, b_.getInt32(32)), b_.getInt32(~0u),
                        b_.CreateSub(b_.CreateShl(b_.getInt32(1), vl), b_.getInt32(1)));
    llvm::Value* active = b_.CreateAnd(load(layout_.mask), vl_mask);
    return vm ? active : b_.CreateAnd(active, v0_mask());
  }
  // An i32 lane mask as <32 x i1>.
  llvm::Value* lane_bits(llvm::Value* mask) { return b_.CreateBitCast(mask, bits_); }

  // vec::write_lanes: v[rd] = result on the lanes `on` (<32 x i1>), the others kept.
  void write_lanes(unsigned rd, llvm::Value* on, llvm::Value* result) {
    write_v(rd, b_.CreateSelect(on, result, read_v(rd)));
  }

 private:
  uint64_t v_offset(unsigned r) const { return layout_.v + 4 * sim::kMaxLanes * r; }
  // The registers and the fields read before each row; nothing but calls writes the latter.
  bool shadowed(uint64_t offset) const {
    if (!shadows_) return false;
    if (offset >= layout_.x && offset < layout_.x + sizeof(sim::Warp::x)) return true;
    return offset == layout_.mask || offset == layout_.vl || offset == layout_.sew ||
           offset == layout_.lmul || offset == layout_.lane_mask;
  }
  llvm::AllocaInst* slot(uint64_t offset, llvm::Type* type) {
    return shadows_->slot(*b_.GetInsertBlock()->getParent(), offset, type);
  }

  llvm::IRBuilder<>& b_;
  llvm::Value* warp_;
  FieldShadows* shadows_;
  const WarpLayout& layout_;
  llvm::Type* i32_;
  llvm::FixedVectorType *lanes_, *bits_;
};

}  // namespace ventus::jit
