#include "trace.h"

#include <algorithm>
#include <charconv>
#include <cstring>

#include "ventus/isa.h"

namespace ventus::sim {
namespace {

// Writes value as eight hex digits at p: the nibbles spread to bytes, turned into ASCII
// digits all at once, the most significant first.
inline char* put_hex8(char* p, uint32_t value) {
  uint64_t x = value;
  x = (x | x << 16) & 0x0000ffff0000ffffull;
  x = (x | x << 8) & 0x00ff00ff00ff00ffull;
  x = (x | x << 4) & 0x0f0f0f0f0f0f0f0full;  // byte i: nibble i
  const uint64_t letters = ((x + 0x0606060606060606ull) >> 4) & 0x0101010101010101ull;
  x = __builtin_bswap64(x + 0x3030303030303030ull + letters * ('a' - '0' - 10));
  std::memcpy(p, &x, 8);
  return p + 8;
}
// " 0x" and eight digits.
inline char* put_word(char* p, uint32_t value) {
  std::memcpy(p, " 0x", 3);
  return put_hex8(p + 3, value);
}
inline char* put_text(char* p, std::string_view text) {
  std::memcpy(p, text.data(), text.size());
  return p + text.size();
}
inline char* put_decimal(char* p, uint32_t value) {
  return std::to_chars(p, p + 10, value).ptr;
}
// Value in hex, at least `digits` digits (as fmt's {:0Nx}), after "0x".
char* put_0x(char* p, uint64_t value, unsigned digits) {
  char buffer[16];
  unsigned n = 0;
  do {
    buffer[15 - n++] = "0123456789abcdef"[value & 15];
    value >>= 4;
  } while (value != 0);
  for (; n < digits; ++n) buffer[15 - n] = '0';
  return put_text(put_text(p, "0x"), std::string_view(buffer + 16 - n, n));
}

}  // namespace

void TraceState::before(const Warp& w, MemorySystem& mem, const CachedInsn& entry) {
  std::memcpy(x_, w.x, sizeof x_);
  const VectorRegisters written = vector_registers_written(entry.insn);
  v_first_ = written.first;
  v_end_ = written.end;
  std::memcpy(v_[v_first_], w.v[v_first_], (v_end_ - v_first_) * sizeof w.v[0]);
  mask_ = w.mask;
  accesses_.clear();
  mem.log = &accesses_;
}

const std::string& TraceState::instruction_text(const CachedInsn& entry, uint32_t pc) {
  const uint64_t word = entry.length == 8 ? entry.insn.word() : entry.insn.raw;
  Text& t = texts_[pc];
  if (!t.text.empty() && t.word == word && t.prefix_word == entry.prefix_word &&
      t.prefixed == entry.prefixed)
    return t.text;
  char words[40] = {'('};
  char* p = words + 1;
  if (entry.prefixed) p = put_text(put_0x(p, entry.prefix_word, 8), " ");
  p = put_text(put_0x(p, word, entry.length == 8 ? 16 : 8), ") ");
  t = {word, entry.prefix_word, entry.prefixed, std::string(words, p) + disassemble(entry, pc)};
  return t.text;
}

const std::string& TraceState::after(const Warp& w, MemorySystem& mem, const CachedInsn& entry,
                                     uint32_t pc, uint32_t sm, uint32_t workgroup) {
  mem.log = nullptr;
  const std::string& text = instruction_text(entry, pc);
  // The longest line this instruction can give: the words "core", "wg", "warp" and their
  // numbers; pc and text; 63 scalar registers; the vector rows; the accesses; the mask.
  constexpr size_t kRow = 18 + 11 + 9 * kMaxLanes, kAccess = 8 + 11 + 11;
  const size_t longest =
      64 + text.size() + 63 * 15 + (v_end_ - v_first_) * kRow + accesses_.size() * kAccess + 16;
  if (buffer_.size() < longest) buffer_.resize(longest);
  char* p = buffer_.data();
  p = put_decimal(put_text(p, "core "), sm);
  p = put_decimal(put_text(p, " wg "), workgroup);
  p = put_decimal(put_text(p, " warp "), w.warp_in_group);
  p = put_text(put_word(put_text(p, ":"), pc), " ");
  p = put_text(p, text);
  if (std::memcmp(x_, w.x, sizeof x_) != 0)
    for (unsigned r = 1; r < kNumXRegs; ++r)
      if (w.x[r] != x_[r]) p = put_word(put_decimal(put_text(p, " x"), r), w.x[r]);
  for (unsigned r = v_first_; r < v_end_; ++r) {
    if (std::memcmp(v_[r], w.v[r], sizeof w.v[r]) == 0) continue;
    p = put_text(put_decimal(put_text(p, " v"), r), " [");
    p = put_text(put_hex8(put_text(p, "0x"), mask_), "]");
    for (unsigned lane = 0; lane < w.lanes; ++lane) p = put_hex8(put_text(p, " "), w.v[r][lane]);
  }
  for (const MemAccess& a : accesses_) {
    p = put_text(p, a.store ? " st" : " ld");
    if (a.lane != MemorySystem::kScalarLane)
      p = put_text(put_decimal(put_text(p, "[t"), a.lane), "]");
    p = put_word(p, a.address);
    p = a.size == 4 ? put_word(p, a.value) : put_0x(put_text(p, " "), a.value, 2 * a.size);
  }
  if (w.mask != mask_) p = put_word(put_text(p, " simt"), w.mask);
  line_.assign(buffer_.data(), p);
  return line_;
}

}  // namespace ventus::sim
