// The commit log (docs/trace.md): one line per executed instruction with the registers it
// wrote, the SIMT mask it changed and the memory it accessed.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "decode_cache.h"
#include "memsys.h"
#include "ventus/device.h"
#include "warp.h"

namespace ventus::sim {

class TraceState {
 public:
  // Snapshot of what the instruction can change (every scalar register, the vector
  // registers its row can write, the SIMT mask); starts recording memory accesses.
  void before(const Warp& w, MemorySystem& mem, const CachedInsn& entry);
  // Writes the line of the instruction that just ran at pc into sink; stops recording.
  void after(TraceSink& sink, const Warp& w, MemorySystem& mem, const CachedInsn& entry,
             uint32_t pc, uint32_t sm, uint32_t workgroup);
  // The memory the instruction accessed (valid once it ran, until the next before()).
  const std::vector<MemAccess>& accesses() const { return accesses_; }

 private:
  // "(<words>) <disassembly>" of the instruction at a pc, formatted once per pc and words.
  const std::string& instruction_text(const CachedInsn& entry, uint32_t pc);

  uint32_t x_[kNumXRegs] = {};
  // The vector registers [v_first_, v_end_) as they were before the instruction.
  uint32_t v_[kNumVRegs][kMaxLanes] = {};
  unsigned v_first_ = 0, v_end_ = 0;
  uint32_t mask_ = 0;
  std::vector<MemAccess> accesses_;
  struct Text {
    uint64_t word;
    uint32_t prefix_word;
    uint8_t prefixed;
    std::string text;
  };
  std::unordered_map<uint32_t, Text> texts_;
  // A direct-mapped index in front of texts_ (whose elements do not move), by pc.
  struct Recent {
    uint32_t pc = 0;
    Text* text = nullptr;
  };
  static constexpr unsigned kRecent = 1024;
  Recent recent_[kRecent];
};

}  // namespace ventus::sim
