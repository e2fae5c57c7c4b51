// docs/isa-table.md is generated from the table; these tests keep it current and check the
// groups and syntax strings the generator derives.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "ventus/isa_table.h"

using namespace ventus::isa;

TEST(IsaTableDoc, CheckedInMarkdownIsCurrent) {
  const std::string path = std::string(VENTUS_SOURCE_DIR) + "/docs/isa-table.md";
  std::ifstream in(path);
  ASSERT_TRUE(in) << "cannot read " << path;
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_TRUE(text.str() == table_markdown())
      << "docs/isa-table.md differs from the instruction table; regenerate it with\n"
         "  ventus isa --markdown > docs/isa-table.md";
}

// One line per row in both forms (plus the header lines), and every mnemonic appears.
TEST(IsaTableDoc, EveryRowIsPrinted) {
  const std::string text = table_text(), markdown = table_markdown();
  EXPECT_EQ(static_cast<size_t>(std::count(text.begin(), text.end(), '\n')),
            instructions().size() + 1);
  for (const InsnInfo& r : instructions()) {
    EXPECT_NE(markdown.find("| `" + std::string(r.mnemonic) + "` |"), std::string::npos)
        << r.mnemonic;
    EXPECT_NE(text.find(fmt::format("0x{:0{}x}  0x{:0{}x}", r.match, 2 * r.length, r.mask, 2 * r.length)), std::string::npos)
        << r.mnemonic;
  }
}

TEST(IsaTableDoc, ExtensionGroups) {
  const auto group = [](Op op) { return std::string(extension_group(info(op))); };
  EXPECT_EQ(group(Op::ADDI), "RV32I");
  EXPECT_EQ(group(Op::FENCE), "RV32I");
  EXPECT_EQ(group(Op::MUL), "M");
  EXPECT_EQ(group(Op::REMU), "M");
  EXPECT_EQ(group(Op::LR_W), "A");
  EXPECT_EQ(group(Op::CSRRWI), "Zicsr");
  EXPECT_EQ(group(Op::FMADD_S), "Zfinx");
  EXPECT_EQ(group(Op::VSETVLI), "RVV");
  EXPECT_EQ(group(Op::VLE32_V), "RVV");
  EXPECT_EQ(group(Op::VSE8_V), "RVV");
  EXPECT_EQ(group(Op::VFADD_VV), "RVV");
  EXPECT_EQ(group(Op::REGEXT), "Ventus");
  EXPECT_EQ(group(Op::VBEQ), "Ventus");
  EXPECT_EQ(group(Op::VLW12_V), "Ventus");
  EXPECT_EQ(group(Op::VSW_V), "Ventus");
  EXPECT_EQ(group(Op::ADDW), "RV64I");
  EXPECT_EQ(group(Op::SRAIW), "RV64I");
  EXPECT_EQ(group(Op::LD), "RV64I");
  EXPECT_EQ(group(Op::SD), "RV64I");
  EXPECT_EQ(group(Op::AMOMAXU_D_AQRL), "RV64A");
  EXPECT_EQ(group(Op::LR_D), "RV64A");
  EXPECT_EQ(group(Op::VLW12D_V), "Ventus");
  EXPECT_EQ(group(Op::VSB_LOCAL_V), "Ventus");
}

TEST(IsaTableDoc, SyntaxStrings) {
  EXPECT_EQ(assembly_syntax(info(Op::ADDI)), "addi rd, rs1, simm12");
  EXPECT_EQ(assembly_syntax(info(Op::SW)), "sw rs2, simm12s(rs1)");
  EXPECT_EQ(assembly_syntax(info(Op::VADD_VV)), "vadd.vv vd, vs2, vs1[, v0.t]");
  EXPECT_EQ(assembly_syntax(info(Op::FADD_S)), "fadd.s rd, rs1, rs2[, rm]");
  EXPECT_EQ(assembly_syntax(info(Op::ECALL)), "ecall");
}
