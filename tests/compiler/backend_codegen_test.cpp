// Generated code that must assemble and run whatever the program holds: the mnemonics the
// back end writes (unsigned compares with an immediate), labels unique across the
// functions of one program (branch relaxation), the OpenCL version macros, data LLVM
// itself creates (switch lookup tables) read from where it lives, narrow loads compared
// without extending them again, field offsets in the memory instructions, phis of vector
// values without copies, and double arithmetic.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "fp16.h"
#include "ventus/compiler.h"
#include "ventus/error.h"
#include "ventus/runtime.h"

namespace {

namespace rt = ventus::rt;

ventus::cc::Result compile(const std::string& source, int opt_level = 2,
                           const std::string& cl_std = "CL1.2") {
  ventus::cc::Options options;
  options.opt_level = opt_level;
  options.cl_std = cl_std;
  options.file_name = "codegen.cl";
  return ventus::cc::compile(source, options);
}

std::vector<int32_t> run(const ventus::cc::Result& r, const std::string& kernel, size_t n,
                         int32_t value) {
  rt::Device device;
  rt::Program program = rt::Program::from_elf_bytes(r.elf);
  std::vector<int32_t> init(n, -1);
  rt::Buffer out = rt::Buffer::from(device, init);
  rt::launch(device, program, kernel, {static_cast<uint32_t>(n)}, {32}, out, value);
  return out.download<int32_t>();
}

// A uniform (scalar) compare against a small constant is selected as slti/sltiu: the
// unsigned one was once written "sltui", which the assembler rejects.
TEST(BackendCodegen, ScalarComparesWithAnImmediateAssemble) {
  const std::string source = R"(
__kernel void compares(__global int* out, int n) {
  int i = get_global_id(0);
  out[i] = ((uint)n < 7u) * 10 + (n < -3) * 100 + ((uint)n > 2000u) * 1000 + i;
})";
  for (int opt : {0, 2}) {
    ventus::cc::Result r = compile(source, opt);
    ASSERT_TRUE(r.ok) << r.diagnostics;
    if (opt == 2) {  // at -O0 n is reloaded from private memory: a vector compare
      EXPECT_NE(r.assembly.find("\tsltiu "), std::string::npos);
    }
    for (int32_t n : {5, 7, -5, 3000}) {
      std::vector<int32_t> out = run(r, "compares", 64, n);
      int32_t flags = (static_cast<uint32_t>(n) < 7u) * 10 + (n < -3) * 100 +
                      (static_cast<uint32_t>(n) > 2000u) * 1000;
      for (int32_t i = 0; i < 64; ++i) ASSERT_EQ(out[i], flags + i) << "n = " << n << ", -O" << opt;
    }
  }
}

// Bytes and halfwords loaded from memory: a load zero-extends them already, so testing one
// for zero (Rodinia BFS's `if (!g_graph_visited[id])`) is one compare-and-branch on the
// loaded value, with no shifts and no separate compare; signed compares still sign-extend.
TEST(BackendCodegen, NarrowLoadsCompareAndBranchWithoutExtension) {
  const std::string source = R"(
__kernel void narrow(__global const char* c, __global const ushort* h, __global int* out) {
  int i = get_global_id(0);
  int r = 0;
  if (!c[i]) r += 1;
  if (c[i] < -5) r += 10;
  if ((uchar)c[i] > 200) r += 100;
  if (h[i] == 0xfffe) r += 1000;
  if ((short)h[i] < 0) r += 10000;
  if (h[i] % 7u == 3u) r += 100000;
  out[i] = r;
})";
  const std::string zero_test = R"(
__kernel void zero_test(__global const char* c, __global int* out) {
  int i = get_global_id(0);
  if (!c[i]) out[i] = 7;
})";
  ventus::cc::Result z = compile(zero_test);
  ASSERT_TRUE(z.ok) << z.diagnostics;
  EXPECT_EQ(z.assembly.find("vsrl.vi"), std::string::npos) << z.assembly;
  EXPECT_EQ(z.assembly.find("vmseq"), std::string::npos) << z.assembly;
  EXPECT_NE(z.assembly.find("vbeq"), std::string::npos) << z.assembly;
  constexpr uint32_t kN = 256;
  std::vector<int8_t> c(kN);
  std::vector<uint16_t> h(kN);
  for (uint32_t i = 0; i < kN; ++i) {
    c[i] = static_cast<int8_t>(i % 5 == 0 ? 0 : i * 37);
    h[i] = static_cast<uint16_t>(i % 9 == 0 ? 0xfffe : i * 4099);
  }
  for (int opt : {0, 2}) {
    ventus::cc::Result r = compile(source, opt);
    ASSERT_TRUE(r.ok) << r.diagnostics;
    rt::Device device;
    rt::Program program = rt::Program::from_elf_bytes(r.elf);
    rt::Buffer bc = rt::Buffer::from(device, c), bh = rt::Buffer::from(device, h);
    rt::Buffer out(device, 4 * kN);
    rt::launch(device, program, "narrow", {kN}, {64}, bc, bh, out);
    const std::vector<int32_t> got = out.download<int32_t>();
    for (uint32_t i = 0; i < kN; ++i) {
      const int32_t expected = (c[i] == 0) + (c[i] < -5) * 10 +
                               (static_cast<uint8_t>(c[i]) > 200) * 100 + (h[i] == 0xfffe) * 1000 +
                               (static_cast<int16_t>(h[i]) < 0) * 10000 +
                               (h[i] % 7u == 3u) * 100000;
      ASSERT_EQ(got[i], expected) << "item " << i << ", -O" << opt;
    }
  }
}

// A field of an array element (Rodinia BFS's g_graph_nodes[tid].no_of_edges): the constant
// part of the address is the load's or store's offset, not an add.
TEST(BackendCodegen, FieldOffsetsOfArrayElementsAreMemoryOffsets) {
  const std::string source = R"(
typedef struct { int starting; int no_of_edges; int pad; } Node;
__kernel void fields(__global Node* nodes, __global int* out) {
  int i = get_global_id(0);
  out[i] = nodes[i].no_of_edges * 3 + nodes[i].starting;
  nodes[i].pad = i;
})";
  ventus::cc::Result r = compile(source);
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_NE(r.assembly.find(", 4(v"), std::string::npos) << r.assembly;
  EXPECT_NE(r.assembly.find(", 8(v"), std::string::npos) << r.assembly;
  EXPECT_EQ(r.assembly.find("vadd.vi"), std::string::npos) << r.assembly;
  constexpr uint32_t kN = 128;
  std::vector<int32_t> nodes(3 * kN);
  for (uint32_t i = 0; i < 3 * kN; ++i) nodes[i] = static_cast<int32_t>(i * 7919 % 1000) - 500;
  rt::Device device;
  rt::Program program = rt::Program::from_elf_bytes(r.elf);
  rt::Buffer bn = rt::Buffer::from(device, nodes);
  rt::Buffer out(device, 4 * kN);
  rt::launch(device, program, "fields", {kN}, {64}, bn, out);
  const std::vector<int32_t> got = out.download<int32_t>(), after = bn.download<int32_t>();
  for (uint32_t i = 0; i < kN; ++i) {
    ASSERT_EQ(got[i], nodes[3 * i + 1] * 3 + nodes[3 * i]) << "item " << i;
    ASSERT_EQ(after[3 * i + 2], static_cast<int32_t>(i)) << "item " << i;
  }
}

// A phi's value and its incoming values share a vector register when they never hold
// different values at once (regalloc.cpp, coalesce_vector_copies), so no copy is left: the
// local id (a phi of `linear` and `linear % x`) and a divergent if/else and loop whose phis
// each arm and iteration update. The results check that lanes of the other arm keep theirs.
TEST(BackendCodegen, PhiCopiesOfVectorValuesAreCoalesced) {
  const std::string source = R"(
__kernel void phis(__global const int* in, __global int* out) {
  int i = get_global_id(0);
  int v = in[i], acc = 0;
  if (v & 1) {
    acc = v * 3;
    out[256 + i] = acc;  // a store: the arms stay branches
  } else {
    acc = v - 7;
  }
  for (int k = 0; k < (v & 7); ++k) acc = acc * 5 + k;
  out[i] = acc;
})";
  ventus::cc::Result r = compile(source);
  ASSERT_TRUE(r.ok) << r.diagnostics;
  // The only vector copy left is the select's mask into v0 (the register vmerge reads).
  for (size_t at = r.assembly.find("vmv.v.v"); at != std::string::npos;
       at = r.assembly.find("vmv.v.v", at + 1))
    EXPECT_EQ(r.assembly.compare(at, 12, "vmv.v.v v0, "), 0) << r.assembly.substr(at, 40);
  constexpr uint32_t kN = 256;
  std::vector<int32_t> in(kN);
  for (uint32_t i = 0; i < kN; ++i) in[i] = static_cast<int32_t>(i * 2654435761u >> 7);
  for (int opt : {0, 2}) {
    ventus::cc::Result c = compile(source, opt);
    ASSERT_TRUE(c.ok) << c.diagnostics;
    rt::Device device;
    rt::Program program = rt::Program::from_elf_bytes(c.elf);
    rt::Buffer bin = rt::Buffer::from(device, in);
    rt::Buffer out(device, 8 * kN);
    rt::launch(device, program, "phis", {kN}, {64}, bin, out);
    const std::vector<int32_t> got = out.download<int32_t>();
    for (uint32_t i = 0; i < kN; ++i) {
      uint32_t v = static_cast<uint32_t>(in[i]);
      uint32_t acc = (v & 1) ? v * 3 : v - 7;
      for (uint32_t k = 0; k < (v & 7); ++k) acc = acc * 5 + k;
      ASSERT_EQ(got[i], static_cast<int32_t>(acc)) << "item " << i << ", -O" << opt;
    }
  }
}

// Two kernels whose divergent branches jump over more than the 4 KiB a branch reaches:
// each needs relaxation labels, and they must differ between the kernels.
TEST(BackendCodegen, BranchRelaxationLabelsAreUniqueInTheProgram) {
  std::string body;
  for (int k = 0; k < 300; ++k)
    body += "    acc = (acc ^ (acc << 3)) + table[(acc + " + std::to_string(k) + "u) & 63u];\n";
  std::string source = "__constant int table[64] = {";
  for (int k = 0; k < 64; ++k) source += std::to_string(k * 37 % 101) + ",";
  source += "};\n";
  for (const char* name : {"first", "second"})
    source += std::string("__kernel void ") + name +
              "(__global int* out, int n) {\n  int i = get_global_id(0);\n" +
              "  uint acc = i;\n  if (i % 3 == n) {\n" + body + "  }\n  out[i] = (int)acc;\n}\n";
  ventus::cc::Result r = compile(source);
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_NE(r.assembly.find(".Lrelax_first_"), std::string::npos);
  EXPECT_NE(r.assembly.find(".Lrelax_second_"), std::string::npos);
  std::vector<int32_t> first = run(r, "first", 64, 1), second = run(r, "second", 64, 1);
  EXPECT_EQ(first, second);
  for (int32_t i = 0; i < 64; ++i) {
    uint32_t acc = static_cast<uint32_t>(i);
    if (i % 3 == 1)
      for (uint32_t k = 0; k < 300; ++k) acc = (acc ^ (acc << 3)) + (acc + k) % 64 * 37 % 101;
    ASSERT_EQ(static_cast<uint32_t>(first[i]), acc) << i;
  }
}

// The labels of the extra-lane guard: a kernel named "done_k" beside "k" once defined
// ".Lguard_done_k" twice.
TEST(BackendCodegen, KernelsNamedAlikeGetDistinctLabels) {
  ventus::cc::Result r = compile(R"(
__kernel void k(__global int* out, int n) { out[get_global_id(0)] = n; }
__kernel void done_k(__global int* out, int n) { out[get_global_id(0)] = n + 1; }
)");
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_EQ(run(r, "k", 64, 5), std::vector<int32_t>(64, 5));
  EXPECT_EQ(run(r, "done_k", 64, 5), std::vector<int32_t>(64, 6));
}

// __OPENCL_VERSION__ is the device's OpenCL version (1.2) whatever -cl-std says;
// __OPENCL_C_VERSION__ follows -cl-std; CL_VERSION_1_0..1_2 are defined.
TEST(BackendCodegen, OpenClVersionMacros) {
  const std::string source = R"(
#if !defined(__OPENCL_VERSION__) || __OPENCL_VERSION__ != CL_VERSION_1_2
#error "__OPENCL_VERSION__"
#endif
#if CL_VERSION_1_0 != 100 || CL_VERSION_1_1 != 110 || CL_VERSION_1_2 != 120
#error "CL_VERSION_*"
#endif
__kernel void versions(__global int* out, int n) {
  out[get_global_id(0)] = __OPENCL_VERSION__ * 1000 + __OPENCL_C_VERSION__ + n;
})";
  for (auto [cl_std, c_version] :
       {std::pair{"CL1.0", 100}, {"CL1.1", 110}, {"CL1.2", 120}, {"CL2.0", 200}, {"CL3.0", 300}}) {
    ventus::cc::Result r = compile(source, 2, cl_std);
    ASSERT_TRUE(r.ok) << cl_std << ": " << r.diagnostics;
    EXPECT_EQ(run(r, "versions", 32, 0), std::vector<int32_t>(32, 120000 + c_version)) << cl_std;
  }
}

}  // namespace

// double (cl_khr_fp64): arithmetic on the pair instructions for divergent values and for
// uniform ones (a double kernel argument: computed in the pairs, moved back to scalar
// registers), compares as integer code (NaN, -0 == +0), RISC-V's canonical NaN and its
// clamping double -> long conversion, against the host's IEEE arithmetic.
// half (cl_khr_fp16): a half kernel argument, uniform and per-work-item values, a private
// array, the promoted arithmetic, compares and conversions, checked against the project's
// binary16 library (src/fp, bit-exact against qemu), which shares no code with lib/fp16.cl.
TEST(BackendCodegen, HalfPromotedToFloat) {
  const std::string source = R"(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void hlf(__global ushort* out, half c) {
  int i = get_global_id(0);
  half x = (half)(i - 20) * 0.3h;
  half p[3] = {x, c, -x};
  __global ushort* o = out + i * 6;
  o[0] = as_ushort(x * c + p[i % 3]);
  o[1] = as_ushort(x / c);
  o[2] = as_ushort(sqrt(fabs(x)) + fma(x, x, c));
  o[3] = (x < c) | ((x == -x) << 1) | ((c >= x) << 2) | (isnan(x / (half)0.0h - x / (half)0.0h) << 3);
  o[4] = (ushort)(short)(x * (half)100.0h);
  o[5] = as_ushort(-(c * c));
})";
  namespace f16 = ventus::fp::f16;
  const uint16_t c = 0xbf00;  // -1.75
  for (int opt : {0, 2}) {
    ventus::cc::Result r = compile(source, opt);
    ASSERT_TRUE(r.ok) << r.diagnostics;
    constexpr size_t n = 64;
    rt::Device device;
    rt::Program program = rt::Program::from_elf_bytes(r.elf);
    rt::Buffer out = rt::Buffer::from(device, std::vector<uint16_t>(n * 6, 0));
    rt::launch(device, program, "hlf", {static_cast<uint32_t>(n)}, {32}, out, rt::Arg::value(c));
    const std::vector<uint16_t> got = out.download<uint16_t>();
    uint32_t flags = 0;
    for (size_t i = 0; i < n; ++i) {
      const uint16_t x =
          f16::mul(f16::from_i32(static_cast<int32_t>(i) - 20, 0, flags), 0x34cd, 0, flags);
      const uint16_t p[3] = {x, c, static_cast<uint16_t>(x ^ 0x8000)};
      // OpenCL C contracts x * c + p (fmuladd): a multiply and an add, each rounded, here.
      const uint16_t want[6] = {
          f16::add(f16::mul(x, c, 0, flags), p[i % 3], 0, flags),
          f16::div(x, c, 0, flags),
          f16::add(f16::sqrt(static_cast<uint16_t>(x & 0x7fff), 0, flags),
                   f16::fma(x, x, c, 0, flags), 0, flags),
          static_cast<uint16_t>(f16::lt(x, c, flags) | (f16::eq(x, x ^ 0x8000, flags) << 1) |
                                (f16::le(x, c, flags) << 2) | (1 << 3)),
          static_cast<uint16_t>(f16::to_i32(f16::mul(x, 0x5640, 0, flags), 1, flags)),
          static_cast<uint16_t>(f16::mul(c, c, 0, flags) ^ 0x8000)};
      for (int k = 0; k < 6; ++k)
        EXPECT_EQ(got[i * 6 + k], want[k])
            << "-O" << opt << " work-item " << i << " o[" << k << "]";
    }
  }
}

// half + - * fmin fmax min max (and fmuladd, a multiply and an add) are the device's fp16
// instructions (v64fadd.f16 ..) at every -O level, for per-work-item values, uniform ones
// (a half kernel argument: computed in a vector register, read back with vmv.x.s) and
// vectors, with no float instruction left (the promotion to float is gone); the results,
// on random bits and on every pair of special operands (zeros, subnormals, the largest
// finite, infinities, quiet and signalling NaN), are src/fp's binary16 results bit for bit.
TEST(BackendCodegen, HalfArithmeticUsesTheFp16Instructions) {
  const std::string source = R"(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void hlf(__global ushort* out, __global const ushort* as, __global const ushort* bs,
                  __global const ushort* cs, half u) {
  int i = get_global_id(0);
  half x = as_half(as[i]), y = as_half(bs[i]), z = as_half(cs[i]);
  __global ushort* o = out + 12 * i;
  o[0] = as_ushort(x + y);
  o[1] = as_ushort(x - y);
  o[2] = as_ushort(x * y);
  o[3] = as_ushort(fmin(x, y));
  o[4] = as_ushort(fmax(x, y));
  o[5] = as_ushort(x * y + z);
  o[6] = as_ushort(u - u * u);
  o[7] = as_ushort(min(x, u));
  o[8] = as_ushort(max(u, y));
  half2 v = (half2)(x, y) * (half2)(z, u) - (half2)(y, x);
  o[9] = as_ushort(v.x);
  o[10] = as_ushort(v.y);
  o[11] = as_ushort(fmax((half2)(z, x), y).y);
})";
  namespace f16 = ventus::fp::f16;
  const std::vector<uint16_t> specials = {0x0000, 0x8000, 0x0001, 0x83ff, 0x0400, 0x7bff, 0xfbff,
                                          0x7c00, 0xfc00, 0x7e00, 0x7c01, 0x3c00, 0x3555};
  std::vector<uint16_t> a, b, c;
  uint32_t seed = 12345;
  const auto random_bits = [&] {
    seed = seed * 1664525u + 1013904223u;
    return static_cast<uint16_t>(seed >> 16);
  };
  for (uint16_t x : specials)
    for (uint16_t y : specials) a.push_back(x), b.push_back(y), c.push_back(random_bits());
  while (a.size() < 512)
    a.push_back(random_bits()), b.push_back(random_bits()), c.push_back(random_bits());
  const uint16_t u = 0xb4cd;  // -0.3
  const size_t n = a.size();
  for (int opt : {0, 1, 2, 3}) {
    ventus::cc::Result r = compile(source, opt);
    ASSERT_TRUE(r.ok) << r.diagnostics;
    for (const char* op :
         {"v64fadd.f16", "v64fsub.f16", "v64fmul.f16", "v64fmin.f16", "v64fmax.f16"})
      EXPECT_NE(r.assembly.find(op), std::string::npos) << op << " at -O" << opt;
    for (const char* promoted : {"\tvf", "\tfadd.s", "\tfmul.s", "\tfcvt"})
      EXPECT_EQ(r.assembly.find(promoted), std::string::npos) << promoted << " at -O" << opt;
    rt::Device device;
    rt::Program program = rt::Program::from_elf_bytes(r.elf);
    rt::Buffer out = rt::Buffer::from(device, std::vector<uint16_t>(n * 12, 0));
    rt::Buffer ba = rt::Buffer::from(device, a), bb = rt::Buffer::from(device, b),
               bc = rt::Buffer::from(device, c);
    rt::launch(device, program, "hlf", {static_cast<uint32_t>(n)}, {64}, out, ba, bb, bc,
               rt::Arg::value(u));
    const std::vector<uint16_t> got = out.download<uint16_t>();
    uint32_t flags = 0;
    for (size_t i = 0; i < n; ++i) {
      const uint16_t x = a[i], y = b[i], z = c[i];
      const uint16_t want[12] = {f16::add(x, y, 0, flags),
                                 f16::sub(x, y, 0, flags),
                                 f16::mul(x, y, 0, flags),
                                 f16::min(x, y, flags),
                                 f16::max(x, y, flags),
                                 f16::add(f16::mul(x, y, 0, flags), z, 0, flags),
                                 f16::sub(u, f16::mul(u, u, 0, flags), 0, flags),
                                 f16::min(x, u, flags),
                                 f16::max(u, y, flags),
                                 f16::sub(f16::mul(x, z, 0, flags), y, 0, flags),
                                 f16::sub(f16::mul(y, u, 0, flags), x, 0, flags),
                                 f16::max(x, y, flags)};
      for (int k = 0; k < 12; ++k)
        ASSERT_EQ(got[12 * i + k], want[k])
            << "-O" << opt << ", operands 0x" << std::hex << x << " 0x" << y << " 0x" << z
            << ", result " << std::dec << k;
    }
  }
}

// half / sqrt and compares stay float operations between the device's own conversions
// (vfwcvt.xu.f.v, vfwcvt.x.f.v: one instruction each instead of lib/fp16.cl's routines),
// per work-item and uniform; the results are src/fp's binary16 division, square root and
// compares bit for bit on random bits and every pair of special operands.
TEST(BackendCodegen, HalfDivisionSqrtAndComparesUseTheDeviceConversions) {
  const std::string source = R"(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void hlf(__global ushort* out, __global const ushort* as, __global const ushort* bs,
                  half u) {
  int i = get_global_id(0);
  half x = as_half(as[i]), y = as_half(bs[i]);
  __global ushort* o = out + 5 * i;
  o[0] = as_ushort(x / y);
  o[1] = as_ushort(sqrt(x));
  o[2] = (x < y) | ((x <= y) << 1) | ((x == y) << 2) | ((x != y) << 3) | ((x > u) << 4);
  o[3] = as_ushort(sqrt((half2)(y, u)).x);
  o[4] = as_ushort(u / (u - (half)2.0h));
})";
  namespace f16 = ventus::fp::f16;
  const std::vector<uint16_t> specials = {0x0000, 0x8000, 0x0001, 0x83ff, 0x0400, 0x7bff, 0xfbff,
                                          0x7c00, 0xfc00, 0x7e00, 0x7c01, 0x3c00, 0xb555};
  std::vector<uint16_t> a, b;
  uint32_t seed = 777;
  const auto random_bits = [&] {
    seed = seed * 1664525u + 1013904223u;
    return static_cast<uint16_t>(seed >> 16);
  };
  for (uint16_t x : specials)
    for (uint16_t y : specials) a.push_back(x), b.push_back(y);
  while (a.size() < 512) a.push_back(random_bits()), b.push_back(random_bits());
  const uint16_t u = 0x4500;  // 5
  const size_t n = a.size();
  for (int opt : {0, 2}) {
    ventus::cc::Result r = compile(source, opt);
    ASSERT_TRUE(r.ok) << r.diagnostics;
    for (const char* op : {"vfwcvt.xu.f.v", "vfwcvt.x.f.v", "vfdiv.vv", "vfsqrt.v"})
      EXPECT_NE(r.assembly.find(op), std::string::npos) << op << " at -O" << opt;
    rt::Device device;
    rt::Program program = rt::Program::from_elf_bytes(r.elf);
    rt::Buffer out = rt::Buffer::from(device, std::vector<uint16_t>(n * 5, 0));
    rt::Buffer ba = rt::Buffer::from(device, a), bb = rt::Buffer::from(device, b);
    rt::launch(device, program, "hlf", {static_cast<uint32_t>(n)}, {64}, out, ba, bb,
               rt::Arg::value(u));
    const std::vector<uint16_t> got = out.download<uint16_t>();
    uint32_t flags = 0;
    for (size_t i = 0; i < n; ++i) {
      const uint16_t x = a[i], y = b[i];
      const uint16_t want[5] = {
          f16::div(x, y, 0, flags), f16::sqrt(x, 0, flags),
          static_cast<uint16_t>(f16::lt(x, y, flags) | (f16::le(x, y, flags) << 1) |
                                (f16::eq(x, y, flags) << 2) | (!f16::eq(x, y, flags) << 3) |
                                (f16::lt(u, x, flags) << 4)),
          f16::sqrt(y, 0, flags), f16::div(u, f16::sub(u, 0x4000, 0, flags), 0, flags)};
      for (int k = 0; k < 5; ++k)
        ASSERT_EQ(got[5 * i + k], want[k]) << "-O" << opt << ", operands 0x" << std::hex << x
                                           << " 0x" << y << ", result " << std::dec << k;
    }
  }
}

TEST(BackendCodegen, DoubleOnThePairInstructions) {
  const std::string source = R"(
__kernel void dbl(__global ulong* out, double c) {
  int i = get_global_id(0);
  double x = (double)i * 0.37 - 5.0;
  double u = c * c + 1.0;
  __global ulong* o = out + i * 7;
  o[0] = as_ulong(x * u + c);
  o[1] = as_ulong(x / c);
  o[2] = (x < c) | ((x == -0.0 * x) << 1) | ((u >= c) << 2) | (isnan(x / 0.0 - x / 0.0) << 3) |
         ((x != x) << 4) | ((-x > c) << 5);
  o[3] = (ulong)(long)(x * 1e19);
  o[4] = as_ulong(sqrt(u) + fma(x, x, c));
  o[5] = as_ulong(0.0 / (x - x));
  o[6] = as_ulong(u);
})";
  const double c = -1.75;
  for (int opt : {0, 2}) {
    ventus::cc::Result r = compile(source, opt);
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_NE(r.assembly.find("\tregpair zero, zero, 0\n"), std::string::npos) << r.assembly;
    if (opt == 2) {
      EXPECT_NE(r.assembly.find("\tvmv.x.s "), std::string::npos);
    }
    constexpr size_t n = 64;
    rt::Device device;
    rt::Program program = rt::Program::from_elf_bytes(r.elf);
    rt::Buffer out = rt::Buffer::from(device, std::vector<uint64_t>(n * 7, 0));
    rt::launch(device, program, "dbl", {static_cast<uint32_t>(n)}, {32}, out, rt::Arg::value(c));
    const std::vector<uint64_t> got = out.download<uint64_t>();
    auto bits = [](double d) { return std::bit_cast<uint64_t>(d); };
    for (size_t i = 0; i < n; ++i) {
      const double x = std::fma(static_cast<double>(i), 0.37, -5.0);
      const double u = std::fma(c, c, 1.0);  // OpenCL C contracts a * b + c (fmuladd)
      const double nan = x / 0.0 - x / 0.0;
      const double big = x * 1e19;
      const uint64_t want[7] = {
          bits(std::fma(x, u, c)),
          bits(x / c),
          static_cast<uint64_t>((x < c) | ((x == -0.0 * x) << 1) | ((u >= c) << 2) |
                                (std::isnan(nan) << 3) | ((x != x) << 4) | ((-x > c) << 5)),
          static_cast<uint64_t>(big >= 0x1p63   ? INT64_MAX
                                : big < -0x1p63 ? INT64_MIN
                                                : static_cast<int64_t>(big)),
          bits(std::sqrt(u) + std::fma(x, x, c)),
          0x7ff8000000000000ull,  // RISC-V's canonical NaN (x86 would give the negative one)
          bits(u)};
      for (int k = 0; k < 7; ++k)
        ASSERT_EQ(got[i * 7 + k], want[k]) << "item " << i << ", result " << k << ", -O" << opt;
    }
  }
}

// snprintf of one double, the reference of the printf tests below.
std::string host_format(const char* spec, double value) {
  char text[512];
  std::snprintf(text, sizeof text, spec, value);
  return text;
}

// printf of double prints the double itself, as the host C library prints it: values that
// differ from their nearest float, subnormals, signed zeros, infinities and NaN, per
// work-item and constant, and floats and halves (promoted to double) exactly; vectors of
// double, float and half (%v2lf, %v4hla, %v4hg) by their length modifier. The old failure:
// every double printed as the float nearest to it (0.1 as 0.10000000149011612).
TEST(BackendCodegen, PrintfOfDoublePrintsTheDouble) {
  const std::string source = R"(
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void k(__global const double* d, __global const float* f, __global const half* h) {
  int i = get_global_id(0);
  double x = d[i];
  printf("%f|%e|%g|%a|%.17g|%.3f|%+.20E\n", x, x, x, x, x, x, x);
  printf("%.17g|%a|%.9g|%.17g|%a\n", f[i], f[i], (double)f[i], h[i], h[i]);
  printf("%v2lf|%.17v2lg|%v4hla|%v4hg\n", (double2)(x, -x), (double2)(x, 1.0 / 3.0),
         (float4)(f[i], 0.1f, -0.0f, 1.0f / 3.0f), (half4)(h[i], h[0], -h[i], 0.1h));
  if (i == 0) printf("%.17g %.17g %a %.17g %g\n", 0.1, 1.0 / 3.0, 1e300, 0.1f, -0.0);
})";
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> d = {0.1,
                                 1.0 / 3.0,
                                 1e300,
                                 4.9406564584124654e-324,
                                 2.2250738585072009e-308,
                                 -0.0,
                                 inf,
                                 -inf,
                                 nan,
                                 -nan,
                                 123456789.123456789,
                                 -1e-300};
  const float finf = std::numeric_limits<float>::infinity();
  const std::vector<float> f = {0.1f,           1.0f / 3.0f,    3.4e38f, 1e-45f,
                                1.1754942e-38f, -0.0f,          finf,    -finf,
                                std::nanf(""),  -std::nanf(""), -2.5f,   1e-10f};
  // 1/3, the smallest subnormal, inf, -inf, NaN, -0, the largest finite, 0.1, ...
  const std::vector<uint16_t> h = {0x3555, 0x0001, 0x7c00, 0xfc00, 0x7e00, 0x8000,
                                   0x7bff, 0x2e66, 0x03ff, 0x0400, 0xc500, 0x3c01};
  const auto half_value = [](uint16_t bits) {
    uint32_t flags = 0;
    return static_cast<double>(std::bit_cast<float>(ventus::fp::f16::to_f32(bits, flags)));
  };
  std::string expected;
  for (size_t i = 0; i < d.size(); ++i) {
    const double x = d[i], fi = f[i], hi = half_value(h[i]);
    for (const char* spec : {"%f", "|%e", "|%g", "|%a", "|%.17g", "|%.3f", "|%+.20E"})
      expected += host_format(spec, x);
    expected += "\n" + host_format("%.17g", fi) + host_format("|%a", fi) +
                host_format("|%.9g", fi) + host_format("|%.17g", hi) + host_format("|%a", hi) +
                "\n";
    expected += host_format("%f", x) + host_format(",%f", -x) + host_format("|%.17g", x) +
                host_format(",%.17g", 1.0 / 3.0) + host_format("|%a", fi) +
                host_format(",%a", 0.1f) + host_format(",%a", -0.0f) +
                host_format(",%a", 1.0f / 3.0f) + host_format("|%g", hi) +
                host_format(",%g", half_value(h[0])) + host_format(",%g", -hi) +
                host_format(",%g", half_value(0x2e66)) + "\n";
    if (i == 0)
      expected += host_format("%.17g", 0.1) + host_format(" %.17g", 1.0 / 3.0) +
                  host_format(" %a", 1e300) + host_format(" %.17g", 0.1f) +
                  host_format(" %g", -0.0) + "\n";
  }
  for (int opt : {0, 1, 2, 3}) {
    ventus::cc::Result r = compile(source, opt);
    ASSERT_TRUE(r.ok) << "-O" << opt << ": " << r.diagnostics;
    rt::Device device;
    std::string printed;
    device.set_print_sink([&](std::string_view text) { printed += text; });
    rt::Program program = rt::Program::from_elf_bytes(r.elf);
    rt::Buffer bd = rt::Buffer::from(device, d), bf = rt::Buffer::from(device, f),
               bh = rt::Buffer::from(device, h);
    const uint32_t n = static_cast<uint32_t>(d.size());
    rt::launch(device, program, "k", {n}, {n}, bd, bf, bh);
    // Lanes print in order within a record, records in program order: regroup by lane.
    std::vector<std::string> lines;
    for (size_t at = 0; at < printed.size();) {
      const size_t end = printed.find('\n', at);
      lines.push_back(printed.substr(at, end - at + 1));
      at = end == std::string::npos ? printed.size() : end + 1;
    }
    ASSERT_EQ(lines.size(), 3 * d.size() + 1) << "-O" << opt << ":\n" << printed;
    std::string by_lane;
    for (size_t i = 0; i < d.size(); ++i) {
      by_lane += lines[i] + lines[d.size() + i] + lines[2 * d.size() + i];
      if (i == 0) by_lane += lines[3 * d.size()];
    }
    EXPECT_EQ(by_lane, expected) << "-O" << opt;
  }
}
