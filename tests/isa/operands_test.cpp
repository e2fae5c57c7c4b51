// The operand side of the instruction table: the kinds of operand_kinds.def against the
// encodings the specifications give, the roles of the rows, printing from operand values.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <stdexcept>

#include "ventus/disasm.h"
#include "ventus/isa.h"

using namespace ventus::isa;

namespace {

OperandValue of(int64_t n) {
  return OperandValue::of(n);
}

// The ranges of the RISC-V and Ventus manuals, written out independently of the fields.
TEST(OperandKinds, RangesAreTheManuals) {
  const struct {
    OperandKind kind;
    int64_t min, max;
    unsigned align;
  } expected[] = {
      {OperandKind::Simm12, -2048, 2047, 1},
      {OperandKind::Simm12S, -2048, 2047, 1},
      {OperandKind::Uimm12, 0, 4095, 1},
      {OperandKind::Simm11, -1024, 1023, 1},
      {OperandKind::Simm11S, -1024, 1023, 1},
      {OperandKind::Simm10, -512, 511, 1},
      {OperandKind::Simm10S, -512, 511, 1},
      {OperandKind::Bimm, -4096, 4094, 2},
      {OperandKind::Jimm, -(1 << 20), (1 << 20) - 2, 2},
      {OperandKind::Uimm20, 0, (1 << 20) - 1, 1},
      {OperandKind::Shamt, 0, 31, 1},
      {OperandKind::Shamt6, 0, 63, 1},
      {OperandKind::Csr, 0, 4095, 1},
      {OperandKind::Uimm5, 0, 31, 1},
      {OperandKind::Simm5, -16, 15, 1},
      {OperandKind::VtypeI11, 0, 2047, 1},
      {OperandKind::VtypeI10, 0, 1023, 1},
      {OperandKind::VMask, 0, 1, 1},
      {OperandKind::RoundingMode, 0, 7, 1},
      {OperandKind::FencePred, 0, 15, 1},
      {OperandKind::Rd, 0, 31, 1},
      {OperandKind::Vs3, 0, 31, 1},
      {OperandKind::RdPair, 0, 30, 2},
      {OperandKind::Vs1Pair, 0, 30, 2},
  };
  for (const auto& e : expected) {
    const OperandKindInfo& k = kind_info(e.kind);
    EXPECT_EQ(k.min, e.min) << k.token;
    EXPECT_EQ(k.max, e.max) << k.token;
    EXPECT_EQ(k.align, e.align) << k.token;
  }
}

// Every kind with a field: its extreme values survive the encoder, the values just beyond them
// do not and operand_fits refuses them, and a value between them that is no multiple of the
// alignment is refused too.
TEST(OperandKinds, RangeAgreesWithTheEncoder) {
  for (const OperandKindInfo& k : operand_kinds()) {
    if (k.fields.empty()) continue;
    for (int64_t v : {k.min, k.max, k.min + k.align, k.max - k.align}) {
      EXPECT_TRUE(operand_fits(k.kind, v)) << k.token << " " << v;
      EXPECT_EQ(get_operand(set_operand(0u, k.kind, v), k.kind), v) << k.token << " " << v;
      EXPECT_EQ(get_operand(set_operand(~0u, k.kind, v), k.kind), v) << k.token << " " << v;
    }
    for (int64_t v : {k.min - 1, k.max + 1})
      EXPECT_FALSE(operand_fits(k.kind, v)) << k.token << " " << v;
    // The next multiples beyond the range do not fit the fields (max + 1 of a register pair
    // does: an odd register).
    for (int64_t v : {k.min - k.align, k.max + k.align})
      EXPECT_NE(get_operand(set_operand(0u, k.kind, v), k.kind), v) << k.token << " " << v;
    if (k.align > 1) {
      EXPECT_FALSE(operand_fits(k.kind, k.min + 1)) << k.token;
    }
  }
}

// The field of a kind is where the encodings of the specifications put it: set_operand of
// all ones sets exactly these bits.
TEST(OperandKinds, FieldsAreTheSpecifications) {
  const struct {
    OperandKind kind;
    uint32_t bits;
  } expected[] = {
      {OperandKind::Rd, 0x00000f80},        {OperandKind::Rs1, 0x000f8000},
      {OperandKind::Rs2, 0x01f00000},       {OperandKind::Rs3, 0xf8000000},
      {OperandKind::Vs3, 0x00000f80},       {OperandKind::Simm12, 0xfff00000},
      {OperandKind::Simm12S, 0xfe000f80},   {OperandKind::Simm11S, 0x7e000f80},
      {OperandKind::Simm10S, 0x3e000f80},   {OperandKind::Bimm, 0xfe000f80},
      {OperandKind::Jimm, 0xfffff000},      {OperandKind::Uimm20, 0xfffff000},
      {OperandKind::VMask, 0x02000000},     {OperandKind::RoundingMode, 0x00007000},
      {OperandKind::FencePred, 0x0f000000}, {OperandKind::FenceSucc, 0x00f00000},
      {OperandKind::VtypeI11, 0x7ff00000},  {OperandKind::VtypeI10, 0x3ff00000},
      {OperandKind::Shamt6, 0x03f00000},
  };
  for (const auto& e : expected)
    EXPECT_EQ(set_operand(0u, e.kind, -1), e.bits) << kind_info(e.kind).token;
  // B-type: imm[12|10:5] in [31:25], imm[4:1|11] in [11:7] (RISC-V unprivileged spec 2.3).
  EXPECT_EQ(set_operand(0u, OperandKind::Bimm, 1 << 11), 0x00000080u);
  EXPECT_EQ(set_operand(0u, OperandKind::Bimm, -4096), 0x80000000u);
  // J-type: imm[20|10:1|11|19:12].
  EXPECT_EQ(set_operand(0u, OperandKind::Jimm, 1 << 11), 0x00100000u);
  EXPECT_EQ(set_operand(0u, OperandKind::Jimm, 2), 0x00200000u);
}

// The regext field of a register kind is the one the guide gives for its field.
TEST(OperandKinds, RegisterSlots) {
  EXPECT_EQ(register_slot(OperandKind::Rd), 0);
  EXPECT_EQ(register_slot(OperandKind::Vs3), 0);
  EXPECT_EQ(register_slot(OperandKind::Vs1), 1);
  EXPECT_EQ(register_slot(OperandKind::Rs2Pair), 2);
  EXPECT_EQ(register_slot(OperandKind::Rs3), 3);
  EXPECT_EQ(register_slot(OperandKind::Uimm5), -1);  // in rs1's field, but no register
  EXPECT_EQ(register_slot(OperandKind::V0), -1);
  EXPECT_FALSE(is_register_kind(OperandKind::V0));
  EXPECT_TRUE(is_pair_register_kind(OperandKind::Vs1Pair));
  EXPECT_TRUE(is_pc_relative(OperandKind::Jimm));
}

// ---------------------------------------------------------------- roles
bool starts_with_any(std::string_view mnemonic, std::initializer_list<std::string_view> prefixes) {
  for (std::string_view p : prefixes)
    if (mnemonic.starts_with(p)) return true;
  return false;
}

// The multiply-accumulate families read their destination (RVV 1.0 11.13, 11.14, 13.6,
// 13.7; Ventus vftta, mma); no other 32-bit row does, except the vector stores' data.
TEST(OperandRoles, AccumulatorsAreTied) {
  int tied = 0;
  for (const InsnInfo& r : instructions()) {
    const bool accumulates =
        starts_with_any(r.mnemonic, {"vmacc.", "vnmsac.", "vmadd.", "vnmsub.", "vwmacc", "vfmacc.",
                                     "vfnmacc.", "vfmsac.", "vfnmsac.", "vfmadd.", "vfnmadd.",
                                     "vfmsub.", "vfnmsub.", "vftta.", "mma."});
    if (r.length == 8) continue;
    ASSERT_FALSE(r.operands.empty() && accumulates) << r.mnemonic;
    if (accumulates) {
      ++tied;
      EXPECT_EQ(r.operands[0].role, OperandRole::DefUse) << r.mnemonic;
    }
    const bool store_data = (r.cls == InsnClass::VStore && r.operands[0].kind == OperandKind::Vs3);
    EXPECT_EQ(reads_rd_field(r), accumulates || store_data) << r.mnemonic;
  }
  // 8 vmacc/vnmsac/vmadd/vnmsub, 7 vwmacc*, 16 vf*ma*/vf*ms*, vftta, 20 mma.
  EXPECT_EQ(tied, 8 + 7 + 16 + 1 + 20);
}

// Stores, branches and the other rows without a result write nothing; a load writes one
// register; only registers are written, and only from the destination slot.
TEST(OperandRoles, WritesOnlyDestinations) {
  for (const InsnInfo& r : instructions()) {
    int written = 0;
    for (const OperandSlot& s : r.operands) {
      if (!writes(s.role)) continue;
      ++written;
      EXPECT_TRUE(is_register_kind(s.kind)) << r.mnemonic;
      EXPECT_EQ(register_slot(s.kind), 0) << r.mnemonic;
    }
    switch (r.cls) {
      case InsnClass::Store:
      case InsnClass::VStore:
      case InsnClass::Branch:
      case InsnClass::VBranch:
      case InsnClass::Join: EXPECT_EQ(written, 0) << r.mnemonic; break;
      case InsnClass::Load:
      case InsnClass::VLoad:
      case InsnClass::Atomic:
      case InsnClass::Scalar:
      case InsnClass::Float:
      case InsnClass::Vector:
      case InsnClass::VFloat:
      case InsnClass::Matrix:
        if (r.op != Op::FENCE) {
          EXPECT_EQ(written, 1) << r.mnemonic;
        }
        break;
      default: break;
    }
  }
}

// ---------------------------------------------------------------- printing from values
TEST(FormatInstruction, PrintsRowsFromValues) {
  EXPECT_EQ(format_instruction(Op::VMACC_VV, std::vector{of(1), of(2), of(3)}),
            "vmacc.vv v1, v2, v3");
  EXPECT_EQ(format_instruction(Op::VMACC_VV, std::vector{of(1), of(2), of(3), of(0)}),
            "vmacc.vv v1, v2, v3, v0.t");
  EXPECT_EQ(format_instruction(Op::LW, std::vector{of(10), OperandValue::symbol("%lo(x)"), of(11)}),
            "lw a0, %lo(x)(a1)");
  EXPECT_EQ(format_instruction(Op::BNE, std::vector{of(5), of(0), OperandValue::symbol(".L3")}),
            "bne t0, zero, .L3");
  EXPECT_EQ(
      format_instruction(Op::BNE, std::vector{of(5), of(0), OperandValue::symbol(".L3")}, true),
      "bnez t0, .L3");
  EXPECT_EQ(format_instruction(Op::ADDI, std::vector{of(10), of(0), of(-7)}, true), "li a0, -7");
  EXPECT_EQ(format_instruction(Op::CSRRS, std::vector{of(10), of(0x806), of(0)}, true),
            "csrr a0, 2054");
  EXPECT_EQ(format_instruction(Op::VSETVLI, std::vector{of(0), of(0), of(0xd0)}),
            "vsetvli zero, zero, e32, m1, ta, ma");
  EXPECT_EQ(format_instruction(Op::FADD_S, std::vector{of(10), of(11), of(12)}),
            "fadd.s a0, a1, a2");
  EXPECT_EQ(format_instruction(Op::FADD_S, std::vector{of(10), of(11), of(12), of(1)}),
            "fadd.s a0, a1, a2, rtz");
  EXPECT_EQ(format_instruction(Op::VSW12_V, std::vector{of(40), of(-4), of(33)}),
            "vsw12.v v40, -4(v33)");
  EXPECT_EQ(
      format_instruction(Op::MMA64_M8N8K8_F32_F32, std::vector{of(200), of(8), of(16), of(24)}),
      "mma64.m8n8k8.f32.f32 v200, v8, v16, v24");
}

TEST(FormatInstruction, RefusesWhatTheRowCannotHold) {
  const auto refused = [](Op op, std::vector<OperandValue> v) {
    EXPECT_THROW(format_instruction(op, v), std::invalid_argument) << info(op).mnemonic;
  };
  refused(Op::ADDI, {of(10), of(11), of(2048)});
  refused(Op::ADDI, {of(10), of(11)});                // an operand missing
  refused(Op::ADDI, {of(10), of(11), of(1), of(1)});  // one too many
  refused(Op::BEQ, {of(1), of(2), of(3)});            // odd branch offset
  refused(Op::ADDW, {of(11), of(12), of(14)});        // odd register pair
  refused(Op::ADD, {of(64), of(1), of(2)});           // no x64
  refused(Op::VADD_VI, {of(1), of(2), of(16)});       // simm5
}

// The disassembler and format_instruction print with the same code: for every row, the
// values a word holds print as the disassembler prints the word (offsets, not addresses).
TEST(FormatInstruction, AgreesWithTheDisassembler) {
  std::mt19937_64 rng(13);
  PrintOptions o;
  o.absolute_targets = false;
  for (const InsnInfo& r : instructions())
    for (int i = 0; i < 20; ++i) {
      const uint64_t word = (rng() & ~r.mask) | r.match;
      const uint64_t bits = r.length == 8 ? word : static_cast<uint32_t>(word);
      if (decode_op(bits) != r.op) continue;
      std::vector<OperandValue> values;
      bool even = true;
      for (const OperandSlot& s : r.operands) {
        values.push_back(of(get_operand(bits, s)));
        if (is_pair_register_kind(s.kind) && values.back().number % 2) even = false;
      }
      if (!even) continue;
      for (bool aliases : {false, true}) {
        o.aliases = aliases;
        EXPECT_EQ(format_instruction(r.op, values, aliases), print_instruction(bits, 0, o)->text())
            << r.mnemonic << std::hex << " " << bits;
      }
    }
}

// Every alias resolves against its row: its fixed operands are values of their slots.
TEST(Aliases, ListIsWellFormed) {
  std::set<std::pair<std::string_view, size_t>> seen;
  for (const Alias& a : aliases()) {
    AliasForm f;
    ASSERT_NO_THROW(f = alias_form(a)) << a.mnemonic;
    EXPECT_TRUE(seen.insert({a.mnemonic, f.operands}).second) << a.mnemonic << " twice";
    std::vector<bool> used(f.operands);
    for (const AliasForm::Slot& s : f.slots)
      if (s.operand >= 0) used[s.operand] = true;
    for (size_t k = 0; k < f.operands; ++k) EXPECT_TRUE(used[k]) << a.mnemonic << " $" << k;
  }
}

}  // namespace
