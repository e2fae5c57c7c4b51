// The compiler's correctness suite: one test per tests/cc_vs_pocl/kernels/*.cl (the files
// found at build time). Each file's spec runs on pocl (the reference) and on `ventus cc` +
// the simulated device; the checked buffers must agree within the spec's bounds.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "runner.h"
#include "ventus/error.h"

namespace {

using namespace ventus::clspec;

const std::vector<std::string> kFiles = {
#include "cl_kernel_files.inc"
};

// "vector_add.cl" -> "vector_add": test names are identifiers.
std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param.substr(0, info.param.rfind('.'));
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

class Kernel : public ::testing::TestWithParam<std::string> {
 protected:
  void run(const std::string& path);
};

TEST_P(Kernel, MatchesPocl) {
  const std::string path = std::string(VENTUS_CL_KERNEL_DIR) + "/" + GetParam();
  try {
    run(path);
  } catch (const std::exception& e) {
    FAIL() << e.what();
  }
}

// The Ventus side runs at the default -O2 and at -O0, whose code is very different (no
// inlining, values through the stack, unsimplified control flow).
void Kernel::run(const std::string& path) {
  const std::string source = read_text_file(path);
  const Spec spec = parse(source, path);
  std::string why;
  std::unique_ptr<Runner> pocl = make_pocl_runner(&why);
  if (!pocl) GTEST_SKIP() << "pocl is not available: " << why;
  const std::vector<Buffers> expected = run_all(spec, source, *pocl);
  const std::string vacuous = vacuous_checks(spec, expected);
  ASSERT_TRUE(vacuous.empty()) << vacuous;
  std::string report, previous_error;
  for (int level : {2, 0}) {
    VentusOptions options;
    options.opt_level = level;
    std::unique_ptr<Runner> ventus = make_ventus_runner(&why, options);
    // The reference side still ran, so the kernel and its spec stay valid.
    if (!ventus) GTEST_SKIP() << "ran on pocl only: " << why;
    const std::string name = "ventus -O" + std::to_string(level);
    try {
      const std::vector<Buffers> actual = run_all(spec, source, *ventus);
      report += compare_results(spec, expected, actual, "pocl", name);
    } catch (const std::exception& e) {
      // The same compiler error at both levels is reported once.
      if (e.what() != previous_error) report += name + ": " + e.what() + "\n";
      previous_error = e.what();
    }
  }
  EXPECT_TRUE(report.empty()) << path << ": pocl and ventus differ:\n" << report;
}

INSTANTIATE_TEST_SUITE_P(cc_vs_pocl, Kernel, ::testing::ValuesIn(kFiles), test_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Kernel);

}  // namespace
