// Directed cases for the vector semantics: the decisions of docs/vector.md, the faults, and
// the fp and fixed-point corners random inputs rarely reach. Expected values are worked out
// by hand (comments say how).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <iterator>
#include <string>

#include "fp32.h"
#include "test_util.h"

namespace ventus::test {
namespace {

using sim::ExecFault;

constexpr uint32_t kOne = 0x3f800000;      // 1.0f
constexpr uint32_t kNegZero = 0x80000000;  // -0.0f
constexpr uint32_t kQNaN = 0x7fc00000;

void fill(Machine& m, unsigned reg, uint32_t value) {
  for (uint32_t& e : m.warp->v[reg]) e = value;
}

TEST(VectorFaults, MisalignedGroupsUnderLmul2) {
  Machine m;
  m.warp->vcfg.lmul = 2;
  EXPECT_THROW(m.run("vadd.vv", {.vd = 3, .vs1 = 4, .vs2 = 6}), ExecFault);
  EXPECT_THROW(m.run("vadd.vv", {.vd = 2, .vs1 = 5, .vs2 = 6}), ExecFault);
  EXPECT_THROW(m.run("vfadd.vf", {.vd = 2, .vs2 = 7, .rs1 = 1}), ExecFault);
  EXPECT_NO_THROW(m.run("vadd.vv", {.vd = 254, .vs1 = 4, .vs2 = 6}));
  // A widened SEW=32 result is a register pair per group register: LMUL 2 needs 4-aligned vd.
  m.warp->vcfg.lmul = 1;
  EXPECT_THROW(m.run("vwadd.vv", {.vd = 3, .vs1 = 8, .vs2 = 9}), ExecFault);
  m.warp->vcfg.lmul = 2;
  EXPECT_THROW(m.run("vwadd.vv", {.vd = 2, .vs1 = 8, .vs2 = 10}), ExecFault);
  EXPECT_NO_THROW(m.run("vwadd.vv", {.vd = 252, .vs1 = 8, .vs2 = 10}));
}

TEST(VectorFaults, WideningDestinationOverlapsLowPartOfNarrowSource) {
  Machine m;
  EXPECT_THROW(m.run("vwaddu.vv", {.vd = 2, .vs1 = 2, .vs2 = 8}), ExecFault);
  // The highest-numbered part may overlap (RVV 1.0): v3 is read before v2:v3 is written.
  fill(m, 3, 0xffffffff);
  fill(m, 8, 1);
  m.run("vwaddu.vv", {.vd = 2, .vs1 = 3, .vs2 = 8});
  EXPECT_EQ(m.warp->v[2][5], 0u);  // 0xffffffff + 1 = 0x1'00000000
  EXPECT_EQ(m.warp->v[3][5], 1u);
}

TEST(VectorFaults, FloatingPointNeedsSew16Or32) {
  Machine m;
  m.warp->vcfg.sew = 8;
  EXPECT_THROW(m.run("vfadd.vv", {.vd = 2, .vs1 = 4, .vs2 = 6}), ExecFault);
  EXPECT_THROW(m.run("vfmv.v.f", {.vd = 2, .rs1 = 5}), ExecFault);
  EXPECT_THROW(m.run("vfmv.f.s", {.vs2 = 6, .rd = 5}), ExecFault);
  EXPECT_NO_THROW(m.run("vadd.vv", {.vd = 2, .vs1 = 4, .vs2 = 6}));
  // fp16 has every row except the fp32-only ones.
  m.warp->vcfg.sew = 16;
  EXPECT_NO_THROW(m.run("vfadd.vv", {.vd = 2, .vs1 = 4, .vs2 = 6}));
  EXPECT_NO_THROW(m.run("vfmv.v.f", {.vd = 2, .rs1 = 5}));
  EXPECT_THROW(m.run("vfexp", {.vd = 2, .vs2 = 6}), ExecFault);
  EXPECT_THROW(m.run("vftta.vv", {.vd = 2, .vs1 = 4, .vs2 = 6}), ExecFault);
  EXPECT_THROW(m.run("vfrec7.v", {.vd = 2, .vs2 = 6}), ExecFault);
  EXPECT_THROW(m.run("vfrsqrt7.v", {.vd = 2, .vs2 = 6}), ExecFault);
}

TEST(VectorFaults, ReservedFrmOnlyForRowsThatRound) {
  Machine m;
  m.warp->frm = 5;
  EXPECT_THROW(m.run("vfadd.vv", {.vd = 2, .vs1 = 4, .vs2 = 6}), ExecFault);
  EXPECT_THROW(m.run("vfmacc.vv", {.vd = 2, .vs1 = 4, .vs2 = 6}), ExecFault);
  EXPECT_THROW(m.run("vfcvt.x.f.v", {.vd = 2, .vs2 = 6}), ExecFault);
  EXPECT_NO_THROW(m.run("vfcvt.rtz.x.f.v", {.vd = 2, .vs2 = 6}));
  EXPECT_NO_THROW(m.run("vfmin.vv", {.vd = 2, .vs1 = 4, .vs2 = 6}));
  EXPECT_NO_THROW(m.run("vmfeq.vv", {.vd = 2, .vs1 = 4, .vs2 = 6}));
  EXPECT_NO_THROW(m.run("vfclass.v", {.vd = 2, .vs2 = 6}));
  EXPECT_NO_THROW(m.run("vfsgnj.vv", {.vd = 2, .vs1 = 4, .vs2 = 6}));
}

TEST(VectorFaults, ScalarRegistersBeyondX63) {
  Machine m;
  EXPECT_THROW(m.run("vadd.vx", {.vd = 2, .vs2 = 6, .rs1 = 70}), ExecFault);
  EXPECT_THROW(m.run("vmv.x.s", {.vs2 = 6, .rd = 64}), ExecFault);
  EXPECT_NO_THROW(m.run("vadd.vx", {.vd = 2, .vs2 = 6, .rs1 = 63}));
}

TEST(VectorInt, NarrowSewWrapsAndWritesZeroExtended) {
  Machine m;
  m.warp->vcfg.sew = 8;
  fill(m, 4, 0xabcd12ff);  // element 0xff, the upper bits are not part of it
  fill(m, 6, 0x00000001);
  m.run("vadd.vv", {.vd = 2, .vs1 = 6, .vs2 = 4});
  EXPECT_EQ(m.warp->v[2][0], 0u);
  m.run("vmslt.vv", {.vd = 3, .vs1 = 6, .vs2 = 4});  // -1 < 1 at SEW 8
  EXPECT_EQ(m.warp->v[3][0], 1u);
  m.run("vmv.v.i", {.vd = 5, .imm = -1});
  EXPECT_EQ(m.warp->v[5][7], 0xffu);
  m.warp->vcfg.sew = 16;
  m.run("vsra.vi", {.vd = 7, .vs2 = 4, .imm = 4});  // 0x12ff >> 4, positive at SEW 16
  EXPECT_EQ(m.warp->v[7][0], 0x12fu);
}

TEST(VectorInt, RegextiWidensTheImmediate) {
  Machine m;
  fill(m, 4, 5);
  // vadd.vi v2, v4, 8 after regexti with imm_hi = 31: {31, 8} = 1000 (bit 10 clear: positive).
  uint32_t word = isa::info(isa::Op::VADD_VI).match;
  word = isa::set_operand(word, OperandKind::Vd, 2);
  word = isa::set_operand(word, OperandKind::Vs2, 4);
  word = isa::set_operand(word, OperandKind::Simm5, 8);
  word = isa::set_operand(word, OperandKind::VMask, 1);
  isa::RegExt ext;
  ext.immediate_form = true;
  ext.imm_hi = 31;
  const auto insn = isa::decode(word, ext);
  ASSERT_TRUE(insn);
  sim::sem::VADD_VI(m.ctx, *insn);
  EXPECT_EQ(m.warp->v[2][0], 1005u);
  m.warp->vcfg.sew = 8;  // truncated to SEW: 1005 & 0xff
  sim::sem::VADD_VI(m.ctx, *insn);
  EXPECT_EQ(m.warp->v[2][0], 0xedu);
}

TEST(VectorInt, InactiveLanesKeepTheirValues) {
  Machine m;
  m.warp->mask = 0x0000ffff;                                  // SIMT: lanes 0..15
  m.warp->vcfg.vl = 12;                                       // and below vl
  for (unsigned i = 0; i < 32; ++i) m.warp->v[0][i] = i % 2;  // v0.t: odd lanes
  fill(m, 2, 77);
  fill(m, 4, 1);
  fill(m, 6, 2);
  m.run("vadd.vv", {.vd = 2, .vs1 = 4, .vs2 = 6, .masked = true});
  for (unsigned i = 0; i < 32; ++i) EXPECT_EQ(m.warp->v[2][i], (i < 12 && i % 2) ? 3u : 77u) << i;
  // A merge selects with v0 but still honours the SIMT mask and vl.
  m.run("vmerge.vim", {.vd = 8, .vs2 = 6, .imm = 9});
  for (unsigned i = 0; i < 32; ++i)
    EXPECT_EQ(m.warp->v[8][i], i >= 12 ? 0u : (i % 2 ? 9u : 2u)) << i;
}

TEST(VectorInt, MoveToScalarTakesTheLastActiveLaneSignExtended) {
  Machine m;
  for (unsigned i = 0; i < 32; ++i) m.warp->v[6][i] = 0x100 + i;
  m.warp->mask = 0x00f0;
  m.run("vmv.x.s", {.vs2 = 6, .rd = 10});
  EXPECT_EQ(m.warp->x[10], 0x107u);
  m.warp->vcfg.sew = 8;
  m.warp->v[6][7] = 0x80;
  m.run("vmv.x.s", {.vs2 = 6, .rd = 10});
  EXPECT_EQ(m.warp->x[10], 0xffffff80u);
  m.warp->mask = 0;  // no active lane: rd keeps its value
  m.warp->x[11] = 1234;
  m.run("vmv.x.s", {.vs2 = 6, .rd = 11});
  EXPECT_EQ(m.warp->x[11], 1234u);
  m.warp->mask = ~0u;
  m.run("vmv.x.s", {.vs2 = 6, .rd = 0});  // x0 stays 0
  EXPECT_EQ(m.warp->x[0], 0u);
}

TEST(VectorInt, MoveFromScalarIsABroadcast) {
  Machine m;
  m.warp->x[5] = 0xdeadbeef;
  m.run("vmv.s.x", {.vd = 9, .rs1 = 5});
  for (unsigned i = 0; i < 32; ++i) EXPECT_EQ(m.warp->v[9][i], 0xdeadbeefu);
}

TEST(VectorInt, VidIsTheLaneIndexNotTheThreadId) {
  Machine m;
  m.warp->csr_tid = 64;
  m.warp->vcfg.lmul = 2;
  m.run("vid.v", {.vd = 10});
  for (unsigned i = 0; i < 32; ++i) {
    EXPECT_EQ(m.warp->v[10][i], i);
    EXPECT_EQ(m.warp->v[11][i], i);
  }
}

TEST(VectorInt, MultiplyAddReadsTheAccumulatorFromTheRs3Slot) {
  Machine m;
  fill(m, 40, 5);  // destination (old value is not the accumulator here)
  fill(m, 72, 100);
  fill(m, 3, 6);
  fill(m, 4, 7);
  // vmacc.vv v40, v3, v4 with regext giving vd high bits 1 (v40) and rs3 high bits 2 (v72).
  uint32_t word = isa::info(isa::Op::VMACC_VV).match;
  word = isa::set_operand(word, OperandKind::Vd, 8);
  word = isa::set_operand(word, OperandKind::Vs1, 3);
  word = isa::set_operand(word, OperandKind::Vs2, 4);
  word = isa::set_operand(word, OperandKind::VMask, 1);
  isa::RegExt ext;
  ext.rd = 1;
  ext.rs3 = 2;
  const auto insn = isa::decode(word, ext);
  ASSERT_TRUE(insn);
  sim::sem::VMACC_VV(m.ctx, *insn);
  EXPECT_EQ(m.warp->v[40][0], 142u);  // 100 + 6 * 7
  EXPECT_EQ(m.warp->v[72][0], 100u);
}

TEST(VectorInt, DivisionCornerCases) {
  Machine m;
  fill(m, 4, 0x80000000);
  fill(m, 6, 0xffffffff);
  fill(m, 8, 0);
  m.run("vdiv.vv", {.vd = 2, .vs1 = 6, .vs2 = 4});  // INT_MIN / -1 = INT_MIN
  EXPECT_EQ(m.warp->v[2][0], 0x80000000u);
  m.run("vrem.vv", {.vd = 2, .vs1 = 6, .vs2 = 4});
  EXPECT_EQ(m.warp->v[2][0], 0u);
  m.run("vdivu.vv", {.vd = 2, .vs1 = 8, .vs2 = 4});  // x / 0 = all ones
  EXPECT_EQ(m.warp->v[2][0], 0xffffffffu);
  m.run("vrem.vv", {.vd = 2, .vs1 = 8, .vs2 = 4});  // x % 0 = x
  EXPECT_EQ(m.warp->v[2][0], 0x80000000u);
}

// vdivu.vx and vremu.vx by a power of two shift and mask (vector_int.cpp): every power of two
// and its neighbours, at each SEW, where x is cut to SEW bits first (0x100 at SEW=8 is 0).
TEST(VectorInt, UnsignedDivisionByAScalarPowerOfTwo) {
  Machine m;
  const uint32_t dividends[] = {0,          1,          2,          3,          0x7f,
                                0x80,       0xff,       0x1234,     0x8000,     0xffff,
                                0x12345678, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff};
  for (unsigned i = 0; i < 32; ++i) m.warp->v[4][i] = dividends[i % std::size(dividends)];
  for (const unsigned sew : {8u, 16u, 32u}) {
    m.warp->vcfg.sew = sew;
    const uint32_t element = sew == 32 ? ~0u : (1u << sew) - 1;
    for (unsigned bit = 0; bit < 33; ++bit) {
      for (const int64_t offset : {-1, 0, 1}) {
        const uint32_t x = static_cast<uint32_t>((uint64_t{1} << bit) + offset);
        m.warp->x[5] = x;
        m.run("vdivu.vx", {.vd = 2, .vs2 = 4, .rs1 = 5});
        m.run("vremu.vx", {.vd = 3, .vs2 = 4, .rs1 = 5});
        const uint32_t d = x & element;
        for (unsigned i = 0; i < 32; ++i) {
          const uint32_t a = m.warp->v[4][i] & element;
          SCOPED_TRACE(fmt::format("SEW {}, {:#x} by {:#x}", sew, a, x));
          EXPECT_EQ(m.warp->v[2][i], d == 0 ? element : a / d);
          EXPECT_EQ(m.warp->v[3][i], d == 0 ? a : a % d);
        }
      }
    }
  }
}

TEST(VectorWiden, Sew32ResultsAreRegisterPairs) {
  Machine m;
  fill(m, 4, 0xffffffff);
  fill(m, 6, 0xffffffff);
  m.run("vwmulu.vv", {.vd = 10, .vs1 = 6, .vs2 = 4});  // (2^32-1)^2 = 0xfffffffe'00000001
  EXPECT_EQ(m.warp->v[10][3], 1u);
  EXPECT_EQ(m.warp->v[11][3], 0xfffffffeu);
  m.run("vwmul.vv", {.vd = 12, .vs1 = 6, .vs2 = 4});  // -1 * -1 = 1
  EXPECT_EQ(m.warp->v[12][3], 1u);
  EXPECT_EQ(m.warp->v[13][3], 0u);
  m.run("vwmulsu.vv", {.vd = 14, .vs1 = 6, .vs2 = 4});  // -1 * (2^32-1)
  EXPECT_EQ(m.warp->v[14][3], 1u);
  EXPECT_EQ(m.warp->v[15][3], 0xffffffffu);
}

TEST(VectorWiden, WvReadsBothSourcesAsPairs) {
  Machine m;
  fill(m, 20, 0xffffffff);  // vs2 = 0x00000001'ffffffff
  fill(m, 21, 0x00000001);
  fill(m, 22, 0x00000001);  // vs1 = 0x00000002'00000001 (a narrow vs1 would be just 1)
  fill(m, 23, 0x00000002);
  m.run("vwaddu.wv", {.vd = 24, .vs1 = 22, .vs2 = 20});
  EXPECT_EQ(m.warp->v[24][0], 0u);  // 0x00000004'00000000
  EXPECT_EQ(m.warp->v[25][0], 4u);
  m.warp->x[7] = 0xffffffff;  // .wx: the scalar is extended from SEW (signed: -1)
  m.run("vwadd.wx", {.vd = 26, .vs2 = 20, .rs1 = 7});
  EXPECT_EQ(m.warp->v[26][0], 0xfffffffeu);
  EXPECT_EQ(m.warp->v[27][0], 1u);
}

TEST(VectorWiden, NarrowSewResultFitsOneWord) {
  Machine m;
  m.warp->vcfg.sew = 16;
  fill(m, 4, 0xffff);
  fill(m, 6, 0xffff);
  fill(m, 9, 0x5555);
  m.run("vwaddu.vv", {.vd = 8, .vs1 = 6, .vs2 = 4});
  EXPECT_EQ(m.warp->v[8][0], 0x1fffeu);
  EXPECT_EQ(m.warp->v[9][0], 0x5555u);               // no pair below SEW=32
  m.run("vwadd.vv", {.vd = 8, .vs1 = 6, .vs2 = 4});  // -1 + -1 = -2 in 32 bits
  EXPECT_EQ(m.warp->v[8][0], 0xfffffffeu);
}

TEST(VectorFixed, VsmulRoundsTiesPerVxrmAndSaturates) {
  Machine m;
  m.warp->vcfg.sew = 8;
  // 1 * 64 = 64 = 0.5 * 2^7: a tie between 0 and 1.
  fill(m, 4, 1);
  fill(m, 6, 64);
  const uint32_t want[4] = {1, 0, 0, 1};  // rnu, rne, rdn, rod
  for (uint32_t rm = 0; rm < 4; ++rm) {
    m.warp->vxrm = rm;
    m.run("vsmul.vv", {.vd = 2, .vs1 = 6, .vs2 = 4});
    EXPECT_EQ(m.warp->v[2][0], want[rm]) << "vxrm " << rm;
  }
  EXPECT_EQ(m.warp->vxsat, 0u);
  fill(m, 4, 0x80);
  fill(m, 6, 0x80);
  m.run("vsmul.vv", {.vd = 2, .vs1 = 6, .vs2 = 4});  // -1 * -1 = 1 does not fit: 127
  EXPECT_EQ(m.warp->v[2][0], 0x7fu);
  EXPECT_EQ(m.warp->vxsat, 1u);
}

TEST(VectorFixed, VxsatIsStickyAndOnlyActiveLanesSaturate) {
  Machine m;
  fill(m, 4, 0xffffffff);
  fill(m, 6, 1);
  m.warp->mask = 0x1;
  m.warp->v[4][0] = 5;  // the only active lane does not saturate
  m.run("vsaddu.vv", {.vd = 2, .vs1 = 6, .vs2 = 4});
  EXPECT_EQ(m.warp->vxsat, 0u);
  EXPECT_EQ(m.warp->v[2][0], 6u);
  m.warp->mask = 0x3;
  m.run("vsaddu.vv", {.vd = 2, .vs1 = 6, .vs2 = 4});
  EXPECT_EQ(m.warp->v[2][1], 0xffffffffu);
  EXPECT_EQ(m.warp->vxsat, 1u);
  m.warp->v[4][1] = 0;
  m.run("vsaddu.vv", {.vd = 2, .vs1 = 6, .vs2 = 4});
  EXPECT_EQ(m.warp->vxsat, 1u);  // stays set until software clears it
}

TEST(VectorFixed, ScalingShiftRounding) {
  Machine m;
  fill(m, 4, 0xfffffff6);                        // -10
  const int32_t want_sra[4] = {-2, -2, -3, -3};  // -10 / 4 = -2.5: rnu, rne, rdn, rod
  for (uint32_t rm = 0; rm < 4; ++rm) {
    m.warp->vxrm = rm;
    m.run("vssra.vi", {.vd = 2, .vs2 = 4, .imm = 2});
    EXPECT_EQ(static_cast<int32_t>(m.warp->v[2][0]), want_sra[rm]) << "vxrm " << rm;
  }
}

TEST(VectorFloat, FusedNegationsFlipInputsNotTheResult) {
  Machine m;
  m.warp->frm = fp::kRNE;
  fill(m, 4, 0);         // x = +0
  fill(m, 6, kOne);      // y = 1
  fill(m, 8, kNegZero);  // z = -0
  // vfnmacc: -(x*y) - z = -0 + +0 = +0 (negating the sum would give -0).
  m.run("vfnmacc.vv", {.vd = 8, .vs1 = 4, .vs2 = 6});
  EXPECT_EQ(m.warp->v[8][0], 0u);
  // vfnmsac: -(x*y) + z with z = -0: -0 + -0 = -0.
  fill(m, 8, kNegZero);
  m.run("vfnmsac.vv", {.vd = 8, .vs1 = 4, .vs2 = 6});
  EXPECT_EQ(m.warp->v[8][0], kNegZero);
}

TEST(VectorFloat, NaNResultsAreCanonicalAndSignalingNaNsRaiseInvalid) {
  Machine m;
  fill(m, 4, 0xff800001);  // negative signaling NaN
  fill(m, 6, kOne);
  fill(m, 8, kOne);
  m.run("vfnmadd.vv", {.vd = 8, .vs1 = 4, .vs2 = 6});
  EXPECT_EQ(m.warp->v[8][0], kQNaN);
  EXPECT_EQ(m.warp->fflags, fp::kNV);
  m.warp->fflags = 0;
  m.run("vfadd.vv", {.vd = 10, .vs1 = 4, .vs2 = 6});
  EXPECT_EQ(m.warp->v[10][0], kQNaN);
  EXPECT_EQ(m.warp->fflags, fp::kNV);
  // Sign injection and moves copy bits: no canonicalization, no flags.
  m.warp->fflags = 0;
  m.run("vfsgnjn.vv", {.vd = 12, .vs1 = 4, .vs2 = 4});
  EXPECT_EQ(m.warp->v[12][0], 0x7f800001u);
  m.warp->x[9] = 0xff800001;
  m.run("vfmv.v.f", {.vd = 13, .rs1 = 9});
  EXPECT_EQ(m.warp->v[13][0], 0xff800001u);
  EXPECT_EQ(m.warp->fflags, 0u);
}

TEST(VectorFloat, InactiveLanesRaiseNoFlags) {
  Machine m;
  fill(m, 4, kOne);
  fill(m, 6, 0);  // 1 / 0 in every lane
  m.warp->mask = 0;
  m.run("vfdiv.vv", {.vd = 2, .vs1 = 6, .vs2 = 4});
  EXPECT_EQ(m.warp->fflags, 0u);
  m.warp->mask = 0x80000000;
  m.run("vfdiv.vv", {.vd = 2, .vs1 = 6, .vs2 = 4});
  EXPECT_EQ(m.warp->fflags, fp::kDZ);
  EXPECT_EQ(m.warp->v[2][31], 0x7f800000u);
}

TEST(VectorFloat, ComparesWriteZeroOrOne) {
  Machine m;
  fill(m, 4, kOne);
  m.warp->x[3] = 0x40000000;  // 2.0
  m.run("vmfgt.vf", {.vd = 2, .vs2 = 4, .rs1 = 3});
  m.run("vmflt.vf", {.vd = 5, .vs2 = 4, .rs1 = 3});
  EXPECT_EQ(m.warp->v[2][0], 0u);
  EXPECT_EQ(m.warp->v[5][0], 1u);
  fill(m, 6, kQNaN);
  m.run("vmfne.vv", {.vd = 7, .vs1 = 6, .vs2 = 4});  // quiet: unordered is "not equal"
  EXPECT_EQ(m.warp->v[7][0], 1u);
  EXPECT_EQ(m.warp->fflags, 0u);
  m.run("vmfle.vv", {.vd = 7, .vs1 = 6, .vs2 = 4});  // signaling on any NaN
  EXPECT_EQ(m.warp->v[7][0], 0u);
  EXPECT_EQ(m.warp->fflags, fp::kNV);
}

TEST(VectorFloat, ConversionsUseFrmExceptTheRtzForms) {
  Machine m;
  fill(m, 4, 0x3fc00000);  // 1.5
  m.warp->frm = fp::kRNE;
  m.run("vfcvt.x.f.v", {.vd = 2, .vs2 = 4});
  m.run("vfcvt.rtz.x.f.v", {.vd = 3, .vs2 = 4});
  EXPECT_EQ(m.warp->v[2][0], 2u);
  EXPECT_EQ(m.warp->v[3][0], 1u);
  fill(m, 5, 0xbf800000);  // -1.0 to unsigned saturates to 0 with NV
  m.warp->fflags = 0;
  m.run("vfcvt.xu.f.v", {.vd = 6, .vs2 = 5});
  EXPECT_EQ(m.warp->v[6][0], 0u);
  EXPECT_EQ(m.warp->fflags, fp::kNV);
}

// The host fast paths (no NaN, exact conversions) at their edges, against the fp library.
TEST(VectorFloat, MinMaxOfSignedZerosWithoutNaNs) {
  Machine m;
  for (unsigned i = 0; i < 32; ++i) {
    m.warp->v[4][i] = i % 2 ? 0u : kNegZero;
    m.warp->v[6][i] = i % 2 ? kNegZero : 0u;
  }
  m.run("vfmin.vv", {.vd = 2, .vs1 = 6, .vs2 = 4});
  m.run("vfmax.vv", {.vd = 3, .vs1 = 6, .vs2 = 4});
  for (unsigned i = 0; i < 32; ++i) {
    EXPECT_EQ(m.warp->v[2][i], kNegZero) << i;
    EXPECT_EQ(m.warp->v[3][i], 0u) << i;
  }
  m.run("vmfeq.vv", {.vd = 5, .vs1 = 6, .vs2 = 4});
  EXPECT_EQ(m.warp->v[5][0], 1u);
  EXPECT_EQ(m.warp->fflags, 0u);
}

TEST(VectorFloat, IntToFloatAroundTwoToThe24) {
  const int32_t inputs[] = {1 << 24, (1 << 24) + 1, -(1 << 24), -(1 << 24) - 1, (1 << 25) - 1, 7};
  for (uint32_t rm = 0; rm < 5; ++rm) {
    for (const char* mn : {"vfcvt.f.x.v", "vfcvt.f.xu.v"}) {
      Machine m;
      m.warp->frm = rm;
      for (unsigned i = 0; i < 32; ++i) m.warp->v[4][i] = static_cast<uint32_t>(inputs[i % 6]);
      m.run(mn, {.vd = 2, .vs2 = 4});
      uint32_t flags = 0;
      for (unsigned i = 0; i < 32; ++i) {
        const uint32_t a = static_cast<uint32_t>(inputs[i % 6]);
        const uint32_t want = std::string(mn) == "vfcvt.f.x.v"
                                  ? fp::from_i32(static_cast<int32_t>(a), rm, flags)
                                  : fp::from_u32(a, rm, flags);
        EXPECT_EQ(m.warp->v[2][i], want) << mn << " rm " << rm << " lane " << i;
      }
      EXPECT_EQ(m.warp->fflags, flags) << mn << " rm " << rm;
      // Only inputs within 2^24: the exact path, no flags.
      m.warp->fflags = 0;
      for (unsigned i = 0; i < 32; ++i) m.warp->v[4][i] = (1u << 24) - i;
      m.run(mn, {.vd = 2, .vs2 = 4});
      EXPECT_EQ(m.warp->v[2][1], 0x4b7fffffu);  // 2^24 - 1
      EXPECT_EQ(m.warp->fflags, 0u);
    }
  }
}

TEST(VectorFloat, TruncatingConversionsInRange) {
  Machine m;
  for (unsigned i = 0; i < 32; ++i) m.warp->v[4][i] = 0x4effffffu - i;  // just below 2^31
  m.warp->v[4][5] = 0x3fc00000;                                         // 1.5
  m.warp->v[4][6] = kNegZero;
  m.run("vfcvt.rtz.xu.f.v", {.vd = 2, .vs2 = 4});
  EXPECT_EQ(m.warp->v[2][0], 0x7fffff80u);  // 2^31 - 128
  EXPECT_EQ(m.warp->v[2][5], 1u);
  EXPECT_EQ(m.warp->v[2][6], 0u);
  EXPECT_EQ(m.warp->fflags, fp::kNX);  // from 1.5 only
  m.warp->fflags = 0;
  m.warp->mask = ~(1u << 5);  // 1.5 inactive: everything else converts exactly
  m.run("vfcvt.rtz.x.f.v", {.vd = 3, .vs2 = 4});
  EXPECT_EQ(m.warp->fflags, 0u);
  m.warp->v[4][7] = 0xcf000000;  // -2^31 is in range for the signed form
  m.run("vfcvt.rtz.x.f.v", {.vd = 3, .vs2 = 4});
  EXPECT_EQ(m.warp->v[3][7], 0x80000000u);
  EXPECT_EQ(m.warp->fflags, 0u);
  m.warp->v[4][7] = kOne;
  m.warp->v[4][8] = 0xbf000000;  // -0.5 to unsigned: 0 with NX (the fp library's path)
  m.run("vfcvt.rtz.xu.f.v", {.vd = 2, .vs2 = 4});
  EXPECT_EQ(m.warp->v[2][8], 0u);
  EXPECT_EQ(m.warp->fflags, fp::kNX);
}

TEST(VectorCustom, Add12TakesAnUnsignedImmediate) {
  Machine m;
  fill(m, 4, 10);
  m.run("vadd12.vi", {.vd = 2, .vs1 = 4, .imm = 4095});
  EXPECT_EQ(m.warp->v[2][0], 4105u);
  m.run("vsub12.vi", {.vd = 3, .vs1 = 4, .imm = 11});
  EXPECT_EQ(m.warp->v[3][0], 0xffffffffu);
}

TEST(VectorCustom, VfttaIsAFusedMultiplyAccumulate) {
  Machine m;
  m.warp->frm = fp::kRNE;
  fill(m, 4, 0x3f800001);  // 1 + 2^-23
  fill(m, 6, 0x3f7fffff);  // 1 - 2^-24
  fill(m, 8, 0xbf800000);  // -1
  // x*y - 1 = 2^-24 - 2^-47 exactly (0x337ffffe); rounding x*y first would give 1, then 0.
  m.run("vftta.vv", {.vd = 8, .vs1 = 4, .vs2 = 6});
  EXPECT_EQ(m.warp->v[8][0], 0x337ffffeu);
  EXPECT_EQ(m.warp->fflags, 0u);
}

TEST(VectorCustom, VfexpIsCorrectlyRoundedExp) {
  Machine m;
  m.warp->frm = fp::kRNE;
  m.warp->v[4][0] = 0;
  m.warp->v[4][1] = kOne;
  m.warp->v[4][2] = 0xff800000;  // e^-inf = +0
  m.warp->v[4][3] = 0x42c80000;  // e^100 overflows
  m.warp->mask = 0xf;
  m.run("vfexp", {.vd = 2, .vs2 = 4});
  EXPECT_EQ(m.warp->v[2][0], kOne);
  EXPECT_EQ(m.warp->v[2][1], 0x402df854u);  // e = 2.71828174... rounded to nearest
  EXPECT_EQ(m.warp->v[2][2], 0u);
  EXPECT_EQ(m.warp->v[2][3], 0x7f800000u);
  EXPECT_EQ(m.warp->fflags, fp::kNX | fp::kOF);
}

// The hardware's fp16 conversions on the encodings of vfwcvt.xu.f.v (half -> float) and
// vfwcvt.x.f.v (float -> half, in frm), at SEW=32 (docs/isa.md).
TEST(VectorCustom, HalfFloatConversions) {
  Machine m;
  m.warp->frm = fp::kRNE;
  m.warp->mask = 0xf;
  m.warp->v[4][0] = 0xabcd3c00;  // half 1.0 in the low 16 bits; the high bits are ignored
  m.warp->v[4][1] = 0xc000;      // -2.0
  m.warp->v[4][2] = 0x0001;      // the smallest subnormal half, 2^-24
  m.warp->v[4][3] = 0x7c00;      // +inf
  m.run("vfwcvt.xu.f.v", {.vd = 2, .vs2 = 4});
  EXPECT_EQ(m.warp->v[2][0], kOne);
  EXPECT_EQ(m.warp->v[2][1], 0xc0000000u);
  EXPECT_EQ(m.warp->v[2][2], 0x33800000u);
  EXPECT_EQ(m.warp->v[2][3], 0x7f800000u);
  EXPECT_EQ(m.warp->fflags, 0u);
  m.warp->v[6][0] = kOne;
  m.warp->v[6][1] = 0x3f801000;  // 1 + 2^-11: a tie between 1.0 and 1 + 2^-10, to even
  m.warp->v[6][2] = 0x47800000;  // 65536 overflows to +inf
  m.warp->v[6][3] = kNegZero;
  m.run("vfwcvt.x.f.v", {.vd = 8, .vs2 = 6});
  EXPECT_EQ(m.warp->v[8][0], 0x3c00u);
  EXPECT_EQ(m.warp->v[8][1], 0x3c00u);
  EXPECT_EQ(m.warp->v[8][2], 0x7c00u);
  EXPECT_EQ(m.warp->v[8][3], 0x8000u);
  EXPECT_EQ(m.warp->fflags, fp::kNX | fp::kOF);
}

// fp16 at SEW=16: the element is the low half of the lane word, the upper half is ignored
// on reading and written as zero.
TEST(VectorFloat, HalfPrecisionUsesTheLowSixteenBits) {
  Machine m;
  m.warp->vcfg.sew = 16;
  m.warp->frm = fp::kRNE;
  fill(m, 4, 0xabcd3c00);  // 1.0 with noise above
  fill(m, 6, 0x12343e00);  // 1.5
  m.run("vfadd.vv", {.vd = 8, .vs1 = 4, .vs2 = 6});
  EXPECT_EQ(m.warp->v[8][0], 0x4100u);  // 2.5
  EXPECT_EQ(m.warp->fflags, 0u);
  // 65504 (max) + 32 ties to even at 65536: overflow to +inf with OF|NX.
  fill(m, 4, 0x7bff);
  fill(m, 6, 0x5000);
  m.run("vfadd.vv", {.vd = 8, .vs1 = 4, .vs2 = 6});
  EXPECT_EQ(m.warp->v[8][0], 0x7c00u);
  EXPECT_EQ(m.warp->fflags, fp::kOF | fp::kNX);
  // A signaling NaN gives the fp16 canonical NaN 0x7e00 and NV.
  m.warp->fflags = 0;
  fill(m, 4, 0xffff7c01);
  m.run("vfmul.vv", {.vd = 8, .vs1 = 4, .vs2 = 6});
  EXPECT_EQ(m.warp->v[8][0], 0x7e00u);
  EXPECT_EQ(m.warp->fflags, fp::kNV);
  // Sign injection flips bit 15 and clears the upper half.
  fill(m, 4, 0xffff3c00);
  m.run("vfsgnjn.vv", {.vd = 8, .vs1 = 4, .vs2 = 4});
  EXPECT_EQ(m.warp->v[8][0], 0xbc00u);
  // vfmv.f.s sign-extends the element into x[rd] (Zhinx); vfmv.v.f takes x's low half.
  m.run("vfmv.f.s", {.vs2 = 8, .rd = 5});
  EXPECT_EQ(m.warp->x[5], 0xffffbc00u);
  m.warp->x[6] = 0x55554400;  // 4.0
  m.run("vfmv.v.f", {.vd = 10, .rs1 = 6});
  EXPECT_EQ(m.warp->v[10][3], 0x4400u);
}

TEST(VectorFloat, HalfPrecisionConversionsUseSixteenBitIntegers) {
  Machine m;
  m.warp->vcfg.sew = 16;
  m.warp->frm = fp::kRNE;
  m.warp->v[4][0] = 0x7800;  // 32768: above int16 max, saturates with NV alone
  m.warp->v[4][1] = 0xc0c0;  // -2.375 rounds to -2 with NX: 0xfffe in 16 bits
  m.warp->v[4][2] = 0xfc00;  // -inf: int16 min with NV
  m.run("vfcvt.x.f.v", {.vd = 8, .vs2 = 4});
  EXPECT_EQ(m.warp->v[8][0], 0x7fffu);
  EXPECT_EQ(m.warp->v[8][1], 0xfffeu);
  EXPECT_EQ(m.warp->v[8][2], 0x8000u);
  EXPECT_EQ(m.warp->fflags, fp::kNV | fp::kNX);
  // int16 -> fp16: 0x8001 = -32767 rounds (11-bit precision, quantum 32) to -32768 = 0xf800.
  m.warp->fflags = 0;
  m.warp->v[4][0] = 0xffff8001;
  m.run("vfcvt.f.x.v", {.vd = 8, .vs2 = 4});
  EXPECT_EQ(m.warp->v[8][0], 0xf800u);
  EXPECT_EQ(m.warp->fflags, fp::kNX);
  // uint16 65535 -> fp16 rounds to 65536, beyond the largest finite 65504: +inf, OF|NX.
  m.warp->fflags = 0;
  m.warp->v[4][0] = 0xffff;
  m.run("vfcvt.f.xu.v", {.vd = 8, .vs2 = 4});
  EXPECT_EQ(m.warp->v[8][0], 0x7c00u);
  EXPECT_EQ(m.warp->fflags, fp::kOF | fp::kNX);
}

}  // namespace
}  // namespace ventus::test
