// Presets, parameters by name, configuration files and their errors.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "ventus/error.h"
#include "ventus/timing.h"

namespace ventus::test {
namespace {

namespace fs = std::filesystem;

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

// A file in the test's own scratch folder, removed afterwards.
class ConfigFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("ventus_timing_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& text) {
    const fs::path p = dir_ / "timing.json";
    std::ofstream(p) << text;
    return p.string();
  }
  fs::path dir_;
};

TEST(TimingConfig, PresetsAreTheTwoHardwareConfigurations) {
  // timing-facts.md: 8-byte lines and single issue in the Verilog release, 128-byte lines
  // and dual issue on Chisel master.
  const timing::Config verilog = timing::preset("verilog-release");
  const timing::Config chisel = timing::preset("chisel-master");
  EXPECT_EQ(verilog.preset, "verilog-release");
  EXPECT_EQ(verilog.icache_line_bytes, 8u);
  EXPECT_EQ(verilog.icache_sets * verilog.icache_ways * verilog.icache_line_bytes, 512u);
  EXPECT_EQ(verilog.l2_sets * verilog.l2_ways * verilog.l2_line_bytes, 64u);
  EXPECT_EQ(verilog.dual_issue, 0u);
  EXPECT_EQ(verilog.clock_mhz, 620u);
  EXPECT_EQ(chisel.icache_line_bytes, 128u);
  EXPECT_EQ(chisel.icache_sets * chisel.icache_ways * chisel.icache_line_bytes, 64u * 1024);
  EXPECT_EQ(chisel.dual_issue, 1u);
  EXPECT_EQ(chisel.memory_outstanding, 5u);
  // A default Config is the verilog-release preset.
  EXPECT_EQ(timing::to_json(timing::Config{}).substr(0, 40),
            timing::to_json(verilog).substr(0, 40));
  for (const timing::ParameterInfo& p : timing::parameters())
    EXPECT_EQ(timing::Config{}.*p.member, verilog.*p.member) << p.name;
  EXPECT_NO_THROW(timing::validate(verilog));
  EXPECT_NO_THROW(timing::validate(chisel));
  const std::string e = error_of([] { timing::preset("verilog"); });
  EXPECT_NE(e.find("unknown timing preset 'verilog'"), std::string::npos) << e;
  EXPECT_NE(e.find("chisel-master"), std::string::npos) << e;
}

TEST(TimingConfig, ParametersAreSetByNameWithClearErrors) {
  timing::Config c = timing::preset("verilog-release");
  timing::set_parameter(c, "l2_hit_latency=9");
  EXPECT_EQ(c.l2_hit_latency, 9u);
  timing::set_parameter(c, "memory_latency", "12");
  EXPECT_EQ(c.memory_latency, 12u);
  std::string e = error_of([&] { timing::set_parameter(c, "l2_hit=3"); });
  EXPECT_NE(e.find("unknown timing parameter 'l2_hit'"), std::string::npos) << e;
  EXPECT_NE(e.find("l2_hit_latency"), std::string::npos) << e;  // the list of names
  e = error_of([&] { timing::set_parameter(c, "l2_hit_latency=-1"); });
  EXPECT_NE(e.find("'-1' is not a number"), std::string::npos) << e;
  e = error_of([&] { timing::set_parameter(c, "l2_hit_latency=4x"); });
  EXPECT_NE(e.find("'4x' is not a number"), std::string::npos) << e;
  e = error_of([&] { timing::set_parameter(c, "l2_hit_latency=99999999999"); });
  EXPECT_NE(e.find("is not a number"), std::string::npos) << e;
  e = error_of([&] { timing::set_parameter(c, "l2_hit_latency"); });
  EXPECT_NE(e.find("expected NAME=VALUE"), std::string::npos) << e;
  EXPECT_EQ(c.l2_hit_latency, 9u);  // a refused value changes nothing
}

TEST(TimingConfig, ValidateSaysWhichParameterCannotWork) {
  const auto invalid = [](const char* assignment) {
    timing::Config c = timing::preset("verilog-release");
    timing::set_parameter(c, assignment);
    return error_of([&] { timing::validate(c); });
  };
  EXPECT_NE(invalid("icache_sets=3").find("icache_sets is 3: it must be a power of two"),
            std::string::npos);
  EXPECT_NE(invalid("register_banks=0").find("register_banks is 0: it must be at least 1"),
            std::string::npos);
  EXPECT_NE(invalid("dual_issue=2").find("dual_issue is 2"), std::string::npos);
  EXPECT_NE(invalid("dcache_line_bytes=2").find("dcache_line_bytes is 2"), std::string::npos);
  EXPECT_NE(invalid("ibuffer_packets=9").find("at most 16 words"), std::string::npos);
  EXPECT_NE(invalid("sfu_lane_divisor=0").find("sfu_lane_divisor is 0"), std::string::npos);
  EXPECT_EQ(invalid("lds_banks=0"), "(no error)");  // 0: one bank per lane
  EXPECT_NE(invalid("memory_latency=65537").find("at most 65536 cycles"), std::string::npos);
  EXPECT_EQ(invalid("memory_latency=65536"), "(no error)");
}

TEST_F(ConfigFile, LoadsAPresetWithOverrides) {
  const std::string file = write(
      R"({"preset": "chisel-master", "parameters": {"l2_hit_latency": 11, "dual_issue": 0}})");
  const timing::Config c = timing::load(file);
  EXPECT_EQ(c.preset, "chisel-master");
  EXPECT_EQ(c.l2_hit_latency, 11u);
  EXPECT_EQ(c.dual_issue, 0u);
  EXPECT_EQ(c.icache_line_bytes, 128u);  // the rest is the preset's
  EXPECT_EQ(timing::load("chisel-master").dual_issue, 1u);
  // What to_json writes, load reads back unchanged, for both presets.
  for (const char* name : {"verilog-release", "chisel-master"}) {
    timing::Config original = timing::preset(name);
    timing::set_parameter(original, "memory_latency=17");
    const timing::Config back = timing::load(write(timing::to_json(original)));
    EXPECT_EQ(back.preset, original.preset);
    for (const timing::ParameterInfo& p : timing::parameters())
      EXPECT_EQ(back.*p.member, original.*p.member) << name << " " << p.name;
  }
}

TEST_F(ConfigFile, BadFilesSayWhereAndWhy) {
  const auto load_error = [&](const std::string& text) {
    const std::string file = write(text);
    const std::string e = error_of([&] { timing::load(file); });
    EXPECT_NE(e.find(file), std::string::npos) << e;  // every message names the file
    return e;
  };
  EXPECT_NE(load_error("{").find("not JSON"), std::string::npos);
  // A number beyond 64 bits fails in the JSON reader itself (found by fuzz_timing_config).
  EXPECT_NE(load_error(R"({"parameters": {"icache_sets": 2)" + std::string(400, '7') + "}}")
                .find("not JSON"),
            std::string::npos);
  EXPECT_NE(load_error("[1]").find("expected a JSON object"), std::string::npos);
  EXPECT_NE(load_error(R"({"presets": "x"})").find("unknown key \"presets\""), std::string::npos);
  EXPECT_NE(load_error(R"({"preset": "fast"})").find("unknown timing preset 'fast'"),
            std::string::npos);
  EXPECT_NE(
      load_error(R"({"parameters": {"l2_hit": 1}})").find("unknown timing parameter \"l2_hit\""),
      std::string::npos);
  EXPECT_NE(load_error(R"({"parameters": {"l2_hit_latency": -3}})").find("is -3, not a number"),
            std::string::npos);
  EXPECT_NE(load_error(R"({"parameters": {"l2_hit_latency": "4"}})").find("is \"4\""),
            std::string::npos);
  EXPECT_NE(load_error(R"({"parameters": {"l2_hit_latency": 2.5}})").find("is 2.5"),
            std::string::npos);
  EXPECT_NE(load_error(R"({"parameters": {"icache_sets": 6}})").find("power of two"),
            std::string::npos);
  EXPECT_NE(load_error(R"({"parameters": [1]})").find("must be an object"), std::string::npos);
  const std::string missing = (dir_ / "absent.json").string();
  const std::string e = error_of([&] { timing::load(missing); });
  EXPECT_NE(e.find("neither a timing preset"), std::string::npos) << e;
  const std::string folder = error_of([&] { timing::load(dir_.string()); });
  EXPECT_NE(folder.find("directory"), std::string::npos) << folder;
}

}  // namespace
}  // namespace ventus::test

namespace ventus::test {
namespace {

// docs/timing.md's parameter table is what the tool prints from timing_parameters.def.
TEST(TimingDoc, ParameterTableIsCurrent) {
  const std::string path = std::string(VENTUS_SOURCE_DIR) + "/docs/timing.md";
  std::ifstream in(path);
  ASSERT_TRUE(in) << "cannot read " << path;
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_NE(text.str().find(timing::parameter_table(true)), std::string::npos)
      << "the parameter table in docs/timing.md differs from "
         "include/ventus/timing_parameters.def; replace the block between its BEGIN and END "
         "comments with the output of\n  ventus timing --parameters --markdown";
  for (const timing::ParameterInfo& p : timing::parameters())
    EXPECT_NE(timing::parameter_table(true).find("| `" + std::string(p.name) + "` |"),
              std::string::npos)
        << p.name;
}

}  // namespace
}  // namespace ventus::test
