// The translating tier (docs/design.md, "Execution tiers"): hot straight-line blocks of
// decoded instructions become host code through LLVM's ORC JIT. The common integer ALU
// (scalar and 32-bit vector) is inlined as IR on the warp's state; every other instruction is
// a call to its own semantics function, so a block does exactly what the interpreter does.
// Faults never unwind through translated code: the call thunk keeps the exception and the
// block returns where it stopped; Sm::run_block rethrows it at that instruction's pc.
#pragma once

#include <cstdint>
#include <exception>
#include <memory>
#include <unordered_map>
#include <vector>

#include "decode_cache.h"
#include "warp.h"

namespace ventus::jit {

// A translated block: entries[0..size) from start_pc on, in program order.
struct Block {
  // Runs at most `count` (1..size) entries. Returns 2 * done + faulted: done instructions
  // completed; faulted: entries[done] raised the exception left in *error. Without a fault,
  // entries[done - 1] is the last one executed (it changed the flow, the SIMT mask or
  // next_pc, or it is the count-th).
  using Fn = uint32_t (*)(sim::Exec* ctx, sim::Warp* warp, std::exception_ptr* error,
                          uint32_t count);
  Fn fn = nullptr;
  std::vector<const sim::CachedInsn*> entries;
  std::vector<uint32_t> pcs;    // of each entry (of its prefix when prefixed)
  std::vector<uint8_t> called;  // 1: executed through its semantics function
  // Prefix sums over the first k entries, k = 0..size: warp instructions, thread
  // instructions of scalar entries and prefixes, and vector entries (one thread instruction
  // per active lane each; the mask cannot change before the last executed entry).
  std::vector<uint64_t> warp_before, scalar_lanes_before, vector_before;
  // How many entries from the start fit in `budget` warp instructions (0: none).
  uint32_t entries_within(uint64_t budget) const {
    uint32_t k = static_cast<uint32_t>(entries.size());
    while (k > 0 && warp_before[k] > budget) --k;
    return k;
  }
  uint32_t next_pc_after(size_t k) const {  // the pc after entries[k] when it ran in sequence
    return pcs[k] + 4 * entries[k]->prefixed + entries[k]->length;
  }
};

class Translator {
 public:
  // threshold: executions of a block start before it is translated (0: at the first one
  // whose instructions are all decoded).
  explicit Translator(uint32_t threshold);
  ~Translator();
  Translator(const Translator&) = delete;
  Translator& operator=(const Translator&) = delete;

  // The translation of the block at pc, counting this execution; nullptr: interpret it.
  // Only instructions the decode cache already holds are translated (the interpreter decodes
  // an instruction when it first executes it, and a store before that must be seen).
  const Block* lookup(uint32_t pc, const sim::DecodeCache& cache) {
    Slot& slot = slots_[pc];
    if (slot.block || slot.refused) return slot.block.get();
    if (slot.count++ < threshold_) return nullptr;
    translate(pc, cache, slot);
    return slot.block.get();
  }
  // Drops every translation (the decode cache dropped decoded code).
  void clear();

  // Where a translated block's faults wait for Sm::run_block.
  std::exception_ptr error;

 private:
  struct Slot {
    uint32_t count = 0;
    bool refused = false;  // nothing worth translating starts here
    std::unique_ptr<Block> block;
  };
  void translate(uint32_t pc, const sim::DecodeCache& cache, Slot& slot);

  uint32_t threshold_;
  std::unordered_map<uint32_t, Slot> slots_;
  struct Engine;  // LLVM's objects, created at the first translation
  std::unique_ptr<Engine> engine_;
};

// Blocks translated by every Translator of the process so far (for tests and statistics).
uint64_t blocks_translated_in_process();

// Whether the entry is executed as inline IR rather than a call (exposed for tests).
bool is_inlined(const sim::CachedInsn& entry);

}  // namespace ventus::jit
