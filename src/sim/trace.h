// The commit log (docs/trace.md): one line per executed instruction with the registers it
// wrote, the SIMT mask it changed and the memory it accessed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "decode_cache.h"
#include "memsys.h"
#include "warp.h"

namespace ventus::sim {

class TraceState {
 public:
  // Snapshot of the warp before the instruction; starts recording memory accesses.
  void before(const Warp& w, MemorySystem& mem);
  // The line for the instruction that just ran at pc; stops recording.
  std::string after(const Warp& w, MemorySystem& mem, const CachedInsn& entry, uint32_t pc,
                    uint32_t sm, uint32_t workgroup);
  // The memory the instruction accessed (valid after after()).
  const std::vector<MemAccess>& accesses() const { return accesses_; }

 private:
  uint32_t x_[kNumXRegs] = {};
  std::vector<uint32_t> v_;  // kNumVRegs * kMaxLanes
  uint32_t mask_ = 0;
  std::vector<MemAccess> accesses_;
};

}  // namespace ventus::sim
