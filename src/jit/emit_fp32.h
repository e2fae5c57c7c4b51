// The translating tier's inline fp32 vector arithmetic (docs/simulator.md, "Translation"):
// the common vector fp rows at SEW=32 become host vector instructions on all 32 lanes at
// once, bit for bit what their semantics (semantics/vector_float.cpp, src/fp) compute,
// fflags included. The rows that round do it under the host's MXCSR (src/fp/mxcsr.h).
#pragma once

#include <llvm/IR/IRBuilder.h>

#include <functional>
#include <vector>

#include "decode_cache.h"
#include "warp_ir.h"

namespace ventus::jit {

// Whether emit_fp32 has an inline form for the entry (its semantics being the plain ones is
// the caller's check): vfadd, vfsub, vfrsub, vfmul, vfdiv, vfrdiv, vfsqrt, the vfmacc/vfmadd
// family, vfmin, vfmax, the compares and vfcvt between fp32 and int32/uint32, on registers the
// semantics accept without a fault, where the host has what the row needs (host_has in
// emit_fp32.cpp).
bool is_fp32_inlined(const sim::CachedInsn& entry);

// The host's MXCSR while a translated block runs its fp32 rows. Setting it and reading its
// flags in the pattern of a row (read, set, operate, read, set back) costs about 200 ns on
// the x86 hosts measured, more than the 32-lane operation, so it is set to frm once, by the
// first row that rounds, and kept for the rows after it (frm cannot change inside a block),
// their sticky flags accumulating; the run ends, its flags accrued into fflags and the
// host's control bits put back (fp::mxcsr::needs_restore: in the usual case, RNE, nothing to
// write), before each semantics call (they, and whatever host code they run, see the host's
// own rounding and the fflags so far) and before the block returns.
class MxcsrRun {
 public:
  // At b's insert point in the function's entry block, for a block of these entries.
  MxcsrRun(llvm::IRBuilder<>& b, llvm::Value* warp, const std::vector<sim::CachedInsn>& entries);
  // Emits the restore at b's insert point, for when the run is open there (nothing for a
  // block without rows that round).
  void close(llvm::IRBuilder<>& b);
  // Emits, for the row's fast path, MXCSR set to frm unless the run is open already.
  void open(llvm::IRBuilder<>& b, llvm::Value* frm);

 private:
  llvm::Value* warp_;
  bool used_ = false;
  llvm::Value *is_open_ = nullptr, *saved_ = nullptr, *mode_ = nullptr;
};

// Emits the entry at b's insert point for the warp at `warp` (a sim::Warp*): the inline form
// when the warp is at SEW=32, LMUL=1 and, for the rows that round, frm is RNE, RTZ, RDN or
// RUP; otherwise emit_call() emits the call of its semantics (which also fault for a reserved
// frm; the caller closes the run first). vtype_checked: the block checked SEW=32 and LMUL=1
// where it starts and nothing since could change them (as for emit_vint), so only frm is
// checked here, and a row that does not round goes inline without a check. Leaves b after both.
void emit_fp32(llvm::IRBuilder<>& b, llvm::Value* warp, FieldShadows* shadows, const sim::Insn& in,
               MxcsrRun& run, bool vtype_checked, const std::function<void()>& emit_call);

}  // namespace ventus::jit
