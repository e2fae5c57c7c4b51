#include "memory_model.h"

#include <algorithm>
#include <bit>

namespace ventus::timing {

Cache::Cache(uint32_t sets, uint32_t ways, uint32_t line_bytes, uint32_t mshrs)
    : sets_(sets),
      ways_(ways),
      line_bytes_(line_bytes),
      line_shift_(static_cast<uint32_t>(std::countr_zero(line_bytes))),
      mshrs_(mshrs),
      ways_store_(size_t{sets} * ways) {}

Cache::Probe Cache::probe(uint64_t line, uint64_t t, uint64_t& ready) {
  Way* set = &ways_store_[(line & (sets_ - 1)) * ways_];
  for (uint32_t w = 0; w < ways_; ++w) {
    if (!set[w].valid || set[w].line != line) continue;
    ready = set[w].fill;
    if (set[w].fill > t) return Probe::InFlight;
    set[w].last_use = t;
    return Probe::Hit;
  }
  return Probe::Miss;
}

uint64_t Cache::mshr_free_at(uint64_t t) {
  while (!in_flight_.empty() && in_flight_.top() <= t) in_flight_.pop();
  return in_flight_.size() < mshrs_ ? t : in_flight_.top();
}

void Cache::allocate(uint64_t line, uint64_t t, uint64_t fill) {
  Way* set = &ways_store_[(line & (sets_ - 1)) * ways_];
  // The victim: an invalid way, else the least recently used one whose data is there (a
  // line in flight keeps its way), else the least recently used.
  Way* victim = nullptr;
  for (uint32_t w = 0; w < ways_ && !victim; ++w)
    if (!set[w].valid) victim = &set[w];
  if (!victim)
    for (uint32_t w = 0; w < ways_; ++w)
      if (set[w].fill <= t && (!victim || set[w].last_use < victim->last_use)) victim = &set[w];
  if (!victim)
    victim = std::min_element(set, set + ways_,
                              [](const Way& a, const Way& b) { return a.last_use < b.last_use; });
  *victim = {line, fill, fill, true};  // most recently used from its fill on
  // The MSHRs whose lines arrived by t are free (one of them is this miss's).
  while (!in_flight_.empty() && in_flight_.top() <= t) in_flight_.pop();
  in_flight_.push(fill);
}

bool Cache::contains(uint64_t line, bool invalidate) {
  Way* set = &ways_store_[(line & (sets_ - 1)) * ways_];
  for (uint32_t w = 0; w < ways_; ++w)
    if (set[w].valid && set[w].line == line) {
      if (invalidate) set[w].valid = false;
      return true;
    }
  return false;
}

void Cache::invalidate_all() {
  for (Way& w : ways_store_) w.valid = false;
}

MemoryHierarchy::MemoryHierarchy(const Config& config)
    : config_(config),
      l2_(config.l2_sets, config.l2_ways, config.l2_line_bytes, config.l2_mshrs),
      slots_free_at_(config.memory_outstanding, 0) {}

uint64_t MemoryHierarchy::memory_access(uint64_t t) {
  auto slot = std::min_element(slots_free_at_.begin(), slots_free_at_.end());
  const uint64_t start = std::max(t, *slot);
  *slot = start + config_.memory_latency;
  ++memory_requests_;
  return *slot;
}

uint64_t MemoryHierarchy::read(uint32_t address, uint64_t t) {
  ++stats_.accesses;
  const uint64_t line = l2_.line_of(address);
  uint64_t ready = 0;
  switch (l2_.probe(line, t, ready)) {
    case Cache::Probe::Hit: ++stats_.hits; return t + config_.l2_hit_latency;
    case Cache::Probe::InFlight:
      ++stats_.mshr_merges;
      return std::max(ready, t + config_.l2_hit_latency);
    case Cache::Probe::Miss: break;
  }
  ++stats_.misses;
  const uint64_t allocated = l2_.mshr_free_at(t);
  if (allocated > t) ++stats_.mshr_full;
  const uint64_t answered = memory_access(allocated + config_.l2_hit_latency);
  l2_.allocate(line, allocated, answered);
  return answered;
}

uint64_t MemoryHierarchy::write(uint32_t address, uint64_t t) {
  ++stats_.writes;
  const uint64_t line = l2_.line_of(address);
  if (l2_.contains(line)) ++stats_.hits;
  return memory_access(t + config_.l2_hit_latency);
}

L1Cache::L1Cache(const Config& config, uint32_t sets, uint32_t ways, uint32_t line_bytes,
                 uint32_t mshrs, uint32_t hit_latency, MemoryHierarchy& next)
    : config_(config),
      cache_(sets, ways, line_bytes, mshrs),
      hit_latency_(hit_latency),
      next_(next) {}

uint64_t L1Cache::miss(uint64_t line, uint32_t address, uint64_t t) {
  ++stats_.misses;
  const uint64_t answered = next_.read(address, t + config_.l1_to_l2_cycles);
  const uint64_t fill = answered + config_.l1_to_l2_cycles;
  cache_.allocate(line, t, fill);
  return fill;
}

uint64_t L1Cache::read(uint32_t address, uint64_t t) {
  ++stats_.accesses;
  const uint64_t line = cache_.line_of(address);
  uint64_t ready = 0;
  switch (cache_.probe(line, t, ready)) {
    case Cache::Probe::Hit: ++stats_.hits; return t + hit_latency_;
    case Cache::Probe::InFlight: ++stats_.mshr_merges; return std::max(ready, t + hit_latency_);
    case Cache::Probe::Miss: break;
  }
  const uint64_t allocated = cache_.mshr_free_at(t);
  if (allocated > t) ++stats_.mshr_full;
  return miss(line, address, allocated);
}

bool L1Cache::fetch(uint32_t address, uint64_t t, uint64_t& ready) {
  ++stats_.accesses;
  const uint64_t line = cache_.line_of(address);
  switch (cache_.probe(line, t, ready)) {
    case Cache::Probe::Hit: ++stats_.hits; return true;
    case Cache::Probe::InFlight: ++stats_.mshr_merges; return false;
    case Cache::Probe::Miss: break;
  }
  if (cache_.mshr_free_at(t) > t) {
    ++stats_.mshr_full;
    ready = 0;
    return false;
  }
  ready = miss(line, address, t);
  return false;
}

uint64_t L1Cache::write(uint32_t address, uint64_t t) {
  ++stats_.writes;
  cache_.contains(cache_.line_of(address));  // updated in place when present
  return next_.write(address, t + config_.l1_to_l2_cycles) + config_.l1_to_l2_cycles;
}

uint64_t L1Cache::atomic(uint32_t address, uint64_t t) {
  ++stats_.accesses;
  cache_.contains(cache_.line_of(address), /*invalidate=*/true);
  const uint64_t old_value = next_.read(address, t + config_.l1_to_l2_cycles);
  next_.write(address, old_value);
  return old_value + config_.l1_to_l2_cycles;
}

}  // namespace ventus::timing
