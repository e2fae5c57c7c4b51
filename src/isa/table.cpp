// The instruction table in memory: rows from instructions.def, their parsed operand
// syntax, a decode index by major opcode, register names, vtype text.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <stdexcept>
#include <unordered_map>

#include "ventus/isa.h"

namespace ventus::isa {
namespace {

struct RawRow {
  Op op;
  const char* mnemonic;
  uint64_t match, mask;
  const char* syntax;
  InsnClass cls;
  VectorDestination destination;
};

// The DEST column of instructions.def.
namespace dest {
constexpr VectorDestination One{VectorGroup::One}, Lmul{VectorGroup::Lmul}, Wide{VectorGroup::Wide};
constexpr VectorDestination Fragment(unsigned words) {
  return {VectorGroup::Fragment, static_cast<uint16_t>(words)};
}
constexpr VectorDestination WarpGroupFragment(unsigned words) {
  return {VectorGroup::WarpGroupFragment, static_cast<uint16_t>(words)};
}
// The column's value: what the row gives, or no vector destination.
constexpr VectorDestination of() {
  return {};
}
constexpr VectorDestination of(VectorDestination d) {
  return d;
}
}  // namespace dest

// A row's MATCH/MASK as 64 bits: whole for a 64-bit row, the low word of a 32-bit one (whose
// macros may compute in int, sign-extending bit 31).
template <class T>
constexpr uint64_t row_bits(T match, T value) {
  const auto low = static_cast<uint32_t>(value);
  return instruction_length(static_cast<uint32_t>(match)) == 8 ? static_cast<uint64_t>(value)
                                                               : uint64_t{low};
}

constexpr RawRow kRows[] = {
#define VT_INSN(id, mn, match, mask, ops, cls, ...) \
  {Op::id,                                          \
   mn,                                              \
   row_bits<uint64_t>(match, match),                \
   row_bits<uint64_t>(match, mask),                 \
   ops,                                             \
   InsnClass::cls,                                  \
   dest::of(__VA_OPT__(dest::__VA_ARGS__))},
#include "ventus/instructions.def"
#undef VT_INSN
};
static_assert(std::size(kRows) == kNumOps);

OperandKind kind_from_token(std::string_view t, std::string_view row) {
  for (const OperandKindInfo& k : operand_kinds())
    if (!k.token.empty() && k.token == t) return k.kind;
  throw std::logic_error(fmt::format("instruction table row {}: unknown operand '{}'", row, t));
}

// One operand token of a row's syntax (without its role marker): one slot, or two for a
// memory operand.
void parse_operand(std::string_view tok, std::string_view row, std::vector<OperandSlot>& slots) {
  std::string_view name;
  Field field;
  if (detail::field_token(tok, name, field)) {
    // "vd@27:20": a register in a field of the row's choosing; "al=@40": a modifier.
    OperandSlot slot{.kind = OperandKind::Modifier};
    if (tok[name.size()] != '=')
      slot.kind = kind_from_token(name, row);
    else
      slot.key = name;
    slot.lo = field.lo;
    slot.width = field.width;
    slots.push_back(slot);
    return;
  }
  const size_t paren = tok.find('(');
  if (paren == std::string_view::npos) {
    slots.push_back({.kind = kind_from_token(tok, row)});
    return;
  }
  // "off(base)" or "(base)"
  if (paren > 0)
    slots.push_back({.kind = kind_from_token(tok.substr(0, paren), row), .mem_offset = true});
  std::string_view base = tok.substr(paren + 1);
  base.remove_suffix(1);
  slots.push_back({.kind = kind_from_token(base, row), .mem_base = true});
}

std::vector<OperandSlot> parse_syntax(std::string_view syntax, std::string_view row) {
  std::vector<OperandSlot> slots;
  while (!syntax.empty()) {
    const size_t comma = syntax.find(',');
    std::string_view tok = syntax.substr(0, comma);
    syntax = comma == std::string_view::npos ? std::string_view{} : syntax.substr(comma + 1);
    const bool tied = tok.starts_with(detail::kTiedMarker);
    if (tied) tok.remove_prefix(1);
    const size_t first = slots.size();
    parse_operand(tok, row, slots);
    for (size_t i = first; i < slots.size(); ++i)
      slots[i].role = tied ? OperandRole::DefUse : kind_info(slots[i].kind).role;
  }
  return slots;
}

// A row names a destination group exactly when one of its operands writes a vector register.
void check_destination(const InsnInfo& row) {
  const bool writes_vector = std::any_of(row.operands.begin(), row.operands.end(), [](auto& s) {
    return writes(s.role) && is_vector_register_kind(s.kind);
  });
  if (writes_vector != (row.destination.group != VectorGroup::None))
    throw std::logic_error(fmt::format(
        "instruction table row {}: {}", row.mnemonic,
        writes_vector ? "writes a vector register but names no destination group (DEST)"
                      : "names a destination group (DEST) but writes no vector register"));
}

struct Tables {
  std::vector<InsnInfo> rows;
  std::unordered_map<std::string_view, Op> by_mnemonic;
  // Candidate rows per major opcode (word & 0x7f), most specific mask first.
  std::array<std::vector<uint16_t>, 128> by_opcode;

  Tables() {
    rows.reserve(kNumOps);
    for (const RawRow& r : kRows) {
      InsnInfo info{r.op,
                    r.mnemonic,
                    r.match,
                    r.mask,
                    instruction_length(static_cast<uint32_t>(r.match)),
                    r.syntax,
                    r.cls,
                    r.destination,
                    {}};
      info.operands = parse_syntax(r.syntax, r.mnemonic);
      check_destination(info);
      rows.push_back(std::move(info));
      by_mnemonic.emplace(r.mnemonic, r.op);
      by_opcode[r.match & 0x7f].push_back(static_cast<uint16_t>(r.op));
    }
    for (auto& list : by_opcode)
      std::stable_sort(list.begin(), list.end(), [&](uint16_t a, uint16_t b) {
        return __builtin_popcountll(rows[a].mask) > __builtin_popcountll(rows[b].mask);
      });
  }
};

const Tables& tables() {
  static const Tables t;
  return t;
}

// A 64-bit row: every operand is a field the row places; registers are 8 bits wide.
Decoded decode_long(const InsnInfo& r, uint64_t word) {
  Decoded d;
  d.op = r.op;
  d.raw = static_cast<uint32_t>(word);
  d.raw_hi = static_cast<uint32_t>(word >> 32);
  for (const OperandSlot& s : r.operands) {
    const auto value = static_cast<uint16_t>(get_operand(word, s));
    if (const int slot = register_slot(s.kind); slot == 0) {
      // As in 32-bit rows, a destination-slot register that is read reaches execution as rs3
      // (mma64's C in vs3, the kept half of a 16-bit vd), one that is written as rd.
      if (writes(s.role)) d.rd = value;
      if (reads(s.role)) d.rs3 = value;
    } else if (slot > 0) {
      d.reg(slot) = value;
    } else if (s.kind == OperandKind::Modifier) {
      if (s.key == "abs") d.abs = static_cast<uint8_t>(value);
      if (s.key == "neg") d.neg = static_cast<uint8_t>(value);
      if (s.key == "pair") d.pair = static_cast<uint8_t>(value);
    }
  }
  return d;
}

}  // namespace

unsigned vector_registers_written(const Decoded& in, const VectorShape& shape) {
  if (in.op == Op::Count) return 0;  // not an instruction
  const VectorDestination& d = info(in.op).destination;
  unsigned regs = 0;
  switch (d.group) {
    case VectorGroup::None: return 0;
    case VectorGroup::One: regs = in.mem_words; break;
    case VectorGroup::Lmul: regs = shape.lmul; break;
    case VectorGroup::Wide: regs = shape.sew == 32 ? 2 * shape.lmul : shape.lmul; break;
    case VectorGroup::Fragment:
    case VectorGroup::WarpGroupFragment: {
      static constexpr Field kWarpGroup = field(Op::MMA64_M8N8K8_F32_F32, "wg");
      const unsigned words = d.group == VectorGroup::WarpGroupFragment && kWarpGroup.get(in.word())
                                 ? kWarpGroupRows * d.words
                                 : d.words;
      regs = (words + shape.lanes - 1) / std::max(shape.lanes, 1u);
      break;
    }
  }
  // The 64-bit pair form of a row writes the pair vd, vd + 1 whatever vtype.
  if (in.pair) regs = 2;
  return std::min(regs, in.rd < kNumVectorRegisters ? kNumVectorRegisters - in.rd : 0u);
}

std::span<const InsnInfo> instructions() {
  return tables().rows;
}
const InsnInfo& info(Op op) {
  return tables().rows[static_cast<size_t>(op)];
}

const InsnInfo* find_mnemonic(std::string_view mnemonic) {
  const auto& t = tables();
  auto it = t.by_mnemonic.find(mnemonic);
  return it == t.by_mnemonic.end() ? nullptr : &t.rows[static_cast<size_t>(it->second)];
}

bool reads_rd_field(const InsnInfo& row) {
  return std::any_of(row.operands.begin(), row.operands.end(), [](const OperandSlot& s) {
    return is_register_kind(s.kind) && register_slot(s.kind) == 0 && reads(s.role);
  });
}

std::optional<Op> decode_op(uint64_t word) {
  const auto& t = tables();
  for (uint16_t idx : t.by_opcode[word & 0x7f]) {
    const InsnInfo& r = t.rows[idx];
    if ((word & r.mask) == r.match) return r.op;
  }
  return std::nullopt;
}

RegExt RegExt::from_regext(uint32_t imm) {
  RegExt e;
  e.rd = imm & 7;
  e.rs1 = (imm >> 3) & 7;
  e.rs2 = (imm >> 6) & 7;
  e.rs3 = (imm >> 9) & 7;
  return e;
}

RegExt RegExt::from_regexti(uint32_t imm) {
  RegExt e;
  e.rd = imm & 7;
  e.rs2 = (imm >> 3) & 7;
  e.imm_hi = static_cast<int32_t>((imm >> 6) & 0x3f);
  e.immediate_form = true;
  return e;
}

std::optional<Decoded> decode(uint64_t word64, const RegExt& ext) {
  auto op = decode_op(word64);
  if (!op) return std::nullopt;
  const InsnInfo& r = info(*op);
  if (r.length == 8) return decode_long(r, word64);
  const auto word = static_cast<uint32_t>(word64);
  Decoded d;
  d.op = *op;
  d.raw = word;
  const auto field = [&](unsigned hi, unsigned lo) {
    return static_cast<uint16_t>((word >> lo) & ((1u << (hi - lo + 1)) - 1));
  };
  d.rd = field(11, 7) | ext.rd << 5;
  d.rs1 = field(19, 15) | ext.rs1 << 5;
  d.rs2 = field(24, 20) | ext.rs2 << 5;
  // rs3: the R4 field (scalar FMA, cp_dma_bulk), or the register read from the rd field
  // (accumulator, store data), whose extension bits come from the rs3 slot (the guide stores
  // them apart from vd's).
  const bool has_rs3 = std::any_of(r.operands.begin(), r.operands.end(),
                                   [](const OperandSlot& s) { return s.kind == OperandKind::Rs3; });
  if (has_rs3)
    d.rs3 = field(31, 27) | ext.rs3 << 5;
  else if (reads_rd_field(r))
    d.rs3 = field(11, 7) | ext.rs3 << 5;
  for (const OperandSlot& s : r.operands) {
    const OperandKindInfo& k = kind_info(s.kind);
    switch (k.style) {
      case OperandStyle::Mask: d.vm = static_cast<uint8_t>(get_operand(word, s.kind)); break;
      case OperandStyle::RoundingMode:
        d.rm = static_cast<uint8_t>(get_operand(word, s.kind));
        break;
      case OperandStyle::Integer:
      case OperandStyle::Target:
      case OperandStyle::Csr:
      case OperandStyle::Vtype: {
        int32_t v = static_cast<int32_t>(get_operand(word, s.kind));
        if (k.widened_by_regexti) {
          // csr*i keep the CSR number in imm; their 5-bit immediate is the rs1 field.
          if (r.cls == InsnClass::Csr) break;
          // Extended by regexti to 11 bits: {imm_hi[5:0], imm5}.
          if (ext.immediate_form) {
            const uint32_t u = (static_cast<uint32_t>(ext.imm_hi) << 5) | (v & 31);
            v = k.is_signed ? static_cast<int32_t>(u << 21) >> 21 : static_cast<int32_t>(u);
          }
        }
        d.imm = v;
        break;
      }
      default: break;
    }
  }
  // A row without a vm field is masked by its v0 operand (vmerge) or not at all.
  const auto has_kind = [&](OperandKind kind) {
    return std::any_of(r.operands.begin(), r.operands.end(),
                       [&](const OperandSlot& s) { return s.kind == kind; });
  };
  if (!has_kind(OperandKind::VMask)) d.vm = has_kind(OperandKind::V0) ? 0 : 1;
  return d;
}

std::optional<PrefixInfo> prefix_info(uint32_t word) {
  const auto op = decode_op(word);
  if (!op) return std::nullopt;
  PrefixInfo p;
  p.op = *op;
  const auto get = [word](Field f) { return static_cast<uint8_t>(f.get(word)); };
  switch (*op) {
    case Op::REGEXT: p.ext = RegExt::from_regext(word >> 20); return p;
    case Op::REGEXTI: p.ext = RegExt::from_regexti(word >> 20); return p;
    // regpair/regpairi: regext/regexti that also make the operands 64-bit register pairs.
    case Op::REGPAIR:
      p.ext = RegExt::from_regext(word >> 20);
      p.pair = 1;
      return p;
    case Op::REGPAIRI:
      p.ext = RegExt::from_regexti(word >> 20);
      p.pair = 1;
      return p;
    case Op::PREFIX:
      p.ext.rd = get(field(Op::PREFIX, "rd"));
      p.ext.rs1 = get(field(Op::PREFIX, "rs1"));
      p.ext.rs2 = get(field(Op::PREFIX, "rs2"));
      p.ext.rs3 = get(field(Op::PREFIX, "rs3"));
      p.pair = get(field(Op::PREFIX, "pair"));
      p.abs = get(field(Op::PREFIX, "abs"));
      p.neg = get(field(Op::PREFIX, "neg"));
      return p;
    case Op::PREFIXI:
      p.ext.rd = get(field(Op::PREFIXI, "rd"));
      p.ext.rs2 = get(field(Op::PREFIXI, "rs2"));
      p.ext.imm_hi = get(field(Op::PREFIXI, "imm"));
      p.ext.immediate_form = true;
      p.pair = get(field(Op::PREFIXI, "pair"));
      p.abs = get(field(Op::PREFIXI, "abs"));
      p.neg = get(field(Op::PREFIXI, "neg"));
      return p;
    case Op::PREFIX_MEMORY:
      p.ext.rd = get(field(Op::PREFIX_MEMORY, "rd"));
      p.ext.rs1 = get(field(Op::PREFIX_MEMORY, "rs1"));
      p.ext.rs2 = get(field(Op::PREFIX_MEMORY, "rs2"));
      p.ext.rs3 = get(field(Op::PREFIX_MEMORY, "rs3"));
      p.mem_space = get(field(Op::PREFIX_MEMORY, "space"));
      p.mem_words = static_cast<uint8_t>(get(field(Op::PREFIX_MEMORY, "width")) + 1);
      p.mem_pair = get(field(Op::PREFIX_MEMORY, "addr64"));
      return p;
    default: return std::nullopt;
  }
}

std::optional<Decoded> decode(uint64_t word, const PrefixInfo& prefix) {
  auto d = decode(word, prefix.ext);
  if (!d) return d;
  d->pair = prefix.pair;
  d->abs = prefix.abs;
  d->neg = prefix.neg;
  d->mem_space = prefix.mem_space;
  d->mem_words = prefix.mem_words;
  d->mem_pair = prefix.mem_pair;
  return d;
}

// ---------------------------------------------------------------- registers
namespace {
constexpr std::string_view kAbi[32] = {"zero", "ra", "sp",  "gp",  "tp", "t0", "t1", "t2",
                                       "s0",   "s1", "a0",  "a1",  "a2", "a3", "a4", "a5",
                                       "a6",   "a7", "s2",  "s3",  "s4", "s5", "s6", "s7",
                                       "s8",   "s9", "s10", "s11", "t3", "t4", "t5", "t6"};
constexpr std::string_view kHighX[] = {"x32", "x33", "x34", "x35", "x36", "x37", "x38", "x39",
                                       "x40", "x41", "x42", "x43", "x44", "x45", "x46", "x47",
                                       "x48", "x49", "x50", "x51", "x52", "x53", "x54", "x55",
                                       "x56", "x57", "x58", "x59", "x60", "x61", "x62", "x63"};

std::optional<unsigned> parse_number_suffix(std::string_view s, unsigned limit) {
  if (s.empty() || (s.size() > 1 && s[0] == '0')) return std::nullopt;
  unsigned v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || p != s.data() + s.size() || v >= limit) return std::nullopt;
  return v;
}
}  // namespace

std::string_view xreg_abi_name(unsigned n) {
  if (n < 32) return kAbi[n];
  if (n < 64) return kHighX[n - 32];
  return "x?";
}

std::optional<unsigned> parse_xreg(std::string_view name) {
  for (unsigned i = 0; i < 32; ++i)
    if (kAbi[i] == name) return i;
  if (name == "fp") return 8u;
  if (name.size() > 1 && name[0] == 'x') return parse_number_suffix(name.substr(1), 64);
  return std::nullopt;
}

std::optional<unsigned> parse_vreg(std::string_view name) {
  if (name.size() > 1 && name[0] == 'v')
    return parse_number_suffix(name.substr(1), kNumVectorRegisters);
  return std::nullopt;
}

// ---------------------------------------------------------------- fence, rounding mode
namespace {
constexpr std::string_view kFenceLetters = "wroi";  // bit 0 upwards
constexpr std::string_view kRoundingModes[8] = {"rne", "rtz", "rdn", "rup", "rmm", "", "", "dyn"};
}  // namespace

std::string format_fence(uint32_t bits) {
  std::string s;
  for (size_t k = kFenceLetters.size(); k-- > 0;)
    if ((bits >> k) & 1) s += kFenceLetters[k];
  return s.empty() ? "0" : s;
}

std::optional<uint32_t> parse_fence(std::string_view text) {
  uint32_t bits = 0;
  if (text == "0") return bits;
  for (char c : text) {
    const size_t k = kFenceLetters.find(c);
    if (k == std::string_view::npos) return std::nullopt;
    bits |= 1u << k;
  }
  return bits;
}

std::string format_rounding_mode(uint32_t rm) {
  return kRoundingModes[rm & 7].empty() ? std::to_string(rm & 7)
                                        : std::string(kRoundingModes[rm & 7]);
}

std::optional<uint32_t> parse_rounding_mode(std::string_view text) {
  for (uint32_t rm = 0; rm < 8; ++rm)
    if (!kRoundingModes[rm].empty() && kRoundingModes[rm] == text) return rm;
  if (text.size() == 1 && text[0] >= '0' && text[0] <= '7')
    return static_cast<uint32_t>(text[0] - '0');
  return std::nullopt;
}

// ---------------------------------------------------------------- vtype
std::string format_vtype(uint32_t vtypei) {
  const unsigned vlmul = vtypei & 7, vsew = (vtypei >> 3) & 7;
  const bool ta = (vtypei >> 6) & 1, ma = (vtypei >> 7) & 1;
  if ((vtypei >> 8) != 0 || vsew > 3 || vlmul == 4) return std::to_string(vtypei);
  static constexpr const char* kLmul[8] = {"m1", "m2", "m4", "m8", "", "mf8", "mf4", "mf2"};
  return fmt::format("e{}, {}, {}, {}", 8u << vsew, kLmul[vlmul], ta ? "ta" : "tu",
                     ma ? "ma" : "mu");
}

std::optional<uint32_t> parse_vtype(std::span<const std::string_view> tokens, std::string* why) {
  if (tokens.size() == 1 && !tokens[0].empty() &&
      std::isdigit(static_cast<unsigned char>(tokens[0][0]))) {
    uint32_t v = 0;
    auto [p, ec] = std::from_chars(tokens[0].data(), tokens[0].data() + tokens[0].size(), v);
    if (ec == std::errc{} && p == tokens[0].data() + tokens[0].size()) return v;
  }
  if (tokens.empty()) {
    if (why) *why = "expected an element width such as e32";
    return std::nullopt;
  }
  uint32_t sew_bits = 0, lmul_bits = 0, ta = 0, ma = 0;
  static constexpr std::pair<std::string_view, uint32_t> kSew[] = {
      {"e8", 0}, {"e16", 1}, {"e32", 2}, {"e64", 3}};
  static constexpr std::pair<std::string_view, uint32_t> kLmul[] = {
      {"m1", 0}, {"m2", 1}, {"m4", 2}, {"m8", 3}, {"mf8", 5}, {"mf4", 6}, {"mf2", 7}};
  bool have_sew = false;
  for (auto [name, v] : kSew)
    if (tokens[0] == name) sew_bits = v, have_sew = true;
  if (!have_sew) {
    if (why) *why = fmt::format("unknown element width '{}' (expected e8, e16, e32)", tokens[0]);
    return std::nullopt;
  }
  for (size_t i = 1; i < tokens.size(); ++i) {
    const std::string_view t = tokens[i];
    bool ok = false;
    for (auto [name, v] : kLmul)
      if (t == name) lmul_bits = v, ok = true;
    if (t == "ta") ta = 1, ok = true;
    if (t == "tu") ta = 0, ok = true;
    if (t == "ma") ma = 1, ok = true;
    if (t == "mu") ma = 0, ok = true;
    if (!ok) {
      if (why) *why = fmt::format("unknown vtype field '{}'", t);
      return std::nullopt;
    }
  }
  return lmul_bits | sew_bits << 3 | ta << 6 | ma << 7;
}

}  // namespace ventus::isa
