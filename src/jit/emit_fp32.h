// The translating tier's inline fp32 vector arithmetic (docs/simulator.md, "Translation"):
// the common vector fp rows at SEW=32 become host vector instructions on all 32 lanes at
// once, bit for bit what their semantics (semantics/vector_float.cpp, src/fp) compute,
// fflags included. The rows that round do it under the host's MXCSR (src/fp/mxcsr.h).
#pragma once

#include <llvm/IR/IRBuilder.h>

#include <functional>

#include "decode_cache.h"

namespace ventus::jit {

// Whether emit_fp32 has an inline form for the entry (its semantics being the plain ones is
// the caller's check): vfadd, vfsub, vfrsub, vfmul, vfdiv, vfrdiv, vfsqrt, the vfmacc/vfmadd
// family, vfmin, vfmax and the compares, on registers the semantics accept without a fault.
// The rows that round need a host with FMA (x86-64 with FMA3), or all but the fma family
// otherwise.
bool is_fp32_inlined(const sim::CachedInsn& entry);

// Emits the entry at b's insert point for the warp at `warp` (a sim::Warp*): the inline form
// when the warp is at SEW=32, LMUL=1 and, for the rows that round, frm is RNE, RTZ, RDN or
// RUP; otherwise emit_call() emits the call of its semantics (which also fault for a reserved
// frm). Leaves b after both.
void emit_fp32(llvm::IRBuilder<>& b, llvm::Value* warp, const sim::Insn& in,
               const std::function<void()>& emit_call);

}  // namespace ventus::jit
