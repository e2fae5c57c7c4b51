// The translating tier's inline memory accesses (docs/simulator.md, "Translation"): the
// scalar loads and stores and the per-thread vector loads and stores, through host pointers
// that the interpreter's own translation (sim::MemorySystem) found. When it refuses an access
// (a fault, the commit log, the memory checker, an address no fast path takes), the entry's
// semantics run instead and report what they report.
#pragma once

#include <llvm/IR/IRBuilder.h>

#include <cstdint>
#include <functional>
#include <initializer_list>

#include "decode_cache.h"
#include "translator.h"
#include "warp_ir.h"

namespace ventus::jit {

// What the memory emitters need of the block function being emitted.
struct BlockValues {
  llvm::IRBuilder<>& b;
  llvm::Value* ctx;   // the sim::Exec*
  llvm::Value* warp;  // the sim::Warp*
  // Entry-block allocas, 64-byte aligned: 32 lane addresses (i32) and 32 host pointers.
  llvm::Value* lane_addresses;
  llvm::Value* lane_pointers;
  FieldShadows* shadows;
  // Quick: the per-thread accesses take only the one-page paths inline (less code to compile).
  Tier tier;
};

// Whether the emitters below have an inline form for the entry (its semantics being the
// plain ones is the caller's check, as for is_fp32_inlined): lb ... sw and the amo*.w rows, not
// prefixed.
bool is_scalar_access(const sim::CachedInsn& entry);
// The per-thread vector accesses vlb12.v ... vsw12.v (flat) and vlb.v ... vsw.v (private),
// on registers their semantics accept (v32 and up after a register extension; a prefix with
// more than that has semantics of its own).
bool is_thread_access(const sim::CachedInsn& entry);

// Emits the access at b's insert point; emit_call() emits the call of its semantics for the
// accesses the fast paths refuse. Leaves b after both.
void emit_scalar_access(const BlockValues& values, const sim::Insn& in,
                        const std::function<void()>& emit_call);
void emit_thread_access(const BlockValues& values, const sim::Insn& in,
                        const std::function<void()>& emit_call);

// A call of the noexcept host function at `address` (C++ bools passed and returned as
// zero-extended bytes).
llvm::CallInst* call_host(llvm::IRBuilder<>& b, uint64_t address, llvm::Type* result,
                          std::initializer_list<llvm::Value*> arguments);

}  // namespace ventus::jit
