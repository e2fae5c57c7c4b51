#include "trace.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <functional>
#include <memory>
#include <string_view>

#include "ventus/isa.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

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
// " " and eight hex digits for each of words[0, n): four words at a time where the host has
// SSE2 (every x86-64), the same digits as put_hex8.
inline char* put_hex_row(char* p, const uint32_t* words, unsigned n) {
  unsigned i = 0;
#if defined(__SSE2__)
  const __m128i nibble = _mm_set1_epi8(0x0f), nine = _mm_set1_epi8(9);
  const __m128i zero = _mm_set1_epi8('0'), letters = _mm_set1_epi8('a' - '0' - 10);
  const auto ascii = [&](__m128i digits) {
    return _mm_add_epi8(_mm_add_epi8(digits, zero),
                        _mm_and_si128(_mm_cmpgt_epi8(digits, nine), letters));
  };
  for (; i + 4 <= n; i += 4) {
    __m128i x;
    std::memcpy(&x, words + i, sizeof x);
    // Each word's bytes most significant first, then each byte as two digits.
    x = _mm_or_si128(_mm_slli_epi16(x, 8), _mm_srli_epi16(x, 8));
    x = _mm_shufflehi_epi16(_mm_shufflelo_epi16(x, 0xb1), 0xb1);
    const __m128i high = _mm_and_si128(_mm_srli_epi16(x, 4), nibble);
    const __m128i low = _mm_and_si128(x, nibble);
    const __m128i first = ascii(_mm_unpacklo_epi8(high, low));
    const __m128i second = ascii(_mm_unpackhi_epi8(high, low));
    const __m128i digits[4] = {first, _mm_unpackhi_epi64(first, first), second,
                               _mm_unpackhi_epi64(second, second)};
    for (const __m128i& d : digits) {
      *p = ' ';
      _mm_storel_epi64(reinterpret_cast<__m128i*>(p + 1), d);
      p += 9;
    }
  }
#endif
  for (; i < n; ++i) {
    *p++ = ' ';
    p = put_hex8(p, words[i]);
  }
  return p;
}

// Bit k of the result: vector register k of the `count` (at most 32) at a and b differs in
// some lane slot. Four slots per SSE2 step, or eight with AVX2 where the host has it (the
// trace compares up to 16 registers per instruction).
using ChangedRegisters = uint32_t (*)(const uint32_t (*a)[kMaxLanes],
                                      const uint32_t (*b)[kMaxLanes], unsigned count);

uint32_t changed_registers_baseline(const uint32_t (*a)[kMaxLanes], const uint32_t (*b)[kMaxLanes],
                                    unsigned count) {
  uint32_t changed = 0;
  for (unsigned r = 0; r < count; ++r) {
    lanes::U32x4 any = {};
    for (unsigned q = 0; q < kMaxLanes / 4; ++q) {
      lanes::U32x4 x, y;
      std::memcpy(&x, a[r] + 4 * q, sizeof x);
      std::memcpy(&y, b[r] + 4 * q, sizeof y);
      any |= x ^ y;
    }
    changed |= uint32_t{(any[0] | any[1] | any[2] | any[3]) != 0} << r;
  }
  return changed;
}

#if defined(__x86_64__)
__attribute__((target("avx2"))) uint32_t changed_registers_avx2(const uint32_t (*a)[kMaxLanes],
                                                                const uint32_t (*b)[kMaxLanes],
                                                                unsigned count) {
  static_assert(kMaxLanes % 8 == 0);
  uint32_t changed = 0;
  for (unsigned r = 0; r < count; ++r) {
    __m256i any = _mm256_setzero_si256();
    for (unsigned q = 0; q < kMaxLanes / 8; ++q) {
      const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a[r] + 8 * q));
      const __m256i y = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b[r] + 8 * q));
      any = _mm256_or_si256(any, _mm256_xor_si256(x, y));
    }
    changed |= uint32_t{_mm256_testz_si256(any, any) == 0} << r;
  }
  return changed;
}
#endif

const ChangedRegisters changed_registers = [] {
#if defined(__x86_64__)
  if (__builtin_cpu_supports("avx2")) return &changed_registers_avx2;
#endif
  return &changed_registers_baseline;
}();

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

void TraceState::before(const Warp& w, MemorySystem& mem, const CachedInsn& entry, uint32_t pc) {
  x_rd_ = entry.insn.rd;
  for (unsigned i = 0; i < 2; ++i) x_[i] = x_rd_ + i < kNumXRegs ? w.x[x_rd_ + i] : 0;
  text_ = &instruction_text(entry, pc);
  v_first_ = entry.insn.rd;
  v_end_ = v_first_ + isa::vector_registers_written(entry.insn, {w.vcfg.lmul, w.vcfg.sew, w.lanes});
  std::memcpy(v_[v_first_], w.v[v_first_], (v_end_ - v_first_) * sizeof w.v[0]);
  mask_ = w.mask;
  accesses_.clear();
  mem.log = &accesses_;
}

TraceState::Text& TraceState::instruction_text(const CachedInsn& entry, uint32_t pc) {
  const uint64_t word = entry.length == 8 ? entry.insn.word() : entry.insn.raw;
  const auto current = [&](const Text& t) {
    return t.size != 0 && t.word == word && t.prefix_word == entry.prefix_word &&
           t.prefixed == entry.prefixed;
  };
  Recent& recent = recent_[(pc >> 2) % kRecent];
  if (recent.text && recent.pc == pc && current(*recent.text)) return *recent.text;
  Text& t = texts_[pc];
  recent = {pc, &t};
  if (current(t)) return t;
  char words[64];
  char* p = put_text(put_0x(words, pc, 8), " (");
  if (entry.prefixed) p = put_text(put_0x(p, entry.prefix_word, 8), " ");
  p = put_text(put_0x(p, word, entry.length == 8 ? 16 : 8), ") ");
  std::string text = std::string(words, p) + disassemble(entry, pc);
  const auto size = static_cast<uint32_t>(text.size());
  text.resize(size + kPad);
  t = {word, entry.prefix_word, entry.prefixed, size, std::move(text)};
  return t;
}

void TraceState::after(TraceSink& sink, const Warp& w, MemorySystem& mem, uint32_t sm,
                       uint32_t workgroup) {
  mem.log = nullptr;
  const Text& text = *text_;
  // The longest line this instruction can give: the header and the text (both copied in
  // whole chunks); two scalar registers; the vector rows; the accesses; the mask; '\n'.
  constexpr size_t kRow = 18 + 11 + 9 * kMaxLanes, kAccess = 8 + 11 + 11;
  const size_t longest = sizeof header_.text + text.size + kPad + 2 * 15 +
                         (v_end_ - v_first_) * kRow + accesses_.size() * kAccess + 17;
  char* p = sink.room(longest);
  if (header_.sm != sm || header_.workgroup != workgroup || header_.warp != w.warp_in_group) {
    Header h{sm, workgroup, w.warp_in_group};
    char* end = put_decimal(put_text(h.text, "core "), sm);
    end = put_decimal(put_text(end, " wg "), workgroup);
    end = put_text(put_decimal(put_text(end, " warp "), w.warp_in_group), ": ");
    h.size = static_cast<uint32_t>(end - h.text);
    header_ = h;
  }
  std::memcpy(p, header_.text, sizeof header_.text);
  p += header_.size;
  for (size_t i = 0; i < text.size; i += kPad) std::memcpy(p + i, text.text.data() + i, kPad);
  p += text.size;
  // x[rd] and x[rd + 1], the scalar registers an instruction can write (trace.h).
  for (unsigned r = x_rd_; r < x_rd_ + 2 && r < kNumXRegs; ++r)
    if (w.x[r] != x_[r - x_rd_]) p = put_word(put_decimal(put_text(p, " x"), r), w.x[r]);
  for (unsigned first = v_first_; first < v_end_; first += 32) {
    const unsigned count = std::min(v_end_ - first, 32u);
    for (uint32_t bits = changed_registers(v_ + first, w.v + first, count); bits;
         bits &= bits - 1) {
      const unsigned r = first + static_cast<unsigned>(__builtin_ctz(bits));
      p = put_text(put_decimal(put_text(p, " v"), r), " [");
      p = put_text(put_hex8(put_text(p, "0x"), mask_), "]");
      p = put_hex_row(p, w.v[r], w.lanes);
    }
  }
  for (const MemAccess& a : accesses_) {
    p = put_text(p, a.store ? " st" : " ld");
    if (a.lane != MemorySystem::kScalarLane)
      p = put_text(put_decimal(put_text(p, "[t"), a.lane), "]");
    p = put_word(p, a.address);
    p = a.size == 4 ? put_word(p, a.value) : put_0x(put_text(p, " "), a.value, 2 * a.size);
  }
  if (w.mask != mask_) p = put_word(put_text(p, " simt"), w.mask);
  *p++ = '\n';
  sink.commit(p);
}

namespace {

class LineSink final : public TraceSink {
 public:
  explicit LineSink(std::function<void(std::string_view)> receive) : receive_(std::move(receive)) {}
  char* room(size_t bytes) override {
    if (line_.size() < bytes) line_.resize(bytes);
    return line_.data();
  }
  void commit(const char* end) override {
    receive_(std::string_view(line_.data(), static_cast<size_t>(end - line_.data()) - 1));
  }

 private:
  std::function<void(std::string_view)> receive_;
  std::vector<char> line_;
};

}  // namespace

std::shared_ptr<TraceSink> trace_lines(std::function<void(std::string_view line)> receive) {
  return std::make_shared<LineSink>(std::move(receive));
}

}  // namespace ventus::sim
