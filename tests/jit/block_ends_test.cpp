// The decode cache keeps jit::ends_block of every entry (CachedInsn::ends_block), which the
// interpreter reads after each instruction to know where a translated block may start: it
// must be what jit::ends_block says, for every row, alone and after each kind of prefix.
#include <gtest/gtest.h>

#include <vector>

#include "decode_cache.h"
#include "translator.h"

namespace ventus {
namespace {

TEST(JitBlockEnds, TheDecodeCacheKeepsWhatEndsBlockSays) {
  constexpr uint32_t kCode = sim::kCodeBase;
  sim::Memory memory;
  memory.map(kCode, 4096);
  const isa::Op prefixes[] = {isa::Op::Count, isa::Op::REGEXT, isa::Op::REGPAIR, isa::Op::PREFIX,
                              isa::Op::PREFIX_MEMORY};
  unsigned ends = 0, goes_on = 0;
  for (const isa::InsnInfo& row : isa::instructions()) {
    for (const isa::Op prefix : prefixes) {
      uint32_t code[3] = {static_cast<uint32_t>(row.match), static_cast<uint32_t>(row.match >> 32),
                          0};
      if (prefix != isa::Op::Count) {
        if (row.length == 8) continue;
        code[1] = code[0];
        code[0] = static_cast<uint32_t>(isa::info(prefix).match);
      }
      ASSERT_TRUE(memory.write(kCode, code, sizeof code));
      sim::DecodeCache cache(memory);
      cache.begin_launch(32);
      const sim::CachedInsn& entry = cache.at(kCode);
      EXPECT_EQ(entry.ends_block != 0, jit::ends_block(entry))
          << row.mnemonic << " after "
          << (prefix == isa::Op::Count ? "no prefix" : isa::info(prefix).mnemonic);
      (entry.ends_block ? ends : goes_on)++;
    }
  }
  // Both answers occur (branches end blocks, ALU rows do not).
  EXPECT_GT(ends, 0u);
  EXPECT_GT(goes_on, 0u);
}

// Words that decode to no row (an illegal word, a prefix followed by another prefix) fault
// when run, so they end blocks; they have no row whose class could say so (op is Op::Count:
// reading its row overflowed the table, which the sanitizer build caught).
TEST(JitBlockEnds, WordsThatDecodeToNoRowEndBlocks) {
  constexpr uint32_t kCode = sim::kCodeBase;
  sim::Memory memory;
  memory.map(kCode, 4096);
  const auto prefix = static_cast<uint32_t>(isa::info(isa::Op::REGEXT).match);
  const uint32_t illegal[2] = {0, 0};
  const uint32_t prefix_then_prefix[2] = {prefix, prefix};
  for (const auto* code : {illegal, prefix_then_prefix}) {
    ASSERT_TRUE(memory.write(kCode, code, 8));
    sim::DecodeCache cache(memory);
    cache.begin_launch(32);
    const sim::CachedInsn& entry = cache.at(kCode);
    EXPECT_EQ(entry.insn.op, isa::Op::Count);
    EXPECT_TRUE(jit::ends_block(entry));
    EXPECT_EQ(entry.ends_block, 1);
  }
}

// A forward inlined jal is no block start: the block that runs it goes on at its target. A
// backward one may close a loop whose head starts a block, and a prefixed one is not inlined.
TEST(JitBlockEnds, OnlyAForwardJalJumpsWithinItsBlock) {
  constexpr uint32_t kCode = sim::kCodeBase + 64;
  constexpr uint32_t kJumpForward8 = 0x0080006f;  // jal x0, +8
  constexpr uint32_t kJumpBack8 = 0xff9ff06f;     // jal x0, -8
  const auto prefix = static_cast<uint32_t>(isa::info(isa::Op::REGEXT).match);
  sim::Memory memory;
  memory.map(sim::kCodeBase, 4096);
  const struct {
    uint32_t words[2];
    bool within;
  } cases[] = {{{kJumpForward8, 0}, true}, {{kJumpBack8, 0}, false}, {{prefix, kJumpForward8}, false}};
  for (const auto& c : cases) {
    ASSERT_TRUE(memory.write(kCode, c.words, sizeof c.words));
    sim::DecodeCache cache(memory);
    cache.begin_launch(32);
    const sim::CachedInsn& entry = cache.at(kCode);
    ASSERT_EQ(entry.insn.op, isa::Op::JAL);
    EXPECT_EQ(jit::jumps_within_block(entry), c.within) << std::hex << c.words[0];
    EXPECT_EQ(entry.jumps_within_block != 0, c.within) << std::hex << c.words[0];
  }
}

// A scalar branch whose next instruction has not run yet but whose target has: the block goes
// on at the target (the start code's and kernel prologues' checks that jump over code), and
// at the next instruction once that has run too.
TEST(JitBlockEnds, ABlockFollowsTheOnlyPathItsBranchHasTaken) {
  constexpr uint32_t kCode = sim::kCodeBase;
  const uint32_t code[] = {
      0x00128293,  // 0:  addi t0, t0, 1
      0x0062c663,  // 4:  blt t0, t1, 16
      0x06438393,  // 8:  addi t2, t2, 100
      0x06438393,  // 12: addi t2, t2, 100
      0x005e0e33,  // 16: add t3, t3, t0
      0x0000400b,  // 20: endprg
  };
  sim::Memory memory;
  memory.map(kCode, 4096);
  ASSERT_TRUE(memory.write(kCode, code, sizeof code));
  const struct {
    std::vector<uint32_t> run;  // offsets decoded before the block is translated
    std::vector<uint32_t> pcs;  // the block's entries
  } cases[] = {{{0, 4, 16, 20}, {0, 4, 16, 20}}, {{0, 4, 8, 12, 16, 20}, {0, 4, 8, 12, 16, 20}}};
  for (const auto& c : cases) {
    sim::DecodeCache cache(memory);
    cache.begin_launch(32);
    for (const uint32_t offset : c.run) cache.at(kCode + offset);
    jit::Translator translator;
    translator.begin_launch(memory, sim::JitMode::Force, /*every_core_busy=*/false);
    const jit::Translation found = translator.find_or_translate(kCode, cache, /*starts=*/1);
    ASSERT_NE(found.block, nullptr);
    std::vector<uint32_t> pcs;
    for (const uint32_t pc : found.block->pcs) pcs.push_back(pc - kCode);
    EXPECT_EQ(pcs, c.pcs);
    EXPECT_EQ(found.block->exits[1].next_pc - kCode, c.pcs[2]);
  }
}

}  // namespace
}  // namespace ventus
