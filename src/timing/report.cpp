// What the cycle model reports: stall and unit names, sums over launches, and the
// statistics JSON (docs/timing.md, "Reports").
#include <nlohmann/json.hpp>

#include "ventus/timing.h"

namespace ventus::timing {

std::string_view name(Stall stall) {
  switch (stall) {
    case Stall::Issued: return "issued";
    case Stall::NotSelected: return "not_selected";
    case Stall::Fetch: return "fetch";
    case Stall::IcacheMiss: return "icache_miss";
    case Stall::EmptyIbuffer: return "empty_ibuffer";
    case Stall::Scoreboard: return "scoreboard";
    case Stall::BankConflict: return "bank_conflict";
    case Stall::Collector: return "collector";
    case Stall::UnitBusy: return "unit_busy";
    case Stall::Memory: return "memory";
    case Stall::Barrier: return "barrier";
    case Stall::BranchRedirect: return "branch_redirect";
    case Stall::Dispatch: return "dispatch";
    case Stall::Ended: return "ended";
    case Stall::Idle: return "idle";
    case Stall::Count: break;
  }
  return "unknown";
}

std::string_view name(Unit unit) {
  switch (unit) {
    case Unit::ScalarAlu: return "scalar_alu";
    case Unit::VectorAlu: return "vector_alu";
    case Unit::Multiply: return "multiply";
    case Unit::Fpu: return "fpu";
    case Unit::Sfu: return "sfu";
    case Unit::Lsu: return "lsu";
    case Unit::Csr: return "csr";
    case Unit::Tensor: return "tensor";
    case Unit::Count: break;
  }
  return "unknown";
}

void CacheStats::add(const CacheStats& o) {
  accesses += o.accesses;
  hits += o.hits;
  misses += o.misses;
  mshr_merges += o.mshr_merges;
  mshr_full += o.mshr_full;
  writes += o.writes;
}

namespace {

template <size_t N>
void add_array(std::array<uint64_t, N>& to, const std::array<uint64_t, N>& from) {
  for (size_t k = 0; k < N; ++k) to[k] += from[k];
}

void add_sm(SmStats& to, const SmStats& from) {
  to.instructions += from.instructions;
  to.busy_cycles += from.busy_cycles;
  add_array(to.stalls, from.stalls);
  to.icache.add(from.icache);
  to.dcache.add(from.dcache);
  to.lds_accesses += from.lds_accesses;
  to.lds_bank_conflict_cycles += from.lds_bank_conflict_cycles;
  to.register_bank_conflicts += from.register_bank_conflicts;
  to.branch_redirects += from.branch_redirects;
  add_array(to.unit_busy, from.unit_busy);
  add_array(to.unit_issued, from.unit_issued);
  for (const WarpSlotStats& w : from.warps) {
    auto it = std::find_if(to.warps.begin(), to.warps.end(),
                           [&](const WarpSlotStats& x) { return x.slot == w.slot; });
    if (it == to.warps.end()) {
      to.warps.push_back(w);
      continue;
    }
    it->instructions += w.instructions;
    add_array(it->stalls, w.stalls);
  }
  std::sort(to.warps.begin(), to.warps.end(),
            [](const WarpSlotStats& a, const WarpSlotStats& b) { return a.slot < b.slot; });
}

}  // namespace

// Launches run one after another: cycles add. An SM or warp slot one launch did not use
// was idle through it, so its idle count grows by that launch's cycles and every part of
// a breakdown still adds up to the total.
void LaunchTiming::add(const LaunchTiming& other) {
  const auto idle = static_cast<size_t>(Stall::Idle);
  for (SmStats& s : sms) {
    const bool in_other = std::any_of(other.sms.begin(), other.sms.end(),
                                      [&](const SmStats& o) { return o.sm == s.sm; });
    if (!in_other) {
      s.stalls[idle] += other.cycles;
      for (WarpSlotStats& w : s.warps) w.stalls[idle] += other.cycles;
    }
  }
  for (const SmStats& o : other.sms) {
    auto it = std::find_if(sms.begin(), sms.end(), [&](const SmStats& s) { return s.sm == o.sm; });
    if (it == sms.end()) {
      SmStats fresh;
      fresh.sm = o.sm;
      fresh.stalls[idle] = cycles;
      sms.push_back(fresh);
      it = sms.end() - 1;
    }
    // Warp slots this launch did not use were idle through it; slots only it used were idle
    // through the earlier launches.
    for (WarpSlotStats& w : it->warps)
      if (std::none_of(o.warps.begin(), o.warps.end(),
                       [&](const WarpSlotStats& x) { return x.slot == w.slot; }))
        w.stalls[idle] += other.cycles;
    SmStats incoming = o;
    for (WarpSlotStats& w : incoming.warps)
      if (std::none_of(it->warps.begin(), it->warps.end(),
                       [&](const WarpSlotStats& x) { return x.slot == w.slot; }))
        w.stalls[idle] += cycles;
    add_sm(*it, incoming);
  }
  std::sort(sms.begin(), sms.end(), [](const SmStats& a, const SmStats& b) { return a.sm < b.sm; });
  cycles += other.cycles;
  instructions += other.instructions;
  l2.add(other.l2);
  memory_requests += other.memory_requests;
}

namespace {

using Json = nlohmann::ordered_json;

Json cache_json(const CacheStats& c) {
  return Json{{"accesses", c.accesses},
              {"hits", c.hits},
              {"misses", c.misses},
              {"mshr_merges", c.mshr_merges},
              {"mshr_full", c.mshr_full},
              {"writes", c.writes},
              {"hit_rate", c.accesses ? double(c.hits) / double(c.accesses) : 0.0}};
}

Json stalls_json(const StallCounts& counts) {
  Json j = Json::object();
  for (size_t k = 0; k < kStallKinds; ++k) j[std::string(name(static_cast<Stall>(k)))] = counts[k];
  return j;
}

}  // namespace

std::string to_json(const LaunchTiming& launch) {
  Json sms = Json::array();
  for (const SmStats& s : launch.sms) {
    Json units = Json::object();
    for (size_t u = 0; u < kUnits; ++u)
      units[std::string(name(static_cast<Unit>(u)))] = {{"issued", s.unit_issued[u]},
                                                        {"busy", s.unit_busy[u]}};
    Json warps = Json::array();
    for (const WarpSlotStats& w : s.warps)
      warps.push_back(
          {{"slot", w.slot}, {"instructions", w.instructions}, {"stalls", stalls_json(w.stalls)}});
    sms.push_back(
        {{"sm", s.sm},
         {"instructions", s.instructions},
         {"busy_cycles", s.busy_cycles},
         {"ipc", launch.cycles ? double(s.instructions) / double(launch.cycles) : 0.0},
         {"stalls", stalls_json(s.stalls)},
         {"icache", cache_json(s.icache)},
         {"dcache", cache_json(s.dcache)},
         {"lds",
          {{"accesses", s.lds_accesses}, {"bank_conflict_cycles", s.lds_bank_conflict_cycles}}},
         {"register_bank_conflicts", s.register_bank_conflicts},
         {"branch_redirects", s.branch_redirects},
         {"units", std::move(units)},
         {"warps", std::move(warps)}});
  }
  Json doc = {{"cycles", launch.cycles},     {"instructions", launch.instructions},
              {"ipc", launch.ipc()},         {"memory_requests", launch.memory_requests},
              {"l2", cache_json(launch.l2)}, {"sms", std::move(sms)}};
  return doc.dump(2) + "\n";
}

}  // namespace ventus::timing
