// The cycle model's options of `ventus run`, `ventus case` and `ventus bench` (issue 14):
// --timing, --timing-set, --stats-json and --timeline, their errors, and the "cycles N" line
// that ends a timed case's output.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string_view>

#include "cli.h"

namespace ventus::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::string kSourceDir = VENTUS_SOURCE_DIR;
const std::string kVecadd = kSourceDir + "/examples/vecadd.s";
const fs::path kCases = fs::path(kSourceDir) / "../shared/cases";

// N of a line "cycles N" (a positive decimal number, nothing else); 0 when it is not one.
uint64_t cycles_of(const std::string& line) {
  const std::string_view prefix = "cycles ";
  if (!line.starts_with(prefix) || line.size() == prefix.size() || line[prefix.size()] == '0' ||
      line.find_first_not_of("0123456789", prefix.size()) != std::string::npos)
    return 0;
  return std::stoull(line.substr(prefix.size()));
}

class Timing : public CliTest {
 protected:
  std::string shared_case(const std::string& name) {
    return fs::exists(kCases / name / "case.txt") ? (kCases / name).string() : "";
  }
  json read_json(const std::string& name) { return json::parse(read(name)); }
};

TEST_F(Timing, CaseEndsWithItsCycles) {
  const std::string dir = shared_case("vecadd-4x8");
  if (dir.empty()) GTEST_SKIP() << "../shared/cases is absent";
  const CliResult first = run_ventus({"case", dir, "--timing", "verilog-release", "--stats-json",
                                      path("stats.json"), "--timeline", path("timeline.json")});
  ASSERT_EQ(first.status, 0) << first.describe();
  const std::vector<std::string> lines = lines_of(first.out);
  ASSERT_GE(lines.size(), 2u) << first.describe();
  const uint64_t cycles = cycles_of(lines.back());
  ASSERT_GT(cycles, 0u) << "the output does not end with 'cycles N': " << first.describe();
  EXPECT_TRUE(lines.front().starts_with("PASS vecadd-4x8")) << first.describe();
  EXPECT_NE(first.out.find("IPC"), std::string::npos) << first.describe();
  EXPECT_NE(first.out.find("I-cache"), std::string::npos) << first.describe();

  // The model is deterministic: the same cycles again, with another host thread count too.
  const CliResult second =
      run_ventus({"case", dir, "--timing", "verilog-release", "--host-threads", "2"});
  ASSERT_EQ(second.status, 0) << second.describe();
  EXPECT_EQ(cycles_of(lines_of(second.out).back()), cycles) << second.describe();

  // A parameter reaches the model (given before the folder, which stays a folder).
  const CliResult slower =
      run_ventus({"case", "--timing", "verilog-release", "--timing-set", "memory_latency=200", dir,
                  "--timing-set", "l2_hit_latency=40"});
  ASSERT_EQ(slower.status, 0) << slower.describe();
  EXPECT_GT(cycles_of(lines_of(slower.out).back()), cycles) << slower.describe();

  // The statistics say the same number, for the case and in total.
  const json stats = read_json("stats.json");
  ASSERT_EQ(stats["cases"].size(), 1u) << stats.dump(1);
  EXPECT_EQ(stats["cases"][0]["case"], "vecadd-4x8");
  EXPECT_EQ(stats["cases"][0]["timing"]["cycles"].get<uint64_t>(), cycles);
  EXPECT_EQ(stats["total"]["cycles"].get<uint64_t>(), cycles);
  EXPECT_TRUE(stats.contains("config")) << stats.dump(1);
  // The timeline is JSON (a Chrome trace); only the outputs asked for are left.
  EXPECT_NO_THROW(read_json("timeline.json"));
  EXPECT_EQ(leftovers(), (std::vector<std::string>{"stats.json", "timeline.json"}));

  // Without --timing the output is as before: no cycles.
  const CliResult plain = run_ventus({"case", dir});
  ASSERT_EQ(plain.status, 0) << plain.describe();
  EXPECT_EQ(plain.out.find("cycles"), std::string::npos) << plain.describe();
}

TEST_F(Timing, EachCaseEndsWithItsOwnCycles) {
  const std::string a = shared_case("vecadd-4x8"), b = shared_case("matadd-2w8t");
  if (a.empty() || b.empty()) GTEST_SKIP() << "../shared/cases is absent";
  const CliResult r =
      run_ventus({"case", a, b, "--timing", "verilog-release", "--stats-json", path("s.json")});
  ASSERT_EQ(r.status, 0) << r.describe();
  const std::vector<std::string> lines = lines_of(r.out);
  // Each case: its PASS line, the summary, its "cycles N"; then the count of passed cases.
  std::vector<uint64_t> per_case;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (!lines[i].starts_with("PASS ")) continue;
    size_t j = i + 1;
    while (j < lines.size() && !lines[j].starts_with("cycles ")) ++j;
    ASSERT_LT(j, lines.size()) << r.describe();
    EXPECT_TRUE(j + 1 == lines.size() || lines[j + 1].starts_with("PASS ") ||
                lines[j + 1] == "2 of 2 cases passed")
        << r.describe();
    per_case.push_back(cycles_of(lines[j]));
  }
  ASSERT_EQ(per_case.size(), 2u) << r.describe();
  EXPECT_EQ(lines.back(), "2 of 2 cases passed");
  const json stats = json::parse(read("s.json"));
  ASSERT_EQ(stats["cases"].size(), 2u);
  EXPECT_EQ(stats["cases"][0]["timing"]["cycles"].get<uint64_t>(), per_case[0]);
  EXPECT_EQ(stats["cases"][1]["timing"]["cycles"].get<uint64_t>(), per_case[1]);
  EXPECT_EQ(stats["total"]["cycles"].get<uint64_t>(), per_case[0] + per_case[1]);
}

TEST_F(Timing, RunPrintsTheSummaryAndTheSameResults) {
  const std::vector<std::string> args = {"run",   kVecadd,
                                         "-g",    "64",
                                         "-l",    "32",
                                         "--arg", "f32[]:iota:64",
                                         "--arg", "f32[]:random:64",
                                         "--arg", "f32[]:zeros:64",
                                         "--arg", "i32:64"};
  std::vector<std::string> timed = args;
  timed.insert(timed.end(), {"--dump", "2=" + path("timed.txt"), "--timing", "chisel-master",
                             "--timing-set", "l2_hit_latency=9", "--stats-json", path("run.json")});
  const CliResult r = run_ventus(timed);
  ASSERT_EQ(r.status, 0) << r.describe();
  const uint64_t cycles = cycles_of(lines_of(r.out).back());
  EXPECT_GT(cycles, 0u) << r.describe();
  EXPECT_NE(r.out.find("timing chisel-master"), std::string::npos) << r.describe();
  const json stats = json::parse(read("run.json"));
  ASSERT_EQ(stats["launches"].size(), 1u);
  EXPECT_EQ(stats["launches"][0]["kernel"], "vecadd");
  EXPECT_EQ(stats["launches"][0]["timing"]["cycles"].get<uint64_t>(), cycles);
  EXPECT_EQ(stats["total"]["cycles"].get<uint64_t>(), cycles);

  // The same sums as without the model.
  std::vector<std::string> plain = args;
  plain.insert(plain.end(), {"--dump", "2=" + path("plain.txt")});
  const CliResult p = run_ventus(plain);
  ASSERT_EQ(p.status, 0) << p.describe();
  EXPECT_EQ(p.out.find("cycles"), std::string::npos);
  EXPECT_EQ(read("timed.txt"), read("plain.txt"));
  EXPECT_FALSE(read("plain.txt").empty());
}

TEST_F(Timing, BenchReportsTheTimingSpeed) {
  const CliResult r = run_ventus({"bench", "-k", "reduce", "--timing", "verilog-release"});
  if (r.status != 0 && r.err.find("bench") != std::string::npos &&
      r.err.find("error") == std::string::npos)
    GTEST_SKIP() << "ventus bench is not built";
  ASSERT_EQ(r.status, 0) << r.describe();
  EXPECT_NE(r.out.find("t-M warp-insn/s"), std::string::npos) << r.describe();
  const std::vector<std::string> lines = lines_of(r.out);
  EXPECT_TRUE(lines.back().starts_with("reduce") && lines.back().ends_with("  ok")) << r.describe();
}

// The cycle model issues from its ready warps cycle by cycle: ventus run refuses a schedule
// quantum it would not use, and takes it without --timing.
TEST_F(Timing, RunRefusesAScheduleQuantum) {
  const std::vector<std::string> args = {"run",
                                         kVecadd,
                                         "-g",
                                         "4",
                                         "--arg",
                                         "f32[]:iota:4",
                                         "--arg",
                                         "f32[]:iota:4",
                                         "--arg",
                                         "f32[]:zeros:4",
                                         "--arg",
                                         "i32:4",
                                         "--schedule-quantum",
                                         "7"};
  std::vector<std::string> timed = args;
  timed.insert(timed.end(), {"--timing", "verilog-release"});
  EXPECT_TRUE(fails_cleanly(run_ventus(timed), "run", {"--schedule-quantum", "--timing"}));
  const CliResult r = run_ventus(args);
  EXPECT_EQ(r.status, 0) << r.describe();
}

TEST_F(Timing, BadOptionsAreErrors) {
  const std::string dir = shared_case("vecadd-4x8");
  if (dir.empty()) GTEST_SKIP() << "../shared/cases is absent";
  // A missing value.
  const CliResult missing = run_ventus({"case", dir, "--timing"});
  EXPECT_EQ(missing.status, 1) << missing.describe();
  EXPECT_NE(missing.err.find("--timing"), std::string::npos) << missing.describe();
  EXPECT_TRUE(fails_cleanly(run_ventus({"case", dir, "--timing", "no-such-preset"}), "case",
                            {"no-such-preset", "verilog-release"}));
  EXPECT_TRUE(fails_cleanly(run_ventus({"case", dir, "--timing", path("absent.json")}), "case",
                            {"absent.json"}));
  EXPECT_TRUE(fails_cleanly(run_ventus({"case", dir, "--timing", "verilog-release", "--timing-set",
                                        "no_such_parameter=3"}),
                            "case", {"--timing-set", "no_such_parameter"}));
  // The outputs need the model.
  for (const char* option : {"--stats-json", "--timeline"}) {
    EXPECT_TRUE(fails_cleanly(run_ventus({"case", dir, option, path("x.json")}), "case",
                              {std::string(option) + " needs --timing"}));
    EXPECT_TRUE(fails_cleanly(run_ventus({"run", kVecadd, "-g", "4", option, path("x.json")}),
                              "run", {std::string(option) + " needs --timing"}));
    EXPECT_TRUE(fails_cleanly(run_ventus({"bench", "-k", "saxpy", option, path("x.json")}), "bench",
                              {std::string(option) + " needs --timing"}));
  }
  EXPECT_TRUE(fails_cleanly(run_ventus({"case", dir, "--timing-set", "l2_hit_latency=3"}), "case",
                            {"--timing-set needs --timing"}));
  // Unwritable outputs are refused before the run, and nothing is left behind.
  for (const char* option : {"--stats-json", "--timeline"}) {
    const std::string target = path("no_such_folder/x.json");
    EXPECT_TRUE(
        fails_cleanly(run_ventus({"case", dir, "--timing", "verilog-release", option, target}),
                      "case", {option, "no_such_folder"}));
    EXPECT_TRUE(fails_cleanly(
        run_ventus({"run", kVecadd, "-g", "4", "--timing", "verilog-release", option, target}),
        "run", {option, "no_such_folder"}));
  }
  EXPECT_TRUE(fails_cleanly(run_ventus({"case", dir, "--timing", "verilog-release", "--stats-json",
                                        path("same.json"), "--timeline", path("same.json")}),
                            "case", {"same.json"}));
  EXPECT_TRUE(leftovers().empty()) << leftovers().size();
}

}  // namespace
}  // namespace ventus::test
