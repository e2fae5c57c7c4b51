#include "decode_cache.h"

#include <fmt/format.h>

#include "ventus/disasm.h"

namespace ventus::sim {
namespace {

// Entries that fault when executed: the word is not an instruction, a register number
// beyond the architecture, a prefix that extends nothing.
void illegal_instruction(Exec&, const Insn& in) {
  if (isa::instruction_length(in.raw) == 8)
    fault(fmt::format("illegal instruction: {:#018x} is not a Ventus 64-bit instruction",
                      in.word()));
  fault(fmt::format("illegal instruction: {:#010x} is not a Ventus instruction", in.raw));
}
void truncated_instruction(Exec&, const Insn& in) {
  fault(fmt::format("64-bit instruction {:#010x} is cut off: its high word is not mapped", in.raw));
}
void prefix_without_instruction(Exec&, const Insn& in) {
  fault(
      fmt::format("regext/regexti/regpair/regpairi is followed by {:#010x}, which it cannot "
                  "extend (another prefix, a 64-bit instruction or no instruction)",
                  in.raw));
}
void no_pair_form(Exec&, const Insn& in) {
  fault(fmt::format("{} has no 64-bit pair form (a pair prefix precedes it)",
                    isa::info(in.op).mnemonic));
}
void missing_scalar_register(Exec&, const Insn& in) {
  const isa::InsnInfo& row = isa::info(in.op);
  for (const isa::OperandSlot& s : row.operands) {
    if (isa::is_register_kind(s.kind) && !isa::is_vector_register_kind(s.kind)) {
      const int slot = isa::register_slot(s.kind);
      const unsigned r = slot == 0 ? in.rd : slot == 1 ? in.rs1 : slot == 2 ? in.rs2 : in.rs3;
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
    const int slot = isa::register_slot(s.kind);
    const unsigned r = slot == 0 ? in.rd : slot == 1 ? in.rs1 : slot == 2 ? in.rs2 : in.rs3;
    if (r >= kNumXRegs) return false;
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

// regext/regexti extend register numbers (and regexti the immediate); regpair/regpairi do
// the same and make the next instruction's operands 64-bit register pairs.
bool is_extension_prefix(isa::Op op) {
  return op == isa::Op::REGEXT || op == isa::Op::REGEXTI || op == isa::Op::REGPAIR ||
         op == isa::Op::REGPAIRI;
}
bool is_immediate_form(isa::Op op) {
  return op == isa::Op::REGEXTI || op == isa::Op::REGPAIRI;
}
bool is_prefix(isa::Op op) {
  return isa::info(op).cls == isa::InsnClass::Prefix;
}

}  // namespace

void DecodeCache::sync() {
  if (memory_.generation() == generation_) return;
  pages_.clear();
  last_page_number_ = ~0u;
  last_page_ = nullptr;
  generation_ = memory_.generation();
}

void DecodeCache::select_page(uint32_t pc) {
  if ((pc & 3) != 0) fault(fmt::format("instruction address {:#010x} is not 4-byte aligned", pc));
  if (!memory_.page(pc)) fault(fmt::format("instruction fetch from unmapped address {:#010x}", pc));
  std::unique_ptr<Page>& page = pages_[pc >> 12];
  if (!page) page = std::make_unique<Page>();
  last_page_ = page.get();
  last_page_number_ = pc >> 12;
}

void DecodeCache::decode(CachedInsn& entry, uint32_t pc) {
  uint32_t word = 0;
  memory_.read(pc, &word, 4);  // mapped: select_page checked the page
  CachedInsn e;
  if (isa::instruction_length(word) == 8) {
    decode_long(entry, pc, word);
    return;
  }
  auto decoded = isa::decode(word);
  if (decoded && is_extension_prefix(decoded->op)) {
    const uint32_t imm = (word >> 20) & 0xfff;
    const bool pair = decoded->op == isa::Op::REGPAIR || decoded->op == isa::Op::REGPAIRI;
    const isa::RegExt ext = is_immediate_form(decoded->op) ? isa::RegExt::from_regexti(imm)
                                                           : isa::RegExt::from_regext(imm);
    uint32_t next = 0;
    const bool mapped = memory_.read(pc + 4, &next, 4);
    e.prefix_word = word;
    e.prefixed = 1;
    decoded = mapped && isa::instruction_length(next) == 4 ? isa::decode(next, ext) : std::nullopt;
    if (!decoded || is_prefix(decoded->op)) {
      e.insn.raw = next;  // 0 when the prefix is the last mapped word
      e.fn = &prefix_without_instruction;
      entry = e;
      return;
    }
    decoded->pair = pair;
  }
  if (!decoded) {
    e.insn.raw = word;
    e.fn = &illegal_instruction;
  } else {
    e.insn = *decoded;
    e.counts_lanes = counts_lanes(decoded->op);
    if (!scalar_registers_exist(e.insn)) {
      e.fn = &missing_scalar_register;
    } else if (e.insn.pair) {
      const SemanticsFn pair_form = pair_semantics(decoded->op);
      e.fn = pair_form ? pair_form : &no_pair_form;
    } else {
      e.fn = kSemantics[static_cast<size_t>(decoded->op)];
    }
  }
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
    e.fn = kSemantics[static_cast<size_t>(decoded->op)];
  } else {
    e.insn.raw_hi = high;
    e.fn = &illegal_instruction;
  }
  entry = e;
}

std::string disassemble(const CachedInsn& entry, uint32_t pc) {
  std::string text;
  if (entry.prefixed) {
    const auto p = isa::print_instruction(entry.prefix_word, pc);
    text = (p ? p->text() : fmt::format("{:#010x}", entry.prefix_word)) + "; ";
    pc += 4;
  }
  const auto printed =
      entry.insn.op == isa::Op::Count ? std::nullopt : isa::print_instruction(entry.insn.word(), pc);
  if (printed) return text + printed->text();
  if (entry.length == 8) return text + fmt::format(".dword {:#018x}", entry.insn.word());
  return text + fmt::format(".word {:#010x}", entry.insn.raw);
}

}  // namespace ventus::sim
