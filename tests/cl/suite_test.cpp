// The correctness suite: one test per tests/cl/kernels/*.cl (the files found at build time).
// Each file's spec runs on pocl (the reference) and on `ventus cc` + the simulated device;
// the checked buffers must agree within the spec's bounds.
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

void Kernel::run(const std::string& path) {
  const std::string source = read_text_file(path);
  const Spec spec = parse(source, path);
  std::string why;
  std::unique_ptr<Runner> pocl = make_pocl_runner(&why);
  if (!pocl) GTEST_SKIP() << "pocl is not available: " << why;
  std::unique_ptr<Runner> ventus = make_ventus_runner(&why);
  if (!ventus) {
    // The reference side still runs, so the kernel and its spec stay valid.
    const std::string vacuous = vacuous_checks(spec, run_all(spec, source, *pocl));
    ASSERT_TRUE(vacuous.empty()) << vacuous;
    GTEST_SKIP() << "ran on pocl only: " << why;
  }
  const std::string report = compare_runs(spec, source, *pocl, *ventus);
  EXPECT_TRUE(report.empty()) << path << ": pocl and ventus differ:\n" << report;
}

INSTANTIATE_TEST_SUITE_P(cl, Kernel, ::testing::ValuesIn(kFiles), test_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Kernel);

}  // namespace
