// Separate compilation and in-memory headers (clCompileProgram / clLinkProgram):
// cc::compile_object, cc::link, cc::is_object and Options::headers. Linked programs run on
// the simulated device against host arithmetic; compile(source) must give exactly what
// link({compile_object(source)}) gives; bad objects and bad programs give diagnostics that
// name the culprit, never a crash.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/raw_ostream.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>

#include "test_util.h"
#include "ventus/compiler.h"
#include "ventus/error.h"
#include "ventus/runtime.h"

namespace {

namespace cc = ventus::cc;
namespace rt = ventus::rt;
using ventus::test::contains;
using Bytes = std::vector<uint8_t>;

cc::Options named(const std::string& file_name, int opt_level = 2) {
  cc::Options options;
  options.file_name = file_name;
  options.opt_level = opt_level;
  return options;
}

Bytes object_of(const std::string& source, const cc::Options& options) {
  cc::Object o = cc::compile_object(source, options);
  EXPECT_TRUE(o.ok) << o.diagnostics;
  EXPECT_TRUE(o.diagnostics.empty()) << o.diagnostics;
  return o.bitcode;
}

// The kernel calls a function and reads a table of another unit; each unit has its own
// static function of the same name.
constexpr char kMain[] = R"(int scale(int x);
extern constant int offsets[4];
static int pick(int x) { return x & 3; }
kernel void apply(global const int* in, global int* out) {
  size_t i = get_global_id(0);
  out[i] = scale(in[i]) + offsets[pick(in[i])];
}
)";
constexpr char kHelpers[] = R"(constant int offsets[4] = {1000, -2000, 30000, -7};
static int pick(int x) { return x >> 2; }
int scale(int x) { return 3 * x - pick(x); }
)";

int32_t apply_reference(int32_t x) {
  static const int32_t offsets[4] = {1000, -2000, 30000, -7};
  return 3 * x - (x >> 2) + offsets[x & 3];
}

void run_apply(const std::vector<uint8_t>& elf) {
  rt::Device device;
  rt::Program program = rt::Program::from_elf_bytes(elf);
  const uint32_t n = 256;
  std::mt19937 random(5);
  std::vector<int32_t> in(n);
  for (int32_t& x : in) x = static_cast<int32_t>(random() % 200001) - 100000;
  rt::Buffer bin = rt::Buffer::from(device, in);
  rt::Buffer bout(device, 4 * n);
  rt::launch(device, program, "apply", {n}, {64}, {bin, bout});
  const std::vector<int32_t> out = bout.download<int32_t>();
  for (uint32_t i = 0; i < n; ++i)
    ASSERT_EQ(out[i], apply_reference(in[i])) << "item " << i << ", in " << in[i];
}

class SeparateLevels : public ::testing::TestWithParam<int> {};

TEST_P(SeparateLevels, KernelCallsAFunctionOfAnotherUnitOnTheDevice) {
  const int opt = GetParam();
  const Bytes a = object_of(kMain, named("main.cl", opt));
  const Bytes b = object_of(kHelpers, named("helpers.cl", opt));
  for (const auto& objects : {std::vector<Bytes>{a, b}, std::vector<Bytes>{b, a}}) {
    const cc::Result r = cc::link(objects, named("program", opt));
    ASSERT_TRUE(r.ok) << r.diagnostics;
    EXPECT_TRUE(r.diagnostics.empty()) << r.diagnostics;
    ASSERT_GE(r.elf.size(), 4u);
    EXPECT_EQ(std::string(r.elf.begin(), r.elf.begin() + 4), "\177ELF");
    run_apply(r.elf);
  }
}

INSTANTIATE_TEST_SUITE_P(Separate, SeparateLevels, ::testing::Values(0, 2));

TEST(Separate, ObjectIsUnoptimizedUnlinkedBitcode) {
  const Bytes a = object_of(kMain, named("main.cl"));
  // LLVM's bitcode wrapper (0x0B17C0DE, offset 20, size), the bitcode, "VENTUSOB" and a
  // checksum.
  ASSERT_GE(a.size(), 40u);
  EXPECT_EQ(std::string(a.begin(), a.begin() + 4), "\xDE\xC0\x17\x0B");
  EXPECT_EQ(a[8], 20);
  EXPECT_EQ(std::string(a.begin() + 20, a.begin() + 24), "BC\xC0\xDE");
  const uint32_t size = a[12] | a[13] << 8 | a[14] << 16 | a[15] << 24;
  EXPECT_EQ(a.size(), 20 + size + 16);
  EXPECT_EQ(std::string(a.end() - 16, a.end() - 8), "VENTUSOB");
  EXPECT_TRUE(cc::is_object(a));
  // Read back: the builtin get_global_id is still a declaration (not linked), scale is
  // declared, the kernel and the table external, nothing inlined (clang's IR has allocas).
  llvm::LLVMContext context;
  std::string diagnostics;
  std::unique_ptr<llvm::Module> m = cc::frontend::read_object(a, "a", context, diagnostics);
  ASSERT_TRUE(m) << diagnostics;
  EXPECT_EQ(m->getSourceFileName(), "main.cl");
  const llvm::Function* scale = m->getFunction("scale");
  ASSERT_TRUE(scale);
  EXPECT_TRUE(scale->isDeclaration());
  bool builtin_declared = false;
  for (const llvm::Function& f : *m)
    if (f.getName().contains("get_global_id")) builtin_declared = f.isDeclaration();
  EXPECT_TRUE(builtin_declared);
  const llvm::Function* apply = m->getFunction("apply");
  ASSERT_TRUE(apply && !apply->isDeclaration());
  EXPECT_TRUE(apply->hasExternalLinkage());
  bool has_alloca = false;
  for (const llvm::Instruction& i : apply->getEntryBlock())
    has_alloca |= llvm::isa<llvm::AllocaInst>(i);
  EXPECT_TRUE(has_alloca) << "optimized already";
  // The helpers' non-kernel function stays external (not internalized).
  const Bytes b = object_of(kHelpers, named("helpers.cl"));
  std::unique_ptr<llvm::Module> h = cc::frontend::read_object(b, "b", context, diagnostics);
  ASSERT_TRUE(h) << diagnostics;
  ASSERT_TRUE(h->getFunction("scale"));
  EXPECT_TRUE(h->getFunction("scale")->hasExternalLinkage());
  // 64-bit division is lowered per unit: no i64 sdiv left, a call to __vt_sdiv64.
  const Bytes d =
      object_of("kernel void k(global long* p) { p[0] = p[1] / p[2]; }\n", named("d.cl"));
  std::unique_ptr<llvm::Module> dm = cc::frontend::read_object(d, "d", context, diagnostics);
  ASSERT_TRUE(dm) << diagnostics;
  EXPECT_TRUE(dm->getFunction("__vt_sdiv64"));
  EXPECT_FALSE(contains(cc::frontend::to_text(*dm), "sdiv i64"));
}

// compile(source) == link({compile_object(source)}): the same assembly and ELF bytes.
TEST(Separate, OneObjectLinksToWhatCompileGives) {
  const std::vector<std::string> kernels = {
      R"(kernel void saxpy(global float* y, global const float* x, float a) {
           size_t i = get_global_id(0); y[i] = a * x[i] + y[i]; })",
      R"(int helper(int x) { return x * x + 1; }
         kernel void calls(global int* p) {
           int v = p[get_global_id(0)];
           for (int i = 0; i < v % 5; ++i) v = helper(v) >> 1;
           p[get_global_id(0)] = v; })",
      R"(kernel void reduce(global const int* in, global int* out, local int* s) {
           int lid = get_local_id(0); s[lid] = in[get_global_id(0)];
           barrier(CLK_LOCAL_MEM_FENCE);
           for (int k = get_local_size(0) / 2; k > 0; k >>= 1) {
             if (lid < k) s[lid] += s[lid + k];
             barrier(CLK_LOCAL_MEM_FENCE); }
           if (lid == 0) out[get_group_id(0)] = s[0]; })",
      R"(kernel void div64(global long* p, global float* f) {
           size_t i = get_global_id(0);
           p[i] = p[i] / (p[i + 64] | 1) + p[i] % 7; f[i] = (float)p[i] + sqrt(f[i]);
           f[i] += convert_float(convert_long_sat(f[i])); })",
      R"(kernel void hist(global const uint* in, global uint* bins) {
           atomic_inc(&bins[in[get_global_id(0)] % 16]);
           printf("%d\n", (int)get_global_id(0)); })",
  };
  for (int opt : {0, 1, 2, 3}) {
    for (size_t k = 0; k < kernels.size(); ++k) {
      const cc::Options options = named(fmt::format("k{}.cl", k), opt);
      const cc::Result whole = cc::compile(kernels[k], options);
      ASSERT_TRUE(whole.ok) << whole.diagnostics;
      const cc::Result linked = cc::link({object_of(kernels[k], options)}, options);
      ASSERT_TRUE(linked.ok) << linked.diagnostics;
      EXPECT_EQ(linked.assembly, whole.assembly) << "kernel " << k << " at -O" << opt;
      EXPECT_TRUE(linked.elf == whole.elf) << "kernel " << k << " at -O" << opt;
    }
  }
}

TEST(Separate, DuplicateDefinitionsAreErrors) {
  const Bytes a = object_of(
      "int helper(int x) { return x; }\n"
      "kernel void k(global int* p) { p[0] = helper(p[1]); }\n",
      named("a.cl"));
  const Bytes b = object_of("\nint helper(int x) { return x + 1; }\n", named("b.cl"));
  cc::Result r = cc::link({a, b});
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(r.elf.empty());
  EXPECT_TRUE(contains(r.diagnostics, "b.cl:2: error: duplicate definition of function 'helper'"))
      << r.diagnostics;
  EXPECT_TRUE(contains(r.diagnostics, "a.cl:1: note: the first is here")) << r.diagnostics;
  // Two kernels of one name; the same object twice.
  const Bytes c = object_of("kernel void k(global int* p) { p[0] = 2; }\n", named("c.cl"));
  r = cc::link({a, c});
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(contains(r.diagnostics, "c.cl:1: error: duplicate definition of kernel 'k'"))
      << r.diagnostics;
  r = cc::link({c, c});
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(contains(r.diagnostics, "duplicate definition of kernel 'k'")) << r.diagnostics;
  // Program-scope variables (OpenCL C 2.0).
  cc::Options cl2 = named("g1.cl");
  cl2.cl_std = "CL2.0";
  const Bytes g1 = object_of(
      "global int counter = 1;\nkernel void k1(global int* p) { p[0] = counter; }\n", cl2);
  cl2.file_name = "g2.cl";
  const Bytes g2 = object_of("global int counter = 2;\n", cl2);
  r = cc::link({g2, g1});
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(contains(r.diagnostics, "duplicate definition of variable 'counter'"))
      << r.diagnostics;
}

TEST(Separate, UndefinedAndMismatchedFunctionsAreErrors) {
  const Bytes a = object_of(
      "int helper(int);\nkernel void k(global int* p) {\n"
      "  p[0] = helper(p[1]);\n}\n",
      named("a.cl"));
  const Bytes other = object_of("int unrelated(int x) { return x; }\n", named("other.cl"));
  cc::Result r = cc::link({a, other});
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(contains(r.diagnostics,
                       "a.cl:3:10: error: call to 'helper', which neither the linked objects nor "
                       "the Ventus builtin library defines"))
      << r.diagnostics;
  // Alone, the message of compile.
  r = cc::link({a});
  EXPECT_TRUE(contains(r.diagnostics,
                       "a.cl:3:10: error: call to 'helper', which the Ventus builtin library "
                       "does not define"))
      << r.diagnostics;
  // Defined with other types than the call uses (the names are not mangled).
  const Bytes f = object_of("float helper(float x) { return x; }\n", named("f.cl"));
  r = cc::link({a, f});
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(contains(r.diagnostics,
                       "a.cl:3:10: error: function 'helper' is used with other "
                       "parameter or result types than its definition"))
      << r.diagnostics;
  EXPECT_TRUE(contains(r.diagnostics, "f.cl:1: note: the definition is here")) << r.diagnostics;
}

TEST(Separate, LanguageVersionsMix) {
  cc::Options v3 = named("v3.cl");
  v3.cl_std = "CL3.0";
  const Bytes a = object_of(kMain, named("main.cl"));
  const Bytes b = object_of(kHelpers, v3);
  const cc::Result r = cc::link({a, b});
  ASSERT_TRUE(r.ok) << r.diagnostics;
  run_apply(r.elf);
}

// Bad objects: a diagnostic naming the object, never a crash.
TEST(Separate, BadObjectsAreDiagnosed) {
  const Bytes good = object_of(kMain, named("main.cl"));
  const cc::Result elf = cc::compile(kHelpers + std::string("kernel void z(global int* p) {}\n"));
  ASSERT_TRUE(elf.ok) << elf.diagnostics;
  const std::string source = kMain;
  std::mt19937 random(99);
  Bytes noise(4096);
  for (uint8_t& x : noise) x = static_cast<uint8_t>(random());
  Bytes magic_then_noise = noise;
  magic_then_noise[0] = 'B', magic_then_noise[1] = 'C', magic_then_noise[2] = 0xC0,
  magic_then_noise[3] = 0xDE;
  const std::vector<std::pair<std::string, Bytes>> bad = {
      {"empty", {}},
      {"noise", noise},
      {"magic then noise", magic_then_noise},
      {"ELF", elf.elf},
      {"source", Bytes(source.begin(), source.end())},
      {"half an object", Bytes(good.begin(), good.begin() + good.size() / 2)},
  };
  for (const auto& [what, bytes] : bad) {
    EXPECT_FALSE(cc::is_object(bytes)) << what;
    const cc::Result r = cc::link({good, bytes});
    EXPECT_FALSE(r.ok) << what;
    EXPECT_TRUE(contains(r.diagnostics, "object 2 of 2: error:")) << what << ": " << r.diagnostics;
  }
  EXPECT_FALSE(cc::link({}).ok);
  EXPECT_TRUE(contains(cc::link({}).diagnostics, "error: no objects to link"));

  // The object's bitcode without the header and trailer.
  const Bytes plain(good.begin() + 20, good.end() - 16);
  EXPECT_FALSE(cc::is_object(plain));
  cc::Result r = cc::link({plain});
  EXPECT_TRUE(contains(r.diagnostics, "object 1 of 1: error: LLVM bitcode, not a Ventus object"))
      << r.diagnostics;
  // Bitcode for another target, in the object format, is not a Ventus object either.
  llvm::LLVMContext context;
  llvm::Module host("host.c", context);
  host.setTargetTriple("x86_64-pc-linux-gnu");
  const Bytes x86 = cc::frontend::write_object(host);
  EXPECT_FALSE(cc::is_object(x86));
  r = cc::link({x86});
  EXPECT_TRUE(contains(r.diagnostics,
                       "object 1 of 1: error: not a Ventus object (target "
                       "'x86_64-pc-linux-gnu'"))
      << r.diagnostics;
  // The checksum catches a changed byte (LLVM 15's reader may crash on corrupt bitcode).
  Bytes flipped = good;
  flipped[good.size() / 2] ^= 0x10;
  EXPECT_FALSE(cc::is_object(flipped));
  r = cc::link({flipped});
  EXPECT_TRUE(contains(r.diagnostics, "object 1 of 1: error: corrupt object (checksum mismatch)"))
      << r.diagnostics;
}

// Every truncation at a 4-byte step and random byte mutations of a real object: an error,
// never a crash (without the object checksum, LLVM 15's bitcode reader crashed on the
// 25th mutation). VENTUS_FUZZ_ITERATIONS=N runs more mutations.
TEST(Separate, TruncatedAndMutatedObjects) {
  const Bytes good = object_of(kHelpers, named("helpers.cl"));
  const Bytes main = object_of(kMain, named("main.cl"));
  auto check = [&](const Bytes& bytes, const std::string& what) {
    EXPECT_FALSE(cc::is_object(bytes)) << what;
    const cc::Result r = cc::link({main, bytes});
    EXPECT_FALSE(r.ok) << what;
    EXPECT_TRUE(contains(r.diagnostics, "object 2 of 2: error:")) << what << ": " << r.diagnostics;
  };
  for (size_t n = 0; n < good.size(); n += 4)
    check(Bytes(good.begin(), good.begin() + n), fmt::format("first {} bytes", n));
  const char* env = std::getenv("VENTUS_FUZZ_ITERATIONS");
  const int iterations = env && std::atoi(env) > 0 ? std::atoi(env) : 200;
  std::mt19937 random(2024);
  for (int i = 0; i < iterations; ++i) {
    Bytes bytes = good;
    const int flips = 1 + static_cast<int>(random() % 4);
    for (int f = 0; f < flips; ++f)
      bytes[random() % bytes.size()] ^= static_cast<uint8_t>(1 + random() % 255);
    check(bytes, fmt::format("mutation {}", i));
  }
}

TEST(Headers, InMemoryHeadersAreIncluded) {
  cc::Options options = named("k.cl");
  options.headers = {
      {"scale.h", "#include \"sub/more.h\"\n#define FACTOR (5 * MORE)\n"},
      {"sub/more.h", "#include \"leaf.h\"\n#define MORE (LEAF + 1)\n"},  // next to itself
      {"sub/leaf.h", "#define LEAF 6\n"},
      {"angle.h", "#define ANGLE 1000\n"},
  };
  const std::string source =
      "#include \"scale.h\"\n#include <angle.h>\n"
      "kernel void k(global int* p) { p[0] = FACTOR + ANGLE; }\n";
  const ventus::test::Ir ir = ventus::test::ir_of(source, options);
  EXPECT_TRUE(contains(ir.text, "store i32 1035,")) << ir.diagnostics;
  // compile_object sees them too.
  cc::Object o = cc::compile_object(source, options);
  ASSERT_TRUE(o.ok) << o.diagnostics;
  const cc::Result r = cc::link({o.bitcode}, options);
  ASSERT_TRUE(r.ok) << r.diagnostics;
  // Without them: clang's error.
  const ventus::test::Ir missing = ventus::test::ir_of(source, named("k.cl"));
  EXPECT_TRUE(contains(missing.diagnostics, "k.cl:1:10: fatal error: 'scale.h' file not found"))
      << missing.diagnostics;
}

TEST(Headers, InMemoryHeaderWinsOverARealFile) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / fmt::format("ventus_headers_{}", getpid());
  fs::create_directories(dir / "inc");
  std::ofstream(dir / "v.h") << "#define VALUE 1\n";
  std::ofstream(dir / "inc" / "w.h") << "#define WALUE 2\n";
  std::ofstream(dir / "real.h") << "#define REAL 300\n";
  cc::Options options = named((dir / "k.cl").string());
  options.include_dirs = {(dir / "inc").string()};
  const std::string source =
      "#include \"v.h\"\n#include \"w.h\"\n#include \"real.h\"\n"
      "kernel void k(global int* p) { p[0] = VALUE + WALUE + REAL; }\n";
  ventus::test::Ir ir = ventus::test::ir_of(source, options);
  EXPECT_TRUE(contains(ir.text, "store i32 303,")) << ir.diagnostics;
  options.headers = {{"v.h", "#define VALUE 10\n"}, {"w.h", "#define WALUE 20\n"}};
  ir = ventus::test::ir_of(source, options);
  EXPECT_TRUE(contains(ir.text, "store i32 330,")) << ir.diagnostics;  // real.h still found
  // The same with the source named relative to the current directory.
  options.file_name = fs::relative(dir / "k.cl").string();
  ir = ventus::test::ir_of(source, options);
  EXPECT_TRUE(contains(ir.text, "store i32 330,")) << options.file_name << "\n" << ir.diagnostics;
  fs::remove_all(dir);
}

TEST(Headers, BadHeaderListsAreErrors) {
  cc::Options options = named("k.cl");
  const std::string source = "kernel void k(global int* p) { p[0] = 1; }\n";
  options.headers = {{"a.h", ""}, {"a.h", "x"}};
  cc::Object o = cc::compile_object(source, options);
  EXPECT_FALSE(o.ok);
  EXPECT_TRUE(contains(o.diagnostics, "error: in-memory header 'a.h' given twice"))
      << o.diagnostics;
  options.headers = {{"", ""}};
  EXPECT_TRUE(contains(cc::compile(source, options).diagnostics,
                       "error: an in-memory header without a name"));
  options.headers = {{"a", ""}, {"a/b.h", ""}};
  EXPECT_TRUE(contains(cc::compile(source, options).diagnostics,
                       "error: in-memory header 'a/b.h' conflicts with another"));
}

}  // namespace
