// Every fp32 operation against qemu-riscv32 (an independent RISC-V F/V implementation):
// a few thousand generated operands per operation, each under all five rounding modes,
// comparing result bits and fflags.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <string>

#include "fp32.h"
#include "inputs.h"
#include "rv_runner.h"

namespace ventus::fp {
namespace {

using testing::OperandMix;
using testing::Operands;

constexpr uint32_t kSign = 0x80000000u;

struct OpCase {
  const char* name;
  // Instruction(s) computing the result into fa3 (float) or a3 (integer) from fa0/fa1/fa2 or
  // the integer a0; rounding-mode-dependent ones use the dynamic mode set with fsrm.
  const char* assembly;
  bool integer_result;
  OperandMix mix;
  std::function<uint32_t(const Operands&, uint32_t rm, uint32_t& flags)> library;
};

constexpr unsigned kRoundingModes = 5;
constexpr size_t kOperandsPerOp = 20000;

std::string program_for(const OpCase& op, const std::vector<Operands>& operands) {
  std::string s = R"(.text
.globl _start
_start:
  vsetivli zero, 1, e32, m1, ta, ma
  la s0, inputs
  la s1, outputs
  li s2, )" + std::to_string(operands.size()) +
                  R"(
next:
  flw fa0, 0(s0)
  flw fa1, 4(s0)
  flw fa2, 8(s0)
  lw a0, 0(s0)
)";
  for (unsigned rm = 0; rm < kRoundingModes; ++rm) {
    s += fmt::format("  li t0, {}\n  fsrm t0\n  fsflags zero\n  {}\n  frflags t1\n", rm,
                     op.assembly);
    s += op.integer_result ? "  sw a3, 0(s1)\n" : "  fsw fa3, 0(s1)\n";
    s += "  sw t1, 4(s1)\n  addi s1, s1, 8\n";
  }
  s += fmt::format(R"(  addi s0, s0, 12
  addi s2, s2, -1
  bnez s2, next
  li a0, 1
  la a1, outputs
  li a2, {}
  li a7, 64
  ecall
  li a0, 0
  li a7, 93
  ecall
.data
inputs:
)",
                   operands.size() * kRoundingModes * 8);
  for (const Operands& o : operands)
    s += fmt::format("  .word {:#x}, {:#x}, {:#x}\n", o.a, o.b, o.c);
  s += fmt::format(".bss\noutputs:\n  .space {}\n", operands.size() * kRoundingModes * 8);
  return s;
}

// A fixed seed per operation (FNV-1a of its name) so every run checks the same operands.
uint32_t seed_of(const char* name) {
  uint32_t h = 2166136261u;
  for (; *name; ++name) h = (h ^ static_cast<unsigned char>(*name)) * 16777619u;
  return h;
}

std::string hex(uint32_t v) {
  return fmt::format("{:#010x}", v);
}

void PrintTo(const OpCase& op, std::ostream* os) {
  *os << op.name;
}

class QemuCrossCheck : public ::testing::TestWithParam<OpCase> {};

TEST_P(QemuCrossCheck, MatchesBitsAndFlagsUnderEveryRoundingMode) {
  const std::string missing = testing::missing_rv_tools();
  if (!missing.empty()) GTEST_SKIP() << "RISC-V reference tools not installed: " << missing;
  const OpCase& op = GetParam();
  const auto operands = testing::generate_operands(op.mix, kOperandsPerOp, seed_of(op.name));
  const auto words = testing::words_of(testing::run_rv32(program_for(op, operands)));
  ASSERT_EQ(words.size(), operands.size() * kRoundingModes * 2);
  int reported = 0, mismatches = 0;
  for (size_t i = 0; i < operands.size(); ++i) {
    for (unsigned rm = 0; rm < kRoundingModes; ++rm) {
      const size_t at = (i * kRoundingModes + rm) * 2;
      uint32_t flags = 0;
      const uint32_t result = op.library(operands[i], rm, flags);
      if (result == words[at] && flags == words[at + 1]) continue;
      ++mismatches;
      if (reported++ < 10) {
        ADD_FAILURE() << op.name << " a=" << hex(operands[i].a) << " b=" << hex(operands[i].b)
                      << " c=" << hex(operands[i].c) << " rm=" << rm << ": library " << hex(result)
                      << " flags " << flags << ", qemu " << hex(words[at]) << " flags "
                      << words[at + 1];
      }
    }
  }
  EXPECT_EQ(mismatches, 0) << "of " << operands.size() * kRoundingModes << " operations";
}

uint32_t as_bits(bool value) {
  return value;
}

// Runs one operation through a lane helper on 8 identical lanes (enough to take the host
// SSE path where the rounding mode allows): every lane must agree, flags are the same.
using LaneOp = void (*)(const uint32_t*, const uint32_t*, uint32_t*, uint32_t, unsigned, uint32_t,
                        uint32_t&);
template <LaneOp Op>
uint32_t through_lanes(const Operands& o, uint32_t rm, uint32_t& flags) {
  constexpr unsigned kLanes = 8;
  uint32_t a[kLanes], b[kLanes], d[kLanes];
  std::fill(a, a + kLanes, o.a);
  std::fill(b, b + kLanes, o.b);
  Op(a, b, d, 0xffu, kLanes, rm, flags);
  for (unsigned i = 1; i < kLanes; ++i) EXPECT_EQ(d[i], d[0]) << "lane " << i;
  return d[0];
}

void sqrt_as_binary(const uint32_t* a, const uint32_t*, uint32_t* d, uint32_t mask, unsigned lanes,
                    uint32_t rm, uint32_t& flags) {
  sqrt_lanes(a, d, mask, lanes, rm, flags);
}

uint32_t fma_through_lanes(const Operands& o, uint32_t rm, uint32_t& flags) {
  uint32_t a[4] = {o.a, o.a, o.a, o.a}, b[4] = {o.b, o.b, o.b, o.b}, c[4] = {o.c, o.c, o.c, o.c};
  fma_lanes(a, b, c, c, 0xfu, 4, rm, flags);
  return c[3];
}

const OpCase kCases[] = {
    {"fadd", "fadd.s fa3, fa0, fa1", false, OperandMix::kArithmetic,
     [](const Operands& o, uint32_t rm, uint32_t& f) { return add(o.a, o.b, rm, f); }},
    {"fadd_lanes", "fadd.s fa3, fa0, fa1", false, OperandMix::kArithmetic,
     through_lanes<add_lanes>},
    {"fsub_lanes", "fsub.s fa3, fa0, fa1", false, OperandMix::kArithmetic,
     through_lanes<sub_lanes>},
    {"fsub", "fsub.s fa3, fa0, fa1", false, OperandMix::kArithmetic,
     [](const Operands& o, uint32_t rm, uint32_t& f) { return sub(o.a, o.b, rm, f); }},
    {"fmul", "fmul.s fa3, fa0, fa1", false, OperandMix::kArithmetic,
     [](const Operands& o, uint32_t rm, uint32_t& f) { return mul(o.a, o.b, rm, f); }},
    {"fmul_lanes", "fmul.s fa3, fa0, fa1", false, OperandMix::kArithmetic,
     through_lanes<mul_lanes>},
    {"fdiv", "fdiv.s fa3, fa0, fa1", false, OperandMix::kArithmetic,
     [](const Operands& o, uint32_t rm, uint32_t& f) { return div(o.a, o.b, rm, f); }},
    {"fdiv_lanes", "fdiv.s fa3, fa0, fa1", false, OperandMix::kArithmetic,
     through_lanes<div_lanes>},
    {"fsqrt", "fsqrt.s fa3, fa0", false, OperandMix::kArithmetic,
     [](const Operands& o, uint32_t rm, uint32_t& f) { return sqrt(o.a, rm, f); }},
    {"fsqrt_lanes", "fsqrt.s fa3, fa0", false, OperandMix::kArithmetic,
     through_lanes<sqrt_as_binary>},
    {"fmadd", "fmadd.s fa3, fa0, fa1, fa2", false, OperandMix::kFusedMultiply,
     [](const Operands& o, uint32_t rm, uint32_t& f) { return fma(o.a, o.b, o.c, rm, f); }},
    {"fmadd_lanes", "fmadd.s fa3, fa0, fa1, fa2", false, OperandMix::kFusedMultiply,
     fma_through_lanes},
    {"fmsub", "fmsub.s fa3, fa0, fa1, fa2", false, OperandMix::kFusedMultiply,
     [](const Operands& o, uint32_t rm, uint32_t& f) { return fma(o.a, o.b, o.c ^ kSign, rm, f); }},
    {"fnmsub", "fnmsub.s fa3, fa0, fa1, fa2", false, OperandMix::kFusedMultiply,
     [](const Operands& o, uint32_t rm, uint32_t& f) { return fma(o.a ^ kSign, o.b, o.c, rm, f); }},
    {"fnmadd", "fnmadd.s fa3, fa0, fa1, fa2", false, OperandMix::kFusedMultiply,
     [](const Operands& o, uint32_t rm, uint32_t& f) {
       return fma(o.a ^ kSign, o.b, o.c ^ kSign, rm, f);
     }},
    {"fmin", "fmin.s fa3, fa0, fa1", false, OperandMix::kArithmetic,
     [](const Operands& o, uint32_t, uint32_t& f) { return min(o.a, o.b, f); }},
    {"fmax", "fmax.s fa3, fa0, fa1", false, OperandMix::kArithmetic,
     [](const Operands& o, uint32_t, uint32_t& f) { return max(o.a, o.b, f); }},
    {"feq", "feq.s a3, fa0, fa1", true, OperandMix::kArithmetic,
     [](const Operands& o, uint32_t, uint32_t& f) { return as_bits(eq(o.a, o.b, f)); }},
    {"flt", "flt.s a3, fa0, fa1", true, OperandMix::kArithmetic,
     [](const Operands& o, uint32_t, uint32_t& f) { return as_bits(lt(o.a, o.b, f)); }},
    {"fle", "fle.s a3, fa0, fa1", true, OperandMix::kArithmetic,
     [](const Operands& o, uint32_t, uint32_t& f) { return as_bits(le(o.a, o.b, f)); }},
    {"fclass", "fclass.s a3, fa0", true, OperandMix::kArithmetic,
     [](const Operands& o, uint32_t, uint32_t&) { return classify(o.a); }},
    {"fcvt_w_s", "fcvt.w.s a3, fa0", true, OperandMix::kToInteger,
     [](const Operands& o, uint32_t rm, uint32_t& f) {
       return static_cast<uint32_t>(to_i32(o.a, rm, f));
     }},
    {"fcvt_wu_s", "fcvt.wu.s a3, fa0", true, OperandMix::kToInteger,
     [](const Operands& o, uint32_t rm, uint32_t& f) { return to_u32(o.a, rm, f); }},
    {"fcvt_s_w", "fcvt.s.w fa3, a0", false, OperandMix::kFromInteger,
     [](const Operands& o, uint32_t rm, uint32_t& f) {
       return from_i32(static_cast<int32_t>(o.a), rm, f);
     }},
    {"fcvt_s_wu", "fcvt.s.wu fa3, a0", false, OperandMix::kFromInteger,
     [](const Operands& o, uint32_t rm, uint32_t& f) { return from_u32(o.a, rm, f); }},
    {"vfrec7", "vfmv.s.f v1, fa0\n  vfrec7.v v2, v1\n  vfmv.f.s fa3, v2", false,
     OperandMix::kArithmetic,
     [](const Operands& o, uint32_t rm, uint32_t& f) { return rec7(o.a, rm, f); }},
    {"vfrsqrt7", "vfmv.s.f v1, fa0\n  vfrsqrt7.v v2, v1\n  vfmv.f.s fa3, v2", false,
     OperandMix::kArithmetic,
     [](const Operands& o, uint32_t, uint32_t& f) { return rsqrt7(o.a, f); }},
};

INSTANTIATE_TEST_SUITE_P(Fp32, QemuCrossCheck, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace ventus::fp
