// TEMPORARY stand-ins for t14-config's config.cpp/report.cpp/timeline.cpp, so that t14-plumb
// links before they land. Deleted before t14-plumb's final commit.
#include <fmt/format.h>

#include <fstream>

#include "ventus/error.h"
#include "ventus/timing.h"

namespace ventus::timing {

Config preset(std::string_view name) {
  Config c;
  if (name == "verilog-release") {
  } else if (name == "chisel-master") {
#define VT_TIMING_PARAM(n, vr, cm, unit, what, source) c.n = cm;
#include "ventus/timing_parameters.def"
#undef VT_TIMING_PARAM
  } else {
    throw Error(fmt::format("unknown timing preset '{}' (verilog-release, chisel-master)", name));
  }
  c.preset = std::string(name);
  return c;
}
void set_parameter(Config& c, std::string_view name, std::string_view value) {
  const uint32_t v = static_cast<uint32_t>(std::stoul(std::string(value)));
#define VT_TIMING_PARAM(n, vr, cm, unit, what, source) \
  if (name == #n) {                                    \
    c.n = v;                                           \
    return;                                            \
  }
#include "ventus/timing_parameters.def"
#undef VT_TIMING_PARAM
  throw Error(fmt::format("unknown timing parameter '{}'", name));
}
void set_parameter(Config& c, std::string_view a) {
  const size_t eq = a.find('=');
  if (eq == std::string_view::npos) throw Error(fmt::format("'{}': expected NAME=VALUE", a));
  set_parameter(c, a.substr(0, eq), a.substr(eq + 1));
}
Config load(std::string_view p) {
  if (p.find('/') == std::string_view::npos && !p.ends_with(".json")) return preset(p);
  std::ifstream in{std::string(p)};
  if (!in) throw Error(fmt::format("{}: cannot open", p));
  return preset("verilog-release");
}
std::string to_json(const Config& c) { return fmt::format("{{\"preset\": \"{}\"}}", c.preset); }
void validate(const Config& c) {
  if (c.icache_sets == 0) throw Error("icache_sets must be at least 1");
}
std::string_view name(Stall s) {
  static const char* n[] = {"issued",     "not_selected", "fetch",      "icache_miss",
                            "empty_ibuffer", "scoreboard", "bank_conflict", "collector",
                            "unit_busy",  "memory",       "barrier",    "branch_redirect",
                            "dispatch",   "ended",        "idle"};
  return n[static_cast<size_t>(s)];
}
std::string_view name(Unit u) {
  static const char* n[] = {"scalar_alu", "vector_alu", "multiply", "fpu",
                            "sfu",        "lsu",        "csr",      "tensor"};
  return n[static_cast<size_t>(u)];
}
void CacheStats::add(const CacheStats& o) {
  accesses += o.accesses, hits += o.hits, misses += o.misses, mshr_merges += o.mshr_merges;
  mshr_full += o.mshr_full, writes += o.writes;
}
void LaunchTiming::add(const LaunchTiming& o) {
  cycles += o.cycles, instructions += o.instructions;
  if (sms.size() < o.sms.size()) sms.resize(o.sms.size());
  for (size_t i = 0; i < o.sms.size(); ++i) {
    sms[i].sm = o.sms[i].sm;
    sms[i].instructions += o.sms[i].instructions;
    for (size_t k = 0; k < kStallKinds; ++k) sms[i].stalls[k] += o.sms[i].stalls[k];
    sms[i].icache.add(o.sms[i].icache);
    sms[i].dcache.add(o.sms[i].dcache);
  }
  l2.add(o.l2);
  memory_requests += o.memory_requests;
}
std::string to_json(const LaunchTiming& t) {
  return fmt::format("{{\"cycles\": {}, \"instructions\": {}}}", t.cycles, t.instructions);
}

struct ChromeTraceWriter::Impl {
  std::filesystem::path file;
  std::string body;
};
ChromeTraceWriter::ChromeTraceWriter(std::filesystem::path file) : impl_(new Impl{file, {}}) {}
ChromeTraceWriter::~ChromeTraceWriter() = default;
void ChromeTraceWriter::slice(uint32_t sm, Track, uint32_t index, uint64_t begin, uint64_t end,
                              std::string_view what) {
  impl_->body += fmt::format(
      "{}{{\"ph\":\"X\",\"pid\":{},\"tid\":{},\"ts\":{},\"dur\":{},\"name\":\"{}\"}}",
      impl_->body.empty() ? "" : ",", sm, index, begin, end - begin, what);
}
void ChromeTraceWriter::begin_launch(std::string_view, uint64_t) {}
void ChromeTraceWriter::finish() {
  std::ofstream out(impl_->file);
  out << "{\"traceEvents\":[" << impl_->body << "]}\n";
  if (!out) throw Error(fmt::format("{}: write failed", impl_->file.string()));
}

}  // namespace ventus::timing
