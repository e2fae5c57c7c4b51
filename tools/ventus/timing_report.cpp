// The cycle-model options of run, case and bench, and what they write (timing_report.h).
#ifdef VENTUS_HAVE_DRIVER
#include "timing_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <numeric>

#include "ventus/error.h"

namespace ventus::cli {

void add_timing_options(CLI::App* sub, TimingArgs& args) {
  sub->add_option("--timing", args.timing,
                  "run with the cycle model: a preset (verilog-release, chisel-master) or a "
                  "configuration file (docs/timing.md)");
  // One value per occurrence: a positional argument after it is not taken for a setting.
  sub->add_option("--timing-set", args.settings,
                  "override a parameter of the cycle model, NAME=VALUE (repeatable; after "
                  "--timing's preset or file)")
      ->allow_extra_args(false);
  sub->add_option("--stats-json", args.stats_json,
                  "write the cycle model's statistics (totals and per launch) as JSON to FILE");
  sub->add_option("--timeline", args.timeline,
                  "write the cycle model's timeline as Chrome trace-event JSON (Perfetto UI) to "
                  "FILE");
}

TimingSession::TimingSession(const TimingArgs& args, std::span<const std::string> inputs,
                             Entries entries)
    : entries_(entries) {
  if (args.timing.empty()) {
    for (const auto& [given, option] : {std::pair{!args.settings.empty(), "--timing-set"},
                                        std::pair{!args.stats_json.empty(), "--stats-json"},
                                        std::pair{!args.timeline.empty(), "--timeline"}})
      if (given)
        throw Error(fmt::format(
            "{} needs --timing (a preset such as verilog-release, or a configuration file)",
            option));
    return;
  }
  config_ = timing::load(args.timing);
  for (const std::string& setting : args.settings) {
    try {
      timing::set_parameter(*config_, setting);
    } catch (const Error& e) {
      throw Error(fmt::format("--timing-set {}: {}", setting, e.what()));
    }
  }
  timing::validate(*config_);
  std::vector<std::string> outputs;
  if (!args.stats_json.empty()) outputs.push_back(args.stats_json);
  if (!args.timeline.empty()) outputs.push_back(args.timeline);
  check_distinct_outputs(outputs);
  if (!args.stats_json.empty()) stats_file_.emplace(args.stats_json, "--stats-json", inputs);
  if (!args.timeline.empty()) {
    // The same checks as every other output (a missing folder, a directory, an input of the
    // command), before the run; the writer itself writes when the timeline is complete.
    OutputFile(args.timeline, "--timeline", inputs);
    timeline_ = std::make_unique<timing::ChromeTraceWriter>(args.timeline);
  }
}

TimingSession::~TimingSession() = default;

void TimingSession::begin_launch(std::string_view kernel) {
  if (timeline_) timeline_->begin_launch(kernel, elapsed_cycles());
}

void TimingSession::record(std::string name, const timing::LaunchTiming& timing) {
  if (!total_) total_.emplace();
  total_->add(timing);
  if (stats_file_) recorded_.emplace_back(std::move(name), timing);
}

void TimingSession::finish() {
  if (timeline_) timeline_->finish();
  if (!stats_file_) return;
  // ordered: the keys in the order timing::to_json writes them.
  using json = nlohmann::ordered_json;
  const bool cases = entries_ == Entries::Cases;
  json list = json::array();
  for (const auto& [name, timing] : recorded_)
    list.push_back({{cases ? "case" : "kernel", name}, {"timing", json::parse(to_json(timing))}});
  const json document = {
      {"config", json::parse(timing::to_json(*config_))},
      {cases ? "cases" : "launches", std::move(list)},
      {"total", json::parse(to_json(total_ ? *total_ : timing::LaunchTiming{}))},
  };
  stats_file_->write(document.dump(1) + "\n");
  stats_file_->commit();
}

std::string timing_summary(const timing::LaunchTiming& t, const timing::Config& config) {
  std::string out =
      fmt::format("timing {} ({} MHz): {} cycles = {:.3f} us, {} warp-instructions, IPC {:.3f}\n",
                  config.preset, config.clock_mhz, t.cycles, t.device_seconds(config) * 1e6,
                  t.instructions, t.ipc());
  timing::StallCounts stalls{};
  timing::CacheStats icache, dcache;
  for (const timing::SmStats& sm : t.sms) {
    for (size_t k = 0; k < timing::kStallKinds; ++k) stalls[k] += sm.stalls[k];
    icache.add(sm.icache);
    dcache.add(sm.dcache);
  }
  const uint64_t sm_cycles = std::accumulate(stalls.begin(), stalls.end(), uint64_t{0});
  std::vector<size_t> kinds;
  for (size_t k = 0; k < timing::kStallKinds; ++k)
    if (static_cast<timing::Stall>(k) != timing::Stall::Issued && stalls[k] != 0)
      kinds.push_back(k);
  std::stable_sort(kinds.begin(), kinds.end(),
                   [&](size_t a, size_t b) { return stalls[a] > stalls[b]; });
  kinds.resize(std::min<size_t>(kinds.size(), 3));
  std::vector<std::string> shown;
  for (size_t k : kinds)
    shown.push_back(fmt::format("{} {:.1f}%", timing::name(static_cast<timing::Stall>(k)),
                                100.0 * double(stalls[k]) / double(sm_cycles)));
  out += fmt::format(
      "  largest SM stalls: {} (of {} SM-cycles)\n",
      shown.empty() ? std::string("none") : fmt::format("{}", fmt::join(shown, ", ")), sm_cycles);
  const auto hit_rate = [](const timing::CacheStats& c) {
    return c.accesses == 0 ? std::string("no accesses")
                           : fmt::format("{:.1f}% hits of {} accesses",
                                         100.0 * double(c.hits) / double(c.accesses), c.accesses);
  };
  out += fmt::format("  I-cache {}, D-cache {}\n", hit_rate(icache), hit_rate(dcache));
  out += fmt::format("cycles {}\n", t.cycles);
  return out;
}

}  // namespace ventus::cli
#endif  // VENTUS_HAVE_DRIVER
