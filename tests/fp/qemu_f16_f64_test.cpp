// binary16 (Zfh) and binary64 (D) operations against qemu-riscv32, an independent RISC-V
// implementation: generated operands (every binary16 value for the unary binary16
// operations) under all five rounding modes, comparing result bits and fflags.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <functional>
#include <random>
#include <string>
#include <vector>

#include "fp16.h"
#include "fp32.h"
#include "fp64.h"
#include "inputs.h"
#include "rv_runner.h"

namespace ventus::fp {
namespace {

// F/D registers plus Zfh; qemu 7.2 spells the property "Zfh".
const testing::RvTarget kTarget{"rv32imafd_zfh", "rv32,Zfh=true"};

struct Triple {
  uint64_t a, b, c;
};

// The field layout of a binary format, for generating operands.
struct Shape {
  int exponent_bits, fraction_bits;
  int max_field() const { return (1 << exponent_bits) - 1; }
  int bias() const { return (1 << (exponent_bits - 1)) - 1; }
  uint64_t sign_bit() const { return uint64_t{1} << (exponent_bits + fraction_bits); }
  uint64_t fraction_mask() const { return (uint64_t{1} << fraction_bits) - 1; }
  uint64_t make(bool sign, int field, uint64_t fraction) const {
    field = std::clamp(field, 0, max_field());
    return (sign ? sign_bit() : 0) | static_cast<uint64_t>(field) << fraction_bits |
           (fraction & fraction_mask());
  }
  int field_of(uint64_t a) const { return static_cast<int>(a >> fraction_bits) & max_field(); }
};
constexpr Shape kHalf{5, 10}, kDouble{11, 52};

class Generator {
 public:
  Generator(Shape shape, uint32_t seed) : s_(shape), rng_(seed) {}

  // Zeros, infinities, NaNs of both kinds, subnormal and normal extremes, values near 1.
  std::vector<uint64_t> specials() const {
    const uint64_t max = s_.make(false, s_.max_field() - 1, s_.fraction_mask());
    const uint64_t quiet = uint64_t{1} << (s_.fraction_bits - 1);
    std::vector<uint64_t> values = {0,
                                    s_.make(false, s_.max_field(), 0),
                                    s_.make(false, s_.max_field(), quiet),
                                    s_.make(false, s_.max_field(), 1),
                                    s_.make(false, s_.max_field(), quiet | 5),
                                    1,
                                    s_.fraction_mask(),
                                    quiet,
                                    s_.make(false, 1, 0),
                                    s_.make(false, 1, 1),
                                    max,
                                    max - 1,
                                    s_.make(false, s_.bias(), 0),
                                    s_.make(false, s_.bias(), 1),
                                    s_.make(false, s_.bias() - 1, s_.fraction_mask()),
                                    s_.make(false, s_.bias(), quiet),
                                    s_.make(false, s_.bias() + 1, 0),
                                    s_.make(false, s_.bias() - 1, 0)};
    const size_t n = values.size();
    for (size_t i = 0; i < n; ++i) values.push_back(values[i] | s_.sign_bit());
    return values;
  }

  uint64_t fraction() {
    const uint64_t mask = s_.fraction_mask();
    switch (rng_() % 6) {
      case 0: return rng_() & (mask & ~uint64_t{0xf});            // short: exact results
      case 1: return mask ^ (rng_() & 0x7);                       // carries
      case 2: return rng_() & 0x7;                                // sticky
      case 3: return (rng_() & mask & ~uint64_t{0x7}) | 0x4;      // halfway patterns
      default: return rng_() & mask;
    }
  }

  uint64_t any() {
    const int top = s_.max_field();
    switch (rng_() % 8) {
      case 0: {
        const auto values = specials();
        return values[rng_() % values.size()];
      }
      case 1: return rng_() & (2 * s_.sign_bit() - 1);
      case 2: return s_.make(rng_() & 1, 0, fraction());
      case 3: return s_.make(rng_() & 1, 1 + static_cast<int>(rng_() % 4), fraction());
      case 4: return s_.make(rng_() & 1, top - 5 + static_cast<int>(rng_() % 5), fraction());
      default: return s_.make(rng_() & 1, static_cast<int>(rng_() % static_cast<uint64_t>(top)), fraction());
    }
  }

  // A second operand whose exponent relates to the first one's: close (cancellation), or so
  // that a product or quotient lands near the subnormal or overflow border.
  uint64_t related(uint64_t a) {
    const int e = s_.field_of(a), bias = s_.bias();
    const int delta = static_cast<int>(rng_() % 61) - 30;
    switch (rng_() % 4) {
      case 0: return s_.make(rng_() & 1, e + delta % 3, fraction());
      case 1: return s_.make(rng_() & 1, e + delta, fraction());
      case 2: return s_.make(rng_() & 1, 2 * bias - e - 1 + delta % (s_.fraction_bits + 3), fraction());
      default: return s_.make(rng_() & 1, 3 * bias - e + delta % 3, fraction());
    }
  }

  // Values near the int32/uint32 range (within the format's range), with halfway cases.
  uint64_t near_integer() {
    if (rng_() % 4 == 0) return any();
    const int exponent = static_cast<int>(rng_() % 36) - 2;
    uint64_t frac = fraction();
    if (rng_() % 3 == 0 && exponent >= 1 && exponent < s_.fraction_bits) {
      const int half = s_.fraction_bits - 1 - exponent;
      frac = (frac & ~((uint64_t{2} << half) - 1)) | (uint64_t{1} << half);
    }
    return s_.make(rng_() & 1, s_.bias() + exponent, frac);
  }

  uint64_t integer() {
    switch (rng_() % 5) {
      case 0: return static_cast<uint32_t>(rng_() % 2001) - 1000;
      case 1: return (uint32_t{1} << (rng_() % 32)) + static_cast<uint32_t>(rng_() % 3) - 1;
      case 2: return static_cast<uint32_t>(rng_()) | 0x80000000u;
      case 3: return static_cast<uint32_t>(rng_()) >> (rng_() % 32);
      default: return static_cast<uint32_t>(rng_());
    }
  }

  std::mt19937_64& rng() { return rng_; }

 private:
  Shape s_;
  std::mt19937_64 rng_;
};

enum class Mix { kArithmetic, kFused, kToInteger, kFromInteger, kFromF32, kEveryHalf };

struct OpCase {
  const char* name;
  const char* load;   // flh / fld / flw: loads fa0..fa2 (a0 always gets the low word of a)
  const char* store;  // fsh / fsd / fsw for fa3, or sw for a3
  const char* assembly;
  Shape shape;
  Mix mix;
  std::function<uint64_t(const Triple&, uint32_t rm, uint32_t& flags)> library;
};

constexpr unsigned kRoundingModes = 5;
constexpr size_t kOperandsPerOp = 8000;

std::vector<Triple> operands_for(const OpCase& op, uint32_t seed) {
  Generator g(op.shape, seed);
  std::vector<Triple> operands;
  if (op.mix == Mix::kEveryHalf) {
    for (uint64_t a = 0; a < 0x10000; ++a) operands.push_back({a, 0, 0});
    return operands;
  }
  if (op.mix == Mix::kFromF32) {
    const auto f32 = testing::generate_operands(testing::OperandMix::kArithmetic, kOperandsPerOp, seed);
    for (const auto& o : f32) operands.push_back({o.a, 0, 0});
    // binary32 values around binary16's range and precision.
    for (int i = 0; i < 4000; ++i) {
      const uint32_t field = 127 - 28 + static_cast<uint32_t>(g.rng()() % 48);
      operands.push_back({(g.rng()() & 0x80000000u) | field << 23 | (g.rng()() & 0x7fffff), 0, 0});
    }
    return operands;
  }
  if (op.mix == Mix::kArithmetic || op.mix == Mix::kFused) {
    const auto specials = g.specials();
    for (uint64_t a : specials) {
      for (uint64_t b : specials) operands.push_back({a, b, specials[g.rng()() % specials.size()]});
    }
  }
  while (operands.size() < kOperandsPerOp) {
    Triple t{};
    switch (op.mix) {
      case Mix::kArithmetic:
      case Mix::kFused:
        t.a = g.any();
        t.b = g.rng()() % 3 ? g.related(t.a) : g.any();
        t.c = g.rng()() % 2 ? g.related(t.a) : g.any();
        if (op.mix == Mix::kFused && g.rng()() % 2) {
          // Near -(a*b): massive cancellation. The product comes from the library under
          // test, but only to pick operands; qemu judges the results.
          uint32_t ignored = 0;
          const uint64_t product = op.shape.exponent_bits == 5
                                       ? f16::mul(static_cast<uint16_t>(t.a), static_cast<uint16_t>(t.b), kRNE, ignored)
                                       : f64::mul(t.a, t.b, kRNE, ignored);
          t.c = (product ^ op.shape.sign_bit()) + g.rng()() % 5 - 2;
          t.c &= 2 * op.shape.sign_bit() - 1;
        }
        break;
      case Mix::kToInteger: t.a = g.near_integer(); break;
      default: t.a = g.integer(); break;
    }
    operands.push_back(t);
  }
  return operands;
}

std::string program_for(const OpCase& op, const std::vector<Triple>& operands) {
  std::string s = fmt::format(R"(.text
.globl _start
_start:
  la s0, inputs
  la s1, outputs
  li s2, {}
next:
  {} fa0, 0(s0)
  {} fa1, 8(s0)
  {} fa2, 16(s0)
  lw a0, 0(s0)
)",
                              operands.size(), op.load, op.load, op.load);
  for (unsigned rm = 0; rm < kRoundingModes; ++rm) {
    s += fmt::format("  li t0, {}\n  fsrm t0\n  fsflags zero\n  {}\n  frflags t1\n", rm, op.assembly);
    s += fmt::format("  {} {}3, 0(s1)\n  sw t1, 8(s1)\n  addi s1, s1, 16\n", op.store,
                     std::string(op.store) == "sw" ? "a" : "fa");
  }
  const size_t output_bytes = operands.size() * kRoundingModes * 16;
  s += fmt::format(R"(  addi s0, s0, 24
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
.balign 8
inputs:
)",
                   output_bytes);
  for (const Triple& t : operands) s += fmt::format("  .dword {:#x}, {:#x}, {:#x}\n", t.a, t.b, t.c);
  s += fmt::format(".bss\n.balign 8\noutputs:\n  .space {}\n", output_bytes);
  return s;
}

uint32_t seed_of(const char* name) {
  uint32_t h = 2166136261u;
  for (; *name; ++name) h = (h ^ static_cast<unsigned char>(*name)) * 16777619u;
  return h;
}

void PrintTo(const OpCase& op, std::ostream* os) {
  *os << op.name;
}

class QemuF16F64 : public ::testing::TestWithParam<OpCase> {};

TEST_P(QemuF16F64, MatchesBitsAndFlagsUnderEveryRoundingMode) {
  const std::string missing = testing::missing_rv_tools();
  if (!missing.empty()) GTEST_SKIP() << "RISC-V reference tools not installed: " << missing;
  const OpCase& op = GetParam();
  const auto operands = operands_for(op, seed_of(op.name));
  const std::vector<uint8_t> bytes = testing::run_rv32(program_for(op, operands), kTarget);
  ASSERT_EQ(bytes.size(), operands.size() * kRoundingModes * 16);
  // Only the bytes the store wrote count (.bss is zero above them).
  const std::string store = op.store;
  const unsigned width = store == "fsh" ? 2 : store == "fsd" ? 8 : 4;
  int reported = 0, mismatches = 0;
  for (size_t i = 0; i < operands.size(); ++i) {
    for (unsigned rm = 0; rm < kRoundingModes; ++rm) {
      const uint8_t* record = &bytes[(i * kRoundingModes + rm) * 16];
      uint64_t want = 0;
      for (unsigned k = 0; k < width; ++k) want |= uint64_t{record[k]} << (8 * k);
      const uint32_t want_flags = record[8];
      uint32_t flags = 0;
      uint64_t got = op.library(operands[i], rm, flags);
      if (width < 8) got &= (uint64_t{1} << (8 * width)) - 1;
      if (got == want && flags == want_flags) continue;
      ++mismatches;
      if (reported++ < 10) {
        ADD_FAILURE() << fmt::format("{} a={:#x} b={:#x} c={:#x} rm={}: library {:#x} flags {}, qemu {:#x} flags {}",
                                     op.name, operands[i].a, operands[i].b, operands[i].c, rm,
                                     got, flags, want, want_flags);
      }
    }
  }
  EXPECT_EQ(mismatches, 0) << "of " << operands.size() * kRoundingModes << " operations";
}

uint16_t h(uint64_t v) {
  return static_cast<uint16_t>(v);
}
constexpr uint64_t kSign16 = 0x8000u, kSign64 = uint64_t{1} << 63;
using R = uint64_t;
using T = const Triple&;

const OpCase kCases[] = {
    {"fadd_h", "flh", "fsh", "fadd.h fa3, fa0, fa1", kHalf, Mix::kArithmetic,
     [](T o, uint32_t rm, uint32_t& f) -> R { return f16::add(h(o.a), h(o.b), rm, f); }},
    {"fsub_h", "flh", "fsh", "fsub.h fa3, fa0, fa1", kHalf, Mix::kArithmetic,
     [](T o, uint32_t rm, uint32_t& f) -> R { return f16::sub(h(o.a), h(o.b), rm, f); }},
    {"fmul_h", "flh", "fsh", "fmul.h fa3, fa0, fa1", kHalf, Mix::kArithmetic,
     [](T o, uint32_t rm, uint32_t& f) -> R { return f16::mul(h(o.a), h(o.b), rm, f); }},
    {"fdiv_h", "flh", "fsh", "fdiv.h fa3, fa0, fa1", kHalf, Mix::kArithmetic,
     [](T o, uint32_t rm, uint32_t& f) -> R { return f16::div(h(o.a), h(o.b), rm, f); }},
    {"fsqrt_h", "flh", "fsh", "fsqrt.h fa3, fa0", kHalf, Mix::kEveryHalf,
     [](T o, uint32_t rm, uint32_t& f) -> R { return f16::sqrt(h(o.a), rm, f); }},
    {"fmadd_h", "flh", "fsh", "fmadd.h fa3, fa0, fa1, fa2", kHalf, Mix::kFused,
     [](T o, uint32_t rm, uint32_t& f) -> R { return f16::fma(h(o.a), h(o.b), h(o.c), rm, f); }},
    {"fnmadd_h", "flh", "fsh", "fnmadd.h fa3, fa0, fa1, fa2", kHalf, Mix::kFused,
     [](T o, uint32_t rm, uint32_t& f) -> R {
       return f16::fma(h(o.a ^ kSign16), h(o.b), h(o.c ^ kSign16), rm, f);
     }},
    {"fmin_h", "flh", "fsh", "fmin.h fa3, fa0, fa1", kHalf, Mix::kArithmetic,
     [](T o, uint32_t, uint32_t& f) -> R { return f16::min(h(o.a), h(o.b), f); }},
    {"fmax_h", "flh", "fsh", "fmax.h fa3, fa0, fa1", kHalf, Mix::kArithmetic,
     [](T o, uint32_t, uint32_t& f) -> R { return f16::max(h(o.a), h(o.b), f); }},
    {"feq_h", "flh", "sw", "feq.h a3, fa0, fa1", kHalf, Mix::kArithmetic,
     [](T o, uint32_t, uint32_t& f) -> R { return f16::eq(h(o.a), h(o.b), f); }},
    {"flt_h", "flh", "sw", "flt.h a3, fa0, fa1", kHalf, Mix::kArithmetic,
     [](T o, uint32_t, uint32_t& f) -> R { return f16::lt(h(o.a), h(o.b), f); }},
    {"fle_h", "flh", "sw", "fle.h a3, fa0, fa1", kHalf, Mix::kArithmetic,
     [](T o, uint32_t, uint32_t& f) -> R { return f16::le(h(o.a), h(o.b), f); }},
    {"fclass_h", "flh", "sw", "fclass.h a3, fa0", kHalf, Mix::kEveryHalf,
     [](T o, uint32_t, uint32_t&) -> R { return f16::classify(h(o.a)); }},
    {"fcvt_w_h", "flh", "sw", "fcvt.w.h a3, fa0", kHalf, Mix::kEveryHalf,
     [](T o, uint32_t rm, uint32_t& f) -> R { return static_cast<uint32_t>(f16::to_i32(h(o.a), rm, f)); }},
    {"fcvt_wu_h", "flh", "sw", "fcvt.wu.h a3, fa0", kHalf, Mix::kEveryHalf,
     [](T o, uint32_t rm, uint32_t& f) -> R { return f16::to_u32(h(o.a), rm, f); }},
    {"fcvt_h_w", "flh", "fsh", "fcvt.h.w fa3, a0", kHalf, Mix::kFromInteger,
     [](T o, uint32_t rm, uint32_t& f) -> R { return f16::from_i32(static_cast<int32_t>(o.a), rm, f); }},
    {"fcvt_h_wu", "flh", "fsh", "fcvt.h.wu fa3, a0", kHalf, Mix::kFromInteger,
     [](T o, uint32_t rm, uint32_t& f) -> R { return f16::from_u32(static_cast<uint32_t>(o.a), rm, f); }},
    {"fcvt_s_h", "flh", "fsw", "fcvt.s.h fa3, fa0", kHalf, Mix::kEveryHalf,
     [](T o, uint32_t, uint32_t& f) -> R { return f16::to_f32(h(o.a), f); }},
    {"fcvt_h_s", "flw", "fsh", "fcvt.h.s fa3, fa0", kHalf, Mix::kFromF32,
     [](T o, uint32_t rm, uint32_t& f) -> R { return f16::from_f32(static_cast<uint32_t>(o.a), rm, f); }},

    {"fadd_d", "fld", "fsd", "fadd.d fa3, fa0, fa1", kDouble, Mix::kArithmetic,
     [](T o, uint32_t rm, uint32_t& f) -> R { return f64::add(o.a, o.b, rm, f); }},
    {"fsub_d", "fld", "fsd", "fsub.d fa3, fa0, fa1", kDouble, Mix::kArithmetic,
     [](T o, uint32_t rm, uint32_t& f) -> R { return f64::sub(o.a, o.b, rm, f); }},
    {"fmul_d", "fld", "fsd", "fmul.d fa3, fa0, fa1", kDouble, Mix::kArithmetic,
     [](T o, uint32_t rm, uint32_t& f) -> R { return f64::mul(o.a, o.b, rm, f); }},
    {"fdiv_d", "fld", "fsd", "fdiv.d fa3, fa0, fa1", kDouble, Mix::kArithmetic,
     [](T o, uint32_t rm, uint32_t& f) -> R { return f64::div(o.a, o.b, rm, f); }},
    {"fsqrt_d", "fld", "fsd", "fsqrt.d fa3, fa0", kDouble, Mix::kArithmetic,
     [](T o, uint32_t rm, uint32_t& f) -> R { return f64::sqrt(o.a, rm, f); }},
    {"fmadd_d", "fld", "fsd", "fmadd.d fa3, fa0, fa1, fa2", kDouble, Mix::kFused,
     [](T o, uint32_t rm, uint32_t& f) -> R { return f64::fma(o.a, o.b, o.c, rm, f); }},
    {"fmsub_d", "fld", "fsd", "fmsub.d fa3, fa0, fa1, fa2", kDouble, Mix::kFused,
     [](T o, uint32_t rm, uint32_t& f) -> R { return f64::fma(o.a, o.b, o.c ^ kSign64, rm, f); }},
    {"fmin_d", "fld", "fsd", "fmin.d fa3, fa0, fa1", kDouble, Mix::kArithmetic,
     [](T o, uint32_t, uint32_t& f) -> R { return f64::min(o.a, o.b, f); }},
    {"fmax_d", "fld", "fsd", "fmax.d fa3, fa0, fa1", kDouble, Mix::kArithmetic,
     [](T o, uint32_t, uint32_t& f) -> R { return f64::max(o.a, o.b, f); }},
    {"feq_d", "fld", "sw", "feq.d a3, fa0, fa1", kDouble, Mix::kArithmetic,
     [](T o, uint32_t, uint32_t& f) -> R { return f64::eq(o.a, o.b, f); }},
    {"flt_d", "fld", "sw", "flt.d a3, fa0, fa1", kDouble, Mix::kArithmetic,
     [](T o, uint32_t, uint32_t& f) -> R { return f64::lt(o.a, o.b, f); }},
    {"fle_d", "fld", "sw", "fle.d a3, fa0, fa1", kDouble, Mix::kArithmetic,
     [](T o, uint32_t, uint32_t& f) -> R { return f64::le(o.a, o.b, f); }},
    {"fclass_d", "fld", "sw", "fclass.d a3, fa0", kDouble, Mix::kArithmetic,
     [](T o, uint32_t, uint32_t&) -> R { return f64::classify(o.a); }},
    {"fcvt_w_d", "fld", "sw", "fcvt.w.d a3, fa0", kDouble, Mix::kToInteger,
     [](T o, uint32_t rm, uint32_t& f) -> R { return static_cast<uint32_t>(f64::to_i32(o.a, rm, f)); }},
    {"fcvt_wu_d", "fld", "sw", "fcvt.wu.d a3, fa0", kDouble, Mix::kToInteger,
     [](T o, uint32_t rm, uint32_t& f) -> R { return f64::to_u32(o.a, rm, f); }},
    {"fcvt_d_w", "fld", "fsd", "fcvt.d.w fa3, a0", kDouble, Mix::kFromInteger,
     [](T o, uint32_t rm, uint32_t& f) -> R { return f64::from_i32(static_cast<int32_t>(o.a), rm, f); }},
    {"fcvt_d_wu", "fld", "fsd", "fcvt.d.wu fa3, a0", kDouble, Mix::kFromInteger,
     [](T o, uint32_t rm, uint32_t& f) -> R { return f64::from_u32(static_cast<uint32_t>(o.a), rm, f); }},
    {"fcvt_s_d", "fld", "fsw", "fcvt.s.d fa3, fa0", kDouble, Mix::kArithmetic,
     [](T o, uint32_t rm, uint32_t& f) -> R { return f64::to_f32(o.a, rm, f); }},
    {"fcvt_d_s", "flw", "fsd", "fcvt.d.s fa3, fa0", kDouble, Mix::kFromF32,
     [](T o, uint32_t, uint32_t& f) -> R { return f64::from_f32(static_cast<uint32_t>(o.a), f); }},
};

INSTANTIATE_TEST_SUITE_P(Zfh_D, QemuF16F64, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace ventus::fp
