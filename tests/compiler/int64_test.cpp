// 64-bit integer division and remainder (long and ulong `/` and `%`): the front end turns
// them into calls to lib/int64.cl (or shifts for constant powers of two), the back end
// runs them on register pairs. Results on the simulated device against the host's, with
// RISC-V's results where C leaves them undefined (x / 0, LONG_MIN / -1), at -O0 and -O2.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "ventus/compiler.h"
#include "ventus/error.h"
#include "ventus/runtime.h"

namespace {

namespace rt = ventus::rt;

constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

// What RISC-V's div/rem/divu/remu give (and lib/int64.cl promises).
int64_t ref_sdiv(int64_t a, int64_t b) {
  if (b == 0) return -1;
  if (a == kMin && b == -1) return kMin;
  return a / b;
}
int64_t ref_srem(int64_t a, int64_t b) {
  if (b == 0) return a;
  if (a == kMin && b == -1) return 0;
  return a % b;
}
uint64_t ref_udiv(uint64_t a, uint64_t b) {
  return b == 0 ? ~uint64_t{0} : a / b;
}
uint64_t ref_urem(uint64_t a, uint64_t b) {
  return b == 0 ? a : a % b;
}

rt::Program build(const std::string& source, int opt_level) {
  ventus::cc::Options options;
  options.opt_level = opt_level;
  options.file_name = "int64.cl";
  ventus::cc::Result r = ventus::cc::compile(source, options);
  if (!r.ok) throw ventus::Error("compile failed:\n" + r.diagnostics);
  return rt::Program::from_elf_bytes(r.elf);
}

std::vector<int64_t> edge_values() {
  std::vector<int64_t> v = {0,
                            1,
                            -1,
                            2,
                            -2,
                            3,
                            -3,
                            7,
                            10,
                            -10,
                            kMin,
                            kMax,
                            kMin + 1,
                            kMax - 1,
                            int64_t{1} << 31,
                            -(int64_t{1} << 31),
                            0xffffffffLL,
                            int64_t{1} << 32,
                            (int64_t{1} << 32) + 1,
                            -(int64_t{1} << 32),
                            int64_t{1} << 40,
                            int64_t{1} << 62,
                            12345678901234567LL,
                            -987654321987LL,
                            0x7fffffff00000000LL,
                            0x00000001ffffffffLL,
                            0xdeadbeefLL,
                            -0x123456789abcdefLL};
  return v;
}

// Pairs: every edge value with every other (division by zero included), then random pairs
// whose operands have random bit lengths and signs (so that quotients of every size
// occur, also divisors with high words and dividends without), padded to a multiple of
// 64 with 1 / 1.
void make_pairs(size_t random_count, std::vector<int64_t>& a, std::vector<int64_t>& b) {
  const std::vector<int64_t> edges = edge_values();
  for (int64_t x : edges)
    for (int64_t y : edges) a.push_back(x), b.push_back(y);
  std::mt19937_64 gen(64);
  auto value = [&] {
    uint64_t bits = gen() >> (gen() % 64);
    return static_cast<int64_t>(gen() & 1 ? bits : 0 - bits);
  };
  for (size_t i = 0; i < random_count; ++i) a.push_back(value()), b.push_back(value());
  while (a.size() % 64) a.push_back(1), b.push_back(1);
}

class Int64 : public ::testing::TestWithParam<int> {};

// One pair per work-item: the operands are divergent (vector registers).
TEST_P(Int64, DivergentScalarDivisionAndRemainder) {
  rt::Device device;
  rt::Program program = build(R"(
__kernel void div64(__global const long* a, __global const long* b, __global long* out) {
  int g = get_global_id(0);
  long x = a[g], y = b[g];
  out[4 * g + 0] = x / y;
  out[4 * g + 1] = x % y;
  out[4 * g + 2] = (long)((ulong)x / (ulong)y);
  out[4 * g + 3] = (long)((ulong)x % (ulong)y);
})",
                              GetParam());
  std::vector<int64_t> a, b;
  make_pairs(1000, a, b);
  const uint32_t n = static_cast<uint32_t>(a.size());
  rt::Buffer ba = rt::Buffer::from(device, a), bb = rt::Buffer::from(device, b);
  rt::Buffer bout(device, 4 * 8 * n);
  rt::launch(device, program, "div64", {n}, {64}, {ba, bb, bout});
  std::vector<int64_t> out = bout.download<int64_t>();
  for (uint32_t i = 0; i < n; ++i) {
    const uint64_t ua = static_cast<uint64_t>(a[i]), ub = static_cast<uint64_t>(b[i]);
    ASSERT_EQ(out[4 * i + 0], ref_sdiv(a[i], b[i])) << a[i] << " / " << b[i];
    ASSERT_EQ(out[4 * i + 1], ref_srem(a[i], b[i])) << a[i] << " % " << b[i];
    ASSERT_EQ(static_cast<uint64_t>(out[4 * i + 2]), ref_udiv(ua, ub)) << ua << " /u " << ub;
    ASSERT_EQ(static_cast<uint64_t>(out[4 * i + 3]), ref_urem(ua, ub)) << ua << " %u " << ub;
  }
}

// The same operands for the whole warp (loaded from uniform addresses): scalar registers
// and scalar branches inside the division.
TEST_P(Int64, UniformScalarDivisionAndRemainder) {
  rt::Device device;
  rt::Program program = build(R"(
__kernel void div64u(__global const long* a, __global const long* b, __global long* out, int n) {
  for (int i = 0; i < n; ++i) {
    long x = a[i], y = b[i];
    out[4 * i + 0] = x / y;
    out[4 * i + 1] = x % y;
    out[4 * i + 2] = (long)((ulong)x / (ulong)y);
    out[4 * i + 3] = (long)((ulong)x % (ulong)y);
  }
})",
                              GetParam());
  std::vector<int64_t> a, b;
  make_pairs(200, a, b);
  const int32_t n = static_cast<int32_t>(a.size());
  rt::Buffer ba = rt::Buffer::from(device, a), bb = rt::Buffer::from(device, b);
  rt::Buffer bout(device, 4 * 8 * n);
  rt::launch(device, program, "div64u", {8}, {8}, {ba, bb, bout, n});
  std::vector<int64_t> out = bout.download<int64_t>();
  for (int32_t i = 0; i < n; ++i) {
    const uint64_t ua = static_cast<uint64_t>(a[i]), ub = static_cast<uint64_t>(b[i]);
    ASSERT_EQ(out[4 * i + 0], ref_sdiv(a[i], b[i])) << a[i] << " / " << b[i];
    ASSERT_EQ(out[4 * i + 1], ref_srem(a[i], b[i])) << a[i] << " % " << b[i];
    ASSERT_EQ(static_cast<uint64_t>(out[4 * i + 2]), ref_udiv(ua, ub)) << ua << " /u " << ub;
    ASSERT_EQ(static_cast<uint64_t>(out[4 * i + 3]), ref_urem(ua, ub)) << ua << " %u " << ub;
  }
}

// long2 / long2 and ulong2 % ulong2: element by element.
TEST_P(Int64, VectorDivisionAndRemainder) {
  rt::Device device;
  rt::Program program = build(R"(
__kernel void div64v(__global const long2* a, __global const long2* b, __global long2* out) {
  int g = get_global_id(0);
  long2 x = a[g], y = b[g];
  out[4 * g + 0] = x / y;
  out[4 * g + 1] = x % y;
  out[4 * g + 2] = as_long2(as_ulong2(x) / as_ulong2(y));
  out[4 * g + 3] = as_long2(as_ulong2(x) % as_ulong2(y));
})",
                              GetParam());
  std::vector<int64_t> a, b;
  make_pairs(1000, a, b);
  // Item g divides pairs 2g and 2g + 1.
  const uint32_t n = static_cast<uint32_t>(a.size() / 2);
  rt::Buffer ba = rt::Buffer::from(device, a), bb = rt::Buffer::from(device, b);
  rt::Buffer bout(device, 4 * 16 * n);
  rt::launch(device, program, "div64v", {n}, {32}, {ba, bb, bout});
  std::vector<int64_t> out = bout.download<int64_t>();
  for (uint32_t g = 0; g < n; ++g)
    for (uint32_t e = 0; e < 2; ++e) {
      const size_t i = 2 * g + e;
      const uint64_t ua = static_cast<uint64_t>(a[i]), ub = static_cast<uint64_t>(b[i]);
      ASSERT_EQ(out[8 * g + 0 + e], ref_sdiv(a[i], b[i])) << a[i] << " / " << b[i];
      ASSERT_EQ(out[8 * g + 2 + e], ref_srem(a[i], b[i])) << a[i] << " % " << b[i];
      ASSERT_EQ(static_cast<uint64_t>(out[8 * g + 4 + e]), ref_udiv(ua, ub)) << ua << " /u " << ub;
      ASSERT_EQ(static_cast<uint64_t>(out[8 * g + 6 + e]), ref_urem(ua, ub)) << ua << " %u " << ub;
    }
}

// Constant divisors: powers of two become shifts in the front end (signed ones round
// toward zero), others call the library; a constant vector divisor mixes both.
TEST_P(Int64, ConstantDivisors) {
  rt::Device device;
  rt::Program program = build(R"(
__kernel void divc(__global const long* a, __global long* out) {
  int g = get_global_id(0);
  long x = a[g];
  ulong u = (ulong)x;
  __global long* o = out + 16 * g;
  o[0] = x / 8;
  o[1] = x % 8;
  o[2] = x / 1;
  o[3] = x % 1;
  o[4] = x / (1L << 40);
  o[5] = x % (1L << 40);
  o[6] = (long)(u / 16);
  o[7] = (long)(u % 16);
  o[8] = (long)(u / 0x8000000000000000UL);
  o[9] = (long)(u % 0x8000000000000000UL);
  o[10] = x / 7;
  o[11] = x % -7;
  o[12] = x / -8;
  o[13] = (long)(u / 1000000007UL);
  long2 v = (long2)(x, x ^ 0x5555);
  long2 q = v / (long2)(4, 3), r = v % (long2)(4, 3);
  o[14] = q.x ^ (q.y << 1);
  o[15] = r.x + (r.y << 8);
})",
                              GetParam());
  std::vector<int64_t> a, b;
  make_pairs(300, a, b);
  const uint32_t n = static_cast<uint32_t>(a.size());
  rt::Buffer ba = rt::Buffer::from(device, a);
  rt::Buffer bout(device, 16 * 8 * n);
  rt::launch(device, program, "divc", {n}, {64}, {ba, bout});
  std::vector<int64_t> out = bout.download<int64_t>();
  for (uint32_t g = 0; g < n; ++g) {
    const int64_t x = a[g], y = x ^ 0x5555;
    const uint64_t u = static_cast<uint64_t>(x);
    const int64_t ref[16] = {
        x / 8,
        x % 8,
        x,
        0,
        x / (int64_t{1} << 40),
        x % (int64_t{1} << 40),
        static_cast<int64_t>(u / 16),
        static_cast<int64_t>(u % 16),
        static_cast<int64_t>(u >> 63),
        static_cast<int64_t>(u & ~(uint64_t{1} << 63)),
        x / 7,
        x % -7,
        x / -8,
        static_cast<int64_t>(u / 1000000007),
        (x / 4) ^ static_cast<int64_t>(static_cast<uint64_t>(y / 3) << 1),
        static_cast<int64_t>(static_cast<uint64_t>(x % 4) + (static_cast<uint64_t>(y % 3) << 8))};
    for (int k = 0; k < 16; ++k)
      ASSERT_EQ(out[16 * g + k], ref[k]) << "x = " << x << ", result " << k;
  }
}

// llvm.abs/smin/smax/umin/umax on i64 (what InstCombine makes of these compares and
// selects; the division's magnitudes use abs): the back end expands them.
TEST_P(Int64, AbsMinMax) {
  rt::Device device;
  rt::Program program = build(R"(
__kernel void mm(__global const long* a, __global const long* b, __global long* out) {
  int g = get_global_id(0);
  long x = a[g], y = b[g];
  ulong u = (ulong)x, v = (ulong)y;
  __global long* o = out + 6 * g;
  o[0] = x < 0 ? -x : x;
  o[1] = x < y ? x : y;
  o[2] = x > y ? x : y;
  o[3] = (long)(u < v ? u : v);
  o[4] = (long)(u > v ? u : v);
  o[5] = (long)abs(y) + (long)max(x, 5L);
})",
                              GetParam());
  std::vector<int64_t> a, b;
  make_pairs(200, a, b);
  const uint32_t n = static_cast<uint32_t>(a.size());
  rt::Buffer ba = rt::Buffer::from(device, a), bb = rt::Buffer::from(device, b);
  rt::Buffer bout(device, 6 * 8 * n);
  rt::launch(device, program, "mm", {n}, {64}, {ba, bb, bout});
  std::vector<int64_t> out = bout.download<int64_t>();
  auto magnitude = [](int64_t x) { return x < 0 ? 0 - static_cast<uint64_t>(x) : static_cast<uint64_t>(x); };
  for (uint32_t g = 0; g < n; ++g) {
    const int64_t x = a[g], y = b[g];
    const uint64_t u = static_cast<uint64_t>(x), v = static_cast<uint64_t>(y);
    const int64_t ref[6] = {static_cast<int64_t>(magnitude(x)),
                            std::min(x, y),
                            std::max(x, y),
                            static_cast<int64_t>(std::min(u, v)),
                            static_cast<int64_t>(std::max(u, v)),
                            static_cast<int64_t>(magnitude(y) + static_cast<uint64_t>(std::max(x, int64_t{5})))};
    for (int k = 0; k < 6; ++k)
      ASSERT_EQ(out[6 * g + k], ref[k]) << "x = " << x << ", y = " << y << ", result " << k;
  }
}

INSTANTIATE_TEST_SUITE_P(Int64, Int64, ::testing::Values(0, 2),
                         [](const auto& info) { return "O" + std::to_string(info.param); });

// What the front end hands on: no 64-bit division instruction at any level, the library's
// code inlined; constant powers of two as shifts, with no call and no loop, at -O2.
TEST(Int64, FrontEndLowering) {
  const char* source = R"(
__kernel void k(__global long* p, __global ulong* q, long d) {
  int g = get_global_id(0);
  p[g] = p[g] / d + p[g] % d;
  q[g] = q[g] / (ulong)d;
})";
  for (int level : {0, 1, 2, 3}) {
    ventus::cc::Options options;
    options.opt_level = level;
    std::string diagnostics;
    const std::string ir = ventus::cc::compile_to_llvm_ir(source, options, &diagnostics);
    ASSERT_FALSE(ir.empty()) << diagnostics;
    for (const char* op : {"udiv i64", "sdiv i64", "urem i64", "srem i64", "div <", "rem <"})
      EXPECT_EQ(ir.find(op), std::string::npos) << "-O" << level << ": " << op;
    // The library's functions are always_inline: inlined also at -O0, where their
    // 32-bit fast path shows.
    for (const char* f : {"@__vt_udiv64", "@__vt_sdiv64", "@__vt_srem64"})
      EXPECT_EQ(ir.find(f), std::string::npos) << "-O" << level << ": " << f;
    EXPECT_NE(ir.find("udiv i32"), std::string::npos) << "-O" << level;
  }
  ventus::cc::Options options;
  std::string diagnostics;
  const std::string ir = ventus::cc::compile_to_llvm_ir(R"(
__kernel void k(__global long* p, __global ulong* q) {
  int g = get_global_id(0);
  p[g] = p[g] / 16 + p[g] % 4;
  q[g] = q[g] / 32 + q[g] % 8;
})",
                                                        options, &diagnostics);
  ASSERT_FALSE(ir.empty()) << diagnostics;
  for (const char* f : {"@__vt_udiv64", "@__vt_sdiv64", "@__vt_urem64", "@__vt_srem64"})
    EXPECT_EQ(ir.find(f), std::string::npos) << f << "\n" << ir;
  EXPECT_EQ(ir.find("phi i64"), std::string::npos) << ir;  // no division loop
  EXPECT_NE(ir.find("ashr i64"), std::string::npos) << ir;
}

}  // namespace
