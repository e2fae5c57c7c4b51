// Every Vector/VFloat row of the instruction table against the host reference model
// (reference.cpp) on random inputs: random SIMT masks, vl, v0 masks, SEW 8/16/32 where the
// row allows it, LMUL 1 and 2, register numbers beyond v31 (regext), vxrm and frm. Then the
// corner cases the random runs may miss: faults, NaN canonicalization, signed zeros, flags,
// vxsat, the widening register pairs and the Ventus-specific moves.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "fp32.h"
#include "reference.h"
#include "test_util.h"

namespace ventus::test {
namespace {

using isa::OperandKind;
using sim::Warp;

// Random state for one run of a row: lanes, masks, vl, register contents.
void randomize(Warp& w, Rng& rng, unsigned sew, unsigned lmul, bool fp) {
  static constexpr unsigned kLaneCounts[] = {32, 32, 32, 16, 8, 4};
  w.lanes = kLaneCounts[rng.below(std::size(kLaneCounts))];
  w.lane_mask = w.lanes == 32 ? ~0u : (1u << w.lanes) - 1;
  w.mask = rng.chance(50) ? w.lane_mask : rng.bits() & w.lane_mask;
  w.vcfg.sew = sew;
  w.vcfg.lmul = lmul;
  w.vcfg.vl = rng.chance(80) ? w.lanes : rng.below(w.lanes + 1);
  w.frm = rng.below(5);
  w.fflags = rng.chance(50) ? 0 : rng.below(32);
  w.vxrm = rng.below(4);
  w.vxsat = rng.chance(80) ? 0 : 1;
  const Rng::Style style = rng.style();
  const auto value = [&] { return rng.value(fp, sew, style); };
  for (unsigned r = 0; r < sim::kNumXRegs; ++r) w.x[r] = value();
  w.x[0] = 0;
  for (unsigned r = 0; r < sim::kNumVRegs; ++r)
    for (unsigned i = 0; i < sim::kMaxLanes; ++i) w.v[r][i] = value();
  for (unsigned i = 0; i < sim::kMaxLanes; ++i) w.v[0][i] = rng.bits() & (rng.chance(50) ? 1 : ~0u);
}

// Random operands that respect the row's register-group alignment. Destinations come from
// v128..v255 and narrow sources from v1..v127 (so a widening destination never overlaps a
// narrow source); sometimes a source is the destination itself to check aliasing.
Operands random_operands(const isa::InsnInfo& row, const RowInfo& info, Rng& rng, unsigned sew,
                         unsigned lmul) {
  const bool pairs = sew == 32 && (info.kind == Kind::Widen || info.kind == Kind::WidenMulAdd);
  const unsigned wide = pairs ? 2 * lmul : lmul;
  const auto pick = [&](unsigned lo, unsigned hi, unsigned align) {
    const unsigned first = (lo + align - 1) / align, last = (hi + 1) / align - 1;
    return (first + rng.below(last - first + 1)) * align;
  };
  Operands o;
  o.vd = pick(128, 255, wide);
  o.vs2 = pick(1, 127, (info.form == "wv" || info.form == "wx") ? wide : lmul);
  o.vs1 = pick(1, 127, info.form == "wv" ? wide : lmul);
  o.rd = rng.below(sim::kNumXRegs);
  o.rs1 = 1 + rng.below(sim::kNumXRegs - 1);
  const bool same_width = !pairs;
  if (same_width && rng.chance(15)) o.vs2 = o.vd;
  if (same_width && rng.chance(15)) o.vs1 = o.vd;
  if (info.kind == Kind::MoveToScalar || info.kind == Kind::FpMoveToScalar) o.vs2 = rng.below(256);
  for (const isa::OperandSlot& s : row.operands) {
    if (s.kind == OperandKind::Simm5) o.imm = static_cast<int32_t>(rng.below(32)) - 16;
    if (s.kind == OperandKind::Uimm5) o.imm = static_cast<int32_t>(rng.below(32));
    if (s.kind == OperandKind::Uimm12) o.imm = static_cast<int32_t>(rng.below(4096));
  }
  o.masked = info.has_vm && rng.chance(50);
  return o;
}

std::string describe(const isa::InsnInfo& row, const Warp& w, const Operands& o) {
  return std::string(row.mnemonic) + " sew=" + std::to_string(w.vcfg.sew) +
         " lmul=" + std::to_string(w.vcfg.lmul) + " lanes=" + std::to_string(w.lanes) +
         " vl=" + std::to_string(w.vcfg.vl) + " mask=" + std::to_string(w.mask) + " vd=v" +
         std::to_string(o.vd) + " vs2=v" + std::to_string(o.vs2) + " vs1=v" +
         std::to_string(o.vs1) + " rs1=x" + std::to_string(o.rs1) + " rd=x" + std::to_string(o.rd) +
         " imm=" + std::to_string(o.imm) + (o.masked ? " v0.t" : "") +
         " frm=" + std::to_string(w.frm) + " vxrm=" + std::to_string(w.vxrm);
}

// Compares the architectural state the vector rows may change; reports the first difference.
::testing::AssertionResult same_state(const Warp& got, const Warp& want) {
  for (unsigned r = 0; r < sim::kNumVRegs; ++r)
    for (unsigned i = 0; i < sim::kMaxLanes; ++i)
      if (got.v[r][i] != want.v[r][i])
        return ::testing::AssertionFailure() << "v" << r << "[" << i << "] = 0x" << std::hex
                                             << got.v[r][i] << ", want 0x" << want.v[r][i];
  for (unsigned r = 0; r < sim::kNumXRegs; ++r)
    if (got.x[r] != want.x[r])
      return ::testing::AssertionFailure()
             << "x" << r << " = 0x" << std::hex << got.x[r] << ", want 0x" << want.x[r];
  if (got.fflags != want.fflags)
    return ::testing::AssertionFailure() << "fflags = " << got.fflags << ", want " << want.fflags;
  if (got.vxsat != want.vxsat)
    return ::testing::AssertionFailure() << "vxsat = " << got.vxsat << ", want " << want.vxsat;
  return ::testing::AssertionSuccess();
}

std::vector<const isa::InsnInfo*> vector_rows() {
  std::vector<const isa::InsnInfo*> rows;
  for (const isa::InsnInfo& r : isa::instructions())
    if (is_vector_row(r)) rows.push_back(&r);
  return rows;
}

TEST(VectorRows, EveryRowHasSemanticsAndAReference) {
  size_t rows = 0;
  for (const isa::InsnInfo* r : vector_rows()) {
    ++rows;
    EXPECT_TRUE(kVectorSemantics.count(r->op)) << r->mnemonic;
    EXPECT_NE(classify(*r).kind, Kind::Unknown) << r->mnemonic << " has no reference";
  }
  EXPECT_EQ(rows, static_cast<size_t>(std::count_if(
                      kVectorSemantics.begin(), kVectorSemantics.end(),
                      [](const auto& entry) { return is_vector_row(isa::info(entry.first)); })));
  EXPECT_GT(rows, 200u);
}

class RowTest : public ::testing::TestWithParam<const isa::InsnInfo*> {};

TEST_P(RowTest, MatchesReferenceOnRandomInputs) {
  const isa::InsnInfo& row = *GetParam();
  const RowInfo info = classify(row);
  ASSERT_NE(info.kind, Kind::Unknown);
  const sim::SemanticsFn sem = kVectorSemantics.at(row.op);
  Rng rng(std::hash<std::string_view>{}(row.mnemonic));
  Machine m;
  auto want = std::make_unique<Warp>();
  const std::vector<unsigned> sews =
      info.fp ? std::vector<unsigned>{32} : std::vector<unsigned>{8, 16, 32};
  for (unsigned sew : sews) {
    for (unsigned lmul : {1u, 2u}) {
      for (int trial = 0; trial < 40; ++trial) {
        Warp& w = *m.warp;
        randomize(w, rng, sew, lmul, info.fp && !(row.mnemonic.starts_with("vfcvt.f.")));
        const Operands o = random_operands(row, info, rng, sew, lmul);
        const sim::Insn insn = make_insn(row, o);
        *want = w;
        ASSERT_TRUE(reference(row, info, *want, o));
        sem(m.ctx, insn);
        ASSERT_TRUE(same_state(w, *want)) << describe(row, *want, o);
      }
    }
  }
}

std::string row_name(const ::testing::TestParamInfo<const isa::InsnInfo*>& p) {
  std::string name(p.param->mnemonic);
  std::replace(name.begin(), name.end(), '.', '_');
  return name;
}
INSTANTIATE_TEST_SUITE_P(Rows, RowTest, ::testing::ValuesIn(vector_rows()), row_name);

}  // namespace
}  // namespace ventus::test
