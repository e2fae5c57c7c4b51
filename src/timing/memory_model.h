// The caches, the L2 and the memory of the cycle model (docs/timing.md, "Memory").
//
// Requests are resolved when they are made, in the order the model makes them (cycle by
// cycle, SM by SM): each level keeps, per line, the cycle its data arrives, and each
// shared resource (MSHRs, memory request slots) the cycle it is free again. A request
// therefore sees every earlier request's effect: a line in flight is an MSHR merge, a full
// set of MSHRs delays it, a busy memory queues it.
#pragma once

#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

#include "ventus/timing.h"

namespace ventus::timing {

class Cache {
 public:
  Cache(uint32_t sets, uint32_t ways, uint32_t line_bytes, uint32_t mshrs);

  uint32_t line_bytes() const { return line_bytes_; }
  uint64_t line_of(uint32_t address) const { return address >> line_shift_; }

  enum class Probe : uint8_t { Hit, InFlight, Miss };
  // What a read of the line finds at cycle t; ready: when its data is there (Hit, InFlight).
  Probe probe(uint64_t line, uint64_t t, uint64_t& ready);
  // The earliest cycle >= t at which an MSHR is free for a new miss.
  uint64_t mshr_free_at(uint64_t t);
  // A miss allocated at cycle t whose data arrives at fill: the line (LRU victim) is in
  // flight until then and holds an MSHR.
  void allocate(uint64_t line, uint64_t t, uint64_t fill);
  // Whether the line is present (a write updates it); drops it when invalidate is set.
  bool contains(uint64_t line, bool invalidate = false);
  void invalidate_all();

 private:
  struct Way {
    uint64_t line = 0;
    uint64_t fill = 0;      // data there from this cycle
    uint64_t last_use = 0;  // the cycle of its last hit or its fill (LRU)
    bool valid = false;
  };
  uint32_t sets_, ways_, line_bytes_, line_shift_, mshrs_;
  std::vector<Way> ways_store_;
  // Fill cycles of the MSHRs taken, earliest first.
  std::priority_queue<uint64_t, std::vector<uint64_t>, std::greater<>> in_flight_;
};

// The L2 and the memory behind it, shared by every SM of the device.
class MemoryHierarchy {
 public:
  explicit MemoryHierarchy(const Config& config);
  // A line read reaching the L2 at cycle t (address of any byte in it): when its data
  // leaves the L2.
  uint64_t read(uint32_t address, uint64_t t);
  // A write of (part of) a line reaching the L2 at cycle t: when it is acknowledged.
  // Write-through, no allocation on a miss.
  uint64_t write(uint32_t address, uint64_t t);
  const CacheStats& stats() const { return stats_; }
  uint64_t memory_requests() const { return memory_requests_; }

 private:
  uint64_t memory_access(uint64_t t);  // a request to memory at t: when it is answered
  const Config& config_;
  Cache l2_;
  std::vector<uint64_t> slots_free_at_;  // memory_outstanding request slots
  CacheStats stats_;
  uint64_t memory_requests_ = 0;
};

// An L1 (instruction or data) of one SM in front of the shared hierarchy.
class L1Cache {
 public:
  L1Cache(const Config& config, uint32_t sets, uint32_t ways, uint32_t line_bytes, uint32_t mshrs,
          uint32_t hit_latency, MemoryHierarchy& next);
  uint64_t line_of(uint32_t address) const { return cache_.line_of(address); }
  uint32_t line_bytes() const { return cache_.line_bytes(); }
  // A line read at cycle t: when its data is there. Misses go to the L2; when every MSHR
  // is taken the request waits for the first to free (the caller sees a later answer).
  uint64_t read(uint32_t address, uint64_t t);
  // For fetch: true and ready when the line is there at t (hit), else starts or merges the
  // miss (when an MSHR is free) and returns false with ready = when the line will be there
  // (0 when no MSHR was free: retry).
  bool fetch(uint32_t address, uint64_t t, uint64_t& ready);
  // A write at cycle t (write-through, no allocation): when the next level acknowledges it.
  uint64_t write(uint32_t address, uint64_t t);
  // An atomic at cycle t: performed at the L2 (the L1 copy is dropped); its old value's time.
  uint64_t atomic(uint32_t address, uint64_t t);
  void invalidate_all() { cache_.invalidate_all(); }
  const CacheStats& stats() const { return stats_; }

 private:
  uint64_t miss(uint64_t line, uint32_t address, uint64_t t);
  const Config& config_;
  Cache cache_;
  uint32_t hit_latency_;
  MemoryHierarchy& next_;
  CacheStats stats_;
};

}  // namespace ventus::timing
