// The translating tier's inline vector integer rows (docs/simulator.md, "Translation"): at
// SEW=32 and LMUL=1 the integer rows of semantics/vector_int.cpp become host vector
// instructions on all 32 lanes at once, bit for bit what their semantics compute.
#pragma once

#include <llvm/IR/IRBuilder.h>

#include <functional>

#include "decode_cache.h"
#include "warp_ir.h"

namespace ventus::jit {

// Whether emit_vint has an inline form for the entry (its semantics being the plain ones is
// the caller's check): vadd, vsub, vrsub, the logic rows, the shifts, vmin(u)/vmax(u), the
// compares (vmseq ... vmsgt), vmul, vmulh(u/su), vdiv(u), vrem(u), vmacc, vnmsac, vmadd,
// vnmsub, vmerge, vmv.v.*, vmv.s.x, vmv.x.s and vid.v, on registers the semantics accept
// without a fault.
bool is_vint_inlined(const sim::CachedInsn& entry);

// Emits the entry at b's insert point for the warp at `warp` (a sim::Warp*): the inline form
// when the warp is at SEW=32 and LMUL=1, else emit_call() emits the call of its semantics.
// With vtype_checked (the block checked SEW=32 and LMUL=1 where it starts and nothing since
// could change them: VtypeChecks in translator.cpp) only the inline form. Leaves b after it.
void emit_vint(llvm::IRBuilder<>& b, llvm::Value* warp, FieldShadows* shadows, const sim::Insn& in,
               bool vtype_checked, const std::function<void()>& emit_call);

}  // namespace ventus::jit
