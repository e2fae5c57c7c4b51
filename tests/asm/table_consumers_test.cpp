// The assembler and the decoder against the instruction table's single sources: the one alias
// list (isa::aliases()) from both ends, and the operand roles through regext.
#include <gtest/gtest.h>

#include "test_util.h"
#include "ventus/disasm.h"
#include "ventus/isa.h"

namespace {

using namespace ventus;

// An operand for alias operand k in a slot of this kind, spelled as the disassembler prints it.
std::string operand_text(const isa::OperandSlot& s, size_t k) {
  const isa::OperandKindInfo& kind = isa::kind_info(s.kind);
  if (kind.file == isa::RegisterFile::V) return "v" + std::to_string(k + 1);
  if (kind.file == isa::RegisterFile::X) return std::string(isa::xreg_abi_name(11 + k));  // a1..
  if (kind.style == isa::OperandStyle::Csr) return "mscratch";
  if (kind.style == isa::OperandStyle::Target) return std::to_string(8 * (k + 1));
  return std::to_string(k + 3);
}

struct Written {
  std::string alias, row;  // the alias and its row in full, operands separated by ", "
};

Written write_out(const isa::Alias& a, bool masked) {
  const isa::InsnInfo& row = isa::info(a.op);
  const isa::AliasForm form = isa::alias_form(a);
  std::vector<std::string> ops(form.operands);
  for (size_t i = 0; i < form.slots.size(); ++i)
    if (form.slots[i].operand >= 0 && ops[form.slots[i].operand].empty())
      ops[form.slots[i].operand] = operand_text(row.operands[i], form.slots[i].operand);
  const auto text_of = [&](const isa::AliasForm::Slot& s) {
    return s.operand >= 0 ? ops[s.operand] : std::string(s.fixed);
  };
  Written w{std::string(a.mnemonic), std::string(row.mnemonic)};
  for (size_t k = 0; k < ops.size(); ++k) w.alias += (k ? ", " : " ") + ops[k];
  std::string row_ops;
  for (size_t i = 0; i < form.slots.size(); ++i) {
    if (form.mask_passes && i + 1 == form.slots.size()) break;
    std::string t = text_of(form.slots[i]);
    if (row.operands[i].mem_offset) t += "(" + text_of(form.slots[++i]) + ")";
    row_ops += (row_ops.empty() ? " " : ", ") + t;
  }
  w.row += row_ops;
  if (masked) {
    w.alias += ", v0.t";
    w.row += ", v0.t";
  }
  return w;
}

TEST(Aliases, AssembleToTheirRowAndPrintBack) {
  int printed = 0;
  for (const isa::Alias& a : isa::aliases()) {
    const isa::AliasForm form = isa::alias_form(a);
    for (bool masked : {false, true}) {
      if (masked && !form.mask_passes) continue;
      const Written w = write_out(a, masked);
      std::vector<uint32_t> alias_words, row_words;
      ASSERT_NO_THROW(alias_words = test::text_words(w.alias + "\n")) << w.alias;
      ASSERT_NO_THROW(row_words = test::text_words(w.row + "\n")) << w.row;
      ASSERT_EQ(alias_words.size(), 1u) << w.alias;
      EXPECT_EQ(alias_words, row_words) << w.alias << " / " << w.row;
      EXPECT_EQ(isa::decode_op(alias_words[0]), a.op) << w.alias;
      if (!a.printed) continue;
      isa::PrintOptions o;
      o.absolute_targets = false;
      EXPECT_EQ(isa::print_instruction(alias_words[0], 0, o)->text(), w.alias);
      ++printed;
    }
  }
  EXPECT_GT(printed, 40);
}

// A register above 31 in the rd field of every 32-bit row: the assembler's regext and the
// decoder deliver it where the row's roles say execution reads and writes it (rd when
// written, rs3 when read: the accumulator, the store data).
TEST(OperandRoles, RegextReachesTheRegisterAsTheRolesSay) {
  int rows = 0;
  for (const isa::InsnInfo& r : isa::instructions()) {
    if (r.length != 4 || r.cls == isa::InsnClass::Prefix) continue;
    std::vector<isa::OperandValue> values;
    int destination = -1;
    for (size_t i = 0; i < r.operands.size(); ++i) {
      const isa::OperandSlot& s = r.operands[i];
      const isa::OperandKindInfo& k = isa::kind_info(s.kind);
      int64_t v = 0;
      if (isa::is_register_kind(s.kind) && isa::register_slot(s.kind) == 0 &&
          k.style == isa::OperandStyle::Register) {
        destination = static_cast<int>(i);
        v = 40;
      } else if (isa::is_register_kind(s.kind)) {
        v = 2 * static_cast<int64_t>(i) + 2;
      } else if (k.style == isa::OperandStyle::Mask) {
        v = 1;
      } else if (k.style == isa::OperandStyle::RoundingMode) {
        v = 7;
      } else if (k.style == isa::OperandStyle::Vtype) {
        v = 0xd0;
      }
      values.push_back(isa::OperandValue::of(v));
    }
    if (destination < 0) continue;
    const std::string text = isa::format_instruction(r.op, values);
    std::vector<uint32_t> words;
    ASSERT_NO_THROW(words = test::text_words(text + "\n")) << text;
    ASSERT_EQ(words.size(), 2u) << text;
    const auto d = isa::decode(words[1], isa::RegExt::from_regext(words[0] >> 20));
    ASSERT_TRUE(d) << text;
    const isa::OperandRole role = r.operands[destination].role;
    if (isa::writes(role)) {
      EXPECT_EQ(d->rd, 40) << text;
    }
    if (isa::reads(role)) {
      EXPECT_EQ(d->rs3, 40) << text;
    }
    ++rows;
  }
  EXPECT_GT(rows, 300);
}

}  // namespace
