#include "emit_memory.h"

#include <llvm/IR/Intrinsics.h>

#include <memory>
#include <optional>
#include <vector>

#include "memsys.h"
#include "semantics.h"
#include "warp_ir.h"

namespace ventus::jit {

using isa::Op;
using sim::CachedInsn;

namespace {

// The access size in bytes of a scalar load or store, else 0.
unsigned scalar_access_size(Op op) {
  switch (op) {
    case Op::LB:
    case Op::LBU:
    case Op::SB: return 1;
    case Op::LH:
    case Op::LHU:
    case Op::SH: return 2;
    case Op::LW:
    case Op::SW: return 4;
    default: return 0;
  }
}

// The operation of an amo*.w row (any .aq/.rl form: semantics/atomic.cpp runs them all as the
// plain one), or nullopt.
std::optional<llvm::AtomicRMWInst::BinOp> amo_operation(Op op) {
  using R = llvm::AtomicRMWInst;
#define VT_AMO_CASE(ROW, OPERATION) \
  case Op::ROW:                     \
  case Op::ROW##_AQ:                \
  case Op::ROW##_RL:                \
  case Op::ROW##_AQRL: return R::OPERATION;
  switch (op) {
    VT_AMO_CASE(AMOSWAP_W, Xchg)
    VT_AMO_CASE(AMOADD_W, Add)
    VT_AMO_CASE(AMOXOR_W, Xor)
    VT_AMO_CASE(AMOAND_W, And)
    VT_AMO_CASE(AMOOR_W, Or)
    VT_AMO_CASE(AMOMIN_W, Min)
    VT_AMO_CASE(AMOMAX_W, Max)
    VT_AMO_CASE(AMOMINU_W, UMin)
    VT_AMO_CASE(AMOMAXU_W, UMax)
    default: return std::nullopt;
  }
#undef VT_AMO_CASE
}

// A per-thread access as semantics/memory.cpp's thread_load / thread_store do it.
struct ThreadAccess {
  unsigned size = 0;  // 0: not one
  bool store = false, is_signed = false, is_private = false;
};

ThreadAccess thread_access(Op op) {
  switch (op) {
    case Op::VLB12_V: return {1, false, true, false};
    case Op::VLH12_V: return {2, false, true, false};
    case Op::VLW12_V: return {4, false, false, false};
    case Op::VLBU12_V: return {1, false, false, false};
    case Op::VLHU12_V: return {2, false, false, false};
    case Op::VSB12_V: return {1, true, false, false};
    case Op::VSH12_V: return {2, true, false, false};
    case Op::VSW12_V: return {4, true, false, false};
    case Op::VLB_V: return {1, false, true, true};
    case Op::VLH_V: return {2, false, true, true};
    case Op::VLW_V: return {4, false, false, true};
    case Op::VLBU_V: return {1, false, false, true};
    case Op::VLHU_V: return {2, false, false, true};
    case Op::VSB_V: return {1, true, false, true};
    case Op::VSH_V: return {2, true, false, true};
    case Op::VSW_V: return {4, true, false, true};
    default: return {};
  }
}

// Where translated code finds MemorySystem::whole_page's cache: Exec::pages and the layout of
// sim::PageCache.
struct PageCacheLayout {
  uint64_t pages;  // of Exec::pages in sim::Exec
  uint64_t load = offsetof(sim::PageCache, load), store = offsetof(sim::PageCache, store);
  uint64_t entry = sizeof(sim::PageCache::Entry);
  uint64_t page = offsetof(sim::PageCache::Entry, page),
           host = offsetof(sim::PageCache::Entry, host);
  uint64_t stores = offsetof(sim::PageCache, stores), known_store = sizeof(sim::PageCache::Store);
  uint64_t known_address = offsetof(sim::PageCache::Store, address),
           known_size = offsetof(sim::PageCache::Store, size),
           known_host = offsetof(sim::PageCache::Store, host);
  uint64_t global_pages = offsetof(sim::PageCache, global_pages);
};

const PageCacheLayout& page_cache_layout() {
  static const PageCacheLayout layout = [] {
    const auto warp = std::make_unique<sim::Warp>();
    const sim::Exec probe{*warp};
    return PageCacheLayout{static_cast<uint64_t>(reinterpret_cast<const char*>(&probe.pages) -
                                                 reinterpret_cast<const char*>(&probe))};
  }();
  return layout;
}

class MemoryIr : WarpIr {
 public:
  explicit MemoryIr(const BlockValues& values)
      : WarpIr(values.b, values.warp, values.shadows),
        v_(values),
        b_(values.b),
        c_(b_.getContext()),
        layout_(warp_layout()) {
    i32_ = b_.getInt32Ty();
    i64_ = b_.getInt64Ty();
    ptr_ = llvm::PointerType::get(c_, 0);
    lanes_ = llvm::FixedVectorType::get(i32_, sim::kMaxLanes);
    fn_ = b_.GetInsertBlock()->getParent();
  }

  // lb ... sw (semantics/scalar.cpp, load and store): the bytes at x[rs1] + imm; amo*.w
  // (semantics/atomic.cpp, amo): the word at x[rs1], rd = old and old op x[rs2] stored, as one
  // host atomic (atomicrmw, as the semantics' compare-and-swap loop on other host threads' SMs).
  // An aligned access (within the warp's stack where rs1 is sp) whose page whole_page has
  // cached uses it at once, and so does a store that scalar_data_span accepted before at the
  // same address and size (PageCache::stores: the start code's stores beside .text, in every
  // warp); the others ask scalar_data_span, which caches the page; when it refuses, the
  // semantics run, which also report any fault.
  void scalar(const sim::Insn& in, const std::function<void()>& emit_call) {
    const std::optional<llvm::AtomicRMWInst::BinOp> amo = amo_operation(in.op);
    const unsigned size = amo ? 4 : scalar_access_size(in.op);
    const bool store = amo || in.op == Op::SB || in.op == Op::SH || in.op == Op::SW;
    llvm::Value* address =
        amo ? read_x(in.rs1)
            : b_.CreateAdd(read_x(in.rs1), b_.getInt32(static_cast<uint32_t>(in.imm)));
    llvm::Value* may_cache = b_.CreateICmpEQ(b_.CreateAnd(address, size - 1), b_.getInt32(0));
    if (in.rs1 == sim::kStackPointer) {  // sim::in_stack
      llvm::Value* end = load(layout_.stack_end);
      llvm::Value* inside = b_.CreateAnd(
          b_.CreateICmpUGE(address, load(layout_.stack_base)),
          b_.CreateICmpULE(b_.CreateAdd(b_.CreateZExt(address, i64_), b_.getInt64(size)),
                           b_.CreateZExt(end, i64_)));
      may_cache =
          b_.CreateAnd(may_cache, b_.CreateOr(b_.CreateICmpEQ(end, b_.getInt32(0)), inside));
    }
    const CachedPage page = cached_page(address, store);
    llvm::Value* hit = b_.CreateAnd(may_cache, page.hit);
    auto* cached = llvm::BasicBlock::Create(c_, "scalar_cached", fn_);
    auto* lookup = llvm::BasicBlock::Create(c_, "scalar_lookup", fn_);
    auto* slow = llvm::BasicBlock::Create(c_, "scalar_access_call", fn_);
    auto* access = llvm::BasicBlock::Create(c_, "scalar_access", fn_);
    auto* done = llvm::BasicBlock::Create(c_, "scalar_access_done", fn_);
    b_.CreateCondBr(hit, cached, lookup);

    b_.SetInsertPoint(cached);
    llvm::Value* in_cached = page.host_of(address);
    b_.CreateBr(access);

    b_.SetInsertPoint(lookup);
    llvm::Value* in_known = nullptr;
    llvm::BasicBlock* known = nullptr;
    if (store) {
      const KnownStore before = known_store(address, size);
      known = llvm::BasicBlock::Create(c_, "scalar_known_store", fn_);
      auto* call = llvm::BasicBlock::Create(c_, "scalar_data_span", fn_);
      b_.CreateCondBr(b_.CreateAnd(may_cache, before.hit), known, call);
      b_.SetInsertPoint(known);
      in_known = before.host();
      b_.CreateBr(access);
      b_.SetInsertPoint(call);
    }
    llvm::CallInst* found =
        call_host(b_, reinterpret_cast<uint64_t>(&sim::scalar_data_span), ptr_,
                  {v_.ctx, address, b_.getInt32(in.rs1), b_.getInt32(size), b_.getInt1(store)});
    FieldShadows::keeps_fields(found);
    llvm::BasicBlock* called = b_.GetInsertBlock();
    b_.CreateCondBr(b_.CreateIsNull(found), slow, access);

    b_.SetInsertPoint(slow);
    emit_call();
    b_.CreateBr(done);

    b_.SetInsertPoint(access);
    llvm::PHINode* host = b_.CreatePHI(ptr_, 3);
    host->addIncoming(in_cached, cached);
    host->addIncoming(found, called);
    if (known) host->addIncoming(in_known, known);
    llvm::Type* type = b_.getIntNTy(8 * size);
    if (amo) {
      write_x(in.rd, b_.CreateAtomicRMW(*amo, host, read_x(in.rs2), llvm::MaybeAlign(4),
                                        llvm::AtomicOrdering::AcquireRelease));
    } else if (store) {
      b_.CreateAlignedStore(b_.CreateTrunc(read_x(in.rs2), type), host, llvm::Align(size));
    } else {
      llvm::Value* raw = b_.CreateAlignedLoad(type, host, llvm::Align(size));
      const bool is_signed = in.op == Op::LB || in.op == Op::LH;
      write_x(in.rd, is_signed ? b_.CreateSExt(raw, i32_) : b_.CreateZExt(raw, i32_));
    }
    b_.CreateBr(done);
    b_.SetInsertPoint(done);
  }

  // vlb12.v ... vsw12.v, vlb.v ... vsw.v (semantics/memory.cpp, thread_load and thread_store
  // in the flat and the private space): lane i of the SIMT-active lanes accesses the `size`
  // bytes at a = v[rs1][i] + imm, at device address a (flat) or csr_pds + (a & ~3) * lanes +
  // (a & 3) + 4 * i (private). When they are aligned and thread_span finds their host memory
  // (one page, what the semantics' own fast path takes), or else thread_pointers finds each
  // lane's (several pages), a masked gather or scatter moves them in lane order (loads sign-
  // or zero-extended, stores truncated); otherwise the semantics run, which also report any
  // fault.
  void thread(const sim::Insn& in, const std::function<void()>& emit_call) {
    if (v_.tier == Tier::Quick) return thread_in_one_page(in, emit_call);
    const ThreadAccess row = thread_access(in.op);
    const unsigned size = row.size;
    const LaneAccess lanes = lane_access(in, row);
    llvm::Value *active = lanes.active, *on = lanes.on, *address = lanes.address, *lo = lanes.lo,
                *hi = lanes.hi, *misaligned = lanes.misaligned;
    // A misaligned lane (address or device address) makes `first` misaligned: thread_span
    // refuses it, and so does the per-lane path.
    llvm::Value* first = b_.CreateOr(lo, misaligned);
    auto* one_page = llvm::BasicBlock::Create(c_, "thread_access_page", fn_);
    auto* pages = llvm::BasicBlock::Create(c_, "thread_access_pages", fn_);
    auto* each_lane = llvm::BasicBlock::Create(c_, "thread_access_each_lane", fn_);
    auto* paged = llvm::BasicBlock::Create(c_, "thread_access_paged", fn_);
    auto* slow = llvm::BasicBlock::Create(c_, "thread_access_call", fn_);
    auto* access = llvm::BasicBlock::Create(c_, "thread_access", fn_);
    auto* done = llvm::BasicBlock::Create(c_, "thread_access_done", fn_);
    llvm::PHINode* base = nullptr;
    if (row.is_private) {
      llvm::Value* span = call_span(first, hi, row);
      b_.CreateCondBr(b_.CreateIsNull(span), pages, one_page);
      b_.SetInsertPoint(one_page);
      base = b_.CreatePHI(ptr_, 1);
      base->addIncoming(span, span_block_);
    } else {
      // Flat accesses in one page that MemorySystem::whole_page has cached (tiles in local
      // memory, a row of a buffer) use it at once, as the scalar accesses do: what thread_span
      // would give, since the cache holds only pages open to every aligned access of the kind
      // and nothing while the commit log or the memory checker is on.
      const CachedPage page = cached_page(lo, row.store);
      llvm::Value* hit =
          b_.CreateAnd(b_.CreateAnd(b_.CreateICmpEQ(misaligned, b_.getInt32(0)), page.hit),
                       b_.CreateAnd(b_.CreateICmpEQ(b_.CreateLShr(hi, sim::kPageShift),
                                                    b_.CreateLShr(lo, sim::kPageShift)),
                                    b_.CreateICmpUGE(lo, b_.getInt32(sim::kLdsBase))));
      auto* cached = llvm::BasicBlock::Create(c_, "thread_access_cached", fn_);
      auto* lookup = llvm::BasicBlock::Create(c_, "thread_access_lookup", fn_);
      b_.CreateCondBr(hit, cached, lookup);
      b_.SetInsertPoint(cached);
      llvm::Value* in_cached = page.host_of(lo);
      b_.CreateBr(one_page);
      b_.SetInsertPoint(lookup);
      llvm::Value* span = call_span(first, hi, row);
      b_.CreateCondBr(b_.CreateIsNull(span), pages, one_page);
      b_.SetInsertPoint(one_page);
      base = b_.CreatePHI(ptr_, 2);
      base->addIncoming(in_cached, cached);
      base->addIncoming(span, span_block_);
    }
    // Its own gather or scatter, at 32-bit offsets from `base`: through the pointers' phi
    // below, the host would take 8 lanes per instruction through 64-bit pointers.
    auto* in_page = llvm::BasicBlock::Create(c_, "thread_access_in_page", fn_);
    move_if_in_order(in, row, lanes, base, in_page, done);
    b_.SetInsertPoint(in_page);
    move(in, row, pointers_from(base, lo, address), on);
    b_.CreateBr(done);

    b_.SetInsertPoint(pages);
    auto* pointers_type = llvm::FixedVectorType::get(ptr_, sim::kMaxLanes);
    llvm::Value* aligned = b_.CreateICmpEQ(misaligned, b_.getInt32(0));
    llvm::Value *all_cached = nullptr, *table_lanes = nullptr;
    llvm::BasicBlock *cached_lanes = nullptr, *table_block = nullptr;
    if (row.is_private) {
      b_.CreateCondBr(aligned, each_lane, slow);
    } else {
      // Each lane's page looked up in whole_page's cache at once (spmv's gathers over its
      // vector): when every active lane's page is there, the pointers thread_pointers would
      // give, without the call (which fills the cache).
      auto* two_pages = llvm::BasicBlock::Create(c_, "thread_access_two_pages", fn_);
      auto* looked_up = llvm::BasicBlock::Create(c_, "thread_access_lanes_looked_up", fn_);
      b_.CreateCondBr(b_.CreateAnd(aligned, b_.CreateICmpUGE(lo, b_.getInt32(sim::kLdsBase))),
                      two_pages, each_lane);
      // Lanes in two neighbouring pages, both cached (a row of a buffer across a page
      // boundary, spmv's rows of nonzeros): a gather or scatter in each page, at 32-bit
      // offsets, rather than one through 64-bit pointers looked up lane by lane. Lanes in
      // different pages never share a byte, so the two keep the lane order's effects.
      b_.SetInsertPoint(two_pages);
      llvm::Value* high_page = b_.CreateLShr(hi, sim::kPageShift);
      auto* both_cached = llvm::BasicBlock::Create(c_, "thread_access_two_pages_cached", fn_);
      b_.CreateCondBr(
          b_.CreateICmpEQ(b_.CreateAdd(b_.CreateLShr(lo, sim::kPageShift), b_.getInt32(1)),
                          high_page),
          both_cached, looked_up);
      b_.SetInsertPoint(both_cached);
      const CachedPage low = cached_page(lo, row.store), high = cached_page(hi, row.store);
      auto* in_two_pages = llvm::BasicBlock::Create(c_, "thread_access_in_two_pages", fn_);
      b_.CreateCondBr(b_.CreateAnd(low.hit, high.hit), in_two_pages, looked_up);
      b_.SetInsertPoint(in_two_pages);
      llvm::Value* in_high = b_.CreateICmpEQ(b_.CreateLShr(address, splat(sim::kPageShift)),
                                             b_.CreateVectorSplat(32, high_page));
      const auto move_within = [&](const CachedPage& page, llvm::Value* from,
                                   llvm::Value* lanes_on) {
        move(in, row, pointers_from(page.host_of(from), from, address), lanes_on);
      };
      move_within(low, lo, b_.CreateAnd(on, b_.CreateNot(in_high)));
      move_within(high, hi, b_.CreateAnd(on, in_high));
      b_.CreateBr(done);
      b_.SetInsertPoint(looked_up);
      if (!row.store) {
        // Loads in the global window look each lane's page up in Memory's page table.
        llvm::Value* table =
            b_.CreateAlignedLoad(ptr_,
                                 b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), page_cache(),
                                                               page_cache_layout().global_pages),
                                 llvm::Align(8));
        llvm::Value* outside = b_.CreateAnd(on, b_.CreateICmpULT(address, splat(sim::kGdsBase)));
        auto* by_table = llvm::BasicBlock::Create(c_, "thread_access_page_table", fn_);
        auto* by_cache = llvm::BasicBlock::Create(c_, "thread_access_page_cache", fn_);
        b_.CreateCondBr(
            b_.CreateAnd(b_.CreateIsNotNull(table), b_.CreateNot(b_.CreateOrReduce(outside))),
            by_table, by_cache);
        b_.SetInsertPoint(by_table);
        const CachedLanes mapped = table_lanes_of(table, address, on);
        table_lanes = mapped.pointers;
        table_block = b_.GetInsertBlock();
        b_.CreateCondBr(mapped.hit, access, each_lane);
        b_.SetInsertPoint(by_cache);
      }
      const CachedLanes lanes = cached_lanes_of(address, on, row.store);
      all_cached = lanes.pointers;
      cached_lanes = b_.GetInsertBlock();
      b_.CreateCondBr(lanes.hit, access, each_lane);
    }
    b_.SetInsertPoint(each_lane);
    b_.CreateAlignedStore(address, v_.lane_addresses, llvm::Align(64));
    llvm::CallInst* found =
        call_host(b_, reinterpret_cast<uint64_t>(&sim::thread_pointers), b_.getInt1Ty(),
                  {v_.ctx, v_.lane_addresses, active, b_.getInt32(size), b_.getInt1(row.store),
                   b_.getInt1(row.is_private), v_.lane_pointers});
    FieldShadows::keeps_fields(found);
    b_.CreateCondBr(found, paged, slow);
    b_.SetInsertPoint(paged);
    // Inactive lanes' pointers are left as they were: the masked access does not use them.
    llvm::Value* per_lane = b_.CreateAlignedLoad(pointers_type, v_.lane_pointers, llvm::Align(64));
    b_.CreateBr(access);

    b_.SetInsertPoint(slow);
    emit_call();
    b_.CreateBr(done);

    b_.SetInsertPoint(access);
    llvm::PHINode* pointers = b_.CreatePHI(pointers_type, 3);
    pointers->addIncoming(per_lane, paged);
    if (all_cached) pointers->addIncoming(all_cached, cached_lanes);
    if (table_lanes) pointers->addIncoming(table_lanes, table_block);
    move(in, row, pointers, on);
    b_.CreateBr(done);
    b_.SetInsertPoint(done);
  }

  // thread() at Tier::Quick: only the accesses of one page (cached, else what thread_span
  // finds, which caches it) are inline, through a gather or scatter at 32-bit offsets from the
  // page's host address; all others run the semantics.
  void thread_in_one_page(const sim::Insn& in, const std::function<void()>& emit_call) {
    const ThreadAccess row = thread_access(in.op);
    const LaneAccess lanes = lane_access(in, row);
    llvm::Value *on = lanes.on, *address = lanes.address, *lo = lanes.lo, *hi = lanes.hi,
                *misaligned = lanes.misaligned;
    auto* lookup = llvm::BasicBlock::Create(c_, "thread_access_lookup", fn_);
    auto* access = llvm::BasicBlock::Create(c_, "thread_access", fn_);
    auto* slow = llvm::BasicBlock::Create(c_, "thread_access_call", fn_);
    auto* done = llvm::BasicBlock::Create(c_, "thread_access_done", fn_);
    llvm::Value* in_cached = nullptr;
    llvm::BasicBlock* cached = nullptr;
    if (row.is_private) {
      b_.CreateBr(lookup);
    } else {
      const CachedPage page = cached_page(lo, row.store);
      llvm::Value* hit =
          b_.CreateAnd(b_.CreateAnd(b_.CreateICmpEQ(misaligned, b_.getInt32(0)), page.hit),
                       b_.CreateAnd(b_.CreateICmpEQ(b_.CreateLShr(hi, sim::kPageShift),
                                                    b_.CreateLShr(lo, sim::kPageShift)),
                                    b_.CreateICmpUGE(lo, b_.getInt32(sim::kLdsBase))));
      cached = llvm::BasicBlock::Create(c_, "thread_access_cached", fn_);
      b_.CreateCondBr(hit, cached, lookup);
      b_.SetInsertPoint(cached);
      in_cached = page.host_of(lo);
      b_.CreateBr(access);
    }
    b_.SetInsertPoint(lookup);
    llvm::Value* span = call_span(b_.CreateOr(lo, misaligned), hi, row);
    b_.CreateCondBr(b_.CreateIsNull(span), slow, access);

    b_.SetInsertPoint(slow);
    emit_call();
    b_.CreateBr(done);

    b_.SetInsertPoint(access);
    llvm::PHINode* base = b_.CreatePHI(ptr_, 2);
    base->addIncoming(span, span_block_);
    if (cached) base->addIncoming(in_cached, cached);
    auto* gather = llvm::BasicBlock::Create(c_, "thread_access_gather", fn_);
    move_if_in_order(in, row, lanes, base, gather, done);
    b_.SetInsertPoint(gather);
    move(in, row, pointers_from(base, lo, address), on);
    b_.CreateBr(done);
    b_.SetInsertPoint(done);
  }

 private:
  // The masked gather or scatter of a thread access through `pointers` (one per lane).
  // A per-thread access's lanes: the SIMT-active ones (an i32 and as <32 x i1>), their
  // addresses (private ones interleaved as private memory lays them out), the lowest and
  // highest of them, and the OR of the active lanes' low bits of the device and the host-side
  // address (nonzero: some lane is misaligned).
  struct LaneAccess {
    llvm::Value *active, *on, *address, *lo, *hi, *misaligned;
  };
  LaneAccess lane_access(const sim::Insn& in, const ThreadAccess& row) {
    LaneAccess a;
    a.active = load(layout_.mask);
    a.on = b_.CreateBitCast(a.active, bits());
    a.address = b_.CreateAdd(read_v(in.rs1), splat(static_cast<uint32_t>(in.imm)));
    const auto low_bits_of_active = [&](llvm::Value* lanes) {
      return b_.CreateAnd(b_.CreateUnaryIntrinsic(llvm::Intrinsic::vector_reduce_or,
                                                  b_.CreateSelect(a.on, lanes, splat(0))),
                          b_.getInt32(row.size - 1));
    };
    a.misaligned = low_bits_of_active(a.address);
    if (row.is_private) {
      llvm::Value* row_start = b_.CreateMul(b_.CreateAnd(a.address, splat(~3u)),
                                            b_.CreateVectorSplat(32, load(layout_.lanes)));
      a.address = b_.CreateAdd(b_.CreateAdd(b_.CreateAdd(row_start, b_.CreateAnd(a.address, splat(3))),
                                            lane_times(c_, 4)),
                               b_.CreateVectorSplat(32, load(layout_.csr_pds)));
      a.misaligned = b_.CreateOr(a.misaligned, low_bits_of_active(a.address));
    }
    a.lo = b_.CreateUnaryIntrinsic(llvm::Intrinsic::vector_reduce_umin,
                                   b_.CreateSelect(a.on, a.address, splat(~0u)));
    a.hi = b_.CreateUnaryIntrinsic(llvm::Intrinsic::vector_reduce_umax,
                                   b_.CreateSelect(a.on, a.address, splat(0)));
    return a;
  }

  // Each lane's host address, given `base`, the host address of device address `from` in the
  // same page: offsets as 32-bit indices (GEP sign-extends them), so that the host's gathers
  // take 16 lanes per instruction rather than 8.
  llvm::Value* pointers_from(llvm::Value* base, llvm::Value* from, llvm::Value* address) {
    return b_.CreateGEP(b_.getInt8Ty(), base,
                        b_.CreateSub(address, b_.CreateVectorSplat(32, from)));
  }

  // Whether the active lanes' addresses are consecutive elements of the access's size (lane i
  // at a + i * size, whichever lanes are inactive) inside the page whose host address `base`
  // is that of the lowest one, `lo`; lane0: the host address of lane 0's element then (before
  // `lo` when the first lanes are inactive). A masked vector load or store then moves them
  // (a row of a buffer, a stack slot in private memory) instead of a gather or scatter, which
  // costs several times more on the host.
  struct InOrder {
    llvm::Value *holds, *lane0;
  };
  InOrder in_order(const LaneAccess& lanes, llvm::Value* base, unsigned size) {
    // The lowest active lane's address is lo: in order, lane 0's is lo - first * size.
    llvm::Value* first =
        b_.CreateBinaryIntrinsic(llvm::Intrinsic::cttz, lanes.active, b_.getFalse());
    llvm::Value* before_lo = b_.CreateMul(first, b_.getInt32(size));
    llvm::Value* expected = b_.CreateAdd(
        b_.CreateVectorSplat(32, b_.CreateSub(lanes.lo, before_lo)), lane_times(c_, size));
    llvm::Value* elsewhere = b_.CreateAnd(lanes.on, b_.CreateICmpNE(lanes.address, expected));
    return {b_.CreateNot(b_.CreateOrReduce(elsewhere)),
            b_.CreateGEP(b_.getInt8Ty(), base, b_.CreateNeg(b_.CreateZExt(before_lo, i64_)))};
  }

  // An access whose lanes are in order (in_order, in the page at `base`) moves at once and
  // goes on at `done`; any other goes on at `otherwise`.
  void move_if_in_order(const sim::Insn& in, const ThreadAccess& row, const LaneAccess& lanes,
                        llvm::Value* base, llvm::BasicBlock* otherwise, llvm::BasicBlock* done) {
    const InOrder consecutive = in_order(lanes, base, row.size);
    auto* one_load_or_store = llvm::BasicBlock::Create(c_, "thread_access_in_order", fn_);
    b_.CreateCondBr(consecutive.holds, one_load_or_store, otherwise);
    b_.SetInsertPoint(one_load_or_store);
    move(in, row, consecutive.lane0, lanes.on, Moved::InOrder);
    b_.CreateBr(done);
  }

  // The masked access of a thread access's active lanes: through `pointers`, one per lane
  // (a gather or scatter, in lane order), or InOrder from lane 0's element.
  enum class Moved : uint8_t { EachLane, InOrder };
  void move(const sim::Insn& in, const ThreadAccess& row, llvm::Value* pointers, llvm::Value* on,
            Moved how = Moved::EachLane) {
    const unsigned size = row.size;
    const llvm::Align align(size);
    auto* elements = llvm::FixedVectorType::get(b_.getIntNTy(8 * size), sim::kMaxLanes);
    if (row.store) {
      llvm::Value* value = b_.CreateTrunc(read_v(in.rs2), elements);
      if (how == Moved::InOrder)
        b_.CreateMaskedStore(value, pointers, align, on);
      else
        b_.CreateMaskedScatter(value, pointers, align, on);
      return;
    }
    const auto masked_load = [&](llvm::Type* type, llvm::Value* pass_through) {
      return how == Moved::InOrder ? b_.CreateMaskedLoad(type, pointers, align, on, pass_through)
                                   : b_.CreateMaskedGather(type, pointers, align, on, pass_through);
    };
    llvm::Value* old = read_v(in.rd);
    llvm::Value* loaded = nullptr;
    if (size == 4) {
      loaded = masked_load(lanes_, old);
    } else {
      llvm::Value* raw = masked_load(elements, nullptr);
      loaded = b_.CreateSelect(
          on, row.is_signed ? b_.CreateSExt(raw, lanes_) : b_.CreateZExt(raw, lanes_), old);
    }
    write_v(in.rd, loaded);
  }

  // MemorySystem::whole_page's cached page of a device address, for loads or stores: hit
  // when it is there; host_of(address) is then where the address lies in host memory.
  struct CachedPage {
    llvm::IRBuilder<>& b;
    llvm::Value* hit;
    llvm::Value* entry;  // the PageCache::Entry
    llvm::Value* host_of(llvm::Value* address) const {
      llvm::Value* base = b.CreateAlignedLoad(
          b.getPtrTy(),
          b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), entry, page_cache_layout().host),
          llvm::Align(8));
      return b.CreateInBoundsGEP(
          b.getInt8Ty(), base,
          b.CreateZExt(b.CreateAnd(address, sim::kPageSize - 1), b.getInt64Ty()));
    }
  };
  CachedPage cached_page(llvm::Value* address, bool store) {
    const PageCacheLayout& cache = page_cache_layout();
    llvm::Value* page = b_.CreateLShr(address, sim::kPageShift);
    llvm::Value* pages = page_cache();
    llvm::Value* slot = b_.CreateAdd(
        b_.getInt64(store ? cache.store : cache.load),
        b_.CreateMul(
            b_.CreateZExt(b_.CreateURem(page, b_.getInt32(sim::PageCache::kEntries)), i64_),
            b_.getInt64(cache.entry)));
    llvm::Value* entry = b_.CreateInBoundsGEP(b_.getInt8Ty(), pages, slot);
    llvm::Value* cached = b_.CreateAlignedLoad(
        i32_, b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), entry, cache.page), llvm::Align(4));
    return {b_, b_.CreateICmpEQ(cached, page), entry};
  }

  // PageCache::known_store(address), for a store of `size` bytes: hit when it holds that
  // store; host() loads its host address.
  struct KnownStore {
    llvm::IRBuilder<>& b;
    llvm::Value *hit, *entry;
    llvm::Value* host() const {
      return b.CreateAlignedLoad(
          llvm::PointerType::get(b.getContext(), 0),
          b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), entry, page_cache_layout().known_host),
          llvm::Align(8));
    }
  };
  KnownStore known_store(llvm::Value* address, unsigned size) {
    const PageCacheLayout& cache = page_cache_layout();
    llvm::Value* slot = b_.CreateAdd(
        b_.getInt64(cache.stores),
        b_.CreateMul(
            b_.CreateZExt(b_.CreateURem(b_.CreateLShr(address, sim::PageCache::kStoreShift),
                                        b_.getInt32(sim::PageCache::kStores)),
                          i64_),
            b_.getInt64(cache.known_store)));
    llvm::Value* entry = b_.CreateInBoundsGEP(b_.getInt8Ty(), page_cache(), slot);
    const auto field = [&](uint64_t offset) {
      return b_.CreateAlignedLoad(
          i32_, b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), entry, offset), llvm::Align(4));
    };
    llvm::Value* hit = b_.CreateAnd(b_.CreateICmpEQ(field(cache.known_address), address),
                                    b_.CreateICmpEQ(field(cache.known_size), b_.getInt32(size)));
    return {b_, hit, entry};
  }

  // hit: every active lane's page was found; pointers: each lane's host address then.
  struct CachedLanes {
    llvm::Value* hit;
    llvm::Value* pointers;
  };

  // The SM's sim::PageCache (Exec::pages).
  llvm::Value* page_cache() {
    return b_.CreateAlignedLoad(
        ptr_, b_.CreateConstInBoundsGEP1_64(b_.getInt8Ty(), v_.ctx, page_cache_layout().pages),
        llvm::Align(8));
  }

  // The active lanes' pages of `address` (32 load addresses in the global window) in
  // Memory's page table `table`: hit when every one is mapped; pointers: each lane's host
  // address then.
  CachedLanes table_lanes_of(llvm::Value* table, llvm::Value* address, llvm::Value* on) {
    auto* wide = llvm::FixedVectorType::get(i64_, sim::kMaxLanes);
    auto* pointers_type = llvm::FixedVectorType::get(ptr_, sim::kMaxLanes);
    llvm::Value* hosts = b_.CreateMaskedGather(
        pointers_type, b_.CreateGEP(ptr_, table, b_.CreateLShr(address, splat(sim::kPageShift))),
        llvm::Align(8), on);
    llvm::Value* unmapped =
        b_.CreateAnd(on, b_.CreateICmpEQ(hosts, llvm::Constant::getNullValue(pointers_type)));
    llvm::Value* offsets = b_.CreateZExt(b_.CreateAnd(address, splat(sim::kPageSize - 1)), wide);
    return {b_.CreateNot(b_.CreateOrReduce(unmapped)),
            b_.CreateGEP(b_.getInt8Ty(), hosts, offsets)};
  }

  // The active lanes' pages of `address` (32 device addresses) in whole_page's cache: hit
  // when every active lane's page is there; pointers: each lane's host address then.
  CachedLanes cached_lanes_of(llvm::Value* address, llvm::Value* on, bool store) {
    const PageCacheLayout& cache = page_cache_layout();
    auto* wide = llvm::FixedVectorType::get(i64_, sim::kMaxLanes);
    auto* pointers_type = llvm::FixedVectorType::get(ptr_, sim::kMaxLanes);
    llvm::Value* page = b_.CreateLShr(address, splat(sim::kPageShift));
    llvm::Value* pages = page_cache();
    llvm::Value* slot = b_.CreateAdd(
        b_.CreateVectorSplat(sim::kMaxLanes, b_.getInt64(store ? cache.store : cache.load)),
        b_.CreateMul(b_.CreateZExt(b_.CreateURem(page, splat(sim::PageCache::kEntries)), wide),
                     b_.CreateVectorSplat(sim::kMaxLanes, b_.getInt64(cache.entry))));
    llvm::Value* entries = b_.CreateInBoundsGEP(b_.getInt8Ty(), pages, slot);
    llvm::Value* cached = b_.CreateMaskedGather(
        lanes_, b_.CreateInBoundsGEP(b_.getInt8Ty(), entries, b_.getInt64(cache.page)),
        llvm::Align(4), on, splat(sim::PageCache::kNoPage));
    llvm::Value* missed = b_.CreateAnd(on, b_.CreateICmpNE(cached, page));
    llvm::Value* hit = b_.CreateNot(b_.CreateOrReduce(missed));
    llvm::Value* hosts = b_.CreateMaskedGather(
        pointers_type, b_.CreateInBoundsGEP(b_.getInt8Ty(), entries, b_.getInt64(cache.host)),
        llvm::Align(8), on);
    llvm::Value* offsets = b_.CreateZExt(b_.CreateAnd(address, splat(sim::kPageSize - 1)), wide);
    return {hit, b_.CreateGEP(b_.getInt8Ty(), hosts, offsets)};
  }

  // sim::thread_span for the access; span_block_ is the block it returns in.
  llvm::Value* call_span(llvm::Value* first, llvm::Value* hi, const ThreadAccess& row) {
    llvm::CallInst* span = call_host(b_, reinterpret_cast<uint64_t>(&sim::thread_span), ptr_,
                                     {v_.ctx, first, hi, b_.getInt32(row.size),
                                      b_.getInt1(row.store), b_.getInt1(row.is_private)});
    FieldShadows::keeps_fields(span);
    span_block_ = b_.GetInsertBlock();
    return span;
  }

  const BlockValues& v_;
  llvm::IRBuilder<>& b_;
  llvm::LLVMContext& c_;
  const WarpLayout& layout_;
  llvm::Type *i32_ = nullptr, *i64_ = nullptr;
  llvm::PointerType* ptr_ = nullptr;
  llvm::FixedVectorType* lanes_ = nullptr;
  llvm::Function* fn_ = nullptr;
  llvm::BasicBlock* span_block_ = nullptr;  // where call_span's call returns
};

}  // namespace

bool is_scalar_access(const CachedInsn& entry) {
  return !entry.prefixed &&
         (scalar_access_size(entry.insn.op) != 0 || amo_operation(entry.insn.op).has_value());
}

bool is_thread_access(const CachedInsn& entry) {
  const sim::Insn& in = entry.insn;
  const ThreadAccess row = thread_access(in.op);
  return row.size != 0 && in.rs1 < sim::kNumVRegs && (row.store ? in.rs2 : in.rd) < sim::kNumVRegs;
}

void emit_scalar_access(const BlockValues& values, const sim::Insn& in,
                        const std::function<void()>& emit_call) {
  MemoryIr(values).scalar(in, emit_call);
}

void emit_thread_access(const BlockValues& values, const sim::Insn& in,
                        const std::function<void()>& emit_call) {
  MemoryIr(values).thread(in, emit_call);
}

llvm::CallInst* call_host(llvm::IRBuilder<>& b, uint64_t address, llvm::Type* result,
                          std::initializer_list<llvm::Value*> arguments) {
  std::vector<llvm::Type*> types;
  for (llvm::Value* argument : arguments) types.push_back(argument->getType());
  auto* type = llvm::FunctionType::get(result, types, false);
  auto* callee = llvm::ConstantExpr::getIntToPtr(b.getInt64(address),
                                                 llvm::PointerType::get(b.getContext(), 0));
  llvm::CallInst* call = b.CreateCall(type, callee, arguments);
  call->addFnAttr(llvm::Attribute::NoUnwind);
  // C++'s bool is a zero-extended byte.
  for (unsigned i = 0; i < types.size(); ++i)
    if (types[i]->isIntegerTy(1)) call->addParamAttr(i, llvm::Attribute::ZExt);
  if (result->isIntegerTy(1)) call->addRetAttr(llvm::Attribute::ZExt);
  return call;
}

}  // namespace ventus::jit
