// The front end (compile_to_llvm_ir, build_module): diagnostics with file:line:column,
// -D and -I, the OpenCL C versions and the device's language level, the builtin library
// linked and inlined, the optimization levels, what the back end receives.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "test_util.h"

namespace {

using namespace ventus::test;
using ventus::cc::Options;
namespace fs = std::filesystem;

constexpr char kSaxpy[] = R"(kernel void saxpy(global float *y, global const float *x, float a, uint n) {
  size_t i = get_global_id(0);
  if (i < n) y[i] = a * x[i] + y[i];
}
)";

TEST(Frontend, ErrorsCarryFileLineColumn) {
  Options options;
  options.file_name = "bad.cl";
  const Ir r = ir_of("kernel void k(global int *p) {\n  p[0] = missing + 1;\n}\n", options);
  EXPECT_EQ(r.text, "");
  EXPECT_TRUE(contains(r.diagnostics, "bad.cl:2:10: error: use of undeclared identifier 'missing'"))
      << r.diagnostics;
  EXPECT_TRUE(contains(r.diagnostics, "1 error generated.")) << r.diagnostics;
}

TEST(Frontend, SeveralErrorsAndTheDefaultFileName) {
  const Ir r = ir_of("kernel void k(global int *p) {\n  p[0] = a;\n  p[1] = b;\n}\n");
  EXPECT_EQ(r.text, "");
  EXPECT_TRUE(contains(r.diagnostics, "<source>:2:10: error:")) << r.diagnostics;
  EXPECT_TRUE(contains(r.diagnostics, "<source>:3:10: error:")) << r.diagnostics;
  EXPECT_TRUE(contains(r.diagnostics, "2 errors generated.")) << r.diagnostics;
}

// Issue 17 item 16: of one warning (same text, any location) the log shows the first 3 with
// their locations and counts the rest, so an error stays near the top: 300 copies took
// 47 KB with the error last. Warnings of other texts are all shown.
TEST(Frontend, RepeatedWarningsAreCountedNotRepeated) {
  std::string source = "kernel void k(global int *out) {\n";
  for (int i = 0; i < 300; ++i) source += fmt::format("  int v{0} = 2.5f; out[{0}] = v{0};\n", i);
  source += "  int w0 = 3.5f, w1 = 3.5f;\n  out[300] = undeclared_value + w0 + w1;\n}\n";
  Options options;
  options.file_name = "many.cl";
  const Ir r = ir_of(source, options);
  EXPECT_EQ(r.text, "");
  const std::string repeated =
      "warning: implicit conversion from 'float' to 'int' changes value "
      "from 2.5 to 2";
  size_t shown = 0;
  for (size_t at = r.diagnostics.find("many.cl:"); at != std::string::npos;
       at = r.diagnostics.find("many.cl:", at + 1))
    shown += r.diagnostics.compare(r.diagnostics.find(' ', at) + 1, repeated.size(), repeated) == 0;
  EXPECT_EQ(shown, 3u) << r.diagnostics;
  EXPECT_TRUE(contains(r.diagnostics,
                       "many.cl:302:12: warning: implicit conversion from 'float' "
                       "to 'int' changes value from 3.5 to 3"))
      << r.diagnostics;
  EXPECT_TRUE(contains(r.diagnostics, "many.cl:302:23: warning:")) << r.diagnostics;
  const size_t error = r.diagnostics.find("many.cl:303:14: error: use of undeclared identifier");
  ASSERT_NE(error, std::string::npos) << r.diagnostics;
  EXPECT_LT(error, 1024u) << r.diagnostics;
  EXPECT_LT(r.diagnostics.size(), 2048u) << r.diagnostics;
  EXPECT_TRUE(contains(r.diagnostics, "note: ... and 297 more like this (not shown): " + repeated))
      << r.diagnostics;
  EXPECT_TRUE(contains(r.diagnostics,
                       "302 warnings and 1 error generated (297 repeated warnings not shown)."))
      << r.diagnostics;
  // The brief's case: 300 double constants (a warning each on a device without fp64; none
  // here, where the error must still come first).
  source = "kernel void k(global float *out) {\n";
  for (int i = 0; i < 300; ++i) source += fmt::format("  out[{0}] = out[{0}] * 1.5;\n", i);
  source += "  out[300] = undeclared_value;\n}\n";
  const Ir doubles = ir_of(source, options);
  EXPECT_LT(doubles.diagnostics.size(), 2048u) << doubles.diagnostics;
  EXPECT_LT(doubles.diagnostics.find("many.cl:302:14: error: use of undeclared identifier"), 1024u)
      << doubles.diagnostics;
}

TEST(Frontend, WarningsPassUnlessWerror) {
  const std::string source = "#warning look here\nkernel void k(global int *p) { p[0] = 1; }\n";
  Options options;
  options.file_name = "w.cl";
  Ir r = ir_of(source, options);
  EXPECT_TRUE(contains(r.text, "spir_kernel")) << r.diagnostics;
  EXPECT_TRUE(contains(r.diagnostics, "w.cl:1:2: warning: look here")) << r.diagnostics;
  EXPECT_TRUE(contains(r.diagnostics, "1 warning generated.")) << r.diagnostics;
  options.extra_args = {"-Werror"};
  r = ir_of(source, options);
  EXPECT_EQ(r.text, "");
  EXPECT_TRUE(contains(r.diagnostics, "w.cl:1:2: error: look here")) << r.diagnostics;
}

TEST(Frontend, DefinesAndIncludeDirectories) {
  const fs::path dir = fs::temp_directory_path() / fmt::format("ventus_cc_inc_{}", getpid());
  fs::create_directories(dir / "sub");
  std::ofstream(dir / "sub" / "values.h") << "#define FROM_HEADER 7\n";
  const std::string source =
      "#include \"values.h\"\n"
      "kernel void k(global int *p) {\n"
      "  p[0] = FROM_DEFINE + FROM_HEADER;\n"
      "#ifdef FLAG\n"
      "  p[1] = FLAG;\n"
      "#endif\n"
      "}\n";
  Options options;
  options.defines = {"FROM_DEFINE=35", "FLAG"};
  options.include_dirs = {(dir / "sub").string()};
  Ir r = ir_of(source, options);
  EXPECT_TRUE(contains(r.text, "store i32 42,")) << r.text << r.diagnostics;
  EXPECT_TRUE(contains(r.text, "store i32 1,")) << r.text;  // -D FLAG defines it as 1

  options.include_dirs.clear();
  r = ir_of(source, options);
  EXPECT_EQ(r.text, "");
  EXPECT_TRUE(contains(r.diagnostics, "<source>:1:10: fatal error: 'values.h' file not found"))
      << r.diagnostics;

  options.include_dirs = {(dir / "sub").string()};
  options.defines = {"FLAG"};
  r = ir_of(source, options);
  EXPECT_TRUE(contains(r.diagnostics, "<source>:3:10: error: use of undeclared identifier 'FROM_DEFINE'"))
      << r.diagnostics;
  fs::remove_all(dir);
}

// The version clang compiled for: the module's opencl.ocl.version {major, minor}.
std::pair<uint64_t, uint64_t> ocl_version(const llvm::Module& module) {
  const llvm::NamedMDNode* node = module.getNamedMetadata("opencl.ocl.version");
  if (!node || node->getNumOperands() != 1) return {0, 0};
  const llvm::MDNode* version = node->getOperand(0);
  auto number = [&](unsigned i) {
    return llvm::mdconst::extract<llvm::ConstantInt>(version->getOperand(i))->getZExtValue();
  };
  return {number(0), number(1)};
}

TEST(Frontend, EveryOpenCLCVersionParses) {
  const std::pair<const char*, std::pair<uint64_t, uint64_t>> versions[] = {
      {"CL1.0", {1, 0}}, {"CL1.1", {1, 1}}, {"CL1.2", {1, 2}},
      {"CL2.0", {2, 0}}, {"CL3.0", {3, 0}}, {"cl3.0", {3, 0}}};
  for (const auto& [std, expected] : versions) {
    SCOPED_TRACE(std);
    const Built b = build(kSaxpy, with_std(std));
    ASSERT_TRUE(b.module);
    // One version: the library's own (3.0) is not linked in.
    EXPECT_EQ(ocl_version(*b.module), expected);
  }
  const Ir bad = ir_of(kSaxpy, with_std("CL9.9"));
  EXPECT_EQ(bad.text, "");
  EXPECT_TRUE(contains(bad.diagnostics, "error: invalid value 'CL9.9' in '-cl-std=CL9.9'"))
      << bad.diagnostics;
}

TEST(Frontend, VersionDecidesWhichBuiltinsExist) {
  // get_global_linear_id is OpenCL C 2.0: declared (and in the library) for CL3.0, an
  // implicit declaration error for CL1.2.
  const std::string source =
      "kernel void k(global uint *p) {\n  p[get_global_linear_id()] = 1;\n}\n";
  const Ir v30 = ir_of(source, with_std("CL3.0"));
  EXPECT_TRUE(contains(v30.text, "spir_kernel")) << v30.diagnostics;
  EXPECT_FALSE(contains(v30.text, "@_Z20get_global_linear_idv")) << v30.text;
  const Ir v12 = ir_of(source, with_std("CL1.2"));
  EXPECT_EQ(v12.text, "");
  EXPECT_TRUE(contains(v12.diagnostics, "<source>:2:5: error:")) << v12.diagnostics;
}

// The device's extensions and features, as the preprocessor sees them.
TEST(Frontend, DeviceLanguageLevel) {
  struct Macro {
    const char* name;
    bool cl12, cl30;
  };
  const Macro macros[] = {
      {"cl_khr_global_int32_base_atomics", true, true},
      {"cl_khr_global_int32_extended_atomics", true, true},
      {"cl_khr_local_int32_base_atomics", true, true},
      {"cl_khr_local_int32_extended_atomics", true, true},
      {"cl_khr_byte_addressable_store", true, true},
      {"cl_khr_fp64", true, true},
      {"cl_khr_fp16", true, true},
      {"cl_khr_int64_base_atomics", false, false},
      {"cl_khr_subgroups", false, false},
      {"cl_khr_subgroup_ballot", false, false},
      {"cl_khr_extended_bit_ops", false, false},
      {"__IMAGE_SUPPORT__", false, false},
      {"__opencl_c_int64", true, true},
      {"__opencl_c_generic_address_space", false, false},
      {"__opencl_c_fp64", false, true},
      {"__opencl_c_fp16", false, false},  // not a feature of clang 15: cl_khr_fp16 is the switch
      {"__opencl_c_images", false, false},
      {"__opencl_c_pipes", false, false},
      {"__opencl_c_subgroups", false, false},
      {"__opencl_c_device_enqueue", false, false},
      {"__opencl_c_work_group_collective_functions", false, false},
      {"__opencl_c_program_scope_global_variables", false, true},
      {"__opencl_c_atomic_order_seq_cst", false, true},
      {"__opencl_c_atomic_scope_device", false, true},
  };
  for (const char* std : {"CL1.2", "CL3.0"}) {
    std::string source;
    for (const Macro& m : macros) {
      const bool expected = std == std::string("CL1.2") ? m.cl12 : m.cl30;
      source += fmt::format("#if defined({0}) != {1}\n#error {0} should be {2}\n#endif\n", m.name,
                            expected ? 1 : 0, expected ? "defined" : "undefined");
    }
    source += "kernel void k(global int *p) { p[0] = 1; }\n";
    const Ir r = ir_of(source, with_std(std));
    EXPECT_TRUE(contains(r.text, "spir_kernel")) << std << ":\n" << r.diagnostics;
  }
  // With cl_khr_fp64, double compiles (in every -cl-std, without a pragma); without the
  // generic address space, an unqualified pointer is private in OpenCL C 3.0 and does not
  // take a global address.
  for (const char* std : {"CL1.2", "CL3.0"}) {
    const Ir d = ir_of("kernel void k(global float *p) { double d = p[0]; p[0] = d * 0.1; }\n",
                       with_std(std));
    EXPECT_TRUE(contains(d.text, "fmul double")) << std << ":\n" << d.diagnostics;
  }
  // With cl_khr_fp16 (its pragma, as OpenCL 1.2 requires), half arithmetic compiles: the
  // multiply and add (fmuladd) reach the back end as half operations (the device's fp16
  // instructions), sqrt leaves the front end promoted to float.
  for (const char* std : {"CL1.2", "CL3.0"}) {
    const Ir h = ir_of(
        "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
        "kernel void k(global half *p) { p[0] = p[0] * p[1] + sqrt(p[2]); }\n",
        with_std(std));
    EXPECT_TRUE(contains(h.text, "fmul half")) << std << ":\n" << h.text << h.diagnostics;
    EXPECT_TRUE(contains(h.text, "fadd half")) << std << ":\n" << h.text;
    EXPECT_TRUE(contains(h.text, "@llvm.sqrt.f32")) << std << ":\n" << h.text;
    EXPECT_FALSE(contains(h.text, "fmuladd")) << std << ":\n" << h.text;
    EXPECT_FALSE(contains(h.text, "fpext half")) << std << ":\n" << h.text;
  }
  Ir r = ir_of("kernel void k(global int *p) { int *q = p; q[0] = 1; }\n", with_std("CL3.0"));
  EXPECT_EQ(r.text, "");
  EXPECT_TRUE(contains(r.diagnostics, "changes address space of pointer")) << r.diagnostics;
}

TEST(Frontend, TargetAndDataLayout) {
  const Ir r = ir_of(kSaxpy);
  EXPECT_TRUE(contains(r.text, "target datalayout = \"e-m:e-p:32:32-i64:64-n32-S128\"")) << r.text;
  EXPECT_TRUE(contains(r.text, "target triple = \"spir-unknown-unknown\"")) << r.text;
}

// After -O1..-O3 the library's get_global_id is linked, inlined and gone; what is left
// reads the CSRs (group id x 0x808, the metadata buffer address 0x803, CSR_TID 0x800).
TEST(Frontend, LibraryIsLinkedAndInlined) {
  for (const char* std : {"CL1.2", "CL3.0"})
    for (int level = 1; level <= 3; ++level) {
      SCOPED_TRACE(fmt::format("{} -O{}", std, level));
      const Ir r = ir_of(kSaxpy, with_std(std, level));
      EXPECT_TRUE(contains(r.text, "spir_kernel void @saxpy")) << r.diagnostics;
      EXPECT_FALSE(contains(r.text, "@_Z13get_global_idj")) << r.text;
      const Built b = build(kSaxpy, with_std(std, level));
      std::vector<uint64_t> csrs;
      for (const llvm::CallInst* call : calls_to(*b.module, "__vt_csr")) {
        const auto* number = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(0));
        ASSERT_TRUE(number) << "a CSR number that is not a constant";
        csrs.push_back(number->getZExtValue());
      }
      std::sort(csrs.begin(), csrs.end());
      EXPECT_EQ(csrs, (std::vector<uint64_t>{0x800, 0x803, 0x808}));
      EXPECT_EQ(calls_to(*b.module, "__vt_lane_id").size(), 1u);
    }
}

// -O0 runs the always-inliner and removes dead functions, nothing else: the library's
// functions (always_inline) are inlined, the program's own calls stay, nothing is optnone.
TEST(Frontend, O0InlinesOnlyTheLibrary) {
  const std::string source =
      "int twice(int x) { return 2 * x; }\n"
      "int unused(int x) { return x; }\n"
      "kernel void k(global int *p) { p[get_global_id(0)] = twice(p[0]); }\n";
  const Ir o0 = ir_of(source, with_std("CL1.2", 0));
  EXPECT_TRUE(contains(o0.text, "define internal spir_func i32 @twice")) << o0.text << o0.diagnostics;
  EXPECT_TRUE(contains(o0.text, "call spir_func i32 @twice")) << o0.text;
  EXPECT_TRUE(contains(o0.text, "define dso_local spir_kernel void @k")) << o0.text;
  EXPECT_FALSE(contains(o0.text, "@unused")) << o0.text;
  EXPECT_FALSE(contains(o0.text, "@_Z13get_global_idj")) << o0.text;
  EXPECT_FALSE(contains(o0.text, "optnone")) << o0.text;
  EXPECT_TRUE(contains(o0.text, "alloca")) << o0.text;  // unoptimized
  const Ir o2 = ir_of(source, with_std("CL1.2", 2));
  EXPECT_FALSE(contains(o2.text, "@twice")) << o2.text;
  EXPECT_FALSE(contains(o2.text, "alloca")) << o2.text;
  Options cl_opt_disable;
  cl_opt_disable.extra_args = {"-cl-opt-disable"};
  EXPECT_TRUE(contains(ir_of(source, cl_opt_disable).text, "call spir_func i32 @twice"));
}

TEST(Frontend, BadOptionsAreDiagnostics) {
  Options options;
  options.opt_level = 7;
  Ir r = ir_of(kSaxpy, options);
  EXPECT_EQ(r.text, "");
  EXPECT_TRUE(contains(r.diagnostics, "error: invalid optimization level -O7")) << r.diagnostics;
  options = {};
  options.extra_args = {"-fno-such-option"};
  r = ir_of(kSaxpy, options);
  EXPECT_EQ(r.text, "");
  EXPECT_TRUE(contains(r.diagnostics, "error: unknown argument: '-fno-such-option'")) << r.diagnostics;
  options.extra_args = {"second.cl"};
  r = ir_of(kSaxpy, options);
  EXPECT_EQ(r.text, "");
  EXPECT_TRUE(contains(r.diagnostics, "error: expected one OpenCL C source")) << r.diagnostics;
  options.extra_args = {"-cl-fast-relaxed-math", "-cl-mad-enable", "-w"};
  r = ir_of(kSaxpy, options);
  EXPECT_TRUE(contains(r.text, "spir_kernel")) << r.diagnostics;
}

TEST(Frontend, CallToAnUndefinedFunctionIsAnError) {
  Options options;
  options.file_name = "k.cl";
  const Ir r = ir_of(
      "int helper(int);\nkernel void k(global int *p) {\n  p[0] = helper(p[1]);\n}\n", options);
  EXPECT_EQ(r.text, "");
  EXPECT_TRUE(contains(r.diagnostics, "k.cl:3:10: error: call to 'helper', which the Ventus "
                                      "builtin library does not define"))
      << r.diagnostics;
}

// Kernel metadata words are loaded once: a grid-stride loop reads get_global_size
// outside the loop, although the loop stores to global memory.
TEST(Frontend, MetadataLoadsAreInvariant) {
  const Built b = build(
      "kernel void fill(global int *p, uint n) {\n"
      "  for (size_t i = get_global_id(0); i < n; i += get_global_size(0)) p[i] = 0;\n"
      "}\n");
  ASSERT_TRUE(b.module);
  const llvm::Function* kernel = b.module->getFunction("fill");
  ASSERT_TRUE(kernel);
  llvm::DominatorTree dominators(const_cast<llvm::Function&>(*kernel));
  llvm::LoopInfo loops(dominators);
  ASSERT_EQ(loops.getTopLevelLoops().size(), 1u);
  int invariant_loads = 0;
  for (const llvm::BasicBlock& block : *kernel)
    for (const llvm::Instruction& i : block)
      if (llvm::isa<llvm::LoadInst>(i)) {
        EXPECT_TRUE(i.hasMetadata(llvm::LLVMContext::MD_invariant_load));
        EXPECT_EQ(loops.getLoopFor(&block), nullptr) << "a metadata load inside the loop";
        ++invariant_loads;
      }
  EXPECT_GE(invariant_loads, 2);  // local size, global offset, global size
}

// clang 15 emits an invalid bitcast for __atomic_* builtins on __global pointers; its own
// verifier would abort the process. The front end reports it at the line instead.
TEST(Frontend, InvalidIrFromClangIsADiagnostic) {
  Options options;
  options.file_name = "atomic.cl";
  const std::string source =
      "kernel void k(global int *p) {\n"
      "  __atomic_fetch_add(p, 1, __ATOMIC_RELAXED);\n"
      "}\n";
  const Ir r = ir_of(source, options);
  EXPECT_EQ(r.text, "");
  EXPECT_TRUE(contains(r.diagnostics, "atomic.cl:2:3: error: internal compiler error: clang 15 "
                                      "generated invalid LLVM IR"))
      << r.diagnostics;
  const ventus::cc::Result compiled = ventus::cc::compile(source, options);
  EXPECT_FALSE(compiled.ok);
  EXPECT_TRUE(contains(compiled.diagnostics, "atomic.cl:2:3: error:")) << compiled.diagnostics;
}

TEST(Frontend, CompileReportsFrontEndErrorsWithoutThrowing) {
  Options options;
  options.file_name = "bad.cl";
  const ventus::cc::Result r = ventus::cc::compile("kernel void k( {\n", options);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(r.elf.empty());
  EXPECT_TRUE(contains(r.diagnostics, "bad.cl:1:16: error: expected parameter declarator")) << r.diagnostics;
  // A good kernel: whatever the back end makes of it, an answer and no exception.
  const ventus::cc::Result good = ventus::cc::compile(kSaxpy, options);
  if (!good.ok) {
    EXPECT_FALSE(good.diagnostics.empty());
  }
}

// Every compile has its own clang instance and LLVM context: compiles on several threads
// give the same IR as one after the other.
TEST(Frontend, ConcurrentCompilesAgree) {
  std::vector<std::string> sources, expected;
  for (int k = 0; k < 4; ++k) {
    sources.push_back(fmt::format(
        "kernel void k{0}(global int *p) {{ p[get_global_id(0)] = {0} * get_local_id(0); }}\n", k));
    expected.push_back(ir_of(sources.back()).text);
    ASSERT_TRUE(contains(expected.back(), fmt::format("@k{}", k)));
  }
  std::vector<std::string> results(sources.size() * 3);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < results.size(); ++t)
    threads.emplace_back([&, t] { results[t] = ir_of(sources[t % sources.size()]).text; });
  for (std::thread& t : threads) t.join();
  for (size_t t = 0; t < results.size(); ++t) EXPECT_EQ(results[t], expected[t % sources.size()]);
}

TEST(Frontend, PrintfIsLeftToTheBackEnd) {
  const Ir r = ir_of("kernel void k(global int *p) { printf(\"%d\\n\", p[0]); }\n");
  EXPECT_TRUE(contains(r.text, "call spir_func i32 (ptr addrspace(2), ...) @printf")) << r.text
                                                                                     << r.diagnostics;
}

}  // namespace
