// GCC-style inline assembly in OpenCL C kernels (docs/compiler.md, "Inline assembly"), in
// the forms the Ventus hardware team's kernels use: .insn, raw mnemonics of the table,
// "r" / "vr" / tied operands, clobbers, several lines; run on the simulator and checked
// against values computed here.
#include <gtest/gtest.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/InstIterator.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "backend.h"
#include "test_util.h"
#include "ventus/compiler.h"
#include "ventus/error.h"
#include "ventus/runtime.h"

namespace {

namespace rt = ventus::rt;

ventus::cc::Result compile(const std::string& source, int opt_level = 2) {
  ventus::cc::Options options;
  options.opt_level = opt_level;
  options.file_name = "asm.cl";
  return ventus::cc::compile(source, options);
}

// Runs kernel `name(in_a, in_b, out, k)` over n work-items and returns out.
std::vector<int32_t> run(const std::string& source, const std::vector<int32_t>& a,
                         const std::vector<int32_t>& b, int32_t k, int opt_level = 2) {
  ventus::cc::Result r = compile(source, opt_level);
  if (!r.ok) throw ventus::Error("compile failed:\n" + r.diagnostics);
  rt::Device device;
  rt::Program program = rt::Program::from_elf_bytes(r.elf);
  rt::Buffer ba = rt::Buffer::from(device, a), bb = rt::Buffer::from(device, b);
  rt::Buffer out(device, 4 * a.size());
  rt::launch(device, program, "k", {static_cast<uint32_t>(a.size())}, {35},
             {ba, bb, out, rt::Arg(k)});
  return out.download<int32_t>();
}

std::vector<int32_t> ramp(size_t n, int32_t mul, int32_t add) {
  std::vector<int32_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<int32_t>(i) * mul + add;
  return v;
}

constexpr size_t kN = 70;  // two workgroups of a full warp and 3 lanes of another

TEST(InlineAsm, InsnWithVsubEncodingTakesGnuOperandOrder) {
  // vsub.vv: OP-V, funct3 0 (OPIVV), funct7 = funct6 000010 | vm 1. GNU's ".insn r" puts
  // the second register into rs1 (vs1), the third into rs2 (vs2): vd = vs2 - vs1.
  const std::string source = R"(
__kernel void k(__global const int* a, __global const int* b, __global int* out, int s) {
  int g = get_global_id(0);
  int x = a[g], y = b[g], d;
  __asm__ __volatile__(".insn r 0x57, 0x0, 0x5, %0, %1, %2" : "=vr"(d) : "vr"(x), "vr"(y));
  out[g] = d;
})";
  const auto a = ramp(kN, 3, -7), b = ramp(kN, -11, 1000);
  for (int opt : {0, 2}) {
    const auto out = run(source, a, b, 0, opt);
    for (size_t i = 0; i < kN; ++i) EXPECT_EQ(out[i], b[i] - a[i]) << "O" << opt << " item " << i;
  }
}

TEST(InlineAsm, RawMnemonicsOfTheTable) {
  const std::string source = R"(
__kernel void k(__global const int* a, __global const int* b, __global int* out, int s) {
  int g = get_global_id(0);
  float x = (float)a[g] / 16.0f, e;
  int sum;
  __asm__ __volatile__("vfexp %0, %1" : "=vr"(e) : "vr"(x));
  __asm__("vadd.vv %0, %1, %2" : "=vr"(sum) : "vr"(a[g]), "vr"(b[g]));
  out[g] = as_int(e) ^ sum;
})";
  const auto a = ramp(kN, 5, -150), b = ramp(kN, 7, 3);
  const auto out = run(source, a, b, 0);
  for (size_t i = 0; i < kN; ++i) {
    const int32_t e_bits = out[i] ^ (a[i] + b[i]);
    float e;
    std::memcpy(&e, &e_bits, 4);
    const float want = std::exp(static_cast<float>(a[i]) / 16.0f);
    EXPECT_LE(std::fabs(e - want), std::fabs(want) * 2e-7f) << "item " << i;
  }
}

TEST(InlineAsm, ScalarOperandsOfUniformValuesStayScalar) {
  const std::string source = R"(
__kernel void k(__global const int* a, __global const int* b, __global int* out, int s) {
  int g = get_global_id(0);
  int t;
  __asm__ __volatile__("add %0, %1, %[twice]\n\tslli %0, %0, %c3" : "=r"(t) : "r"(s), [twice] "r"(s + s), "i"(2));
  out[g] = a[g] + t;
})";
  const ventus::cc::Result r = compile(source);
  ASSERT_TRUE(r.ok) << r.diagnostics;
  // The operands are x registers: a vector register here would not assemble.
  EXPECT_NE(r.assembly.find("\tslli "), std::string::npos);
  const auto a = ramp(kN, 9, 4);
  const auto out = run(source, a, a, 13);
  for (size_t i = 0; i < kN; ++i) EXPECT_EQ(out[i], a[i] + (13 + 26) * 4) << "item " << i;
}

// A loop bounded by the statement's result: a uniform bound loops on scalar branches, a
// per-thread one on vector branches (the extra-lane guard is the one vector branch of both).
TEST(InlineAsm, ResultsAreUniformOnlyWithScalarOperands) {
  const auto vector_branches = [](const std::string& operands) {
    const ventus::cc::Result r = compile(R"(
__kernel void k(__global int* out, int s) {
  int t;
  __asm__ __volatile__("addi %0, %1, 1" : "=r"(t) : )" +
                                         operands + R"();
  for (int i = 0; i < t; ++i) out[get_global_id(0) * 8 + i] = i;
})");
    EXPECT_TRUE(r.ok) << r.diagnostics;
    size_t n = 0;
    for (size_t at = r.assembly.find("\tvb"); at != std::string::npos;
         at = r.assembly.find("\tvb", at + 1))
      ++n;
    return n;
  };
  EXPECT_EQ(vector_branches(R"("r"(s))"), 1u);
  EXPECT_GT(vector_branches(R"("r"(s), "vr"(s))"), 1u);
}

TEST(InlineAsm, TiedAndMatchingOperandsAndSeveralOutputs) {
  const std::string source = R"(
__kernel void k(__global const int* a, __global const int* b, __global int* out, int s) {
  int g = get_global_id(0);
  int acc = a[g], lo, hi, m = b[g];
  __asm__ __volatile__("vadd.vv %0, %0, %1; vadd.vx %0, %0, %2" : "+vr"(acc) : "vr"(b[g]), "r"(s));
  __asm__ __volatile__("vmul.vv %0, %0, %2\n vsub.vv %1, %2, %3" : "=vr"(lo), "=&vr"(hi) : "0"(m), "vr"(acc));
  out[g] = lo * 3 + hi;
})";
  const auto a = ramp(kN, 17, -300), b = ramp(kN, -5, 77);
  // Not -O0: there a kernel argument is reloaded from private memory, per thread, and
  // cannot be an "r" operand (BadOperandsAreClearErrors).
  for (int opt : {1, 2}) {
    const auto out = run(source, a, b, 21, opt);
    for (size_t i = 0; i < kN; ++i) {
      const int32_t acc = a[i] + b[i] + 21;
      // %2 (the input tied to %0) names %0's register, which the vmul has overwritten.
      const int32_t lo = b[i] * b[i], hi = lo - acc;
      EXPECT_EQ(out[i], lo * 3 + hi) << "O" << opt << " item " << i;
    }
  }
}

TEST(InlineAsm, UniqueLabelsInEveryCopyOfAStatement) {
  // %= differs in each copy (the helper is inlined twice), so the labels do not collide.
  const std::string source = R"(
int step(int x) {
  int r;
  __asm__ __volatile__("vadd.vi %0, %1, 1\n\tj .Lskip%=\n\tvadd.vi %0, %0, 7\n.Lskip%=:"
                       : "=&vr"(r) : "vr"(x));
  return r;
}
__kernel void k(__global const int* a, __global const int* b, __global int* out, int s) {
  int g = get_global_id(0);
  out[g] = step(step(a[g]));
})";
  const auto a = ramp(kN, 13, -40);
  const auto out = run(source, a, a, 0);
  for (size_t i = 0; i < kN; ++i) EXPECT_EQ(out[i], a[i] + 2) << "item " << i;
}

TEST(InlineAsm, MemoryClobberKeepsStoresAndLoadsInOrder) {
  // The asm writes through the pointer it is given; "memory" tells the compiler the
  // stored value must be read again afterwards.
  const std::string source = R"CL(
__kernel void k(__global const int* a, __global const int* b, __global int* out, int s) {
  int g = get_global_id(0);
  out[g] = a[g];
  __global int* p = out + g;
  __asm__ __volatile__("vsw12.v %0, 0(%1)" : : "vr"(b[g]), "vr"(p) : "memory");
  out[g] = out[g] + 1;
})CL";
  const auto a = ramp(kN, 2, 1), b = ramp(kN, 3, 5);
  const auto out = run(source, a, b, 0);
  for (size_t i = 0; i < kN; ++i) EXPECT_EQ(out[i], b[i] + 1) << "item " << i;
}

TEST(InlineAsm, AnUnknownMnemonicIsTheUsersError) {
  const ventus::cc::Result r = compile(R"(
__kernel void k(__global int* out) {
  int v = out[get_global_id(0)], d;
  __asm__ __volatile__("vfrobnicate.vv %0, %1, %1" : "=vr"(d) : "vr"(v));
  out[get_global_id(0)] = d;
})");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.diagnostics.find("asm.cl:4:3: error: the inline assembly in kernel 'k' does not "
                               "assemble"),
            std::string::npos)
      << r.diagnostics;
  EXPECT_NE(r.diagnostics.find("vfrobnicate"), std::string::npos) << r.diagnostics;
  EXPECT_EQ(r.diagnostics.find("internal compiler error"), std::string::npos) << r.diagnostics;
}

TEST(InlineAsm, AnInsnOfNoInstructionIsTheUsersError) {
  const ventus::cc::Result r = compile(R"(
__kernel void k(__global int* out) {
  int v = out[get_global_id(0)], d;
  __asm__ __volatile__(".insn r 0x57, 0x7, 0x7f, %0, %1, %1" : "=vr"(d) : "vr"(v));
  out[get_global_id(0)] = d;
})");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.diagnostics.find("asm.cl:4:3: error: the inline assembly in kernel 'k'"),
            std::string::npos)
      << r.diagnostics;
  EXPECT_NE(r.diagnostics.find(".insn r 0x57, 0x7, 0x7f"), std::string::npos) << r.diagnostics;
}

TEST(InlineAsm, BadOperandsAreClearErrors) {
  struct Case {
    const char* body;
    const char* message;
  } cases[] = {
      {R"(__asm__("add %0, %1, %1" : "=r"(d) : "r"(v));)",
       "has a value that differs between threads"},
      {R"(__asm__("vadd.vv %0, %1, %3" : "=vr"(d) : "vr"(v));)", "invalid operand number"},
      {R"(__asm__("vadd.vv %0, %1, %1" : "=vr"(d) : "m"(v));)", "constraint"},
      {R"(__asm__("vadd.vv %0, %1, %z1" : "=vr"(d) : "vr"(v));)", "operand modifier"},
  };
  for (const Case& c : cases) {
    const ventus::cc::Result r = compile(std::string(R"(
__kernel void k(__global int* out) {
  int v = out[get_global_id(0)], d;
  )") + c.body + R"(
  out[get_global_id(0)] = d;
})");
    EXPECT_FALSE(r.ok) << c.body;
    EXPECT_NE(r.diagnostics.find("asm.cl:4:"), std::string::npos) << r.diagnostics;
    EXPECT_NE(r.diagnostics.find(c.message), std::string::npos) << r.diagnostics;
  }
}

// The statement's lines in the assembly of `source` with `clobbers` (",~{t0}"...) added to
// its constraints: clang accepts no register names in clobbers for its SPIR target, so the
// test adds them to the module, as a front end that accepted them would.
std::string asm_lines(const std::string& source, const std::string& clobbers) {
  ventus::test::Built built = ventus::test::build(source);
  for (llvm::Function& f : *built.module)
    for (llvm::Instruction& inst : llvm::instructions(f))
      if (auto* call = llvm::dyn_cast<llvm::CallInst>(&inst); call && call->isInlineAsm()) {
        auto* old = llvm::cast<llvm::InlineAsm>(call->getCalledOperand());
        call->setCalledOperand(llvm::InlineAsm::get(old->getFunctionType(), old->getAsmString(),
                                                    old->getConstraintString() + clobbers,
                                                    old->hasSideEffects()));
      }
  const std::string assembly = ventus::cc::backend::generate_assembly(*built.module, 2);
  const size_t begin = assembly.find("# inline assembly at ");
  const size_t end = assembly.find("# end of inline assembly", begin);
  EXPECT_NE(end, std::string::npos) << assembly;
  return assembly.substr(assembly.find('\n', begin) + 1, end - assembly.find('\n', begin) - 1);
}

// The registers named in an instruction line after its mnemonic.
std::vector<std::string> registers_of(const std::string& line) {
  std::vector<std::string> out;
  std::string rest = line.substr(line.find_first_not_of(" \t"));
  rest = rest.substr(rest.find(' ') + 1);
  for (size_t start = 0; start < rest.size();) {
    size_t comma = rest.find(',', start);
    if (comma == std::string::npos) comma = rest.size();
    std::string r = rest.substr(start, comma - start);
    r.erase(0, r.find_first_not_of(" \t\n"));
    r.erase(r.find_last_not_of(" \t\n") + 1);
    out.push_back(r);
    start = comma + 1;
  }
  return out;
}

TEST(InlineAsm, ClobberedRegistersHoldNoOperand) {
  const std::string scalar = R"(
__kernel void k(__global int* out, int s, int t) {
  int d;
  __asm__ __volatile__("add %0, %1, %2" : "=r"(d) : "r"(s), "r"(t));
  out[get_global_id(0)] = d;
})";
  const std::string vector = R"(
__kernel void k(__global int* out) {
  int v = out[get_global_id(0)], d;
  __asm__ __volatile__("vadd.vv %0, %1, %1" : "=vr"(d) : "vr"(v));
  out[get_global_id(0)] = d;
})";
  for (const std::string& source : {scalar, vector}) {
    // The registers chosen without clobbers, then clobbered: none may be chosen again.
    const std::vector<std::string> chosen = registers_of(asm_lines(source, ""));
    ASSERT_FALSE(chosen.empty());
    std::string clobbers;
    for (const std::string& r : chosen) clobbers += ",~{" + r + "}";
    const std::vector<std::string> now = registers_of(asm_lines(source, clobbers));
    for (const std::string& r : now)
      EXPECT_EQ(std::find(chosen.begin(), chosen.end(), r), chosen.end())
          << r << " is clobbered (" << clobbers << ")";
  }
}

}  // namespace
