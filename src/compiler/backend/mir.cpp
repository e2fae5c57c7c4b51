// Operand roles of the machine instructions: from the instruction table for its rows and
// aliases, from the list below for the back end's own pseudo-instructions.
#include "mir.h"

#include <fmt/format.h>

#include <array>

#include "ventus/error.h"

namespace ventus::cc::backend {

namespace {

using Role = isa::OperandRole;

// The alias of the instruction table each alias pseudo-instruction is.
std::string_view alias_name(Pseudo p) {
  switch (p) {
    case Pseudo::Li: return "li";
    case Pseudo::Mv: return "mv";
    case Pseudo::Neg: return "neg";
    case Pseudo::Seqz: return "seqz";
    case Pseudo::Snez: return "snez";
    case Pseudo::Beqz: return "beqz";
    case Pseudo::Bnez: return "bnez";
    case Pseudo::J: return "j";
    case Pseudo::Ret: return "ret";
    case Pseudo::Csrr: return "csrr";
    case Pseudo::Fence: return "fence";
    case Pseudo::Unimp: return "unimp";
    default: return {};
  }
}

const isa::Alias* find_alias(std::string_view name) {
  for (const isa::Alias& a : isa::aliases())
    if (a.mnemonic == name) return &a;
  return nullptr;
}

// The roles of an alias's operands: operand n has the role of the first row slot that
// the alias fills with "$n".
std::vector<Role> alias_roles(const isa::Alias& alias) {
  const isa::InsnInfo& row = isa::info(alias.op);
  std::vector<Role> roles;
  std::string_view rest = alias.operands;
  for (size_t slot = 0; !rest.empty(); ++slot) {
    const size_t comma = rest.find(',');
    const std::string_view token = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
    if (token.size() < 2 || token[0] != '$') continue;
    const auto n = static_cast<size_t>(token[1] - '0');
    if (roles.size() <= n) roles.resize(n + 1, Role::Use);
    if (slot < row.operands.size()) roles[n] = row.operands[slot].role;
  }
  return roles;
}

std::vector<Role> pseudo_roles(Pseudo p) {
  if (!alias_name(p).empty()) {
    const isa::Alias* alias = find_alias(alias_name(p));
    if (!alias)
      throw Error(fmt::format("internal: no alias '{}' in the instruction table", alias_name(p)));
    return alias_roles(*alias);
  }
  switch (p) {
    case Pseudo::La: return {Role::Def, Role::Use};
    // register, slot offset[, the scalar scratch that addresses a far slot].
    case Pseudo::ScalarReload: return {Role::Def, Role::Use};
    case Pseudo::VectorReload: return {Role::Def, Role::Use, Role::Def};
    case Pseudo::ScalarSpill:
    case Pseudo::VectorSpill: return {Role::Use, Role::Use, Role::Def};
    // result; address, value, compare; two vector and three scalar temporaries, all
    // early-clobber (make_inst).
    case Pseudo::Atomic:
      return {Role::Def, Role::Use, Role::Use, Role::Use, Role::Def,
              Role::Def, Role::Def, Role::Def, Role::Def};
    case Pseudo::Return: return {};
    default: return {Role::Use};  // Label
  }
}

void apply_roles(std::vector<Operand>& ops, const auto& role_of, size_t count,
                 std::string_view what) {
  if (ops.size() > count)
    throw Error(
        fmt::format("internal: {} operands for '{}', which has {}", ops.size(), what, count));
  for (size_t i = 0; i < ops.size(); ++i) {
    if (ops[i].kind != Operand::Kind::Reg) continue;
    const Role role = role_of(i);
    ops[i].def = isa::writes(role);
    ops[i].use = isa::reads(role);
  }
}

}  // namespace

Operand Operand::csr(uint16_t number) {
  return literal(fmt::format("{:#x}", number));
}

MInst make_inst(isa::Op op, std::vector<Operand> ops) {
  const isa::InsnInfo& row = isa::info(op);
  apply_roles(
      ops, [&](size_t i) { return row.operands[i].role; }, row.operands.size(), row.mnemonic);
  MInst inst;
  inst.op = op;
  inst.ops = std::move(ops);
  return inst;
}

MInst make_inst(Pseudo pseudo, std::vector<Operand> ops) {
  static const std::array<std::vector<Role>, static_cast<size_t>(Pseudo::VectorReload) + 1> roles =
      [] {
        std::array<std::vector<Role>, static_cast<size_t>(Pseudo::VectorReload) + 1> r;
        for (size_t p = 1; p < r.size(); ++p) r[p] = pseudo_roles(static_cast<Pseudo>(p));
        return r;
      }();
  const std::vector<Role>& list = roles.at(static_cast<size_t>(pseudo));
  apply_roles(
      ops, [&](size_t i) { return list[i]; }, list.size(), pseudo_mnemonic(pseudo));
  // The atomic expansion writes its results and temporaries before it has read all of
  // its operands.
  if (pseudo == Pseudo::Atomic)
    for (Operand& op : ops) op.early_clobber = op.def;
  MInst inst;
  inst.pseudo = pseudo;
  inst.ops = std::move(ops);
  return inst;
}

std::string_view pseudo_mnemonic(Pseudo pseudo) {
  if (pseudo == Pseudo::La) return "la";
  return alias_name(pseudo);
}

}  // namespace ventus::cc::backend
