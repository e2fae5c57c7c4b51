// Frames beyond the immediates and beyond the start code's 1 KiB warp stack: kernels with
// hundreds of live uniform values (a scalar stack of several KiB per warp) and private
// arrays of 1,052 bytes and 4 KiB per work-item build at every -O level, declare what they
// need in their metadata, and compute on the simulated device what the host computes; frames
// the device cannot hold are build errors naming the kernel, the bytes and the limit.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "ventus/abi.h"
#include "ventus/compiler.h"
#include "ventus/error.h"
#include "ventus/runtime.h"

namespace {

namespace rt = ventus::rt;

ventus::cc::Result compile(const std::string& source, int opt_level) {
  ventus::cc::Options options;
  options.opt_level = opt_level;
  options.file_name = "frames.cl";
  return ventus::cc::compile(source, options);
}

// `count` uniform values loaded before a loop that stores through `out` (which may alias
// `in`, so no load moves into the loop): all of them live across the loop, far more than
// the scalar registers, so the -O2 build keeps them in the warp's scalar stack. The
// workgroup's __local data lies after the warps' stacks, so a stride that disagrees with
// the runtime's layout, or overlapping stacks, gives wrong sums.
// With `calls`, each round also calls twist(), which calls leaf() with values live across
// the call (saved vector registers) and has a 1,200-byte private array: the kernel saves ra
// in its large scalar frame, twist its registers in a private frame beyond 1 KiB.
const char* kTwist = R"(
__attribute__((noinline)) int leaf(int x) { return x * 5 + 1; }
__attribute__((noinline)) int twist(int acc, int r) {
  int t[300];
  for (int i = 0; i < 300; ++i) t[i] = acc + i * r;
  int a = leaf(t[(acc & 0x7fffffff) % 300]);
  int b = leaf(a + t[r % 300]);
  return a ^ b ^ t[(a & 0x7fffffff) % 300];
}
)";

uint32_t twist_reference(uint32_t acc, uint32_t r) {
  std::vector<uint32_t> t(300);
  for (uint32_t i = 0; i < 300; ++i) t[i] = acc + i * r;
  const auto leaf = [](uint32_t x) { return x * 5 + 1; };
  const uint32_t a = leaf(t[(acc & 0x7fffffff) % 300]);
  const uint32_t b = leaf(a + t[r % 300]);
  return a ^ b ^ t[(a & 0x7fffffff) % 300];
}

std::string uniform_frame_kernel(int count, bool calls = false) {
  std::string s = calls ? kTwist : "";
  s += "kernel void wide(global int* in, global int* out, int rounds) {\n";
  for (int i = 0; i < count; ++i) s += fmt::format("  int u{} = in[{}];\n", i, i);
  s += "  int gid = get_global_id(0), lid = get_local_id(0);\n"
       "  local int shared[128];\n"
       "  int acc = gid;\n"
       "  for (int r = 0; r < rounds; ++r) {\n";
  for (int i = 0; i < count; ++i)
    s += fmt::format("    acc = (acc ^ u{}) * {} + {};\n", i, 2 * i + 3, i);
  if (calls) s += "    acc = twist(acc, r);\n";
  s += "    out[gid] = acc;\n"
       "  }\n"
       "  shared[lid] = acc;\n"
       "  barrier(CLK_LOCAL_MEM_FENCE);\n"
       "  out[gid] = acc + shared[(lid + 1) % get_local_size(0)];\n"
       "}\n";
  return s;
}

std::vector<int32_t> uniform_frame_reference(const std::vector<int32_t>& in, int count, int rounds,
                                             uint32_t items, uint32_t local, bool calls) {
  std::vector<uint32_t> acc(items);
  for (uint32_t g = 0; g < items; ++g) {
    uint32_t a = g;
    for (int r = 0; r < rounds; ++r) {
      for (int i = 0; i < count; ++i)
        a = (a ^ static_cast<uint32_t>(in[i])) * static_cast<uint32_t>(2 * i + 3) +
            static_cast<uint32_t>(i);
      if (calls) a = twist_reference(a, static_cast<uint32_t>(r));
    }
    acc[g] = a;
  }
  std::vector<int32_t> out(items);
  for (uint32_t g = 0; g < items; ++g) {
    const uint32_t group = g / local * local, lid = g % local;
    out[g] = static_cast<int32_t>(acc[g] + acc[group + (lid + 1) % local]);
  }
  return out;
}

void run_uniform_frame(int count, int opt_level, uint32_t expected_min_stack, bool calls = false) {
  SCOPED_TRACE(
      fmt::format("{} uniform values at -O{}{}", count, opt_level, calls ? " with calls" : ""));
  const ventus::cc::Result r = compile(uniform_frame_kernel(count, calls), opt_level);
  ASSERT_TRUE(r.ok) << r.diagnostics;
  const rt::Program program = rt::Program::from_elf_bytes(r.elf);
  const rt::KernelInfo* info = program.kernel_info("wide");
  ASSERT_NE(info, nullptr);
  EXPECT_GE(info->stack_bytes, expected_min_stack);
  EXPECT_EQ(info->stack_bytes % 4, 0u);
  std::vector<int32_t> in(static_cast<size_t>(count) + 64);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<int32_t>(i * 2654435761u >> 5);
  constexpr uint32_t kItems = 256, kLocal = 128;  // 4 warps per workgroup, 2 workgroups
  rt::Device device;
  rt::Buffer bin = rt::Buffer::from(device, in);
  rt::Buffer bout(device, 4 * kItems);
  rt::launch(device, program, "wide", {kItems}, {kLocal}, {bin, bout, rt::Arg(2)});
  const std::vector<int32_t> expected =
      uniform_frame_reference(in, count, 2, kItems, kLocal, calls);
  const std::vector<int32_t> got = bout.download<int32_t>();
  for (uint32_t g = 0; g < kItems; ++g) ASSERT_EQ(got[g], expected[g]) << "item " << g;
}

// A 1,080-byte frame (as in the Rodinia benchmark that failed at -O2): more than the start
// code's 1 KiB, within the 12-bit offsets of sp.
TEST(Frames, UniformValuesBeyondOneKibibyteOfStackAtEveryLevel) {
  for (int level = 0; level <= 3; ++level) run_uniform_frame(330, level, level == 2 ? 1025 : 0);
}

// 6 KiB of uniform values (the conformance test's 6,464-byte frame): spill slots beyond the
// 12-bit offsets of sp, a stride that is not a power of two.
TEST(Frames, UniformValuesBeyondTheImmediateOffsets) {
  run_uniform_frame(1600, 2, 4096);
}

// The saved registers of frames beyond the immediates: the kernel's ra below a 3 KiB scalar
// frame, twist()'s vector registers below a private frame of more than 1 KiB.
TEST(Frames, SavedRegistersOfLargeFrames) {
  for (int level : {0, 2}) run_uniform_frame(800, level, level == 2 ? 2048 : 0, true);
}

// A kernel that needs no more than 1 KiB keeps the start code's stacks: its metadata says
// so, and its code neither moves sp nor scales the warp index by anything else.
TEST(Frames, SmallFramesKeepTheStartCodeStacks) {
  const ventus::cc::Result r = compile(uniform_frame_kernel(8), 2);
  ASSERT_TRUE(r.ok) << r.diagnostics;
  const rt::Program program = rt::Program::from_elf_bytes(r.elf);
  EXPECT_EQ(program.kernel_info("wide")->stack_bytes, ventus::abi::kWarpStackBytes);
  const std::string wid = fmt::format("{:#x}", ventus::abi::csr::WID);
  EXPECT_EQ(r.assembly.find(wid), std::string::npos) << r.assembly;
  EXPECT_NE(r.assembly.find(fmt::format(", {}\n", 10)), std::string::npos) << r.assembly;
}

// 20 shuffles of long16 values that are the same for every work-item: hundreds of
// short-lived 32-bit halves spilled to the scalar stack. Registers never live at once share
// a spill slot, so the frame stays within the start code's 1 KiB (it was 8,352 bytes with
// a slot per spilled register; tests/cc_vs_pocl/kernels/shuffle_wide_uniform.cl checks the
// values against pocl).
TEST(Frames, SpilledValuesNeverLiveAtOnceShareSlots) {
  const ventus::cc::Result r = compile(R"(
kernel void many_shuffles(global long16* out, long16 x, ulong16 m) {
  long16 v = x;
#pragma unroll
  for (int k = 1; k <= 20; ++k) {
    v = shuffle(v, m) + (long)k;
    m = (m >> 1) ^ (ulong)(k * 0x9e37u);
    out[21 * get_global_id(0) + k] = v;
  }
}
)",
                                       2);
  ASSERT_TRUE(r.ok) << r.diagnostics;
  const rt::Program program = rt::Program::from_elf_bytes(r.elf);
  EXPECT_EQ(program.kernel_info("many_shuffles")->stack_bytes, ventus::abi::kWarpStackBytes);
  // Some values are spilled (else this test would check nothing).
  EXPECT_NE(r.assembly.find("(sp)"), std::string::npos);
}

// Private arrays indexed by data: 1,052 bytes (the conformance test that failed) and 4 KiB
// per work-item, beyond the 11-bit offsets of the private loads and stores from tp, in a
// kernel that also calls a function with a private frame of its own.
TEST(Frames, PrivateArraysBeyondOneKibibyte) {
  for (int words : {263, 1024}) {
    for (int level : {0, 2}) {
      SCOPED_TRACE(fmt::format("{} words at -O{}", words, level));
      const std::string source = fmt::format(R"(
__attribute__((noinline)) int mix(int x, int n) {{
  int t[40];
  for (int i = 0; i < 40; ++i) t[i] = x * (i + 1) + n;
  return t[(x & 0x7fffffff) % 40];
}}
kernel void priv(global const int* in, global int* out) {{
  int a[{0}];
  int gid = get_global_id(0);
  for (int i = 0; i < {0}; ++i) a[i] = in[(gid + i) % 97] * (i + 1);
  int acc = 0;
  for (int i = 0; i < {0}; ++i) acc += a[(i * 7 + gid) % {0}] ^ i;
  out[gid] = acc + mix(a[{0} - 1 - gid % {0}], a[gid % 5]) + a[0];
}}
)",
                                             words);
      const ventus::cc::Result r = compile(source, level);
      ASSERT_TRUE(r.ok) << r.diagnostics;
      const rt::Program program = rt::Program::from_elf_bytes(r.elf);
      ASSERT_NE(program.kernel_info("priv"), nullptr);
      EXPECT_GE(program.kernel_info("priv")->private_bytes, 4u * words + 160);
      std::vector<int32_t> in(97);
      for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<int32_t>(i * 40503u + 7) - 3000;
      constexpr uint32_t kItems = 96;
      rt::Device device;
      rt::Buffer bin = rt::Buffer::from(device, in);
      rt::Buffer bout(device, 4 * kItems);
      rt::launch(device, program, "priv", {kItems}, {32}, {bin, bout});
      const std::vector<int32_t> got = bout.download<int32_t>();
      for (uint32_t g = 0; g < kItems; ++g) {
        std::vector<uint32_t> a(words);
        for (int i = 0; i < words; ++i)
          a[i] = static_cast<uint32_t>(in[(g + i) % 97]) * static_cast<uint32_t>(i + 1);
        uint32_t acc = 0;
        for (int i = 0; i < words; ++i) acc += a[(i * 7 + g) % words] ^ static_cast<uint32_t>(i);
        const uint32_t x = a[words - 1 - g % words], n = a[g % 5];
        std::vector<uint32_t> t(40);
        for (uint32_t i = 0; i < 40; ++i) t[i] = x * (i + 1) + n;
        const uint32_t mixed = t[(x & 0x7fffffff) % 40];
        ASSERT_EQ(static_cast<uint32_t>(got[g]), acc + mixed + a[0]) << "item " << g;
      }
    }
  }
}

// Frames the device cannot hold are build errors that name the kernel, the bytes it needs
// and the limit.
TEST(Frames, FramesBeyondTheDeviceAreBuildErrors) {
  // More than 1 KiB of stack and 64,800 bytes of __local data (64,896 as the runtime aligns
  // them): no workgroup fits 64 KiB.
  std::string source = uniform_frame_kernel(330);
  source.replace(source.find("local int shared[128];"), 22, "local int shared[16200];");
  const ventus::cc::Result r = compile(source, 2);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.diagnostics.find("error: kernel 'wide' needs "), std::string::npos) << r.diagnostics;
  EXPECT_NE(r.diagnostics.find(" bytes of scalar stack per warp (its frame and those of the "
                               "functions it calls) and 64896 bytes of __local variables; a "
                               "workgroup's local memory is at most an SM's 65536 bytes"),
            std::string::npos)
      << r.diagnostics;
  // Private frames beyond the device: Diagnostics.LargePrivateArrayNamesTheFunction.
}

}  // namespace
