// Prints instructions: operand printing driven by each row's syntax and the aliases
// llvm-objdump prints (aliases.cpp), for decoded words (the disassembler) and for operand
// values (format_instruction, the compiler's back end) alike.
#include <fmt/format.h>

#include <charconv>
#include <stdexcept>

#include "ventus/disasm.h"

namespace ventus::isa {
namespace {

std::string xname(unsigned n) {
  return std::string(xreg_abi_name(n));
}
std::string vname(unsigned n) {
  return fmt::format("v{}", n);
}

std::string csr_text(uint32_t n) {
  if (const CsrInfo* c = csr_by_number(static_cast<uint16_t>(n)); c && !c->name.empty())
    return std::string(c->name);
  return std::to_string(n);
}

// How numbers print: pc-relative offsets as offsets or as the addresses they reach (the
// disassembler's targets), and PREFIX ABS/NEG on the source registers of a decoded word.
struct Context {
  bool absolute_targets = false;
  uint64_t pc = 0;
  uint8_t abs = 0, neg = 0;
};

// The text of one operand value in the syntax of its slot.
std::string number_text(const OperandSlot& s, int64_t value, const Context& c,
                        std::optional<uint64_t>& target) {
  const OperandKindInfo& k = kind_info(s.kind);
  const auto u = static_cast<uint32_t>(value);
  switch (k.style) {
    case OperandStyle::Register: return k.file == RegisterFile::V ? vname(u) : xname(u);
    case OperandStyle::NumberedRegister: return fmt::format("x{}", u);
    case OperandStyle::FixedV0: return "v0";
    case OperandStyle::Target:
      if (!c.absolute_targets) return std::to_string(value);
      target = static_cast<uint32_t>(c.pc + value);
      return fmt::format("0x{:x}", *target);
    case OperandStyle::Csr: return csr_text(u);
    case OperandStyle::Vtype: return format_vtype(u);
    case OperandStyle::Fence: return format_fence(u);
    case OperandStyle::RoundingMode: return format_rounding_mode(u);
    case OperandStyle::Modifier: return fmt::format("{}={}", s.key, value);
    case OperandStyle::Integer:
    case OperandStyle::Mask: break;
  }
  return std::to_string(value);
}

// The value a trailing optional slot has when left out.
std::optional<int64_t> absent_value(const OperandSlot& s) {
  switch (kind_info(s.kind).style) {
    case OperandStyle::Mask: return 1;
    case OperandStyle::RoundingMode: return 7;
    case OperandStyle::Modifier: return 0;
    default: return std::nullopt;
  }
}

// The operands (one value per slot) as the row's syntax writes them: ", " between them, "off(base)"
// for a memory operand, the optional ones (", v0.t", a rounding mode other than dyn, a modifier
// other than 0) only when present.
std::string operands_text(const InsnInfo& r, std::span<const OperandValue> values, const Context& c,
                          std::optional<uint64_t>& target) {
  std::string out;
  for (size_t i = 0; i < r.operands.size(); ++i) {
    const OperandSlot& s = r.operands[i];
    const OperandValue& v = values[i];
    const bool is_text = !v.text.empty();
    const OperandStyle style = kind_info(s.kind).style;
    if (style == OperandStyle::Mask || style == OperandStyle::RoundingMode ||
        style == OperandStyle::Modifier) {
      if (!is_text && v.number == *absent_value(s)) continue;
      if (style == OperandStyle::Mask) {
        out += ", v0.t";
        continue;
      }
    }
    std::string text = is_text ? v.text : number_text(s, v.number, c, target);
    if (const int slot = register_slot(s.kind);
        s.width == 0 && slot >= 1 && is_register_kind(s.kind)) {
      if ((c.abs >> (slot - 1)) & 1) text = "|" + text + "|";
      if ((c.neg >> (slot - 1)) & 1) text = "-" + text;
    }
    const bool follows_offset = i > 0 && r.operands[i - 1].mem_offset;
    if ((!out.empty() || style == OperandStyle::RoundingMode) && !follows_offset) out += ", ";
    out += s.mem_base ? "(" + text + ")" : text;
  }
  return out;
}

// ---------------------------------------------------------------- aliases
// A fixed operand of an alias ("zero", "-1", "fflags", "iorw") as the number its slot holds.
int64_t fixed_value(const OperandSlot& s, std::string_view text, std::string_view alias) {
  const OperandKindInfo& k = kind_info(s.kind);
  std::optional<int64_t> v;
  if (k.style == OperandStyle::Register)
    v = k.file == RegisterFile::V ? parse_vreg(text) : parse_xreg(text);
  else if (k.style == OperandStyle::Csr)
    v = csr_by_name(text);
  else if (k.style == OperandStyle::Fence)
    v = parse_fence(text);
  if (!v) {
    int64_t n = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (ec == std::errc{} && end == text.data() + text.size()) v = n;
  }
  if (!v)
    throw std::logic_error(fmt::format("alias {}: '{}' is no value of its operand", alias, text));
  return *v;
}

// An alias with its fixed operands as the numbers their slots hold.
struct PrintedAlias {
  const Alias* alias;
  AliasForm form;
  std::vector<int64_t> fixed;      // per slot
  std::vector<size_t> first_slot;  // per alias operand: the slot that prints it
};

PrintedAlias resolve(const Alias& a) {
  const InsnInfo& r = info(a.op);
  PrintedAlias p{&a, alias_form(a), std::vector<int64_t>(r.operands.size()), {}};
  p.first_slot.assign(p.form.operands, SIZE_MAX);
  for (size_t i = 0; i < p.form.slots.size(); ++i) {
    const AliasForm::Slot& s = p.form.slots[i];
    if (s.operand >= 0 && p.first_slot[s.operand] == SIZE_MAX) p.first_slot[s.operand] = i;
    if (s.operand < 0 && !s.fixed.empty())
      p.fixed[i] = fixed_value(r.operands[i], s.fixed, a.mnemonic);
  }
  return p;
}

// The printed aliases of each row, in list order.
const std::vector<std::vector<PrintedAlias>>& printed_aliases() {
  static const std::vector<std::vector<PrintedAlias>> by_op = [] {
    std::vector<std::vector<PrintedAlias>> v(kNumOps);
    for (const Alias& a : aliases())
      if (a.printed) v[static_cast<size_t>(a.op)].push_back(resolve(a));
    return v;
  }();
  return by_op;
}

// The alias the values (one per slot) match: fixed slots equal, an operand named twice the
// same value; nullopt when none does.
std::optional<Printed> print_alias(Op op, std::span<const OperandValue> values, const Context& c) {
  const InsnInfo& r = info(op);
  for (const PrintedAlias& a : printed_aliases()[static_cast<size_t>(op)]) {
    bool match = true;
    for (size_t i = 0; i < a.form.slots.size() && match; ++i) {
      const AliasForm::Slot& s = a.form.slots[i];
      const OperandValue& v = values[i];
      if (s.operand >= 0) {
        const OperandValue& first = values[a.first_slot[s.operand]];
        match = v.text == first.text && v.number == first.number;
      } else if (!s.fixed.empty()) {
        match = v.text.empty() && v.number == a.fixed[i];
      }
    }
    if (!match) continue;
    Printed p{std::string(a.alias->mnemonic), {}, std::nullopt};
    for (size_t k = 0; k < a.first_slot.size(); ++k) {
      const OperandValue& v = values[a.first_slot[k]];
      if (k) p.operands += ", ";
      p.operands +=
          v.text.empty() ? number_text(r.operands[a.first_slot[k]], v.number, c, p.target) : v.text;
    }
    if (a.form.mask_passes) {
      const OperandValue& vm = values.back();
      if (!vm.text.empty() || vm.number == 0) p.operands += ", v0.t";
    }
    return p;
  }
  return std::nullopt;
}

// ---------------------------------------------------------------- decoded words
// The register number a slot shows: the raw field, or field | ext << 5.
unsigned shown_register(uint32_t word, OperandKind kind, const PrintOptions& o, const RegExt& ext) {
  const auto n = static_cast<unsigned>(get_operand(word, kind));
  return o.extended_registers ? n | ext.high_bits(register_slot(kind)) << 5 : n;
}

// The operand values a word holds, as the instruction executes them when the options apply
// a preceding regext/regexti.
std::vector<OperandValue> word_values(const InsnInfo& r, uint64_t word64, const PrintOptions& o,
                                      const RegExt& ext) {
  std::vector<OperandValue> values;
  const auto word = static_cast<uint32_t>(word64);
  for (const OperandSlot& s : r.operands) {
    int64_t v;
    if (s.width != 0)
      v = get_operand(word64, s);
    else if (is_register_kind(s.kind))
      v = shown_register(word, s.kind, o, ext);
    else if (kind_info(s.kind).widened_by_regexti && o.extended_registers && ext.immediate_form) {
      const uint32_t u = (static_cast<uint32_t>(ext.imm_hi) << 5) |
                         (static_cast<uint32_t>(get_operand(word, s.kind)) & 31);
      v = kind_info(s.kind).is_signed ? static_cast<int32_t>(u << 21) >> 21
                                      : static_cast<int32_t>(u);
    } else
      v = get_operand(word, s.kind);
    values.push_back(OperandValue::of(v));
  }
  return values;
}

}  // namespace

std::optional<Printed> print_instruction(uint64_t word, uint64_t pc, const PrintOptions& o,
                                         const RegExt& ext) {
  const auto op = decode_op(word);
  if (!op) return std::nullopt;
  const InsnInfo& r = info(*op);
  const std::vector<OperandValue> values = word_values(r, word, o, ext);
  const Context c{o.absolute_targets, pc, o.abs, o.neg};
  // Registers beyond 31 show the instruction itself, never an alias.
  const bool extended = o.extended_registers && (ext.rd | ext.rs1 | ext.rs2 | ext.rs3);
  if (o.aliases && !extended)
    if (auto alias = print_alias(*op, values, c)) return alias;
  Printed p{std::string(r.mnemonic), {}, std::nullopt};
  p.operands = operands_text(r, values, c, p.target);
  return p;
}

std::string format_instruction(Op op, std::span<const OperandValue> values, bool aliases) {
  const InsnInfo& r = info(op);
  const auto bad = [&](const std::string& why) {
    throw std::invalid_argument(fmt::format("{}: {}", r.mnemonic, why));
  };
  if (values.size() > r.operands.size())
    bad(fmt::format("{} operands given, the row has {}", values.size(), r.operands.size()));
  for (size_t i = values.size(); i < r.operands.size(); ++i)
    if (!absent_value(r.operands[i])) bad(fmt::format("operand {} ({}) is missing", i, r.syntax));
  for (size_t i = 0; i < values.size(); ++i) {
    const OperandSlot& s = r.operands[i];
    const OperandValue& v = values[i];
    if (!v.text.empty()) continue;
    std::string why;
    if (kind_info(s.kind).style == OperandStyle::FixedV0) {
      if (v.number != 0) bad("the mask operand is v0");
    } else if (is_register_kind(s.kind) && s.width == 0) {
      // Registers beyond the 5-bit field take a regext prefix, which the assembler adds.
      const int64_t limit = is_vector_register_kind(s.kind) ? kNumVectorRegisters : 64;
      if (v.number < 0 || v.number >= limit) bad(fmt::format("no register number {}", v.number));
      if (is_pair_register_kind(s.kind) && v.number % 2 != 0)
        bad(fmt::format("register pair {} is odd", v.number));
    } else if (!operand_fits(s, v.number, &why)) {
      bad(fmt::format("operand {}: {}", i, why));
    }
  }
  std::vector<OperandValue> all(values.begin(), values.end());
  for (size_t i = values.size(); i < r.operands.size(); ++i)
    all.push_back(OperandValue::of(*absent_value(r.operands[i])));
  const Context c;
  if (aliases)
    if (auto alias = print_alias(op, all, c)) return alias->text();
  Printed p{std::string(r.mnemonic), {}, std::nullopt};
  p.operands = operands_text(r, all, c, p.target);
  return p.text();
}

std::optional<std::string> prefixed_text(const PrefixInfo& prefix, uint32_t word, uint64_t pc) {
  PrintOptions o;
  o.aliases = false;
  o.extended_registers = true;
  o.abs = prefix.abs;
  o.neg = prefix.neg;
  const auto p = print_instruction(word, pc, o, prefix.ext);
  if (!p) return std::nullopt;
  std::string notes;
  const auto note = [&](std::string_view n) {
    notes += (notes.empty() ? "" : ", ") + std::string(n);
  };
  static constexpr const char* kSpaces[4] = {"", "global", "private", "local"};
  if (prefix.mem_space) note(kSpaces[prefix.mem_space & 3]);
  if (prefix.mem_words > 1) note(fmt::format("{}-bit", 32 * prefix.mem_words));
  if (prefix.mem_pair) note("64-bit address");
  if (prefix.pair) note("pair");
  return notes.empty() ? p->text() : p->text() + " (" + notes + ")";
}

}  // namespace ventus::isa
