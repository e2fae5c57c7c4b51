// Prints decoded instructions: generic operand printing driven by each row's syntax,
// plus the aliases llvm-objdump prints for the standard instructions.
#include <fmt/format.h>

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

std::string operand_text(uint32_t word, uint64_t pc, OperandKind kind, const PrintOptions& o,
                         const RegExt& ext, std::optional<uint64_t>& target) {
  switch (kind) {
    case OperandKind::Rd: case OperandKind::Rs1: case OperandKind::Rs2: case OperandKind::Rs3:
    case OperandKind::RdPair: case OperandKind::Rs1Pair: case OperandKind::Rs2Pair:
      return xname(shown_register(word, kind, o, ext));
    case OperandKind::XRd: case OperandKind::XRs1: case OperandKind::XRs2:
      return fmt::format("x{}", shown_register(word, kind, o, ext));
    case OperandKind::Vd: case OperandKind::Vs1: case OperandKind::Vs2: case OperandKind::Vs3:
    case OperandKind::Vs1Pair:
      return vname(shown_register(word, kind, o, ext));
    case OperandKind::V0: return "v0";
    case OperandKind::Bimm: case OperandKind::Jimm: {
      const int64_t off = get_operand(word, kind);
      if (!o.absolute_targets) return std::to_string(off);
      target = static_cast<uint32_t>(pc + off);
      return fmt::format("0x{:x}", *target);
    }
    case OperandKind::Csr: return csr_text(static_cast<uint32_t>(get_operand(word, kind)));
    case OperandKind::VtypeI11: case OperandKind::VtypeI10:
      return format_vtype(static_cast<uint32_t>(get_operand(word, kind)));
    case OperandKind::FencePred: case OperandKind::FenceSucc:
      return fence_bits(static_cast<uint32_t>(get_operand(word, kind)));
    case OperandKind::Uimm5: case OperandKind::Simm5:
      if (o.extended_registers && ext.immediate_form) {
        const uint32_t u = (static_cast<uint32_t>(ext.imm_hi) << 5) |
                           static_cast<uint32_t>(get_operand(word, OperandKind::Uimm5));
        return std::to_string(kind == OperandKind::Simm5 ? static_cast<int32_t>(u << 21) >> 21
                                                         : static_cast<int32_t>(u));
      }
      return std::to_string(get_operand(word, kind));
    default:
      return std::to_string(get_operand(word, kind));
  }
}

// A slot with a field of the row's own: a register of that width, or a modifier printed
// "key=value" only when non-zero (empty text then).
std::string field_operand_text(uint64_t word, const OperandSlot& s) {
  const int64_t value = get_operand(word, s);
  if (s.kind == OperandKind::Modifier)
    return value == 0 ? std::string() : fmt::format("{}={}", s.key, value);
  if (is_vector_register_kind(s.kind)) return vname(static_cast<unsigned>(value));
  if (is_register_kind(s.kind)) return xname(static_cast<unsigned>(value));
  return std::to_string(value);
}

// Generic printing from the row's operand slots.
Printed print_generic(const InsnInfo& r, uint64_t word64, uint64_t pc, const PrintOptions& o,
                      const RegExt& ext) {
  Printed p;
  p.mnemonic = std::string(r.mnemonic);
  std::string& out = p.operands;
  const auto word = static_cast<uint32_t>(word64);
  for (size_t i = 0; i < r.operands.size(); ++i) {
    const OperandSlot& s = r.operands[i];
    if (s.width != 0) {
      const std::string text = field_operand_text(word64, s);
      if (!text.empty()) out += (out.empty() ? "" : ", ") + text;
      continue;
    }
    if (s.kind == OperandKind::VMask) {
      if (get_operand(word, s.kind) == 0) out += ", v0.t";
      continue;
    }
    if (s.kind == OperandKind::RoundingMode) {
      const auto rm = static_cast<uint32_t>(get_operand(word, s.kind));
      if (rm != 7) out += fmt::format(", {}", *rounding_mode_name(rm) ? rounding_mode_name(rm)
                                                                       : std::to_string(rm).c_str());
      continue;
    }
    const bool follows_offset = i > 0 && r.operands[i - 1].mem_offset;
    if (!out.empty() && !follows_offset) out += ", ";
    std::string text = operand_text(word, pc, s.kind, o, ext, p.target);
    if (const int slot = register_slot(s.kind); slot >= 1 && is_register_kind(s.kind)) {
      if ((o.abs >> (slot - 1)) & 1) text = "|" + text + "|";
      if ((o.neg >> (slot - 1)) & 1) text = "-" + text;
    }
    out += s.mem_base ? "(" + text + ")" : text;
  }
  return p;
}

// Aliases llvm-objdump prints for standard instructions. Returns nullopt when none applies.
std::optional<Printed> print_alias(Op op, uint32_t word, uint64_t pc, const PrintOptions& o,
                                   const RegExt& ext) {
  if (o.extended_registers && (ext.rd | ext.rs1 | ext.rs2 | ext.rs3)) return std::nullopt;
  const auto rd = static_cast<unsigned>(get_operand(word, OperandKind::Rd));
  const auto rs1 = static_cast<unsigned>(get_operand(word, OperandKind::Rs1));
  const auto rs2 = static_cast<unsigned>(get_operand(word, OperandKind::Rs2));
  const int64_t imm = get_operand(word, OperandKind::Simm12);
  const auto target = [&](OperandKind k) {
    const int64_t off = get_operand(word, k);
    return o.absolute_targets ? fmt::format("0x{:x}", static_cast<uint32_t>(pc + off))
                              : std::to_string(off);
  };
  const auto with_target = [&](std::string mn, std::string ops, OperandKind k) {
    Printed p{std::move(mn), std::move(ops), std::nullopt};
    if (o.absolute_targets) p.target = static_cast<uint32_t>(pc + get_operand(word, k));
    return p;
  };
  const auto plain = [](std::string mn, std::string ops) {
    return Printed{std::move(mn), std::move(ops), std::nullopt};
  };
  const uint32_t csr = static_cast<uint32_t>(get_operand(word, OperandKind::Csr));
  switch (op) {
    case Op::ADDI:
      if (rd == 0 && rs1 == 0 && imm == 0) return plain("nop", "");
      if (rs1 == 0) return plain("li", fmt::format("{}, {}", xname(rd), imm));
      if (imm == 0) return plain("mv", fmt::format("{}, {}", xname(rd), xname(rs1)));
      break;
    case Op::XORI:
      if (imm == -1) return plain("not", fmt::format("{}, {}", xname(rd), xname(rs1)));
      break;
    case Op::SUB:
      if (rs1 == 0) return plain("neg", fmt::format("{}, {}", xname(rd), xname(rs2)));
      break;
    case Op::SLTIU:
      if (imm == 1) return plain("seqz", fmt::format("{}, {}", xname(rd), xname(rs1)));
      break;
    case Op::SLTU:
      if (rs1 == 0) return plain("snez", fmt::format("{}, {}", xname(rd), xname(rs2)));
      break;
    case Op::SLT:
      if (rs2 == 0) return plain("sltz", fmt::format("{}, {}", xname(rd), xname(rs1)));
      if (rs1 == 0) return plain("sgtz", fmt::format("{}, {}", xname(rd), xname(rs2)));
      break;
    case Op::BEQ:
      if (rs2 == 0)
        return with_target("beqz", fmt::format("{}, {}", xname(rs1), target(OperandKind::Bimm)),
                           OperandKind::Bimm);
      break;
    case Op::BNE:
      if (rs2 == 0)
        return with_target("bnez", fmt::format("{}, {}", xname(rs1), target(OperandKind::Bimm)),
                           OperandKind::Bimm);
      break;
    case Op::BGE:
      if (rs1 == 0)
        return with_target("blez", fmt::format("{}, {}", xname(rs2), target(OperandKind::Bimm)),
                           OperandKind::Bimm);
      if (rs2 == 0)
        return with_target("bgez", fmt::format("{}, {}", xname(rs1), target(OperandKind::Bimm)),
                           OperandKind::Bimm);
      break;
    case Op::BLT:
      if (rs2 == 0)
        return with_target("bltz", fmt::format("{}, {}", xname(rs1), target(OperandKind::Bimm)),
                           OperandKind::Bimm);
      if (rs1 == 0)
        return with_target("bgtz", fmt::format("{}, {}", xname(rs2), target(OperandKind::Bimm)),
                           OperandKind::Bimm);
      break;
    case Op::JAL:
      if (rd == 0) return with_target("j", target(OperandKind::Jimm), OperandKind::Jimm);
      if (rd == 1) return with_target("jal", target(OperandKind::Jimm), OperandKind::Jimm);
      break;
    case Op::JALR:
      if (imm == 0 && rd == 0 && rs1 == 1) return plain("ret", "");
      if (imm == 0 && rd == 0) return plain("jr", xname(rs1));
      if (imm == 0 && rd == 1) return plain("jalr", xname(rs1));
      break;
    case Op::CSRRS:
      if (rs1 == 0) {
        if (csr == 0x001) return plain("frflags", xname(rd));
        if (csr == 0x002) return plain("frrm", xname(rd));
        if (csr == 0x003) return plain("frcsr", xname(rd));
        if (csr == 0xc00) return plain("rdcycle", xname(rd));
        if (csr == 0xc01) return plain("rdtime", xname(rd));
        if (csr == 0xc02) return plain("rdinstret", xname(rd));
        return plain("csrr", fmt::format("{}, {}", xname(rd), csr_text(csr)));
      }
      if (rd == 0) return plain("csrs", fmt::format("{}, {}", csr_text(csr), xname(rs1)));
      break;
    case Op::CSRRW:
      if (rd == 0 && rs1 == 0 && csr == 0xc00) return plain("unimp", "");
      if (csr == 0x001 || csr == 0x002 || csr == 0x003) {
        const char* mn = csr == 0x001 ? "fsflags" : csr == 0x002 ? "fsrm" : "fscsr";
        if (rd == 0) return plain(mn, xname(rs1));
        return plain(mn, fmt::format("{}, {}", xname(rd), xname(rs1)));
      }
      if (rd == 0) return plain("csrw", fmt::format("{}, {}", csr_text(csr), xname(rs1)));
      break;
    case Op::CSRRC:
      if (rd == 0) return plain("csrc", fmt::format("{}, {}", csr_text(csr), xname(rs1)));
      break;
    case Op::CSRRWI:
      if (rd == 0) return plain("csrwi", fmt::format("{}, {}", csr_text(csr), rs1));
      break;
    case Op::CSRRSI:
      if (rd == 0) return plain("csrsi", fmt::format("{}, {}", csr_text(csr), rs1));
      break;
    case Op::CSRRCI:
      if (rd == 0) return plain("csrci", fmt::format("{}, {}", csr_text(csr), rs1));
      break;
    case Op::FSGNJ_S:
      if (rs1 == rs2) return plain("fmv.s", fmt::format("{}, {}", xname(rd), xname(rs1)));
      break;
    case Op::FSGNJX_S:
      if (rs1 == rs2) return plain("fabs.s", fmt::format("{}, {}", xname(rd), xname(rs1)));
      break;
    case Op::FSGNJN_S:
      if (rs1 == rs2) return plain("fneg.s", fmt::format("{}, {}", xname(rd), xname(rs1)));
      break;
    case Op::FENCE:
      if (get_operand(word, OperandKind::FencePred) == 15 &&
          get_operand(word, OperandKind::FenceSucc) == 15)
        return plain("fence", "");
      break;
    case Op::VRSUB_VX:
      if (rs1 == 0) {
        Printed p = plain("vneg.v", fmt::format("{}, {}", vname(rd), vname(rs2)));
        if (get_operand(word, OperandKind::VMask) == 0) p.operands += ", v0.t";
        return p;
      }
      break;
    case Op::VXOR_VI:
      if (get_operand(word, OperandKind::Simm5) == -1) {
        Printed p = plain("vnot.v", fmt::format("{}, {}", vname(rd), vname(rs2)));
        if (get_operand(word, OperandKind::VMask) == 0) p.operands += ", v0.t";
        return p;
      }
      break;
    case Op::VWADD_VX: case Op::VWADDU_VX:
      if (rs1 == 0) {
        Printed p = plain(op == Op::VWADD_VX ? "vwcvt.x.x.v" : "vwcvtu.x.x.v",
                          fmt::format("{}, {}", vname(rd), vname(rs2)));
        if (get_operand(word, OperandKind::VMask) == 0) p.operands += ", v0.t";
        return p;
      }
      break;
    default:
      break;
  }
  return std::nullopt;
}

}  // namespace

std::optional<Printed> print_instruction(uint64_t word, uint64_t pc, const PrintOptions& o,
                                         const RegExt& ext) {
  const auto op = decode_op(word);
  if (!op) return std::nullopt;
  if (o.aliases)
    if (auto alias = print_alias(*op, static_cast<uint32_t>(word), pc, o, ext)) return alias;
  return print_generic(info(*op), word, pc, o, ext);
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
