// 64-bit data on register pairs (docs/isa.md, "RV64I / RV64A on register pairs"): RV64I
// arithmetic on x pairs against a host reference with random operands, the zero pair,
// ld/sd and the .d atomics at 64-bit addresses.
#include <fmt/format.h>

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
