// The mma rows against a host reference written here, independently of the simulator: the
// shape and types come from the mnemonic, matrices are plain host arrays packed into the
// register file by this file's own layout code (docs/isa.md "MMA and MMA64"), and the
// arithmetic is plain loops: fp32 accumulation through the host's fmaf under fesetround
// (IEEE, tininess after rounding as RISC-V), integers exactly in int64.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cfenv>
#include <cmath>
#include <cstring>
#include <memory>
#include <random>
#include <regex>
#include <string>
#include <vector>

#include "fp32.h"  // flag and rounding-mode numbers only
#include "semantics.h"
#include "sim_harness.h"

namespace ventus::test {
namespace {

enum class Type { F32, F16, BF16, E4M3, E5M2, S8, S4, B1 };
enum class AccType { F32, F16, S32 };

struct RowSpec {
  const isa::InsnInfo* row;
  unsigned m, n, k;
  Type ab;
  AccType acc;
};

void PrintTo(const RowSpec& s, std::ostream* os) { *os << s.row->mnemonic; }

unsigned bits_of(Type t) {
  switch (t) {
    case Type::F32: return 32;
    case Type::F16:
    case Type::BF16: return 16;
    case Type::E4M3:
    case Type::E5M2:
    case Type::S8: return 8;
    case Type::S4: return 4;
    case Type::B1: return 1;
  }
  return 0;
}

RowSpec parse(const isa::InsnInfo& row) {
  static const std::regex re(R"(mma\.m(\d+)n(\d+)k(\d+)\.(\w+)\.(\w+))");
  std::cmatch mt;
  const std::string text(row.mnemonic);
  if (!std::regex_match(text.c_str(), mt, re)) throw std::logic_error("mnemonic " + text);
  RowSpec s{&row, unsigned(std::stoi(mt[1])), unsigned(std::stoi(mt[2])),
            unsigned(std::stoi(mt[3])), Type::F32, AccType::S32};
  const std::string acc = mt[4], ab = mt[5];
  if (acc == "f32") s.acc = AccType::F32;
  else if (acc == "f16") s.acc = AccType::F16;
  else if (acc != "s32") throw std::logic_error("accumulator of " + text);
  if (ab == "f32") s.ab = Type::F32;
  else if (ab == "f16") s.ab = Type::F16;
  else if (ab == "bf16") s.ab = Type::BF16;
  else if (ab == "e4m3") s.ab = Type::E4M3;
  else if (ab == "e5m2") s.ab = Type::E5M2;
  else if (ab == "s8") s.ab = Type::S8;
  else if (ab == "s4") s.ab = Type::S4;
  else if (ab == "b1") s.ab = Type::B1;
  else throw std::logic_error("type of " + text);
  return s;
}

std::vector<RowSpec> mma_rows() {
  std::vector<RowSpec> out;
  for (const isa::InsnInfo& r : isa::instructions())
    if (r.cls == isa::InsnClass::Matrix && r.mnemonic.starts_with("mma.")) out.push_back(parse(r));
  return out;
}

// A matrix in host order: at(r, c).
struct Matrix {
  unsigned rows, cols;
  std::vector<uint32_t> e;
  Matrix(unsigned r, unsigned c) : rows(r), cols(c), e(r * c) {}
  uint32_t& at(unsigned r, unsigned c) { return e[r * cols + c]; }
  uint32_t at(unsigned r, unsigned c) const { return e[r * cols + c]; }
};

// The storage order of the fragment: row-major or column-major element list.
std::vector<uint32_t> storage(const Matrix& x, bool column_major) {
  std::vector<uint32_t> out;
  if (column_major) {
    for (unsigned c = 0; c < x.cols; ++c)
      for (unsigned r = 0; r < x.rows; ++r) out.push_back(x.at(r, c));
  } else {
    out = x.e;
  }
  return out;
}

unsigned acc_bits(const RowSpec& s) { return s.acc == AccType::F16 ? 16 : 32; }

unsigned words_of(unsigned elements, unsigned bits) { return elements * bits / 32; }
unsigned regs_of(unsigned elements, unsigned bits, unsigned lanes) {
  return (words_of(elements, bits) + lanes - 1) / lanes;
}

// Element list -> words -> word w at v[base + w / T][w % T].
void place(sim::Warp& w, unsigned base, const std::vector<uint32_t>& elements, unsigned bits) {
  const unsigned per_word = 32 / bits;
  for (size_t word = 0; word * per_word < elements.size(); ++word) {
    uint64_t value = 0;
    for (unsigned j = 0; j < per_word; ++j)
      value |= uint64_t{elements[word * per_word + j] & ((uint64_t{1} << bits) - 1)} << (j * bits);
    w.v[base + word / w.lanes][word % w.lanes] = static_cast<uint32_t>(value);
  }
}

struct Machine {
  std::unique_ptr<sim::Warp> warp = std::make_unique<sim::Warp>();
  sim::Exec ctx{*warp};
  explicit Machine(unsigned lanes) {
    warp->lanes = lanes;
    warp->lane_mask = warp->mask = lanes == 32 ? ~0u : (1u << lanes) - 1;
    warp->vcfg.vl = lanes;
  }
  // Encodes the row (regext high bits for registers above v31), decodes and executes it.
  void run(const isa::InsnInfo& row, unsigned vd, unsigned vs1, unsigned vs2) {
    uint32_t word = row.match;
    word = isa::set_operand(word, isa::OperandKind::Vd, vd & 31);
    word = isa::set_operand(word, isa::OperandKind::Vs1, vs1 & 31);
    word = isa::set_operand(word, isa::OperandKind::Vs2, vs2 & 31);
    isa::RegExt ext;
    ext.rd = static_cast<uint8_t>(vd >> 5);
    ext.rs1 = static_cast<uint8_t>(vs1 >> 5);
    ext.rs2 = static_cast<uint8_t>(vs2 >> 5);
    const auto d = isa::decode(word, ext);
    ASSERT_TRUE(d && d->op == row.op) << row.mnemonic;
    sim::kSemantics[static_cast<size_t>(d->op)](ctx, *d);
  }
};

// ---------------------------------------------------------------- host reference

uint32_t host_flags() {
  const int x = std::fetestexcept(FE_ALL_EXCEPT);
  uint32_t flags = 0;
  if (x & FE_INEXACT) flags |= fp::kNX;
  if (x & FE_UNDERFLOW) flags |= fp::kUF;
  if (x & FE_OVERFLOW) flags |= fp::kOF;
  if (x & FE_DIVBYZERO) flags |= fp::kDZ;
  if (x & FE_INVALID) flags |= fp::kNV;
  return flags;
}

int host_mode(uint32_t rm) {
  switch (rm) {
    case fp::kRNE: return FE_TONEAREST;
    case fp::kRTZ: return FE_TOWARDZERO;
    case fp::kRDN: return FE_DOWNWARD;
    default: return FE_UPWARD;
  }
}

// a*b + c with one rounding in mode rm on the host; a NaN result is the canonical NaN.
uint32_t host_fma(uint32_t a, uint32_t b, uint32_t c, uint32_t rm, uint32_t& flags) {
  std::fesetround(host_mode(rm));
  std::feclearexcept(FE_ALL_EXCEPT);
  volatile float fa = std::bit_cast<float>(a), fb = std::bit_cast<float>(b),
                 fc = std::bit_cast<float>(c);
  const float r = std::fma(fa, fb, fc);
  flags |= host_flags();
  std::fesetround(FE_TONEAREST);
  return std::isnan(r) ? 0x7fc00000u : std::bit_cast<uint32_t>(r);
}

// The narrow float formats: exponent and fraction widths, bias, whether the all-ones
// exponent means inf/NaN (IEEE-like) and, for E4M3, the single NaN pattern S.1111.111.
struct Narrow {
  int exponent_bits, fraction_bits, bias;
  bool ieee;
};
Narrow narrow_of(Type t) {
  switch (t) {
    case Type::F16: return {5, 10, 15, true};
    case Type::BF16: return {8, 7, 127, true};
    case Type::E4M3: return {4, 3, 7, false};
    default: return {5, 2, 15, true};  // E5M2
  }
}

// A narrow element as a host float (exact); NaN as NaN. *signalling: an IEEE-like NaN with
// the quiet bit clear.
float narrow_value(Type t, uint32_t x, bool* signalling) {
  const Narrow f = narrow_of(t);
  const uint32_t fraction = x & ((1u << f.fraction_bits) - 1);
  const uint32_t exponent = (x >> f.fraction_bits) & ((1u << f.exponent_bits) - 1);
  const bool negative = (x >> (f.fraction_bits + f.exponent_bits)) & 1;
  const uint32_t all_ones = (1u << f.exponent_bits) - 1;
  *signalling = false;
  float v;
  if (f.ieee && exponent == all_ones) {
    *signalling = fraction != 0 && !(fraction >> (f.fraction_bits - 1));
    v = fraction ? NAN : INFINITY;
  } else if (!f.ieee && exponent == all_ones && fraction == (1u << f.fraction_bits) - 1) {
    v = NAN;
  } else if (exponent == 0) {
    v = std::ldexp(float(fraction), 1 - f.bias - f.fraction_bits);
  } else {
    v = std::ldexp(float(fraction + (1u << f.fraction_bits)), int(exponent) - f.bias - f.fraction_bits);
  }
  return negative ? -v : v;
}

// The binary32 bits of an A/B element, and NV for a signalling NaN.
uint32_t as_f32(Type t, uint32_t x, uint32_t& flags) {
  if (t == Type::F32) return x;
  bool signalling = false;
  const float v = narrow_value(t, x, &signalling);
  if (signalling) flags |= fp::kNV;
  return std::isnan(v) ? 0x7fc00000u : std::bit_cast<uint32_t>(v);
}

// binary16 a*b + c with one rounding, exactly: finite values are integers times 2^-24, so
// a*b + c is an integer N times 2^-48 (|N| < 2^81), rounded here to 11 significant bits.
// RISC-V rules: canonical NaN 0x7e00, NV for a signalling NaN and for inf*0 (even with a
// quiet NaN addend), tininess after rounding.
struct Half {
  bool negative, nan, signalling, inf;
  __int128 units;  // |value| / 2^-24 for finite values
};
Half half_of(uint16_t x) {
  const uint32_t e = (x >> 10) & 31, f = x & 1023;
  Half h{bool(x >> 15), e == 31 && f, e == 31 && f && !(f & 512), e == 31 && !f, 0};
  if (e != 31) h.units = e == 0 ? __int128(f) : __int128(f + 1024) << (e - 1);
  return h;
}

uint16_t host_fma16(uint16_t a16, uint16_t b16, uint16_t c16, uint32_t rm, uint32_t& flags) {
  const Half a = half_of(a16), b = half_of(b16), c = half_of(c16);
  if (a.signalling || b.signalling || c.signalling) flags |= fp::kNV;
  const bool product_invalid = (a.inf && !b.nan && b.units == 0 && !b.inf) ||
                               (b.inf && !a.nan && a.units == 0 && !a.inf);
  if (product_invalid) flags |= fp::kNV;
  if (a.nan || b.nan || c.nan || product_invalid) return 0x7e00;
  const bool p_negative = a.negative != b.negative;
  if (a.inf || b.inf) {
    if (c.inf && c.negative != p_negative) {
      flags |= fp::kNV;
      return 0x7e00;
    }
    return p_negative ? 0xfc00 : 0x7c00;
  }
  if (c.inf) return c16;
  const __int128 p = a.units * b.units, addend = c.units << 24;
  const __int128 sum = (p_negative ? -p : p) + (c.negative ? -addend : addend);
  if (sum == 0) {
    if (p == 0 && c.units == 0 && p_negative == c.negative) return p_negative ? 0x8000 : 0;
    return rm == fp::kRDN ? 0x8000 : 0;
  }
  const bool negative = sum < 0;
  const unsigned __int128 n = negative ? -sum : sum;
  int top = 127;
  while (!((n >> top) & 1)) --top;
  const int exponent = top - 48;  // of the leading bit
  // Keeps 11 bits at `exponent` (unbounded range) or at 2^-14 (subnormals); rounds.
  const auto round_at = [&](int lsb_exponent, bool* inexact) {
    const int shift = lsb_exponent + 48;
    *inexact = false;
    if (shift <= 0) return n << -shift;  // fewer than 11 significant bits: exact
    const unsigned __int128 q = n >> shift, rest = n - (q << shift);
    const unsigned __int128 half = (unsigned __int128)1 << (shift - 1);
    bool up = false;
    switch (rm) {
      case fp::kRNE: up = rest > half || (rest == half && (q & 1)); break;
      case fp::kRTZ: break;
      case fp::kRDN: up = negative && rest; break;
      case fp::kRUP: up = !negative && rest; break;
      default: up = rest >= half; break;  // RMM
    }
    *inexact = rest != 0;
    return q + up;
  };
  bool inexact = false;
  const int lsb = std::max(exponent, -14) - 10;
  unsigned __int128 m = round_at(lsb, &inexact);
  bool unbounded_inexact = false;
  const unsigned __int128 mu = round_at(exponent - 10, &unbounded_inexact);
  const bool tiny = exponent < -14 && !(exponent == -15 && mu == 2048);
  if (inexact) flags |= fp::kNX;
  if (tiny && inexact) flags |= fp::kUF;
  int e = lsb;
  if (m == 2048) {
    m = 1024;
    ++e;
  }
  const uint16_t sign = negative ? 0x8000 : 0;
  if (m >= 1024 && e + 10 > 15) {  // overflow
    flags |= fp::kOF | fp::kNX;
    const bool to_inf = rm == fp::kRNE || rm == fp::kRMM || (rm == fp::kRUP && !negative) ||
                        (rm == fp::kRDN && negative);
    return sign | (to_inf ? 0x7c00 : 0x7bff);
  }
  if (m < 1024) return sign | uint16_t(m);  // subnormal (or rounded up to the smallest normal)
  return sign | uint16_t((e + 10 + 15) << 10) | uint16_t(m - 1024);
}

int64_t signed_value(uint32_t bits, unsigned width) {
  const int64_t v = bits & ((int64_t{1} << width) - 1);
  return v >= (int64_t{1} << (width - 1)) ? v - (int64_t{1} << width) : v;
}

// D = A x B + C: for each element, acc = C, then acc = round(acc + a*b) for k in order.
Matrix reference(const RowSpec& s, const Matrix& a, const Matrix& b, const Matrix& c, uint32_t rm,
                 uint32_t& flags) {
  Matrix d(s.m, s.n);
  Matrix a32 = a, b32 = b;
  if (s.acc == AccType::F32) {
    for (uint32_t& e : a32.e) e = as_f32(s.ab, e, flags);
    for (uint32_t& e : b32.e) e = as_f32(s.ab, e, flags);
  }
  for (unsigned i = 0; i < s.m; ++i) {
    for (unsigned j = 0; j < s.n; ++j) {
      if (s.acc == AccType::F32) {
        uint32_t acc = c.at(i, j);
        for (unsigned k = 0; k < s.k; ++k) acc = host_fma(a32.at(i, k), b32.at(k, j), acc, rm, flags);
        d.at(i, j) = acc;
      } else if (s.acc == AccType::F16) {
        uint16_t acc = uint16_t(c.at(i, j));
        for (unsigned k = 0; k < s.k; ++k)
          acc = host_fma16(uint16_t(a.at(i, k)), uint16_t(b.at(k, j)), acc, rm, flags);
        d.at(i, j) = acc;
      } else {
        int64_t acc = signed_value(c.at(i, j), 32);
        for (unsigned k = 0; k < s.k; ++k) {
          if (s.ab == Type::B1)
            acc += a.at(i, k) & b.at(k, j) & 1;
          else
            acc += signed_value(a.at(i, k), bits_of(s.ab)) * signed_value(b.at(k, j), bits_of(s.ab));
        }
        d.at(i, j) = static_cast<uint32_t>(acc);  // mma wraps
      }
    }
  }
  return d;
}

// ---------------------------------------------------------------- random operands

class Random {
 public:
  explicit Random(uint64_t seed) : gen_(seed) {}
  uint32_t bits() { return static_cast<uint32_t>(gen_()); }
  unsigned below(unsigned n) { return static_cast<unsigned>(gen_() % n); }
  // Magnitudes 2^-8..2^8 with either sign: sums of such products stay finite.
  uint32_t moderate_float() { return (bits() & 0x807fffffu) | ((119u + below(16)) << 23); }
  uint32_t special_float() {
    static constexpr uint32_t kSpecial[] = {0x00000000, 0x80000000, 0x7f800000, 0xff800000,
                                            0x7fc00000, 0x7f800001, 0x00000001, 0x807fffff,
                                            0x7f7fffff, 0xff7fffff, 0x3f800000, 0x00800000};
    return kSpecial[below(std::size(kSpecial))];
  }
  // Moderate values (products and sums of a few dozen stay finite); with `specials`, one
  // in 40 is any bit pattern (NaN, inf, subnormal, the extremes).
  uint32_t element(Type t, bool with_specials) {
    if (t == Type::F32) return with_specials && below(40) == 0 ? special_float() : moderate_float();
    if (t == Type::S8 || t == Type::S4 || t == Type::B1) {
      if (below(8) == 0) return bits_of(t) == 1 ? 1u : (1u << (bits_of(t) - 1));  // most negative
      return bits() & ((1u << bits_of(t)) - 1);
    }
    const uint32_t any = bits() & ((1u << bits_of(t)) - 1);
    if (with_specials && below(40) == 0) return any;
    switch (t) {
      case Type::F16: return (any & 0x83ff) | ((10 + below(11)) << 10);  // 2^-5..2^5
      case Type::BF16: return (any & 0x807f) | ((119 + below(16)) << 7);
      case Type::E4M3: return (any & 0x7f) == 0x7f ? any & 0xfe : any;  // not the NaN
      default: return (any & 0x7c) == 0x7c ? any & 0xbf : any;        // E5M2: not inf/NaN
    }
  }
  uint32_t half_accumulator(bool with_specials) {
    return element(Type::F16, with_specials);
  }
  uint32_t accumulator(AccType acc, bool with_specials) {
    if (acc == AccType::F16) return half_accumulator(with_specials);
    if (acc == AccType::F32) return with_specials && below(40) == 0 ? special_float() : moderate_float();
    switch (below(4)) {
      case 0: return 0x7fffffffu - below(100);  // wraps past INT32_MAX
      case 1: return 0x80000000u + below(100);
      default: return bits();
    }
  }

 private:
  std::mt19937_64 gen_;
};

Matrix random_matrix(Random& rng, unsigned rows, unsigned cols, Type t, bool specials) {
  Matrix x(rows, cols);
  for (uint32_t& e : x.e) e = rng.element(t, specials);
  return x;
}

// Register bases for A, B and C/D: each group aligned to its size rounded up to a power of
// two, disjoint, after a random aligned offset so that regext registers are exercised too.
struct Placement {
  unsigned a, b, c;
};
Placement place_groups(Random& rng, const RowSpec& s, unsigned lanes) {
  const unsigned bits = bits_of(s.ab);
  const unsigned ra = std::bit_ceil(regs_of(s.m * s.k, bits, lanes));
  const unsigned rb = std::bit_ceil(regs_of(s.k * s.n, bits, lanes));
  const unsigned rc = std::bit_ceil(regs_of(s.m * s.n, acc_bits(s), lanes));
  const auto align = [](unsigned x, unsigned to) { return (x + to - 1) / to * to; };
  for (;;) {
    unsigned next = rng.below(128);
    Placement p{};
    p.c = align(next, rc);
    p.a = align(p.c + rc, ra);
    p.b = align(p.a + ra, rb);
    if (p.b + rb <= sim::kNumVRegs) return p;
  }
}

// Runs one random case of the row at T lanes and compares the whole register file and fflags.
void check_random_case(const RowSpec& s, unsigned lanes, Random& rng, bool specials, uint32_t rm) {
  Machine mach(lanes);
  sim::Warp& w = *mach.warp;
  for (auto& reg : w.v)
    for (uint32_t& e : reg) e = rng.bits();
  w.frm = rm;
  const Matrix a = random_matrix(rng, s.m, s.k, s.ab, specials);
  const Matrix b = random_matrix(rng, s.k, s.n, s.ab, specials);
  Matrix c(s.m, s.n);
  for (uint32_t& e : c.e) e = rng.accumulator(s.acc, specials);
  const Placement p = place_groups(rng, s, lanes);
  const unsigned bits = bits_of(s.ab);
  place(w, p.a, storage(a, false), bits);
  place(w, p.b, storage(b, true), bits);
  place(w, p.c, storage(c, false), acc_bits(s));
  auto want = std::make_unique<sim::Warp>(w);
  uint32_t flags = 0;
  const Matrix d = reference(s, a, b, c, rm, flags);
  place(*want, p.c, storage(d, false), acc_bits(s));
  want->fflags = flags;
  mach.run(*s.row, p.c, p.a, p.b);
  ASSERT_FALSE(::testing::Test::HasFailure());
  for (unsigned r = 0; r < sim::kNumVRegs; ++r)
    for (unsigned l = 0; l < lanes; ++l)
      ASSERT_EQ(w.v[r][l], want->v[r][l])
          << s.row->mnemonic << " T=" << lanes << " rm=" << rm << " v" << r << "[" << l
          << "] (A v" << p.a << ", B v" << p.b << ", C/D v" << p.c << ")";
  EXPECT_EQ(w.fflags, want->fflags) << s.row->mnemonic << " T=" << lanes << " rm=" << rm;
}

class MmaRow : public ::testing::TestWithParam<RowSpec> {};

TEST_P(MmaRow, MatchesHostReferenceOnRandomData) {
  const RowSpec& s = GetParam();
  Random rng(std::hash<std::string_view>{}(s.row->mnemonic));
  for (unsigned lanes : {4u, 8u, 16u, 32u}) {
    for (int trial = 0; trial < 3; ++trial) {
      // The host has no RMM: fp32 accumulation is checked in the four IEEE modes here and
      // in RMM by MmaFloat.EveryRoundingModeOnATie; the binary16 reference has all five.
      const uint32_t rm = s.acc == AccType::F32 ? rng.below(4) : s.acc == AccType::F16 ? rng.below(5) : 0;
      check_random_case(s, lanes, rng, trial == 2, rm);
      if (HasFailure()) return;
    }
  }
}

std::string row_name(const ::testing::TestParamInfo<RowSpec>& p) {
  std::string name(p.param.row->mnemonic);
  std::replace(name.begin(), name.end(), '.', '_');
  return name;
}
INSTANTIATE_TEST_SUITE_P(Rows, MmaRow, ::testing::ValuesIn(mma_rows()), row_name);

TEST(MmaTable, EveryShapeOfTheGuideIsARow) {
  std::vector<std::string> names;
  for (const RowSpec& s : mma_rows()) names.emplace_back(s.row->mnemonic);
  for (const char* want :
       {"mma.m8n8k8.f32.f32", "mma.m16n8k8.f32.f32", "mma.m16n8k16.f32.f32", "mma.m8n8k16.s32.s8",
        "mma.m16n16k16.s32.s8", "mma.m8n8k32.s32.s4", "mma.m16n8k32.s32.s4",
        "mma.m16n8k64.s32.s4", "mma.m8n8k128.s32.b1"})
    EXPECT_NE(std::find(names.begin(), names.end(), want), names.end()) << want;
}

// ---------------------------------------------------------------- directed cases

const isa::InsnInfo& row(std::string_view mnemonic) {
  const isa::InsnInfo* r = isa::find_mnemonic(mnemonic);
  if (!r) throw std::logic_error("no row " + std::string(mnemonic));
  return *r;
}

// m8n8k8 f32 at T = 32: A, B, C are two registers each (64 words).
struct SmallF32 {
  Machine mach{32};
  static constexpr unsigned kA = 2, kB = 4, kC = 8;
  void set_a(unsigned i, unsigned k, uint32_t v) { mach.warp->v[kA + (i * 8 + k) / 32][(i * 8 + k) % 32] = v; }
  void set_b(unsigned k, unsigned j, uint32_t v) { mach.warp->v[kB + (j * 8 + k) / 32][(j * 8 + k) % 32] = v; }
  void set_c(unsigned i, unsigned j, uint32_t v) { mach.warp->v[kC + (i * 8 + j) / 32][(i * 8 + j) % 32] = v; }
  uint32_t d(unsigned i, unsigned j) const { return mach.warp->v[kC + (i * 8 + j) / 32][(i * 8 + j) % 32]; }
  void reset(uint32_t frm) {
    for (unsigned r : {kA, kA + 1, kB, kB + 1, kC, kC + 1})
      for (uint32_t& e : mach.warp->v[r]) e = 0;
    mach.warp->fflags = 0;
    mach.warp->frm = frm;
  }
  void go() { mach.run(row("mma.m8n8k8.f32.f32"), kC, kA, kB); }
};

// 1 + 2^-24 is halfway between 1 and the next float 1 + 2^-23: every mode, RMM included.
TEST(MmaFloat, EveryRoundingModeOnATie) {
  const uint32_t want[] = {0x3f800000, 0x3f800000, 0x3f800000, 0x3f800001, 0x3f800001};
  for (uint32_t rm = 0; rm <= 4; ++rm) {
    SmallF32 t;
    t.reset(rm);
    t.set_a(0, 0, 0x39800000);  // 2^-12
    t.set_b(0, 0, 0x39800000);
    t.set_c(0, 0, 0x3f800000);
    t.go();
    EXPECT_EQ(t.d(0, 0), want[rm]) << "rm " << rm;
    EXPECT_EQ(t.mach.warp->fflags, fp::kNX) << "rm " << rm;
    EXPECT_EQ(t.d(1, 1), 0u);  // 0 + 0*0
  }
}

TEST(MmaFloat, OverflowInfinityNaNAndSubnormals) {
  SmallF32 t;
  t.reset(fp::kRNE);
  // D[0][0]: max + max*1 overflows to +inf (OF, NX).
  t.set_c(0, 0, 0x7f7fffff);
  t.set_a(0, 0, 0x7f7fffff);
  t.set_b(0, 0, 0x3f800000);
  t.go();
  EXPECT_EQ(t.d(0, 0), 0x7f800000u);
  EXPECT_EQ(t.mach.warp->fflags, fp::kOF | fp::kNX);

  t.reset(fp::kRTZ);  // the same toward zero stays at max
  t.set_c(0, 0, 0x7f7fffff);
  t.set_a(0, 0, 0x7f7fffff);
  t.set_b(0, 0, 0x3f800000);
  t.go();
  EXPECT_EQ(t.d(0, 0), 0x7f7fffffu);
  EXPECT_EQ(t.mach.warp->fflags, fp::kOF | fp::kNX);

  t.reset(fp::kRNE);  // inf * 0 is invalid: canonical NaN, NV; a NaN in C propagates canonical
  t.set_a(0, 3, 0x7f800000);
  t.set_c(1, 1, 0xffc01234);
  t.go();
  EXPECT_EQ(t.d(0, 0), 0x7fc00000u);
  EXPECT_EQ(t.d(1, 1), 0x7fc00000u);
  EXPECT_EQ(t.mach.warp->fflags, fp::kNV);

  t.reset(fp::kRNE);  // 2^-100 * 2^-40 = 2^-140 is an exact subnormal; 3*2^-150 rounds (UF, NX)
  t.set_a(0, 0, 0x0d800000);
  t.set_b(0, 0, 0x2b800000);
  t.set_a(1, 0, 0x0dc00000);  // 1.5 * 2^-100
  t.set_b(0, 1, 0x25800000);  // 2^-52
  t.go();
  EXPECT_EQ(t.d(0, 0), 0x00000200u);  // 2^-140 = 2^9 * 2^-149
  EXPECT_EQ(t.d(1, 0), 0x00000300u);  // 1.5 * 2^-140, exact
  EXPECT_EQ(t.d(0, 1), 0x00000000u);  // 2^-152 rounds to +0 (tiny, inexact)
  EXPECT_EQ(t.d(1, 1), 0x00000000u);  // 1.5 * 2^-152 rounds to +0
  EXPECT_EQ(t.mach.warp->fflags, fp::kUF | fp::kNX);
}

TEST(MmaInteger, WrapsAtInt32) {
  Machine mach(8);
  // m8n8k16 s8 at T = 8: A and B are 32 words (4 registers), C 64 words (8 registers).
  mach.warp->v[8][0] = 0x7fffffff;  // C[0][0]
  mach.warp->v[0][0] = 0x00000001;  // A[0][0] = 1
  mach.warp->v[4][0] = 0x00000001;  // B[0][0] = 1 (column 0 is words 0..3)
  mach.warp->v[8][1] = 0x80000000;  // C[0][1]
  mach.warp->v[4][4] = 0x00000080;  // B[0][1] = -128 (column 1 starts at word 4)
  mach.run(row("mma.m8n8k16.s32.s8"), 8, 0, 4);
  EXPECT_EQ(mach.warp->v[8][0], 0x80000000u);  // INT32_MAX + 1 wraps
  EXPECT_EQ(mach.warp->v[8][1], 0x7fffff80u);  // INT32_MIN - 128 wraps
}

TEST(MmaInteger, BinaryIsPopcountOfAnd) {
  Machine mach(32);
  // m8n8k128 b1: A row 0 = words 0..3, B column 0 = words 0..3 (one register each at T=32).
  mach.warp->v[0][0] = 0xff00ff00;
  mach.warp->v[0][1] = 0xffffffff;
  mach.warp->v[1][0] = 0x0ff00ff0;
  mach.warp->v[1][1] = 0x00000001;
  mach.run(row("mma.m8n8k128.s32.b1"), 2, 0, 1);
  EXPECT_EQ(mach.warp->v[2][0], 8u + 1u);  // popcount(0x0f000f00) + popcount(1), C was 0
}

TEST(MmaFaults, MisalignedOverlappingAndDiverged) {
  const isa::InsnInfo& big = row("mma.m16n8k16.f32.f32");  // A 256 words, B/C/D 128 at T=32
  {
    Machine mach(32);  // A is 8 registers: v4 is not aligned
    EXPECT_THROW(mach.run(big, 16, 4, 24), sim::ExecFault);
  }
  {
    Machine mach(32);  // D (4 registers) inside A
    EXPECT_THROW(mach.run(big, 4, 0, 24), sim::ExecFault);
  }
  {
    Machine mach(32);  // D = B
    EXPECT_THROW(mach.run(big, 24, 0, 24), sim::ExecFault);
  }
  {
    Machine mach(4);  // T = 4: A is 64 registers, v192 is aligned and ends at v255
    EXPECT_NO_THROW(mach.run(big, 32, 192, 64));
    EXPECT_THROW(mach.run(big, 32, 160, 64), sim::ExecFault);  // 160 % 64 != 0
  }
  {
    Machine mach(32);
    mach.warp->mask = 0x7fffffff;  // one thread inactive
    EXPECT_THROW(mach.run(big, 16, 0, 24), sim::ExecFault);
  }
  {
    Machine mach(32);
    mach.warp->frm = 5;  // reserved rounding mode
    EXPECT_THROW(mach.run(big, 16, 0, 24), sim::ExecFault);
  }
  {
    Machine mach(32);  // A and B may be the same group
    EXPECT_NO_THROW(mach.run(row("mma.m8n8k8.f32.f32"), 4, 0, 0));
  }
}

// ---------------------------------------------------------------- through the assembler and simulator

TEST(MmaKernel, AssembledKernelMultipliesMatrices) {
  constexpr uint32_t kData = 0x90000000;
  sim::Device device;
  device.memory().map(kData, 4096);
  // m8n8k8 f32 at T = 8: A, B, C are 64 words, 8 registers each; word w at lane w % 8.
  Matrix a(8, 8), b(8, 8), c(8, 8);
  for (unsigned i = 0; i < 8; ++i)
    for (unsigned j = 0; j < 8; ++j) {
      a.at(i, j) = std::bit_cast<uint32_t>(float(int(i) - int(j)));
      b.at(i, j) = std::bit_cast<uint32_t>(float(i * j % 5) * 0.5f);
      c.at(i, j) = std::bit_cast<uint32_t>(float(i + 100 * j));
    }
  const std::vector<uint32_t> sa = storage(a, false), sb = storage(b, true), sc = storage(c, false);
  ASSERT_TRUE(device.memory().write(kData, sa.data(), 256));
  ASSERT_TRUE(device.memory().write(kData + 256, sb.data(), 256));
  ASSERT_TRUE(device.memory().write(kData + 512, sc.data(), 256));
  std::string source = "    li s0, 0x90000000\n";
  // Register r of a group holds words 8r..8r+7: lane l loads word 8r + l (unit stride).
  for (unsigned r = 0; r < 8; ++r)
    source += "    addi s1, s0, " + std::to_string(32 * r) + "\n    vle32.v v" +
              std::to_string(8 + r) + ", (s1)\n    addi s1, s1, 256\n    vle32.v v" +
              std::to_string(16 + r) + ", (s1)\n    addi s1, s1, 256\n    vle32.v v" +
              std::to_string(24 + r) + ", (s1)\n";
  source += "    mma.m8n8k8.f32.f32 v24, v8, v16\n";
  for (unsigned r = 0; r < 8; ++r)
    source += "    addi s1, s0, " + std::to_string(1024 + 32 * r) + "\n    vse32.v v" +
              std::to_string(24 + r) + ", (s1)\n";
  source += "    endprg x0, x0, x0\n";
  load_program(device, source);
  sim::KernelLaunch launch = launch_of(1, 8);
  const auto r = device.run(launch);
  ASSERT_TRUE(r.ok()) << fault_text(r);
  uint32_t flags = 0;
  const RowSpec spec = parse(row("mma.m8n8k8.f32.f32"));
  const Matrix d = reference(spec, a, b, c, fp::kRNE, flags);
  EXPECT_EQ(read_words(device, kData + 1024, 64), d.e);
}

}  // namespace
}  // namespace ventus::test
