// The aliases of the instruction set: the one list the assembler parses (src/asm/pseudo.cpp)
// and the disassembler prints (src/isa/printer.cpp). Instructions that expand into more than
// one row (li beyond 12 bits, la, call, tail, "lw rd, symbol" ...) are no aliases: the
// assembler expands them in pseudo.cpp and nothing prints them.
#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "ventus/isa.h"

namespace ventus::isa {
namespace {

// Printed entries come first for their row in the order llvm-objdump tries them: the first
// that matches the operands is printed.
constexpr Alias kAliases[] = {
    {"nop", Op::ADDI, "zero,zero,0", true},
    {"li", Op::ADDI, "$0,zero,$1", true},
    {"mv", Op::ADDI, "$0,$1,0", true},
    {"not", Op::XORI, "$0,$1,-1", true},
    {"neg", Op::SUB, "$0,zero,$1", true},
    {"seqz", Op::SLTIU, "$0,$1,1", true},
    {"snez", Op::SLTU, "$0,zero,$1", true},
    {"sltz", Op::SLT, "$0,$1,zero", true},
    {"sgtz", Op::SLT, "$0,zero,$1", true},
    {"beqz", Op::BEQ, "$0,zero,$1", true},
    {"bnez", Op::BNE, "$0,zero,$1", true},
    {"blez", Op::BGE, "zero,$0,$1", true},
    {"bgez", Op::BGE, "$0,zero,$1", true},
    {"bltz", Op::BLT, "$0,zero,$1", true},
    {"bgtz", Op::BLT, "zero,$0,$1", true},
    {"bgt", Op::BLT, "$1,$0,$2", false},
    {"ble", Op::BGE, "$1,$0,$2", false},
    {"bgtu", Op::BLTU, "$1,$0,$2", false},
    {"bleu", Op::BGEU, "$1,$0,$2", false},
    {"j", Op::JAL, "zero,$0", true},
    {"jal", Op::JAL, "ra,$0", true},
    {"ret", Op::JALR, "zero,0,ra", true},
    {"jr", Op::JALR, "zero,0,$0", true},
    {"jalr", Op::JALR, "ra,0,$0", true},
    {"jalr", Op::JALR, "$0,$2,$1", false},
    {"frflags", Op::CSRRS, "$0,fflags,zero", true},
    {"frrm", Op::CSRRS, "$0,frm,zero", true},
    {"frcsr", Op::CSRRS, "$0,fcsr,zero", true},
    {"rdcycle", Op::CSRRS, "$0,cycle,zero", true},
    {"rdtime", Op::CSRRS, "$0,time,zero", true},
    {"rdinstret", Op::CSRRS, "$0,instret,zero", true},
    {"csrr", Op::CSRRS, "$0,$1,zero", true},
    {"csrs", Op::CSRRS, "zero,$0,$1", true},
    {"unimp", Op::CSRRW, "zero,cycle,zero", true},
    {"fsflags", Op::CSRRW, "zero,fflags,$0", true},
    {"fsflags", Op::CSRRW, "$0,fflags,$1", true},
    {"fsrm", Op::CSRRW, "zero,frm,$0", true},
    {"fsrm", Op::CSRRW, "$0,frm,$1", true},
    {"fscsr", Op::CSRRW, "zero,fcsr,$0", true},
    {"fscsr", Op::CSRRW, "$0,fcsr,$1", true},
    {"csrw", Op::CSRRW, "zero,$0,$1", true},
    {"csrc", Op::CSRRC, "zero,$0,$1", true},
    {"csrwi", Op::CSRRWI, "zero,$0,$1", true},
    {"csrsi", Op::CSRRSI, "zero,$0,$1", true},
    {"csrci", Op::CSRRCI, "zero,$0,$1", true},
    {"fmv.s", Op::FSGNJ_S, "$0,$1,$1", true},
    {"fabs.s", Op::FSGNJX_S, "$0,$1,$1", true},
    {"fneg.s", Op::FSGNJN_S, "$0,$1,$1", true},
    {"fence", Op::FENCE, "iorw,iorw", true},
    {"vneg.v", Op::VRSUB_VX, "$0,$1,zero", true},
    {"vnot.v", Op::VXOR_VI, "$0,$1,-1", true},
    {"vwcvt.x.x.v", Op::VWADD_VX, "$0,$1,zero", true},
    {"vwcvtu.x.x.v", Op::VWADDU_VX, "$0,$1,zero", true},
    // The spelling of vfexp that this project used before following the public toolchain.
    {"vfexp.v", Op::VFEXP_V, "$0,$1", false},
    {"vfneg.v", Op::VFSGNJN_VV, "$0,$1,$1", false},
    {"vfabs.v", Op::VFSGNJX_VV, "$0,$1,$1", false},
    {"vmsgt.vv", Op::VMSLT_VV, "$0,$2,$1", false},
    {"vmsgtu.vv", Op::VMSLTU_VV, "$0,$2,$1", false},
    {"vmsge.vv", Op::VMSLE_VV, "$0,$2,$1", false},
    {"vmsgeu.vv", Op::VMSLEU_VV, "$0,$2,$1", false},
    {"vmfgt.vv", Op::VMFLT_VV, "$0,$2,$1", false},
    {"vmfge.vv", Op::VMFLE_VV, "$0,$2,$1", false},
    {"vmnot.m", Op::VMNAND_MM, "$0,$1,$1", false},
    {"vmmv.m", Op::VMAND_MM, "$0,$1,$1", false},
    {"vmclr.m", Op::VMXOR_MM, "$0,$0,$0", false},
    {"vmset.m", Op::VMXNOR_MM, "$0,$0,$0", false},
};

}  // namespace

std::span<const Alias> aliases() {
  return kAliases;
}

AliasForm alias_form(const Alias& a) {
  const InsnInfo& row = info(a.op);
  AliasForm f;
  f.slots.resize(row.operands.size());
  std::string_view list = a.operands;
  for (size_t i = 0; i < row.operands.size(); ++i) {
    if (list.empty()) {
      if (i + 1 == row.operands.size() && row.operands[i].kind == OperandKind::VMask) {
        f.mask_passes = true;
        break;
      }
      throw std::logic_error(
          fmt::format("alias {}: too few operands for {}", a.mnemonic, row.mnemonic));
    }
    const size_t comma = list.find(',');
    const std::string_view entry = list.substr(0, comma);
    list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
    if (entry.size() == 2 && entry[0] == '$' && entry[1] >= '0' && entry[1] <= '9') {
      f.slots[i].operand = entry[1] - '0';
      f.operands = std::max<size_t>(f.operands, f.slots[i].operand + 1);
    } else {
      f.slots[i].fixed = entry;
    }
  }
  if (!list.empty())
    throw std::logic_error(
        fmt::format("alias {}: too many operands for {}", a.mnemonic, row.mnemonic));
  return f;
}

}  // namespace ventus::isa
