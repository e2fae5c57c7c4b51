#include "random_program.h"

#include <fmt/format.h>

#include <random>

#include "fp32.h"

namespace ventus::testing {
namespace {

struct OpInfo {
  Op op;
  const char* mnemonic;
  enum Shape { kRRR, kRRI, kRI, kRR, kRRRR, kCsrRead, kCsrWrite, kCsrImm } shape;
  bool has_rm;
};

constexpr OpInfo kOps[] = {
    {Op::kAdd, "add", OpInfo::kRRR, false},
    {Op::kSub, "sub", OpInfo::kRRR, false},
    {Op::kSll, "sll", OpInfo::kRRR, false},
    {Op::kSlt, "slt", OpInfo::kRRR, false},
    {Op::kSltu, "sltu", OpInfo::kRRR, false},
    {Op::kXor, "xor", OpInfo::kRRR, false},
    {Op::kSrl, "srl", OpInfo::kRRR, false},
    {Op::kSra, "sra", OpInfo::kRRR, false},
    {Op::kOr, "or", OpInfo::kRRR, false},
    {Op::kAnd, "and", OpInfo::kRRR, false},
    {Op::kAddi, "addi", OpInfo::kRRI, false},
    {Op::kSlti, "slti", OpInfo::kRRI, false},
    {Op::kSltiu, "sltiu", OpInfo::kRRI, false},
    {Op::kXori, "xori", OpInfo::kRRI, false},
    {Op::kOri, "ori", OpInfo::kRRI, false},
    {Op::kAndi, "andi", OpInfo::kRRI, false},
    {Op::kSlli, "slli", OpInfo::kRRI, false},
    {Op::kSrli, "srli", OpInfo::kRRI, false},
    {Op::kSrai, "srai", OpInfo::kRRI, false},
    {Op::kLui, "lui", OpInfo::kRI, false},
    {Op::kMul, "mul", OpInfo::kRRR, false},
    {Op::kMulh, "mulh", OpInfo::kRRR, false},
    {Op::kMulhsu, "mulhsu", OpInfo::kRRR, false},
    {Op::kMulhu, "mulhu", OpInfo::kRRR, false},
    {Op::kDiv, "div", OpInfo::kRRR, false},
    {Op::kDivu, "divu", OpInfo::kRRR, false},
    {Op::kRem, "rem", OpInfo::kRRR, false},
    {Op::kRemu, "remu", OpInfo::kRRR, false},
    {Op::kFadd, "fadd.s", OpInfo::kRRR, true},
    {Op::kFsub, "fsub.s", OpInfo::kRRR, true},
    {Op::kFmul, "fmul.s", OpInfo::kRRR, true},
    {Op::kFdiv, "fdiv.s", OpInfo::kRRR, true},
    {Op::kFsqrt, "fsqrt.s", OpInfo::kRR, true},
    {Op::kFsgnj, "fsgnj.s", OpInfo::kRRR, false},
    {Op::kFsgnjn, "fsgnjn.s", OpInfo::kRRR, false},
    {Op::kFsgnjx, "fsgnjx.s", OpInfo::kRRR, false},
    {Op::kFmin, "fmin.s", OpInfo::kRRR, false},
    {Op::kFmax, "fmax.s", OpInfo::kRRR, false},
    {Op::kFcvtWS, "fcvt.w.s", OpInfo::kRR, true},
    {Op::kFcvtWuS, "fcvt.wu.s", OpInfo::kRR, true},
    {Op::kFcvtSW, "fcvt.s.w", OpInfo::kRR, true},
    {Op::kFcvtSWu, "fcvt.s.wu", OpInfo::kRR, true},
    {Op::kFeq, "feq.s", OpInfo::kRRR, false},
    {Op::kFlt, "flt.s", OpInfo::kRRR, false},
    {Op::kFle, "fle.s", OpInfo::kRRR, false},
    {Op::kFclass, "fclass.s", OpInfo::kRR, false},
    {Op::kFmadd, "fmadd.s", OpInfo::kRRRR, true},
    {Op::kFmsub, "fmsub.s", OpInfo::kRRRR, true},
    {Op::kFnmsub, "fnmsub.s", OpInfo::kRRRR, true},
    {Op::kFnmadd, "fnmadd.s", OpInfo::kRRRR, true},
    {Op::kReadFflags, "fflags", OpInfo::kCsrRead, false},
    {Op::kWriteFflags, "fflags", OpInfo::kCsrWrite, false},
    {Op::kClearFflagsImm, "fflags", OpInfo::kCsrImm, false},
    {Op::kSetFrmImm, "frm", OpInfo::kCsrImm, false},
    {Op::kReadFcsr, "fcsr", OpInfo::kCsrRead, false},
};

constexpr bool rows_follow_enum() {
  for (size_t i = 0; i < std::size(kOps); ++i) {
    if (static_cast<size_t>(kOps[i].op) != i) return false;
  }
  return true;
}
static_assert(rows_follow_enum(), "kOps rows must be in Op order");

const OpInfo& info(Op op) {
  return kOps[static_cast<size_t>(op)];
}

}  // namespace

uint32_t interesting_value(Choices& choices) {
  const auto rng = [&] { return choices.next(); };
  static constexpr uint32_t kSpecial[] = {
      0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001, 0x00000001,
      0x007fffff, 0x00800000, 0x7f7fffff, 0x3f800000, 0xbf800000, 0x4f000000, 0xcf000000,
      0x3f000000, 0x4b800000, 0x7fffffff, 0xffffffff, 0x00000002, 0x0000001f};
  switch (rng() % 5) {
    case 0: return kSpecial[rng() % std::size(kSpecial)];
    case 1: return static_cast<uint32_t>(static_cast<int32_t>(rng() % 201) - 100);
    case 2: return static_cast<uint32_t>(rng());
    default:  // a float of moderate magnitude
      return ((rng() & 1) << 31) | ((100 + rng() % 60) << 23) | (rng() & 0x7fffffu);
  }
}

namespace {

const char* rounding_suffix(uint32_t rm) {
  static constexpr const char* kNames[] = {", rne", ", rtz", ", rdn", ", rup", ", rmm"};
  return rm < 5 ? kNames[rm] : "";  // dyn is the assembler's default
}

}  // namespace

Instruction random_instruction(Choices& choices, unsigned registers) {
  const auto rng = [&] { return choices.next(); };
  const auto reg = [&] { return 1 + static_cast<unsigned>(rng() % (registers - 1)); };
  const auto source = [&] { return rng() % 16 == 0 ? 0u : reg(); };  // x0 now and then
  // FP-heavy: about half the picks come from the FP rows.
  const size_t first_fp = static_cast<size_t>(Op::kFadd);
  const size_t first_csr = static_cast<size_t>(Op::kReadFflags);
  size_t index;
  const uint32_t kind = rng() % 20;
  if (kind < 7) {
    index = rng() % first_fp;
  } else if (kind < 18) {
    index = first_fp + rng() % (first_csr - first_fp);
  } else {
    index = first_csr + rng() % (std::size(kOps) - first_csr);
  }
  Instruction in{kOps[index].op, reg(), source(), source(), source(), 0, 7};
  if (kOps[index].has_rm) in.rm = rng() % 3 == 0 ? 7 : rng() % 5;
  switch (in.op) {
    case Op::kSlli:
    case Op::kSrli:
    case Op::kSrai: in.imm = static_cast<int32_t>(rng() % 32); break;
    case Op::kLui: in.imm = static_cast<int32_t>(rng() % (1u << 20)); break;
    case Op::kClearFflagsImm: in.imm = static_cast<int32_t>(rng() % 32); break;
    case Op::kSetFrmImm: in.imm = static_cast<int32_t>(rng() % 5); break;
    default: in.imm = static_cast<int32_t>(rng() % 4096) - 2048;
  }
  return in;
}

RandomProgram generate_program(Choices& choices, size_t length) {
  RandomProgram program;
  for (unsigned r = 1; r < kProgramRegisters; ++r) program.initial[r] = interesting_value(choices);
  program.initial_frm = choices.next() % 5;
  for (size_t i = 0; i < length; ++i) program.body.push_back(random_instruction(choices));
  return program;
}

RandomProgram generate_program(uint32_t seed, size_t length) {
  struct Seeded : Choices {
    explicit Seeded(uint32_t seed) : rng(seed) {}
    uint32_t next() override { return static_cast<uint32_t>(rng()); }
    std::mt19937 rng;
  } choices(seed);
  return generate_program(choices, length);
}

std::string assembly_of(const Instruction& in) {
  const OpInfo& op = info(in.op);
  switch (op.shape) {
    case OpInfo::kRRR:
      return fmt::format("{} x{}, x{}, x{}{}", op.mnemonic, in.rd, in.rs1, in.rs2,
                         op.has_rm ? rounding_suffix(in.rm) : "");
    case OpInfo::kRRI: return fmt::format("{} x{}, x{}, {}", op.mnemonic, in.rd, in.rs1, in.imm);
    case OpInfo::kRI: return fmt::format("{} x{}, {}", op.mnemonic, in.rd, in.imm);
    case OpInfo::kRR:
      return fmt::format("{} x{}, x{}{}", op.mnemonic, in.rd, in.rs1,
                         op.has_rm ? rounding_suffix(in.rm) : "");
    case OpInfo::kRRRR:
      return fmt::format("{} x{}, x{}, x{}, x{}{}", op.mnemonic, in.rd, in.rs1, in.rs2, in.rs3,
                         rounding_suffix(in.rm));
    case OpInfo::kCsrRead: return fmt::format("csrrs x{}, {}, x0", in.rd, op.mnemonic);
    case OpInfo::kCsrWrite: return fmt::format("csrrw x{}, {}, x{}", in.rd, op.mnemonic, in.rs1);
    case OpInfo::kCsrImm:
      return in.op == Op::kSetFrmImm ? fmt::format("csrrwi x{}, frm, {}", in.rd, in.imm)
                                     : fmt::format("csrrci x{}, fflags, {}", in.rd, in.imm);
  }
  return {};
}

std::string assembly_of(const RandomProgram& program) {
  std::string s = ".text\n.globl _start\n_start:\n";
  for (unsigned r = 1; r < kProgramRegisters; ++r) {
    s += fmt::format("  li x{}, {:#x}\n", r, program.initial[r]);
  }
  s += fmt::format("  csrwi fflags, 0\n  csrwi frm, {}\n", program.initial_frm);
  for (const Instruction& in : program.body) s += "  " + assembly_of(in) + "\n";
  return s;
}

namespace {

std::string dump_stores() {
  std::string s;
  for (unsigned r = 1; r < kProgramRegisters; ++r) {
    s += fmt::format("  sw x{}, {}(x31)\n", r, 4 * (r - 1));
  }
  s += fmt::format("  csrrs x30, fcsr, x0\n  sw x30, {}(x31)\n", 4 * (kProgramRegisters - 1));
  return s;
}

}  // namespace

std::string qemu_epilogue() {
  return "  la x31, dump\n" + dump_stores() +
         fmt::format(R"(  li a0, 1
  mv a1, x31
  li a2, {}
  li a7, 64
  ecall
  li a0, 0
  li a7, 93
  ecall
.bss
dump:
  .space {}
)",
                     4 * kProgramRegisters, 4 * kProgramRegisters);
}

std::string ventus_epilogue(uint32_t dump_address) {
  // endprg (custom-0, funct3 = 4) has no GNU mnemonic: emit its word.
  return fmt::format("  li x31, {:#x}\n", dump_address) + dump_stores() + "  .word 0x0000400b\n";
}

MachineState run_model(const RandomProgram& program) {
  std::array<uint32_t, 32> x{};
  for (unsigned r = 1; r < kProgramRegisters; ++r) x[r] = program.initial[r];
  uint32_t fflags = 0, frm = program.initial_frm;
  for (const Instruction& in : program.body) {
    const uint32_t a = x[in.rs1], b = x[in.rs2], c = x[in.rs3];
    const int32_t sa = static_cast<int32_t>(a), sb = static_cast<int32_t>(b);
    const uint32_t imm = static_cast<uint32_t>(in.imm);
    const uint32_t rm = in.rm == 7 ? frm : in.rm;
    constexpr uint32_t kSign = 0x80000000u;
    uint32_t result = 0;
    switch (in.op) {
      case Op::kAdd: result = a + b; break;
      case Op::kSub: result = a - b; break;
      case Op::kSll: result = a << (b & 31); break;
      case Op::kSlt: result = sa < sb; break;
      case Op::kSltu: result = a < b; break;
      case Op::kXor: result = a ^ b; break;
      case Op::kSrl: result = a >> (b & 31); break;
      case Op::kSra: result = static_cast<uint32_t>(sa >> (b & 31)); break;
      case Op::kOr: result = a | b; break;
      case Op::kAnd: result = a & b; break;
      case Op::kAddi: result = a + imm; break;
      case Op::kSlti: result = sa < in.imm; break;
      case Op::kSltiu: result = a < imm; break;
      case Op::kXori: result = a ^ imm; break;
      case Op::kOri: result = a | imm; break;
      case Op::kAndi: result = a & imm; break;
      case Op::kSlli: result = a << imm; break;
      case Op::kSrli: result = a >> imm; break;
      case Op::kSrai: result = static_cast<uint32_t>(sa >> imm); break;
      case Op::kLui: result = imm << 12; break;
      case Op::kMul: result = a * b; break;
      case Op::kMulh: result = static_cast<uint32_t>((int64_t{sa} * sb) >> 32); break;
      case Op::kMulhsu: result = static_cast<uint32_t>((int64_t{sa} * int64_t{b}) >> 32); break;
      case Op::kMulhu: result = static_cast<uint32_t>((uint64_t{a} * b) >> 32); break;
      case Op::kDiv:
        result = b == 0 ? ~0u : (sa == INT32_MIN && sb == -1) ? a : static_cast<uint32_t>(sa / sb);
        break;
      case Op::kDivu: result = b == 0 ? ~0u : a / b; break;
      case Op::kRem:
        result = b == 0 ? a : (sa == INT32_MIN && sb == -1) ? 0 : static_cast<uint32_t>(sa % sb);
        break;
      case Op::kRemu: result = b == 0 ? a : a % b; break;
      case Op::kFadd: result = fp::add(a, b, rm, fflags); break;
      case Op::kFsub: result = fp::sub(a, b, rm, fflags); break;
      case Op::kFmul: result = fp::mul(a, b, rm, fflags); break;
      case Op::kFdiv: result = fp::div(a, b, rm, fflags); break;
      case Op::kFsqrt: result = fp::sqrt(a, rm, fflags); break;
      case Op::kFsgnj: result = (a & ~kSign) | (b & kSign); break;
      case Op::kFsgnjn: result = (a & ~kSign) | (~b & kSign); break;
      case Op::kFsgnjx: result = a ^ (b & kSign); break;
      case Op::kFmin: result = fp::min(a, b, fflags); break;
      case Op::kFmax: result = fp::max(a, b, fflags); break;
      case Op::kFcvtWS: result = static_cast<uint32_t>(fp::to_i32(a, rm, fflags)); break;
      case Op::kFcvtWuS: result = fp::to_u32(a, rm, fflags); break;
      case Op::kFcvtSW: result = fp::from_i32(sa, rm, fflags); break;
      case Op::kFcvtSWu: result = fp::from_u32(a, rm, fflags); break;
      case Op::kFeq: result = fp::eq(a, b, fflags); break;
      case Op::kFlt: result = fp::lt(a, b, fflags); break;
      case Op::kFle: result = fp::le(a, b, fflags); break;
      case Op::kFclass: result = fp::classify(a); break;
      case Op::kFmadd: result = fp::fma(a, b, c, rm, fflags); break;
      case Op::kFmsub: result = fp::fma(a, b, c ^ kSign, rm, fflags); break;
      case Op::kFnmsub: result = fp::fma(a ^ kSign, b, c, rm, fflags); break;
      case Op::kFnmadd: result = fp::fma(a ^ kSign, b, c ^ kSign, rm, fflags); break;
      case Op::kReadFflags: result = fflags; break;
      case Op::kWriteFflags:
        result = fflags;
        fflags = a & 0x1f;
        break;
      case Op::kClearFflagsImm:
        result = fflags;
        fflags &= ~imm;
        break;
      case Op::kSetFrmImm:
        result = frm;
        frm = imm;
        break;
      case Op::kReadFcsr: result = (frm << 5) | fflags; break;
    }
    x[in.rd] = result;
  }
  MachineState state;
  for (unsigned r = 1; r < kProgramRegisters; ++r) state.x[r] = x[r];
  state.fcsr = (frm << 5) | fflags;
  return state;
}

MachineState state_from_words(const std::vector<uint32_t>& words) {
  MachineState state;
  for (unsigned r = 1; r < kProgramRegisters && r - 1 < words.size(); ++r) {
    state.x[r] = words[r - 1];
  }
  if (words.size() >= kProgramRegisters) state.fcsr = words[kProgramRegisters - 1];
  return state;
}

std::string compare_states(const MachineState& expected, const MachineState& actual,
                           const char* expected_name, const char* actual_name) {
  std::string differences;
  for (unsigned r = 1; r < kProgramRegisters; ++r) {
    if (expected.x[r] != actual.x[r]) {
      differences += fmt::format("x{}: {} {:#010x} {} {:#010x}\n", r, expected_name, expected.x[r],
                                 actual_name, actual.x[r]);
    }
  }
  if (expected.fcsr != actual.fcsr) {
    differences += fmt::format("fcsr: {} {:#x} {} {:#x}\n", expected_name, expected.fcsr,
                               actual_name, actual.fcsr);
  }
  return differences;
}

}  // namespace ventus::testing
