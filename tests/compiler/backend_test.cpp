// The back end end to end: OpenCL C compiled by cc::compile and run on the simulated
// device, checked against host reference code at several warp widths; the hardware
// cases' object.cl on the cases' own inputs; spills; 64-bit integers; errors.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>

#include "ventus/case.h"
#include "ventus/compiler.h"
#include "ventus/error.h"
#include "ventus/runtime.h"

namespace {

namespace rt = ventus::rt;

rt::Program build(const std::string& source, int opt_level = 2) {
  ventus::cc::Options options;
  options.opt_level = opt_level;
  options.file_name = "test.cl";
  ventus::cc::Result r = ventus::cc::compile(source, options);
  if (!r.ok) throw ventus::Error("compile failed:\n" + r.diagnostics);
  return rt::Program::from_elf_bytes(r.elf);
}

std::vector<int32_t> random_ints(size_t n, int32_t lo, int32_t hi, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int32_t> d(lo, hi);
  std::vector<int32_t> v(n);
  for (int32_t& x : v) x = d(gen);
  return v;
}

// Divergent control flow: nested loops with divergent trip counts, continue, break, and
// an early return from inside the inner loop.
const char* kControlFlow = R"(
__kernel void flow(__global const int* in, __global int* out) {
  int gid = get_global_id(0);
  int x = in[gid];
  int acc = 0;
  for (int i = 0; i < 8; ++i) {
    if (((x >> i) & 3) == 3) continue;
    for (int j = 0; j < x % 7; ++j) {
      acc += i * j;
      if (acc > 50 + gid) break;
      if (acc == 17) { out[gid] = -1; return; }
    }
    if (acc > 200) break;
    acc ^= x;
  }
  out[gid] = acc;
})";

int32_t control_flow_reference(int32_t x, int32_t gid) {
  int32_t acc = 0;
  for (int i = 0; i < 8; ++i) {
    if (((x >> i) & 3) == 3) continue;
    for (int j = 0; j < x % 7; ++j) {
      acc += i * j;
      if (acc > 50 + gid) break;
      if (acc == 17) return -1;
    }
    if (acc > 200) break;
    acc ^= x;
  }
  return acc;
}

class WarpWidth : public ::testing::TestWithParam<std::tuple<uint32_t, int>> {};

TEST_P(WarpWidth, DivergentLoopsBreaksAndEarlyReturns) {
  auto [threads, opt] = GetParam();
  rt::Device device;
  rt::Program program = build(kControlFlow, opt);
  const size_t n = 256;
  std::vector<int32_t> in = random_ints(n, -1000, 1000, 7);
  rt::Buffer bin = rt::Buffer::from(device, in);
  rt::Buffer bout(device, 4 * n);
  rt::LaunchOptions o;
  o.threads_per_warp = threads;
  rt::launch(device, program, "flow", {static_cast<uint32_t>(n)}, {64}, {bin, bout}, o);
  std::vector<int32_t> out = bout.download<int32_t>();
  for (size_t i = 0; i < n; ++i)
    ASSERT_EQ(out[i], control_flow_reference(in[i], static_cast<int32_t>(i))) << "item " << i;
}

// Local memory, barriers in a loop, a __local pointer argument and a __local array.
TEST_P(WarpWidth, LocalMemoryReductionWithBarriers) {
  auto [threads, opt] = GetParam();
  rt::Device device;
  rt::Program program = build(R"(
__kernel void reduce(__global const int* in, __global int* out, __local int* scratch) {
  __local int total[1];
  int lid = get_local_id(0);
  scratch[lid] = in[get_global_id(0)];
  if (lid == 0) total[0] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (lid < s) scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  __sync_fetch_and_add(&total[0], in[get_global_id(0)] & 7);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) { out[2 * get_group_id(0)] = scratch[0]; out[2 * get_group_id(0) + 1] = total[0]; }
})",
                              opt);
  const uint32_t n = 1024, local = 128;
  std::vector<int32_t> in = random_ints(n, -1000, 1000, 3);
  rt::Buffer bin = rt::Buffer::from(device, in);
  rt::Buffer bout(device, 8 * (n / local));
  rt::LaunchOptions o;
  o.threads_per_warp = threads;
  if (local / threads > device.config().warp_slots_per_sm) GTEST_SKIP();
  rt::launch(device, program, "reduce", {n}, {local}, {bin, bout, rt::Arg::local(4 * local)}, o);
  std::vector<int32_t> out = bout.download<int32_t>();
  for (uint32_t g = 0; g < n / local; ++g) {
    int32_t sum = 0, low = 0;
    for (uint32_t i = 0; i < local; ++i) {
      sum += in[g * local + i];
      low += in[g * local + i] & 7;
    }
    EXPECT_EQ(out[2 * g], sum) << "group " << g;
    EXPECT_EQ(out[2 * g + 1], low) << "group " << g;
  }
}

// Atomics from divergent lanes with colliding addresses, on global memory; cmpxchg. (The
// clang builtins that the library's atomic_* functions are made of.)
TEST_P(WarpWidth, AtomicsFromDivergentLanes) {
  auto [threads, opt] = GetParam();
  rt::Device device;
  rt::Program program = build(R"(
__kernel void hist(__global const int* in, __global int* bins, __global int* olds, __global int* cas) {
  int gid = get_global_id(0);
  int v = in[gid];
  if (v & 1) olds[gid] = __sync_fetch_and_add(&bins[v & 15], 1);
  else __sync_fetch_and_max(&bins[16 + (v & 3)], v);
  __sync_val_compare_and_swap(&cas[v & 7], 0, gid + 1);
})",
                              opt);
  const uint32_t n = 512;
  std::vector<int32_t> in = random_ints(n, 0, 1000, 11);
  rt::Buffer bin = rt::Buffer::from(device, in);
  rt::Buffer bins = rt::Buffer::from(device, std::vector<int32_t>(20, 0));
  rt::Buffer olds = rt::Buffer::from(device, std::vector<int32_t>(n, -5));
  rt::Buffer cas = rt::Buffer::from(device, std::vector<int32_t>(8, 0));
  rt::LaunchOptions o;
  o.threads_per_warp = threads;
  rt::launch(device, program, "hist", {n}, {64}, {bin, bins, olds, cas}, o);
  std::vector<int32_t> b = bins.download<int32_t>(), old = olds.download<int32_t>(), c = cas.download<int32_t>();
  std::vector<int32_t> count(16, 0), maxes(4, 0);
  for (uint32_t i = 0; i < n; ++i) {
    if (in[i] & 1)
      ++count[in[i] & 15];
    else
      maxes[in[i] & 3] = std::max(maxes[in[i] & 3], in[i]);
  }
  for (int i = 0; i < 16; ++i) EXPECT_EQ(b[i], count[i]) << "bin " << i;
  for (int i = 0; i < 4; ++i) EXPECT_EQ(b[16 + i], maxes[i]) << "max " << i;
  // The old values of one bin are a permutation of 0 .. count-1.
  for (int bin = 0; bin < 16; ++bin) {
    std::vector<int32_t> seen;
    for (uint32_t i = 0; i < n; ++i)
      if ((in[i] & 1) && (in[i] & 15) == bin) seen.push_back(old[i]);
    std::sort(seen.begin(), seen.end());
    for (size_t k = 0; k < seen.size(); ++k) ASSERT_EQ(seen[k], static_cast<int32_t>(k)) << "bin " << bin;
  }
  // Exactly one work-item of each residue class won the compare-and-swap.
  for (int r = 0; r < 8; ++r) {
    bool found = false;
    for (uint32_t i = 0; i < n; ++i)
      if ((in[i] & 7) == r && c[r] == static_cast<int32_t>(i) + 1) found = true;
    bool any = false;
    for (uint32_t i = 0; i < n; ++i) any = any || (in[i] & 7) == r;
    EXPECT_EQ(found, any) << "class " << r;
  }
}

// Calls with divergent arguments, a private array with dynamic indices, a struct.
TEST_P(WarpWidth, CallsPrivateArraysAndStructs) {
  auto [threads, opt] = GetParam();
  rt::Device device;
  rt::Program program = build(R"(
typedef struct { int a; float b; } Pair;
__attribute__((noinline)) int mix(int x, int y) { return x * 31 + (y ^ 5); }
__attribute__((noinline)) Pair make(int x) { Pair p = { x * 2, x * 0.5f }; return p; }
__kernel void k(__global const int* in, __global int* out, Pair scale) {
  int gid = get_global_id(0);
  int table[12];
  for (int i = 0; i < 12; ++i) table[i] = mix(in[gid], i);
  Pair p = make(table[in[gid] % 12 < 0 ? -(in[gid] % 12) : in[gid] % 12]);
  out[gid] = p.a * scale.a + (int)(p.b * scale.b);
})",
                              opt);
  const uint32_t n = 128;
  std::vector<int32_t> in = random_ints(n, -500, 500, 5);
  rt::Buffer bin = rt::Buffer::from(device, in);
  rt::Buffer bout(device, 4 * n);
  struct {
    int32_t a;
    float b;
  } scale{3, 2.0f};
  rt::LaunchOptions o;
  o.threads_per_warp = threads;
  rt::launch(device, program, "k", {n}, {32}, {bin, bout, rt::Arg::value(scale)}, o);
  std::vector<int32_t> out = bout.download<int32_t>();
  for (uint32_t i = 0; i < n; ++i) {
    int32_t x = in[i];
    int32_t idx = x % 12 < 0 ? -(x % 12) : x % 12;
    int32_t t = x * 31 + (idx ^ 5);
    int32_t expected = t * 2 * 3 + static_cast<int32_t>(t * 0.5f * 2.0f);
    ASSERT_EQ(out[i], expected) << "item " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Backend, WarpWidth,
                         ::testing::Combine(::testing::Values(4u, 8u, 16u, 32u), ::testing::Values(0, 2)),
                         [](const auto& info) {
                           return "T" + std::to_string(std::get<0>(info.param)) + "_O" +
                                  std::to_string(std::get<1>(info.param));
                         });

// More values live at once than there are registers: scalar spills to the warp's stack
// (sp), vector spills to private memory (tp).
TEST(Backend, SpillsBothRegisterFiles) {
  std::ostringstream src;
  const int ns = 70, nv = 270;
  src << "__kernel void press(__global const int* in, __global int* out, int k) {\n"
      << "  int gid = get_global_id(0);\n";
  for (int i = 0; i < ns; ++i) src << "  int s" << i << " = in[" << i << "] * (k + " << i << ");\n";
  for (int i = 0; i < nv; ++i) src << "  int v" << i << " = in[gid + " << i << "] ^ s" << (i * 7) % ns << ";\n";
  src << "  int acc = 0;\n";
  for (int i = 0; i < nv; ++i) src << "  acc = acc * 3 + (v" << i << " ^ v" << nv - 1 - i << ") + s" << i % ns << ";\n";
  src << "  out[gid] = acc;\n}\n";
  ventus::cc::Result r = ventus::cc::compile(src.str());
  ASSERT_TRUE(r.ok) << r.diagnostics;
  EXPECT_NE(r.assembly.find("(sp)"), std::string::npos) << "expected scalar spills";
  EXPECT_NE(r.assembly.find("vsw.v"), std::string::npos) << "expected vector spills";
  rt::Device device;
  rt::Program program = rt::Program::from_elf_bytes(r.elf);
  std::vector<int32_t> in(400);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<int32_t>(i * 2654435761u >> 7);
  rt::Buffer bin = rt::Buffer::from(device, in);
  rt::Buffer bout(device, 4 * 64);
  rt::launch(device, program, "press", {64}, {32}, {bin, bout, rt::Arg(3)});
  std::vector<int32_t> out = bout.download<int32_t>();
  for (uint32_t g = 0; g < 64; ++g) {
    std::vector<uint32_t> s(ns), v(nv);
    for (int i = 0; i < ns; ++i) s[i] = static_cast<uint32_t>(in[i]) * static_cast<uint32_t>(3 + i);
    for (int i = 0; i < nv; ++i) v[i] = static_cast<uint32_t>(in[g + i]) ^ s[(i * 7) % ns];
    uint32_t acc = 0;
    for (int i = 0; i < nv; ++i) acc = acc * 3 + (v[i] ^ v[nv - 1 - i]) + s[i % ns];
    ASSERT_EQ(static_cast<uint32_t>(out[g]), acc) << "item " << g;
  }
}

TEST(Backend, LongArithmeticOnRegisterPairs) {
  rt::Device device;
  rt::Program program = build(R"(
__kernel void wide(__global const int* a, __global const int* b, __global long* out, long k) {
  int g = get_global_id(0);
  long x = (long)a[g] * 1000003L + k;
  long y = (long)b[g] << 20;
  ulong u = (ulong)(uint)a[g] * (ulong)(uint)b[g];
  out[8*g+0] = x + y;
  out[8*g+1] = x - y;
  out[8*g+2] = x * y;
  out[8*g+3] = (x > y) ? x >> 3 : (long)(u >> 7);
  out[8*g+4] = x << (3 + g % 40);
  out[8*g+5] = (long)(u >> (g % 64));
  out[8*g+6] = y >> (g % 64);
  out[8*g+7] = (x < 0) + (y >= x) * 2 + (u == 0) * 4 + ((ulong)x > u) * 8;
})");
  const uint32_t n = 64;
  std::vector<int32_t> a = random_ints(n, -100000, 100000, 1), b = random_ints(n, -100000, 100000, 2);
  rt::Buffer ba = rt::Buffer::from(device, a), bb = rt::Buffer::from(device, b);
  rt::Buffer bout(device, 8 * 8 * n);
  const int64_t k = 123456789 + (int64_t{5} << 32);
  rt::launch(device, program, "wide", {n}, {32}, {ba, bb, bout, rt::Arg::value(k)});
  std::vector<int64_t> out = bout.download<int64_t>();
  for (uint32_t g = 0; g < n; ++g) {
    int64_t x = int64_t{a[g]} * 1000003 + k;
    int64_t y = static_cast<int64_t>(static_cast<uint64_t>(int64_t{b[g]}) << 20);
    uint64_t u = uint64_t{static_cast<uint32_t>(a[g])} * static_cast<uint32_t>(b[g]);
    int64_t ref[8] = {x + y,
                      x - y,
                      static_cast<int64_t>(static_cast<uint64_t>(x) * static_cast<uint64_t>(y)),
                      x > y ? x >> 3 : static_cast<int64_t>(u >> 7),
                      static_cast<int64_t>(static_cast<uint64_t>(x) << (3 + g % 40)),
                      static_cast<int64_t>(u >> (g % 64)),
                      y >> (g % 64),
                      (x < 0) + (y >= x) * 2 + (u == 0) * 4 + (static_cast<uint64_t>(x) > u) * 8};
    for (int i = 0; i < 8; ++i) ASSERT_EQ(out[8 * g + i], ref[i]) << "item " << g << " result " << i;
  }
}

TEST(Backend, PrintfThroughThePrintBuffer) {
  rt::Device device;
  std::string printed;
  device.set_print_sink([&](std::string_view text) { printed += text; });
  rt::Program program = build(R"(
__kernel void hello(__global const int* a, float f) {
  int gid = get_global_id(0);
  if (gid % 3 == 1) printf("gid=%d a=%d f=%.2f %s\n", gid, a[gid], f * gid, "ok");
})");
  std::vector<int32_t> a = {10, 20, 30, 40, 50, 60, 70, 80};
  rt::Buffer ba = rt::Buffer::from(device, a);
  rt::launch(device, program, "hello", {8}, {8}, {ba, rt::Arg(1.5f)});  // one warp, 24 lanes idle
  EXPECT_EQ(printed, "gid=1 a=20 f=1.50 ok\ngid=4 a=50 f=6.00 ok\ngid=7 a=80 f=10.50 ok\n");
}

// Vectors, 64-bit integers and per-lane values in one record of 30 words (the most one
// takes), checked against the host's printf; a 31st word is a compile error that says so.
TEST(Backend, PrintfOfVectorsAndLongs) {
  rt::Device device;
  std::string printed;
  device.set_print_sink([&](std::string_view text) { printed += text; });
  rt::Program program = build(R"(
__kernel void wide(__global const long* a) {
  int gid = get_global_id(0);
  if (gid < 2)
    printf("%v16hhd|%v4hlf|%ld|%v2lx|%d\n", (char16)((char)gid, -1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
           11, 12, 13, 14, 127), (float4)(0.5f, -1.0f, gid, 3.25f), a[gid], (ulong2)(a[gid], 1),
           gid);
})");
  const std::vector<int64_t> a = {-5000000000LL, 0x123456789aLL};
  rt::Buffer ba = rt::Buffer::from(device, a);
  rt::launch(device, program, "wide", {4}, {4}, {ba});
  std::string expected;
  for (int gid = 0; gid < 2; ++gid) {
    char line[512];
    std::snprintf(line, sizeof line,
                  "%d,-1,2,3,4,5,6,7,8,9,10,11,12,13,14,127|%f,%f,%f,%f|%lld|%llx,%x|%d\n", gid,
                  0.5, -1.0, static_cast<double>(gid), 3.25, static_cast<long long>(a[gid]),
                  static_cast<unsigned long long>(a[gid]), 1, gid);
    expected += line;
  }
  EXPECT_EQ(printed, expected);
  try {
    build(R"(
__kernel void too_wide(long16 a) { printf("%v16ld\n", a); })");
    FAIL() << "a printf of 32 words compiled";
  } catch (const ventus::Error& e) {
    EXPECT_NE(std::string(e.what()).find("printf of 32 32-bit words"), std::string::npos)
        << e.what();
  }
}

// The printf routine the back end links in is a global function but not a kernel: the
// program's kernels are those of its metadata (`ventus run` without --kernel picks the one).
TEST(Backend, LinkedLibraryFunctionsAreNotKernels) {
  rt::Program program = build(R"(
__kernel void hello(int x) { printf("%d\n", x); })");
  EXPECT_EQ(program.kernel_names(), std::vector<std::string>{"hello"});
  EXPECT_THROW(program.kernel_address("vt_printf"), ventus::Error);
  EXPECT_NE(program.kernel_address("hello"), 0u);
}

// Each kernel's metadata counts the __local data up to the last variable it reaches; a
// kernel without any is not charged for its neighbours' (the module's layout is shared,
// so a variable after another one still counts the one before it).
TEST(Backend, KernelsAreChargedForTheLocalDataTheyReach) {
  rt::Program program = build(R"(
__kernel void big(__global float* out) {
  __local float a[16000];
  a[get_local_id(0)] = 1.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = a[(get_local_id(0) * 7) % 16000];
}
__kernel void small(__global float* out) { out[get_global_id(0)] = get_global_id(0); }
__kernel void after(__global int* out) {
  __local int b[4];
  b[get_local_id(0) % 4] = 2;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = b[0];
})");
  ASSERT_NE(program.kernel_info("small"), nullptr);
  EXPECT_EQ(program.kernel_info("big")->local_bytes, 64000u);
  EXPECT_EQ(program.kernel_info("small")->local_bytes, 0u);
  EXPECT_EQ(program.kernel_info("after")->local_bytes, 64016u);
  // The largest workgroup fits now: 32 warps' stacks and no local data.
  rt::Device device;
  std::vector<float> zeros(1024, 0.0f);
  rt::Buffer out = rt::Buffer::from(device, zeros);
  rt::launch(device, program, "small", {1024}, {1024}, {out});
  std::vector<float> got = out.download<float>();
  for (size_t i = 0; i < got.size(); ++i) ASSERT_EQ(got[i], static_cast<float>(i)) << i;
}

TEST(Backend, KernelMetadataDescribesArguments) {
  rt::Program program = build(R"(
__kernel void k(__global float* out, __local int* tmp, int4 v, char c, __constant float* t) {
  __local float shared[33];
  shared[get_local_id(0)] = t[0] + v.x + c;
  tmp[0] = 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = shared[0];
})");
  const rt::KernelInfo* info = program.kernel_info("k");
  ASSERT_NE(info, nullptr);
  EXPECT_EQ(info->local_bytes, 144u);  // 33 floats, rounded up to 16 bytes
  ASSERT_EQ(info->args.size(), 5u);
  EXPECT_EQ(info->args[0].address_space, ventus::rt::AddressSpace::global);
  EXPECT_EQ(info->args[1].address_space, ventus::rt::AddressSpace::local);
  EXPECT_EQ(info->args[2].type, "int4");
  EXPECT_EQ(info->args[2].offset, 16u);  // int4 is 16-byte aligned
  EXPECT_EQ(info->args[2].size, 16u);
  EXPECT_EQ(info->args[3].offset, 32u);
  EXPECT_EQ(info->args[4].address_space, ventus::rt::AddressSpace::constant);
  EXPECT_EQ(info->sgpr % 4, 0u);
  EXPECT_EQ(info->vgpr % 4, 0u);
}

TEST(Backend, UnsupportedConstructsNameTheSourceLine) {
  ventus::cc::Options options;
  options.file_name = "conv.cl";
  ventus::cc::Result r = ventus::cc::compile(R"(
__kernel void k(__global long16* p, int d) {
  printf("%v16ld\n", p[d]);
})",
                                             options);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.diagnostics.find("conv.cl:3:"), std::string::npos) << r.diagnostics;
  EXPECT_NE(r.diagnostics.find("at most 30 fit a print record"), std::string::npos)
      << r.diagnostics;
}

// 1,500 int arguments: offsets past the loads' 12-bit immediate (an assembler error in the
// generated assembly before).
TEST(Backend, KernelWithKilobytesOfArguments) {
  constexpr int kArgs = 1500;
  std::string source = "__kernel void many(__global int *out";
  for (int i = 0; i < kArgs; ++i) source += ", int a" + std::to_string(i);
  source += ") {\n  out[0] = a0 + a511 + a512;\n  out[1] = a1000 - a1499;\n}\n";
  rt::Device device;
  rt::Program program = build(source);
  rt::Buffer out(device, 8);
  std::vector<rt::Arg> args = {out};
  for (int i = 0; i < kArgs; ++i) args.emplace_back(int32_t{i * 3 + 1});
  rt::launch(device, program, "many", {1}, {1}, args);
  const std::vector<int32_t> words = out.download<int32_t>();
  EXPECT_EQ(words[0], 1 + (511 * 3 + 1) + (512 * 3 + 1));
  EXPECT_EQ(words[1], (1000 * 3 + 1) - (1499 * 3 + 1));
}

// The hardware cases' kernels (object.cl), compiled by this compiler, on the cases'
// inputs: the expected words must come out, with no more thread instructions than the
// public compiler's code executes on the same launches. Cases without a listing
// (object.dump) find their kernels by their launches' names.
TEST(Backend, HardwareCasesFromOpenClSource) {
  const std::filesystem::path root = VENTUS_CASES_DIR;
  if (!std::filesystem::is_directory(root)) GTEST_SKIP() << "no cases at " << root;
  int ran = 0, without_listing = 0;
  for (const auto& entry : std::filesystem::directory_iterator(root)) {
    const std::filesystem::path cl = entry.path() / "object.cl";
    if (!std::filesystem::exists(cl)) continue;
    if (!std::filesystem::exists(entry.path() / "object.dump")) ++without_listing;
    std::ifstream in(cl);
    std::stringstream text;
    text << in.rdbuf();
    ventus::cc::Options options;
    options.file_name = cl.string();
    ventus::cc::Result r = ventus::cc::compile(text.str(), options);
    ASSERT_TRUE(r.ok) << r.diagnostics;
    const ventus::cases::Case original = ventus::cases::load_case(entry.path());
    const ventus::cases::Case compiled =
        ventus::cases::with_program(original, ventus::elf::read({r.elf.data(), r.elf.size()}), entry.path() / "object.dump");
    ventus::sim::Device d1, d2;
    const ventus::cases::CaseResult ours = ventus::cases::run_case(compiled, d1);
    const ventus::cases::CaseResult theirs = ventus::cases::run_case(original, d2);
    EXPECT_TRUE(ours.passed) << entry.path().filename() << ": "
                             << (ours.fault ? ours.fault->describe() : std::to_string(ours.mismatches.size()) + " mismatches");
    EXPECT_LE(ours.stats.thread_instructions, theirs.stats.thread_instructions) << entry.path().filename();
    ++ran;
  }
  EXPECT_GT(ran, 0);
  EXPECT_GT(without_listing, 0) << "the shipped vecadd-4x8 and vecadd-8w4t have no object.dump";
}

}  // namespace
