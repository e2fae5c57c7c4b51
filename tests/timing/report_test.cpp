// Sums over launches, the statistics JSON and the Chrome trace-event timeline.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <numeric>
#include <sstream>

#include "ventus/error.h"
#include "ventus/timing.h"

namespace ventus::test {
namespace {

namespace fs = std::filesystem;
using timing::Stall;

// A launch of `cycles` on the given SMs, each with warp slots 0..warps-1 that issued
// `issued` instructions and were idle otherwise.
timing::LaunchTiming launch(uint64_t cycles, std::vector<uint32_t> sms, uint32_t warps,
                            uint64_t issued) {
  timing::LaunchTiming t;
  t.cycles = cycles;
  for (uint32_t sm : sms) {
    timing::SmStats s;
    s.sm = sm;
    s.instructions = issued * warps;
    s.stalls[size_t(Stall::Issued)] = std::min(cycles, issued * warps);
    s.stalls[size_t(Stall::Idle)] = cycles - s.stalls[size_t(Stall::Issued)];
    s.icache.accesses = 10, s.icache.hits = 7, s.icache.misses = 3;
    for (uint32_t w = 0; w < warps; ++w) {
      timing::WarpSlotStats ws;
      ws.slot = w;
      ws.instructions = issued;
      ws.stalls[size_t(Stall::Issued)] = issued;
      ws.stalls[size_t(Stall::Scoreboard)] = cycles - issued;
      s.warps.push_back(ws);
    }
    t.instructions += s.instructions;
    t.sms.push_back(s);
  }
  t.l2.accesses = 5, t.memory_requests = 4;
  return t;
}

uint64_t total(const timing::StallCounts& c) {
  return std::accumulate(c.begin(), c.end(), 0ull);
}

TEST(TimingReport, LaunchesAddUpAndEveryBreakdownStillSumsToTheCycles) {
  timing::LaunchTiming sum;
  sum.add(launch(100, {0}, 2, 10));
  sum.add(launch(300, {0, 1}, 4, 20));  // SM 1 and slots 2, 3 appear only here
  sum.add(launch(50, {1}, 1, 5));       // SM 0 idle through this one
  EXPECT_EQ(sum.cycles, 450u);
  EXPECT_EQ(sum.instructions, 20u + 160u + 5u);
  EXPECT_EQ(sum.l2.accesses, 15u);
  EXPECT_EQ(sum.memory_requests, 12u);
  ASSERT_EQ(sum.sms.size(), 2u);
  EXPECT_EQ(sum.sms[0].sm, 0u);
  EXPECT_EQ(sum.sms[0].icache.accesses, 20u);
  for (const timing::SmStats& s : sum.sms) {
    EXPECT_EQ(total(s.stalls), 450u) << "SM " << s.sm;
    for (const timing::WarpSlotStats& w : s.warps)
      EXPECT_EQ(total(w.stalls), 450u) << "SM " << s.sm << " slot " << w.slot;
  }
  ASSERT_EQ(sum.sms[0].warps.size(), 4u);
  EXPECT_EQ(sum.sms[0].warps[0].instructions, 30u);
  EXPECT_EQ(sum.sms[0].warps[3].instructions, 20u);
  EXPECT_EQ(sum.sms[0].warps[3].stalls[size_t(Stall::Idle)], 100u + 50u);
}

TEST(TimingReport, StatisticsJsonHoldsWhatWasMeasured) {
  timing::LaunchTiming t = launch(200, {0, 1}, 3, 40);
  t.sms[1].dcache.accesses = 8, t.sms[1].dcache.hits = 2;
  t.sms[1].unit_issued[size_t(timing::Unit::Lsu)] = 6;
  t.sms[1].unit_busy[size_t(timing::Unit::Lsu)] = 60;
  const nlohmann::json j = nlohmann::json::parse(timing::to_json(t));
  EXPECT_EQ(j["cycles"], 200);
  EXPECT_EQ(j["instructions"], 240);
  EXPECT_DOUBLE_EQ(j["ipc"].get<double>(), 1.2);
  ASSERT_EQ(j["sms"].size(), 2u);
  const nlohmann::json& sm = j["sms"][1];
  EXPECT_EQ(sm["sm"], 1);
  EXPECT_DOUBLE_EQ(sm["dcache"]["hit_rate"].get<double>(), 0.25);
  EXPECT_EQ(sm["units"]["lsu"]["issued"], 6);
  EXPECT_EQ(sm["units"]["lsu"]["busy"], 60);
  uint64_t stall_sum = 0;
  for (const auto& [kind, n] : sm["stalls"].items()) stall_sum += n.get<uint64_t>();
  EXPECT_EQ(stall_sum, 200u);
  EXPECT_EQ(sm["stalls"].size(), timing::kStallKinds);
  EXPECT_EQ(sm["stalls"]["issued"], 120);
  ASSERT_EQ(sm["warps"].size(), 3u);
  EXPECT_EQ(sm["warps"][2]["slot"], 2);
  EXPECT_EQ(sm["warps"][2]["stalls"]["scoreboard"], 160);
}

class Timeline : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("ventus_timeline_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  size_t files() const {
    return std::distance(fs::directory_iterator(dir_), fs::directory_iterator());
  }
  fs::path dir_;
};

TEST_F(Timeline, WritesAChromeTraceWithNamedTracksAndMergedSlices) {
  const fs::path file = dir_ / "t.json";
  {
    timing::ChromeTraceWriter w(file);
    w.begin_launch("k1", 0);
    using Track = timing::TimelineSink::Track;
    w.slice(0, Track::Warp, 0, 0, 1, "vadd.vv");
    w.slice(0, Track::Warp, 0, 1, 4, "collector");
    w.slice(0, Track::Warp, 0, 4, 9, "collector");  // continues the one before: merged
    w.slice(0, Track::Unit, unsigned(timing::Unit::Lsu), 2, 12, "vle32.v");
    w.slice(1, Track::Warp, 3, 5, 6, "lw");
    w.begin_launch("k2", 100);
    w.slice(0, Track::Warp, 0, 0, 2, "memory");  // at 100..102 on the axis
    EXPECT_FALSE(fs::exists(file));              // written in place only when finished
    w.finish();
  }
  ASSERT_TRUE(fs::exists(file));
  EXPECT_EQ(files(), 1u);  // no temporary left
  std::ifstream in(file);
  const nlohmann::json j = nlohmann::json::parse(in);
  std::vector<nlohmann::json> slices, names, launches;
  for (const nlohmann::json& e : j["traceEvents"]) {
    if (e["ph"] == "X") slices.push_back(e);
    if (e["ph"] == "M" && e["name"] == "thread_name") names.push_back(e);
    if (e["ph"] == "i") launches.push_back(e);
  }
  ASSERT_EQ(launches.size(), 2u);
  EXPECT_EQ(launches[1]["ts"], 100);
  EXPECT_EQ(launches[1]["name"], "launch k2");
  ASSERT_EQ(slices.size(), 5u);
  const auto find = [&](const std::string& name) {
    for (const auto& s : slices)
      if (s["name"] == name) return s;
    return nlohmann::json();
  };
  EXPECT_EQ(find("collector")["ts"], 1);
  EXPECT_EQ(find("collector")["dur"], 8);  // 1..9, one slice
  EXPECT_EQ(find("memory")["ts"], 100);
  EXPECT_EQ(find("vle32.v")["tid"], 1000 + unsigned(timing::Unit::Lsu));
  EXPECT_EQ(find("lw")["pid"], 1);
  std::vector<std::string> thread_names;
  for (const auto& n : names) thread_names.push_back(n["args"]["name"]);
  EXPECT_NE(std::find(thread_names.begin(), thread_names.end(), "warp 0"), thread_names.end());
  EXPECT_NE(std::find(thread_names.begin(), thread_names.end(), "unit lsu"), thread_names.end());
  EXPECT_NE(std::find(thread_names.begin(), thread_names.end(), "warp 3"), thread_names.end());
}

TEST_F(Timeline, AnUnfinishedOrUnwritableTimelineLeavesNoFile) {
  {
    timing::ChromeTraceWriter w(dir_ / "t.json");
    w.slice(0, timing::TimelineSink::Track::Warp, 0, 0, 1, "x");
  }  // destroyed without finish(), as when the run fails
  EXPECT_EQ(files(), 0u);
  try {
    timing::ChromeTraceWriter w(dir_ / "no" / "such" / "t.json");
    FAIL() << "an unwritable path was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("t.json"), std::string::npos) << e.what();
  }
}

// A FIFO (or /dev/null, /dev/stdout) is written in place: renaming a temporary file over it
// replaced the FIFO with a regular file (and, run as root, /dev/null itself). A FIFO in the
// test's folder, so that a regression cannot replace a device of the machine.
TEST_F(Timeline, AFifoIsWrittenInPlace) {
  const fs::path fifo = dir_ / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // Opened for reading first (without waiting for a writer), so that the writer's open
  // does not block; the trace is far smaller than the pipe's buffer.
  const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(reader, 0);
  {
    timing::ChromeTraceWriter w(fifo);
    w.begin_launch("k", 0);
    w.slice(0, timing::TimelineSink::Track::Warp, 0, 0, 4, "add");
    w.finish();
  }
  std::string received;
  char buffer[4096];
  for (ssize_t n; (n = ::read(reader, buffer, sizeof buffer)) > 0;) received.append(buffer, n);
  ::close(reader);
  EXPECT_TRUE(fs::is_fifo(fifo)) << "the FIFO was replaced";
  EXPECT_EQ(files(), 1u);
  ASSERT_TRUE(nlohmann::json::accept(received)) << received;
  EXPECT_EQ(nlohmann::json::parse(received)["traceEvents"].size(), 5u) << received;
}

}  // namespace
}  // namespace ventus::test
