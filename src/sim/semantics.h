// The semantics of every instruction, one function per row of instructions.def.
// Each is defined exactly once, with VT_SEM(ID) { ... }, in a file of src/sim/semantics/
// grouped by kind (scalar.cpp, float.cpp, vector_int.cpp, ...). A row without a body fails
// to link, so the table and the simulator cannot drift apart.
#pragma once

#include "warp.h"

namespace ventus::sim {

using SemanticsFn = void (*)(Exec& ctx, const Insn& in);

namespace sem {
#define VT_INSN(id, mn, match, mask, ops, cls) void id(Exec& ctx, const Insn& in);
#include "ventus/instructions.def"
#undef VT_INSN
}  // namespace sem

// Indexed by isa::Op.
extern const SemanticsFn kSemantics[isa::kNumOps];

// The 64-bit register-pair form of a row (Insn::pair set by a regpair/regpairi or PREFIX
// prefix), or nullptr when the row has none (semantics/pair.cpp).
SemanticsFn pair_semantics(isa::Op op);

}  // namespace ventus::sim

// Defines the semantics of row ID: VT_SEM(ADD) { ctx.warp.write_x(in.rd, ...); }
#define VT_SEM(ID) void ventus::sim::sem::ID([[maybe_unused]] Exec& ctx, [[maybe_unused]] const Insn& in)
