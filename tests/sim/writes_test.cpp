// Every row of the instruction table writes no register beyond what the commit log compares
// and what an SM clears on a reused warp: vector registers only in its destination group
// (isa::vector_registers_written, from the table's DEST column) and scalar registers only
// x[rd] and x[rd + 1]. Each row runs through the interpreter, as the decode cache gives it
// (with random prefixes: regext, register pairs, PREFIX modifiers, PREFIX_MEMORY), with
// random operands, under every vtype the simulator accepts, warps of 1 to 32 threads and
// random masks, on registers that often hold usable addresses; the whole register file is
// compared before and after, whether the instruction completed or faulted.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "decode_cache.h"
#include "memsys.h"
#include "semantics.h"

namespace ventus {
namespace {

constexpr uint32_t kCode = sim::kCodeBase;
constexpr uint32_t kData = 0x90000000u;  // 4 MiB of global data
constexpr uint32_t kDataBytes = 4u << 20;
constexpr uint32_t kPrivate = kData + (1u << 20);  // csr_pds: small private addresses fit

class Rng {
 public:
  explicit Rng(uint64_t seed) : gen_(seed) {}
  uint32_t bits() { return static_cast<uint32_t>(gen_()); }
  uint64_t bits64() { return gen_(); }
  unsigned below(unsigned n) { return static_cast<unsigned>(gen_() % n); }

  // A register's contents: a global or local address, a small offset, a 0/1 mask, or noise.
  uint32_t value(unsigned style, unsigned lane, uint32_t base) {
    switch (style) {
      case 0: return kData + base + 4 * lane;
      case 1: return sim::kLdsWindowBase + base + 4 * lane;
      case 2: return base / 4 + 4 * lane;
      case 3: return bits() & 1;
      case 4: return 0;
      default: return bits();
    }
  }

 private:
  std::mt19937_64 gen_;
};

// Scalar registers hold addresses more often: one address operand makes a scalar access.
constexpr unsigned kScalarStyles[] = {0, 0, 0, 1, 2, 4, 5};

// An offset into the data, aligned to 4 bytes or (for the asynchronous copies) 128.
uint32_t address_offset(Rng& rng) {
  return rng.below(0x8000) & (rng.below(4) == 0 ? ~127u : ~3u);
}

struct Machine {
  sim::Memory memory;
  sim::LocalMemory local;
  sim::MemorySystem mem{memory, local};
  std::unique_ptr<sim::Warp> warp = std::make_unique<sim::Warp>();
  std::unique_ptr<sim::Warp> before = std::make_unique<sim::Warp>();

  Machine() {
    memory.map(kCode, 4096);
    memory.map(kData, kDataBytes);
  }

  // A random warp state: registers, vtype, threads, mask, CSRs.
  void randomize(Rng& rng) {
    sim::Warp& w = *warp;
    for (unsigned r = 0; r < sim::kNumVRegs; ++r) {
      const unsigned style = rng.below(7);
      const uint32_t base = address_offset(rng);
      for (unsigned lane = 0; lane < sim::kMaxLanes; ++lane)
        w.v[r][lane] = rng.value(style, lane, base);
    }
    for (unsigned r = 1; r < sim::kNumXRegs; ++r)
      w.x[r] =
          rng.value(kScalarStyles[rng.below(std::size(kScalarStyles))], 0, address_offset(rng));
    w.x[0] = 0;
    // 64-bit addresses in register pairs need a zero high word.
    if (rng.below(2) == 0) {
      for (unsigned r = 1; r < sim::kNumXRegs; r += 2) w.x[r] = 0;
      for (unsigned r = 1; r < sim::kNumVRegs; r += 2) std::memset(w.v[r], 0, sizeof w.v[r]);
    }
    w.lanes = rng.below(3) == 0 ? 1 + rng.below(32) : 32;
    w.lane_mask = w.lanes == 32 ? ~0u : (1u << w.lanes) - 1;
    w.mask = rng.below(4) == 0 ? rng.bits() & w.lane_mask : w.lane_mask;
    const unsigned vsew = rng.below(3), vlmul = rng.below(2);
    w.vcfg = {(vsew << 3) | vlmul | 0xc0, rng.below(4) == 0 ? rng.below(w.lanes + 1) : w.lanes,
              8u << vsew, 1u << vlmul};
    w.frm = rng.below(8) == 0 ? 5 + rng.below(3) : rng.below(5);
    w.fflags = 0;
    w.vxrm = rng.below(4);
    w.simt_stack.clear();
    w.async_copies.clear();
    w.csr_lds = sim::kLdsWindowBase;
    w.csr_pds = kPrivate;
    w.csr_gds = kData;
    w.stack_base = w.stack_end = 0;
  }
};

// A random operand value that often makes the instruction run rather than fault: aligned
// register groups, no modifiers, known CSRs, supported vtypes.
int64_t likely_operand(const isa::OperandSlot& slot, int64_t value, Rng& rng) {
  if (rng.below(2) == 0) return value;
  const isa::OperandKindInfo& kind = isa::kind_info(slot.kind);
  switch (kind.style) {
    case isa::OperandStyle::Register:
    case isa::OperandStyle::NumberedRegister: {
      const int64_t top = slot.width ? (int64_t{1} << slot.width) : kind.max + 1;
      return static_cast<int64_t>(rng.below(static_cast<unsigned>(top))) &
             ~int64_t{(1 << rng.below(5)) - 1};
    }
    case isa::OperandStyle::Modifier: return 0;
    case isa::OperandStyle::Csr: return isa::csrs()[rng.below(isa::csrs().size())].number;
    case isa::OperandStyle::Vtype: return rng.below(3) << 3 | rng.below(2) | 0xc0;
    default: return value;
  }
}

// A word of `row` with random operands (0 when no such word decodes to it in 64 tries).
uint64_t random_word(const isa::InsnInfo& row, Rng& rng) {
  for (int i = 0; i < 64; ++i) {
    uint64_t word = (rng.bits64() & ~row.mask) | row.match;
    if (row.length == 4) word &= 0xffffffffu;
    for (const isa::OperandSlot& slot : row.operands) {
      const int64_t value = likely_operand(slot, isa::get_operand(word, slot), rng);
      if (isa::operand_fits(slot, value)) word = isa::set_operand(word, slot, value);
    }
    if (isa::decode_op(word) == row.op) return word;
  }
  return 0;
}

// The prefix rows a 32-bit instruction may follow.
constexpr isa::Op kPrefixes[] = {isa::Op::REGEXT,       isa::Op::REGEXTI, isa::Op::REGPAIR,
                                 isa::Op::REGPAIRI,     isa::Op::PREFIX,  isa::Op::PREFIXI,
                                 isa::Op::PREFIX_MEMORY};

TEST(RowWrites, EveryRowWritesOnlyItsDestinationGroupAndRdPair) {
  Machine m;
  Rng rng(20261127);
  // Trials per row until this many completed without a fault, or at most kMaxTrials.
  constexpr int kCompletions = 24, kMaxTrials = 800;
  std::vector<std::string> never_completed, never_filled;
  for (const isa::InsnInfo& row : isa::instructions()) {
    if (row.cls == isa::InsnClass::Prefix) continue;  // they run folded into the next word
    int completed = 0, filled = 0;
    for (int trial = 0; trial < kMaxTrials && completed < kCompletions; ++trial) {
      const uint64_t word = random_word(row, rng);
      ASSERT_NE(word, 0u) << row.mnemonic << " has no word that decodes to it";
      uint32_t code[3] = {static_cast<uint32_t>(word), static_cast<uint32_t>(word >> 32), 0};
      if (row.length == 4 && rng.below(2) == 0) {
        const isa::InsnInfo& prefix = isa::info(kPrefixes[rng.below(std::size(kPrefixes))]);
        code[1] = code[0];
        code[0] = static_cast<uint32_t>(random_word(prefix, rng));
      }
      ASSERT_TRUE(m.memory.write(kCode, code, sizeof code));
      m.randomize(rng);
      sim::Warp& w = *m.warp;
      sim::DecodeCache cache(m.memory);
      cache.begin_launch(w.lanes);
      const sim::CachedInsn& entry = cache.at(kCode);
      std::memcpy(m.before->x, w.x, sizeof w.x);
      std::memcpy(m.before->v, w.v, sizeof w.v);
      sim::Exec ctx{w, nullptr, &m.mem};
      m.mem.exec = &ctx;
      ctx.pc = kCode + 4 * entry.prefixed;
      ctx.next_pc = ctx.pc + entry.length;
      const isa::VectorShape shape{w.vcfg.lmul, w.vcfg.sew, w.lanes};
      const unsigned first = entry.insn.rd;
      const unsigned end = first + isa::vector_registers_written(entry.insn, shape);
      bool ok = true;
      try {
        entry.fn(ctx, entry.insn);
      } catch (const sim::ExecFault&) {
        ok = false;
      }
      completed += ok;
      const std::string what = std::string(row.mnemonic) + " (" + sim::disassemble(entry, kCode) +
                               ") under e" + std::to_string(w.vcfg.sew) + " m" +
                               std::to_string(w.vcfg.lmul) + ", " + std::to_string(w.lanes) +
                               " threads" + (ok ? "" : ", faulted");
      for (unsigned r = 0; r < sim::kNumVRegs; ++r) {
        if (r >= first && r < end) continue;
        ASSERT_EQ(std::memcmp(w.v[r], m.before->v[r], sizeof w.v[r]), 0)
            << what << " wrote v" << r << " outside its destination group [v" << first << ", v"
            << end << ")";
      }
      for (unsigned r = 0; r < sim::kNumXRegs; ++r) {
        if (r != 0 && (r == entry.insn.rd || r == entry.insn.rd + 1u)) continue;
        ASSERT_EQ(w.x[r], m.before->x[r]) << what << " wrote x" << r << ", not x[rd] or x[rd + 1]";
      }
      // The group is no wider than needed: its last register changed.
      filled +=
          ok && end > first && std::memcmp(w.v[end - 1], m.before->v[end - 1], sizeof w.v[0]) != 0;
    }
    // The rows that write no register at all need not complete (ecall, cp_dma_tensor,
    // whose parameter block random registers never make valid).
    const bool writes = std::any_of(row.operands.begin(), row.operands.end(), [](auto& s) {
      return isa::writes(s.role) && isa::is_register_kind(s.kind);
    });
    if (completed == 0 && writes) never_completed.push_back(std::string(row.mnemonic));
    if (row.destination.group != isa::VectorGroup::None && filled == 0)
      never_filled.push_back(std::string(row.mnemonic));
  }
  // Each row's writes were seen, not only its faults; and each group was written to its end.
  EXPECT_EQ(never_completed, std::vector<std::string>{});
  EXPECT_EQ(never_filled, std::vector<std::string>{});
}

}  // namespace
}  // namespace ventus
