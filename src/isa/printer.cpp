// Prints instructions: operand printing driven by each row's syntax and the aliases
// llvm-objdump prints (aliases.cpp), for decoded words (the disassembler) and for operand
// values (format_instruction, the compiler's back end) alike.
#include <fmt/format.h>

#include <charconv>
#include <stdexcept>

#include "ventus/disasm.h"

namespace ventus::isa {
namespace {

std::string xname(unsigned n) { return std::string(xreg_abi_name(n)); }
std::string vname(unsigned n) { return fmt::format("v{}", n); }

std::string csr_text(uint32_t n) {
  if (const CsrInfo* c = csr_by_number(static_cast<uint16_t>(n)); c && !c->name.empty())
    return std::string(c->name);
  return std::to_string(n);
}

std::string fence_bits(uint32_t v) {
  std::string s;
  if (v & 8) s += 'i';
  if (v & 4) s += 'o';
  if (v & 2) s += 'r';
  if (v & 1) s += 'w';
  return s.empty() ? "0" : s;
}

const char* rounding_mode_name(uint32_t rm) {
  static constexpr const char* kNames[8] = {"rne", "rtz", "rdn", "rup", "rmm", "", "", "dyn"};
  return kNames[rm & 7];
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
  if (s.kind == OperandKind::Modifier) return fmt::format("{}={}", s.key, value);
  const auto u = static_cast<uint32_t>(value);
  switch (s.kind) {
    case OperandKind::XRd: case OperandKind::XRs1: case OperandKind::XRs2:
      return fmt::format("x{}", u);
    case OperandKind::V0: return "v0";
    case OperandKind::Bimm: case OperandKind::Jimm:
      if (!c.absolute_targets) return std::to_string(value);
      target = static_cast<uint32_t>(c.pc + value);
      return fmt::format("0x{:x}", *target);
    case OperandKind::Csr: return csr_text(u);
    case OperandKind::VtypeI11: case OperandKind::VtypeI10: return format_vtype(u);
    case OperandKind::FencePred: case OperandKind::FenceSucc: return fence_bits(u);
    case OperandKind::RoundingMode:
      return *rounding_mode_name(u) ? rounding_mode_name(u) : std::to_string(u);
    default: break;
  }
  if (is_vector_register_kind(s.kind)) return vname(u);
  if (is_register_kind(s.kind)) return xname(u);
  return std::to_string(value);
}

// The value a trailing optional slot has when left out.
std::optional<int64_t> absent_value(const OperandSlot& s) {
  switch (s.kind) {
    case OperandKind::VMask: return 1;
    case OperandKind::RoundingMode: return 7;
    case OperandKind::Modifier: return 0;
    default: return std::nullopt;
  }
}

// The operands (one value per slot) as the row's syntax writes them: ", " between them, "off(base)" for a memory
// operand, the optional ones (", v0.t", a rounding mode other than dyn, a modifier other
// than 0) only when present.
std::string operands_text(const InsnInfo& r, std::span<const OperandValue> values,
                          const Context& c, std::optional<uint64_t>& target) {
  std::string out;
  for (size_t i = 0; i < r.operands.size(); ++i) {
    const OperandSlot& s = r.operands[i];
    const OperandValue& v = values[i];
    const bool is_text = !v.text.empty();
    if (s.kind == OperandKind::VMask) {
      if (is_text || v.number == 0) out += ", v0.t";
      continue;
    }
    if (s.kind == OperandKind::RoundingMode) {
      if (is_text || v.number != 7) out += ", " + (is_text ? v.text : number_text(s, v.number, c, target));
      continue;
    }
    if (s.kind == OperandKind::Modifier && !is_text && v.number == 0) continue;
    std::string text = is_text ? v.text : number_text(s, v.number, c, target);
    if (const int slot = register_slot(s.kind);
        s.width == 0 && slot >= 1 && is_register_kind(s.kind)) {
      if ((c.abs >> (slot - 1)) & 1) text = "|" + text + "|";
      if ((c.neg >> (slot - 1)) & 1) text = "-" + text;
    }
    const bool follows_offset = i > 0 && r.operands[i - 1].mem_offset;
    if (!out.empty() && !follows_offset) out += ", ";
    out += s.mem_base ? "(" + text + ")" : text;
  }
  return out;
}

// ---------------------------------------------------------------- aliases
// A fixed operand of an alias ("zero", "-1", "fflags", "iorw") as the number its slot holds.
int64_t fixed_value(const OperandSlot& s, std::string_view text, std::string_view alias) {
  std::optional<int64_t> v;
  if (is_vector_register_kind(s.kind)) {
    if (auto r = parse_vreg(text)) v = *r;
  } else if (is_register_kind(s.kind)) {
    if (auto r = parse_xreg(text)) v = *r;
  } else if (s.kind == OperandKind::Csr) {
    if (auto n = csr_by_name(text)) v = *n;
  } else if (s.kind == OperandKind::FencePred || s.kind == OperandKind::FenceSucc) {
    int64_t bits = 0;
    for (char ch : text) {
      const size_t k = std::string_view("wroi").find(ch);
      if (k == std::string_view::npos) break;
      bits |= int64_t{1} << k;
    }
    v = bits;
  }
  if (!v) {
    int64_t n = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (ec == std::errc{} && end == text.data() + text.size()) v = n;
  }
  if (!v)
    throw std::logic_error(fmt::format("alias {}: '{}' is no value of its operand", alias, text));
  return *v;
}

// An alias with its operand list resolved against the row's slots.
struct AliasForm {
  const Alias* alias;
  std::vector<int> operand;  // per slot: the alias operand it takes, or -1 (fixed)
  std::vector<int64_t> fixed;
  std::vector<size_t> first_slot;  // per alias operand: the slot that prints it
  bool mask_passes = false;        // the row's trailing vm slot is the alias's too
};

AliasForm resolve(const Alias& a) {
  const InsnInfo& r = info(a.op);
  AliasForm f{&a, std::vector<int>(r.operands.size(), -1), std::vector<int64_t>(r.operands.size()),
              {}, false};
  std::string_view list = a.operands;
  for (size_t i = 0; i < r.operands.size(); ++i) {
    if (list.empty()) {
      if (i + 1 == r.operands.size() && r.operands[i].kind == OperandKind::VMask) {
        f.mask_passes = true;
        f.operand[i] = -2;
        break;
      }
      throw std::logic_error(fmt::format("alias {}: too few operands for {}", a.mnemonic, r.mnemonic));
    }
    const size_t comma = list.find(',');
    const std::string_view entry = list.substr(0, comma);
    list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
    if (entry.starts_with('$')) {
      const int k = entry[1] - '0';
      f.operand[i] = k;
      if (f.first_slot.size() <= static_cast<size_t>(k)) f.first_slot.resize(k + 1, SIZE_MAX);
      if (f.first_slot[k] == SIZE_MAX) f.first_slot[k] = i;
    } else {
      f.fixed[i] = fixed_value(r.operands[i], entry, a.mnemonic);
    }
  }
  if (!list.empty())
    throw std::logic_error(fmt::format("alias {}: too many operands for {}", a.mnemonic, r.mnemonic));
  return f;
}

// The printed aliases of each row, in list order.
const std::vector<std::vector<AliasForm>>& printed_aliases() {
  static const std::vector<std::vector<AliasForm>> by_op = [] {
    std::vector<std::vector<AliasForm>> v(kNumOps);
    for (const Alias& a : aliases())
      if (a.printed) v[static_cast<size_t>(a.op)].push_back(resolve(a));
    return v;
  }();
  return by_op;
}

// The alias the values (one per slot) match: fixed slots equal, an operand named twice the
// same value; nullopt when none does.
std::optional<Printed> print_alias(Op op, std::span<const OperandValue> values, const Context& c) {
  const auto value = [&](size_t i) -> const OperandValue& { return values[i]; };
  for (const AliasForm& f : printed_aliases()[static_cast<size_t>(op)]) {
    bool match = true;
    for (size_t i = 0; i < f.operand.size() && match; ++i) {
      const OperandValue& v = value(i);
      if (f.operand[i] == -1)
        match = v.text.empty() && v.number == f.fixed[i];
      else if (f.operand[i] >= 0) {
        const OperandValue& first = value(f.first_slot[f.operand[i]]);
        match = v.text == first.text && v.number == first.number;
      }
    }
    if (!match) continue;
    const InsnInfo& r = info(op);
    Printed p{std::string(f.alias->mnemonic), {}, std::nullopt};
    for (size_t k = 0; k < f.first_slot.size(); ++k) {
      const OperandValue& v = value(f.first_slot[k]);
      if (k) p.operands += ", ";
      p.operands += v.text.empty() ? number_text(r.operands[f.first_slot[k]], v.number, c, p.target)
                                   : v.text;
    }
    if (f.mask_passes) {
      const OperandValue& vm = value(r.operands.size() - 1);
      if (!vm.text.empty() || vm.number == 0) p.operands += ", v0.t";
    }
    return p;
  }
  return std::nullopt;
}

// ---------------------------------------------------------------- decoded words
// The register number a slot shows: the raw field, or field | ext << 5.
unsigned shown_register(uint32_t word, OperandKind kind, const PrintOptions& o, const RegExt& ext) {
  unsigned n = static_cast<unsigned>(get_operand(word, kind));
  if (!o.extended_registers) return n;
  switch (register_slot(kind)) {
    case 0: return n | ext.rd << 5;
    case 1: return n | ext.rs1 << 5;
    case 2: return n | ext.rs2 << 5;
    case 3: return n | ext.rs3 << 5;
    default: return n;
  }
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
    else if ((s.kind == OperandKind::Uimm5 || s.kind == OperandKind::Simm5) &&
             o.extended_registers && ext.immediate_form) {
      const uint32_t u = (static_cast<uint32_t>(ext.imm_hi) << 5) |
                         static_cast<uint32_t>(get_operand(word, OperandKind::Uimm5));
      v = s.kind == OperandKind::Simm5 ? static_cast<int32_t>(u << 21) >> 21
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
    if (!absent_value(r.operands[i]))
      bad(fmt::format("operand {} ({}) is missing", i, r.syntax));
  for (size_t i = 0; i < values.size(); ++i) {
    const OperandSlot& s = r.operands[i];
    const OperandValue& v = values[i];
    if (!v.text.empty()) continue;
    std::string why;
    if (s.kind == OperandKind::V0) {
      if (v.number != 0) bad("the mask operand is v0");
    } else if (is_register_kind(s.kind) && s.width == 0) {
      // Registers beyond the 5-bit field take a regext prefix, which the assembler adds.
      const int64_t limit = is_vector_register_kind(s.kind) ? 256 : 64;
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
  const auto note = [&](std::string_view n) { notes += (notes.empty() ? "" : ", ") + std::string(n); };
  static constexpr const char* kSpaces[4] = {"", "global", "private", "local"};
  if (prefix.mem_space) note(kSpaces[prefix.mem_space & 3]);
  if (prefix.mem_words > 1) note(fmt::format("{}-bit", 32 * prefix.mem_words));
  if (prefix.mem_pair) note("64-bit address");
  if (prefix.pair) note("pair");
  return notes.empty() ? p->text() : p->text() + " (" + notes + ")";
}

}  // namespace ventus::isa
