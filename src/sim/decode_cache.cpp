#include "decode_cache.h"

#include <fmt/format.h>

#include "ventus/disasm.h"

namespace ventus::sim {
namespace {

// Entries that fault when executed: the word is not an instruction, a register number
// beyond the architecture, a prefix that extends nothing.
void illegal_instruction(Exec&, const Insn& in) {
  fault(fmt::format("illegal instruction: {:#010x} is not a Ventus instruction", in.raw));
}
void prefix_without_instruction(Exec&, const Insn& in) {
  fault(
      fmt::format("regext/regexti is followed by {:#010x}, which it cannot extend (another prefix "
                  "or no instruction)",
                  in.raw));
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

bool is_extension_prefix(isa::Op op) {
  return op == isa::Op::REGEXT || op == isa::Op::REGEXTI;
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
  auto decoded = isa::decode(word);
  if (decoded && is_extension_prefix(decoded->op)) {
    const uint32_t imm = (word >> 20) & 0xfff;
    const isa::RegExt ext = decoded->op == isa::Op::REGEXT ? isa::RegExt::from_regext(imm)
                                                           : isa::RegExt::from_regexti(imm);
    uint32_t next = 0;
    const bool mapped = memory_.read(pc + 4, &next, 4);
    e.prefix_word = word;
    e.prefixed = 1;
    decoded = mapped ? isa::decode(next, ext) : std::nullopt;
    if (!decoded || is_prefix(decoded->op)) {
      e.insn.raw = next;  // 0 when the prefix is the last mapped word
      e.fn = &prefix_without_instruction;
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
    e.fn = scalar_registers_exist(e.insn) ? kSemantics[static_cast<size_t>(decoded->op)]
                                          : &missing_scalar_register;
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
      entry.insn.op == isa::Op::Count ? std::nullopt : isa::print_instruction(entry.insn.raw, pc);
  return text + (printed ? printed->text() : fmt::format(".word {:#010x}", entry.insn.raw));
}

}  // namespace ventus::sim
