// `ventus run` against the kernel it runs (issue 16, items 19, 25 and 28): arguments checked
// against a compiled kernel's metadata, strict numbers in every option, the trace size cap.
#include <filesystem>

#include "cli.h"

namespace ventus::test {
namespace {

namespace fs = std::filesystem;

const std::string kSourceDir = VENTUS_SOURCE_DIR;
const std::string kVecadd = kSourceDir + "/examples/vecadd.s";

class Run : public CliTest {
 protected:
  // A compiled kernel (with .ventus.kernels), or skip when `ventus cc` is not built.
  std::string compiled_kernel() {
    const std::string cl =
        write("k.cl",
              "__kernel void scale(__global int* data, int factor, __local int* scratch) {\n"
              "  scratch[get_local_id(0)] = data[get_global_id(0)];\n"
              "  data[get_global_id(0)] = scratch[get_local_id(0)] * factor;\n}\n");
    const CliResult r = run_ventus({"cc", cl, "-o", path("k.elf")});
    if (r.status != 0 && r.err.find("unknown") != std::string::npos) return "";
    EXPECT_EQ(r.status, 0) << r.describe();
    return path("k.elf");
  }
};

TEST_F(Run, ArgumentsAreCheckedAgainstTheKernel) {
  const std::string elf = compiled_kernel();
  if (elf.empty()) GTEST_SKIP() << "ventus cc is not built";
  const CliResult ok =
      run_ventus({"run", elf, "-g", "8", "--arg", "d=i32[]:iota:8", "--arg", "i32:3", "--arg",
                  "local:32", "--dump", "d=" + path("d.txt"), "-q"});
  ASSERT_EQ(ok.status, 0) << ok.describe();
  EXPECT_EQ(read("d.txt"), "0\n3\n6\n9\n12\n15\n18\n21\n");
  // A scalar for the global int*, used to run "successfully" with the number as address.
  EXPECT_TRUE(fails_cleanly(run_ventus({"run", elf, "-g", "8", "--arg", "i32:4096", "--arg",
                                        "i32:3", "--arg", "local:32"}),
                            "run",
                            {"--arg i32:4096", "argument 0", "int* data", "needs a buffer"}));
  EXPECT_TRUE(fails_cleanly(run_ventus({"run", elf, "-g", "8", "--arg", "i32[]:iota:8", "--arg",
                                        "i32[]:iota:8", "--arg", "local:32"}),
                            "run", {"argument 1", "factor", "needs a scalar"}));
  EXPECT_TRUE(fails_cleanly(run_ventus({"run", elf, "-g", "8", "--arg", "i32[]:iota:8", "--arg",
                                        "i32:3", "--arg", "i32[]:zeros:8"}),
                            "run", {"argument 2", "scratch", "needs a __local buffer"}));
  EXPECT_TRUE(fails_cleanly(run_ventus({"run", elf, "-g", "8", "--arg", "i32[]:iota:8"}), "run",
                            {"takes 3 argument(s)", "data", "factor", "scratch", "1 --arg given"}));
}

TEST_F(Run, NumbersAreStrict) {
  const std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> cases = {
      {{"--arg", "f32:1e999"}, {"1e999", "out of the range of f32"}},
      {{"--arg", "f32:-1e39"}, {"out of the range of f32"}},
      {{"--arg", "f32:1e-50"}, {"out of the range of f32"}},
      {{"--arg", "f32:1.5x"}, {"'1.5x' is not a number"}},
      {{"--arg", "f32: 1"}, {"is not a number"}},
      {{"--arg", "i32:2147483648"}, {"out of the range of i32"}},
      {{"--arg", "i32:-2147483649"}, {"out of the range of i32"}},
      {{"--arg", "i32:99999999999999999999999"}, {"out of the range of i32"}},
      {{"--arg", "u32:-1"}, {"'-1' is not an unsigned number"}},
      {{"--arg", "u32:4294967296"}, {"too large"}},
      {{"--arg", "i32:5:7"}, {"i32:5:7"}},
      {{"--arg", "i32[]:zeros:4:9"}, {"expected i32[]:zeros:N"}},
      {{"--arg", "i32[]:iota:4:x"}, {"expected i32[]:iota:N"}},
      {{"--arg", "i32[]:random:4:1:2"}, {"expected i32[]:random:N[:SEED]"}},
      {{"--arg", "i32[]:zeros:268435457"}, {"too large"}},
      {{"--arg", "i32[]:zeros:0"}, {"element count 0"}},
      {{"--arg", "i32[]:1,,2"}, {"'' is not an integer"}},
      {{"--arg", "local:0"}, {"local buffer of 1 to 2^20"}},
      {{"--arg", "local:1048577"}, {"too large"}},
      {{"--arg", "=i32:1"}, {"empty NAME"}},
      {{"-g", "4294967296"}, {"--global", "too large"}},
      {{"-g", "1,2,3,4"}, {"more than 3 dimensions"}},
      {{"-g", "0"}, {"--global: size 0"}},
      {{"-g", "64", "-l", "0x"}, {"--local", "'0x' is not an unsigned number"}},
      {{"-g", "4294967295", "--offset", "2"}, {"--offset", "exceeds 2^32"}},
      {{"-g", "16", "--offset", "4294967295"}, {"--offset", "exceeds 2^32"}},
      {{"-g", "16", "--offset", "0,0"}, {"--offset: 2 dimensions"}},
      {{"--trace-limit", "1e9"}, {"--trace-limit"}},
      {{"--sms", "1e3"}, {"--sms"}},
      {{"--sms", "-1"}, {"--sms"}},
      {{"--sms", "4294967296"}, {"--sms"}},
      {{"--budget", "-1"}, {"--budget"}},
      {{"--budget", "18446744073709551616"}, {"--budget"}},
      {{"--private-mem", "1.5"}, {"--private-mem"}},
      {{"--threads", "0x"}, {"--threads"}},
  };
  for (const auto& [options, mentions] : cases) {
    std::vector<std::string> args = {"run", kVecadd};
    args.insert(args.end(), options.begin(), options.end());
    EXPECT_TRUE(fails_cleanly(run_ventus(args), "run", mentions))
        << options[0] << " " << options[1];
  }
  // In range: accepted (the launch then fails for the missing arguments, not the numbers).
  for (const char* spec : {"f32:3.4e38", "f32:-inf", "f32:nan", "f32:1e-45", "i32:-2147483648",
                           "i32:0x7fffffff", "u32:0xffffffff", "f32:+2.5"}) {
    const CliResult r = run_ventus({"run", kVecadd, "--arg", spec});
    EXPECT_EQ(r.err.find(spec), std::string::npos) << spec << ": " << r.describe();
  }
}

TEST_F(Run, TraceLimitStopsTheRun) {
  const std::string spin =
      write("spin.s", ".text\n.globl spin\n.type spin, @function\nspin:\n.Lloop:\n j .Lloop\n");
  CliOptions quick;
  quick.timeout = std::chrono::seconds(60);
  // --budget 0 is unlimited: only the trace limit ends this run.
  const CliResult r = run_ventus(
      {"run", spin, "--budget", "0", "--trace", path("t.log"), "--trace-limit", "100000"}, quick);
  EXPECT_TRUE(
      fails_cleanly(r, "run", {"--trace " + path("t.log"), "--trace-limit", "100000 bytes"}));
  const std::string trace = read("t.log");
  EXPECT_LE(trace.size(), 100000u);
  EXPECT_GT(trace.size(), 90000u);
  ASSERT_FALSE(trace.empty());
  EXPECT_EQ(trace.back(), '\n');  // whole lines only
  EXPECT_EQ(leftovers(), (std::vector<std::string>{"spin.s", "t.log"}));
}

}  // namespace
}  // namespace ventus::test
