// Properties of the instruction table itself.
#include <gtest/gtest.h>

#include <vector>

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

// Every register field of every 64-bit row lands in the Decoded member of its kind (vd ->
// rd, vs1 -> rs1, vs2 -> rs2, vs3 -> rs3), independently of the other fields.
TEST(InstructionTable, SixtyFourBitRegisterFieldsDecodeByKind) {
  int fields = 0;
  for (const InsnInfo& r : instructions()) {
    if (r.length != 8) continue;
    uint64_t word = r.match;
    unsigned next = 11;
    std::vector<std::pair<OperandKind, unsigned>> expected;
    for (const OperandSlot& s : r.operands)
      if (is_register_kind(s.kind)) {
        const unsigned value = next++ & ((1u << s.width) - 1);
        word = set_operand(word, s, value);
        expected.push_back({s.kind, value});
      }
    const auto d = decode(word);
    ASSERT_TRUE(d) << r.mnemonic;
    for (auto [kind, value] : expected) {
      ++fields;
      const unsigned got = kind == OperandKind::Vd || kind == OperandKind::Rd ? d->rd
                           : kind == OperandKind::Vs1 || kind == OperandKind::Rs1 ? d->rs1
                           : kind == OperandKind::Vs2 || kind == OperandKind::Rs2 ? d->rs2
                                                                                  : d->rs3;
      EXPECT_EQ(got, value) << r.mnemonic << " kind " << static_cast<int>(kind);
    }
  }
  EXPECT_GT(fields, 0);
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

// Words of the public compiler's code and the hardware team's kernels that the guide does
// not describe (docs/isa.md), printed as the public toolchain prints them.
TEST(InstructionTable, PublicToolchainWordsPrintAsItDoes) {
  EXPECT_EQ(decode_op(0xf00383d3), Op::FMV_W_X);
  EXPECT_EQ(print_instruction(0xf00383d3, 0)->text(), "fmv.w.x t2, t2");
  EXPECT_EQ(decode_op(0xe0058553), Op::FMV_X_W);
  EXPECT_EQ(print_instruction(0xe0058553, 0)->text(), "fmv.x.w a0, a1");
  // .insn r 0x57, 0x1, 0x25, v1, v8, v2 (half -> float) and v3, v9, v4 (float -> half)
  EXPECT_EQ(decode_op(0x4a2410d7), Op::VFCVT_F_H_V);
  EXPECT_EQ(print_instruction(0x4a2410d7, 0)->text(), "vfwcvt.xu.f.v v1, v2");
  EXPECT_EQ(decode_op(0x4a4491d7), Op::VFCVT_H_F_V);
  EXPECT_EQ(print_instruction(0x4a4491d7, 0)->text(), "vfwcvt.x.f.v v3, v4");
  EXPECT_EQ(print_instruction(0x0a40610b, 0)->text(), "vfexp v2, v4");
}

// The asynchronous-copy rows (0x2b, funct3 6 and 7; docs/isa.md "Asynchronous copies"), with
// the words computed by hand from the field table, and the neighbouring words that are not
// instructions.
TEST(InstructionTable, AsyncCopyEncodings) {
  const struct {
    uint32_t word;
    Op op;
    const char* text;
  } rows[] = {
      {0x0020e1ab, Op::CP_DMA_4, "cp_dma.4 v3, v1, v2"},
      {0x0220e1ab, Op::CP_DMA_8, "cp_dma.8 v3, v1, v2"},
      {0x0420e1ab, Op::CP_DMA_16, "cp_dma.16 v3, v1, v2"},
      {0x50c5f02b, Op::CP_DMA_BULK, "cp_dma_bulk a0, a1, a2"},
      {0x92a4702b, Op::CP_DMA_TENSOR, "cp_dma_tensor s2, v8, v10"},
      {0x0400702b, Op::CP_DMA_MBARRIER, "cp_dma_mbarrier"},
  };
  for (const auto& r : rows) {
    EXPECT_EQ(decode_op(r.word), r.op) << std::hex << r.word;
    EXPECT_EQ(print_instruction(r.word, 0)->text(), r.text);
  }
  // copysize code 3; [31:27] set on cp_dma; selector 3; rd field or rs1 field on the
  // funct3 = 7 rows.
  for (uint32_t word : {0x0620e1abu, 0x0820e1abu, 0x0600702bu, 0x0400712bu, 0x0400f02bu,
                        0x50c5f0abu})
    EXPECT_FALSE(decode_op(word).has_value()) << std::hex << word;
}
