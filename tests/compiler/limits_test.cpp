// Hostile sources (docs/compiler.md, "Limits and errors"): deep nesting that would overflow
// the caller's stack, LLVM fatal errors and crashes inside the compiler become build
// errors, never the end of the process; every back-end error names the source line.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/Support/ErrorHandling.h>

#include <cctype>
#include <csignal>
#include <sstream>
#include <stdexcept>
#include <string>

#include "guard.h"
#include "test_util.h"

namespace {

using namespace ventus::test;

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif

// A kernel storing the sum of `terms` copies of its argument: clang's parser, Sema and code
// generation recurse once per term (a left-deep tree).
std::string long_sum(int terms) {
  std::string sum = "a";
  for (int i = 1; i < terms; ++i) sum += "+a";
  return "kernel void k(global int *o, int a) {\n  o[0] = " + sum + ";\n}\n";
}

TEST(Limits, SixtyThousandTermSumCompiles) {
  // Overflowed the caller's 8 MiB stack inside clang (a dead process) before the compiler
  // ran on a thread of its own.
  ventus::cc::Options options;
  options.file_name = "sum.cl";
  const ventus::cc::Result r = ventus::cc::compile(long_sum(60000), options);
  EXPECT_TRUE(r.ok) << r.diagnostics;
  EXPECT_FALSE(r.elf.empty());
}

TEST(Limits, StackOverflowBecomesAnError) {
  if (kAddressSanitizer)
    GTEST_SKIP() << "the abandoned frames of the overflowed compilation are leaks for LSan";
  // The same pipeline on an 8 MiB stack: the guard page stops clang, the compilation
  // reports it, and the process compiles on.
  const std::string source = long_sum(60000);
  std::string diagnostics;
  const std::optional<std::string> failure = ventus::cc::run_guarded(
      [&] {
        llvm::LLVMContext context;
        ventus::cc::frontend::build_module(source, {}, context, diagnostics);
      },
      size_t{8} << 20);
  ASSERT_TRUE(failure);
  EXPECT_EQ(*failure, "compilation ran out of stack: expression or statement nested too deeply");
  const ventus::cc::Result after = ventus::cc::compile(long_sum(10));
  EXPECT_TRUE(after.ok) << after.diagnostics;
}

TEST(Limits, FatalErrorBecomesAnError) {
  // A short message: LLVM's copy of it (a std::string in report_fatal_error's abandoned
  // frame) then needs no heap, which LeakSanitizer would report.
  const std::optional<std::string> failure =
      ventus::cc::run_guarded([] { llvm::report_fatal_error("test failure"); });
  ASSERT_TRUE(failure);
  EXPECT_EQ(*failure, "test failure");
}

TEST(Limits, CrashBecomesAnError) {
  if (kAddressSanitizer) GTEST_SKIP() << "ASan reports the deliberate crash itself";
  const std::optional<std::string> failure = ventus::cc::run_guarded([] { std::raise(SIGILL); });
  ASSERT_TRUE(failure);
  EXPECT_TRUE(contains(*failure, "internal compiler error: the compiler crashed")) << *failure;
}

TEST(Limits, EscapingExceptionBecomesAnError) {
  // Out of the thread's function it would be std::terminate.
  const std::optional<std::string> failure =
      ventus::cc::run_guarded([] { throw std::runtime_error("thrown"); });
  ASSERT_TRUE(failure);
  EXPECT_EQ(*failure, "internal compiler error: thrown");
}

TEST(Limits, GuardedWorkThatReturnsIsNoFailure) {
  int runs = 0;
  EXPECT_FALSE(ventus::cc::run_guarded([&] { ++runs; }));
  EXPECT_EQ(runs, 1);
}

TEST(Limits, BracketDepthIsClangsError) {
  // clang bounds parentheses, brackets and braces itself (-fbracket-depth, 256).
  const std::string source =
      "kernel void k(global int *o, int a) {\n  o[0] = " + std::string(300, '(') + "a" +
      std::string(300, ')') + ";\n}\n";
  ventus::cc::Options options;
  options.file_name = "paren.cl";
  const ventus::cc::Result r = ventus::cc::compile(source, options);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(contains(
      r.diagnostics, "paren.cl:2:266: fatal error: bracket nesting level exceeded maximum of 256"))
      << r.diagnostics;
}

// The diagnostics of compiling `source` as `file_name` (CL2.0: program-scope variables),
// which must fail; every error line must start with "file_name:LINE".
std::string errors_of(const std::string& file_name, const std::string& source, int opt_level = 2) {
  ventus::cc::Options options;
  options.file_name = file_name;
  options.cl_std = "CL2.0";
  options.opt_level = opt_level;
  const ventus::cc::Result r = ventus::cc::compile(source, options);
  EXPECT_FALSE(r.ok) << source;
  std::istringstream lines(r.diagnostics);
  for (std::string line; std::getline(lines, line);)
    if (contains(line, "error:")) {
      EXPECT_TRUE(line.rfind(file_name + ":", 0) == 0 &&
                  std::isdigit(static_cast<unsigned char>(line[file_name.size() + 1])))
          << "no source line: " << line;
    }
  EXPECT_FALSE(contains(r.diagnostics, ".s:")) << "a position in the generated assembly\n"
                                               << r.diagnostics;
  return r.diagnostics;
}

TEST(Diagnostics, InlineAssemblyIsNamedAtItsStatement) {
  // Was "the Ventus back end cannot compile an indirect call"; an instruction the table
  // does not know is the user's error at the statement, not an assembler position.
  const std::string d = errors_of("asm.cl",
                                  "kernel void k(global int *o) {\n"
                                  "  int x;\n"
                                  "  __asm__ volatile(\"lii %0, 1\" : \"=r\"(x));\n"
                                  "  o[0] = x;\n"
                                  "}\n");
  EXPECT_TRUE(contains(d, "asm.cl:3:3: error: the inline assembly in kernel 'k' does not "
                          "assemble: unknown instruction 'lii'"))
      << d;
  EXPECT_FALSE(contains(d, "internal compiler error")) << d;
}

TEST(Diagnostics, RecursionNamesTheFunctionAndItsLine) {
  for (int level : {0, 2}) {
    const std::string d = errors_of("rec.cl",
                                    "int fib(int n) {\n"
                                    "  return n <= 1 ? n : fib(n - 1) + fib(n - 2);\n"
                                    "}\n"
                                    "kernel void k(global int *o) { o[0] = fib(o[1]); }\n",
                                    level);
    EXPECT_TRUE(contains(d, "rec.cl:1: error: function 'fib' is recursive (fib -> fib)")) << d;
  }
  const std::string d = errors_of("mutual.cl",
                                  "int odd(int n);\n"
                                  "int even(int n) { return n == 0 ? 1 : odd(n - 1) * 3 + 1; }\n"
                                  "int odd(int n) { return n == 0 ? 0 : even(n - 1) * 5 + 2; }\n"
                                  "kernel void k(global int *o) { o[0] = even(o[1]); }\n",
                                  0);
  EXPECT_TRUE(contains(d, "mutual.cl:2: error: function 'even' is recursive (even -> odd -> even)"))
      << d;
}

TEST(Diagnostics, LargeProgramScopeDataIsAnErrorAtTheDeclaration) {
  // Was "cbig.cl.s:42:8: error: 319999988 bytes is too large", a generated-assembly position.
  std::string d = errors_of("table.cl",
                            "constant int table[80000000] = {1, 2, 3};\n"
                            "kernel void k(global int *o) { o[0] = table[o[1]]; }\n");
  EXPECT_TRUE(contains(d,
                       "table.cl:1:14: error: program-scope variable 'table' is 320000000 "
                       "bytes; a program's data must fit in 255 MiB"))
      << d;
  // Zero-initialized: accepted before, overlapping the buffers at 0x90000000.
  d = errors_of("big.cl",
                "global int big[80000000];\n"
                "kernel void k(global int *o) { big[o[1]] = 1; o[0] = big[o[2]]; }\n");
  EXPECT_TRUE(contains(d, "big.cl:1:12: error: program-scope variable 'big' is 320000000 bytes"))
      << d;
  // Each fits, together they do not: the error is at the one that crosses the limit.
  d = errors_of(
      "two.cl",
      "global int a[40000000];\n"
      "global int b[40000000];\n"
      "kernel void k(global int *o) { a[o[1]] = 1; b[o[2]] = 2; o[0] = a[o[3]] + b[o[4]]; }\n");
  EXPECT_TRUE(contains(d,
                       ":2:12: error: with program-scope variable 'b' (160000000 bytes), the "
                       "program's program-scope data reach 320000000 bytes, more than the 255 "
                       "MiB limit"))
      << d;
  // Passed the back end's check, then the code after it did not fit (no source line).
  d = errors_of("edge.cl",
                "global char big[0x10000000 - 64];\n"
                "kernel void k(global int *o) { big[o[1]] = 1; o[0] = big[o[2]]; }\n");
  EXPECT_TRUE(contains(d, "edge.cl:1:13: error: program-scope variable 'big' is 268435392 bytes"))
      << d;
}

TEST(Diagnostics, LargeLocalDataIsAnError) {
  // 2^31 + 2^31 bytes wrapped the 32-bit local size to 0 before.
  std::string d = errors_of("local.cl",
                            "kernel void k(global int *o) {\n"
                            "  local int a[0x20000000];\n"
                            "  local int b[0x20000000];\n"
                            "  a[o[1]] = 1; b[o[2]] = 2;\n"
                            "  o[0] = a[o[3]] + b[o[4]];\n"
                            "}\n");
  EXPECT_TRUE(contains(d,
                       "error: __local variable 'a' (in 'k') is 2147483648 bytes; a "
                       "workgroup's local memory window is 256 MiB"))
      << d;
}

TEST(Diagnostics, LargePrivateArrayNamesTheFunction) {
  std::string d = errors_of("private.cl",
                            "kernel void k(global int *o) {\n"
                            "  int a[10000000];\n"
                            "  for (int i = 0; i < 10000000; ++i) a[i] = o[i];\n"
                            "  o[0] = a[o[1]];\n"
                            "}\n");
  // 40 MB: more than a launch's 1 GiB of private memory gives one warp of 32 work-items.
  EXPECT_TRUE(contains(d,
                       "private.cl:1: error: kernel 'k' needs at least 40000000 bytes of "
                       "private memory per work-item for its variables; a work-item has at "
                       "most 33554432"))
      << d;
}

TEST(Limits, LongNumericLiteralIsAnError) {
  // 100,000 digits: LLVM 15's conversion to float wrote past a stack buffer (a crash that
  // took the compiling thread's bookkeeping with it: SIGSEGV in pthread_join).
  const std::string digits(100000, '1');
  const std::string d = errors_of("literal.cl", "#define X 0." + digits +
                                                    "\nkernel void k(global float *o) {\n"
                                                    "  o[0] = X;\n}\n");
  EXPECT_TRUE(contains(d,
                       "literal.cl:3:10: error: numeric literal of 100002 characters; at "
                       "most 1024 are supported"))
      << d.substr(0, 300);
  // Long, but within the limit: compiles.
  ventus::cc::Options options;
  const ventus::cc::Result r = ventus::cc::compile(
      "kernel void k(global float *o) { o[0] = 0." + std::string(1000, '3') + "f; }\n", options);
  EXPECT_TRUE(r.ok) << r.diagnostics;
}

}  // namespace
