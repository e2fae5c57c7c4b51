// Machine IR of the back end: Ventus instructions over virtual registers, in the blocks
// of the LLVM function they came from. Instruction selection (isel*.cpp) builds it, the
// register allocator (regalloc.cpp) replaces virtual registers by physical ones and
// inserts spill code, the emitter (emit.cpp) prints it. An instruction is a row of the
// instruction table (isa::Op) or one of the few pseudo-instructions below; which operands
// it reads and writes comes from the row's operand roles (make_inst), not from its
// builder.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ventus/abi.h"
#include "ventus/device.h"
#include "ventus/isa.h"
#include "ventus/kernel_metadata.h"

namespace ventus::cc::backend {

// Register numbers: x0..x63 are 0..63, v0..v255 are 64..319, virtual registers from 1024.
inline constexpr uint32_t kVectorBase = 64;
inline constexpr uint32_t kFirstVirtual = 1024;
inline constexpr uint32_t kNoReg = ~0u;

inline constexpr uint32_t xreg(uint32_t n) { return n; }
inline constexpr uint32_t vreg_phys(uint32_t n) { return kVectorBase + n; }
inline constexpr bool is_virtual(uint32_t r) { return r >= kFirstVirtual && r != kNoReg; }
inline constexpr bool is_vector_phys(uint32_t r) { return r >= kVectorBase && r < kFirstVirtual; }

enum class RegClass : uint8_t { Scalar, Vector };

// Frame limits of the device (sim::DeviceConfig{}). A warp's scalar stack (sp) lies in its
// workgroup's local memory: a kernel's, with its callees' frames, and its __local data must
// fit an SM's local memory for a workgroup of one warp. A work-item's private memory (tp)
// must fit a launch's (rt::kMaxPrivateBytes) for one warp of the widest warps.
inline constexpr uint32_t kDeviceLocalBytes = sim::DeviceConfig{}.lds_bytes_per_sm;
inline constexpr uint32_t kMaxPrivateFrameBytes =
    static_cast<uint32_t>(rt::kMaxPrivateBytes / sim::DeviceConfig{}.max_threads_per_warp);

// Fixed scalar registers.
inline constexpr uint32_t kZero = 0, kRa = 1, kSp = 2, kGp = 3, kTp = 4, kA0 = 10;
// Scratch registers never given to virtual registers: spill reloads, setrpc, expansions.
inline constexpr uint32_t kScratchS0 = 29, kScratchS1 = 30, kScratchS2 = 31;  // t4 t5 t6
inline constexpr uint32_t kScratchV0 = kVectorBase + 253;                    // v253..v255

struct Operand {
  enum class Kind : uint8_t { Reg, Imm, Label, Text };
  Kind kind = Kind::Imm;
  // Whether the instruction reads or writes the register: make_inst sets them from the
  // operand roles of its row (or pseudo-instruction).
  bool def = false;
  bool use = false;
  bool early_clobber = false;  // a def that must not share a register with any use
  uint32_t reg = kNoReg;
  int64_t imm = 0;
  std::string text;  // label or literal operand text (a symbol expression, "rtz", ...)

  static Operand reg_of(uint32_t r) { return {Kind::Reg, false, false, false, r, 0, {}}; }
  static Operand immediate(int64_t v) { return {Kind::Imm, false, false, false, kNoReg, v, {}}; }
  static Operand label(std::string l) { return {Kind::Label, false, false, false, kNoReg, 0, std::move(l)}; }
  static Operand literal(std::string t) { return {Kind::Text, false, false, false, kNoReg, 0, std::move(t)}; }
  // A CSR operand, written as its number in hex as the assembler reads it.
  static Operand csr(uint16_t number);
};

// The instructions that are not one row of the table with all its operands.
enum class Pseudo : uint8_t {
  None,   // MInst::op is the instruction
  Label,  // ops[0] names the position
  // Aliases (isa::aliases()): one row with some operands fixed, printed under the alias's
  // name; their operands' roles are those of the row slots they fill.
  Li,
  Mv,
  Neg,
  Seqz,
  Snez,
  Beqz,
  Bnez,
  J,
  Ret,
  Csrr,
  Fence,
  Unimp,
  // Expanded by the assembler into several rows: la rd, symbol.
  La,
  // The back end's own, expanded by emit.cpp: the epilogue and ret; an atomic
  // operation performed lane by lane (MInst::op: the AMO row, or SC_W for a compare and
  // exchange through lr.w/sc.w); spill stores and reloads (ops: register, slot offset, and
  // for all but a scalar reload the scalar scratch that addresses a slot beyond the immediates).
  Return,
  Atomic,
  ScalarSpill,
  ScalarReload,
  VectorSpill,
  VectorReload,
  // GCC-style inline assembly (built by Selector::select_inline_asm, never by make_inst):
  // ops[0] is LLVM's template text, ops[1] the begin marker (inline_asm.h), ops[2 + n]
  // operand $n with its def/use set from its constraint; emit.cpp substitutes the
  // operands and prints the text as written, and the assembler checks every line.
  InlineAsm,
};

struct MInst {
  isa::Op op = isa::Op::Count;
  Pseudo pseudo = Pseudo::None;
  std::vector<Operand> ops;
  bool is_call = false;      // clobbers the caller-saved registers
  bool is_terminator = false;
  bool negate_value = false;            // Atomic: subtract, as an amoadd.w of the negated value
  std::vector<uint32_t> implicit_uses;  // physical registers read (call arguments, ret value)
  std::vector<uint32_t> implicit_defs;  // physical registers written (call results)

  bool is(isa::Op o) const { return pseudo == Pseudo::None && op == o; }
  bool is(Pseudo p) const { return pseudo == p; }
};

// An instruction with the def/use of each register operand set from the operand roles of
// its row (isa::InsnInfo::operands) or pseudo-instruction. Operands follow the row's
// syntax, a memory operand "off(base)" as two; trailing optional ones (vm, rm) may be left
// out. Throws an internal error for more operands than the row has.
MInst make_inst(isa::Op op, std::vector<Operand> ops);
MInst make_inst(Pseudo pseudo, std::vector<Operand> ops);
// The assembler's name of a pseudo-instruction that the assembler reads (the aliases, la).
std::string_view pseudo_mnemonic(Pseudo pseudo);

struct MBlock {
  std::string label;
  std::vector<MInst> insts;
  std::vector<int> succs;
  bool needs_join = false;  // reconvergence point of a divergent branch
};

struct MFunction {
  std::string name;
  std::string location;  // "file:line: " of the function's definition, for messages
  bool is_kernel = false;
  std::vector<MBlock> blocks;
  std::vector<RegClass> vreg_class;  // index: vreg - kFirstVirtual
  uint32_t private_frame = 0;        // bytes of allocas (per thread, tp-relative)
  uint32_t private_align = 4;        // ModuleLayout::private_align: the frame's size is a multiple
  uint32_t warp_stack_bytes = abi::kWarpStackBytes;  // ModuleLayout::warp_stack_bytes
  bool makes_calls = false;
  bool uses_printf = false;
  bool guards_extra_lanes = false;  // kernel: lanes past the workgroup jump to kernel_end_label
  std::vector<std::string> callees;
  // (block, first scalar vreg) regions that divergent branches open: see regalloc.cpp.
  struct DivergentRegion {
    int branch_block;
    std::vector<int> blocks;
  };
  std::vector<DivergentRegion> divergent_regions;
  // Filled by the allocator.
  uint32_t scalar_spill_bytes = 0;
  uint32_t vector_spill_bytes = 0;
  std::vector<uint32_t> used_callee_saved;  // physical registers to save in the prologue
  uint32_t max_scalar = 0, max_vector = 0;  // highest register index used + 1

  uint32_t new_vreg(RegClass c) {
    vreg_class.push_back(c);
    return kFirstVirtual + static_cast<uint32_t>(vreg_class.size() - 1);
  }
  RegClass class_of(uint32_t r) const {
    if (is_virtual(r)) return vreg_class[r - kFirstVirtual];
    return is_vector_phys(r) ? RegClass::Vector : RegClass::Scalar;
  }
};

std::string register_name(uint32_t r);
// Generated labels are .L<kind>_<function>[_<number>][_<part>]: one assembly text holds
// every function of the program, so each label carries its function's name, and no kind
// (BB, guard_done, guard_rpc, rpc, atomic, kernel_end, relax) is a prefix of another.
inline std::string kernel_end_label(const std::string& function) { return ".Lkernel_end_" + function; }

}  // namespace ventus::cc::backend
