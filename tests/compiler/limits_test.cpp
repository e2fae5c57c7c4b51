// Hostile sources (docs/compiler.md, "Limits and errors"): deep nesting that would overflow
// the caller's stack, LLVM fatal errors and crashes inside the compiler become build
// errors, never the end of the process; every back-end error names the source line.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/Support/ErrorHandling.h>

#include <csignal>
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
  const std::optional<std::string> failure =
      ventus::cc::run_guarded([] { llvm::report_fatal_error("the test's fatal error"); });
  ASSERT_TRUE(failure);
  EXPECT_EQ(*failure, "the test's fatal error");
}

TEST(Limits, CrashBecomesAnError) {
  if (kAddressSanitizer) GTEST_SKIP() << "ASan reports the deliberate crash itself";
  const std::optional<std::string> failure = ventus::cc::run_guarded([] { std::raise(SIGILL); });
  ASSERT_TRUE(failure);
  EXPECT_TRUE(contains(*failure, "internal compiler error: the compiler crashed")) << *failure;
}

TEST(Limits, GuardedWorkThatReturnsIsNoFailure) {
  int runs = 0;
  EXPECT_FALSE(ventus::cc::run_guarded([&] { ++runs; }));
  EXPECT_EQ(runs, 1);
}

TEST(Limits, BracketDepthIsClangsError) {
  // clang bounds parentheses, brackets and braces itself (-fbracket-depth, 256).
  const std::string source = "kernel void k(global int *o, int a) {\n  o[0] = " +
                             std::string(300, '(') + "a" + std::string(300, ')') + ";\n}\n";
  ventus::cc::Options options;
  options.file_name = "paren.cl";
  const ventus::cc::Result r = ventus::cc::compile(source, options);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(contains(r.diagnostics,
                       "paren.cl:2:266: fatal error: bracket nesting level exceeded maximum of 256"))
      << r.diagnostics;
}

}  // namespace
