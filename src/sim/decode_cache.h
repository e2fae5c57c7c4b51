// Decoded code: every instruction word is decoded once into a CachedInsn, kept in lazily
// filled 4 KiB pages keyed by address. A 64-bit instruction (low 7 bits 0x3f) is read
// whole, its entry at the address of its low word. A regext/regexti prefix is folded with the word
// that follows it: the prefix's entry runs the extended instruction (at pc + 4), so a prefix never
// executes on its own. Decoded read-only code that no host write has touched since is kept from
// launch to launch (kernels cannot store into it); any other instruction is read from memory
// when the SM first executes it in the launch: a store to it before then is seen, a later one
// is not (docs/simulator.md, "Decoding and the decode cache").
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <unordered_map>

#include "semantics.h"
#include "ventus/device.h"

namespace ventus::sim {

struct CachedInsn {
  Insn insn;                 // the instruction, with a preceding prefix applied
  SemanticsFn fn = nullptr;  // nullptr: not decoded yet
  uint32_t prefix_word = 0;  // the regext/regexti word when prefixed
  uint8_t prefixed = 0;      // 1: this pc holds a prefix; the instruction itself is at pc + 4
  uint8_t length = 4;        // bytes of the instruction itself: 4, or 8 for a 64-bit word
  uint8_t counts_lanes = 0;  // vector class: a thread instruction per active lane
  // jit::ends_block(*this), worked out once: the interpreter asks after every instruction
  // it runs while translation is on (whether a block may start after it).
  uint8_t ends_block = 0;
  // jit::jumps_within_block(*this): its target is where the block that runs it goes on, not
  // where one starts (the interpreter does not count a start there).
  uint8_t jumps_within_block = 0;
};

class DecodeCache {
 public:
  explicit DecodeCache(const Memory& memory) : memory_(memory) {}

  // At the start of a launch of warps of `lanes` threads: keeps the decoded pages of
  // unchanged read-only memory and drops the rest. True when it kept every page.
  bool begin_launch(unsigned lanes);
  // Instructions decoded since the launch began.
  uint64_t decodes() const { return decodes_; }
  // Calls f(first, end) for each run [first, end) of vector registers that an instruction
  // this cache ever decoded can write (its destination group under any vtype, for the
  // fewest threads per warp of any launch: isa::vector_registers_written), in increasing
  // order. A warp that only ran such instructions holds zero in every other register.
  template <class F>
  void each_vector_register_run(F&& f) const {
    for (unsigned r = next_vector_write(0, true); r < kNumVRegs;) {
      const unsigned end = next_vector_write(r, false);
      f(r, end);
      r = next_vector_write(end, true);
    }
  }

  // The entry for pc, decoded on first use. Faults for misaligned and unmapped pcs.
  const CachedInsn& at(uint32_t pc) {
    if ((pc >> kPageShift) != last_page_number_ || (pc & 3) != 0) select_page(pc);
    CachedInsn& entry = last_page_->slots[(pc & (kPageSize - 1)) >> 2];
    if (!entry.fn) decode(entry, pc);
    return entry;
  }
  // The entry for pc if this launch already decoded it (or kept it decoded), else nullptr;
  // never decodes and never faults.
  const CachedInsn* decoded_at(uint32_t pc) const {
    if ((pc & 3) != 0) return nullptr;
    const auto page = pages_.find(pc >> kPageShift);
    if (page == pages_.end()) return nullptr;
    const CachedInsn& entry = page->second->slots[(pc & (kPageSize - 1)) >> 2];
    return entry.fn ? &entry : nullptr;
  }

 private:
  struct Page {
    CachedInsn slots[kPageSize / 4];
    // The bytes decoding read, [first, end) from the page's base (a prefix or a 64-bit
    // word at the end reads into the next page).
    uint32_t first = kPageSize, end = 0;
  };
  void select_page(uint32_t pc);
  void decode(CachedInsn& entry, uint32_t pc);
  void decode_long(CachedInsn& entry, uint32_t pc, uint32_t low);
  void note_vector_writes(const Insn& in);
  // The first register from r on whose bit in vector_writes_ is `written`, or kNumVRegs.
  unsigned next_vector_write(unsigned r, bool written) const {
    for (unsigned word = r / 64; word < kNumVRegs / 64; ++word) {
      uint64_t bits = written ? vector_writes_[word] : ~vector_writes_[word];
      if (word == r / 64) bits &= ~uint64_t{0} << (r % 64);
      if (bits) return 64 * word + static_cast<unsigned>(__builtin_ctzll(bits));
    }
    return kNumVRegs;
  }

  const Memory& memory_;
  std::unordered_map<uint32_t, std::unique_ptr<Page>> pages_;
  uint32_t last_page_number_ = ~0u;
  Page* last_page_ = nullptr;
  uint64_t generation_ = ~uint64_t{0};  // Memory::read_only_generation() of pages_
  uint64_t decodes_ = 0;
  // The registers every decoded instruction can write, as bits; never cleared (warps
  // outlive launches and dropped pages).
  uint64_t vector_writes_[kNumVRegs / 64] = {};
  // The fewest threads per warp of any launch so far (an mma fragment covers more registers
  // in narrower warps).
  unsigned fewest_lanes_ = kMaxLanes;
};

// The instruction text of an entry, for faults and the trace ("regext ...; vadd.vx ...").
std::string disassemble(const CachedInsn& entry, uint32_t pc);

}  // namespace ventus::sim
