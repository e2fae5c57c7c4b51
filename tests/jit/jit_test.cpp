// The translating tier against the interpreter: every program runs with translation off and
// forced (each block translated as soon as its instructions are decoded), and everything a
// launch leaves must be the same: memory, the registers the kernels store, statistics, and the
// fault (pc, instruction, message). Each test also checks that blocks were translated, so a
// tier that translates nothing cannot pass.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "random_program.h"
#include "rv_runner.h"
#include "sim_harness.h"
#include "translator.h"

namespace ventus::test {
namespace {

constexpr uint32_t kOut = 0x90000000;
constexpr uint32_t kOutBytes = 16 * 1024;
// Private memory, where a loader maps it (load_with_private_memory).
constexpr uint32_t kPrivate = 0xa0000000;
constexpr uint32_t kPrivateBytes = 4 << 20;

struct Outcome {
  sim::LaunchResult result;
  std::vector<uint32_t> memory;          // the output buffer
  std::vector<uint32_t> private_memory;  // where it is mapped
};

using Loader = void (*)(sim::Device&, const std::string&);

Outcome run(const std::string& program, Loader loader, const sim::KernelLaunch& launch,
            sim::JitMode mode, uint64_t budget = sim::DeviceConfig{}.instruction_budget) {
  sim::DeviceConfig config;
  config.instruction_budget = budget;
  // Shorter than the default quantum and than most kernels here: turns end inside blocks,
  // where the translated code must stop and later resume as the interpreter would.
  config.schedule_quantum = 64;
  sim::Device device(config);
  device.memory().map(kOut, kOutBytes);
  loader(device, program);
  sim::RunOptions options;
  options.jit = mode;
  Outcome o;
  o.result = device.run(launch, options);
  o.memory = read_words(device, kOut, kOutBytes / 4);
  if (device.memory().is_mapped(kPrivate, kPrivateBytes))
    o.private_memory = read_words(device, kPrivate, kPrivateBytes / 4);
  return o;
}

void load_assembly(sim::Device& device, const std::string& source) {
  load_program(device, source);
}

// A program loaded with load_program whose code is read-only (load_protected).
void load_protected_assembly(sim::Device& device, const std::string& source);

// Everything the interpreter's run left (off) and a translated run (forced) must agree on.
void expect_same_outcome(const Outcome& off, const Outcome& forced, const std::string& what) {
  EXPECT_EQ(fault_text(off.result), fault_text(forced.result)) << what;
  if (off.result.fault && forced.result.fault) {
    EXPECT_EQ(off.result.fault->pc, forced.result.fault->pc) << what;
    EXPECT_EQ(off.result.fault->instruction, forced.result.fault->instruction) << what;
  }
  const sim::LaunchStats& a = off.result.stats;
  const sim::LaunchStats& b = forced.result.stats;
  EXPECT_EQ(a.warp_instructions, b.warp_instructions) << what;
  EXPECT_EQ(a.thread_instructions, b.thread_instructions) << what;
  EXPECT_EQ(a.divergences, b.divergences) << what;
  EXPECT_EQ(a.barriers, b.barriers) << what;
  EXPECT_EQ(a.workgroups, b.workgroups) << what;
  EXPECT_EQ(a.decodes, b.decodes) << what;
  EXPECT_TRUE(off.memory == forced.memory) << what << ": the output buffers differ";
  EXPECT_TRUE(off.private_memory == forced.private_memory) << what << ": private memory differs";
}

// Runs the program interpreted and translated, with the blocks compiled at either tier
// (Force, ForceQuick), and compares everything; returns the Force run's blocks.
uint64_t expect_same(const std::string& program, Loader loader, const sim::KernelLaunch& launch,
                     const std::string& what,
                     uint64_t budget = sim::DeviceConfig{}.instruction_budget) {
  const Outcome off = run(program, loader, launch, sim::JitMode::Off, budget);
  uint64_t before = jit::blocks_translated_in_process();
  expect_same_outcome(off, run(program, loader, launch, sim::JitMode::Force, budget), what);
  const uint64_t translated = jit::blocks_translated_in_process() - before;
  before = jit::blocks_translated_in_process();
  expect_same_outcome(off, run(program, loader, launch, sim::JitMode::ForceQuick, budget),
                      what + " (quick tier)");
  EXPECT_EQ(jit::blocks_translated_in_process() > before, translated > 0) << what;
  return translated;
}

// expect_same with the budget ending after each of first, first + step, ... below end
// instructions; returns the forced runs' blocks, summed.
uint64_t expect_same_for_budgets(const std::string& assembly, const sim::KernelLaunch& launch,
                                 uint64_t first, uint64_t end, uint64_t step = 1) {
  uint64_t translated = 0;
  for (uint64_t budget = first; budget < end; budget += step)
    translated +=
        expect_same(assembly, &load_assembly, launch, "budget " + std::to_string(budget), budget);
  return translated;
}

// The entries of the assembly's .text that `selected` picks, each expected to be inlined
// (translated code, not a call of its semantics); returns how many there are.
template <class Selected>
unsigned expect_inlined(const std::string& assembly, uint32_t threads, Selected selected) {
  elf::Image image;
  sim::Device device;
  load_program(device, assembly, &image);
  sim::DecodeCache cache(device.memory());
  cache.begin_launch(threads);
  unsigned inlined = 0;
  for (const elf::Section& s : image.sections) {
    if (s.name != ".text") continue;
    for (uint32_t at = 0; at < s.size; at += 4) {
      const sim::CachedInsn& entry = cache.at(s.address + at);
      if (!selected(entry)) continue;
      EXPECT_TRUE(jit::is_inlined(entry)) << at;
      ++inlined;
    }
  }
  return inlined;
}

// ---- Random RV32IM + Zicsr + Zfinx programs (tests/qemu), 2 x 2 warps each ----

void load_image(sim::Device& device, const std::string& assembly) {
  const std::vector<uint8_t> image = testing::flat_image(
      assembly + testing::ventus_epilogue(kOut), testing::rv32_zfinx().march, sim::kCodeBase);
  device.memory().map(sim::kCodeBase, image.size());
  ASSERT_TRUE(device.memory().write(sim::kCodeBase, image.data(), image.size()));
}

class JitRandomPrograms : public ::testing::TestWithParam<uint32_t> {};

TEST_P(JitRandomPrograms, SameStateAsTheInterpreter) {
  const std::string missing = testing::missing_rv_tools();
  if (!missing.empty()) GTEST_SKIP() << "RISC-V tools not installed: " << missing;
  const std::string assembly = testing::assembly_of(testing::generate_program(GetParam(), 400));
  // The first warp decodes the code; the others (and the first one's later quanta) run it
  // translated. They all dump the same registers, so the last writer's dump is compared.
  const uint64_t translated =
      expect_same(assembly, &load_image, launch_of(2, 32, 2), "seed " + std::to_string(GetParam()));
  EXPECT_GT(translated, 0u);
}

INSTANTIATE_TEST_SUITE_P(Seeds, JitRandomPrograms, ::testing::Range(1u, 41u));

// ---- Vector and scalar integer ALU: every inlined form, masks, vl, SEW=16 fallback ----

// The loop body runs with vl = 32 (all lanes), vl = 5, and SEW = 16 (the semantics' path);
// 30 threads per warp leave lanes 30, 31 outside lane_mask. Every register is stored.
const char* const kAluKernel = R"(
    li s0, 0x90000000
    csrr t6, wid
    slli t6, t6, 11
    add s0, s0, t6
    vid.v v1
    li t0, 0x9e3779b9
    vmul.vx v2, v1, t0
    vadd.vi v3, v1, 7
    vand.vi v0, v1, 1
    li s10, 32
    vsetvli t3, s10, e32, m1
    call body
    li s10, 5
    vsetvli t3, s10, e32, m1
    call body
    li s10, 32
    vsetvli t3, s10, e16, m1
    call body
    vsetvli t3, s10, e32, m1
    vsll.vi v20, v1, 2
    vadd.vx v20, v20, s0
    vsw12.v v0, 0(v20)
    vsw12.v v2, 128(v20)
    vsw12.v v3, 256(v20)
    vsw12.v v4, 384(v20)
    vsw12.v v5, 512(v20)
    vsw12.v v6, 640(v20)
    vsw12.v v7, 768(v20)
    vsw12.v v8, 896(v20)
    vsw12.v v9, 1024(v20)
    vsw12.v v10, 1152(v20)
    vsw12.v v11, 1280(v20)
    vsw12.v v12, 1408(v20)
    sw t1, 1536(s0)
    sw t2, 1540(s0)
    sw t3, 1544(s0)
    sw t4, 1548(s0)
    sw t5, 1552(s0)
    sw a0, 1556(s0)
    sw a1, 1560(s0)
    sw a2, 1564(s0)
    sw a3, 1568(s0)
    sw a4, 1572(s0)
    sw a5, 1576(s0)
    sw a6, 1580(s0)
    sw a7, 1584(s0)
    sw s3, 1588(s0)
    sw s4, 1592(s0)
    sw s5, 1596(s0)
    sw s6, 1600(s0)
    sw s7, 1604(s0)
    sw s8, 1608(s0)
    sw s9, 1612(s0)
    endprg x0, x0, x0
body:
    li s2, 12
.Lloop:
    vadd.vv v4, v2, v3
    vsub.vv v5, v4, v1
    vand.vv v6, v5, v2
    vor.vv v7, v6, v3
    vxor.vv v8, v7, v4
    vsll.vv v9, v8, v1
    vsrl.vv v10, v9, v3
    vsra.vv v11, v2, v1
    vadd.vx v4, v4, s2
    vsub.vx v5, v5, s2
    vand.vx v6, v6, t0
    vor.vx v7, v7, s2
    vxor.vx v8, v8, t0
    vsll.vx v9, v9, s2
    vsrl.vx v10, v10, s2
    vsra.vx v11, v11, s2
    vadd.vi v2, v2, -3, v0.t
    vand.vi v3, v3, 13, v0.t
    vor.vi v4, v4, 5
    vxor.vi v5, v5, -1, v0.t
    vsll.vi v6, v6, 3
    vsrl.vi v7, v7, 5, v0.t
    vsra.vi v8, v8, 2
    vadd.vv v2, v2, v8, v0.t
    vsub.vv v3, v3, v11, v0.t
    vxor.vv v12, v12, v9
    vadd.vx v12, v12, x0
    add t1, t1, s2
    sub t2, t2, t1
    slli t3, t1, 3
    srai t4, t2, 2
    srli t5, t2, 7
    xor a0, t3, t4
    or a1, a0, t5
    and a2, a1, t0
    slt a3, t2, t1
    sltu a4, t2, t1
    slti a5, t2, -5
    sltiu a6, t1, 100
    lui a7, 0x12345
    xori s3, a7, 0x7f
    ori s4, s3, 3
    andi s5, s4, 0xf0
    sll s6, t1, a3
    srl s7, t2, a4
    sra s8, t2, a5
    addi s9, s9, 1
    add x0, t1, t2
    vadd.vx v12, v12, a0
    vsra.vx v12, v12, s8
    addi s2, s2, -1
    bnez s2, .Lloop
    ret
)";

TEST(Jit, VectorAndScalarAluMatchTheInterpreter) {
  const uint64_t translated =
      expect_same(kAluKernel, &load_assembly, launch_of(3, 30, 2), "ALU kernel");
  EXPECT_GT(translated, 0u);
}

// The same kernel with the budget ending at each instruction of a stretch (inside the loop
// body's blocks): the launch stops at the same instruction with the same counts and memory.
TEST(Jit, BudgetStopsAtTheSameInstruction) {
  EXPECT_GT(expect_same_for_budgets(kAluKernel, launch_of(1, 32), 330, 342), 0u);
}

// The same inline vector rows reached at SEW=16 and then at SEW=32, with no vsetvli in front
// of them in their block: a block checks the vtype its inline rows need once where it starts
// (BlockEmitter::vtype_checked_entries), so at SEW=16 it must not run and the interpreter's
// 16-bit arithmetic decides (the operands overflow 16 bits, so 32-bit lanes would differ).
// The looping block further on has a vsetvli inside, so each of its rows checks for itself;
// the second loop runs at SEW=16 with no vsetvli in it.
const char* const kVtypeKernel = R"(
    li s0, 0x90000000
    csrr t6, wid
    slli t6, t6, 11
    add s0, s0, t6
    vid.v v0
    vsll.vi v1, v0, 11
    vadd.vi v1, v1, 7
    li s1, 0
.Lpass:
    beqz s1, .Le16
    vsetvli t3, zero, e32, m1
    j .Lrows
.Le16:
    vsetvli t3, zero, e16, m1
    j .Lrows
.Lrows:
    vadd.vv v2, v1, v1
    vmul.vv v3, v2, v1
    vsll.vi v4, v3, 9
    vxor.vv v5, v4, v2
    vfadd.vv v6, v5, v1
    vsetvli t3, zero, e32, m1
    vsll.vi v9, v0, 2
    vadd.vx v9, v9, s0
    vsw12.v v5, 0(v9)
    vsw12.v v6, 128(v9)
    addi s0, s0, 256
    addi s1, s1, 1
    li t0, 2
    bne s1, t0, .Lpass
    li t0, 5
.Lconfigures:
    vsetvli t3, zero, e16, m1
    vadd.vv v1, v1, v2
    vsetvli t3, zero, e32, m1
    vmul.vv v2, v2, v1
    addi t0, t0, -1
    bnez t0, .Lconfigures
    vsetvli t3, zero, e16, m1
    li t0, 5
.Latsew16:
    vadd.vv v1, v1, v2
    vxor.vv v2, v2, v1
    addi t0, t0, -1
    bnez t0, .Latsew16
    vsetvli t3, zero, e32, m1
    vsw12.v v1, 0(v9)
    vsw12.v v2, 128(v9)
    endprg x0, x0, x0
)";

TEST(Jit, RowsReachedAtAnotherSewMatchTheInterpreter) {
  const Outcome off = run(kVtypeKernel, &load_assembly, launch_of(2, 32, 2), sim::JitMode::Off);
  ASSERT_FALSE(off.result.fault) << fault_text(off.result);
  // The first pass's sums are 16-bit: lane 31's v1 is 31 * 2048 + 7, and twice that wraps.
  EXPECT_EQ(off.memory[31] & 0xffff0000u, 0u);
  EXPECT_GT(expect_same(kVtypeKernel, &load_assembly, launch_of(2, 32, 2), "vtype kernel"), 0u);
  EXPECT_GT(expect_same_for_budgets(kVtypeKernel, launch_of(1, 32), 20, 80), 0u);
}

// vsetvli and vsetivli of a supported vtype run inline (the start code's in every warp): each
// AVL rule (an AVL in rs1, above and below the threads; rs1 = x0 with rd != x0, the threads;
// both x0, vl kept; vsetivli's immediate), SEW 8/16/32, LMUL 2, with vector rows at each vl
// and the CSRs read back, twice (the second time translated). 30 threads per warp.
const char* const kVectorConfigKernel = R"(
    li s0, 0x90000000
    csrr t6, wid
    slli t6, t6, 11
    add s0, s0, t6
    vid.v v0
    vsll.vi v9, v0, 2
    vadd.vx v9, v9, s0
    vadd.vi v1, v0, 3
    li s2, 2
.Lagain:
    li t1, 20
    vsetvli t0, t1, e32, m1
    vadd.vv v2, v1, v1
    vsetivli t2, 7, e32, m1
    vmul.vv v3, v1, v1
    vsetvli zero, zero, e32, m1
    vadd.vi v4, v1, 5
    li t3, 100
    vsetvli t4, t3, e16, m1
    vadd.vv v5, v1, v1
    csrr a0, vl
    csrr a1, vtype
    vsetvli t5, t1, e8, m2
    vadd.vv v6, v2, v4
    vsetvli a2, zero, e32, m1
    vsw12.v v2, 0(v9)
    vsw12.v v3, 128(v9)
    vsw12.v v4, 256(v9)
    vsw12.v v5, 384(v9)
    vsw12.v v6, 640(v9)
    vsw12.v v7, 768(v9)
    sw t0, 512(s0)
    sw t2, 516(s0)
    sw t4, 520(s0)
    sw t5, 524(s0)
    sw a0, 528(s0)
    sw a1, 532(s0)
    sw a2, 536(s0)
    addi s2, s2, -1
    bnez s2, .Lagain
    endprg x0, x0, x0
)";

TEST(Jit, VectorConfigurationsRunInlineAsTheInterpreterRunsThem) {
  const Outcome forced =
      run(kVectorConfigKernel, &load_assembly, launch_of(2, 30), sim::JitMode::Force);
  ASSERT_FALSE(forced.result.fault) << fault_text(forced.result);
  for (uint32_t warp = 0; warp < 2; ++warp) {
    const uint32_t* out = &forced.memory[512 * warp];
    EXPECT_EQ(out[128], 20u);    // vl = AVL 20
    EXPECT_EQ(out[129], 7u);     // vsetivli 7
    EXPECT_EQ(out[130], 30u);    // AVL 100 > 30 threads
    EXPECT_EQ(out[131], 20u);    // e8, m2
    EXPECT_EQ(out[132], 30u);    // csrr vl
    EXPECT_EQ(out[133], 0x08u);  // csrr vtype: e16, m1
    EXPECT_EQ(out[134], 30u);    // rs1 = x0, rd != x0: the threads
    for (uint32_t lane = 0; lane < 30; ++lane) {
      EXPECT_EQ(out[lane], lane < 20 ? 2 * (lane + 3) : 0u) << lane;
      EXPECT_EQ(out[32 + lane], lane < 7 ? (lane + 3) * (lane + 3) : 0u) << lane;
      EXPECT_EQ(out[64 + lane], lane < 7 ? lane + 8 : 0u) << lane;  // vl kept at 7
    }
  }
  EXPECT_GT(
      expect_same(kVectorConfigKernel, &load_assembly, launch_of(2, 30), "vector configurations"),
      0u);
  EXPECT_GT(expect_same_for_budgets(kVectorConfigKernel, launch_of(1, 30), 40, 90, 2), 0u);
  // Translated inline, not through the semantics.
  EXPECT_EQ(expect_inlined(kVectorConfigKernel, 30,
                           [](const sim::CachedInsn& entry) {
                             return isa::info(entry.insn.op).cls == isa::InsnClass::Config;
                           }),
            6u);
}

// A load inside a translated block faults on its 65th iteration (past the 16 KiB output
// buffer): same pc, instruction, message and counts.
TEST(Jit, FaultInsideABlockReportsTheSamePc) {
  const char* const kernel = R"(
    li s0, 0x90000000
    li s1, 0
.Lloop:
    add t0, s0, s1
    addi s1, s1, 256
    lw t1, 0(t0)
    add t2, t2, t1
    slli t3, t2, 1
    vadd.vx v1, v1, t3
    j .Lloop
)";
  const Outcome off = run(kernel, &load_assembly, launch_of(1, 32), sim::JitMode::Off);
  ASSERT_TRUE(off.result.fault);
  EXPECT_NE(off.result.fault->message.find("unmapped"), std::string::npos)
      << fault_text(off.result);
  EXPECT_GT(expect_same(kernel, &load_assembly, launch_of(1, 32), "fault"), 0u);
}

// ---- Divergent control flow: vector branches, join, setrpc, jal, auipc ----

// Each lane runs its own number of iterations of a loop with a divergent if/else and every
// vector branch kind, so the branches are taken by no lane, some lanes and all lanes, and
// the joins pop the SIMT stack or do nothing. 30 threads per warp leave two lanes outside
// lane_mask.
const char* const kDivergentKernel = R"(
    li s0, 0x90000000
    csrr t6, wid
    slli t6, t6, 9
    add s0, s0, t6
    vid.v v0
    csrr t5, wid
    vadd.vx v1, v0, t5        # x
    vmv.v.i v2, 0             # steps
    vmv.v.i v3, 1
    vmv.v.i v7, 0
    li t2, 40
    vmv.v.x v4, t2
    li t3, 0
.Lloop:
    la t5, .Lexit
    setrpc zero, t5, 0
    vbge v3, v1, .Lexit       # x <= 1
    vbltu v4, v2, .Lexit      # steps > 40
    vand.vi v5, v1, 1
    la t5, .Ljoin
    setrpc zero, t5, 0
    vbne v5, v7, .Lodd
    vsrl.vi v1, v1, 1
    j .Ljoin
.Lodd:
    vsll.vi v6, v1, 1
    vadd.vv v1, v1, v6
    vadd.vi v1, v1, 1
    la t5, .Linner
    setrpc zero, t5, 0
    vblt v1, v4, .Linner      # x < 40: a nested divergence
    vxor.vi v8, v1, 5
.Linner:
    join zero, zero, 0
.Ljoin:
    join zero, zero, 0
    vadd.vi v2, v2, 1
    addi t3, t3, 1
    jal ra, .Lcount
    j .Lloop
.Lexit:
    join zero, zero, 0
    la t5, .Lend
    setrpc zero, t5, 0
    vbeq v2, v2, .Lall        # every active lane: no divergence
    vadd.vi v2, v2, 100
.Lall:
    vbeq v0, v3, .Lend        # only lane 1
    vadd.vi v2, v2, 7
.Lend:
    join zero, zero, 0
    vsll.vi v9, v0, 2
    vadd.vx v9, v9, s0
    vsw12.v v2, 0(v9)
    vsw12.v v1, 128(v9)
    vsw12.v v8, 256(v9)
    sw t3, 384(s0)
    sw s1, 388(s0)
    sw ra, 392(s0)
    endprg x0, x0, x0
.Lcount:
    auipc s2, 1
    addi s1, s1, 3
    ret
)";

TEST(Jit, DivergentBranchesMatchTheInterpreter) {
  const Outcome off = run(kDivergentKernel, &load_assembly, launch_of(3, 30, 2), sim::JitMode::Off);
  ASSERT_FALSE(off.result.fault) << fault_text(off.result);
  EXPECT_GT(off.result.stats.divergences, 100u);
  EXPECT_GT(off.result.stats.warp_instructions, 2000u);
  const uint64_t translated =
      expect_same(kDivergentKernel, &load_assembly, launch_of(3, 30, 2), "divergent kernel");
  EXPECT_GT(translated, 0u);
}

// The budget ending at each instruction of a stretch inside the divergent loop.
TEST(Jit, BudgetStopsInsideDivergentCode) {
  EXPECT_GT(expect_same_for_budgets(kDivergentKernel, launch_of(2, 32), 700, 724), 0u);
}

// ---- The SIMT stack inside translated blocks ----

// ventus cc's per-thread atomic: a loop over the active lanes, each round the highest active
// lane's amoadd.w; that lane alone takes the vbeq to the join (the path with fewer lanes runs
// first), whose pop resumes the others at the jump back. The block follows the vbeq into the
// join and on to the jump (Block::Exit::next_pc), so a round stays in one looping block; the last
// lane takes the branch alone (no split), and its join pops the reconvergence entries one after
// another, each a repeat of the join. Around it, an outer vbltu skips the lanes below the round
// number (they run first, then their join resumes the others) and a vbgeu splits the others with
// the fall-through path first (the block goes on under the new mask). Counters 0x90002000 + 4 *
// (lane % 8) are shared by every warp; v4 keeps the values the lane's atomics returned.
constexpr uint32_t kCounters = kOut + 0x2000;
const char* const kAtomicLoopKernel = R"(
    li s0, 0x90000000
    csrr t6, wid
    slli t6, t6, 9
    add s0, s0, t6
    vid.v v6
    vand.vi v1, v6, 7
    vsll.vi v1, v1, 2
    li t0, 0x90002000
    vadd.vx v1, v1, t0
    li a2, 1
    li s2, 5
.Lround:
    la t5, .Lskip
    setrpc zero, t5, 0
    vmv.v.x v8, s2
    vbltu v6, v8, .Lskip
.Latomic:
    vmv.x.s a5, v6
    vmv.v.x v7, a5
    vmseq.vv v0, v6, v7
    vmv.x.s a6, v1
    mv a7, a2
    amoadd.w a7, a7, (a6)
    vmerge.vxm v4, v4, a7, v0
    la t5, .Ldone
    setrpc zero, t5, 0
    vbeq v6, v7, .Ldone
    j .Latomic
.Ldone:
    join zero, zero, 0
    vadd.vx v5, v5, a7
    li t1, 3
    vmv.v.x v9, t1
    la t5, .Linner
    setrpc zero, t5, 0
    vbgeu v6, v9, .Linner
    vadd.vi v5, v5, 7
.Linner:
    join zero, zero, 0
    vxor.vv v10, v10, v5
.Lskip:
    join zero, zero, 0
    vadd.vi v11, v11, 1
    addi s2, s2, -1
    bnez s2, .Lround
    vsll.vi v9, v6, 2
    vadd.vx v9, v9, s0
    vsw12.v v4, 0(v9)
    vsw12.v v5, 128(v9)
    vsw12.v v10, 256(v9)
    vsw12.v v11, 384(v9)
    endprg x0, x0, x0
)";

TEST(Jit, AtomicLoopOverLanesMatchesTheInterpreter) {
  constexpr uint32_t kWarps = 3, kThreads = 30, kGroups = 2, kRounds = 5;
  const sim::KernelLaunch launch = launch_of(kWarps, kThreads, kGroups);
  const Outcome off = run(kAtomicLoopKernel, &load_assembly, launch, sim::JitMode::Off);
  ASSERT_FALSE(off.result.fault) << fault_text(off.result);
  // Every lane at or above the round number adds 1 to its counter, in each round.
  for (uint32_t counter = 0; counter < 8; ++counter) {
    uint32_t want = 0;
    for (uint32_t round = 1; round <= kRounds; ++round)
      for (uint32_t lane = round; lane < kThreads; ++lane) want += lane % 8 == counter;
    EXPECT_EQ(off.memory[(kCounters - kOut) / 4 + counter], want * kWarps * kGroups) << counter;
  }
  const Outcome forced = run(kAtomicLoopKernel, &load_assembly, launch, sim::JitMode::Force);
  EXPECT_EQ(forced.result.stats.divergences, off.result.stats.divergences);
  EXPECT_GT(expect_same(kAtomicLoopKernel, &load_assembly, launch, "atomic loop"), 0u);
}

// The budget ending at every instruction of the first two rounds (splits, joins and the
// repeats of the join that unwinds the reconvergence entries included).
TEST(Jit, BudgetStopsInsideTheAtomicLoop) {
  EXPECT_GT(expect_same_for_budgets(kAtomicLoopKernel, launch_of(1, 30), 1, 460, 3), 0u);
}

// The atomic loop's code, every instruction decoded (as in an SM that ran it), and the loop's
// head: its first vmv.x.s.
struct DecodedAtomicLoop {
  DecodedAtomicLoop() {
    load_assembly(device, kAtomicLoopKernel);
    cache.begin_launch(32);
    for (uint32_t pc = sim::kCodeBase; cache.at(pc).insn.op != isa::Op::ENDPRG; pc += 4) {
    }
    while (cache.at(head).insn.op != isa::Op::VMV_X_S) head += 4;
  }
  sim::Device device;
  sim::DecodeCache cache{device.memory()};
  uint32_t head = sim::kCodeBase;
};

// A block that loops over a loop over the lanes: its vbeq goes on at its target, the join,
// the join at the jump back after the vbeq, and the jump closes the loop.
void expect_a_loop_over_the_lanes(const jit::Block& block) {
  EXPECT_TRUE(block.loops);
  ASSERT_GE(block.insns.size(), 4u);
  const size_t vbeq = block.insns.size() - 3;
  EXPECT_EQ(block.insns[vbeq].insn.op, isa::Op::VBEQ);
  EXPECT_EQ(block.insns[vbeq + 1].insn.op, isa::Op::JOIN);
  EXPECT_EQ(block.insns.back().insn.op, isa::Op::JAL);
  EXPECT_EQ(block.exits[vbeq].next_pc, block.exits[vbeq].taken_pc);
  EXPECT_EQ(block.exits[vbeq + 1].next_pc, block.pcs[vbeq] + 4);
}

// The loop's round is one translated block that loops.
TEST(Jit, TheAtomicLoopIsOneLoopingBlock) {
  DecodedAtomicLoop loop;
  jit::Translator translator;
  translator.begin_launch(loop.device.memory(), sim::JitMode::Force, false);
  const jit::Block* block = translator.find_or_translate(loop.head, loop.cache, 1).block;
  ASSERT_NE(block, nullptr);
  expect_a_loop_over_the_lanes(*block);
}

// Rent or buy: while every core simulates, a block is queued for the compile thread only when
// the starts its SMs asked with reach its break-even, and compiled again optimized only when
// the starts reported to tier_up reach that tier's; with a core to spare, at the first ask.
TEST(Jit, BlocksWaitForTheirBreakEvenWhileEveryCoreSimulates) {
  DecodedAtomicLoop loop;
  const sim::Memory& memory = loop.device.memory();
  const sim::DecodeCache& cache = loop.cache;
  const uint32_t head = loop.head;

  jit::Translator spare_core;
  spare_core.begin_launch(memory, sim::JitMode::On, /*every_core_busy=*/false);
  EXPECT_NE(spare_core.find_or_translate(head, cache, /*starts=*/1).compiling, nullptr);

  jit::Translator translator;
  translator.begin_launch(memory, sim::JitMode::On, /*every_core_busy=*/true);
  const jit::Translation first = translator.find_or_translate(head, cache, /*starts=*/1);
  EXPECT_EQ(first.block, nullptr);
  EXPECT_FALSE(first.settled);
  EXPECT_EQ(first.compiling, nullptr);
  // The same block, built again to know its break-even (a translator that compiles at once).
  jit::Translator at_once;
  at_once.begin_launch(memory, sim::JitMode::ForceQuick, false);
  const jit::Block* built = at_once.find_or_translate(head, cache, /*starts=*/1).block;
  ASSERT_NE(built, nullptr);
  const uint64_t break_even = jit::break_even_starts(*built, jit::Tier::Quick);
  ASSERT_GT(break_even, 2u);
  const jit::Translation short_of_it =
      translator.find_or_translate(head, cache, /*starts=*/break_even - 2);
  EXPECT_EQ(short_of_it.compiling, nullptr);
  EXPECT_FALSE(short_of_it.settled);
  const jit::Translation paid = translator.find_or_translate(head, cache, /*starts=*/1);
  ASSERT_NE(paid.compiling, nullptr);

  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!paid.compiling->load() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  const jit::Block* block = paid.compiling->load();
  ASSERT_NE(block, nullptr);
  EXPECT_EQ(block->tier, jit::Tier::Quick);
  const uint64_t optimized_break_even = jit::break_even_starts(*block, jit::Tier::Optimized);
  EXPECT_GT(optimized_break_even, break_even);
  const uint64_t tiered_up = jit::blocks_tiered_up_in_process();
  EXPECT_TRUE(translator.tier_up(*block, optimized_break_even - 1));
  EXPECT_FALSE(translator.tier_up(*block, 1));  // queued
  EXPECT_FALSE(translator.tier_up(*block, 1));  // and only once
  while (jit::blocks_tiered_up_in_process() == tiered_up &&
         std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_GT(jit::blocks_tiered_up_in_process(), tiered_up);
}

// Nested vector branches whose fall-through paths run first (more lanes take them), so the
// block goes on under each new mask; then, on the inner path, a load that faults in warp 2 (an
// address in the null window; warps 0 and 1 decode the code first, so that warp 2 runs it
// translated), at the same pc and with the same counts (thread instructions under the changed
// masks) as the interpreter. Without the fault the paths join.
std::string nested_split_kernel(bool fault) {
  return std::string(R"(
    li s0, 0x90000000
    csrr t6, wid
    slli t6, t6, 9
    add s0, s0, t6
    vid.v v6
    li t0, 24
    vmv.v.x v1, t0
    li t0, 26
    vmv.v.x v2, t0
    vsll.vi v3, v6, 2
    vadd.vx v3, v3, s0
    la t5, .Lj1
    setrpc zero, t5, 0
    vbltu v6, v1, .Lthen1
    vadd.vi v4, v6, 11
    la t5, .Lj2
    setrpc zero, t5, 0
    vbgeu v6, v2, .Lthen2
    vadd.vi v5, v6, 13
)") +
         (fault ? R"(
    csrr t2, wid
    addi t2, t2, -2
    snez t2, t2
    li t1, 0x8fffff00
    mul t1, t1, t2
    addi t1, t1, 0x100
    vmv.v.x v7, t1
    vlw12.v v8, 0(v7)
)"
                : "") +
         R"(
    vmul.vv v5, v5, v5
.Lthen2:
    join zero, zero, 0
.Lthen1:
    join zero, zero, 0
    vadd.vv v4, v4, v6
.Lj2:
    join zero, zero, 0
.Lj1:
    join zero, zero, 0
    vsw12.v v4, 0(v3)
    vsw12.v v5, 128(v3)
    endprg x0, x0, x0
)";
}

TEST(Jit, SplitsWhoseFallThroughRunsFirstStayInTheBlock) {
  const std::string kernel = nested_split_kernel(false);
  const Outcome off = run(kernel, &load_assembly, launch_of(2, 30), sim::JitMode::Off);
  ASSERT_FALSE(off.result.fault) << fault_text(off.result);
  EXPECT_EQ(off.result.stats.divergences, 4u);  // two splits in each of two warps
  EXPECT_GT(expect_same(kernel, &load_assembly, launch_of(2, 30), "nested splits"), 0u);
  EXPECT_GT(expect_same_for_budgets(kernel, launch_of(1, 30), 1, 60), 0u);
}

TEST(Jit, FaultAfterASplitInsideTheBlockReportsTheSamePc) {
  const std::string kernel = nested_split_kernel(true);
  const Outcome off = run(kernel, &load_assembly, launch_of(3, 30), sim::JitMode::Off);
  ASSERT_TRUE(off.result.fault);
  EXPECT_EQ(off.result.fault->warp, 2u);
  EXPECT_NE(off.result.fault->message.find("null"), std::string::npos) << fault_text(off.result);
  EXPECT_EQ(off.result.stats.divergences, 6u);
  EXPECT_GT(expect_same(kernel, &load_assembly, launch_of(3, 30), "fault after a split"), 0u);
}

// Each way the SIMT stack changes inside translated blocks (emit_split, emit_join), with the
// results worked out independently. Per round: a join on an empty stack (nothing happens); a
// tie (the odd and the even lanes, 15 or 16 each: the taken path, the odd lanes, runs first);
// on the odd path a vbeq every active lane takes and a vbne none takes (nothing pushed), then
// a nested split whose fall-through path (lane 1 alone) runs first, and a join that pops twice;
// on the even path a join whose top belongs to another join (nothing happens). Then lane 0
// alone takes a branch, and its join resumes the other lanes in a loop over them that peels
// off the highest each round (ventus cc's loop over the active lanes): the stack grows to one
// reconvergence entry per lane, 32 entries with 32 threads, which the last join pops one
// after another.
const char* const kSimtStackKernel = R"(
    li s0, 0x90000000
    csrr t6, wid
    slli t6, t6, 9
    add s0, s0, t6
    vid.v v6
    vand.vi v1, v6, 1
    vmv.v.i v2, 1
    vmv.v.i v3, 0
    li t0, 3
    vmv.v.x v9, t0
    li s2, 3
.Lround:
    join zero, zero, 0
    la t5, .Lj1
    setrpc zero, t5, 0
    vbeq v1, v2, .Lodd
    vadd.vi v4, v4, 3
.Lstray:
    join zero, zero, 0
    j .Lj1
.Lodd:
    vadd.vi v4, v4, 5
    vbeq v1, v2, .Lall
    vadd.vi v4, v4, 100
.Lall:
    vbne v1, v2, .Lj1
    la t5, .Lj3
    setrpc zero, t5, 0
    vbgeu v6, v9, .Lj3
    vadd.vi v4, v4, 10
.Lj3:
    join zero, zero, 0
.Lj1:
    join zero, zero, 0
    la t5, .Lj2
    setrpc zero, t5, 0
    vbeq v6, v3, .Lzero
.Lpeel:
    vmv.x.s a5, v6
    vmv.v.x v7, a5
    vadd.vi v5, v5, 1
    la t5, .Lpeeled
    setrpc zero, t5, 0
    vbeq v6, v7, .Lpeeled
    j .Lpeel
.Lpeeled:
    join zero, zero, 0
    j .Lj2
.Lzero:
    vadd.vi v8, v8, 1
.Lj2:
    join zero, zero, 0
    addi s2, s2, -1
    bnez s2, .Lround
    vsll.vi v10, v6, 2
    vadd.vx v10, v10, s0
    vsw12.v v4, 0(v10)
    vsw12.v v5, 128(v10)
    vsw12.v v8, 256(v10)
    endprg x0, x0, x0
)";

TEST(Jit, SimtStackPushesAndPopsMatchTheInterpreter) {
  constexpr uint32_t kRounds = 3, kWarps = 3, kGroups = 2;
  for (const uint32_t threads : {30u, 32u}) {
    const sim::KernelLaunch launch = launch_of(kWarps, threads, kGroups);
    const Outcome off = run(kSimtStackKernel, &load_assembly, launch, sim::JitMode::Off);
    ASSERT_FALSE(off.result.fault) << fault_text(off.result);
    // Per round: the tie, the nested split, and a split for each peeled lane but the last.
    EXPECT_EQ(off.result.stats.divergences, uint64_t{kRounds} * kWarps * kGroups * (threads + 1));
    for (uint32_t warp = 0; warp < kWarps; ++warp)
      for (uint32_t lane = 0; lane < threads; ++lane) {
        const uint32_t at = warp * 128 + lane;
        const uint32_t v4 = lane % 2 == 0 ? 3 : lane == 1 ? 15 : 5;
        EXPECT_EQ(off.memory[at], kRounds * v4) << threads << " " << lane;
        EXPECT_EQ(off.memory[at + 32], lane == 0 ? 0 : kRounds * (threads - lane)) << lane;
        EXPECT_EQ(off.memory[at + 64], lane == 0 ? kRounds : 0) << lane;
      }
    EXPECT_GT(expect_same(kSimtStackKernel, &load_assembly, launch, "SIMT stack"), 0u);
  }
  EXPECT_GT(expect_same_for_budgets(kSimtStackKernel, launch_of(1, 32), 1, 400, 7), 0u);
}

// Every amo*.w row (one of each family in .aq/.rl forms too) on a global word shared by every
// warp and on a local word of the workgroup, in a loop, so that they run inline in translated
// blocks; the old values they return go to memory. The sum of the amoadd.w increments is
// checked against the count of executions, independently of either tier.
std::string amo_kernel(const std::string& fault) {
  return R"(
    li s0, 0x90000000
    csrr t6, wid
    slli t6, t6, 6
    add s0, s0, t6
    li s1, 0x90003000
    csrr s3, lds
    addi s3, s3, 64
    csrr a0, wid
    addi a0, a0, 3
    li t0, 20
.Lloop:
    sub t6, zero, t0
    amoadd.w a1, a0, (s1)
    amoswap.w.aq a2, t6, (s3)
    amoxor.w.rl a3, t0, (s1)
    amoand.w.aqrl a4, a0, (s3)
    amoor.w a5, t0, (s3)
    amomin.w a6, t6, (s1)
    amomax.w a7, a0, (s1)
    amominu.w t1, t0, (s3)
    amomaxu.w t2, t6, (s3)
    amominu.w t1, t6, (s1)
    amomax.w t2, t6, (s3)
    amoadd.w x0, a0, (s1)
    li t3, 1
    addi t5, s1, 4
    amoadd.w zero, t3, (t5)
)" + fault +
         R"(
    add t4, t4, a1
    add t4, t4, a2
    xor t4, t4, a3
    add t4, t4, a4
    add t4, t4, a5
    add t4, t4, a6
    add t4, t4, a7
    add t4, t4, t1
    add t4, t4, t2
    addi t0, t0, -1
    bnez t0, .Lloop
    sw t4, 0(s0)
    lw t5, 0(s3)
    sw t5, 4(s0)
    endprg x0, x0, x0
)";
}

TEST(Jit, AtomicsMatchTheInterpreter) {
  constexpr uint32_t kWarps = 3, kGroups = 2;
  const std::string kernel = amo_kernel("");
  const Outcome off =
      run(kernel, &load_assembly, launch_of(kWarps, 32, kGroups), sim::JitMode::Off);
  ASSERT_FALSE(off.result.fault) << fault_text(off.result);
  EXPECT_EQ(off.memory[(0x3004) / 4], 20u * kWarps * kGroups);  // the amoadd.w of 1
  EXPECT_GT(expect_same(kernel, &load_assembly, launch_of(kWarps, 32, kGroups), "atomics"), 0u);
  EXPECT_GT(expect_same_for_budgets(kernel, launch_of(1, 32), 20, 80), 0u);
}

// An amo*.w whose address faults in a late round (misaligned, in the null window, unmapped
// or in read-only code) faults at the same pc with the same message and counts.
TEST(Jit, AtomicFaultsMatchTheInterpreter) {
  const char* const faults[] = {
      // misaligned: s1 + 2 after 10 rounds
      "    li t3, 10\n    bne t0, t3, 1f\n    addi t5, s1, 2\n    amoadd.w t5, a0, (t5)\n1:\n",
      // the null window
      "    li t3, 7\n    bne t0, t3, 1f\n    li t5, 0x100\n    amoor.w t5, a0, (t5)\n1:\n",
      // unmapped
      "    li t3, 5\n    bne t0, t3, 1f\n    li t5, 0x9f000000\n    amoswap.w t5, a0, (t5)\n1:\n",
      // the program's read-only code
      "    li t3, 3\n    bne t0, t3, 1f\n    li t5, 0x80000000\n    amomaxu.w t5, a0, (t5)\n1:\n",
  };
  for (const char* fault : faults) {
    const std::string kernel = amo_kernel(fault);
    const Outcome off = run(kernel, &load_protected_assembly, launch_of(2, 32), sim::JitMode::Off);
    ASSERT_TRUE(off.result.fault) << fault;
    EXPECT_GT(expect_same(kernel, &load_protected_assembly, launch_of(2, 32), fault), 0u);
  }
}

// One warp, a loop whose exit has not run yet while it loops: the loop's block ends after
// its back-edge branch (the exit path is not decoded) and is translated at the second
// iteration. A translator that waited for the exit path would translate nothing here.
TEST(Jit, LoopIsTranslatedBeforeItsExitRuns) {
  const char* const kernel = R"(
    li s0, 0x90000000
    li t0, 100
    li t1, 0
.Lloop:
    addi t1, t1, 3
    xor t2, t2, t1
    vadd.vx v1, v1, t1
    addi t0, t0, -1
    bnez t0, .Lloop
    vsll.vi v2, v0, 2
    sw t1, 0(s0)
    sw t2, 4(s0)
    endprg x0, x0, x0
)";
  EXPECT_GT(expect_same(kernel, &load_assembly, launch_of(1, 32), "loop"), 0u);
  EXPECT_EQ(run(kernel, &load_assembly, launch_of(1, 32), sim::JitMode::Force).memory[0], 300u);
}

// ---- Lanes that leave a loop a few at a time (spmv's rows) ----

// Lane i of 30 runs i / 4 + `first` rounds of a loop, closed by `close`, that adds the round's
// number into v4 (and a mix into v5), and stores them.
std::string lanes_loop_kernel(uint32_t first, const std::string& close) {
  return R"(
    li s0, 0x90000000
    csrr t6, wid
    slli t6, t6, 9
    add s0, s0, t6
    vid.v v0
    vsrl.vi v3, v0, 2
    vadd.vi v3, v3, )" +
         std::to_string(first) + R"(
    vmv.v.i v2, 0
    vmv.v.i v4, 0
.Lloop:
    vadd.vv v4, v4, v2
    vxor.vv v5, v5, v4
    vadd.vi v2, v2, 1
    la t0, .Lexit
    setrpc zero, t0, 0
)" + close +
         R"(
.Lexit:
    join zero, zero, 0
    vsll.vi v9, v0, 2
    vadd.vx v9, v9, s0
    vsw12.v v4, 0(v9)
    vsw12.v v5, 128(v9)
    endprg x0, x0, x0
)";
}

// Runs the kernel of lanes_loop_kernel(first, ...) interpreted, checks each lane's sum, and
// compares both tiers with the interpreter.
void expect_lanes_loop_matches(const std::string& kernel, uint32_t first, const std::string& what) {
  constexpr uint32_t kThreads = 30;
  const sim::KernelLaunch launch = launch_of(3, kThreads, 2);
  const Outcome off = run(kernel, &load_assembly, launch, sim::JitMode::Off);
  ASSERT_FALSE(off.result.fault) << fault_text(off.result);
  for (uint32_t lane = 0; lane < kThreads; ++lane) {
    const uint32_t rounds = lane / 4 + first;
    EXPECT_EQ(off.memory[lane], rounds * (rounds - 1) / 2) << lane;
  }
  EXPECT_GT(off.result.stats.divergences, 6u);
  EXPECT_GT(expect_same(kernel, &load_assembly, launch, what), 0u);
}

// Lane i runs i / 4 + 2 rounds (lanes 28 and 29 run 9). The vbeq that ends lanes' loops splits
// the warp; in the early rounds the lanes leaving are fewer than those that stay, so they run
// first: their first instruction, the join at .Lexit, pops them at once in favour of the others
// at the `j`. Later the lanes staying are fewer and run first, and the last two all take the
// branch.
const std::string kLeavingLanesKernel =
    lanes_loop_kernel(2, "    vbeq v2, v3, .Lexit\n    j .Lloop");

TEST(Jit, LanesLeavingALoopMatchTheInterpreter) {
  expect_lanes_loop_matches(kLeavingLanesKernel, 2, "lanes leaving a loop");
}

// The budget ending at every instruction, the join that runs after a split included.
TEST(Jit, BudgetStopsWhereLanesLeaveALoop) {
  EXPECT_GT(expect_same_for_budgets(kLeavingLanesKernel, launch_of(1, 30), 1, 110), 0u);
}

// The loop is one block that loops over vbeq, the join at its target and the jump back. In a
// round where no lane leaves, the warp goes on at the jump back without the join: the block
// loops on, a repeat less per round (it left at the jump back before).
// A kernel's code, every instruction decoded (as in an SM that ran it), and the block
// translated from its loop's head, its first vadd.vv.
struct DecodedLoop {
  explicit DecodedLoop(const std::string& kernel) {
    load_assembly(device, kernel);
    cache.begin_launch(32);
    for (uint32_t pc = sim::kCodeBase; cache.at(pc).insn.op != isa::Op::ENDPRG; pc += 4) {
    }
    uint32_t head = sim::kCodeBase;
    while (cache.at(head).insn.op != isa::Op::VADD_VV) head += 4;
    translator.begin_launch(device.memory(), sim::JitMode::Force, false);
    block = translator.find_or_translate(head, cache, 1).block;
  }
  sim::Device device;
  sim::DecodeCache cache{device.memory()};
  jit::Translator translator;
  const jit::Block* block = nullptr;
};

// A warp as a workgroup's placement makes it: 32 active lanes, SEW 32, LMUL 1.
std::unique_ptr<sim::Warp> placed_warp() {
  auto w = std::make_unique<sim::Warp>();
  w->lanes = 32;
  w->lane_mask = w->mask = ~0u;
  w->vcfg = {0xd0, 32, 32, 1};
  return w;
}

TEST(Jit, RoundsInWhichNoLaneLeavesStayInTheLoopsBlock) {
  DecodedLoop loop(kLeavingLanesKernel);
  const jit::Block* block = loop.block;
  ASSERT_NE(block, nullptr);
  expect_a_loop_over_the_lanes(*block);

  // Every lane stays (v3 is never reached): three rounds fill a budget of three rounds less
  // their joins, and the block stops where the fourth would start.
  const std::unique_ptr<sim::Warp> w = placed_warp();
  for (uint32_t lane = 0; lane < 32; ++lane) w->v[3][lane] = 100;
  sim::Exec ctx{*w};
  std::exception_ptr error;
  jit::Block::Tally tally;
  const uint64_t round = block->exits.back().counts.warp;
  const uint32_t result = block->fn.load()(&ctx, w.get(), &error, 3 * (round - 1), &tally, 0);
  EXPECT_EQ(result, jit::Block::kWentOn);  // no entry of a fourth round
  EXPECT_EQ(tally.rounds, 3u);
  EXPECT_EQ(tally.repeats, uint64_t{0} - 3);
  EXPECT_EQ(w->v[2][0], 3u);
  EXPECT_EQ(w->simt_stack.depth, 0u);
}

// Every lane leaves the inner loop in the same round (v5 is uniform), so no lane takes the
// vbeq until the last round and then all do; the outer loop enters the inner one again. Once
// its code is decoded, a block starts at the join after the inner loop and runs through the
// outer loop into the inner one, up to the vbeq, whose target is that join: a block that loops
// through a vector branch shaped as a loop over the lanes. Not taken, the warp goes on at the
// jump back (fuzz_jit found it going on at the join).
const char* const kLoopEnteredAtItsJoinKernel = R"(
    li s0, 0x90000000
    li x5, 0xaf8c2a1b
    vmv.v.x v5, x5
    li x17, 4
.Louter:
    beqz x17, .Ldone
    vand.vi v23, v5, 7
    vadd.vi v23, v23, 1
    vmv.v.i v24, 0
.Linner:
    addi x1, x1, 1
    vadd.vi v24, v24, 1
    la x19, .Ljoin
    setrpc zero, x19, 0
    vbeq v24, v23, .Ljoin
    j .Linner
.Ljoin:
    join zero, zero, 0
    addi x17, x17, -1
    j .Louter
.Ldone:
    sw x1, 0(s0)
    endprg x0, x0, x0
)";

TEST(Jit, ALoopEnteredAtItsJoinMatchesTheInterpreter) {
  const Outcome off =
      run(kLoopEnteredAtItsJoinKernel, &load_assembly, launch_of(1, 32), sim::JitMode::Off);
  ASSERT_FALSE(off.result.fault) << fault_text(off.result);
  EXPECT_EQ(off.memory[0], 4u * 4u);  // four rounds of the inner loop, four times
  EXPECT_GT(expect_same_for_budgets(kLoopEnteredAtItsJoinKernel, launch_of(1, 32), 1, 150, 3), 0u);
}

// ---- Loops closed by a vector branch back to their head (bfs's edges) ----

// Lane i runs i / 4 + 1 rounds (lanes 28 and 29 run 8). The vblt back to the head is taken by
// every lane in no round but the first ones of lanes that stay; when lanes leave, the fewer of
// those that stay and those that leave run first: the block loops on under the mask of the
// lanes that stay when they are the fewer, and when they are not, the join after the vblt runs
// inline and pops the lanes that leave in favour of them.
const std::string kVectorLoopKernel = lanes_loop_kernel(1, "    vblt v2, v3, .Lloop");

TEST(Jit, LoopsClosedByAVectorBranchMatchTheInterpreter) {
  expect_lanes_loop_matches(kVectorLoopKernel, 1, "vector loop");
}

TEST(Jit, BudgetStopsInsideALoopClosedByAVectorBranch) {
  EXPECT_GT(expect_same_for_budgets(kVectorLoopKernel, launch_of(1, 30), 1, 90), 0u);
}

// The loop's body is one block that loops. Every lane stays for two rounds; in the third, lanes
// 24-31 stay, the fewer: they run first and the block goes on under their mask; in the fourth,
// four leave and four stay, a tie: those that stay (taken) run first again; in the fifth the
// last four leave, and the block ends with the warp at the join after the vblt.
TEST(Jit, ALoopClosedByAVectorBranchIsOneLoopingBlock) {
  DecodedLoop loop(kVectorLoopKernel);
  const jit::Block* block = loop.block;
  ASSERT_NE(block, nullptr);
  EXPECT_TRUE(block->loops);
  EXPECT_EQ(block->insns.back().insn.op, isa::Op::VBLT);

  const std::unique_ptr<sim::Warp> w = placed_warp();
  for (uint32_t lane = 0; lane < 32; ++lane) w->v[3][lane] = lane < 24 ? 3 : lane < 28 ? 4 : 5;
  sim::Exec ctx{*w};
  std::exception_ptr error;
  jit::Block::Tally tally;
  const uint32_t result = block->fn.load()(&ctx, w.get(), &error, 1000, &tally, 0);
  const size_t size = block->insns.size();
  EXPECT_EQ(result, 4 * size + jit::Block::kWentOn);  // at the join after the vblt
  EXPECT_EQ(tally.rounds, 4u);
  EXPECT_EQ(w->mask, 0xf0000000u);
  EXPECT_EQ(w->v[2][0], 3u);
  EXPECT_EQ(w->v[2][24], 4u);
  EXPECT_EQ(w->v[2][28], 5u);
  EXPECT_EQ(w->simt_stack.depth, 4u);  // two splits
  EXPECT_EQ(ctx.divergences, 2u);
  EXPECT_EQ(tally.repeats, 0u);

  // Lanes 0-7 leave in the third round, the fewer: they run first, the join after the vblt
  // runs inline and pops them in favour of lanes 8-31, and the rounds go on until those leave
  // together, at the ninth.
  ASSERT_TRUE(block->join_after_loop);
  EXPECT_EQ(block->join_after_loop->insn.op, isa::Op::JOIN);
  const std::unique_ptr<sim::Warp> v = placed_warp();
  v->rpc = block->pcs.back() + 4;  // the setrpc in the body sets it too
  for (uint32_t lane = 0; lane < 32; ++lane) v->v[3][lane] = lane < 8 ? 3 : 9;
  sim::Exec vctx{*v};
  jit::Block::Tally vtally;
  EXPECT_EQ(block->fn.load()(&vctx, v.get(), &error, 1000, &vtally, 0),
            4 * size + jit::Block::kWentOn);
  EXPECT_EQ(vtally.rounds, 8u);
  EXPECT_EQ(vtally.repeats, 1u);  // the join
  EXPECT_EQ(v->mask, 0xffffff00u);
  EXPECT_EQ(v->v[2][0], 3u);
  EXPECT_EQ(v->v[2][8], 9u);
  EXPECT_EQ(v->simt_stack.depth, 1u);  // the reconvergence entry
  EXPECT_EQ(vctx.divergences, 1u);

  // The join is part of the code the block was translated from.
  EXPECT_TRUE(block->same_code(loop.device.memory()));
  const uint32_t nop = 0x00000013;
  ASSERT_TRUE(loop.device.memory().write(block->pcs.back() + 4, &nop, 4));
  EXPECT_FALSE(block->same_code(loop.device.memory()));
}

// ---- Blocks that loop: a scalar branch back to the block's start ----

// The loop body is one block ending in `bnez t0` back to its start, so its translation loops
// inside. A vector branch in it is taken by one lane in the middle rounds (the block leaves
// through the semantics, the warp diverges and joins), by no lane in the others (the round
// goes on inline); 30 threads per warp leave two lanes outside lane_mask, so the thread-instruction
// counts per round depend on the mask.
const char* const kSelfLoopKernel = R"(
    li s0, 0x90000000
    csrr t6, wid
    slli t6, t6, 9
    add s0, s0, t6
    vid.v v0
    li t2, 40
    vmv.v.x v6, t2
    li t0, 37
    li t1, 0
.Lloop:
    addi t1, t1, 3
    vadd.vx v1, v0, t1
    la t5, .Lskip
    setrpc zero, t5, 0
    vbeq v1, v6, .Lskip
    vadd.vi v4, v4, 1
.Lskip:
    join zero, zero, 0
    vxor.vv v5, v5, v1
    vsll.vi v7, v5, 1
    addi t0, t0, -1
    bnez t0, .Lloop
    vsll.vi v9, v0, 2
    vadd.vx v9, v9, s0
    vsw12.v v4, 0(v9)
    vsw12.v v5, 128(v9)
    vsw12.v v7, 256(v9)
    sw t1, 384(s0)
    endprg x0, x0, x0
)";

TEST(Jit, SelfLoopWithDivergenceMatchesTheInterpreter) {
  const Outcome off = run(kSelfLoopKernel, &load_assembly, launch_of(3, 30, 2), sim::JitMode::Off);
  ASSERT_FALSE(off.result.fault) << fault_text(off.result);
  EXPECT_GT(off.result.stats.divergences, 10u);
  EXPECT_EQ(off.memory[384 / 4], 3u * 37u);
  EXPECT_GT(expect_same(kSelfLoopKernel, &load_assembly, launch_of(3, 30, 2), "self-loop"), 0u);
}

// The budget ending at every instruction of several rounds of the looping block, at a
// round's start included: the launch stops at the same instruction with the same counts.
TEST(Jit, BudgetStopsInsideALoopingBlock) {
  const uint64_t translated =
      expect_same_for_budgets(kSelfLoopKernel, launch_of(1, 30), 60, 300, 7) +
      expect_same_for_budgets(kSelfLoopKernel, launch_of(1, 30), 400, 430);
  EXPECT_GT(translated, 0u);
}

// A load in a looping block faults in a late round (past the 16 KiB output buffer): same pc,
// instruction, message and counts as the interpreter.
TEST(Jit, FaultInALoopingBlockReportsTheSamePc) {
  const char* const kernel = R"(
    li s0, 0x90000000
    li s1, 0
    li t4, 1000
.Lloop:
    add t0, s0, s1
    addi s1, s1, 256
    lw t1, 0(t0)
    add t2, t2, t1
    vadd.vx v1, v1, t2
    addi t4, t4, -1
    bnez t4, .Lloop
    endprg x0, x0, x0
)";
  const Outcome off = run(kernel, &load_assembly, launch_of(2, 32), sim::JitMode::Off);
  ASSERT_TRUE(off.result.fault);
  EXPECT_NE(off.result.fault->message.find("unmapped"), std::string::npos)
      << fault_text(off.result);
  EXPECT_GT(expect_same(kernel, &load_assembly, launch_of(2, 32), "fault in a loop"), 0u);
}

// A loop entered from above that closes with a jump to its head and leaves through a
// branch at the top, as compiled loops do (JUMP: `j`, or a jal that also links). The block
// from the kernel's start ends at the jump back into it, and the loop's head starts a block
// that loops: 3 blocks in all, where unrolling filled 64-instruction blocks from all over the
// loop's body.
std::string jump_loop_kernel(const std::string& jump) {
  return R"(
    li s0, 0x90000000
    vid.v v0
    li t0, 40
    li t1, 0
.Lloop:
    beqz t0, .Ldone
    addi t1, t1, 3
    vadd.vx v1, v0, t1
    vxor.vv v5, v5, v1
    addi t0, t0, -1
    )" + jump +
         R"( .Lloop
.Ldone:
    vsll.vi v9, v0, 2
    vadd.vx v9, v9, s0
    vsw12.v v5, 0(v9)
    sw t1, 384(s0)
    sw t3, 388(s0)
    endprg x0, x0, x0
)";
}

TEST(Jit, LoopsClosedByAJumpLoopInOneBlock) {
  for (const std::string jump : {"j", "jal t3,"}) {
    const std::string kernel = jump_loop_kernel(jump);
    const Outcome off = run(kernel, &load_assembly, launch_of(2, 32), sim::JitMode::Off);
    ASSERT_FALSE(off.result.fault) << fault_text(off.result);
    EXPECT_EQ(off.memory[384 / 4], 3u * 40u) << jump;
    EXPECT_EQ(expect_same(kernel, &load_assembly, launch_of(2, 32), jump), 3u) << jump;
    // The budget ending at every instruction of the first rounds and of the last.
    EXPECT_GT(expect_same_for_budgets(kernel, launch_of(1, 32), 1, 40) +
                  expect_same_for_budgets(kernel, launch_of(1, 32), 235, 255),
              0u)
        << jump;
  }
}

// ---- Inline per-thread word accesses (vlw12.v, vsw12.v) ----

// The loop of the word-access kernels: lane i's address is (i & t2) << t4, plus s1 when
// `plus_s1`, plus the register `offset` in the last of three rounds; each round stores,
// loads two words and stores again through `load` and `store`, summing into v6.
std::string word_loop(bool plus_s1, const std::string& offset, const std::string& load,
                      const std::string& store) {
  std::string loop = R"(
    vid.v v0
    vand.vx v9, v0, t2
    vsll.vx v9, v9, t4
    PLUS_S1
    csrr t3, wid
    vadd.vx v2, v0, t3
    li t0, 3
.Lloop:
    addi t6, t0, -1
    seqz t6, t6
    neg t6, t6
    and t6, t6, OFFSET
    vadd.vx v1, v9, t6
    vadd.vi v2, v2, 5
    STORE v2, 0(v1)
    LOAD v3, 0(v1)
    LOAD v4, 4(v1)
    vxor.vv v5, v3, v4
    STORE v5, 256(v1)
    vadd.vv v6, v6, v5
    addi t0, t0, -1
    bnez t0, .Lloop
)";
  const auto substitute = [&](const std::string& name, const std::string& text) {
    for (size_t at = loop.find(name); at != std::string::npos; at = loop.find(name, at))
      loop.replace(at, name.size(), text);
  };
  substitute("PLUS_S1", plus_s1 ? "vadd.vx v9, v9, s1" : "");
  substitute("OFFSET", offset);
  substitute("STORE", store);
  substitute("LOAD", load);
  return loop;
}

// Lane i stores, loads and stores again words at a + (i & spread) << shift (4 bytes apart
// unless told), in a loop of 3 rounds: a is the output buffer in the first two rounds and
// base + offset in the last (chosen without a branch: the loop is one block, translated at
// its second round, so that the translation runs the last one). There the lanes' words lie in
// one page (the inline path), cross into the next page or lie in several (word_pointers),
// cross into unmapped memory or the null window, are misaligned (faults, which must name the
// same pc, lane and message), or several lanes share one word (spread 3: the highest lane's
// store wins).
std::string word_access_kernel(uint32_t base, int32_t offset, uint32_t spread, unsigned shift = 2) {
  return "    li s0, " + std::to_string(base) + "\n    li t1, " + std::to_string(offset) +
         "\n    li t2, " + std::to_string(spread) + "\n    li t4, " + std::to_string(shift) +
         R"(
    li s1, 0x90000000
    add t5, s0, t1
    sub t5, t5, s1
)" + word_loop(true, "t5", "vlw12.v", "vsw12.v") +
         R"(
    vsll.vi v7, v0, 2
    vadd.vx v7, v7, s1
    vsw12.v v6, 1024(v7)
    endprg x0, x0, x0
)";
}

TEST(Jit, WordAccessesMatchTheInterpreter) {
  struct Case {
    uint32_t base;
    int32_t offset;
    uint32_t spread;
    bool faults;
    const char* what;
  };
  const uint32_t local = static_cast<uint32_t>(sim::kLdsWindowBase);
  const Case cases[] = {
      {kOut, 0, 31, false, "one page"},
      {kOut, 4096 - 64, 31, false, "across a page boundary"},
      {kOut, 8, 3, false, "lanes sharing words"},
      {kOut, kOutBytes - 64, 31, true, "into unmapped memory"},
      {kOut, -64, 31, true, "below the mapped buffer"},
      {kOut, 2, 31, true, "misaligned"},
      {kOut, 4096 - 2, 0, true, "misaligned, one word"},
      {local, 64, 31, false, "local memory"},
      {0, 64, 31, true, "the null window"},
  };
  for (const Case& c : cases) {
    const std::string kernel = word_access_kernel(c.base, c.offset, c.spread);
    const Outcome off = run(kernel, &load_assembly, launch_of(2, 30, 2), sim::JitMode::Off);
    EXPECT_EQ(off.result.fault.has_value(), c.faults) << c.what << ": " << fault_text(off.result);
    EXPECT_GT(expect_same(kernel, &load_assembly, launch_of(2, 30, 2), c.what), 0u) << c.what;
  }
}

// The lanes' words 512 bytes apart, so that one access spans four pages (word_pointers'
// path): all mapped, some unmapped, one lane misaligned, in local memory, in the null window,
// and in the program's code (read-only: the store faults; writable: it is written, and a
// later workgroup, whose SM decodes the code afresh, meets the words as illegal instructions
// or past the code's one page the lanes find unmapped memory).
TEST(Jit, WordAccessesOverSeveralPagesMatchTheInterpreter) {
  struct Case {
    uint32_t base;
    int32_t offset;
    bool faults;
    Loader loader;
    const char* what;
  };
  const uint32_t local = static_cast<uint32_t>(sim::kLdsWindowBase);
  const Case cases[] = {
      {kOut, 0, false, &load_assembly, "four pages"},
      {kOut, 4, false, &load_assembly, "four pages, one word on"},
      {kOut, 4096, true, &load_assembly, "some pages unmapped"},
      {kOut, 2, true, &load_assembly, "misaligned"},
      {local, 64, false, &load_assembly, "local memory"},
      {local - 4096, 0, true, &load_assembly, "below the local window"},
      {0, 64, true, &load_assembly, "the null window"},
      {sim::kCodeBase, 0, true, &load_protected_assembly, "read-only code"},
      {sim::kCodeBase, 0, true, &load_assembly, "writable code"},
  };
  for (const Case& c : cases) {
    const std::string kernel = word_access_kernel(c.base, c.offset, 31, 9);
    const Outcome off = run(kernel, c.loader, launch_of(2, 30, 2), sim::JitMode::Off);
    EXPECT_EQ(off.result.fault.has_value(), c.faults) << c.what << ": " << fault_text(off.result);
    EXPECT_GT(expect_same(kernel, c.loader, launch_of(2, 30, 2), c.what), 0u) << c.what;
  }
}

// ---- Blocks that follow blocks: taken branches, chaining, budgets ----

// A loop of three blocks that jump to each other: a scalar branch always taken, a vector
// branch every active lane takes (no divergence: the join finds nothing to pop), and the back
// edge; a CSR write and read inside a block. Each translated block goes on to the next without
// the interpreter; the budget sweep ends the launch at every instruction of the run.
const char* const kChainKernel = R"(
    li s0, 0x90000000
    csrr t6, wid
    slli t6, t6, 6
    add s0, s0, t6
    li t0, 0
    li t1, 6
    vid.v v1
.Lloop:
    addi t0, t0, 1
    vadd.vi v3, v3, 1
    beq t0, t0, .Lb
    addi t0, t0, 100
.Lb:
    vadd.vx v3, v3, t0
    la t5, .Lc
    setrpc zero, t5, 0
    vbeq v1, v1, .Lc
    vadd.vi v3, v3, 7
.Lc:
    join zero, zero, 0
    csrw mscratch, t0
    csrr t2, mscratch
    add t3, t3, t2
    sw t3, 0(s0)
    blt t0, t1, .Lloop
    vsll.vi v4, v1, 2
    vadd.vx v4, v4, s0
    vsw12.v v3, 64(v4)
    endprg x0, x0, x0
)";

TEST(Jit, ChainedBlocksMatchTheInterpreter) {
  EXPECT_GT(expect_same(kChainKernel, &load_assembly, launch_of(2, 32, 2), "chained blocks"), 0u);
}

TEST(Jit, BudgetStopsInsideChainedBlocks) {
  EXPECT_GT(expect_same_for_budgets(kChainKernel, launch_of(2, 32), 1, 240), 0u);
}

// A loop whose branch in the middle is taken in every round but the last: when the loop is
// translated, only the branch's target has run, so the block follows the target and loops,
// and the fall-through of the last round leaves the block at the next instruction. The wid
// gives each warp its own trip count (3 to 6 rounds), so warps leave at different rounds.
const char* const kTakenPathKernel = R"(
    li s0, 0x90000000
    csrr t6, wid
    slli t5, t6, 8
    add s0, s0, t5
    addi t1, t6, 3
    li t0, 0
    vid.v v1
.Lloop:
    addi t0, t0, 1
    vadd.vx v3, v3, t0
    blt t0, t1, .Lmore
    addi t2, t2, 100
    vadd.vi v3, v3, 5
    j .Ldone
.Lmore:
    vadd.vi v3, v3, 1
    add t3, t3, t0
    j .Lloop
.Ldone:
    sw t2, 0(s0)
    sw t3, 4(s0)
    vsll.vi v4, v1, 2
    vadd.vx v4, v4, s0
    vsw12.v v3, 8(v4)
    endprg x0, x0, x0
)";

TEST(Jit, BlocksThatFollowATakenBranchMatchTheInterpreter) {
  EXPECT_GT(expect_same(kTakenPathKernel, &load_assembly, launch_of(4, 32, 2), "taken path"), 0u);
  // Warp 2: 5 rounds; t3 = 1 + 2 + 3 + 4, t2 = 100, each lane 1 + ... + 5 + 4 * 1 + 5.
  const Outcome forced =
      run(kTakenPathKernel, &load_assembly, launch_of(4, 32), sim::JitMode::Force);
  EXPECT_EQ(forced.memory[2 * 64], 100u);
  EXPECT_EQ(forced.memory[2 * 64 + 1], 10u);
  EXPECT_EQ(forced.memory[2 * 64 + 2], 24u);
}

TEST(Jit, BudgetStopsInBlocksThatFollowATakenBranch) {
  EXPECT_GT(expect_same_for_budgets(kTakenPathKernel, launch_of(2, 32), 1, 80), 0u);
}

// Calls through jalr, translated inline: a target with bit 0 set (cleared), a jalr whose rd is
// its rs1 (the target is the old value), returns through ra and through another register. In the
// last round of warp 1, `misalign` is added to the odd target: 1 makes it misaligned, which
// faults where it is fetched; 3 skips the function's first instruction.
std::string jalr_kernel(int misalign) {
  return R"(
    li s0, 0x90000000
    csrr t6, wid
    slli t5, t6, 8
    add s0, s0, t5
    li t1, 0
    li t0, 4
    li a1, 0
.Lloop:
    li a2, 1
    bne t0, a2, .Lcall
    beqz t6, .Lcall
    li a1, )" +
         std::to_string(misalign) +
         R"(
.Lcall:
    la a0, .Lf
    addi a0, a0, 1
    add a0, a0, a1
    jalr ra, 0(a0)
    la t2, .Lg
    jalr t2, 0(t2)
    addi t0, t0, -1
    bnez t0, .Lloop
    sw t1, 0(s0)
    sw t2, 4(s0)
    sw ra, 8(s0)
    vid.v v1
    vsll.vi v4, v1, 2
    vadd.vx v4, v4, s0
    vsw12.v v3, 16(v4)
    endprg x0, x0, x0
.Lf:
    addi t1, t1, 3
    vadd.vx v3, v3, t1
    ret
.Lg:
    addi t1, t1, 5
    jr t2
)";
}

TEST(Jit, JalrMatchesTheInterpreter) {
  for (const int misalign : {0, 1, 3}) {
    const std::string kernel = jalr_kernel(misalign);
    const std::string what = "misalign " + std::to_string(misalign);
    const Outcome off = run(kernel, &load_assembly, launch_of(2, 32, 2), sim::JitMode::Off);
    EXPECT_EQ(off.result.fault.has_value(), misalign == 1) << what;
    EXPECT_GT(expect_same(kernel, &load_assembly, launch_of(2, 32, 2), what), 0u);
  }
  // Warp 0: 4 rounds of 3 + 5.
  const Outcome forced = run(jalr_kernel(0), &load_assembly, launch_of(2, 32), sim::JitMode::Force);
  EXPECT_EQ(forced.memory[0], 32u);
}

TEST(Jit, BudgetStopsAroundJalr) {
  EXPECT_GT(expect_same_for_budgets(jalr_kernel(0), launch_of(1, 32), 1, 70), 0u);
}

// Scalar stores into words of a page that also holds read-only data (the first 64 bytes of the
// code here; ventus cc's .data lies beside its .text): no whole page is open to them, and
// scalar_data_span keeps each accepted store (address and size) for the launch, and
// translated code finds it there. Every warp stores each round, with words and halfwords at
// addresses that share a slot of that table, and two words that share one (4 and 68); in
// the last round of warp 1, `fault_offset` (when not 0) makes one store land that many bytes
// before the words, in the code.
std::string store_beside_code_kernel(int fault_offset) {
  return R"(
    csrr t6, wid
    li s0, 0x90000000
    slli t5, t6, 4
    add s0, s0, t5
    la s1, .Lwords
    li t0, 3
.Lloop:
    lw t1, 0(s1)
    add t1, t1, t0
    sw t1, 0(s1)
    sh t0, 64(s1)
    sw t6, 4(s1)
    sw t0, 68(s1)
    li a0, 1
    bne t0, a0, .Lnext
    beqz t6, .Lnext
    li a1, )" +
         std::to_string(fault_offset) +
         R"(
    beqz a1, .Lnext
    la a2, .Lwords
    sub a2, a2, a1
    sw t0, 0(a2)
.Lnext:
    addi t0, t0, -1
    bnez t0, .Lloop
    lw t1, 0(s1)
    lw t2, 4(s1)
    lw t3, 64(s1)
    lw t4, 68(s1)
    sw t1, 0(s0)
    sw t2, 4(s0)
    sw t3, 8(s0)
    sw t4, 12(s0)
    endprg x0, x0, x0
.Lwords:
    .word 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
)";
}

void load_with_read_only_start(sim::Device& device, const std::string& source) {
  load_program(device, source);
  device.memory().protect(sim::kCodeBase, 64, "the kernel's first instructions");
}

TEST(Jit, StoresBesideReadOnlyCodeMatchTheInterpreter) {
  for (const int fault_offset : {0, 4, 100}) {
    const std::string kernel = store_beside_code_kernel(fault_offset);
    const std::string what = "fault offset " + std::to_string(fault_offset);
    const Outcome off =
        run(kernel, &load_with_read_only_start, launch_of(2, 32, 2), sim::JitMode::Off);
    // .Lwords - 100 lies in the read-only first 64 bytes: the store faults. .Lwords - 4 is the
    // endprg, writable: the other workgroup's warp then finds an illegal word there.
    EXPECT_EQ(off.result.fault.has_value(), fault_offset != 0) << what;
    EXPECT_GT(expect_same(kernel, &load_with_read_only_start, launch_of(2, 32, 2), what), 0u);
  }
  // 2 workgroups of 2 warps, each adding 3 + 2 + 1 to the first word; warp 1 wrote last.
  const Outcome forced = run(store_beside_code_kernel(0), &load_with_read_only_start,
                             launch_of(2, 32, 2), sim::JitMode::Force);
  EXPECT_EQ(forced.memory[4], 24u);
  EXPECT_EQ(forced.memory[5], 1u);
  EXPECT_EQ(forced.memory[6], 1u);
  EXPECT_EQ(forced.memory[7], 1u);  // the last round's counter, not at word 4's address
}

// ---- Inline private word accesses (vlw.v, vsw.v) ----

void load_with_private_memory(sim::Device& device, const std::string& source) {
  device.memory().map(kPrivate, kPrivateBytes);
  load_program(device, source);
}

// word_access_kernel through private memory: lane i's private address is (i & spread) << shift
// (+ offset in the last round), which the hardware interleaves (csr_pds + a * lanes + 4 * i).
std::string private_access_kernel(uint32_t spread, unsigned shift, int32_t offset) {
  return "    li t1, " + std::to_string(offset) + "\n    li t2, " + std::to_string(spread) +
         "\n    li t4, " + std::to_string(shift) + "\n" + word_loop(false, "t1", "vlw.v", "vsw.v") +
         R"(
    li s1, 0x90000000
    slli t3, t3, 7
    add s1, s1, t3
    vsll.vi v7, v0, 2
    vadd.vx v7, v7, s1
    vsw12.v v6, 0(v7)
    endprg x0, x0, x0
)";
}

// Lanes at one private address (consecutive words, one page), 64 bytes apart (each lane's word
// 2 KiB from the next: several pages), misaligned, and past the mapped private memory.
TEST(Jit, PrivateWordAccessesMatchTheInterpreter) {
  struct Case {
    uint32_t spread;
    unsigned shift;
    int32_t offset;
    bool faults;
    const char* what;
  };
  const Case cases[] = {
      {0, 2, 0, false, "one address, one page"}, {0, 2, 1024, false, "one address, further on"},
      {31, 6, 0, false, "several pages"},        {31, 6, 2, true, "misaligned"},
      {0, 2, 1 << 20, true, "unmapped"},
  };
  sim::KernelLaunch launch = launch_of(2, 30, 2);
  launch.pds_base = kPrivate;
  launch.pds_bytes_per_thread = 4096;
  ASSERT_LE(sim::private_memory_bytes(launch, sim::DeviceConfig{}), kPrivateBytes);
  for (const Case& c : cases) {
    const std::string kernel = private_access_kernel(c.spread, c.shift, c.offset);
    const Outcome off = run(kernel, &load_with_private_memory, launch, sim::JitMode::Off);
    EXPECT_EQ(off.result.fault.has_value(), c.faults) << c.what << ": " << fault_text(off.result);
    EXPECT_GT(expect_same(kernel, &load_with_private_memory, launch, c.what), 0u) << c.what;
  }
}

// ---- Inline per-thread byte and halfword accesses (vlb12.v ... vsh12.v, vlb.v ... vsh.v) ----

// Lane i stores a halfword, a byte and a word at a + 4..5, a + 7 and a + 0..3, then loads
// them back with every load row (sign and zero extension of values with their high bits set),
// where a = (i & spread) << shift, plus `base` (flat rows) and, in the last of three rounds,
// plus `offset` (chosen without a branch: the loop is one block, translated at its second
// round, so that the translation runs the last one). Lanes 4 bytes apart overlap (the highest
// lane's store wins); the first access of a round is the halfword store, so that an odd
// offset makes it fault (an offset of 2, the word store after it). suffix: "12" (flat) or ""
// (private). The lanes' sums and xors of what they loaded are stored at the end.
std::string subword_kernel(const std::string& suffix, uint32_t base, int32_t offset,
                           uint32_t spread, unsigned shift) {
  std::string kernel = "    li s0, " + std::to_string(base) + "\n    li t1, " +
                       std::to_string(offset) + "\n    li t2, " + std::to_string(spread) +
                       "\n    li t4, " + std::to_string(shift) + R"(
    vid.v v0
    vand.vx v9, v0, t2
    vsll.vx v9, v9, t4
    vadd.vx v9, v9, s0
    csrr t3, wid
    li a0, 0x9e3779b9
    vmul.vx v2, v0, a0
    vadd.vx v2, v2, t3
    li t0, 3
.Lloop:
    addi t6, t0, -1
    seqz t6, t6
    neg t6, t6
    and t6, t6, t1
    vadd.vx v1, v9, t6
    vadd.vx v2, v2, a0
    vxor.vx v11, v2, a0
    vsh@.v v11, 4(v1)
    vsb@.v v2, 7(v1)
    vsw@.v v2, 0(v1)
    vlb@.v v3, 1(v1)
    vlbu@.v v4, 7(v1)
    vlh@.v v5, 2(v1)
    vlhu@.v v8, 4(v1)
    vlh@.v v10, 4(v1)
    vlbu@.v v12, 3(v1)
    vlw@.v v14, 4(v1)
    vadd.vv v6, v6, v3
    vxor.vv v13, v13, v4
    vadd.vv v6, v6, v5
    vxor.vv v13, v13, v8
    vadd.vv v6, v6, v10
    vxor.vv v13, v13, v12
    vadd.vv v6, v6, v14
    addi t0, t0, -1
    bnez t0, .Lloop
    li s1, 0x90000000
    slli t3, t3, 8
    add s1, s1, t3
    vsll.vi v7, v0, 2
    vadd.vx v7, v7, s1
    vsw12.v v6, 1024(v7)
    vsw12.v v13, 1152(v7)
    endprg x0, x0, x0
)";
  for (size_t at = kernel.find('@'); at != std::string::npos; at = kernel.find('@'))
    kernel.replace(at, 1, suffix);
  return kernel;
}

TEST(Jit, ByteAndHalfwordAccessesMatchTheInterpreter) {
  struct Case {
    uint32_t base;
    int32_t offset;
    uint32_t spread;
    unsigned shift;
    bool faults;
    Loader loader;
    const char* what;
  };
  const uint32_t local = static_cast<uint32_t>(sim::kLdsWindowBase);
  const Case cases[] = {
      {kOut, 0, 31, 2, false, &load_assembly, "one page, overlapping lanes"},
      {kOut, 0, 31, 3, false, &load_assembly, "one page"},
      {kOut, 4096 - 64, 31, 3, false, &load_assembly, "across a page boundary"},
      {kOut, 0, 31, 9, false, &load_assembly, "four pages"},
      {kOut, 8, 3, 3, false, &load_assembly, "lanes sharing bytes"},
      {kOut, kOutBytes - 64, 31, 3, true, &load_assembly, "into unmapped memory"},
      {kOut, 1, 31, 3, true, &load_assembly, "a misaligned halfword"},
      {kOut, 2, 31, 3, true, &load_assembly, "a misaligned word"},
      {kOut, 1, 31, 9, true, &load_assembly, "a misaligned halfword, four pages"},
      {local, 64, 31, 3, false, &load_assembly, "local memory"},
      {local, 64, 31, 9, false, &load_assembly, "local memory, four pages"},
      {kOut, static_cast<int32_t>(64 - kOut), 31, 3, true, &load_assembly, "the null window"},
      {kOut, static_cast<int32_t>(sim::kCodeBase - kOut), 31, 3, true, &load_protected_assembly,
       "read-only code"},
  };
  for (const Case& c : cases) {
    const std::string kernel = subword_kernel("12", c.base, c.offset, c.spread, c.shift);
    const Outcome off = run(kernel, c.loader, launch_of(2, 30, 2), sim::JitMode::Off);
    EXPECT_EQ(off.result.fault.has_value(), c.faults) << c.what << ": " << fault_text(off.result);
    EXPECT_GT(expect_same(kernel, c.loader, launch_of(2, 30, 2), c.what), 0u) << c.what;
  }
  // Private memory: lane i's private address a is interleaved (csr_pds + (a & ~3) * lanes +
  // (a & 3) + 4 * i).
  const Case private_cases[] = {
      {0, 0, 0, 2, false, nullptr, "private, one address"},
      {0, 0, 31, 3, false, nullptr, "private, one page"},
      {0, 0, 31, 6, false, nullptr, "private, several pages"},
      {0, 1, 31, 3, true, nullptr, "private, a misaligned halfword"},
      {0, 2, 31, 3, true, nullptr, "private, a misaligned word"},
      {0, 1 << 20, 0, 2, true, nullptr, "private, unmapped"},
  };
  sim::KernelLaunch launch = launch_of(2, 30, 2);
  launch.pds_base = kPrivate;
  launch.pds_bytes_per_thread = 4096;
  for (const Case& c : private_cases) {
    const std::string kernel = subword_kernel("", c.base, c.offset, c.spread, c.shift);
    const Outcome off = run(kernel, &load_with_private_memory, launch, sim::JitMode::Off);
    EXPECT_EQ(off.result.fault.has_value(), c.faults) << c.what << ": " << fault_text(off.result);
    EXPECT_GT(expect_same(kernel, &load_with_private_memory, launch, c.what), 0u) << c.what;
  }
}

// ---- Per-thread accesses of consecutive elements (one masked vector load or store) ----

// Lane i of warp w accesses the elements of `size` bytes at kOut + at + 8192 * w + (j << shift),
// j = i, 31 - i (`reversed`) or i & spread, raised to `skip` when `clamp`: the lanes below
// `skip` take a vector branch around the accesses, so the accesses run without them (and,
// clamped, those inactive lanes' addresses are not in order). The access row stores, then
// every load row of its size loads back, twice (the first time through thread_pointers,
// which caches the pages: lanes in two pages need both cached); the lanes store what they
// loaded at the end.
std::string consecutive_kernel(unsigned size, unsigned shift, bool reversed, uint32_t spread,
                               uint32_t skip, bool clamp, uint32_t at) {
  const char* const suffix = size == 4 ? "w" : size == 2 ? "h" : "b";
  std::string index = reversed
                          ? "    li t0, 31\n    vrsub.vx v7, v6, t0\n"
                          : "    li t0, " + std::to_string(spread) + "\n    vand.vx v7, v6, t0\n";
  if (clamp) index += "    li t0, " + std::to_string(skip) + "\n    vmaxu.vx v7, v7, t0\n";
  const auto store_and_load = [&](const std::string& signed_to, const std::string& unsigned_to) {
    std::string text = "    vs" + std::string(suffix) + "12.v v2, 0(v3)\n    vl" + suffix +
                       "12.v " + signed_to + ", 0(v3)\n";
    if (size < 4) text += "    vl" + std::string(suffix) + "u12.v " + unsigned_to + ", 0(v3)\n";
    return text;
  };
  return "    li s0, " + std::to_string(kOut + at) + R"(
    csrr t6, wid
    slli t6, t6, 13
    add s0, s0, t6
    vid.v v6
    li a0, 0x9e3779b9
    vmul.vx v2, v6, a0
    vadd.vx v2, v2, t6
    vmv.v.i v4, 7
    vmv.v.i v5, 9
    vmv.v.i v10, 11
    vmv.v.i v11, 13
)" + index +
         "    vsll.vi v3, v7, " + std::to_string(shift) + R"(
    vadd.vx v3, v3, s0
    li t0, )" +
         std::to_string(skip) + R"(
    vmv.v.x v1, t0
    la t5, .Lj1
    setrpc zero, t5, 0
    vbltu v6, v1, .Lthen1
)" + store_and_load("v4", "v5") +
         "    vadd.vi v2, v2, 3\n" + store_and_load("v10", "v11") + R"(
.Lthen1:
    join zero, zero, 0
.Lj1:
    join zero, zero, 0
    vsll.vi v8, v6, 2
    vadd.vx v8, v8, s0
    vsw12.v v4, 512(v8)
    vsw12.v v5, 640(v8)
    vsw12.v v10, 768(v8)
    vsw12.v v11, 896(v8)
    endprg x0, x0, x0
)";
}

TEST(Jit, ConsecutiveLanesMatchTheInterpreter) {
  struct Case {
    unsigned size, shift;
    bool reversed;
    uint32_t spread, skip;
    bool clamp;
    uint32_t at;
    const char* what;
  };
  // The last ones cross a page boundary (two neighbouring pages).
  const Case cases[] = {
      {4, 2, false, 31, 0, false, 0, "words in order"},
      {4, 2, false, 31, 5, false, 0, "words in order, the first five lanes inactive"},
      {4, 2, false, 31, 5, true, 0, "words in order, inactive lanes elsewhere"},
      {4, 2, true, 31, 0, false, 0, "words in reverse order"},
      {4, 2, false, 30, 0, false, 0, "pairs of lanes sharing a word"},
      {4, 3, false, 31, 3, false, 0, "every other word"},
      {2, 1, false, 31, 0, false, 0, "halfwords in order"},
      {2, 1, false, 31, 7, true, 0, "halfwords in order, inactive lanes elsewhere"},
      {2, 1, true, 31, 1, false, 0, "halfwords in reverse order"},
      {1, 0, false, 31, 0, false, 0, "bytes in order"},
      {1, 0, false, 31, 30, false, 0, "bytes in order, one active lane"},
      {1, 0, false, 31, 2, true, 0, "bytes in order, inactive lanes elsewhere"},
      {1, 0, false, 15, 0, false, 0, "bytes, two lanes per byte"},
      {4, 2, false, 31, 0, false, 4096 - 64, "words in order across a page boundary"},
      {4, 2, false, 31, 5, true, 4096 - 64,
       "words across a page boundary, inactive lanes elsewhere"},
      {4, 2, true, 31, 0, false, 4096 - 64, "words in reverse order across a page boundary"},
      {4, 6, false, 31, 2, false, 4096 - 1024, "words 64 bytes apart in two pages"},
      {2, 1, false, 31, 0, false, 4096 - 32, "halfwords across a page boundary"},
      {1, 0, false, 15, 0, false, 4096 - 8, "bytes across a page boundary, two lanes per byte"},
  };
  for (const Case& c : cases) {
    const std::string kernel =
        consecutive_kernel(c.size, c.shift, c.reversed, c.spread, c.skip, c.clamp, c.at);
    const Outcome off = run(kernel, &load_assembly, launch_of(2, 30, 2), sim::JitMode::Off);
    EXPECT_FALSE(off.result.fault.has_value()) << c.what << ": " << fault_text(off.result);
    EXPECT_GT(expect_same(kernel, &load_assembly, launch_of(2, 30, 2), c.what), 0u) << c.what;
  }
}

// Lane i stores a word at kOut + 512 * i (the lanes' words over four pages), then loads the
// words at those addresses plus `offset` (in warp 1; warp 0, which decodes the code first,
// reads its own words) and 4 more: with several pages in the global window,
// each lane's page comes from Memory's page table (PageCache::global_pages). Past the buffer,
// below it, in the program's read-only code or in local memory (the page cache's path
// instead) some or all lanes' pages are unmapped, and the load must fault as the
// interpreter's does.
std::string loads_over_pages_kernel(int32_t offset) {
  return "    li t1, " + std::to_string(offset) + R"(
    li s0, 0x90000000
    csrr t6, wid
    snez t2, t6
    mul t1, t1, t2
    vid.v v0
    vsll.vi v1, v0, 9
    vadd.vx v1, v1, s0
    li a0, 0x9e3779b9
    vmul.vx v5, v0, a0
    vadd.vx v5, v5, t6
    vsw12.v v5, 0(v1)
    vsw12.v v0, 4(v1)
    vadd.vx v1, v1, t1
    vlw12.v v2, 0(v1)
    vlhu12.v v3, 6(v1)
    vxor.vv v2, v2, v3
    vsll.vi v4, v0, 2
    vadd.vx v4, v4, s0
    slli t6, t6, 7
    add t6, t6, s0
    vsll.vi v4, v0, 2
    vadd.vx v4, v4, t6
    vsw12.v v2, 8(v4)
    endprg x0, x0, x0
)";
}

// Global memory mapped (and written) at the addresses of the local-memory window, which flat
// accesses must never reach: they access local memory there.
void load_with_global_pages_under_local_memory(sim::Device& device, const std::string& source) {
  const uint32_t base = static_cast<uint32_t>(sim::kLdsWindowBase);
  device.memory().map(base, 4 * 4096);
  const std::vector<uint8_t> pattern(4 * 4096, 0x5a);
  ASSERT_TRUE(device.memory().write(base, pattern.data(), pattern.size()));
  load_program(device, source);
}

TEST(Jit, LoadsOverSeveralPagesMatchTheInterpreter) {
  struct Case {
    int32_t offset;
    bool faults;
    Loader loader;
    const char* what;
  };
  const Case cases[] = {
      {0, false, &load_assembly, "four mapped pages"},
      {4096 + 1024, true, &load_assembly, "the last lanes past the buffer"},
      {-4096, true, &load_assembly, "the first lanes below the buffer"},
      {static_cast<int32_t>(sim::kCodeBase - kOut), true, &load_protected_assembly,
       "read-only code, then unmapped memory"},
      {static_cast<int32_t>(static_cast<uint32_t>(sim::kLdsWindowBase) - kOut), false,
       &load_with_global_pages_under_local_memory, "local memory"},
  };
  for (const Case& c : cases) {
    const std::string kernel = loads_over_pages_kernel(c.offset);
    const Outcome off = run(kernel, c.loader, launch_of(2, 30, 2), sim::JitMode::Off);
    EXPECT_EQ(off.result.fault.has_value(), c.faults) << c.what << ": " << fault_text(off.result);
    EXPECT_GT(expect_same(kernel, c.loader, launch_of(2, 30, 2), c.what), 0u) << c.what;
  }
}

// Two pages per warp from here, which nothing writes before the warp's own stores.
constexpr uint32_t kFresh = 0x90010000;

void load_with_fresh_pages(sim::Device& device, const std::string& source) {
  device.memory().map(kFresh, 4 * 8192);
  load_program(device, source);
}

// A page that is mapped but that nothing wrote yet is read from the shared zero page: the
// first store gives it its own memory, and a later load must find that, not the zero page
// (MemorySystem::whole_page never caches it). Each warp loads from its two fresh pages in a
// loop (scalar, and per-thread with lanes 256 bytes apart: thread_pointers' path), then
// stores there and loads again; the warps after the first run all of it translated.
TEST(Jit, LoadsOfAPageNothingWroteSeeItsFirstStore) {
  const std::string kernel = "    li s0, " + std::to_string(kFresh) + R"(
    csrr t3, wid
    slli t4, t3, 13
    add s0, s0, t4
    vid.v v0
    vsll.vi v1, v0, 8
    vadd.vx v1, v1, s0
    li t0, 3
.Lloop:
    lw a1, 256(s0)
    vlw12.v v3, 4(v1)
    add s3, s3, a1
    vadd.vv v5, v5, v3
    addi t0, t0, -1
    bnez t0, .Lloop
    addi t5, t3, 7
    sw t5, 256(s0)
    vadd.vx v7, v0, t5
    vsw12.v v7, 4(v1)
    lw a1, 256(s0)
    vlw12.v v3, 4(v1)
    add s3, s3, a1
    vadd.vv v5, v5, v3
    li s1, 0x90000000
    slli t4, t3, 8
    add s1, s1, t4
    sw s3, 0(s1)
    vsll.vi v7, v0, 2
    vadd.vx v7, v7, s1
    vsw12.v v5, 1024(v7)
    endprg x0, x0, x0
)";
  const Outcome off = run(kernel, &load_with_fresh_pages, launch_of(4, 32), sim::JitMode::Off);
  ASSERT_FALSE(off.result.fault) << fault_text(off.result);
  EXPECT_GT(expect_same(kernel, &load_with_fresh_pages, launch_of(4, 32), "zero pages"), 0u);
}

// MemorySystem::whole_page's cache lasts one launch: between launches the host unmaps a
// buffer and maps another at its address, whose pages are new memory (the freed pages given
// to another buffer first), and local memory starts zeroed again. The second launch must read
// the new memory, with translation as without.
TEST(Jit, CachedPagesDoNotOutliveALaunch) {
  const uint32_t buffer = kOut + 0x10000, other = kOut + 0x20000;
  const std::string kernel = "    li s0, " + std::to_string(buffer) + R"(
    li s2, 0x70000100
    csrr t3, wid
    vid.v v0
    vsll.vi v1, v0, 8
    vadd.vx v2, v1, s0
    vsll.vi v1, v0, 2
    vadd.vx v3, v1, s2
    li t0, 2
.Lloop:
    lw a1, 0(s0)
    lw a2, 0(s2)
    vlw12.v v4, 0(v2)
    vlw12.v v5, 0(v3)
    add s3, s3, a1
    add s4, s4, a2
    vadd.vv v6, v6, v4
    vadd.vv v6, v6, v5
    addi a3, a1, 1
    sw a3, 0(s2)
    vadd.vi v5, v5, 3
    vsw12.v v5, 0(v3)
    addi t0, t0, -1
    bnez t0, .Lloop
    li s1, 0x90000000
    slli t4, t3, 8
    add s1, s1, t4
    sw s3, 0(s1)
    sw s4, 4(s1)
    vadd.vx v7, v1, s1
    vsw12.v v6, 1024(v7)
    endprg x0, x0, x0
)";
  const auto both_launches = [&](sim::JitMode mode) {
    sim::Device device;
    device.memory().map(kOut, kOutBytes);
    load_program(device, kernel);
    const std::vector<uint32_t> first(2048, 5), second(2048, 9);
    device.memory().map(buffer, 8192);
    EXPECT_TRUE(device.memory().write(buffer, first.data(), 8192));
    sim::RunOptions options;
    options.jit = mode;
    std::vector<std::vector<uint32_t>> outputs;
    for (int launch = 0; launch < 2; ++launch) {
      const sim::LaunchResult result = device.run(launch_of(2, 32, 2), options);
      EXPECT_FALSE(result.fault) << fault_text(result);
      outputs.push_back(read_words(device, kOut, kOutBytes / 4));
      device.memory().unmap(buffer, 8192);
      device.memory().map(other, 8192);  // takes the freed pages, if it can
      EXPECT_TRUE(device.memory().write(other, first.data(), 8192));
      device.memory().map(buffer, 8192);
      EXPECT_TRUE(device.memory().write(buffer, second.data(), 8192));
    }
    return outputs;
  };
  EXPECT_TRUE(both_launches(sim::JitMode::Off) == both_launches(sim::JitMode::Force));
}

// ---- Inline scalar loads and stores (lb ... sw) and CSR reads ----

// Each warp stores a halfword, a byte and a word through `reg` and loads them back with every
// load (sign and zero extension of negative values), in a loop of 3 rounds: reg is s0 in the
// first two and s0 + offset in the last, where the accesses may fault (chosen without a
// branch: the loop is one block, translated at its second round, so that the translation runs
// the last one). The warp's sums of what it loaded are stored at the end.
std::string scalar_access_kernel(const std::string& set_s0, int32_t offset,
                                 const char* reg = "a0") {
  std::string kernel = set_s0 + "\n    li t1, " + std::to_string(offset) + R"(
    li s1, 0x90000000
    csrr t3, wid
    slli t3, t3, 6
    add s1, s1, t3
    li t4, 0x7f80ff81
    li t0, 3
.Lloop:
    addi t6, t0, -1
    seqz t6, t6
    neg t6, t6
    and t6, t6, t1
    add REG, s0, t6
    li t5, 0x01020304
    add t4, t4, t5
    sw t4, 0(REG)
    sh t4, 4(REG)
    sb t4, 7(REG)
    lw a1, 0(REG)
    lh a2, 4(REG)
    lhu a3, 4(REG)
    lb a4, 7(REG)
    lbu a5, 7(REG)
    lw a6, 4(REG)
    add s3, s3, a1
    xor s4, s4, a2
    add s5, s5, a3
    xor s6, s6, a4
    add s7, s7, a5
    xor s8, s8, a6
    addi t0, t0, -1
    bnez t0, .Lloop
    sw s3, 0(s1)
    sw s4, 4(s1)
    sw s5, 8(s1)
    sw s6, 12(s1)
    sw s7, 16(s1)
    sw s8, 20(s1)
    endprg x0, x0, x0
)";
  for (size_t at = kernel.find("REG"); at != std::string::npos; at = kernel.find("REG"))
    kernel.replace(at, 3, reg);
  return kernel;
}

TEST(Jit, ScalarAccessesMatchTheInterpreter) {
  struct Case {
    std::string set_s0;
    int32_t offset;
    bool faults;
    Loader loader;
    const char* what;
    const char* reg = "a0";
  };
  const std::string out = "    li s0, " + std::to_string(kOut + 2048);
  const std::string local = "    li s0, " + std::to_string(sim::kLdsWindowBase + 512);
  // The warp's stack (launch.warp_stack_bytes = 256 from CSR_LDS on).
  const std::string stack = R"(    csrr s0, CSR_LDS
    csrr t3, wid
    slli t3, t3, 8
    add s0, s0, t3)";
  const int32_t to_code = static_cast<int32_t>(sim::kCodeBase - (kOut + 2048));
  const Case cases[] = {
      {out, 0, false, &load_assembly, "global memory"},
      {out, 4096 - 4, false, &load_assembly, "global memory, the next page"},
      {out, kOutBytes, true, &load_assembly, "unmapped"},
      {out, -4096, true, &load_assembly, "below the mapped buffer"},
      {out, 2, true, &load_assembly, "a misaligned word"},
      {out, 1, true, &load_assembly, "a misaligned word and halfword"},
      {local, 256, false, &load_assembly, "local memory"},
      {out, static_cast<int32_t>(64 - (kOut + 2048)), true, &load_assembly, "the null window"},
      {out, to_code, true, &load_protected_assembly, "read-only code"},
      // Written: the second workgroup (SM 1 decodes afresh) meets an illegal instruction.
      {out, to_code, true, &load_assembly, "writable code"},
      {stack, 0, false, &load_assembly, "sp in the stack", "sp"},
      {stack, 248, false, &load_assembly, "sp at the stack's end", "sp"},
      {stack, 252, true, &load_assembly, "sp past the stack's end", "sp"},
      {stack, -8, true, &load_assembly, "sp below the stack", "sp"},
      {stack, 252, false, &load_assembly, "a0 past the stack's end (not checked)"},
  };
  sim::KernelLaunch launch = launch_of(2, 32, 2);
  launch.warp_stack_bytes = 256;
  for (const Case& c : cases) {
    const std::string kernel = scalar_access_kernel(c.set_s0, c.offset, c.reg);
    const Outcome off = run(kernel, c.loader, launch, sim::JitMode::Off);
    EXPECT_EQ(off.result.fault.has_value(), c.faults) << c.what << ": " << fault_text(off.result);
    EXPECT_GT(expect_same(kernel, c.loader, launch, c.what), 0u) << c.what;
  }
}

// ---- Register-extended instructions (regext before them: v32 and up, x32 and up) ----

// matmul_tiled's inner loop as ventus cc emits it: its loads, stores and multiply-adds name
// v32 and up, so each has a regext prefix, and they are inlined like the unprefixed rows. Lane
// i of warp w adds 3 to its word out[64 w + i] in each of 3 rounds and stores a multiply-add
// of the loaded and added words after it; in each round an auipc after a prefix reads its own
// pc, 8 bytes after the auipc before it. Run with one warp of 32 lanes and two of 30.
const char* const kExtendedKernel = R"(
    li s0, 0x90000000
    csrr t6, wid
    slli t6, t6, 8
    add s0, s0, t6
    vid.v v1
    vsll.vi v40, v1, 2
    vadd.vx v40, v40, s0
    li t0, 3
    vmul.vx v41, v1, t0
    vadd.vi v41, v41, 1
    vsw12.v v41, 0(v40)
    li t0, 3
.Lrounds:
    vlw12.v v41, 0(v40)
    vadd.vi v42, v41, 3
    vfmacc.vv v43, v41, v42
    vfadd.vv v44, v43, v42
    vsw12.v v42, 0(v40)
    vsw12.v v44, 128(v40)
    auipc t1, 0
    auipc x40, 0
    sub t2, x40, t1
    sw t2, 0x400(s0)
    addi t0, t0, -1
    bnez t0, .Lrounds
    endprg x0, x0, x0
)";

TEST(Jit, RegisterExtendedRowsMatchTheInterpreter) {
  for (const uint32_t threads : {32u, 30u}) {
    const sim::KernelLaunch launch = launch_of(2, threads, 2);
    const std::string what = std::to_string(threads) + " threads per warp";
    EXPECT_GT(expect_same(kExtendedKernel, &load_assembly, launch, what), 0u) << what;
    const Outcome forced = run(kExtendedKernel, &load_assembly, launch, sim::JitMode::Force);
    ASSERT_FALSE(forced.result.fault) << fault_text(forced.result);
    for (uint32_t warp = 0; warp < 2; ++warp) {
      for (uint32_t lane = 0; lane < threads; ++lane)
        EXPECT_EQ(forced.memory[64 * warp + lane], 3 * lane + 1 + 9) << what << ", lane " << lane;
      EXPECT_EQ(forced.memory[64 * warp + 0x400 / 4], 8u) << what;
    }
  }
}

// The decode cache folds the regext before a row into it; the rows the test above runs are
// then inlined, as they are without a prefix.
TEST(Jit, RegisterExtendedRowsAreInlined) {
  // regext 9; vlw12.v v41, 0(v40) | regext 585; vfmacc.vv v40, v41, v42 |
  // regext 72; vsw12.v v41, 4(v40)  (as `ventus as` writes them)
  const uint32_t code[] = {0x0090200b, 0x000424fb, 0x2490200b, 0xb2a49457, 0x0480200b, 0x0094627b};
  sim::Memory memory;
  memory.map(sim::kCodeBase, 4096);
  ASSERT_TRUE(memory.write(sim::kCodeBase, code, sizeof code));
  sim::DecodeCache cache(memory);
  cache.begin_launch(32);
  for (uint32_t at = 0; at < sizeof code; at += 8) {
    const sim::CachedInsn& entry = cache.at(sim::kCodeBase + at);
    EXPECT_TRUE(entry.prefixed) << at;
    EXPECT_GE(entry.insn.rs1, 32u) << at;
    EXPECT_TRUE(jit::is_inlined(entry) || !__builtin_cpu_supports("fma")) << at;
  }
}

// Every CSR a warp reads (the inlined per-warp fields, the computed and constant ones), in a
// translated loop that changes vl, vtype, fflags, frm and CSR_RPC between reads; the reads
// are summed per CSR and stored. An unknown CSR's read faults at its pc.
TEST(Jit, CsrReadsMatchTheInterpreter) {
  std::string reads;
  int slot = 0;
  for (const char* csr :
       {"fflags",   "frm",      "fcsr",     "vstart",    "vxsat",   "vxrm",    "vcsr",
        "mstatus",  "mtvec",    "mscratch", "vl",        "vtype",   "vlenb",   "CSR_TID",
        "CSR_NUMW", "CSR_NUMT", "CSR_KNL",  "CSR_WGID",  "CSR_WID", "CSR_LDS", "CSR_PDS",
        "CSR_GIDX", "CSR_GIDY", "CSR_GIDZ", "CSR_PRINT", "CSR_RPC", "CSR_GDS", "0x810",
        "0x811",    "0x812",    "0x813"}) {
    const std::string at = std::to_string(4 * slot++);
    reads += "    csrr a1, " + std::string(csr) + "\n    lw a2, " + at +
             "(s1)\n    add a2, a2, a1\n    sw a2, " + at + "(s1)\n";
  }
  const std::string kernel = R"(
    li s1, 0x90000000
    csrr t3, wid
    slli t3, t3, 8
    add s1, s1, t3
    li t0, 3
.Lloop:
    addi t5, t0, 1
    vsetvli t4, t5, e32, m1
    csrw fflags, t0
    csrw frm, t0
    csrw mscratch, t5
    setrpc zero, t5, 16
)" + reads + R"(
    addi t0, t0, -1
    bnez t0, .Lloop
    li t5, 32
    vsetvli t4, t5, e32, m1
    csrr a1, 0x7ff
    endprg x0, x0, x0
)";
  const Outcome off = run(kernel, &load_assembly, launch_of(2, 32, 3), sim::JitMode::Off);
  ASSERT_TRUE(off.result.fault);
  EXPECT_NE(off.result.fault->message.find("does not exist"), std::string::npos)
      << fault_text(off.result);
  EXPECT_NE(off.memory[1 + 64 * 0], 0u);  // frm, summed over the rounds
  EXPECT_GT(expect_same(kernel, &load_assembly, launch_of(2, 32, 3), "CSR reads"), 0u);
}

// Every form of CSR write (csrrw, csrrs, csrrc and their immediate forms) of each CSR that takes
// the value as it is, inlined in a translated loop: per round and CSR, the old values that the
// writes return and the final value are summed and stored. The operands' bits overlap the
// CSR's, so that setting and clearing differ from other bit operations.
TEST(Jit, CsrWritesMatchTheInterpreter) {
  const char* const csrs[] = {"mstatus", "mtvec", "mscratch", "CSR_RPC", "CSR_GDS"};
  std::string writes;
  int slot = 0;
  for (const char* csr : csrs) {
    const std::string at = std::to_string(4 * slot++), c = csr;
    writes += "    csrrw a1, " + c + ", t0\n    csrrs a2, " + c + ", t5\n    csrrc a3, " + c +
              ", t0\n    csrrwi a4, " + c + ", 5\n    csrrsi a5, " + c + ", 7\n    csrrci a6, " +
              c + ", 3\n    csrr a7, " + c + "\n    lw t2, " + at +
              "(s1)\n    add t2, t2, a1\n    add t2, t2, a2\n    add t2, t2, a3\n"
              "    add t2, t2, a4\n    add t2, t2, a5\n    add t2, t2, a6\n    add t2, t2, a7\n"
              "    sw t2, " +
              at + "(s1)\n";
  }
  const std::string kernel = R"(
    li s1, 0x90000000
    csrr t3, wid
    slli t3, t3, 8
    add s1, s1, t3
    li t0, 3
.Lloop:
    add t5, t0, t0
    add t5, t5, t0
)" + writes + R"(
    addi t0, t0, -1
    bnez t0, .Lloop
    endprg x0, x0, x0
)";
  const sim::KernelLaunch launch = launch_of(2, 32);
  EXPECT_GT(expect_same(kernel, &load_assembly, launch, "CSR writes"), 0u);
  const Outcome forced = run(kernel, &load_assembly, launch, sim::JitMode::Force);
  ASSERT_FALSE(forced.result.fault) << fault_text(forced.result);
  uint32_t expected = 0, value = 0;  // every CSR starts at 0
  for (uint32_t t = 3; t > 0; --t) {
    const uint32_t olds[] = {value, t, t | 3 * t, (t | 3 * t) & ~t, 5, 7};
    for (const uint32_t old : olds) expected += old;
    value = 7 & ~3u;
    expected += value;  // csrr
  }
  for (uint32_t warp = 0; warp < 2; ++warp)
    for (size_t k = 0; k < std::size(csrs); ++k)
      EXPECT_EQ(forced.memory[64 * warp + k], expected) << csrs[k] << ", warp " << warp;
  // Translated inline, not through the semantics.
  EXPECT_EQ(expect_inlined(kernel, 32, &jit::is_csr_write), 6 * std::size(csrs));
}

// ---- One set of translations per device ----

// The code section of a program loaded with load_program, made read-only as the driver makes
// a program's code.
elf::Section load_protected(sim::Device& device, const std::string& source) {
  elf::Image image;
  load_program(device, source, &image);
  for (const elf::Section& s : image.sections)
    if (s.name == ".text") {
      device.memory().protect(s.address, s.size, s.name);
      return s;
    }
  ADD_FAILURE() << "no .text section";
  return {};
}

void load_protected_assembly(sim::Device& device, const std::string& source) {
  load_protected(device, source);
}

// Every workgroup slot and host thread runs the same blocks: a launch of 16 workgroups (16
// slots) on 2 host threads translates about what a launch of one workgroup does, and a
// second launch of the unchanged (read-only) code almost nothing. (Not exactly: a block whose
// code no warp had decoded entirely when it asked for it is translated at a later launch,
// where the code is decoded; what is decoded when depends on where turns end.) Translations
// per slot would be 16 times as many.
TEST(Jit, SlotsAndHostThreadsShareTheTranslations) {
  const auto translations = [](uint32_t groups, unsigned host_threads, int launches) {
    sim::DeviceConfig config;
    config.host_threads = host_threads;
    sim::Device device(config);
    device.memory().map(kOut, kOutBytes);
    load_protected(device, kAluKernel);
    sim::RunOptions options;
    options.jit = sim::JitMode::Force;
    std::vector<uint64_t> counts;
    for (int i = 0; i < launches; ++i) {
      const uint64_t before = jit::blocks_translated_in_process();
      const sim::LaunchResult r = device.run(launch_of(2, 32, groups), options);
      EXPECT_FALSE(r.fault) << fault_text(r);
      counts.push_back(jit::blocks_translated_in_process() - before);
    }
    return counts;
  };
  const std::vector<uint64_t> one = translations(1, 1, 1);
  ASSERT_GT(one[0], 0u);
  const std::vector<uint64_t> many = translations(16, 2, 2);
  EXPECT_LT(many[0], 2 * one[0]);
  EXPECT_LE(4 * many[1], one[0]);
}

// With `on`, a block is translated once it has started often enough over the device's
// launches, not within one: a program of many short launches (a sort's passes) gets its hot
// blocks translated. kAluKernel starts `body` 3 times per launch of one warp, far below the
// threshold, so a count kept for one launch only would never get there.
TEST(Jit, ManyShortLaunchesGetTheirBlocksTranslated) {
  sim::Device device{sim::DeviceConfig{}};
  device.memory().map(kOut, kOutBytes);
  load_protected(device, kAluKernel);
  sim::RunOptions options;
  options.jit = sim::JitMode::On;
  const uint64_t before = jit::blocks_translated_in_process();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  int launches = 0;
  while (jit::blocks_translated_in_process() == before &&
         std::chrono::steady_clock::now() < deadline) {
    const sim::LaunchResult r = device.run(launch_of(1, 32), options);
    ASSERT_FALSE(r.fault) << fault_text(r);
    ++launches;
  }
  EXPECT_GT(jit::blocks_translated_in_process(), before) << launches << " launches";
}

// An SM keeps the blocks, refusals and compiles it was given from launch to launch while the
// translator and its decoded code stay as they were (Sm::start), and asks again after a launch
// that did not translate. Launches of read-only code in every mode, in turn on one device,
// leave what a device that only interprets leaves, decodes and counts included.
TEST(Jit, BlocksKeptFromLaunchToLaunchGiveTheInterpretersResults) {
  sim::Device interpreter{sim::DeviceConfig{}}, device{sim::DeviceConfig{}};
  for (sim::Device* d : {&interpreter, &device}) {
    d->memory().map(kOut, kOutBytes);
    load_protected(*d, kAluKernel);
  }
  const auto launch = [](sim::Device& d, sim::JitMode mode) {
    const std::vector<uint8_t> zeros(kOutBytes);
    EXPECT_TRUE(d.memory().write(kOut, zeros.data(), zeros.size()));
    sim::RunOptions options;
    options.jit = mode;
    Outcome o;
    o.result = d.run(launch_of(4, 32), options);
    o.memory = read_words(d, kOut, kOutBytes / 4);
    return o;
  };
  constexpr sim::JitMode kModes[] = {sim::JitMode::On,  sim::JitMode::On, sim::JitMode::Force,
                                     sim::JitMode::Off, sim::JitMode::On, sim::JitMode::ForceQuick};
  const uint64_t before = jit::blocks_translated_in_process();
  for (int k = 0; k < 60; ++k) {
    const Outcome off = launch(interpreter, sim::JitMode::Off);
    ASSERT_FALSE(off.result.fault) << fault_text(off.result);
    expect_same_outcome(off, launch(device, kModes[k % 6]), "launch " + std::to_string(k));
    if (HasFailure()) return;
  }
  EXPECT_GT(jit::blocks_translated_in_process(), before);
}

// With `on`, blocks are first compiled quickly (Tier::Quick), and those that stay hot are
// compiled again (Tier::Optimized) while warps may be running their first code: every launch,
// before, while and after the new code replaces the old, leaves what the interpreter leaves
// (here also computed on the host). 8 warps loop over their part of the output; launched until
// a block was compiled again, and then a few more times.
TEST(Jit, HotBlocksCompiledAgainGiveTheSameResults) {
  const char* const kernel = R"(
    li s0, 0x90000000
    csrr t6, wid
    slli t6, t6, 9
    add s0, s0, t6
    vid.v v1
    vsll.vi v2, v1, 2
    vadd.vx v2, v2, s0
    li t0, 300
    li t1, 0
.Lloop:
    vlw12.v v3, 0(v2)
    vadd.vx v3, v3, t0
    vmul.vv v4, v3, v1
    vxor.vv v3, v3, v4
    vsw12.v v3, 0(v2)
    addi t1, t1, 1
    addi t0, t0, -1
    bnez t0, .Lloop
    sw t1, 128(s0)
    endprg x0, x0, x0
)";
  constexpr uint32_t kWarps = 8;
  std::vector<uint32_t> expected(kOutBytes / 4);
  for (uint32_t warp = 0; warp < kWarps; ++warp) {
    for (uint32_t lane = 0; lane < 32; ++lane) {
      uint32_t x = 0;
      for (uint32_t step = 300; step > 0; --step) {
        x += step;
        x ^= x * lane;
      }
      expected[warp * 128 + lane] = x;
    }
    expected[warp * 128 + 32] = 300;
  }
  const auto launch = [&](sim::Device& device, sim::JitMode mode) {
    const std::vector<uint8_t> zeros(kOutBytes);
    EXPECT_TRUE(device.memory().write(kOut, zeros.data(), zeros.size()));
    sim::RunOptions options;
    options.jit = mode;
    Outcome o;
    o.result = device.run(launch_of(kWarps, 32), options);
    o.memory = read_words(device, kOut, kOutBytes / 4);
    return o;
  };
  // Launched alike (a launch decodes only what earlier ones did not).
  sim::Device interpreter{sim::DeviceConfig{}}, device{sim::DeviceConfig{}};
  for (sim::Device* d : {&interpreter, &device}) {
    d->memory().map(kOut, kOutBytes);
    load_protected(*d, kernel);
  }
  const uint64_t before = jit::blocks_tiered_up_in_process();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  int after_tier_up = 0;
  for (int k = 0; after_tier_up < 3 && std::chrono::steady_clock::now() < deadline; ++k) {
    const Outcome off = launch(interpreter, sim::JitMode::Off);
    ASSERT_FALSE(off.result.fault) << fault_text(off.result);
    ASSERT_TRUE(off.memory == expected);
    expect_same_outcome(off, launch(device, sim::JitMode::On), "launch " + std::to_string(k));
    if (HasFailure()) return;
    after_tier_up += jit::blocks_tiered_up_in_process() > before;
  }
  EXPECT_EQ(after_tier_up, 3) << "no block was compiled again";
}

// A program loaded again with the same words (as the OpenCL platform loads a program built
// again) makes a new read-only generation, but its translations stay: the next launch
// translates nothing and gives the same results. (RewrittenCodeIsTranslatedAfresh checks
// that changed words are translated afresh.)
TEST(Jit, TheSameCodeLoadedAgainKeepsItsTranslations) {
  sim::Device device{sim::DeviceConfig{}};
  device.memory().map(kOut, kOutBytes);
  load_protected(device, kAluKernel);
  sim::RunOptions options;
  options.jit = sim::JitMode::Force;
  // Until a launch translates nothing new (a block asked for before all of it was decoded is
  // translated at a later launch).
  for (int launch = 0; launch < 5; ++launch) {
    const uint64_t before = jit::blocks_translated_in_process();
    ASSERT_FALSE(device.run(launch_of(2, 32), options).fault);
    if (jit::blocks_translated_in_process() == before) break;
  }
  const std::vector<uint32_t> results = read_words(device, kOut, kOutBytes / 4);
  const uint64_t generation = device.memory().read_only_generation();
  load_protected(device, kAluKernel);
  ASSERT_NE(device.memory().read_only_generation(), generation);
  const std::vector<uint8_t> zeros(kOutBytes);
  ASSERT_TRUE(device.memory().write(kOut, zeros.data(), zeros.size()));
  const uint64_t before = jit::blocks_translated_in_process();
  ASSERT_FALSE(device.run(launch_of(2, 32), options).fault);
  EXPECT_EQ(jit::blocks_translated_in_process(), before);
  EXPECT_TRUE(read_words(device, kOut, kOutBytes / 4) == results);
}

// Code the host rewrites between launches runs as written, in read-only memory (a new
// read-only generation) and in writable memory: a stale translation would give 24.
TEST(Jit, RewrittenCodeIsTranslatedAfresh) {
  const char* const kernel = R"(
    li s0, 0x90000000
    li t0, 5
    addi t0, t0, 7
    add t1, t0, t0
    sw t1, 0(s0)
    endprg x0, x0, x0
)";
  constexpr uint32_t kAddi7 = 0x00728293, kAddi9 = 0x00928293;  // addi t0, t0, 7 / 9
  for (const bool read_only : {true, false}) {
    for (const sim::JitMode mode : {sim::JitMode::Off, sim::JitMode::Force}) {
      sim::Device device{sim::DeviceConfig{}};
      device.memory().map(kOut, kOutBytes);
      elf::Image image;
      load_program(device, kernel, &image);
      const auto text = std::find_if(image.sections.begin(), image.sections.end(),
                                     [](const elf::Section& s) { return s.name == ".text"; });
      ASSERT_NE(text, image.sections.end());
      if (read_only) device.memory().protect(text->address, text->size, ".text");
      sim::RunOptions options;
      options.jit = mode;
      ASSERT_FALSE(device.run(launch_of(2, 32), options).fault);
      EXPECT_EQ(read_words(device, kOut, 1)[0], 24u);
      uint32_t at = text->address;
      for (uint32_t word = 0; device.memory().read(at, &word, 4) && word != kAddi7;) at += 4;
      ASSERT_TRUE(device.memory().write(at, &kAddi9, 4));
      const uint64_t before = jit::blocks_translated_in_process();
      ASSERT_FALSE(device.run(launch_of(2, 32), options).fault);
      const std::string what = std::string(read_only ? "read-only" : "writable") + " code, mode " +
                               std::to_string(static_cast<int>(mode));
      EXPECT_EQ(read_words(device, kOut, 1)[0], 28u) << what;
      // The second warp runs the block translated from the rewritten code.
      if (mode == sim::JitMode::Force) {
        EXPECT_GT(jit::blocks_translated_in_process(), before) << what;
      }
    }
  }
}

// A loop in writable code, rewritten by the host between launches, with translation on: its
// block is queued for the compile thread at its 200th start of 2100 and may still be queued
// or compiling when the next launch begins and drops it (the code being writable). A compile
// of the old code that ends later must not run (it would add the old step) nor find its
// launch's bookkeeping gone.
TEST(Jit, BackgroundCompilesOfRewrittenCodeAreDiscarded) {
  const char* const kernel = R"(
    li s0, 0x90000000
    li t0, 2100
    li t1, 0
.Lloop:
    addi t1, t1, 3
    xor t2, t2, t1
    vadd.vx v1, v1, t1
    addi t0, t0, -1
    bnez t0, .Lloop
    sw t1, 0(s0)
    endprg x0, x0, x0
)";
  constexpr uint32_t kAddi3 = 0x00330313;  // addi t1, t1, 3; the step sits in bits 20..31
  sim::Device device{sim::DeviceConfig{}};
  device.memory().map(kOut, kOutBytes);
  elf::Image image;
  load_program(device, kernel, &image);
  const auto text = std::find_if(image.sections.begin(), image.sections.end(),
                                 [](const elf::Section& s) { return s.name == ".text"; });
  ASSERT_NE(text, image.sections.end());
  uint32_t at = text->address;
  for (uint32_t word = 0; device.memory().read(at, &word, 4) && word != kAddi3;) at += 4;
  sim::RunOptions options;
  options.jit = sim::JitMode::On;
  const uint64_t before = jit::blocks_translated_in_process();
  for (uint32_t launch = 0; launch < 12; ++launch) {
    const uint32_t step = 3 + launch % 5;
    const uint32_t addi = (kAddi3 & 0xfffff) | step << 20;
    ASSERT_TRUE(device.memory().write(at, &addi, 4));
    ASSERT_FALSE(device.run(launch_of(1, 32), options).fault);
    EXPECT_EQ(read_words(device, kOut, 1)[0], 2100 * step) << "launch " << launch;
    // Give the compile thread 0 to 6 ms: the next launch then finds the block queued,
    // compiling or compiled.
    std::this_thread::sleep_for(std::chrono::milliseconds(2 * (launch % 4)));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_GT(jit::blocks_translated_in_process(), before);  // compiles did start
}

}  // namespace
}  // namespace ventus::test
