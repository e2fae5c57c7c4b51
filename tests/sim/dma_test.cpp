// Asynchronous copies (cp_dma, cp_dma_bulk, cp_dma_tensor, cp_dma_mbarrier) and barriersub as
// small assembly kernels. Every copy's destination is read before the mbarrier (it must still
// hold the old data) and after it; the expected data comes from host reference code written
// here (plain loops over the box for the tensor copy).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <random>

#include "sim_harness.h"

namespace ventus::test {
namespace {

constexpr uint32_t kSource = 0x90000000;  // global data the copies read (1 MiB)
constexpr uint32_t kInputs = 0x90100000;  // per-lane operands / tensor parameters
constexpr uint32_t kBefore = 0x90200000;  // the destination as read before the mbarrier
constexpr uint32_t kAfter = 0x90300000;   // ... and after it
constexpr uint32_t kMapped = 4u << 20;
constexpr uint32_t kPattern = 0xa5a5a5a5u;  // what the destination holds before a copy

struct Fixture {
  Fixture() { device.memory().map(kSource, kMapped); }
  void write(uint32_t address, const void* data, size_t n) {
    ASSERT_TRUE(device.memory().write(address, data, n));
  }
  std::vector<uint8_t> read(uint32_t address, size_t n) {
    std::vector<uint8_t> bytes(n);
    EXPECT_TRUE(device.memory().read(address, bytes.data(), n));
    return bytes;
  }
  sim::Device device;
};

// Fills local memory [offset, offset + bytes) with kPattern (bytes: a multiple of 4).
std::string fill_local(uint32_t offset, uint32_t bytes) {
  return fmt::format(R"(
    csrr s1, lds
    li t0, {}
    add s1, s1, t0
    li s3, {}
    li t3, {}
1:  sw t3, 0(s1)
    addi s1, s1, 4
    addi s3, s3, -4
    bnez s3, 1b
)",
                     offset, bytes, kPattern);
}

// Copies local memory [offset, offset + bytes) to global `to` with scalar loads and stores.
std::string dump_local(uint32_t offset, uint32_t bytes, uint32_t to) {
  return fmt::format(R"(
    csrr s1, lds
    li t0, {}
    add s1, s1, t0
    li s2, {}
    li s3, {}
1:  lw t3, 0(s1)
    sw t3, 0(s2)
    addi s1, s1, 4
    addi s2, s2, 4
    addi s3, s3, -4
    bnez s3, 1b
)",
                     offset, to, bytes);
}

::testing::AssertionResult contains(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "\"" << text << "\" does not contain \"" << part << "\"";
}

std::vector<uint8_t> pattern_bytes(size_t n) {
  std::vector<uint8_t> bytes(n);
  for (size_t i = 0; i < n; ++i) bytes[i] = static_cast<uint8_t>(kPattern >> (8 * (i % 4)));
  return bytes;
}

std::vector<uint8_t> random_bytes(std::mt19937& rng, size_t n) {
  std::vector<uint8_t> bytes(n);
  for (uint8_t& b : bytes) b = static_cast<uint8_t>(rng());
  return bytes;
}

// ---------------------------------------------------------------- cp_dma

// The assembler produces the documented words (docs/isa.md, "Asynchronous copies").
TEST(AsyncCopy, AssemblerEncodings) {
  Fixture f;
  load_program(f.device, R"(
    cp_dma.4 v3, v1, v2
    cp_dma.8 v3, v1, v2
    cp_dma.16 v3, v1, v2
    cp_dma_bulk a0, a1, a2
    cp_dma_tensor s2, v8, v10
    cp_dma_mbarrier
    cp_dma.16 v40, v1, v2
)");
  const std::vector<uint32_t> expected = {0x0020e1ab, 0x0220e1ab, 0x0420e1ab, 0x50c5f02b,
                                          0x92a4702b, 0x0400702b,
                                          // v40 = 8 + (1 << 5): regext with rs3ext = rdext = 1
                                          0x2010200b, 0x0420e42b};
  EXPECT_EQ(read_words(f.device, 0x80000000, expected.size()), expected);
}

// A launch that faulted with copies queued leaves nothing behind: the warps of the next
// launch start with an empty queue, so its mbarrier writes nothing.
TEST(AsyncCopy, AFaultedLaunchLeavesNoCopiesBehind) {
  Fixture f;
  const uint32_t ones[4] = {0x11111111, 0x11111111, 0x11111111, 0x11111111};
  f.write(kSource, ones, sizeof ones);
  load_program(f.device, fmt::format(R"(
    li a0, 0
    li a1, {}
    li a2, 16
    cp_dma_bulk a0, a1, a2
    ebreak
)",
                                     kSource));
  ASSERT_FALSE(f.device.run(launch_of(1, 4)).ok());
  load_program(f.device, "cp_dma_mbarrier\n" + dump_local(0, 16, kAfter) + "endprg x0, x0, x0\n");
  const auto r = f.device.run(launch_of(1, 4));
  ASSERT_TRUE(r.ok()) << fault_text(r);
  EXPECT_EQ(read_words(f.device, kAfter, 4), std::vector<uint32_t>(4, 0));
}

// Per thread: copy sizes 4, 8, 16, unaligned sources and destinations, srcsize 0..copysize with
// the rest zero-filled; the destination changes only at the mbarrier.
TEST(AsyncCopy, PerThreadCopiesZeroFillAndCompleteAtTheMbarrier) {
  std::mt19937 rng(7);
  for (uint32_t threads : {4u, 8u, 32u}) {
    for (uint32_t size : {4u, 8u, 16u}) {
      Fixture f;
      const std::vector<uint8_t> source = random_bytes(rng, 4096);
      f.write(kSource, source.data(), source.size());
      std::vector<uint32_t> local(threads), from(threads), valid(threads);
      for (uint32_t lane = 0; lane < threads; ++lane) {
        local[lane] = 24 * lane + rng() % 7;  // disjoint, any alignment
        from[lane] = kSource + rng() % 4000;
        valid[lane] = rng() % (size + 1);
      }
      f.write(kInputs, local.data(), 4 * threads);
      f.write(kInputs + 0x1000, from.data(), 4 * threads);
      f.write(kInputs + 0x2000, valid.data(), 4 * threads);
      const uint32_t region = 24 * threads + 32;
      load_program(f.device, fill_local(0, region) +
                                 fmt::format(R"(
    vid.v v4
    vsll.vi v4, v4, 2
    li t0, {}
    vadd.vx v4, v4, t0
    vlw12.v v3, 0(v4)
    li t0, 0x1000
    vadd.vx v4, v4, t0
    vlw12.v v1, 0(v4)
    vadd.vx v4, v4, t0
    vlw12.v v2, 0(v4)
    cp_dma.{} v3, v1, v2
)",
                                             kInputs, size) +
                                 dump_local(0, region, kBefore) + "cp_dma_mbarrier\n" +
                                 dump_local(0, region, kAfter) + "endprg x0, x0, x0\n");
      const auto r = f.device.run(launch_of(1, threads));
      ASSERT_TRUE(r.ok()) << fault_text(r);
      std::vector<uint8_t> expected = pattern_bytes(region);
      EXPECT_EQ(f.read(kBefore, region), expected) << threads << " threads, size " << size;
      for (uint32_t lane = 0; lane < threads; ++lane)
        for (uint32_t b = 0; b < size; ++b)
          expected[local[lane] + b] = b < valid[lane] ? source[from[lane] - kSource + b] : 0;
      EXPECT_EQ(f.read(kAfter, region), expected) << threads << " threads, size " << size;
    }
  }
}

// A divergent path completes only its own threads' copies: threads 0..3 wait and see their
// data while threads 4..7 still see the old data; the mbarrier after the join completes the rest.
TEST(AsyncCopy, MbarrierCompletesTheCopiesOfItsActiveThreads) {
  Fixture f;
  const uint32_t data[8] = {10, 11, 12, 13, 14, 15, 16, 17};
  f.write(kSource, data, sizeof data);
  load_program(f.device, fill_local(0, 64) + fmt::format(R"(
    vid.v v1
    vsll.vi v3, v1, 2          # local offset 4 * lane
    li t0, {}
    vadd.vx v2, v3, t0         # source: word `lane`
    li t0, 4
    vmv.v.x v5, t0             # srcsize 4
    cp_dma.4 v3, v2, v5
    li t0, {}
    vadd.vx v6, v3, t0         # where each thread reports what it sees
    csrr s1, lds
    vadd.vx v7, v3, s1         # its local word
    li t0, 4
    vmv.v.x v8, t0
    la t6, .Ljoin
    setrpc zero, t6, 0
    vblt v1, v8, .Lfirst
    vlw12.v v9, 0(v7)          # threads 4..7: before their mbarrier
    vsw12.v v9, 0(v6)
    j .Ljoin
.Lfirst:
    cp_dma_mbarrier            # threads 0..3 only
    vlw12.v v9, 0(v7)
    vsw12.v v9, 0(v6)
.Ljoin:
    join zero, zero, 0
    cp_dma_mbarrier
    vlw12.v v9, 0(v7)
    vsw12.v v9, 32(v6)
    endprg x0, x0, x0
)",
                                                         kSource, kAfter));
  const auto r = f.device.run(launch_of(1, 8));
  ASSERT_TRUE(r.ok()) << fault_text(r);
  const auto words = read_words(f.device, kAfter, 16);
  for (uint32_t lane = 0; lane < 8; ++lane) {
    EXPECT_EQ(words[lane], lane < 4 ? data[lane] : kPattern) << lane;
    EXPECT_EQ(words[8 + lane], data[lane]) << lane;
  }
}

// ---------------------------------------------------------------- cp_dma_bulk

TEST(AsyncCopy, BulkSizesAndIssueOrder) {
  std::mt19937 rng(11);
  for (uint32_t size : {4u, 20u, 48u, 4100u, 12288u}) {
    Fixture f;
    const std::vector<uint8_t> source = random_bytes(rng, 3 * size + 64);
    f.write(kSource, source.data(), source.size());
    const uint32_t offset = 0x40, second = 16 * (size / 32), region = second + size + 64;
    // Two copies: the second overlaps the first one's destination, starting `second` bytes
    // in, so the result also shows they complete in issue order.
    load_program(f.device, fill_local(0, offset + region) +
                               fmt::format(R"(
    li a0, {}
    li a1, {}
    li a2, {}
    cp_dma_bulk a0, a1, a2
    li a0, {}
    li a1, {}
    cp_dma_bulk a0, a1, a2
)",
                                           offset, kSource + 16, size, offset + second,
                                           kSource + 32 + size / 16 * 16) +
                               dump_local(0, offset + region, kBefore) + "cp_dma_mbarrier\n" +
                               dump_local(0, offset + region, kAfter) + "endprg x0, x0, x0\n");
    const auto r = f.device.run(launch_of(1, 4));
    ASSERT_TRUE(r.ok()) << fault_text(r) << " size " << size;
    std::vector<uint8_t> expected = pattern_bytes(offset + region);
    EXPECT_EQ(f.read(kBefore, expected.size()), expected);
    std::memcpy(&expected[offset], &source[16], size);
    std::memcpy(&expected[offset + second], &source[32 + size / 16 * 16], size);
    EXPECT_EQ(f.read(kAfter, expected.size()), expected) << "size " << size;
  }
}

// ---------------------------------------------------------------- faults

std::string run_fault(const std::string& program, uint32_t threads = 4) {
  Fixture f;
  load_program(f.device, program);
  const auto r = f.device.run(launch_of(1, threads));
  EXPECT_FALSE(r.ok()) << program;
  return r.fault ? r.fault->message : "";
}

TEST(AsyncCopy, BadOperandsAreFaults) {
  const auto per_thread = [](uint32_t local, uint32_t from, uint32_t valid) {
    return fmt::format(R"(
    li t0, {}
    vmv.v.x v3, t0
    li t0, {}
    vmv.v.x v1, t0
    li t0, {}
    vmv.v.x v2, t0
    cp_dma.8 v3, v1, v2
    cp_dma_mbarrier
    endprg x0, x0, x0
)",
                       local, from, valid);
  };
  EXPECT_TRUE(contains(run_fault(per_thread(0, kSource, 9)),
                       "cp_dma.8 thread 0: srcsize 9 (v2) exceeds the copy size 8"));
  EXPECT_TRUE(contains(run_fault(per_thread(0, 0x70000000, 8)), "lies in the local-memory window"));
  EXPECT_TRUE(contains(run_fault(per_thread(0, 0xa0000000, 8)), "unmapped"));
  EXPECT_TRUE(contains(run_fault(per_thread(0, 0xfffffffc, 8)), "wraps around the address space"));
  EXPECT_TRUE(contains(run_fault(per_thread(0x0ffffffc, kSource, 8)),
                       "ends beyond the local-memory window"));
  // srcsize 0 reads nothing: an unmapped source is fine then.
  {
    Fixture f;
    load_program(f.device, per_thread(0, 0xa0000000, 0));
    const auto r = f.device.run(launch_of(1, 4));
    EXPECT_TRUE(r.ok()) << fault_text(r);
  }
  const auto bulk = [](uint32_t local, uint32_t from, uint32_t size) {
    return fmt::format(R"(
    li a0, {}
    li a1, {}
    li a2, {}
    cp_dma_bulk a0, a1, a2
    cp_dma_mbarrier
    endprg x0, x0, x0
)",
                       local, from, size);
  };
  EXPECT_TRUE(
      contains(run_fault(bulk(0, kSource, 0)), "cp_dma_bulk: size 0 (a2) is not a multiple of 4"));
  EXPECT_TRUE(contains(run_fault(bulk(0, kSource, 6)), "size 6 (a2)"));
  EXPECT_TRUE(contains(run_fault(bulk(0, kSource + 4, 16)),
                       "source 0x90000004 (a1) is not 16-byte aligned"));
  EXPECT_TRUE(contains(run_fault(bulk(8, kSource, 16)),
                       "destination offset 0x8 (a0) is not 16-byte aligned"));
  EXPECT_TRUE(
      contains(run_fault(bulk(0, kSource, 0xfffffffc)), "ends beyond the local-memory window"));
  EXPECT_TRUE(contains(run_fault(bulk(0, kSource + kMapped - 16, 32)), "unmapped"));
}

TEST(AsyncCopy, PendingCopiesAtEndprgAreAFault) {
  EXPECT_TRUE(contains(run_fault(fmt::format(R"(
    li a0, 0
    li a1, {}
    li a2, 16
    cp_dma_bulk a0, a1, a2
    cp_dma_bulk a0, a1, a2
    endprg x0, x0, x0
)",
                                             kSource)),
                       "endprg with 2 asynchronous copies pending"));
}

TEST(AsyncCopy, MbarrierSplittingAGroupOfFourIsAFault) {
  const std::string program = R"(
    vid.v v1
    li t0, LIMIT
    vmv.v.x v2, t0
    la t6, .Ljoin
    setrpc zero, t6, 0
    vblt v1, v2, .Lfirst
    j .Ljoin
.Lfirst:
    cp_dma_mbarrier
.Ljoin:
    join zero, zero, 0
    endprg x0, x0, x0
)";
  const auto with_limit = [&](int limit) {
    std::string p = program;
    p.replace(p.find("LIMIT"), 5, std::to_string(limit));
    return p;
  };
  EXPECT_TRUE(
      contains(run_fault(with_limit(6), 8), "cp_dma_mbarrier in divergent code: threads 4..7"));
  // Whole groups may wait on their own; with 6 threads, threads 4..5 form the last group.
  for (auto [limit, threads] : {std::pair{4, 8}, std::pair{4, 6}}) {
    Fixture f;
    load_program(f.device, with_limit(limit));
    const auto r = f.device.run(launch_of(1, threads));
    EXPECT_TRUE(r.ok()) << fault_text(r);
  }
  EXPECT_TRUE(contains(run_fault(with_limit(5), 6), "threads 4..5 wait as one group of 4"));
}

// ---------------------------------------------------------------- barriersub

TEST(BarrierSub, CompletesAtOnceConvergedAndFaultsOtherwise) {
  Fixture f;
  load_program(f.device, R"(
    barriersub x0, x0, 7
    barriersub x0, x0, 0
    li t0, 0x90000000
    li t1, 42
    sw t1, 0(t0)
    endprg x0, x0, x0
)");
  const auto r = f.device.run(launch_of(2, 8));
  ASSERT_TRUE(r.ok()) << fault_text(r);
  EXPECT_EQ(read_words(f.device, kSource, 1)[0], 42u);
  EXPECT_EQ(r.stats.barriers, 0u);  // no workgroup barrier happened
  EXPECT_TRUE(contains(run_fault("barriersub x0, x0, 8\nendprg x0, x0, x0\n"),
                       "barriersub 8: the memory-scope bits imm[4:3] must be 0"));
  EXPECT_TRUE(contains(run_fault(R"(
    vid.v v1
    li t0, 1
    vmv.v.x v2, t0
    la t6, .Ljoin
    setrpc zero, t6, 0
    vblt v1, v2, .Lfirst
    j .Ljoin
.Lfirst:
    barriersub x0, x0, 1
.Ljoin:
    join zero, zero, 0
    endprg x0, x0, x0
)"),
                       "barriersub in divergent code"));
}

// ---------------------------------------------------------------- cp_dma_tensor

struct TensorParams {
  uint32_t datatype = 7, rank = 1, global_address = kSource;
  std::array<uint32_t, 5> global_dim{1, 1, 1, 1, 1}, global_stride{};
  uint32_t box_address = kSource;
  std::array<uint32_t, 5> box_dim{1, 1, 1, 1, 1}, element_stride{1, 1, 1, 1, 1};
  uint32_t interleave = 0, swizzle = 0, l2_promotion = 0, oob_fill = 0;
  uint32_t shared_offset = 0;

  std::array<uint32_t, 13> tensor_lanes() const {
    std::array<uint32_t, 13> p{datatype, rank, global_address};
    for (int k = 0; k < 5; ++k) p[3 + k] = global_dim[k], p[8 + k] = global_stride[k];
    return p;
  }
  std::array<uint32_t, 15> box_lanes() const {
    std::array<uint32_t, 15> p{box_address};
    for (int k = 0; k < 5; ++k) p[1 + k] = box_dim[k], p[6 + k] = element_stride[k];
    p[11] = interleave, p[12] = swizzle, p[13] = l2_promotion, p[14] = oob_fill;
    return p;
  }
};

uint32_t size_of(uint32_t datatype) {
  static constexpr uint32_t kSizes[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2};
  return kSizes[datatype];
}
bool is_float(uint32_t datatype) {
  return datatype >= 6;
}
uint64_t nan_of(uint32_t datatype) {
  switch (datatype) {
    case 6: return 0x7e00;              // binary16 quiet NaN
    case 7: return 0x7fc00000;          // binary32
    case 8: return 0x7ff8000000000000;  // binary64
    default: return 0x7fc0;             // bfloat16
  }
}

// The host reference: the bytes the copy leaves in local memory [0, region) (relative to the
// shared offset), starting from `before`. Box traversal with element strides, elements outside
// the tensor filled, tile stored densely, then the 16-byte chunks swizzled.
std::vector<uint8_t> reference_tile(const TensorParams& p, const std::vector<uint8_t>& global,
                                    std::vector<uint8_t> before) {
  const uint32_t size = size_of(p.datatype);
  // The box origin from its address, dimension by dimension from the outermost.
  uint64_t rest = p.box_address - p.global_address, origin[5] = {};
  for (int k = static_cast<int>(p.rank) - 1; k >= 1; --k) {
    origin[k] = rest / p.global_stride[k - 1];
    rest %= p.global_stride[k - 1];
  }
  origin[0] = rest / size;
  uint32_t n[5];
  for (int k = 0; k < 5; ++k)
    n[k] = k < static_cast<int>(p.rank)
               ? (p.box_dim[k] + p.element_stride[k] - 1) / p.element_stride[k]
               : 1;
  std::vector<uint8_t> dense;
  for (uint32_t i4 = 0; i4 < n[4]; ++i4)
    for (uint32_t i3 = 0; i3 < n[3]; ++i3)
      for (uint32_t i2 = 0; i2 < n[2]; ++i2)
        for (uint32_t i1 = 0; i1 < n[1]; ++i1)
          for (uint32_t i0 = 0; i0 < n[0]; ++i0) {
            const uint32_t i[5] = {i0, i1, i2, i3, i4};
            bool inside = true;
            uint64_t address = p.global_address;
            for (uint32_t k = 0; k < p.rank; ++k) {
              const uint64_t x = origin[k] + uint64_t{i[k]} * p.element_stride[k];
              inside = inside && x < p.global_dim[k];
              address += x * (k == 0 ? size : p.global_stride[k - 1]);
            }
            uint64_t value = p.oob_fill ? nan_of(p.datatype) : 0;
            if (inside) std::memcpy(&value, &global[address - kSource], size);
            for (uint32_t b = 0; b < size; ++b)
              dense.push_back(static_cast<uint8_t>(value >> 8 * b));
          }
  const uint32_t mask = p.swizzle == 0 ? 0 : (1u << p.swizzle) - 1;
  for (uint32_t o = 0; o < dense.size(); ++o) {
    const uint32_t chunk = (o >> 4) & 7, row = (o >> 7) & 7;
    const uint32_t to = (o & ~0x70u) | (((chunk ^ (row & mask)) & 7) << 4);
    before.at(to) = dense[o];
  }
  return before;
}

// Loads the parameters into v40.. (vs1) and v60.. (vs2), parameter k in register base + k / T
// lane k % T, and copies the box; dumps local memory before and after the mbarrier.
std::string tensor_program(const TensorParams& p, uint32_t threads, uint32_t region) {
  std::string s = fill_local(p.shared_offset, region) + fmt::format(R"(
    vid.v v1
    vsll.vi v1, v1, 2
    li t0, {}
    vadd.vx v2, v1, t0
    li t0, {}
    vadd.vx v3, v1, t0
)",
                                                                    kInputs, kInputs + 0x100);
  for (uint32_t j = 0; j * threads < 13; ++j)
    s += fmt::format("vlw12.v v{}, {}(v2)\n", 40 + j, 4 * j * threads);
  for (uint32_t j = 0; j * threads < 15; ++j)
    s += fmt::format("vlw12.v v{}, {}(v3)\n", 60 + j, 4 * j * threads);
  s += fmt::format("li a0, {}\ncp_dma_tensor a0, v40, v60\n", p.shared_offset);
  s += dump_local(p.shared_offset, region, kBefore) + "cp_dma_mbarrier\n" +
       dump_local(p.shared_offset, region, kAfter) + "endprg x0, x0, x0\n";
  return s;
}

void write_parameters(Fixture& f, const TensorParams& p) {
  const auto t = p.tensor_lanes();
  const auto b = p.box_lanes();
  f.write(kInputs, t.data(), sizeof t);
  f.write(kInputs + 0x100, b.data(), sizeof b);
}

// A valid random parameter set: random data type, rank, layout (padded strides), box, element
// strides, interleave, swizzle; the box origin anywhere in the tensor, so the box often reaches
// beyond it.
TensorParams random_tensor(std::mt19937& rng) {
  const auto pick = [&](uint32_t lo, uint32_t hi) { return lo + rng() % (hi - lo + 1); };
  TensorParams p;
  p.datatype = pick(0, 9);
  const uint32_t size = size_of(p.datatype);
  p.interleave = rng() % 5 == 0 ? pick(1, 2) : 0;
  p.rank = p.interleave ? pick(3, 5) : pick(1, 5);
  p.swizzle = p.interleave == 2 ? 1 : pick(0, 3);
  p.l2_promotion = pick(0, 3);
  p.oob_fill = is_float(p.datatype) ? pick(0, 1) : 0;
  const uint32_t align = p.interleave == 2 ? 32 : 16;
  if (p.interleave) {
    p.box_dim[0] = (p.interleave == 1 ? 16 : 32) / size;
    p.global_dim[0] = p.box_dim[0];
  } else {
    const uint32_t chunks = pick(1, p.swizzle ? 1u << (p.swizzle) : 8);  // 16-byte chunks a row
    p.box_dim[0] = 16 * chunks / size;
    p.element_stride[0] = rng() % 3 == 0 ? pick(2, 8) : 1;
    p.global_dim[0] = pick(1, 2 * p.box_dim[0]);
  }
  for (uint32_t k = 1; k < p.rank; ++k) {
    p.global_dim[k] = pick(1, 4);
    p.box_dim[k] = pick(1, 4);
    p.element_stride[k] = pick(1, 3);
  }
  uint64_t extent = uint64_t{p.global_dim[0]} * size;
  for (uint32_t k = 1; k < p.rank; ++k) {
    const uint64_t stride = (extent + align - 1) / align * align + align * pick(0, 2);
    p.global_stride[k - 1] = static_cast<uint32_t>(stride);
    extent = stride * p.global_dim[k];
  }
  p.global_address = kSource + align * pick(0, 8);
  p.box_address = p.global_address + pick(0, p.global_dim[0] - 1) * size;
  for (uint32_t k = 1; k < p.rank; ++k)
    p.box_address += pick(0, p.global_dim[k] - 1) * p.global_stride[k - 1];
  p.shared_offset = (128u << p.swizzle) * pick(0, 3);
  return p;
}

uint32_t tile_bytes(const TensorParams& p) {
  uint32_t bytes = size_of(p.datatype);
  for (uint32_t k = 0; k < p.rank; ++k)
    bytes *= (p.box_dim[k] + p.element_stride[k] - 1) / p.element_stride[k];
  return bytes;
}

TEST(TensorCopy, RandomShapesAgainstHostReference) {
  std::mt19937 rng(2025);
  Fixture f;
  const std::vector<uint8_t> global = random_bytes(rng, 1 << 20);
  f.write(kSource, global.data(), global.size());
  int interleaved = 0, swizzled = 0, strided = 0, nan_filled = 0;
  for (int round = 0; round < 60; ++round) {
    const TensorParams p = random_tensor(rng);
    const uint32_t threads = std::array{1u, 4u, 8u, 32u}[round % 4];
    // Up to 112 bytes past the tile (a swizzled last row) plus a margin that must stay as is.
    const uint32_t region = (tile_bytes(p) + 3) / 4 * 4 + 256;
    SCOPED_TRACE(
        fmt::format("round {} threads {} datatype {} rank {} dims {} strides {} box {} "
                    "estrides {} interleave {} swizzle {} oob {} origin {:#x}",
                    round, threads, p.datatype, p.rank, fmt::join(p.global_dim, ","),
                    fmt::join(p.global_stride, ","), fmt::join(p.box_dim, ","),
                    fmt::join(p.element_stride, ","), p.interleave, p.swizzle, p.oob_fill,
                    p.box_address - p.global_address));
    write_parameters(f, p);
    load_program(f.device, tensor_program(p, threads, region));
    const auto r = f.device.run(launch_of(1, threads));
    ASSERT_TRUE(r.ok()) << fault_text(r);
    const std::vector<uint8_t> old = pattern_bytes(region);
    EXPECT_EQ(f.read(kBefore, region), old);
    EXPECT_EQ(f.read(kAfter, region), reference_tile(p, global, old));
    interleaved += p.interleave != 0;
    swizzled += p.swizzle != 0;
    strided += p.element_stride[0] > 1;
    nan_filled += p.oob_fill;
  }
  // The random choices reached every feature.
  EXPECT_GT(interleaved, 3);
  EXPECT_GT(swizzled, 10);
  EXPECT_GT(strided, 3);
  EXPECT_GT(nan_filled, 3);
}

// A 2-D float tile hanging over both edges of an 8 x 6 tensor, NaN-filled, checked element by
// element by hand.
TEST(TensorCopy, BoxOverTheEdgesIsFilled) {
  Fixture f;
  float m[6][8];
  for (int y = 0; y < 6; ++y)
    for (int x = 0; x < 8; ++x) m[y][x] = static_cast<float>(10 * y + x);
  f.write(kSource, m, sizeof m);
  TensorParams p;
  p.rank = 2;
  p.global_dim = {8, 6, 1, 1, 1};
  p.global_stride = {32, 0, 0, 0, 0};
  p.box_dim = {4, 4, 1, 1, 1};
  p.box_address = kSource + 4 * 32 + 6 * 4;  // (x, y) = (6, 4)
  p.oob_fill = 1;
  write_parameters(f, p);
  load_program(f.device, tensor_program(p, 8, 64));
  const auto r = f.device.run(launch_of(1, 8));
  ASSERT_TRUE(r.ok()) << fault_text(r);
  const auto words = read_words(f.device, kAfter, 16);
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) {
      const bool inside = 6 + x < 8 && 4 + y < 6;
      float value;
      std::memcpy(&value, &words[4 * y + x], 4);
      if (inside)
        EXPECT_EQ(value, m[4 + y][6 + x]) << x << "," << y;
      else
        EXPECT_EQ(words[4 * y + x], 0x7fc00000u) << x << "," << y;
    }
}

// The 128-byte swizzle of a 32 x 8 uint32 tile (eight 128-byte rows): chunk c of row r (words
// 4c..4c+3) lands in chunk c ^ r of that row; the 32-byte and 64-byte modes XOR with r mod 2
// and r mod 4.
TEST(TensorCopy, SwizzleMovesChunkCOfRowRToChunkCXorR) {
  for (uint32_t swizzle : {1u, 2u, 3u}) {
    Fixture f;
    std::vector<uint32_t> m(32 * 8);
    for (uint32_t i = 0; i < m.size(); ++i) m[i] = i;
    f.write(kSource, m.data(), 4 * m.size());
    TensorParams p;
    p.datatype = 2;
    p.rank = 2;
    p.global_dim = {32, 8, 1, 1, 1};
    p.global_stride = {128, 0, 0, 0, 0};
    p.box_dim = {(16u << swizzle) / 4, 8, 1, 1, 1};  // one swizzle span a row
    p.swizzle = swizzle;
    p.shared_offset = 1024;
    write_parameters(f, p);
    load_program(f.device, tensor_program(p, 8, 1024));
    const auto r = f.device.run(launch_of(1, 8));
    ASSERT_TRUE(r.ok()) << fault_text(r);
    const auto words = read_words(f.device, kAfter, 256);
    const uint32_t row_words = p.box_dim[0];
    for (uint32_t y = 0; y < 8; ++y)
      for (uint32_t x = 0; x < row_words; ++x) {
        // Dense offset of element (x, y), then its 128-byte line and chunk.
        const uint32_t dense = 4 * (y * row_words + x), line = dense / 128;
        const uint32_t chunk = (dense / 16) % 8, mask = (1u << swizzle) - 1;
        const uint32_t at = line * 128 + 16 * (chunk ^ (line & mask)) + dense % 16;
        EXPECT_EQ(words[at / 4], m[32 * y + x])
            << "swizzle " << swizzle << " x " << x << " y " << y;
      }
  }
}

TEST(TensorCopy, EveryParameterLimitIsAFault) {
  TensorParams good;
  good.rank = 2;
  good.global_dim = {8, 6, 1, 1, 1};
  good.global_stride = {32, 0, 0, 0, 0};
  good.box_dim = {4, 4, 1, 1, 1};
  struct Case {
    const char* expected;
    void (*change)(TensorParams&);
  };
  const Case cases[] = {
      {"datatype 10 (vs1[0]) is not a data type code 0..9",
       [](TensorParams& p) { p.datatype = 10; }},
      {"tensorRank 0 (vs1[1]) is not 1..5", [](TensorParams& p) { p.rank = 0; }},
      {"tensorRank 6 (vs1[1]) is not 1..5", [](TensorParams& p) { p.rank = 6; }},
      {"globalAddress 0x90000008 (vs1[2]) is not 16-byte aligned",
       [](TensorParams& p) { p.global_address = p.box_address = kSource + 8; }},
      {"globalDim2 (vs1[4]) is 0", [](TensorParams& p) { p.global_dim[1] = 0; }},
      {"globalStride1 40 (vs1[8]) is not a multiple of 16",
       [](TensorParams& p) { p.global_stride[0] = 40; }},
      {"globalStride1 16 (vs1[8], the stride of dimension 2) is smaller than the 32 bytes",
       [](TensorParams& p) { p.global_stride[0] = 16; }},
      {"extends beyond the 32-bit address space",
       [](TensorParams& p) { p.global_dim[1] = 0x8000000; }},
      {"boxDim2 0 (vs2[2]) is not 1..256", [](TensorParams& p) { p.box_dim[1] = 0; }},
      {"boxDim2 257 (vs2[2]) is not 1..256", [](TensorParams& p) { p.box_dim[1] = 257; }},
      {"elementStrides1 0 (vs2[6]) is not 1..8", [](TensorParams& p) { p.element_stride[0] = 0; }},
      {"elementStrides2 9 (vs2[7]) is not 1..8", [](TensorParams& p) { p.element_stride[1] = 9; }},
      {"interleave 3 (vs2[11])", [](TensorParams& p) { p.interleave = 3; }},
      {"swizzle 4 (vs2[12])", [](TensorParams& p) { p.swizzle = 4; }},
      {"L2promotion 4 (vs2[13])", [](TensorParams& p) { p.l2_promotion = 4; }},
      {"oobfill 2 (vs2[14])", [](TensorParams& p) { p.oob_fill = 2; }},
      {"oobfill 1 (NaN) needs a floating-point datatype, not int32 (3)",
       [](TensorParams& p) { p.datatype = 3, p.oob_fill = 1; }},
      {"an interleaved tensor (interleave 1) needs tensorRank >= 3, not 2",
       [](TensorParams& p) { p.interleave = 1; }},
      {"interleave 2 (32B) needs swizzle 1 (32B), not 0",
       [](TensorParams& p) { p.rank = 3, p.interleave = 2; }},
      {"boxDim1 4 x 4 bytes is not the 32-byte interleave vector",
       [](TensorParams& p) {
         p.rank = 3, p.interleave = 2, p.swizzle = 1, p.global_stride[1] = 192;
       }},
      {"elementStrides1 2 must be 1 for an interleaved tensor",
       [](TensorParams& p) {
         p.rank = 3, p.interleave = 1, p.element_stride[0] = 2, p.global_stride[1] = 192;
       }},
      {"boxDim1 3 x 4 bytes (float32) is not a multiple of 16 bytes",
       [](TensorParams& p) { p.box_dim[0] = 3; }},
      {"boxDim1 16 x 4 bytes exceeds the 32-byte swizzle span",
       [](TensorParams& p) { p.box_dim[0] = 16, p.swizzle = 1; }},
      {"box address 0x90000006 (vs2[0]) is not the address of an element",
       [](TensorParams& p) { p.box_address = kSource + 6; }},
      {"box address 0x900000e0 (vs2[0]) is not the address of an element",
       [](TensorParams& p) { p.box_address = kSource + 7 * 32; }},
      {"box address 0x8ffffff0 (vs2[0]) lies below globalAddress",
       [](TensorParams& p) { p.box_address = kSource - 16; }},
      {"destination offset 0x40 (a0) is not 128-byte aligned",
       [](TensorParams& p) { p.shared_offset = 64; }},
      {"destination offset 0x200 (a0) is not 1024-byte aligned (the swizzle pattern's repeat)",
       [](TensorParams& p) { p.shared_offset = 512, p.swizzle = 3; }},
      {"unmapped", [](TensorParams& p) { p.global_address = p.box_address = 0xa0000000; }},
  };
  for (const Case& c : cases) {
    TensorParams p = good;
    c.change(p);
    Fixture f;
    write_parameters(f, p);
    load_program(f.device, tensor_program(p, 4, 64));
    const auto r = f.device.run(launch_of(1, 4));
    ASSERT_FALSE(r.ok()) << c.expected;
    EXPECT_TRUE(contains(r.fault->message, c.expected));
  }
  // With one thread per warp the 15 box parameters need 15 registers: v250 has only 6 left.
  Fixture f;
  load_program(f.device, "li a0, 0\ncp_dma_tensor a0, v40, v250\nendprg x0, x0, x0\n");
  const auto r = f.device.run(launch_of(1, 1));
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(contains(r.fault->message, "the 15 parameters in vs2 need v250..v264"));
}

}  // namespace
}  // namespace ventus::test
