// The cycle-model options that `ventus run`, `ventus case` and `ventus bench` share
// (--timing, --timing-set, --stats-json, --timeline; docs/timing.md, "Using it") and what
// they write: the summary that ends with "cycles N", the statistics document, the timeline.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "files.h"
#include "ventus/timing.h"

namespace ventus::cli {

struct TimingArgs {
  std::string timing;                 // --timing PRESET|FILE
  std::vector<std::string> settings;  // --timing-set NAME=VALUE, in order
  std::string stats_json;             // --stats-json FILE
  std::string timeline;               // --timeline FILE
};

// Adds the four options to a subcommand.
void add_timing_options(CLI::App* sub, TimingArgs& args);

// A command's timing: the configuration and the outputs, all checked when it is made (before
// anything runs, so a wrong preset or path costs nothing). The command records every launch
// it runs (ventus case: every case) in order; finish() writes --stats-json, whole or not at
// all, and completes --timeline.
class TimingSession {
 public:
  // What the statistics document lists: "launches" (each named by its "kernel") or
  // "cases" (each named by its "case").
  enum class Entries { Launches, Cases };
  // ventus::Error for an unknown preset, a bad file or --timing-set, an unwritable output,
  // and for --stats-json or --timeline without --timing. inputs: the command's input files,
  // which no output may replace.
  TimingSession(const TimingArgs& args, std::span<const std::string> inputs, Entries entries);
  ~TimingSession();
  TimingSession(const TimingSession&) = delete;
  TimingSession& operator=(const TimingSession&) = delete;

  // Null without --timing: the command runs functionally only.
  const timing::Config* config() const { return config_ ? &*config_ : nullptr; }
  // Null without --timeline.
  timing::TimelineSink* timeline() const { return timeline_.get(); }
  // The cycles of everything recorded: where the next launch begins on the timeline.
  uint64_t elapsed_cycles() const { return total_ ? total_->cycles : 0; }
  // Begins the timeline of the launch about to run (at elapsed_cycles()); no-op without one.
  void begin_launch(std::string_view kernel);
  void record(std::string name, const timing::LaunchTiming& timing);
  void finish();

 private:
  std::optional<timing::Config> config_;
  Entries entries_;
  std::optional<OutputFile> stats_file_;
  std::unique_ptr<timing::ChromeTraceWriter> timeline_;
  std::vector<std::pair<std::string, timing::LaunchTiming>> recorded_;
  std::optional<timing::LaunchTiming> total_;
};

// The human summary of a timed run: cycles and device time, IPC, the three largest stall
// kinds of the SMs, the I- and D-cache hit rates; its last line is "cycles N".
std::string timing_summary(const timing::LaunchTiming& timing, const timing::Config& config);

}  // namespace ventus::cli
