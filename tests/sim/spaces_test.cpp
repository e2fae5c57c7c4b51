// The v2025 address spaces and 64-bit addresses (docs/simulator.md, "Address spaces";
// docs/isa.md, "12D and explicit-space memory" and "RV64I / RV64A on register pairs"):
// the flat range check, the explicit global/local/private series, the 12D series, RV64I on
// x register pairs, ld/sd and the .d atomics. Expected values are computed here on the host
// from the input bytes and the guide's formulas.
#include <fmt/format.h>

#include <random>

#include "sim_harness.h"

namespace ventus::test {
namespace {

constexpr uint32_t kIn = 0x90002000;   // random input bytes, 256 before and after too
constexpr uint32_t kOut = 0x90003000;  // results
constexpr uint32_t kPds = 0x91000000;  // private memory

// One SM, so that the workgroups of a launch share it and take different local slots.
sim::DeviceConfig one_sm() {
  sim::DeviceConfig c;
  c.num_sms = 1;
  return c;
}

struct Fixture {
  Fixture() : device(one_sm()) {
    device.memory().map(0x90000000, 64 * 1024);
    device.memory().map(kPds, 64 * 1024);
    std::mt19937 rng(2025);
    input.resize(1024);
    for (uint8_t& b : input) b = static_cast<uint8_t>(rng());
    EXPECT_TRUE(device.memory().write(kIn - 256, input.data(), input.size()));
  }
  // Input byte at device address a.
  uint8_t in(uint32_t a) const { return input.at(a - (kIn - 256)); }
  uint32_t in_word(uint32_t a) const {
    return in(a) | in(a + 1) << 8 | in(a + 2) << 16 | uint32_t{in(a + 3)} << 24;
  }
  uint32_t in_half(uint32_t a) const { return in(a) | in(a + 1) << 8; }
  std::vector<uint8_t> bytes(uint32_t address, size_t n) {
    std::vector<uint8_t> b(n);
    EXPECT_TRUE(device.memory().read(address, b.data(), n));
    return b;
  }
  sim::LaunchResult run(const std::string& source, uint32_t threads = 8, uint32_t groups = 1) {
    load_program(device, source);
    sim::KernelLaunch l = launch_of(1, threads, groups);
    l.pds_base = kPds;
    l.pds_bytes_per_thread = 256;
    return device.run(l);
  }
  sim::Device device;
  std::vector<uint8_t> input;
};

uint32_t sext8(uint32_t v) {
  return static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(v)));
}
uint32_t sext16(uint32_t v) {
  return static_cast<uint32_t>(static_cast<int32_t>(static_cast<int16_t>(v)));
}

// The five loads of one lane at byte address a (in the input) as vlw/vlb/vlbu/vlh/vlhu
// with offsets 0, 1, 3, 2, -2 give them.
std::array<uint32_t, 5> expected_loads(const Fixture& f, uint32_t a) {
  return {f.in_word(a), sext8(f.in(a + 1)), f.in(a + 3), sext16(f.in_half(a + 2)),
          f.in_half(a - 2)};
}

uint32_t word_at(const std::vector<uint8_t>& b, size_t i) {
  return b[i] | b[i + 1] << 8 | b[i + 2] << 16 | uint32_t{b[i + 3]} << 24;
}

TEST(SimAddressSpaces, WindowCsrsAndGdsIsReadWrite) {
  Fixture f;
  const auto r = f.run(R"(
    li s0, 0x90003000
    csrr t0, gds_base
    sw t0, 0(s0)
    csrr t0, gds_limit
    sw t0, 4(s0)
    csrr t0, lds_base
    sw t0, 8(s0)
    csrr t0, lds_limit
    sw t0, 12(s0)
    csrr t0, gds
    sw t0, 16(s0)
    li t1, 0x1234
    csrw gds, t1
    csrr t0, gds
    sw t0, 20(s0)
    endprg x0, x0, x0
)");
  ASSERT_TRUE(r.ok()) << fault_text(r);
  const auto out = f.bytes(kOut, 24);
  EXPECT_EQ(word_at(out, 0), 0x80000000u);
  EXPECT_EQ(word_at(out, 4), 0xffffffffu);
  EXPECT_EQ(word_at(out, 8), 0x70000000u);
  EXPECT_EQ(word_at(out, 12), 0x7fffffffu);
  EXPECT_EQ(word_at(out, 16), 0u);
  EXPECT_EQ(word_at(out, 20), 0x1234u);

  Fixture g;
  const auto bad = g.run("li t0, 1\ncsrw gds_limit, t0\nendprg x0, x0, x0\n");
  EXPECT_NE(fault_text(bad).find("CSR 0x80f is read-only"), std::string::npos) << fault_text(bad);
}

// Loads of every width from the input through csr_gds, stores of every width to the output.
TEST(SimAddressSpaces, ExplicitGlobalSeries) {
  Fixture f;
  const auto r = f.run(R"(
    li t0, 0x90002000
    csrw gds, t0
    vid.v v1
    vsll.vi v1, v1, 2
    vlw_global.v v2, 0(v1)
    vlb_global.v v3, 1(v1)
    vlbu_global.v v4, 3(v1)
    vlh_global.v v5, 2(v1)
    vlhu_global.v v6, -2(v1)
    li t1, 0x1000
    vadd.vx v7, v1, t1
    vsw_global.v v2, 0(v7)
    vsw_global.v v3, 32(v7)
    vsw_global.v v4, 64(v7)
    vsw_global.v v5, 96(v7)
    vsw_global.v v6, 128(v7)
    vsb_global.v v2, 161(v7)
    vsh_global.v v2, 194(v7)
    endprg x0, x0, x0
)");
  ASSERT_TRUE(r.ok()) << fault_text(r);
  const auto out = f.bytes(kOut, 256);
  for (uint32_t lane = 0; lane < 8; ++lane) {
    const auto e = expected_loads(f, kIn + 4 * lane);
    for (int k = 0; k < 5; ++k)
      EXPECT_EQ(word_at(out, 32 * k + 4 * lane), e[k]) << lane << " " << k;
    const uint32_t w = f.in_word(kIn + 4 * lane);
    EXPECT_EQ(out[160 + 4 * lane], 0) << "vsb writes one byte";
    EXPECT_EQ(out[161 + 4 * lane], w & 0xff);
    EXPECT_EQ(out[162 + 4 * lane], 0);
    EXPECT_EQ(out[194 + 4 * lane] | out[195 + 4 * lane] << 8, w & 0xffff);
    EXPECT_EQ(out[196 + 4 * lane], 0);
  }
}

// Local: window address vs1 + offset + csr_lds; seen through the flat series at CSR_LDS +
// address. Two workgroups on one SM take slots 0 and 1 (different csr_lds).
TEST(SimAddressSpaces, ExplicitLocalSeries) {
  Fixture f;
  const auto r = f.run(R"(
    csrr t2, gidx
    slli t2, t2, 8
    li t0, 0x90003000
    add s0, t0, t2             # this group's output
    vid.v v1
    vsll.vi v1, v1, 2
    li t0, 0x90002000
    vadd.vx v8, v1, t0
    vlw12.v v2, 0(v8)          # input words
    vadd.vx v2, v2, t2         # differ per group
    vsw_local.v v2, 64(v1)
    vsh_local.v v2, 98(v1)
    vsb_local.v v2, 131(v1)
    vlw_local.v v3, 64(v1)
    vlb_local.v v4, 65(v1)
    vlbu_local.v v5, 67(v1)
    vlh_local.v v6, 66(v1)
    vlhu_local.v v7, 98(v1)
    vlw_local.v v11, 128(v1)
    csrr t1, lds
    addi t1, t1, 64
    vadd.vx v9, v1, t1
    vlw12.v v10, 0(v9)         # flat view of the same local words
    vadd.vx v12, v1, s0
    vsw12.v v3, 0(v12)
    vsw12.v v4, 32(v12)
    vsw12.v v5, 64(v12)
    vsw12.v v6, 96(v12)
    vsw12.v v7, 128(v12)
    vsw12.v v10, 160(v12)
    vsw12.v v11, 192(v12)
    csrr t1, lds
    sw t1, 224(s0)
    endprg x0, x0, x0
)",
                       8, 2);
  ASSERT_TRUE(r.ok()) << fault_text(r);
  for (uint32_t g = 0; g < 2; ++g) {
    const auto out = f.bytes(kOut + 256 * g, 256);
    EXPECT_EQ(word_at(out, 224), 0x70000000u + 1024 * g) << "slot of group " << g;
    for (uint32_t lane = 0; lane < 8; ++lane) {
      const uint32_t w = f.in_word(kIn + 4 * lane) + (g << 8);
      EXPECT_EQ(word_at(out, 4 * lane), w);
      EXPECT_EQ(word_at(out, 32 + 4 * lane), sext8(w >> 8));
      EXPECT_EQ(word_at(out, 64 + 4 * lane), w >> 24);
      EXPECT_EQ(word_at(out, 96 + 4 * lane), sext16(w >> 16));
      EXPECT_EQ(word_at(out, 128 + 4 * lane), w & 0xffff);        // vsh wrote the low half
      EXPECT_EQ(word_at(out, 192 + 4 * lane), (w & 0xff) << 24);  // vsb to byte 3
    }
  }
}

// Private: the guide's interleaving; the explicit series and the older 0x2b series see the
// same memory. The flat "12" series does not reach it: its private window is the null window
// (SimLimits.NullAndSmallPointersFault).
TEST(SimAddressSpaces, ExplicitPrivateSeries) {
  Fixture f;
  const uint32_t T = 8;
  const auto r = f.run(R"(
    vid.v v1
    vsll.vi v1, v1, 2
    li t0, 0x90002000
    vadd.vx v8, v1, t0
    vlw12.v v2, 0(v8)
    vmv.v.i v20, 0
    vsw_private.v v2, 8(v20)
    vsh_private.v v2, 18(v20)
    vsb_private.v v2, 33(v20)
    vlw_private.v v3, 8(v20)
    vlb_private.v v4, 9(v20)
    vlbu_private.v v5, 11(v20)
    vlh_private.v v6, 10(v20)
    vlhu_private.v v7, 18(v20)
    vlw.v v10, 8(v20)
    li t0, 0x90003000
    vadd.vx v12, v1, t0
    vsw12.v v3, 0(v12)
    vsw12.v v4, 32(v12)
    vsw12.v v5, 64(v12)
    vsw12.v v6, 96(v12)
    vsw12.v v7, 128(v12)
    vsw12.v v10, 192(v12)
    endprg x0, x0, x0
)");
  ASSERT_TRUE(r.ok()) << fault_text(r);
  const auto out = f.bytes(kOut, 256);
  const auto priv = f.bytes(kPds, 64 * T);
  // Physical byte of private address a in lane: ((a & ~3) * T) + (a & 3) + 4 * lane.
  const auto physical = [&](uint32_t a, uint32_t lane) {
    return (a & ~3u) * T + (a & 3u) + 4 * lane;
  };
  for (uint32_t lane = 0; lane < T; ++lane) {
    const uint32_t w = f.in_word(kIn + 4 * lane);
    EXPECT_EQ(word_at(priv, physical(8, lane)), w);
    EXPECT_EQ(priv[physical(18, lane)] | priv[physical(19, lane)] << 8, w & 0xffff);
    EXPECT_EQ(priv[physical(16, lane)], 0);
    EXPECT_EQ(priv[physical(33, lane)], w & 0xff);
    EXPECT_EQ(priv[physical(32, lane)], 0);
    EXPECT_EQ(word_at(out, 4 * lane), w);
    EXPECT_EQ(word_at(out, 32 + 4 * lane), sext8(w >> 8));
    EXPECT_EQ(word_at(out, 64 + 4 * lane), w >> 24);
    EXPECT_EQ(word_at(out, 96 + 4 * lane), sext16(w >> 16));
    EXPECT_EQ(word_at(out, 128 + 4 * lane), w & 0xffff);
    EXPECT_EQ(word_at(out, 192 + 4 * lane), w);
  }
}

// 12D: {v[vs1+1]:v[vs1]} + simm12 as a 64-bit sum. Lanes 0-3 address the input with a zero
// high word; lanes 4-7 borrow from the high word ({1 : a + 2^32 - 4096 ... } - 2048 ...).
TEST(SimAddressSpaces, TwelveDSeriesWith64BitSums) {
  Fixture f;
  f.device.memory().map(0xfffff000u, 4096);
  std::vector<uint8_t> top(4096);
  for (size_t i = 0; i < top.size(); ++i) top[i] = static_cast<uint8_t>(i * 7 + 3);
  ASSERT_TRUE(f.device.memory().write(0xfffff000u, top.data(), top.size()));
  const auto r = f.run(R"(
    vid.v v1
    vsll.vi v1, v1, 2
    li t0, 0x90002000
    vadd.vx v2, v1, t0         # v2/v3: {0 : input + 4 * lane}
    vmv.v.i v3, 0
    vlw12d.v v4, 0(v2)
    vlb12d.v v5, 1(v2)
    vlbu12d.v v6, 3(v2)
    vlh12d.v v7, 2(v2)
    vlhu12d.v v8, -2(v2)
    li t1, 0x8
    vadd.vx v10, v1, t1        # v10/v11: {1 : 8 + 4 * lane}, minus 2048 + 8 = 0xfffff808 + 4 * lane
    vmv.v.i v11, 1
    vlw12d.v v12, -2048(v10)
    li t0, 0x90003000
    vadd.vx v14, v1, t0
    vmv.v.i v15, 0
    vsw12d.v v4, 0(v14)
    vsw12d.v v5, 32(v14)
    vsw12d.v v6, 64(v14)
    vsw12d.v v7, 96(v14)
    vsw12d.v v8, 128(v14)
    vsw12d.v v12, 160(v14)
    vsb12d.v v4, 193(v14)
    vsh12d.v v4, 226(v14)
    endprg x0, x0, x0
)");
  ASSERT_TRUE(r.ok()) << fault_text(r);
  const auto out = f.bytes(kOut, 256);
  for (uint32_t lane = 0; lane < 8; ++lane) {
    const auto e = expected_loads(f, kIn + 4 * lane);
    for (int k = 0; k < 5; ++k)
      EXPECT_EQ(word_at(out, 32 * k + 4 * lane), e[k]) << lane << " " << k;
    EXPECT_EQ(word_at(out, 160 + 4 * lane), word_at(top, 0x808 + 4 * lane));
    const uint32_t w = e[0];
    EXPECT_EQ(word_at(out, 192 + 4 * lane), (w & 0xff) << 8);
    EXPECT_EQ(word_at(out, 224 + 4 * lane), (w & 0xffff) << 16);
  }
}

// The range check holds for every lane even where a page is mapped outside the windows (the
// one-page fast path of vector accesses must not bypass it).
TEST(SimAddressSpaces, MappedPageOutsideTheWindowsStillFaults) {
  for (const char* access : {"vlw12.v v2, 0(v1)", "vsw12.v v2, 0(v1)"}) {
    Fixture f;
    f.device.memory().map(0x10000000, 4096);
    const auto r = f.run(std::string(R"(
    vid.v v1
    vsll.vi v1, v1, 2
    li t0, 0x10000000
    vadd.vx v1, v1, t0
    )") + access + "\nendprg x0, x0, x0\n");
    EXPECT_NE(fault_text(r).find("thread 0: "), std::string::npos) << fault_text(r);
    EXPECT_NE(fault_text(r).find("flat address 0x10000000, which is in no address space"),
              std::string::npos)
        << fault_text(r);
  }
}

// Vector accesses whose lanes span two pages take the two-page fast path: each lane gets
// its own page's bytes, also where the pages lie in different windows (the last local page,
// then the first global one); a store whose second page is unmapped faults at the first
// lane there and writes nothing, not even in the first page.
// A vsw12.v of 32 lanes at first + lane * stride whose lane 16 is the first byte past the
// mapped 64 KiB at 0x90000000: the fault names that lane, and no lane stores anything.
void expect_lane_16_store_faults(uint32_t first, uint32_t stride) {
  ASSERT_EQ(first + 16 * stride, 0x90010000u);
  Fixture f;
  const auto fault = f.run(fmt::format(R"(
    vid.v v1
    li t0, {}
    vmul.vx v1, v1, t0
    li t0, {}
    vadd.vx v1, v1, t0
    vmv.v.i v2, 5
    vsw12.v v2, 0(v1)
    endprg x0, x0, x0
)",
                                       stride, first),
                           32);
  EXPECT_NE(fault_text(fault).find("thread 16: store to unmapped address 0x90010000"),
            std::string::npos)
      << fault_text(fault);
  EXPECT_EQ(f.bytes(first, 0x90010000u - first), std::vector<uint8_t>(0x90010000u - first, 0));
}

TEST(SimAddressSpaces, VectorAccessesAcrossAPageBoundary) {
  Fixture f;
  const auto r = f.run(R"(
    vid.v v1
    vsll.vi v1, v1, 2
    li t0, 0x90001fc0
    vadd.vx v1, v1, t0
    vlw12.v v2, 0(v1)
    vlh12.v v3, 2(v1)
    li t0, 0x1000
    vadd.vx v4, v1, t0
    vsw12.v v2, 0(v4)
    li t0, 0x2000
    vadd.vx v4, v1, t0
    vsw12.v v3, 0(v4)
    vid.v v5
    vadd.vi v5, v5, 7
    li t0, 0x7fffff80
    vmv.v.x v6, t0
    vid.v v7
    vsll.vi v7, v7, 2
    vadd.vv v6, v6, v7
    vsw12.v v5, 0(v6)
    vlw12.v v8, 64(v6)
    li t0, 0x1100
    vadd.vx v4, v1, t0
    vsw12.v v8, 0(v4)
    endprg x0, x0, x0
)",
                       32);
  ASSERT_TRUE(r.ok()) << fault_text(r);
  const auto first = f.bytes(0x90002fc0, 128), second = f.bytes(0x90003fc0, 128);
  const auto code = f.bytes(0x80000000, 64), across = f.bytes(0x900030c0, 128);
  for (uint32_t lane = 0; lane < 32; ++lane) {
    const uint32_t a = 0x90001fc0 + 4 * lane;
    EXPECT_EQ(word_at(first, 4 * lane), f.in_word(a)) << lane;
    EXPECT_EQ(word_at(second, 4 * lane), sext16(f.in_half(a + 2))) << lane;
    // Lanes 0-15 read the local words that lanes 16-31 stored; lanes 16-31 the code.
    EXPECT_EQ(word_at(across, 4 * lane), lane < 16 ? lane + 16 + 7 : word_at(code, 4 * (lane - 16)))
        << lane;
  }

  expect_lane_16_store_faults(0x9000ffc0, 4);
}

// Lanes on many pages (one page each, a column of a matrix) take their pages one by one from
// the page cache (memory.cpp, paged_pointers); a lane whose page is unmapped still faults by
// name, with nothing stored.
TEST(SimAddressSpaces, VectorAccessesOverManyPages) {
  Fixture f;
  const auto pattern = [](uint32_t a) { return a * 2654435761u; };
  for (uint32_t a = 0x90000000; a < 0x90010000; a += 4) {
    const uint32_t w = pattern(a);
    ASSERT_TRUE(f.device.memory().write(a, &w, 4));
  }
  const auto r = f.run(R"(
    vid.v v1
    li t0, 0x804
    vmul.vx v1, v1, t0
    li t0, 0x90000000
    vadd.vx v1, v1, t0
    vlw12.v v2, 0(v1)
    vlb12.v v3, 3(v1)
    li t0, 0x10
    vadd.vx v4, v1, t0
    vsw12.v v2, 0(v4)
    vsh12.v v3, 8(v4)
    endprg x0, x0, x0
)",
                       32);
  ASSERT_TRUE(r.ok()) << fault_text(r);
  for (uint32_t lane = 0; lane < 32; ++lane) {
    const uint32_t a = 0x90000000 + 0x804 * lane;
    const auto stored = f.bytes(a + 0x10, 12);
    EXPECT_EQ(word_at(stored, 0), pattern(a)) << lane;
    EXPECT_EQ(word_at(stored, 8), (pattern(a) >> 24) | (pattern(a) >> 31 ? 0xff00u : 0u) |
                                      (pattern(a + 0x10 + 8) & 0xffff0000u))
        << lane;
  }

  expect_lane_16_store_faults(0x9000f000, 0x100);
}

struct FaultCase {
  std::string source;
  std::string message;
};

TEST(SimAddressSpaces, Faults) {
  // Rows with an odd pair, which the assembler refuses to write, as .word.
  const auto word = [](uint32_t w) { return fmt::format(".word {:#x}\n", w); };
  const uint32_t vlw12d_odd = (3u << 15) | (2u << 12) | (4u << 7) | 0x6b;  // vlw12d.v v4, 0(v3)
  const uint32_t addw_odd = (4u << 20) | (3u << 15) | (6u << 7) | 0x3b;    // addw x6, x3, x4
  const uint32_t ld_odd = (5u << 15) | (3u << 12) | (6u << 7) | 0x03;      // ld x6, 0(x5)
  const uint32_t amo_odd = (1u << 27) | (7u << 20) | (5u << 15) | (3u << 12) | (6u << 7) | 0x2f;
  const std::vector<FaultCase> all = {
      {"li t0, 0x10000000\nvmv.v.x v1, t0\nvlw12.v v2, 0(v1)\n",
       "thread 0: load from flat address 0x10000000, which is in no address space (global "
       "[0x80000000, 0xffffffff], local [0x70000000, 0x7fffffff])"},
      {"li t0, 0x6ffffffc\nvmv.v.x v1, t0\nvsw12.v v2, 0(v1)\n",
       "store to flat address 0x6ffffffc"},
      {"li t0, 0x70000000\nvmv.v.x v1, t0\nvlw_global.v v2, 0(v1)\n",
       "load from global address 0x70000000: device address 0x70000000 (= address + csr_gds) is "
       "outside the global window [0x80000000, 0xffffffff]"},
      {"li t0, 0x20000000\nvmv.v.x v1, t0\nvsw_local.v v2, 0(v1)\n",
       "store to local address 0x20000000: device address 0x90000000 (= address + csr_lds) is "
       "outside the local window [0x70000000, 0x7fffffff]"},
      {"li t0, 0x90002000\nvmv.v.x v2, t0\nvmv.v.i v3, 1\nvlw12d.v v4, 0(v2)\n",
       "thread 0: load from 64-bit address 0x0000000190002000: its high word 0x00000001 is not "
       "zero, and the device address space is 32 bits"},
      {"li t0, -4\nvmv.v.x v2, t0\nvmv.v.i v3, 0\nvsw12d.v v4, 8(v2)\n",
       "store to 64-bit address 0x0000000100000004"},
      {"li t0, 0x10000000\nvmv.v.x v2, t0\nvmv.v.i v3, 0\nvlw12d.v v4, 0(v2)\n",
       "flat address 0x10000000, which is in no address space"},
      {word(vlw12d_odd),
       "vlw12d.v: vs1 v3 is odd, but a 64-bit register pair starts at an even register"},
      {word(addw_odd), "addw: rs1 x3 is odd"},
      {word(ld_odd), "ld: rs1 x5 is odd"},
      {word(amo_odd), "amoswap.d: rs1 x5 is odd"},
      {"li a2, 0x90002000\nli a3, 1\nld a0, 0(a2)\n",
       "load from 64-bit address 0x0000000190002000: its high word 0x00000001 is not zero"},
      {"li a2, 0x90002000\nli a3, 2\nsd a0, 0(a2)\n", "high word 0x00000002 is not zero"},
      {"li a2, 0x90002000\nli a3, 3\namoadd.d a0, a1, (a2)\n", "64-bit address 0x0000000390002000"},
  };
  for (const FaultCase& c : all) {
    Fixture f;
    const auto r = f.run(c.source + "endprg x0, x0, x0\n");
    EXPECT_NE(fault_text(r).find(c.message), std::string::npos)
        << c.source << "\n got: " << fault_text(r);
  }
}

}  // namespace
}  // namespace ventus::test
