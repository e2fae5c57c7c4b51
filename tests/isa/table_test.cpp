// Properties of the instruction table itself.
#include <gtest/gtest.h>

#include "ventus/disasm.h"
#include "ventus/isa.h"

using namespace ventus::isa;

// Two rows overlap when some word matches both: their fixed bits agree wherever both
// masks fix them. Checked exactly for every pair.
TEST(InstructionTable, NoTwoRowsOverlap) {
  const auto rows = instructions();
  for (size_t i = 0; i < rows.size(); ++i)
    for (size_t j = i + 1; j < rows.size(); ++j) {
      // A 32-bit row's MASK covers the low word only; its low 7 bits already keep it apart
      // from every 64-bit row (0x3f is a length encoding, never a 32-bit opcode).
      const uint64_t common = rows[i].mask & rows[j].mask;
      EXPECT_NE((rows[i].match ^ rows[j].match) & common, 0u)
          << rows[i].mnemonic << " overlaps " << rows[j].mnemonic;
    }
}

TEST(InstructionTable, MatchBitsLieInsideMask) {
  for (const InsnInfo& r : instructions()) EXPECT_EQ(r.match & ~r.mask, 0u) << r.mnemonic;
}

TEST(InstructionTable, MnemonicsAreUnique) {
  for (const InsnInfo& r : instructions()) EXPECT_EQ(find_mnemonic(r.mnemonic), &r) << r.mnemonic;
}

// An operand field is either wholly free or wholly fixed by the row (regext's rd/rs1 are
// printed but always zero); a partly fixed field would make encoding ambiguous.
TEST(InstructionTable, OperandFieldsAreFreeOrFixed) {
  for (const InsnInfo& r : instructions())
    for (const OperandSlot& s : r.operands) {
      const uint64_t field = set_operand(uint64_t{0}, s, -1);
      const uint64_t fixed = field & r.mask;
      EXPECT_TRUE(fixed == 0 || fixed == field) << r.mnemonic << " operand field " << std::hex << field;
    }
}

TEST(InstructionTable, KnownEncodingsDecode) {
  EXPECT_EQ(decode_op(0x0000400b), Op::ENDPRG);
  EXPECT_EQ(decode_op(0x0402400b), Op::BARRIER);
  EXPECT_EQ(decode_op(0x0602400b), Op::BARRIERSUB);
  EXPECT_EQ(decode_op(0x0040008b), Op::VADD12_VI);
  EXPECT_EQ(decode_op(0x0060e27b), Op::VSW12_V);
  EXPECT_EQ(decode_op(0x8060a22b), Op::VSW_V);
  EXPECT_EQ(print_instruction(0x0402400b, 0)->text(), "barrier x0, x0, 4");
  EXPECT_EQ(print_instruction(0x0060e27b, 0)->text(), "vsw12.v v6, 4(v1)");
  EXPECT_EQ(print_instruction(0x8060a22b, 0)->text(), "vsw.v v6, 4(v1)");
  EXPECT_EQ(print_instruction(0x1002305b, 0)->text(), "setrpc zero, tp, 256");
}
