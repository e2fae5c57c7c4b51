// The work-item functions of the builtin library (src/compiler/lib/workitem.cl).
//
// Values: the test program defines the back end's intrinsics itself (__vt_csr returns
// chosen CSR values and the address of a metadata buffer in a program-scope array,
// __vt_lane_id a chosen lane), so that after -O2 every call folds to a constant that the
// kernel stores to out[i]. The stored constants are compared with the OpenCL C
// definitions evaluated here for the same launch.
//
// Shape: with the real intrinsics, every CSR number and barrier flag reaching the back
// end is a constant, at every -O level, even for a dimension only known at run time.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>

#include <map>
#include <regex>
#include <set>

#include "test_util.h"
#include "ventus/abi.h"
#include "ventus/elf.h"
#include "ventus/listing.h"

namespace {

using namespace ventus::test;
namespace abi = ventus::abi;
namespace cc = ventus::cc;
namespace elf = ventus::elf;
namespace listing = ventus::listing;

struct Launch {
  uint32_t work_dim;
  uint32_t global[3], local[3], offset[3];
  uint32_t group[3];
  uint32_t tid, lane;  // CSR_TID (warp id * threads per warp) and the lane
};

// The functions probed, in the order the kernel stores them; dimension 3 is out of range.
const char* const kPerDimension[] = {"get_global_size", "get_local_size", "get_enqueued_local_size",
                                     "get_global_offset", "get_num_groups",  "get_group_id",
                                     "get_local_id",      "get_global_id"};

// The metadata words and CSR numbers are the device ABI's (include/ventus/abi.def): a library
// that read other words or CSRs would compute other values.
std::string probe_program(const Launch& l) {
  uint32_t knl[abi::kKnlWords] = {};
  knl[abi::knl::WORK_DIM] = l.work_dim;
  for (int d = 0; d < 3; ++d) {
    knl[abi::knl::GLOBAL_SIZE + d] = l.global[d];
    knl[abi::knl::LOCAL_SIZE + d] = l.local[d];
    knl[abi::knl::GLOBAL_OFFSET + d] = l.offset[d];
  }
  std::string s = fmt::format(
      "global uint knl_words[{}] = {{{}}};\n"
      "uint __vt_csr(uint csr) {{\n"
      "  switch (csr) {{\n"
      "    case {}: return {};\n"
      "    case {}: return (uint)(uintptr_t)knl_words;\n"
      "    case {}: return {};\n"
      "    case {}: return {};\n"
      "    case {}: return {};\n"
      "    default: return 0xdeadbeef;\n"
      "  }}\n"
      "}}\n"
      "uint __vt_lane_id(void) {{ return {}; }}\n"
      "kernel void probe(global uint *out) {{\n"
      "  uint i = 0;\n"
      "  out[i++] = get_work_dim();\n",
      abi::kKnlWords, fmt::join(knl, ", "), +abi::csr::TID, l.tid, +abi::csr::KNL, +abi::csr::GIDX,
      l.group[0], +abi::csr::GIDY, l.group[1], +abi::csr::GIDZ, l.group[2], l.lane);
  for (const char* f : kPerDimension)
    for (int d = 0; d <= 3; ++d) s += fmt::format("  out[i++] = {}({});\n", f, d);
  s += "  out[i++] = get_local_linear_id();\n  out[i++] = get_global_linear_id();\n}\n";
  return s;
}

// The OpenCL C definitions (OpenCL C 3.0 s6.15.1) for the launch.
std::vector<uint32_t> expected_values(const Launch& l) {
  const uint32_t linear = l.tid + l.lane;
  const uint32_t local_id[3] = {linear % l.local[0], linear / l.local[0] % l.local[1],
                                linear / (l.local[0] * l.local[1])};
  uint32_t global_id[3];
  for (int d = 0; d < 3; ++d) global_id[d] = l.group[d] * l.local[d] + local_id[d] + l.offset[d];
  std::vector<uint32_t> v = {l.work_dim};
  auto per_dimension = [&](auto value, uint32_t out_of_range) {
    for (int d = 0; d < 3; ++d) v.push_back(value(d));
    v.push_back(out_of_range);
  };
  per_dimension([&](int d) { return l.global[d]; }, 1);
  per_dimension([&](int d) { return l.local[d]; }, 1);
  per_dimension([&](int d) { return l.local[d]; }, 1);
  per_dimension([&](int d) { return l.offset[d]; }, 0);
  per_dimension([&](int d) { return l.global[d] / l.local[d]; }, 1);
  per_dimension([&](int d) { return l.group[d]; }, 0);
  per_dimension([&](int d) { return local_id[d]; }, 0);
  per_dimension([&](int d) { return global_id[d]; }, 0);
  v.push_back(linear);
  v.push_back(((global_id[2] - l.offset[2]) * l.global[1] + (global_id[1] - l.offset[1])) *
                  l.global[0] +
              (global_id[0] - l.offset[0]));
  return v;
}

// out[index] = constant for every store of the kernel; fails on anything else.
std::map<uint64_t, uint64_t> stored_constants(const llvm::Function& kernel) {
  std::map<uint64_t, uint64_t> out;
  const llvm::Value* base = kernel.getArg(0);
  for (const llvm::BasicBlock& block : kernel)
    for (const llvm::Instruction& i : block) {
      const auto* store = llvm::dyn_cast<llvm::StoreInst>(&i);
      if (!store) continue;
      const auto* value = llvm::dyn_cast<llvm::ConstantInt>(store->getValueOperand());
      EXPECT_TRUE(value) << "a stored value that did not fold";
      if (!value) continue;
      uint64_t index = 0;
      const llvm::Value* pointer = store->getPointerOperand();
      if (const auto* gep = llvm::dyn_cast<llvm::GetElementPtrInst>(pointer)) {
        EXPECT_EQ(gep->getNumIndices(), 1u);
        const auto* offset = llvm::dyn_cast<llvm::ConstantInt>(gep->getOperand(1));
        EXPECT_TRUE(offset && gep->getResultElementType()->isIntegerTy(32));
        if (!offset) continue;
        index = offset->getZExtValue();
        pointer = gep->getPointerOperand();
      }
      EXPECT_EQ(pointer, base);
      out[index] = value->getZExtValue();
    }
  return out;
}

void check_launch(const Launch& l) {
  const Built b = build(probe_program(l), with_std("CL3.0"));
  ASSERT_TRUE(b.module);
  const llvm::Function* kernel = b.module->getFunction("probe");
  ASSERT_TRUE(kernel);
  const std::map<uint64_t, uint64_t> stored = stored_constants(*kernel);
  const std::vector<uint32_t> expected = expected_values(l);
  ASSERT_EQ(stored.size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    const std::string what =
        i == 0                      ? "get_work_dim()"
        : i >= 1 + 8 * 4            ? (i == 33 ? "get_local_linear_id()" : "get_global_linear_id()")
                                    : fmt::format("{}({})", kPerDimension[(i - 1) / 4], (i - 1) % 4);
    ASSERT_TRUE(stored.count(i)) << what;
    EXPECT_EQ(stored.at(i), expected[i]) << what;
  }
}

TEST(WorkItem, OneDimension) {
  check_launch({.work_dim = 1,
                .global = {1024, 1, 1},
                .local = {128, 1, 1},
                .offset = {16, 0, 0},
                .group = {5, 0, 0},
                .tid = 64,
                .lane = 9});
}

TEST(WorkItem, TwoDimensions) {
  check_launch({.work_dim = 2,
                .global = {64, 48, 1},
                .local = {16, 8, 1},
                .offset = {3, 5, 0},
                .group = {2, 4, 0},
                .tid = 96,
                .lane = 21});
}

TEST(WorkItem, ThreeDimensions) {
  // Local linear id 16 + 5 = 21 = x 1 + 4 * (y 2 + 3 * z 1).
  check_launch({.work_dim = 3,
                .global = {32, 27, 20},
                .local = {4, 3, 2},
                .offset = {1000, 2000, 3000},
                .group = {5, 6, 7},
                .tid = 16,
                .lane = 5});
}

// A dimension known only at run time still reaches the back end as constant CSR numbers.
TEST(WorkItem, CsrNumbersAreConstantForAnyDimension) {
  const std::string source =
      "kernel void k(global uint *out, uint d) {\n"
      "  out[0] = get_group_id(d);\n"
      "  out[1] = get_global_id(d);\n"
      "  out[2] = get_local_id(d);\n"
      "  out[3] = get_num_groups(d) + get_global_size(d) + get_local_size(d);\n"
      "}\n";
  for (int level = 0; level <= 3; ++level) {
    SCOPED_TRACE(fmt::format("-O{}", level));
    const Built b = build(source, with_std("CL1.2", level));
    ASSERT_TRUE(b.module);
    const auto calls = calls_to(*b.module, "__vt_csr");
    EXPECT_FALSE(calls.empty());
    for (const llvm::CallInst* call : calls) {
      const auto* number = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(0));
      ASSERT_TRUE(number) << "a CSR number that is not a constant";
      const uint64_t csr = number->getZExtValue();
      EXPECT_TRUE(csr == abi::csr::TID || csr == abi::csr::KNL || csr == abi::csr::GIDX ||
                  csr == abi::csr::GIDY || csr == abi::csr::GIDZ)
          << csr;
    }
  }
}

// The compiled kernel, as the disassembler shows it, reads the ABI's CSRs: CSR_TID and CSR_KNL
// for get_local_id, the workgroup id y (and no other) for get_group_id(1).
TEST(WorkItem, CompiledKernelReadsTheAbisCsrs) {
  const cc::Result r =
      cc::compile("kernel void k(global uint *out) { out[get_local_id(0)] = get_group_id(1); }\n",
                  with_std("CL1.2"));
  const std::string text = listing::disassemble(elf::read(r.elf), "k.elf");
  const size_t kernel = text.find("<k>:");
  ASSERT_NE(kernel, std::string::npos) << text;
  const size_t end = text.find(">:", kernel + 4);
  const std::string body = text.substr(kernel, end == std::string::npos ? end : end - kernel);
  std::set<uint64_t> read;
  const std::regex csrr("csrr\t[a-z0-9]+, ([0-9]+)\n");
  for (auto it = std::sregex_iterator(body.begin(), body.end(), csrr); it != std::sregex_iterator();
       ++it)
    read.insert(std::stoull((*it)[1].str()));
  for (const uint64_t csr : {abi::csr::TID, abi::csr::KNL, abi::csr::GIDY})
    EXPECT_TRUE(read.count(csr)) << csr << "\n" << body;
  // The other workgroup ids would be the wrong dimension; the back end's own reads (its lane
  // guard) are CSRs of the table too.
  EXPECT_FALSE(read.count(abi::csr::GIDX) || read.count(abi::csr::GIDZ)) << body;
  for (const uint64_t csr : read) {
    const abi::CsrInfo* info = abi::csr_by_number(static_cast<uint16_t>(csr));
    EXPECT_TRUE(info && info->access != abi::CsrAccess::Absent) << csr;
  }
}

std::vector<uint64_t> barrier_flags(const llvm::Module& module) {
  std::vector<uint64_t> flags;
  for (const llvm::CallInst* call : calls_to(module, "__vt_barrier")) {
    const auto* value = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(0));
    EXPECT_TRUE(value) << "barrier flags that are not a constant";
    flags.push_back(value ? value->getZExtValue() : ~0ull);
  }
  return flags;
}

TEST(WorkItem, BarriersPassTheirFlags) {
  const std::string v12 =
      "kernel void k(local int *l) {\n"
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  barrier(CLK_GLOBAL_MEM_FENCE);\n"
      "  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);\n"
      "}\n";
  const std::string v30 =
      "kernel void k(local int *l) {\n"
      "  work_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  work_group_barrier(CLK_GLOBAL_MEM_FENCE, memory_scope_device);\n"
      "  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);\n"
      "}\n";
  for (int level : {0, 2}) {
    SCOPED_TRACE(fmt::format("-O{}", level));
    const Built b12 = build(v12, with_std("CL1.2", level));
    ASSERT_TRUE(b12.module);
    EXPECT_EQ(barrier_flags(*b12.module), (std::vector<uint64_t>{1, 2, 3}));
    const Built b30 = build(v30, with_std("CL3.0", level));
    ASSERT_TRUE(b30.module);
    EXPECT_EQ(barrier_flags(*b30.module), (std::vector<uint64_t>{1, 2, 3}));
  }
}

TEST(WorkItem, FencesBecomeLlvmFences) {
  const Built b = build(
      "kernel void k(global int *p) {\n"
      "  p[0] = 1; mem_fence(CLK_GLOBAL_MEM_FENCE);\n"
      "  p[1] = 2; read_mem_fence(CLK_LOCAL_MEM_FENCE);\n"
      "  p[2] = 3; write_mem_fence(CLK_GLOBAL_MEM_FENCE);\n"
      "  p[3] = 4;\n"
      "}\n");
  ASSERT_TRUE(b.module);
  std::vector<llvm::AtomicOrdering> orderings;
  for (const llvm::BasicBlock& block : *b.module->getFunction("k"))
    for (const llvm::Instruction& i : block)
      if (const auto* fence = llvm::dyn_cast<llvm::FenceInst>(&i))
        orderings.push_back(fence->getOrdering());
  EXPECT_EQ(orderings,
            (std::vector<llvm::AtomicOrdering>{llvm::AtomicOrdering::SequentiallyConsistent,
                                               llvm::AtomicOrdering::Acquire,
                                               llvm::AtomicOrdering::Release}));
}

}  // namespace
