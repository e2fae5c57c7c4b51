// IR that reads and writes a warp's state (sim::Warp at the pointer `warp`, WarpLayout's
// offsets), shared by the inline vector rows of emit_vint.cpp and emit_fp32.cpp.
#pragma once

#include <llvm/IR/IRBuilder.h>

#include <vector>

#include "warp_layout.h"

namespace ventus::jit {

// factor * i in lane i.
inline llvm::Constant* lane_times(llvm::LLVMContext& c, uint32_t factor) {
  std::vector<uint32_t> values(sim::kMaxLanes);
  for (uint32_t lane = 0; lane < sim::kMaxLanes; ++lane) values[lane] = factor * lane;
  return llvm::ConstantDataVector::get(c, values);
}

class WarpIr {
 public:
  WarpIr(llvm::IRBuilder<>& b, llvm::Value* warp)
      : b_(b),
        warp_(warp),
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
  llvm::Value* load(uint64_t offset) {
    return b_.CreateAlignedLoad(i32_, field(offset), llvm::Align(4));
  }
  llvm::Value* read_x(unsigned r) { return r == 0 ? b_.getInt32(0) : load(layout_.x + 4 * r); }
  void write_x(unsigned r, llvm::Value* value) {
    if (r != 0) b_.CreateAlignedStore(value, field(layout_.x + 4 * r), llvm::Align(4));
  }
  llvm::Value* v_row(unsigned r) { return field(layout_.v + 4 * sim::kMaxLanes * r); }
  llvm::Value* read_v(unsigned r) { return b_.CreateAlignedLoad(lanes_, v_row(r), llvm::Align(4)); }
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
    b_.CreateAlignedStore(b_.CreateSelect(on, result, read_v(rd)), v_row(rd), llvm::Align(4));
  }

 private:
  llvm::IRBuilder<>& b_;
  llvm::Value* warp_;
  const WarpLayout& layout_;
  llvm::Type* i32_;
  llvm::FixedVectorType *lanes_, *bits_;
};

}  // namespace ventus::jit
