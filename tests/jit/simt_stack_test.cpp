// The SIMT stack's pushes and pops as translated code runs them (src/jit/translator.cpp,
// emit_split and emit_join repeat sim::split_warp's and sim::join_pops's rules in IR) against
// the semantics (semantics/control.cpp) on the same warp states: each vector branch kind and
// join as the first entry of a translated block, run for one instruction, and through its
// semantics function, from thousands of random states (masks, register rows that make the
// branch taken by no lane, some or all, ties between the paths; stacks empty, partly full, with
// room for just one more split and full, whose tops belong to the join or not and resume at it
// or elsewhere). Both must leave the same mask, stack, pc, divergence count and fault.
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "semantics.h"
#include "sim_harness.h"
#include "translator.h"

namespace ventus::test {
namespace {

// Each vector branch kind and a join, each the start of a block (a block runs on through
// vector branches and joins, but one instruction of the budget runs only the first).
const char* const kProgram = R"(
    vbeq v1, v2, .Ltarget
    vbne v1, v2, .Ltarget
    vblt v1, v2, .Ltarget
    vbge v1, v2, .Ltarget
    vbltu v1, v2, .Ltarget
    vbgeu v1, v2, .Ltarget
    join zero, zero, 0
    vadd.vi v3, v3, 1
.Ltarget:
    vadd.vi v4, v4, 1
    endprg x0, x0, x0
)";
constexpr unsigned kBranches = 6;
constexpr uint32_t kJoinPc = sim::kCodeBase + 4 * kBranches;

// What one instruction left.
struct After {
  uint32_t pc = 0;  // where the warp goes on
  uint32_t mask = 0;
  std::vector<sim::SimtEntry> stack;
  uint32_t divergences = 0;
  std::string fault;
};

After after(const sim::Warp& w, uint32_t pc, const sim::Exec& ctx, std::string fault) {
  After a;
  a.pc = pc;
  a.mask = w.mask;
  a.stack.assign(w.simt_stack.entries, w.simt_stack.entries + w.simt_stack.depth);
  a.divergences = ctx.divergences;
  a.fault = std::move(fault);
  return a;
}

After interpret(const sim::CachedInsn& entry, uint32_t pc, const sim::Warp& start) {
  auto w = std::make_unique<sim::Warp>(start);
  sim::Exec ctx{*w};
  ctx.pc = pc;
  ctx.next_pc = pc + 4;
  std::string fault;
  try {
    entry.fn(ctx, entry.insn);
  } catch (const sim::ExecFault& e) {
    fault = e.what();
  }
  return after(*w, fault.empty() ? ctx.next_pc : pc, ctx, fault);
}

// The block runs with a budget of one instruction; where the warp goes on follows
// Block::Fn's result as Sm::run_block reads it.
After translated(const jit::Block& block, const sim::Warp& start) {
  auto w = std::make_unique<sim::Warp>(start);
  sim::Exec ctx{*w};
  std::exception_ptr error;
  jit::Block::Tally tally;
  const uint32_t result = block.fn(&ctx, w.get(), &error, 1, &tally, 0);
  const size_t done = result >> 2;
  std::string fault;
  uint32_t pc = block.pcs[0];
  if ((result & 3) == jit::Block::kFaulted) {
    try {
      std::rethrow_exception(error);
    } catch (const sim::ExecFault& e) {
      fault = e.what();
    }
  } else if (done > 0) {
    switch (result & 3) {
      case jit::Block::kWentOn: pc = block.exits[done - 1].next_pc; break;
      case jit::Block::kLeft: pc = ctx.next_pc; break;
      default: pc = block.exits[done - 1].taken_pc; break;  // kJumped
    }
  }
  return after(*w, pc, ctx, fault);
}

class Random {
 public:
  explicit Random(uint32_t seed) : rng_(seed) {}
  uint32_t below(uint32_t n) { return std::uniform_int_distribution<uint32_t>(0, n - 1)(rng_); }
  uint32_t bits() { return static_cast<uint32_t>(rng_()); }
  bool chance(uint32_t percent) { return below(100) < percent; }

 private:
  std::mt19937 rng_;
};

// A warp state that exercises the rules: few distinct element values (so lanes compare equal,
// less and greater, signed and unsigned), masks from none to every lane, and a stack whose
// depth is often at the ends of its range.
std::unique_ptr<sim::Warp> random_warp(Random& r, uint32_t pc) {
  auto w = std::make_unique<sim::Warp>();
  const uint32_t lane_counts[] = {32, 30, 16, 8, 4, 1};
  w->lanes = lane_counts[r.below(6)];
  w->lane_mask = w->lanes == 32 ? ~0u : (1u << w->lanes) - 1;
  switch (r.below(4)) {
    case 0: w->mask = w->lane_mask; break;
    case 1: w->mask = 0; break;
    default: w->mask = r.bits() & w->lane_mask; break;
  }
  const uint32_t values[] = {0, 1, 2, 0x80000000u, 0xffffffffu};
  const bool uniform = r.chance(20);  // every lane the same: taken by none or all
  for (uint32_t lane = 0; lane < sim::kMaxLanes; ++lane) {
    w->v[1][lane] = values[uniform ? 1 : r.below(5)];
    w->v[2][lane] = values[uniform ? 2 - r.below(2) * 2 : r.below(5)];
  }
  const uint32_t others[] = {pc, pc + 4, 0x80001000u};
  w->rpc = others[r.below(3)];
  constexpr uint32_t kCapacity = sim::SimtStack::kCapacity;
  switch (r.below(5)) {
    case 0: w->simt_stack.depth = 0; break;
    case 1: w->simt_stack.depth = kCapacity - 2 + r.below(3); break;  // room for one split or not
    default: w->simt_stack.depth = r.below(kCapacity + 1); break;
  }
  for (uint32_t i = 0; i < w->simt_stack.depth; ++i)
    w->simt_stack.entries[i] = {others[r.below(3)], others[r.below(3)], r.bits() & w->lane_mask};
  return w;
}

class SimtStackRules : public ::testing::Test {
 protected:
  void SetUp() override {
    load_program(device_, kProgram);
    cache_ = std::make_unique<sim::DecodeCache>(device_.memory());
    cache_->begin_launch(32);
    for (uint32_t pc = sim::kCodeBase; cache_->at(pc).insn.op != isa::Op::ENDPRG; pc += 4) {
    }
    translator_.begin_launch(device_.memory(), sim::JitMode::Force, /*every_core_busy=*/false);
  }
  const jit::Block& block_at(uint32_t pc) {
    const jit::Block* block = translator_.find_or_translate(pc, *cache_, /*starts=*/1).block;
    EXPECT_NE(block, nullptr);
    return *block;
  }

  // What an instruction did to the stack, counted by compare from the semantics' results (so
  // that a test can check that its cases occurred).
  enum Outcome { kPopped, kKept, kPushed, kFaulted, kOutcomes };
  // Runs `trials` random states through the entry at pc both ways and counts the outcomes.
  void compare(uint32_t pc, uint32_t seed, int trials, std::vector<int>& outcomes) {
    const jit::Block& block = block_at(pc);
    ASSERT_EQ(block.pcs[0], pc);
    Random r(seed);
    for (int trial = 0; trial < trials; ++trial) {
      const std::unique_ptr<sim::Warp> w = random_warp(r, pc);
      const After want = interpret(cache_->at(pc), pc, *w);
      const After got = translated(block, *w);
      const std::string what =
          "pc " + std::to_string(pc - sim::kCodeBase) + " trial " + std::to_string(trial) +
          " depth " + std::to_string(w->simt_stack.depth) + " mask " + std::to_string(w->mask);
      ASSERT_EQ(got.fault, want.fault) << what;
      EXPECT_EQ(got.pc, want.pc) << what;
      EXPECT_EQ(got.mask, want.mask) << what;
      EXPECT_EQ(got.divergences, want.divergences) << what;
      ASSERT_EQ(got.stack.size(), want.stack.size()) << what;
      for (size_t i = 0; i < want.stack.size(); ++i) {
        EXPECT_EQ(got.stack[i].rpc, want.stack[i].rpc) << what << " entry " << i;
        EXPECT_EQ(got.stack[i].resume_pc, want.stack[i].resume_pc) << what << " entry " << i;
        EXPECT_EQ(got.stack[i].mask, want.stack[i].mask) << what << " entry " << i;
      }
      const int change =
          static_cast<int>(want.stack.size()) - static_cast<int>(w->simt_stack.depth);
      ++outcomes[!want.fault.empty() ? kFaulted
                 : change < 0        ? kPopped
                 : change == 0       ? kKept
                                     : kPushed];
      if (testing::Test::HasFailure()) return;
    }
  }

  sim::Device device_;
  std::unique_ptr<sim::DecodeCache> cache_;
  jit::Translator translator_;
};

TEST_F(SimtStackRules, VectorBranchesPushAsTheSemanticsDo) {
  for (unsigned k = 0; k < kBranches; ++k) {
    std::vector<int> outcomes(kOutcomes);
    compare(sim::kCodeBase + 4 * k, 100 + k, 3000, outcomes);
    EXPECT_EQ(outcomes[kPopped], 0) << k;
    EXPECT_GT(outcomes[kKept], 300) << k << ": no lane or every lane taken";
    EXPECT_GT(outcomes[kPushed], 300) << k;
    EXPECT_GT(outcomes[kFaulted], 10) << k << ": no room for a split";
  }
}

// A split with room for exactly two more entries (a tie: the taken path runs first) and one
// without, which faults, in both tiers; the expected results are worked out here.
TEST_F(SimtStackRules, ASplitWithoutRoomFaultsInBothTiers) {
  const jit::Block& block = block_at(sim::kCodeBase);  // vbeq v1, v2
  auto w = std::make_unique<sim::Warp>();
  w->lanes = 32;
  w->lane_mask = w->mask = ~0u;
  for (uint32_t lane = 0; lane < 32; ++lane) w->v[1][lane] = lane % 2;  // v2 = 0: even lanes
  w->rpc = kJoinPc;
  for (uint32_t depth : {sim::SimtStack::kCapacity - 2, sim::SimtStack::kCapacity - 1}) {
    w->simt_stack.depth = depth;
    const After want = interpret(cache_->at(sim::kCodeBase), sim::kCodeBase, *w);
    const After got = translated(block, *w);
    if (depth == sim::SimtStack::kCapacity - 2) {
      // A tie (16 lanes each way): the taken path, the even lanes, runs first.
      EXPECT_EQ(want.fault, "");
      EXPECT_EQ(want.stack.size(), sim::SimtStack::kCapacity);
      EXPECT_EQ(want.mask, 0x55555555u);
      EXPECT_EQ(want.pc, sim::kCodeBase + 4 * (kBranches + 2));
      EXPECT_EQ(want.stack.back().resume_pc, sim::kCodeBase + 4);
      EXPECT_EQ(want.stack.back().mask, 0xaaaaaaaau);
      EXPECT_EQ(want.divergences, 1u);
    } else {
      EXPECT_NE(want.fault.find("SIMT stack overflow"), std::string::npos) << want.fault;
      EXPECT_EQ(want.stack.size(), depth);
      EXPECT_EQ(want.mask, ~0u);
    }
    EXPECT_EQ(got.fault, want.fault);
    EXPECT_EQ(got.pc, want.pc);
    EXPECT_EQ(got.mask, want.mask);
    EXPECT_EQ(got.divergences, want.divergences);
    ASSERT_EQ(got.stack.size(), want.stack.size());
    EXPECT_EQ(got.stack.back().resume_pc, want.stack.back().resume_pc);
    EXPECT_EQ(got.stack.back().mask, want.stack.back().mask);
  }
}

TEST_F(SimtStackRules, JoinsPopAsTheSemanticsDo) {
  std::vector<int> outcomes(kOutcomes);
  compare(kJoinPc, 7, 20000, outcomes);
  EXPECT_GT(outcomes[kPopped], 1000);
  EXPECT_GT(outcomes[kKept], 1000) << "an empty stack or a top of another join";
  EXPECT_EQ(outcomes[kPushed] + outcomes[kFaulted], 0);
}

}  // namespace
}  // namespace ventus::test
