// Host reference model of the Ventus vector rows, written independently of
// src/sim/semantics/vector_*.cpp: element by element, with 128-bit integers and the
// rounding rules spelled out as in the RVV 1.0 text. FP rows use the fp library's scalar
// functions (themselves checked against qemu in tests/fp) with the RVV operand mapping, fp32
// at SEW=32 and fp16 at SEW=16.
#pragma once

#include <cstdint>
#include <string>

#include "warp.h"

namespace ventus::test {

// The decoded operands as the test chose them.
struct Operands {
  unsigned vd = 0, vs1 = 0, vs2 = 0;  // vector registers (vd is also the accumulator)
  unsigned rd = 0, rs1 = 0;           // scalar registers
  int32_t imm = 0;
  bool masked = false;  // vm = 0 (only for rows with a vm operand)
};

// How the row's operands are laid out: decides the register choice and the reference.
enum class Kind {
  Unknown,
  IntBinary,     // vd = f(vs2, vs1 | x[rs1] | imm)
  Fixed,         // fixed point: also vxrm and vxsat
  IntMulAdd,     // vd = f(vs1 | x[rs1], vs2, vd)
  Merge,         // vd = v0 ? second : vs2
  Move,          // vd = second
  MoveToScalar,  // x[rd] = vs2[last active lane]
  Vid,
  MaskLogical,
  Widen,  // vd(wide) = f(vs2, vs1 | x[rs1]); .w forms: vs2 wide, vs1 wide
  WidenMulAdd,
  Add12,     // vd = vs1 +- uimm12
  FpBinary,  // vd = f(vs2, vs1 | x[rs1])
  FpFma,     // vfmacc family and vftta.vv
  FpUnary,   // vd = f(vs2)
  FpMerge,
  FpMove,
  FpMoveToScalar,
};

struct RowInfo {
  Kind kind = Kind::Unknown;
  std::string base;  // mnemonic without the form suffix ("vadd")
  std::string form;  // "vv", "vx", "vi", "wv", "wx", "vf", "vvm", "mm", ...
  bool has_vm = false;
  bool vector_second = false;  // the second operand is vs1 (else x[rs1] or imm)
  bool immediate = false;
  bool fp = false;         // needs SEW=16 (fp16) or 32 (fp32)
  bool fp32_only = false;  // an fp row with no fp16 form: SEW=32 only
};
RowInfo classify(const isa::InsnInfo& row);

// Applies the row to w as the reference semantics say. o holds the operands; the row is
// classified by classify(). Returns false when the reference does not know the row.
bool reference(const isa::InsnInfo& row, const RowInfo& info, sim::Warp& w, const Operands& o);

}  // namespace ventus::test
