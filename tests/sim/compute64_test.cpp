// The 64-bit compute instruction (docs/isa.md, "v2025: 64-bit compute"): every row on
// random operands and modifiers against a host reference written here. Integer results and
// fp32 come from host arithmetic (fp32 under the host rounding mode); fp16 results are the
// exact double result of the two fp16 operands (exact for add/sub/mul) rounded once by the
// fp library's binary16 conversion, which is checked on its own against qemu and a double
// reference (tests/fp).
#include <gtest/gtest.h>

#include <bit>
#include <cfenv>
#include <cmath>
#include <cstring>
#include <memory>
#include <random>

#include "formats.h"
#include "semantics.h"
#include "ventus/isa.h"

namespace ventus::test {
namespace {

using isa::Op;

enum class Kind { Add, Sub, Mul, Min, Max };

struct RowCase {
  Kind kind;
  unsigned bits;
  bool fp;
};

RowCase row_case(std::string_view mnemonic) {
  RowCase c{};
  const size_t dot = mnemonic.find('.');
  std::string_view name = mnemonic.substr(3, dot - 3);  // after "v64"
  c.fp = name.front() == 'f';
  if (c.fp) name.remove_prefix(1);
  c.kind = name == "add"   ? Kind::Add
           : name == "sub" ? Kind::Sub
           : name == "mul" ? Kind::Mul
           : name == "min" ? Kind::Min
                           : Kind::Max;
  c.bits = static_cast<unsigned>(std::stoul(std::string(mnemonic.substr(dot + 2))));
  return c;
}

int64_t signed_value(uint32_t x, unsigned bits) {
  return static_cast<int64_t>(static_cast<int32_t>(x << (32 - bits)) >> (32 - bits));
}

uint32_t int_reference(Kind k, uint32_t a, uint32_t b, unsigned bits, bool abs_a, bool neg_a,
                       bool abs_b, bool neg_b) {
  const uint32_t mask = bits == 32 ? ~0u : (1u << bits) - 1;
  const auto modify = [&](uint32_t x, bool abs, bool neg) {
    int64_t v = signed_value(x & mask, bits);
    if (abs) v = v < 0 ? -v : v;
    if (neg) v = -v;
    return static_cast<uint32_t>(v) & mask;
  };
  const int64_t x = signed_value(modify(a, abs_a, neg_a), bits);
  const int64_t y = signed_value(modify(b, abs_b, neg_b), bits);
  int64_t r = 0;
  switch (k) {
    case Kind::Add: r = x + y; break;
    case Kind::Sub: r = x - y; break;
    case Kind::Mul: r = x * y; break;
    case Kind::Min: r = std::min(x, y); break;
    case Kind::Max: r = std::max(x, y); break;
  }
  return static_cast<uint32_t>(r) & mask;
}

constexpr uint32_t kNV = 16;

bool is_nan(uint32_t x, unsigned bits) {
  return bits == 32 ? (x & 0x7fffffffu) > 0x7f800000u : (x & 0x7fffu) > 0x7c00u;
}
bool is_snan(uint32_t x, unsigned bits) {
  return is_nan(x, bits) && !(x & (bits == 32 ? 0x00400000u : 0x0200u));
}
double to_double(uint32_t x, unsigned bits) {
  if (bits == 32) return std::bit_cast<float>(x);
  const int e = static_cast<int>((x >> 10) & 31);
  const double m = x & 0x3ff;
  const double v = e == 0    ? std::ldexp(m, -24)
                   : e == 31 ? (m != 0 ? NAN : INFINITY)
                             : std::ldexp(1024 + m, e - 25);
  return (x & 0x8000) ? -v : v;
}

// RISC-V fmin/fmax (IEEE minimumNumber/maximumNumber, -0 < +0, canonical NaN).
uint32_t minmax_reference(bool is_max, uint32_t a, uint32_t b, unsigned bits, uint32_t& flags) {
  const uint32_t canonical = bits == 32 ? 0x7fc00000u : 0x7e00u;
  if (is_snan(a, bits) || is_snan(b, bits)) flags |= kNV;
  if (is_nan(a, bits) && is_nan(b, bits)) return canonical;
  if (is_nan(a, bits)) return b;
  if (is_nan(b, bits)) return a;
  const double x = to_double(a, bits), y = to_double(b, bits);
  if (x == y) {
    const uint32_t sign = bits == 32 ? 0x80000000u : 0x8000u;
    return is_max ? ((a & sign) ? b : a) : ((a & sign) ? a : b);
  }
  return (is_max ? x > y : x < y) ? a : b;
}

uint32_t fp_reference(Kind k, uint32_t a, uint32_t b, unsigned bits, uint32_t rm, uint32_t& flags) {
  if (k == Kind::Min || k == Kind::Max) return minmax_reference(k == Kind::Max, a, b, bits, flags);
  if (bits == 16) {
    const double x = to_double(a, 16), y = to_double(b, 16);
    const double r = k == Kind::Add ? x + y : k == Kind::Sub ? x - y : x * y;  // exact
    if (std::isnan(r)) {
      if (is_snan(a, 16) || is_snan(b, 16) || (!is_nan(a, 16) && !is_nan(b, 16))) flags |= kNV;
      return 0x7e00u;
    }
    return fp::narrow_from_f64(fp::Format::F16, std::bit_cast<uint64_t>(r), rm, false, flags);
  }
  static constexpr int kHostModes[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};
  std::feclearexcept(FE_ALL_EXCEPT);
  std::fesetround(kHostModes[rm]);
  volatile float x = std::bit_cast<float>(a), y = std::bit_cast<float>(b);
  volatile float r = k == Kind::Add ? x + y : k == Kind::Sub ? x - y : x * y;
  std::fesetround(FE_TONEAREST);
  const int e = std::fetestexcept(FE_ALL_EXCEPT);
  flags |= (e & FE_INVALID ? 16u : 0u) | (e & FE_OVERFLOW ? 4u : 0u) |
           (e & FE_UNDERFLOW ? 2u : 0u) | (e & FE_INEXACT ? 1u : 0u);
  const float result = r;
  return std::isnan(result) ? 0x7fc00000u : std::bit_cast<uint32_t>(result);
}

// Random element values with the special cases fp needs (zeros, infinities, NaNs, tiny).
uint32_t random_element(std::mt19937& rng, unsigned bits, bool fp) {
  const uint32_t r = rng();
  if (!fp || rng() % 4 != 0) return r;
  static constexpr uint32_t k32[] = {0,           0x80000000u, 0x7f800000u, 0xff800000u,
                                     0x7fc00000u, 0x7f800001u, 0x00000001u, 0x00800000u,
                                     0x7f7fffffu, 0x3f800000u};
  static constexpr uint32_t k16[] = {0,       0x8000u, 0x7c00u, 0xfc00u, 0x7e00u,
                                     0x7c01u, 0x0001u, 0x0400u, 0x7bffu, 0x3c00u};
  return bits == 32 ? k32[r % 10] : (r & 0xffff0000u) | k16[r % 10];
}

TEST(Compute64, EveryRowAgainstHostReference) {
  std::mt19937 rng(2025);
  auto warp = std::make_unique<sim::Warp>();
  sim::Warp& w = *warp;
  w.lanes = 32;
  w.lane_mask = w.mask = ~0u;
  w.vcfg.vl = 32;
  sim::Exec ctx{w};
  int rows = 0;
  for (const isa::InsnInfo& row : isa::instructions()) {
    if (!row.mnemonic.starts_with("v64")) continue;
    ++rows;
    const RowCase c = row_case(row.mnemonic);
    for (int trial = 0; trial < 40; ++trial) {
      const unsigned vd = rng() % 256, vs1 = rng() % 256, vs2 = rng() % 256;
      const unsigned abs = rng() % 4, neg = rng() % 4, opsel = c.bits == 16 ? rng() % 8 : 0;
      // The host has no RMM: fp32 rows take the four IEEE modes (RMM is covered for fp16).
      const uint32_t rm = c.fp && c.bits == 32 ? rng() % 4 : rng() % 5;
      w.frm = rm;
      w.fflags = 0;
      w.mask = trial % 3 == 0 ? static_cast<uint32_t>(rng()) : ~0u;
      for (unsigned lane = 0; lane < 32; ++lane) {
        w.v[vs1][lane] = random_element(rng, c.bits, c.fp);
        w.v[vs2][lane] = random_element(rng, c.bits, c.fp);
        if (vd != vs1 && vd != vs2) w.v[vd][lane] = rng();
      }
      uint64_t word = row.match;
      for (const isa::OperandSlot& s : row.operands) {
        const int64_t value = s.kind == isa::OperandKind::Vd    ? vd
                              : s.kind == isa::OperandKind::Vs1 ? vs1
                              : s.kind == isa::OperandKind::Vs2 ? vs2
                              : s.key == "abs"                  ? abs
                              : s.key == "neg"                  ? neg
                                                                : opsel;
        word = isa::set_operand(word, s, value);
      }
      const auto in = isa::decode(word);
      ASSERT_TRUE(in && in->op == row.op) << row.mnemonic;
      // The reference, from the state before.
      uint32_t want[32], flags = 0, before_vs1[32], before_vs2[32];
      std::memcpy(before_vs1, w.v[vs1], sizeof before_vs1);
      std::memcpy(before_vs2, w.v[vs2], sizeof before_vs2);
      for (unsigned lane = 0; lane < 32; ++lane) {
        const uint32_t a = w.v[vs2][lane], b = w.v[vs1][lane], old = w.v[vd][lane];
        if (!((w.mask >> lane) & 1)) {
          want[lane] = old;
          continue;
        }
        const bool abs_a = abs & 2, neg_a = neg & 2, abs_b = abs & 1, neg_b = neg & 1;
        const auto fp_mod = [&](uint32_t x, bool ab, bool ng) {
          const uint32_t sign = 1u << (c.bits - 1);
          if (ab) x &= ~sign;
          if (ng) x ^= sign;
          return x;
        };
        if (c.bits == 8) {
          uint32_t r = 0;
          for (unsigned byte = 0; byte < 4; ++byte)
            r |= int_reference(c.kind, a >> 8 * byte, b >> 8 * byte, 8, abs_a, neg_a, abs_b, neg_b)
                 << 8 * byte;
          want[lane] = r;
        } else if (c.bits == 16) {
          const uint32_t ha = (opsel & 2 ? a >> 16 : a) & 0xffff,
                         hb = (opsel & 1 ? b >> 16 : b) & 0xffff;
          const uint32_t r = c.fp ? fp_reference(c.kind, fp_mod(ha, abs_a, neg_a),
                                                 fp_mod(hb, abs_b, neg_b), 16, rm, flags)
                                  : int_reference(c.kind, ha, hb, 16, abs_a, neg_a, abs_b, neg_b);
          want[lane] = opsel & 4 ? (old & 0xffff) | r << 16 : (old & 0xffff0000u) | r;
        } else {
          want[lane] = c.fp ? fp_reference(c.kind, fp_mod(a, abs_a, neg_a), fp_mod(b, abs_b, neg_b),
                                           32, rm, flags)
                            : int_reference(c.kind, a, b, 32, abs_a, neg_a, abs_b, neg_b);
        }
      }
      sim::kSemantics[static_cast<size_t>(row.op)](ctx, *in);
      for (unsigned lane = 0; lane < 32; ++lane)
        ASSERT_EQ(w.v[vd][lane], want[lane])
            << row.mnemonic << " lane " << lane << " abs " << abs << " neg " << neg << " opsel "
            << opsel << " rm " << rm << std::hex << " vs2 " << before_vs2[lane] << " vs1 "
            << before_vs1[lane] << std::dec << " regs " << vd << " " << vs1 << " " << vs2
            << std::hex << " mask " << w.mask << " trial " << std::dec << trial;
      ASSERT_EQ(w.fflags, flags) << row.mnemonic << " rm " << rm;
    }
  }
  EXPECT_EQ(rows, 25);
}

}  // namespace
}  // namespace ventus::test
