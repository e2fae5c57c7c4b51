// 64-bit data on register pairs (docs/isa.md, "RV64I / RV64A on register pairs"): RV64I
// arithmetic on x pairs against a host reference with random operands, the zero pair,
// ld/sd and the .d atomics at 64-bit addresses.
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <random>

#include "sim_harness.h"

namespace ventus::test {
namespace {

constexpr uint32_t kIn = 0x90000000;
constexpr uint32_t kOut = 0x90001000;

struct Fixture {
  Fixture() { device.memory().map(kIn, 64 * 1024); }
  sim::Device device;
};

uint64_t u64(const std::vector<uint32_t>& w, size_t i) {
  return (uint64_t{w[i + 1]} << 32) | w[i];
}

// Each case: a and b (64 bits each) in; out: every operation's 64-bit result.
TEST(SimPairs, Rv64iArithmeticMatchesHostReference) {
  struct Operation {
    std::string text;  // with a6 = result, a2 = a, a4 = b
    uint64_t (*reference)(uint64_t a, uint64_t b);
  };
  const std::vector<Operation> ops = {
      {"addw a6, a2, a4", [](uint64_t a, uint64_t b) { return a + b; }},
      {"subw a6, a2, a4", [](uint64_t a, uint64_t b) { return a - b; }},
      {"sllw a6, a2, a4", [](uint64_t a, uint64_t b) { return a << (b & 63); }},
      {"srlw a6, a2, a4", [](uint64_t a, uint64_t b) { return a >> (b & 63); }},
      {"sraw a6, a2, a4",
       [](uint64_t a, uint64_t b) { return static_cast<uint64_t>(static_cast<int64_t>(a) >> (b & 63)); }},
      {"addiw a6, a2, -1234", [](uint64_t a, uint64_t) { return a - 1234; }},
      {"addiw a6, a2, 2047", [](uint64_t a, uint64_t) { return a + 2047; }},
      {"slliw a6, a2, 0", [](uint64_t a, uint64_t) { return a; }},
      {"slliw a6, a2, 31", [](uint64_t a, uint64_t) { return a << 31; }},
      {"slliw a6, a2, 32", [](uint64_t a, uint64_t) { return a << 32; }},
      {"slliw a6, a2, 45", [](uint64_t a, uint64_t) { return a << 45; }},
      {"srliw a6, a2, 1", [](uint64_t a, uint64_t) { return a >> 1; }},
      {"srliw a6, a2, 33", [](uint64_t a, uint64_t) { return a >> 33; }},
      {"srliw a6, a2, 63", [](uint64_t a, uint64_t) { return a >> 63; }},
      {"sraiw a6, a2, 7",
       [](uint64_t a, uint64_t) { return static_cast<uint64_t>(static_cast<int64_t>(a) >> 7); }},
      {"sraiw a6, a2, 40",
       [](uint64_t a, uint64_t) { return static_cast<uint64_t>(static_cast<int64_t>(a) >> 40); }},
      {"sraiw a6, a2, 63",
       [](uint64_t a, uint64_t) { return static_cast<uint64_t>(static_cast<int64_t>(a) >> 63); }},
      // The zero pair: reads 0, and a write to it leaves x1 alone.
      {"addw a6, zero, a4", [](uint64_t, uint64_t b) { return b; }},
      {"li ra, 77\n    addw zero, a2, a4\n    mv a6, ra\n    li a7, 0",
       [](uint64_t, uint64_t) { return uint64_t{77}; }},
  };
  std::mt19937_64 rng(64);
  std::vector<uint64_t> a(16), b(16);
  for (size_t i = 0; i < a.size(); ++i) {
    a[i] = rng();
    b[i] = rng();
  }
  a[1] = 0x00000000ffffffffull;  // carries and borrows across the halves
  b[1] = 1;
  a[2] = 0x8000000000000000ull;
  b[2] = 0x8000000000000020ull;  // shift by 32
  b[3] = 63;
  std::vector<uint32_t> in;
  for (size_t i = 0; i < a.size(); ++i)
    for (uint64_t v : {a[i], b[i]}) {
      in.push_back(static_cast<uint32_t>(v));
      in.push_back(static_cast<uint32_t>(v >> 32));
    }
  std::string source = R"(
    li s0, 0x90000000
    li s1, 0x90001000
    li t0, 16
.Lcase:
    lw a2, 0(s0)
    lw a3, 4(s0)
    lw a4, 8(s0)
    lw a5, 12(s0)
)";
  for (size_t k = 0; k < ops.size(); ++k)
    source += fmt::format("    {}\n    sw a6, {}(s1)\n    sw a7, {}(s1)\n", ops[k].text, 8 * k, 8 * k + 4);
  source += R"(
    addi s0, s0, 16
    addi s1, s1, 256
    addi t0, t0, -1
    bnez t0, .Lcase
    endprg x0, x0, x0
)";
  Fixture f;
  ASSERT_TRUE(f.device.memory().write(kIn, in.data(), in.size() * 4));
  load_program(f.device, source);
  const auto r = f.device.run(launch_of(1, 4));
  ASSERT_TRUE(r.ok()) << fault_text(r);
  for (size_t i = 0; i < a.size(); ++i) {
    const auto out = read_words(f.device, kOut + 256 * i, 2 * ops.size());
    for (size_t k = 0; k < ops.size(); ++k)
      EXPECT_EQ(u64(out, 2 * k), ops[k].reference(a[i], b[i]))
          << ops[k].text << " a=" << std::hex << a[i] << " b=" << b[i];
  }
}

// ld/sd: 32-bit data at {rs1+1:rs1} + simm12, which may borrow from the high word.
TEST(SimPairs, LdSdAt64BitAddresses) {
  Fixture f;
  const std::vector<uint32_t> data = {0x11111111, 0x22222222, 0x33333333, 0x44444444};
  ASSERT_TRUE(f.device.memory().write(kIn, data.data(), 16));
  load_program(f.device, R"(
    li a2, 0x90000008
    li a3, 0
    ld a0, -4(a2)          # 0x90000004
    li t0, 0x90001000
    sw a0, 0(t0)
    li a4, 0x00000010
    li a5, 1               # {1 : 0x10} - 2048 = 0xfffff810: borrow, high word 0
    li s2, 0x90001000
    li s3, 0
    ld a1, 12(a2)          # 0x90000014 (zero)
    sw a1, 4(t0)
    li t1, 0xabcdef01
    sd t1, 8(s2)           # 0x90001008
    li t1, 0x5a5a5a5a
    sd t1, -2048(a4)
    li t2, 0xfffff810
    lw t3, 0(t2)
    sw t3, 12(t0)
    endprg x0, x0, x0
)");
  f.device.memory().map(0xfffff000u, 4096);
  const auto r = f.device.run(launch_of(1, 4));
  ASSERT_TRUE(r.ok()) << fault_text(r);
  const auto out = read_words(f.device, kOut, 4);
  EXPECT_EQ(out[0], 0x22222222u);
  EXPECT_EQ(out[1], 0u);
  EXPECT_EQ(out[2], 0xabcdef01u);
  EXPECT_EQ(out[3], 0x5a5a5a5au);
}

// The .d atomics: 64-bit address in the rs1 pair, 32-bit data in rs2 and rd.
TEST(SimPairs, Rv64aAtomicsAt64BitAddresses) {
  struct Amo {
    const char* mnemonic;
    uint32_t (*reference)(uint32_t old, uint32_t operand);
  };
  const std::vector<Amo> amos = {
      {"amoswap.d", [](uint32_t, uint32_t b) { return b; }},
      {"amoadd.d.aq", [](uint32_t a, uint32_t b) { return a + b; }},
      {"amoxor.d.rl", [](uint32_t a, uint32_t b) { return a ^ b; }},
      {"amoand.d.aqrl", [](uint32_t a, uint32_t b) { return a & b; }},
      {"amoor.d", [](uint32_t a, uint32_t b) { return a | b; }},
      {"amomin.d",
       [](uint32_t a, uint32_t b) { return static_cast<int32_t>(a) < static_cast<int32_t>(b) ? a : b; }},
      {"amomax.d",
       [](uint32_t a, uint32_t b) { return static_cast<int32_t>(a) > static_cast<int32_t>(b) ? a : b; }},
      {"amominu.d", [](uint32_t a, uint32_t b) { return a < b ? a : b; }},
      {"amomaxu.d", [](uint32_t a, uint32_t b) { return a > b ? a : b; }},
  };
  std::mt19937 rng(5);
  std::vector<uint32_t> init(amos.size()), operand(amos.size());
  for (size_t i = 0; i < amos.size(); ++i) init[i] = rng(), operand[i] = rng();
  std::string source = "li a3, 0\nli s0, 0x90001000\n";
  for (size_t i = 0; i < amos.size(); ++i)
    source += fmt::format(
        "li a2, {:#x}\nli a1, {:#x}\n{} a0, a1, (a2)\nsw a0, {}(s0)\n", kIn + 4 * i, operand[i],
        amos[i].mnemonic, 4 * i);
  // lr.d/sc.d: a successful pair, then a failing sc.d without a reservation.
  source += R"(
    li a2, 0x90000100
    lr.d a0, (a2)
    addi a0, a0, 5
    sc.d a4, a0, (a2)
    sc.d.rl a5, a0, (a2)
    sw a4, 0x100(s0)
    sw a5, 0x104(s0)
    endprg x0, x0, x0
)";
  Fixture f;
  ASSERT_TRUE(f.device.memory().write(kIn, init.data(), init.size() * 4));
  const uint32_t reserved = 37;
  ASSERT_TRUE(f.device.memory().write(kIn + 0x100, &reserved, 4));
  load_program(f.device, source);
  const auto r = f.device.run(launch_of(1, 4));
  ASSERT_TRUE(r.ok()) << fault_text(r);
  const auto memory = read_words(f.device, kIn, amos.size());
  const auto old = read_words(f.device, kOut, amos.size());
  for (size_t i = 0; i < amos.size(); ++i) {
    EXPECT_EQ(old[i], init[i]) << amos[i].mnemonic;
    EXPECT_EQ(memory[i], amos[i].reference(init[i], operand[i])) << amos[i].mnemonic;
  }
  EXPECT_EQ(read_words(f.device, kIn + 0x100, 1)[0], 42u);
  const auto sc = read_words(f.device, kOut + 0x100, 2);
  EXPECT_EQ(sc[0], 0u) << "sc.d after lr.d succeeds";
  EXPECT_EQ(sc[1], 1u) << "sc.d without a reservation fails";
}

}  // namespace
}  // namespace ventus::test

namespace ventus::test {
namespace {

// The pair forms of vector rows after regpair: 64-bit lanes {v[r+1]:v[r]}, x pairs for .vx,
// masks. Each row runs on 16 lanes with random a (v2), b (v4), c (v6, the initial vd) and
// scalar s (a2 pair), masked by random v0 bits where the row has ", v0.t".
TEST(SimPairs, VectorPairFormsMatchHostReference) {
  constexpr uint32_t T = 16;
  using Ref = uint64_t (*)(uint64_t a, uint64_t b, uint64_t c, uint64_t s);
  const auto d = [](uint64_t v) { return std::bit_cast<double>(v); };
  const auto bits = [](double v) { return std::bit_cast<uint64_t>(v); };
  struct Row {
    std::string text;  // v8 = result (initially c)
    Ref reference;
  };
  // The fp references are the host's IEEE binary64 operations in round-to-nearest-even
  // (frm = 0 at dispatch); the inputs are finite and non-zero, so no NaN or signed-zero rule
  // is involved.
  const std::vector<Row> rows = {
      {"vadd.vv v8, v2, v4", [](uint64_t a, uint64_t b, uint64_t, uint64_t) { return a + b; }},
      {"vadd.vx v8, v2, a2, v0.t", [](uint64_t a, uint64_t, uint64_t, uint64_t s) { return a + s; }},
      {"vsub.vv v8, v2, v4, v0.t", [](uint64_t a, uint64_t b, uint64_t, uint64_t) { return a - b; }},
      {"vsub.vx v8, v2, a2", [](uint64_t a, uint64_t, uint64_t, uint64_t s) { return a - s; }},
      {"vrsub.vx v8, v2, a2", [](uint64_t a, uint64_t, uint64_t, uint64_t s) { return s - a; }},
      {"vmul.vv v8, v2, v4", [](uint64_t a, uint64_t b, uint64_t, uint64_t) { return a * b; }},
      {"vmul.vx v8, v2, a2, v0.t", [](uint64_t a, uint64_t, uint64_t, uint64_t s) { return a * s; }},
      {"vand.vv v8, v2, v4", [](uint64_t a, uint64_t b, uint64_t, uint64_t) { return a & b; }},
      {"vand.vx v8, v2, a2", [](uint64_t a, uint64_t, uint64_t, uint64_t s) { return a & s; }},
      {"vor.vv v8, v2, v4, v0.t", [](uint64_t a, uint64_t b, uint64_t, uint64_t) { return a | b; }},
      {"vor.vx v8, v2, a2", [](uint64_t a, uint64_t, uint64_t, uint64_t s) { return a | s; }},
      {"vxor.vv v8, v2, v4", [](uint64_t a, uint64_t b, uint64_t, uint64_t) { return a ^ b; }},
      {"vxor.vx v8, v2, a2", [](uint64_t a, uint64_t, uint64_t, uint64_t s) { return a ^ s; }},
      {"vsll.vv v8, v2, v4", [](uint64_t a, uint64_t b, uint64_t, uint64_t) { return a << (b & 63); }},
      {"vsll.vx v8, v2, a2", [](uint64_t a, uint64_t, uint64_t, uint64_t s) { return a << (s & 63); }},
      {"vsrl.vv v8, v2, v4, v0.t", [](uint64_t a, uint64_t b, uint64_t, uint64_t) { return a >> (b & 63); }},
      {"vsrl.vx v8, v2, a2", [](uint64_t a, uint64_t, uint64_t, uint64_t s) { return a >> (s & 63); }},
      {"vsra.vv v8, v2, v4",
       [](uint64_t a, uint64_t b, uint64_t, uint64_t) {
         return static_cast<uint64_t>(static_cast<int64_t>(a) >> (b & 63));
       }},
      {"vsra.vx v8, v2, a2",
       [](uint64_t a, uint64_t, uint64_t, uint64_t s) {
         return static_cast<uint64_t>(static_cast<int64_t>(a) >> (s & 63));
       }},
      {"vmin.vv v8, v2, v4",
       [](uint64_t a, uint64_t b, uint64_t, uint64_t) {
         return static_cast<int64_t>(a) < static_cast<int64_t>(b) ? a : b;
       }},
      {"vmin.vx v8, v2, a2",
       [](uint64_t a, uint64_t, uint64_t, uint64_t s) {
         return static_cast<int64_t>(a) < static_cast<int64_t>(s) ? a : s;
       }},
      {"vmax.vv v8, v2, v4, v0.t",
       [](uint64_t a, uint64_t b, uint64_t, uint64_t) {
         return static_cast<int64_t>(a) > static_cast<int64_t>(b) ? a : b;
       }},
      {"vmax.vx v8, v2, a2",
       [](uint64_t a, uint64_t, uint64_t, uint64_t s) {
         return static_cast<int64_t>(a) > static_cast<int64_t>(s) ? a : s;
       }},
      {"vminu.vv v8, v2, v4", [](uint64_t a, uint64_t b, uint64_t, uint64_t) { return std::min(a, b); }},
      {"vminu.vx v8, v2, a2", [](uint64_t a, uint64_t, uint64_t, uint64_t s) { return std::min(a, s); }},
      {"vmaxu.vv v8, v2, v4", [](uint64_t a, uint64_t b, uint64_t, uint64_t) { return std::max(a, b); }},
      {"vmaxu.vx v8, v2, a2, v0.t", [](uint64_t a, uint64_t, uint64_t, uint64_t s) { return std::max(a, s); }},
      {"vmv.v.v v8, v4", [](uint64_t, uint64_t b, uint64_t, uint64_t) { return b; }},
      {"vmv.v.x v8, a2", [](uint64_t, uint64_t, uint64_t, uint64_t s) { return s; }},
  };
  struct FpRow {
    std::string text;
    double (*reference)(double a, double b, double c, double s);
  };
  const std::vector<FpRow> fp_rows = {
      {"vfadd.vv v8, v2, v4", [](double a, double b, double, double) { return a + b; }},
      {"vfadd.vf v8, v2, a2, v0.t", [](double a, double, double, double s) { return a + s; }},
      {"vfsub.vv v8, v2, v4", [](double a, double b, double, double) { return a - b; }},
      {"vfsub.vf v8, v2, a2", [](double a, double, double, double s) { return a - s; }},
      {"vfrsub.vf v8, v2, a2", [](double a, double, double, double s) { return s - a; }},
      {"vfmul.vv v8, v2, v4, v0.t", [](double a, double b, double, double) { return a * b; }},
      {"vfmul.vf v8, v2, a2", [](double a, double, double, double s) { return a * s; }},
      {"vfdiv.vv v8, v2, v4", [](double a, double b, double, double) { return a / b; }},
      {"vfdiv.vf v8, v2, a2", [](double a, double, double, double s) { return a / s; }},
      {"vfrdiv.vf v8, v2, a2", [](double a, double, double, double s) { return s / a; }},
      {"vfsqrt.v v8, v6", [](double, double, double c, double) { return std::sqrt(c); }},
      {"vfmin.vv v8, v2, v4", [](double a, double b, double, double) { return std::fmin(a, b); }},
      {"vfmin.vf v8, v2, a2", [](double a, double, double, double s) { return std::fmin(a, s); }},
      {"vfmax.vv v8, v2, v4, v0.t", [](double a, double b, double, double) { return std::fmax(a, b); }},
      {"vfmax.vf v8, v2, a2", [](double a, double, double, double s) { return std::fmax(a, s); }},
      {"vfsgnj.vv v8, v2, v4", [](double a, double b, double, double) { return std::copysign(a, b); }},
      {"vfsgnj.vf v8, v2, a2", [](double a, double, double, double s) { return std::copysign(a, s); }},
      {"vfsgnjn.vv v8, v2, v4", [](double a, double b, double, double) { return std::copysign(a, -b); }},
      {"vfsgnjn.vf v8, v2, a2", [](double a, double, double, double s) { return std::copysign(a, -s); }},
      {"vfsgnjx.vv v8, v2, v4",
       [](double a, double b, double, double) { return std::signbit(b) ? -a : a; }},
      {"vfsgnjx.vf v8, v2, a2",
       [](double a, double, double, double s) { return std::signbit(s) ? -a : a; }},
      // Multiply-add: syntax vd, vs1/rs1, vs2; x = vs1 (b) or s, y = vs2 (a), z = vd (c).
      {"vfmacc.vv v8, v4, v2", [](double a, double b, double c, double) { return std::fma(b, a, c); }},
      {"vfmacc.vf v8, a2, v2, v0.t", [](double a, double, double c, double s) { return std::fma(s, a, c); }},
      {"vfnmacc.vv v8, v4, v2", [](double a, double b, double c, double) { return std::fma(-b, a, -c); }},
      {"vfnmacc.vf v8, a2, v2", [](double a, double, double c, double s) { return std::fma(-s, a, -c); }},
      {"vfmsac.vv v8, v4, v2", [](double a, double b, double c, double) { return std::fma(b, a, -c); }},
      {"vfmsac.vf v8, a2, v2", [](double a, double, double c, double s) { return std::fma(s, a, -c); }},
      {"vfnmsac.vv v8, v4, v2", [](double a, double b, double c, double) { return std::fma(-b, a, c); }},
      {"vfnmsac.vf v8, a2, v2", [](double a, double, double c, double s) { return std::fma(-s, a, c); }},
      {"vfmadd.vv v8, v4, v2", [](double a, double b, double c, double) { return std::fma(b, c, a); }},
      {"vfmadd.vf v8, a2, v2", [](double a, double, double c, double s) { return std::fma(s, c, a); }},
      {"vfnmadd.vv v8, v4, v2, v0.t", [](double a, double b, double c, double) { return std::fma(-b, c, -a); }},
      {"vfnmadd.vf v8, a2, v2", [](double a, double, double c, double s) { return std::fma(-s, c, -a); }},
      {"vfmsub.vv v8, v4, v2", [](double a, double b, double c, double) { return std::fma(b, c, -a); }},
      {"vfmsub.vf v8, a2, v2", [](double a, double, double c, double s) { return std::fma(s, c, -a); }},
      {"vfnmsub.vv v8, v4, v2", [](double a, double b, double c, double) { return std::fma(-b, c, a); }},
      {"vfnmsub.vf v8, a2, v2", [](double a, double, double c, double s) { return std::fma(-s, c, a); }},
  };
  for (bool fp : {false, true}) {
    std::mt19937_64 rng(fp ? 7 : 8);
    // Random finite non-zero doubles of moderate magnitude (positive for vfsqrt's c).
    const auto random_double = [&](bool positive) {
      const double m = 1.0 + static_cast<double>(rng() >> 12) / 4503599627370496.0;
      const int e = static_cast<int>(rng() % 61) - 30;
      const double v = std::ldexp(m, e);
      return bits(positive || (rng() & 1) ? v : -v);
    };
    std::vector<uint64_t> a(T), b(T), c(T);
    for (uint32_t i = 0; i < T; ++i) {
      a[i] = fp ? random_double(false) : rng();
      b[i] = fp ? random_double(false) : rng();
      c[i] = fp ? random_double(true) : rng();
    }
    b[1] = 0x20;  // shifts by 32 (integer)
    if (fp) b[1] = bits(3.0);
    const uint64_t s = fp ? random_double(false) : rng();
    std::vector<uint32_t> mask(T);
    for (uint32_t& m : mask) m = static_cast<uint32_t>(rng() & 1);
    // Input words: lo/hi of a, b, c per lane (three rows of 2*T), then the mask, then s.
    std::vector<uint32_t> in;
    for (const auto* v : {&a, &b, &c}) {
      for (uint32_t i = 0; i < T; ++i) in.push_back(static_cast<uint32_t>((*v)[i]));
      for (uint32_t i = 0; i < T; ++i) in.push_back(static_cast<uint32_t>((*v)[i] >> 32));
    }
    for (uint32_t m : mask) in.push_back(m);
    in.push_back(static_cast<uint32_t>(s));
    in.push_back(static_cast<uint32_t>(s >> 32));
    std::string source = R"(
    vid.v v1
    vsll.vi v1, v1, 2
    li t0, 0x90000000
    vadd.vx v20, v1, t0
    vlw12.v v2, 0(v20)
    vlw12.v v3, 64(v20)
    vlw12.v v4, 128(v20)
    vlw12.v v5, 192(v20)
    vlw12.v v6, 256(v20)
    vlw12.v v7, 320(v20)
    vlw12.v v0, 384(v20)
    lw a2, 448(t0)
    lw a3, 452(t0)
    li t0, 0x90001000
    vadd.vx v30, v1, t0
    li t6, 128
)";
    const size_t n = fp ? fp_rows.size() : rows.size();
    for (size_t k = 0; k < n; ++k)
      source += fmt::format(R"(
    regpair zero, zero, 0
    vmv.v.v v8, v6
    regpair zero, zero, 0
    {}
    vsw12.v v8, 0(v30)
    vsw12.v v9, 64(v30)
    vadd.vx v30, v30, t6
)",
                            fp ? fp_rows[k].text : rows[k].text);
    source += "endprg x0, x0, x0\n";
    Fixture f;
    ASSERT_TRUE(f.device.memory().write(kIn, in.data(), in.size() * 4));
    load_program(f.device, source);
    const auto r = f.device.run(launch_of(1, T));
    ASSERT_TRUE(r.ok()) << fault_text(r);
    for (size_t k = 0; k < n; ++k) {
      const std::string& text = fp ? fp_rows[k].text : rows[k].text;
      const bool masked = text.find("v0.t") != std::string::npos;
      const auto out = read_words(f.device, kOut + 128 * k, 2 * T);
      for (uint32_t i = 0; i < T; ++i) {
        const uint64_t got = (uint64_t{out[T + i]} << 32) | out[i];
        uint64_t want = c[i];
        if (!masked || mask[i])
          want = fp ? bits(fp_rows[k].reference(d(a[i]), d(b[i]), d(c[i]), d(s)))
                    : rows[k].reference(a[i], b[i], c[i], s);
        EXPECT_EQ(got, want) << text << " lane " << i << std::hex << " a=" << a[i] << " b=" << b[i]
                             << " c=" << c[i] << " s=" << s;
      }
    }
  }
}

// binary64 pair forms round with frm and accrue fflags: -1/3 rounds down in magnitude under
// RUP and up under RDN (NX), 1/0 is +inf (DZ).
TEST(SimPairs, Fp64PairFormsUseFrmAndAccrueFlags) {
  Fixture f;
  load_program(f.device, R"(
    li a2, 0
    li a3, 0xbff00000         # -1.0
    li a4, 0
    li a5, 0x40080000         # 3.0
    vmv.v.x v2, a2
    vmv.v.x v3, a3
    li s0, 0x90001000
    li t0, 2
    csrw frm, t0              # RDN
    regpair zero, zero, 0
    vfdiv.vf v4, v2, a4
    vmv.x.s t1, v4
    sw t1, 0(s0)
    vmv.x.s t1, v5
    sw t1, 4(s0)
    li t0, 3
    csrw frm, t0              # RUP
    regpair zero, zero, 0
    vfdiv.vf v4, v2, a4
    vmv.x.s t1, v4
    sw t1, 8(s0)
    vmv.x.s t1, v5
    sw t1, 12(s0)
    csrr t1, fflags
    sw t1, 16(s0)
    csrw fflags, zero
    li s2, 0
    li s3, 0                  # +0.0
    regpair zero, zero, 0
    vfdiv.vf v4, v2, s2
    vmv.x.s t1, v4
    sw t1, 20(s0)
    vmv.x.s t1, v5
    sw t1, 24(s0)
    csrr t1, fflags
    sw t1, 28(s0)
    endprg x0, x0, x0
)");
  const auto r = f.device.run(launch_of(1, 4));
  ASSERT_TRUE(r.ok()) << fault_text(r);
  const auto out = read_words(f.device, kOut, 8);
  EXPECT_EQ(u64(out, 0), 0xbfd5555555555556ull) << "RDN";
  EXPECT_EQ(u64(out, 2), 0xbfd5555555555555ull) << "RUP";
  EXPECT_EQ(out[4], 1u) << "NX";
  EXPECT_EQ(u64(out, 5), 0xfff0000000000000ull) << "-1 / +0 = -inf";
  EXPECT_EQ(out[7], 8u) << "DZ";
}

// regpair extends register numbers like regext (v40 here) and makes the operands pairs;
// odd pairs and rows without a pair form fault.
TEST(SimPairs, RegpairExtendsRegistersAndFaults) {
  Fixture f;
  load_program(f.device, R"(
    li a2, 5
    li a3, 7                  # a2 pair = 7 * 2^32 + 5
    regpair zero, zero, 1     # vd: +32
    vmv.v.x v8, a2            # v40/v41
    li t0, 0x90001000
    vid.v v1
    vsll.vi v1, v1, 2
    vadd.vx v2, v1, t0
    vsw12.v v40, 0(v2)
    vsw12.v v41, 32(v2)
    endprg x0, x0, x0
)");
  const auto r = f.device.run(launch_of(1, 8));
  ASSERT_TRUE(r.ok()) << fault_text(r);
  const auto out = read_words(f.device, kOut, 16);
  for (uint32_t i = 0; i < 8; ++i) {
    EXPECT_EQ(out[i], 5u);
    EXPECT_EQ(out[8 + i], 7u);
  }
  const std::vector<std::pair<std::string, std::string>> faults = {
      {"regpair zero, zero, 0\nvadd.vv v9, v2, v4\n",
       "vadd.vv: vd v9 is odd, but a 64-bit register pair starts at an even register"},
      {"regpair zero, zero, 0\nvadd.vx v8, v2, a1\n", "vadd.vx: rs1 x11 is odd"},
      {"regpair zero, zero, 0\nvfadd.vv v8, v3, v4\n", "vfadd.vv: vs2 v3 is odd"},
      {"regpair zero, zero, 0\nvdiv.vv v8, v2, v4\n",
       "vdiv.vv has no 64-bit pair form (a pair prefix precedes it)"},
      {"regpairi zero, zero, 0\naddi a0, a0, 1\n", "addi has no 64-bit pair form"},
  };
  for (const auto& [source, message] : faults) {
    Fixture g;
    load_program(g.device, source + "endprg x0, x0, x0\n");
    const auto bad = g.device.run(launch_of(1, 8));
    EXPECT_NE(fault_text(bad).find(message), std::string::npos) << source << "\n got: " << fault_text(bad);
  }
}

}  // namespace
}  // namespace ventus::test
