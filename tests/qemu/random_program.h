// Random straight-line programs of standard RV32IM, Zicsr (fflags/frm/fcsr) and Zfinx
// instructions, with a host model of their semantics. The same program runs on
// qemu-riscv32 (the RISC-V reference), on the model (RV32IM in plain C++, FP through
// ventus_fp) and, when the simulator is built, as a one-warp Ventus kernel.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace ventus::testing {

// Registers a program may use: x1..x29. x30 and x31 are the dump's scratch and base.
inline constexpr unsigned kProgramRegisters = 30;

enum class Op {
  kAdd,
  kSub,
  kSll,
  kSlt,
  kSltu,
  kXor,
  kSrl,
  kSra,
  kOr,
  kAnd,
  kAddi,
  kSlti,
  kSltiu,
  kXori,
  kOri,
  kAndi,
  kSlli,
  kSrli,
  kSrai,
  kLui,
  kMul,
  kMulh,
  kMulhsu,
  kMulhu,
  kDiv,
  kDivu,
  kRem,
  kRemu,
  kFadd,
  kFsub,
  kFmul,
  kFdiv,
  kFsqrt,
  kFsgnj,
  kFsgnjn,
  kFsgnjx,
  kFmin,
  kFmax,
  kFcvtWS,
  kFcvtWuS,
  kFcvtSW,
  kFcvtSWu,
  kFeq,
  kFlt,
  kFle,
  kFclass,
  kFmadd,
  kFmsub,
  kFnmsub,
  kFnmadd,
  kReadFflags,
  kWriteFflags,
  kClearFflagsImm,
  kSetFrmImm,
  kReadFcsr,
};

struct Instruction {
  Op op;
  unsigned rd, rs1, rs2, rs3;
  int32_t imm;  // simm12, shamt, lui's 20 bits, or a CSR immediate
  uint32_t rm;  // 0..4 static, 7 dynamic
};

struct RandomProgram {
  std::array<uint32_t, kProgramRegisters> initial{};  // x1..x29 (index 0 unused)
  uint32_t initial_frm = 0;
  std::vector<Instruction> body;
};

// Final architectural state the tests compare: x1..x29, then fcsr.
struct MachineState {
  std::array<uint32_t, kProgramRegisters> x{};
  uint32_t fcsr = 0;
};

// Where the generator's choices come from: each call gives 32 bits, which the generator
// reduces with `%`. A seeded PRNG for the tests; a libFuzzer input for tests/fuzz/fuzz_jit,
// so that the fuzzer's mutations steer the program (coverage guidance).
class Choices {
 public:
  virtual ~Choices() = default;
  virtual uint32_t next() = 0;
};

// x1..x(registers - 1) as destinations and sources (x0 as a source now and then).
Instruction random_instruction(Choices& choices, unsigned registers = kProgramRegisters);
// Special floats and integers, small integers, any bits, moderate floats.
uint32_t interesting_value(Choices& choices);

RandomProgram generate_program(Choices& choices, size_t length);
RandomProgram generate_program(uint32_t seed, size_t length);  // mt19937(seed)

// The program's instructions as GNU assembly (Zfinx register names), starting by loading the
// initial state and ending with the last body instruction.
std::string assembly_of(const RandomProgram& program);
std::string assembly_of(const Instruction& instruction);

// Epilogues that store x1..x29 and fcsr as 30 words at `x31`: for qemu (then `write` to
// stdout and exit) and for Ventus (a fixed buffer address, then endprg).
std::string qemu_epilogue();
std::string ventus_epilogue(uint32_t dump_address);

// The host model: runs the program from its initial state.
MachineState run_model(const RandomProgram& program);

// Parses a 30-word dump.
MachineState state_from_words(const std::vector<uint32_t>& words);

// Differences in "x5: model 0x... qemu 0x..." form, one line each; empty when equal.
std::string compare_states(const MachineState& expected, const MachineState& actual,
                           const char* expected_name, const char* actual_name);

}  // namespace ventus::testing
