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
  // Before the instruction at pc runs: a snapshot of what it can change (the scalar
  // registers at its rd field, its destination group of vector registers under the warp's
  // vtype (isa::vector_registers_written), the SIMT mask);
  // starts recording memory accesses.
  void before(const Warp& w, MemorySystem& mem, const CachedInsn& entry, uint32_t pc);
  // After it ran: writes its line into sink; stops recording.
  void after(TraceSink& sink, const Warp& w, MemorySystem& mem, uint32_t sm, uint32_t workgroup);
  // The memory the instruction accessed (valid once it ran, until the next before()).
  const std::vector<MemAccess>& accesses() const { return accesses_; }

 private:
  // What is formatted once per pc and instruction: "0x<pc> (<words>) <disassembly>".
  struct Text {
    uint64_t word = 0;
    uint32_t prefix_word = 0;
    uint8_t prefixed = 0;
    uint32_t size = 0;  // of the text, which is followed by kPad bytes for chunked copies
    std::string text;
  };
  static constexpr size_t kPad = 16;
  Text& instruction_text(const CachedInsn& entry, uint32_t pc);

  // x[rd] and x[rd + 1] (where they exist) as they were: the only scalar registers an
  // instruction writes (Warp::write_x, write_x_pair; a PREFIX's modified scalar sources
  // are put back before it completes; tests/sim/writes_test.cpp holds every row to it).
  unsigned x_rd_ = 0;
  uint32_t x_[2] = {};
  // The vector registers [v_first_, v_end_) as they were before the instruction.
  uint32_t v_[kNumVRegs][kMaxLanes] = {};
  unsigned v_first_ = 0, v_end_ = 0;
  uint32_t mask_ = 0;
  std::vector<MemAccess> accesses_;
  const Text* text_ = nullptr;  // the instruction's, from before()
  std::unordered_map<uint32_t, Text> texts_;
  // A direct-mapped index in front of texts_ (whose elements do not move), by pc.
  struct Recent {
    uint32_t pc = 0;
    Text* text = nullptr;
  };
  static constexpr unsigned kRecent = 1024;
  Recent recent_[kRecent];
  // "core <sm> wg <workgroup> warp <warp>: " of the last line, which the next line of the
  // same warp repeats.
  struct Header {
    uint32_t sm = ~0u, workgroup = ~0u, warp = ~0u;
    uint32_t size = 0;
    char text[48] = {};
  };
  Header header_;
};

}  // namespace ventus::sim
