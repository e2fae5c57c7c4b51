// 64-bit integer division and remainder (long and ulong `/` and `%`), and conversions
// between long/ulong and float: the front end turns them into calls to lib/int64.cl (or
// shifts for constant powers of two), the back end runs them on register pairs. Results
// on the simulated device against the host's, with RISC-V's results where C leaves them
// undefined (x / 0, LONG_MIN / -1, out-of-range float -> long), at -O0 and -O2.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
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
  auto magnitude = [](int64_t x) {
    return x < 0 ? 0 - static_cast<uint64_t>(x) : static_cast<uint64_t>(x);
  };
  for (uint32_t g = 0; g < n; ++g) {
    const int64_t x = a[g], y = b[g];
    const uint64_t u = static_cast<uint64_t>(x), v = static_cast<uint64_t>(y);
    const int64_t ref[6] = {
        static_cast<int64_t>(magnitude(x)),
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

// ---- Conversions between long/ulong and float ----

// Integers to convert: every power of two and its neighbours (both signs), values around
// 2^24, 2^53 and 2^63, exact ties between two floats (and one above and below them) at
// every magnitude above 2^24, then random values of random bit lengths and signs; padded
// to a multiple of 64.
std::vector<int64_t> conversion_integers(size_t random_count) {
  std::vector<int64_t> v = {0, 1, -1, kMin, kMax, kMin + 1, kMax - 1};
  for (int k = 0; k < 64; ++k) {
    const uint64_t p = uint64_t{1} << k;
    for (int64_t d = -3; d <= 3; ++d) {
      v.push_back(static_cast<int64_t>(p + static_cast<uint64_t>(d)));
      v.push_back(static_cast<int64_t>(0 - (p + static_cast<uint64_t>(d))));
    }
  }
  for (int k : {24, 53, 63})
    for (int64_t d = -40; d <= 40; ++d) {
      const uint64_t x = (uint64_t{1} << k) + static_cast<uint64_t>(d);
      v.push_back(static_cast<int64_t>(x)), v.push_back(static_cast<int64_t>(0 - x));
    }
  std::mt19937_64 gen(2464);
  // Ties: a 24-bit significand m (odd and even) times 2^s plus half a unit, s = 1..40.
  for (int s = 1; s <= 40; ++s)
    for (int i = 0; i < 6; ++i) {
      const uint64_t m = (gen() & 0xffffff) | 0x800000 | (i < 3 ? 1 : 0);
      const uint64_t m_even = i < 3 ? m : m & ~uint64_t{1};
      const uint64_t tie = (m_even << s) + (uint64_t{1} << (s - 1));
      for (int64_t d = -1; d <= 1; ++d) {
        const uint64_t x = tie + static_cast<uint64_t>(d);
        v.push_back(static_cast<int64_t>(x)), v.push_back(static_cast<int64_t>(0 - x));
      }
    }
  for (size_t i = 0; i < random_count; ++i) {
    const uint64_t bits = gen() >> (gen() % 64);
    v.push_back(static_cast<int64_t>(gen() & 1 ? bits : 0 - bits));
  }
  while (v.size() % 64) v.push_back(0);
  return v;
}

// Floats to convert: zeros, infinities, NaNs of both signs, the limits 2^31, 2^32, 2^63,
// 2^64 and their neighbours, subnormals, small fractions, then random bit patterns (every
// exponent) and random values up to 2^70; padded to a multiple of 64.
std::vector<float> conversion_floats(size_t random_count) {
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> v = {0.0f,
                          -0.0f,
                          inf,
                          -inf,
                          std::nanf(""),
                          -std::nanf(""),
                          std::bit_cast<float>(0x7fc12345u),
                          std::bit_cast<float>(0xff800001u),
                          std::numeric_limits<float>::denorm_min(),
                          -std::numeric_limits<float>::denorm_min(),
                          std::bit_cast<float>(0x007fffffu),
                          std::bit_cast<float>(0x807fffffu),
                          std::numeric_limits<float>::min(),
                          std::numeric_limits<float>::max(),
                          -std::numeric_limits<float>::max(),
                          0.5f,
                          -0.5f,
                          0.999999f,
                          -0.999999f,
                          1.0f,
                          -1.0f,
                          1.5f,
                          -1.5f,
                          2.5f,
                          -2.5f,
                          1e10f,
                          -1e10f};
  for (int k = 0; k <= 66; ++k) {
    const float p = std::ldexp(1.0f, k);
    for (float f : {p, std::nextafter(p, 0.0f), std::nextafter(p, inf)})
      v.push_back(f), v.push_back(-f);
  }
  std::mt19937 gen(6432);
  for (size_t i = 0; i < random_count; ++i) {
    v.push_back(std::bit_cast<float>(static_cast<uint32_t>(gen())));
    const float mantissa = std::ldexp(static_cast<float>(gen() & 0xffffff), -24);
    v.push_back((gen() & 1 ? 1.0f : -1.0f) *
                std::ldexp(1.0f + mantissa, static_cast<int>(gen() % 71)));
  }
  while (v.size() % 64) v.push_back(0.0f);
  return v;
}

// RISC-V's fcvt.l.s / fcvt.lu.s (toward zero; NaN and too large -> the maximum).
int64_t ref_f2l(float f) {
  if (std::isnan(f) || f >= 0x1p63f) return kMax;
  if (f <= -0x1p63f) return kMin;
  return static_cast<int64_t>(f);
}
uint64_t ref_f2ul(float f) {
  if (std::isnan(f) || f >= 0x1p64f) return ~uint64_t{0};
  if (f <= -1.0f) return 0;
  return static_cast<uint64_t>(f);
}
// The host's conversions round to nearest even (x86-64 cvtsi2ss, and the unsigned one).
uint32_t bits(float f) {
  return std::bit_cast<uint32_t>(f);
}

class Int64Conversion : public ::testing::TestWithParam<int> {};

// One value per work-item (vector registers), scalar casts and a vector cast
// (__builtin_convertvector gives clang's sitofp <2 x i64>).
TEST_P(Int64Conversion, DivergentIntegerToFloat) {
  rt::Device device;
  rt::Program program = build(R"(
__kernel void i2f(__global const long* a, __global float* out) {
  int g = get_global_id(0);
  long x = a[g];
  float2 v = __builtin_convertvector((long2)(x, ~x), float2);
  float2 u = __builtin_convertvector((ulong2)(x, ~x), float2);
  out[6 * g + 0] = (float)x;
  out[6 * g + 1] = (float)(ulong)x;
  out[6 * g + 2] = v.x;
  out[6 * g + 3] = v.y;
  out[6 * g + 4] = u.x;
  out[6 * g + 5] = u.y;
})",
                              GetParam());
  const std::vector<int64_t> a = conversion_integers(3000);
  const uint32_t n = static_cast<uint32_t>(a.size());
  rt::Buffer ba = rt::Buffer::from(device, a);
  rt::Buffer bout(device, 6 * 4 * n);
  rt::launch(device, program, "i2f", {n}, {64}, {ba, bout});
  std::vector<float> out = bout.download<float>();
  for (uint32_t i = 0; i < n; ++i) {
    const int64_t x = a[i];
    const uint64_t u = static_cast<uint64_t>(x);
    const float ref[6] = {static_cast<float>(x),  static_cast<float>(u), static_cast<float>(x),
                          static_cast<float>(~x), static_cast<float>(u), static_cast<float>(~u)};
    for (int k = 0; k < 6; ++k)
      ASSERT_EQ(bits(out[6 * i + k]), bits(ref[k]))
          << "x = " << x << ", result " << k << ": " << out[6 * i + k] << " != " << ref[k];
  }
}

// The same values for the whole warp: scalar registers and scalar branches.
TEST_P(Int64Conversion, UniformIntegerToFloat) {
  rt::Device device;
  rt::Program program = build(R"(
__kernel void i2fu(__global const long* a, __global float* out, int n) {
  for (int i = 0; i < n; ++i) {
    long x = a[i];
    out[2 * i + 0] = (float)x;
    out[2 * i + 1] = (float)(ulong)x;
  }
})",
                              GetParam());
  const std::vector<int64_t> a = conversion_integers(500);
  const int32_t n = static_cast<int32_t>(a.size());
  rt::Buffer ba = rt::Buffer::from(device, a);
  rt::Buffer bout(device, 2 * 4 * n);
  rt::launch(device, program, "i2fu", {8}, {8}, {ba, bout, n});
  std::vector<float> out = bout.download<float>();
  for (int32_t i = 0; i < n; ++i) {
    ASSERT_EQ(bits(out[2 * i]), bits(static_cast<float>(a[i]))) << a[i];
    ASSERT_EQ(bits(out[2 * i + 1]), bits(static_cast<float>(static_cast<uint64_t>(a[i])))) << a[i];
  }
}

TEST_P(Int64Conversion, DivergentFloatToInteger) {
  rt::Device device;
  rt::Program program = build(R"(
__kernel void f2i(__global const float* a, __global long* out) {
  int g = get_global_id(0);
  float f = a[g];
  long2 v = __builtin_convertvector((float2)(f, -f), long2);
  ulong2 u = __builtin_convertvector((float2)(f, -f), ulong2);
  out[6 * g + 0] = (long)f;
  out[6 * g + 1] = (long)(ulong)f;
  out[6 * g + 2] = v.x;
  out[6 * g + 3] = v.y;
  out[6 * g + 4] = (long)u.x;
  out[6 * g + 5] = (long)u.y;
})",
                              GetParam());
  const std::vector<float> a = conversion_floats(2000);
  const uint32_t n = static_cast<uint32_t>(a.size());
  rt::Buffer ba = rt::Buffer::from(device, a);
  rt::Buffer bout(device, 6 * 8 * n);
  rt::launch(device, program, "f2i", {n}, {64}, {ba, bout});
  std::vector<int64_t> out = bout.download<int64_t>();
  for (uint32_t i = 0; i < n; ++i) {
    const float f = a[i];
    const int64_t ref[6] = {
        ref_f2l(f),  static_cast<int64_t>(ref_f2ul(f)), ref_f2l(f),
        ref_f2l(-f), static_cast<int64_t>(ref_f2ul(f)), static_cast<int64_t>(ref_f2ul(-f))};
    for (int k = 0; k < 6; ++k)
      ASSERT_EQ(out[6 * i + k], ref[k])
          << "f = " << f << " (0x" << std::hex << bits(f) << std::dec << "), result " << k;
  }
}

TEST_P(Int64Conversion, UniformFloatToInteger) {
  rt::Device device;
  rt::Program program = build(R"(
__kernel void f2iu(__global const float* a, __global long* out, int n) {
  for (int i = 0; i < n; ++i) {
    float f = a[i];
    out[2 * i + 0] = (long)f;
    out[2 * i + 1] = (long)(ulong)f;
  }
})",
                              GetParam());
  const std::vector<float> a = conversion_floats(300);
  const int32_t n = static_cast<int32_t>(a.size());
  rt::Buffer ba = rt::Buffer::from(device, a);
  rt::Buffer bout(device, 2 * 8 * n);
  rt::launch(device, program, "f2iu", {8}, {8}, {ba, bout, n});
  std::vector<int64_t> out = bout.download<int64_t>();
  for (int32_t i = 0; i < n; ++i) {
    ASSERT_EQ(out[2 * i], ref_f2l(a[i])) << a[i] << " (0x" << std::hex << bits(a[i]) << ")";
    ASSERT_EQ(static_cast<uint64_t>(out[2 * i + 1]), ref_f2ul(a[i]))
        << a[i] << " (0x" << std::hex << bits(a[i]) << ")";
  }
}

// The library's convert_* functions, whose own casts the front end lowers after linking:
// _sat (NaN -> 0, clamped) and directed rounding of long -> float.
float ref_directed(long double exact, int dir) {  // dir: 0 toward zero, 1 up, -1 down
  float f = static_cast<float>(exact);            // nearest even (x87 is exact for 64-bit integers)
  const long double rf = f;
  if (rf == exact) return f;
  const float inf = std::numeric_limits<float>::infinity();
  if (dir == 1 && rf < exact) return std::nextafter(f, inf);
  if (dir == -1 && rf > exact) return std::nextafter(f, -inf);
  if (dir == 0 && std::fabs(rf) > std::fabs(exact)) return std::nextafter(f, 0.0f);
  return f;
}

TEST_P(Int64Conversion, LibraryConvertFunctions) {
  rt::Device device;
  rt::Program program = build(R"(
__kernel void cvt(__global const long* a, __global const float* b, __global uint* out) {
  int g = get_global_id(0);
  long x = a[g];
  float f = b[g];
  __global uint* o = out + 12 * g;
  long s = convert_long_sat(f);
  ulong u = convert_ulong_sat(f);
  float2 v = convert_float2((long2)(x, (long)(0UL - (ulong)x)));  // -x without signed overflow
  o[0] = (uint)s; o[1] = (uint)(s >> 32);
  o[2] = (uint)u; o[3] = (uint)(u >> 32);
  o[4] = as_uint(v.x); o[5] = as_uint(v.y);
  o[6] = as_uint(convert_float_rtz(x));
  o[7] = as_uint(convert_float_rtp(x));
  o[8] = as_uint(convert_float_rtn(x));
  o[9] = as_uint(convert_float_rtz((ulong)x));
  o[10] = as_uint(convert_float_rtp((ulong)x));
  o[11] = as_uint(convert_float_rtn((ulong)x));
})",
                              GetParam());
  std::vector<int64_t> a = conversion_integers(1000);
  std::vector<float> b = conversion_floats(1000);
  const size_t count = std::min(a.size(), b.size()) / 64 * 64;
  a.resize(count), b.resize(count);
  const uint32_t n = static_cast<uint32_t>(count);
  rt::Buffer ba = rt::Buffer::from(device, a), bb = rt::Buffer::from(device, b);
  rt::Buffer bout(device, 12 * 4 * n);
  rt::launch(device, program, "cvt", {n}, {64}, {ba, bb, bout});
  std::vector<uint32_t> out = bout.download<uint32_t>();
  for (uint32_t i = 0; i < n; ++i) {
    const int64_t x = a[i];
    const uint64_t ux = static_cast<uint64_t>(x);
    const float f = b[i];
    const int64_t sat_l = std::isnan(f) ? 0 : ref_f2l(f);
    const uint64_t sat_ul = std::isnan(f) ? 0 : ref_f2ul(f);
    const uint32_t ref[12] = {
        static_cast<uint32_t>(sat_l),  static_cast<uint32_t>(static_cast<uint64_t>(sat_l) >> 32),
        static_cast<uint32_t>(sat_ul), static_cast<uint32_t>(sat_ul >> 32),
        bits(static_cast<float>(x)),   bits(static_cast<float>(0 - ux == ux ? x : -x)),
        bits(ref_directed(x, 0)),      bits(ref_directed(x, 1)),
        bits(ref_directed(x, -1)),     bits(ref_directed(ux, 0)),
        bits(ref_directed(ux, 1)),     bits(ref_directed(ux, -1))};
    for (int k = 0; k < 12; ++k)
      ASSERT_EQ(out[12 * i + k], ref[k]) << "x = " << x << ", f = " << f << ", result " << k;
  }
}

INSTANTIATE_TEST_SUITE_P(Int64Conversion, Int64Conversion, ::testing::Values(0, 2),
                         [](const auto& info) { return "O" + std::to_string(info.param); });

// No long<->float conversion reaches the back end, at any level: the program's casts
// (scalar and vector) and the library's (convert_long_sat, convert_float_rtz) are calls
// that the always-inliner removed.
TEST(Int64Conversion, FrontEndLowering) {
  const char* source = R"(
__kernel void k(__global long* p, __global float* q, __global long2* r) {
  int g = get_global_id(0);
  q[g] = (float)p[g] + (float)(ulong)p[g] + convert_float_rtz(p[g]);
  p[g] = (long)q[g] + (long)(ulong)q[g] + convert_long_sat(q[g]) + (long)convert_ulong_sat_rte(q[g]);
  r[g] = __builtin_convertvector(__builtin_convertvector(r[g], float2), long2);
})";
  for (int level : {0, 1, 2, 3}) {
    ventus::cc::Options options;
    options.opt_level = level;
    std::string diagnostics;
    const std::string ir = ventus::cc::compile_to_llvm_ir(source, options, &diagnostics);
    ASSERT_FALSE(ir.empty()) << diagnostics;
    size_t start = 0;
    while (start < ir.size()) {
      size_t end = ir.find('\n', start);
      if (end == std::string::npos) end = ir.size();
      const std::string line = ir.substr(start, end - start);
      start = end + 1;
      // The instruction itself, without its metadata (TBAA tags hold "i64 0").
      const std::string inst = line.substr(0, line.find(", !"));
      for (const char* op : {" = sitofp ", " = uitofp ", " = fptosi ", " = fptoui "})
        if (inst.find(op) != std::string::npos) {
          EXPECT_EQ(inst.find("i64"), std::string::npos) << "-O" << level << ": " << line;
        }
    }
    for (const char* f :
         {"@__vt_i64_to_f32", "@__vt_u64_to_f32", "@__vt_f32_to_i64", "@__vt_f32_to_u64"})
      EXPECT_EQ(ir.find(f), std::string::npos) << "-O" << level << ": " << f;
  }
}

}  // namespace
