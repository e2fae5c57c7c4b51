#include "trace.h"

#include <fmt/format.h>

#include <cstring>

namespace ventus::sim {

void TraceState::before(const Warp& w, MemorySystem& mem) {
  std::memcpy(x_, w.x, sizeof x_);
  v_.resize(kNumVRegs * kMaxLanes);
  std::memcpy(v_.data(), w.v, sizeof w.v);
  mask_ = w.mask;
  accesses_.clear();
  mem.log = &accesses_;
}

std::string TraceState::after(const Warp& w, MemorySystem& mem, const CachedInsn& entry,
                              uint32_t pc, uint32_t sm, uint32_t workgroup) {
  mem.log = nullptr;
  std::string line =
      fmt::format("core {} wg {} warp {}: {:#010x} (", sm, workgroup, w.warp_in_group, pc);
  if (entry.prefixed) line += fmt::format("{:#010x} ", entry.prefix_word);
  if (entry.length == 8)
    line += fmt::format("{:#018x}) {}", entry.insn.word(), disassemble(entry, pc));
  else
    line += fmt::format("{:#010x}) {}", entry.insn.raw, disassemble(entry, pc));
  for (unsigned r = 1; r < kNumXRegs; ++r)
    if (w.x[r] != x_[r]) line += fmt::format(" x{} {:#010x}", r, w.x[r]);
  for (unsigned r = 0; r < kNumVRegs; ++r) {
    const uint32_t* before = &v_[r * kMaxLanes];
    if (std::memcmp(before, w.v[r], sizeof w.v[r]) == 0) continue;
    line += fmt::format(" v{} [{:#010x}]", r, mask_);
    for (unsigned lane = 0; lane < w.lanes; ++lane) line += fmt::format(" {:08x}", w.v[r][lane]);
  }
  for (const MemAccess& a : accesses_) {
    line += a.store ? " st" : " ld";
    if (a.lane != MemorySystem::kScalarLane) line += fmt::format("[t{}]", a.lane);
    line += fmt::format(" {:#010x} {:#0{}x}", a.address, a.value, 2 + 2 * a.size);
  }
  if (w.mask != mask_) line += fmt::format(" simt {:#010x}", w.mask);
  return line;
}

}  // namespace ventus::sim
