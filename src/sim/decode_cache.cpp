#include "decode_cache.h"

#include <fmt/format.h>

#include <array>

#include "translator.h"
#include "ventus/disasm.h"

namespace ventus::sim {
namespace {

// Entries that fault when executed: the word is not an instruction, a register number
// beyond the architecture, a prefix that extends nothing.
void illegal_instruction(Exec&, const Insn& in) {
  if (isa::instruction_length(in.raw) == 8)
    fault(
        fmt::format("illegal instruction: {:#018x} is not a Ventus 64-bit instruction", in.word()));
  fault(fmt::format("illegal instruction: {:#010x} is not a Ventus instruction", in.raw));
}
void truncated_instruction(Exec&, const Insn& in) {
  fault(fmt::format("64-bit instruction {:#010x} is cut off: its high word is not mapped", in.raw));
}
void prefix_without_instruction(Exec&, const Insn& in) {
  fault(
      fmt::format("a prefix (regext, regexti, regpair, regpairi, prefix, prefixi, prefix.mem) "
                  "is followed by {:#010x}, which it cannot extend (another prefix, a 64-bit "
                  "instruction or no instruction)",
                  in.raw));
}
void no_pair_form(Exec&, const Insn& in) {
  fault(fmt::format("{} has no 64-bit pair form (a pair prefix precedes it)",
                    isa::info(in.op).mnemonic));
}
// What PREFIX / PREFIXI / PREFIX_MEMORY ask of an instruction that cannot do it.
void source_modifiers_refused(Exec&, const Insn& in) {
  fault(source_modifiers_problem(in));
}
void memory_prefix_refused(Exec&, const Insn& in) {
  fault(
      fmt::format("prefix.mem applies only to per-thread loads and stores (vlw12.v, vlw.v, "
                  "vlw12d.v, vlw_global.v ...); {} is none",
                  isa::info(in.op).mnemonic));
}
void pair_with_modifiers_refused(Exec&, const Insn& in) {
  fault(fmt::format("ABS/NEG together with the pair bit: {} has no such form",
                    isa::info(in.op).mnemonic));
}
void missing_scalar_register(Exec&, const Insn& in) {
  const isa::InsnInfo& row = isa::info(in.op);
  for (const isa::OperandSlot& s : row.operands) {
    if (isa::is_register_kind(s.kind) && !isa::is_vector_register_kind(s.kind)) {
      const unsigned r = in.reg(isa::register_slot(s.kind));
      if (r >= kNumXRegs)
        fault(fmt::format("scalar register x{} does not exist (regext extends {} beyond x63)", r,
                          row.mnemonic));
    }
  }
  fault("scalar register beyond x63");
}

bool scalar_registers_exist(const Insn& in) {
  for (const isa::OperandSlot& s : isa::info(in.op).operands) {
    if (!isa::is_register_kind(s.kind) || isa::is_vector_register_kind(s.kind)) continue;
    if (in.reg(isa::register_slot(s.kind)) >= kNumXRegs) return false;
  }
  return true;
}

bool counts_lanes(isa::Op op) {
  switch (isa::info(op).cls) {
    case isa::InsnClass::Vector:
    case isa::InsnClass::VFloat:
    case isa::InsnClass::VLoad:
    case isa::InsnClass::VStore:
    case isa::InsnClass::Matrix: return true;
    default: return false;
  }
}

bool is_prefix(isa::Op op) {
  return isa::info(op).cls == isa::InsnClass::Prefix;
}

// The semantics of an instruction with a prefix folded in (docs/isa.md, "Prefixes"): a
// prefix that asks for nothing but register extension leaves the row's own semantics.
SemanticsFn prefixed_semantics(const isa::PrefixInfo& prefix, const Insn& in) {
  if (prefix.op == isa::Op::PREFIX_MEMORY)
    return is_thread_memory(in.op) ? &prefixed_thread_memory : &memory_prefix_refused;
  if (in.pair) {
    if (in.abs | in.neg) return &pair_with_modifiers_refused;
    const SemanticsFn pair_form = pair_semantics(in.op);
    return pair_form ? pair_form : &no_pair_form;
  }
  if (in.abs | in.neg)
    return source_modifiers_problem(in).empty() ? &with_source_modifiers
                                                : &source_modifiers_refused;
  return kSemantics[static_cast<size_t>(in.op)];
}

}  // namespace

bool DecodeCache::begin_launch(unsigned lanes) {
  const uint64_t generation = memory_.read_only_generation();
  bool kept_all = false;
  if (generation != generation_) {
    pages_.clear();
    generation_ = generation;
  } else {
    // Writable memory may have changed since (kernel stores, host writes): keep only pages
    // whose decoded bytes all lie in read-only memory.
    kept_all =
        std::erase_if(pages_, [this](const auto& page) {
          const Page& p = *page.second;
          const uint64_t base = uint64_t{page.first} << kPageShift;
          const uint64_t end = std::min<uint64_t>(base + p.end, uint64_t{1} << 32);
          return p.first < p.end &&
                 !memory_.is_read_only(static_cast<uint32_t>(base + p.first), end - base - p.first);
        }) == 0;
  }
  last_page_number_ = ~0u;
  last_page_ = nullptr;
  decodes_ = 0;
  if (lanes < fewest_lanes_) {
    // Kept instructions may now write more registers.
    fewest_lanes_ = lanes;
    for (const auto& page : pages_)
      for (const CachedInsn& entry : page.second->slots)
        if (entry.fn) note_vector_writes(entry.insn);
  }
  return kept_all;
}

void DecodeCache::note_vector_writes(const Insn& in) {
  const unsigned end = in.rd + isa::vector_registers_written(in, isa::widest_shape(fewest_lanes_));
  for (unsigned r = in.rd; r < end; ++r) vector_writes_[r / 64] |= uint64_t{1} << (r % 64);
}

void DecodeCache::select_page(uint32_t pc) {
  if ((pc & 3) != 0) fault(fmt::format("instruction address {:#010x} is not 4-byte aligned", pc));
  if (!memory_.page(pc)) fault(fmt::format("instruction fetch from unmapped address {:#010x}", pc));
  std::unique_ptr<Page>& page = pages_[pc >> kPageShift];
  if (!page) page = std::make_unique<Page>();
  last_page_ = page.get();
  last_page_number_ = pc >> kPageShift;
}

void DecodeCache::decode(CachedInsn& entry, uint32_t pc) {
  ++decodes_;
  uint32_t word = 0;
  memory_.read(pc, &word, 4);  // mapped: select_page checked the page
  // The bytes this decoding reads: a 64-bit instruction's high word, a prefix's next word.
  const auto reads = [this, pc](uint32_t bytes) {
    const uint32_t offset = pc & (kPageSize - 1);
    last_page_->first = std::min(last_page_->first, offset);
    last_page_->end = std::max(last_page_->end, offset + bytes);
  };
  reads(isa::instruction_length(word));
  CachedInsn e;
  if (isa::instruction_length(word) == 8) {
    decode_long(entry, pc, word);
    return;
  }
  auto decoded = isa::decode(word);
  std::optional<isa::PrefixInfo> prefix;
  if (decoded && is_prefix(decoded->op)) prefix = isa::prefix_info(word);
  if (prefix) {
    reads(8);
    uint32_t next = 0;
    const bool mapped = memory_.read(pc + 4, &next, 4);
    e.prefix_word = word;
    e.prefixed = 1;
    decoded =
        mapped && isa::instruction_length(next) == 4 ? isa::decode(next, *prefix) : std::nullopt;
    if (!decoded || is_prefix(decoded->op)) {
      e.insn.raw = next;  // 0 when the prefix is the last mapped word
      e.fn = &prefix_without_instruction;
      e.ends_block = jit::ends_block(e);
      entry = e;
      return;
    }
  }
  if (!decoded) {
    e.insn.raw = word;
    e.fn = &illegal_instruction;
  } else {
    e.insn = *decoded;
    e.counts_lanes = counts_lanes(decoded->op);
    note_vector_writes(e.insn);
    e.fn = !scalar_registers_exist(e.insn) ? &missing_scalar_register
           : prefix                        ? prefixed_semantics(*prefix, e.insn)
                                           : kSemantics[static_cast<size_t>(decoded->op)];
  }
  e.ends_block = jit::ends_block(e);
  e.jumps_within_block = jit::jumps_within_block(e);
  entry = e;
}

void DecodeCache::decode_long(CachedInsn& entry, uint32_t pc, uint32_t low) {
  CachedInsn e;
  e.length = 8;
  e.insn.raw = low;
  uint32_t high = 0;
  if (!memory_.read(pc + 4, &high, 4)) {
    e.fn = &truncated_instruction;
  } else if (auto decoded = isa::decode(low | uint64_t{high} << 32)) {
    e.insn = *decoded;
    e.counts_lanes = counts_lanes(decoded->op);
    note_vector_writes(e.insn);
    e.fn = kSemantics[static_cast<size_t>(decoded->op)];
  } else {
    e.insn.raw_hi = high;
    e.fn = &illegal_instruction;
  }
  e.ends_block = jit::ends_block(e);
  entry = e;
}

std::string disassemble(const CachedInsn& entry, uint32_t pc) {
  std::string text;
  if (entry.prefixed) {
    const auto p = isa::print_instruction(entry.prefix_word, pc);
    text = (p ? p->text() : fmt::format("{:#010x}", entry.prefix_word)) + "; ";
    pc += 4;
  }
  const auto printed = entry.insn.op == isa::Op::Count
                           ? std::nullopt
                           : isa::print_instruction(entry.insn.word(), pc);
  const auto prefix = entry.prefixed ? isa::prefix_info(entry.prefix_word) : std::nullopt;
  if (printed && prefix && isa::is_modifier_prefix(prefix->op))
    return text + printed->text() + " # " +
           isa::prefixed_text(*prefix, entry.insn.raw, pc).value_or("");
  if (printed) return text + printed->text();
  if (entry.length == 8) return text + fmt::format(".dword {:#018x}", entry.insn.word());
  return text + fmt::format(".word {:#010x}", entry.insn.raw);
}

}  // namespace ventus::sim
