// The back end's machine instructions against the instruction table: which operands an
// instruction reads and writes comes from the table's operand roles (the register
// allocator's liveness depends on it), the pseudo-instructions are aliases the table and
// the assembler know, and the printed text is the table's.
#include <gtest/gtest.h>

#include <algorithm>

#include "mir.h"
#include "ventus/asm.h"
#include "ventus/error.h"
#include "ventus/isa.h"

namespace {

using namespace ventus::cc::backend;
namespace isa = ventus::isa;

Operand reg(uint32_t r) {
  return Operand::reg_of(r);
}

TEST(BackendMir, DestinationIsWrittenSourcesAreRead) {
  const MInst add =
      make_inst(isa::Op::ADD, {reg(kFirstVirtual), reg(kFirstVirtual + 1), reg(kFirstVirtual + 2)});
  EXPECT_TRUE(add.ops[0].def);
  EXPECT_FALSE(add.ops[0].use);
  for (int i : {1, 2}) {
    EXPECT_TRUE(add.ops[i].use) << i;
    EXPECT_FALSE(add.ops[i].def) << i;
  }
}

// The multiply-accumulate rows read their destination (the addend): were it only a def,
// the allocator would let the addend's register be reused before the instruction.
TEST(BackendMir, AccumulatorIsReadAndWritten) {
  for (isa::Op op :
       {isa::Op::VFMACC_VF, isa::Op::VFMACC_VV, isa::Op::VFNMSAC_VV, isa::Op::VMACC_VX}) {
    const MInst mac =
        make_inst(op, {reg(kFirstVirtual), reg(kFirstVirtual + 1), reg(kFirstVirtual + 2)});
    EXPECT_TRUE(mac.ops[0].def && mac.ops[0].use) << isa::info(op).mnemonic;
    EXPECT_FALSE(mac.ops[1].def) << isa::info(op).mnemonic;
  }
}

TEST(BackendMir, StoresWriteNoRegister) {
  for (isa::Op op : {isa::Op::SW, isa::Op::VSW_V, isa::Op::VSW12_V}) {
    const MInst store =
        make_inst(op, {reg(kFirstVirtual), Operand::immediate(8), reg(kFirstVirtual + 1)});
    for (const Operand& o : store.ops) EXPECT_FALSE(o.def) << isa::info(op).mnemonic;
    EXPECT_TRUE(store.ops[0].use && store.ops[2].use) << isa::info(op).mnemonic;
  }
}

TEST(BackendMir, MoreOperandsThanTheRowHasIsAnError) {
  EXPECT_THROW(make_inst(isa::Op::ADD, {reg(1), reg(2), reg(3), reg(4)}), ventus::Error);
}

// Every alias pseudo-instruction names an alias of the table that the assembler reads:
// a misspelt name fails here, not when some kernel happens to need it.
TEST(BackendMir, AliasPseudoInstructionsAreKnownToTheTableAndTheAssembler) {
  const std::vector<std::string_view> assembler = ventus::assembler::pseudo_mnemonics();
  for (Pseudo p :
       {Pseudo::Li, Pseudo::Mv, Pseudo::Neg, Pseudo::Seqz, Pseudo::Snez, Pseudo::Beqz, Pseudo::Bnez,
        Pseudo::J, Pseudo::Ret, Pseudo::Csrr, Pseudo::Fence, Pseudo::Unimp, Pseudo::La}) {
    const std::string_view name = pseudo_mnemonic(p);
    ASSERT_FALSE(name.empty()) << static_cast<int>(p);
    EXPECT_NO_THROW(make_inst(p, {})) << name;
    const bool assembles = std::find(assembler.begin(), assembler.end(), name) != assembler.end() ||
                           isa::find_mnemonic(name) != nullptr;
    EXPECT_TRUE(assembles) << name;
    if (p != Pseudo::La) {
      const auto aliases = isa::aliases();
      EXPECT_TRUE(std::any_of(aliases.begin(), aliases.end(), [&](const isa::Alias& a) {
        return a.mnemonic == name;
      })) << name;
    }
  }
}

// An alias operand has the role of the row slot it fills: mv rd, rs is addi rd, rs, 0.
TEST(BackendMir, AliasOperandsTakeTheRolesOfTheirRowSlots) {
  const MInst mv = make_inst(Pseudo::Mv, {reg(kFirstVirtual), reg(kFirstVirtual + 1)});
  EXPECT_TRUE(mv.ops[0].def && !mv.ops[0].use);
  EXPECT_TRUE(mv.ops[1].use && !mv.ops[1].def);
  const MInst bnez = make_inst(Pseudo::Bnez, {reg(kFirstVirtual), Operand::label(".L1")});
  EXPECT_TRUE(bnez.ops[0].use && !bnez.ops[0].def);
  const MInst csrr = make_inst(Pseudo::Csrr, {reg(kFirstVirtual), Operand::csr(0x800)});
  EXPECT_TRUE(csrr.ops[0].def && !csrr.ops[0].use);
}

TEST(BackendMir, AtomicResultsAndTemporariesAreEarlyClobber) {
  std::vector<Operand> ops;
  for (uint32_t k = 0; k < 9; ++k) ops.push_back(reg(kFirstVirtual + k));
  const MInst atomic = make_inst(Pseudo::Atomic, ops);
  for (size_t k = 0; k < 9; ++k) {
    const bool def = k == 0 || k >= 4;
    EXPECT_EQ(atomic.ops[k].def, def) << k;
    EXPECT_EQ(atomic.ops[k].use, !def) << k;
    EXPECT_EQ(atomic.ops[k].early_clobber, def) << k;
  }
}

}  // namespace
