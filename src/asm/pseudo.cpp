// Pseudo-instructions: a table from (mnemonic, operand count) to a textual expansion into
// real table rows: the aliases of the instruction table (isa::aliases(), which the
// disassembler prints from too) and the expansions into several instructions. Operands are
// passed through as written, so errors in them are reported by the real instruction at the
// operand's own column.
#include <fmt/format.h>

#include <map>

#include "internal.h"
#include "ventus/asm.h"
#include "ventus/isa.h"

namespace ventus::assembler {
namespace detail {
namespace {

using Ops = std::vector<Token>;
using Expansion =
    std::function<std::vector<Expanded>(const Ops& ops, const Loc& loc, const PseudoHooks& hooks)>;

Token lit(std::string text, const Token& near) {
  return {std::move(text), near.column};
}

// "insn a, b" from operand indices and literal operands.
Expanded one(std::string mnemonic, Ops ops) {
  return {std::move(mnemonic), std::move(ops), ""};
}

// The row an alias stands for, its operands written as the row's syntax writes them: the
// alias's own where the list says "$n" (at their columns, so that errors point at them), the
// fixed text elsewhere, "off(base)" for a memory operand.
Expanded expand_alias(const isa::Alias& alias, const Ops& ops) {
  const isa::InsnInfo& row = isa::info(alias.op);
  const isa::AliasForm form = isa::alias_form(alias);
  const auto written = [&](const isa::AliasForm::Slot& s) {
    return s.operand >= 0 ? ops[s.operand] : Token{std::string(s.fixed), 0};
  };
  Ops out;
  for (size_t i = 0; i < form.slots.size(); ++i) {
    if (form.mask_passes && i + 1 == form.slots.size()) {
      if (ops.size() > form.operands) out.push_back(ops.back());
      break;
    }
    if (!row.operands[i].mem_offset) {
      out.push_back(written(form.slots[i]));
      continue;
    }
    // An offset given by the alias's operand is an expression: parenthesized.
    const isa::AliasForm::Slot &offset = form.slots[i], &base = form.slots[++i];
    const Token o = written(offset), b = written(base);
    out.push_back({(offset.operand >= 0 ? "(" + o.text + ")" : o.text) + "(" + b.text + ")",
                   offset.operand >= 0 ? o.column : b.column});
  }
  return one(std::string(row.mnemonic), std::move(out));
}

const isa::Alias& alias_named(std::string_view name) {
  for (const isa::Alias& a : isa::aliases())
    if (a.mnemonic == name) return a;
  throw std::logic_error(fmt::format("no alias {}", name));
}

// li: the GNU/LLVM sequence for a 32-bit value, the alias of addi alone when it fits in 12 bits.
std::vector<Expanded> expand_li(const Ops& ops, const Loc& loc, const PseudoHooks& hooks) {
  const int64_t v = hooks.constant(ops[1]);
  if (v < INT32_MIN || v > UINT32_MAX)
    fail({loc.file, loc.line, ops[1].column},
         fmt::format("li value {} does not fit in 32 bits", v));
  const int64_t value = static_cast<int32_t>(static_cast<uint32_t>(v));
  if (isa::operand_fits(isa::OperandKind::Simm12, value))
    return {expand_alias(alias_named("li"), {ops[0], lit(std::to_string(value), ops[1])})};
  const int64_t hi = hi20(value), lo = lo12(value);
  std::vector<Expanded> out{one("lui", {ops[0], lit(std::to_string(hi), ops[1])})};
  if (lo != 0) out.push_back(one("addi", {ops[0], ops[0], lit(std::to_string(lo), ops[1])}));
  return out;
}

// auipc + second instruction with %pcrel_lo of a fresh label on the auipc.
std::vector<Expanded> pcrel_pair(const Token& reg, const Token& target, std::string second,
                                 Ops second_ops_prefix, const Token& base, const PseudoHooks& hooks,
                                 bool memory_form) {
  const std::string label = hooks.unique_label();
  // The column is moved left by the length of "%pcrel_hi(", so that errors about the target
  // point at the target as written.
  constexpr int kPrefix = sizeof("%pcrel_hi(") - 1;
  Expanded first{
      "auipc", {reg, {"%pcrel_hi(" + target.text + ")", target.column - kPrefix}}, label};
  Ops ops = std::move(second_ops_prefix);
  if (memory_form)
    ops.push_back(lit("%pcrel_lo(" + label + ")(" + base.text + ")", target));
  else {
    ops.push_back(base);
    ops.push_back(lit("%pcrel_lo(" + label + ")", target));
  }
  return {first, {std::move(second), std::move(ops), ""}};
}

struct Key {
  std::string name;
  size_t operands;
  bool operator<(const Key& o) const {
    return name != o.name ? name < o.name : operands < o.operands;
  }
};

const std::map<Key, Expansion>& table() {
  static const std::map<Key, Expansion> t = [] {
    std::map<Key, Expansion> m;
    const auto add = [&](std::string name, size_t n, Expansion f) {
      m[{std::move(name), n}] = std::move(f);
    };
    // Aliases of one row (isa::aliases(), the list the disassembler prints from too); a row
    // with a trailing vm slot takes the optional mask.
    for (const isa::Alias& a : isa::aliases()) {
      const isa::AliasForm form = isa::alias_form(a);
      for (size_t n = form.operands; n <= form.operands + form.mask_passes; ++n)
        add(std::string(a.mnemonic), n, [&a](const Ops& o, const Loc&, auto&) {
          return std::vector<Expanded>{expand_alias(a, o)};
        });
    }
    // Expansions into several instructions.
    add("li", 2,
        [](const Ops& o, const Loc& loc, auto& hooks) { return expand_li(o, loc, hooks); });
    for (const char* name : {"la", "lla"})
      add(name, 2, [](const Ops& o, const Loc&, auto& hooks) {
        return pcrel_pair(o[0], o[1], "addi", {o[0]}, o[0], hooks, false);
      });
    add("call", 1, [](const Ops& o, const Loc&, auto& hooks) {
      const Token ra = lit("ra", o[0]);
      return pcrel_pair(ra, o[0], "jalr", {ra}, ra, hooks, true);
    });
    add("call", 2, [](const Ops& o, const Loc&, auto& hooks) {
      return pcrel_pair(o[0], o[1], "jalr", {o[0]}, o[0], hooks, true);
    });
    add("jump", 2, [](const Ops& o, const Loc&, auto& hooks) {
      return pcrel_pair(o[1], o[0], "jalr", {lit("zero", o[0])}, o[1], hooks, true);
    });
    // Loads and stores of a symbol's address: "lw rd, sym" loads through rd itself,
    // "sw rs, sym, rt" needs a scratch register rt for the address.
    for (const char* name : {"lb", "lh", "lw", "lbu", "lhu"})
      add(name, 2, [name = std::string(name)](const Ops& o, const Loc&, auto& hooks) {
        return pcrel_pair(o[0], o[1], name, {o[0]}, o[0], hooks, true);
      });
    for (const char* name : {"sb", "sh", "sw"})
      add(name, 3, [name = std::string(name)](const Ops& o, const Loc&, auto& hooks) {
        return pcrel_pair(o[2], o[1], name, {o[0]}, o[2], hooks, true);
      });
    add("tail", 1, [](const Ops& o, const Loc&, auto& hooks) {
      const Token t1 = lit("t1", o[0]);
      return pcrel_pair(t1, o[0], "jalr", {lit("zero", o[0])}, t1, hooks, true);
    });
    return m;
  }();
  return t;
}

}  // namespace

std::optional<std::vector<Expanded>> expand_pseudo(const std::string& mnemonic,
                                                   const std::vector<Token>& operands,
                                                   const Loc& loc, const PseudoHooks& hooks) {
  auto it = table().find({mnemonic, operands.size()});
  if (it == table().end()) return std::nullopt;
  return it->second(operands, loc, hooks);
}

bool is_pseudo(std::string_view mnemonic) {
  auto it = table().lower_bound({std::string(mnemonic), 0});
  return it != table().end() && it->first.name == mnemonic;
}

}  // namespace detail

std::vector<std::string_view> pseudo_mnemonics() {
  std::vector<std::string_view> out;
  for (const auto& [key, expansion] : detail::table())
    if (out.empty() || out.back() != key.name) out.push_back(key.name);
  return out;
}

}  // namespace ventus::assembler
