// The dispatch table: row i of instructions.def runs sem::<ID of row i>.
#include "semantics.h"

namespace ventus::sim {

const SemanticsFn kSemantics[isa::kNumOps] = {
#define VT_INSN(id, mn, match, mask, ops, cls, ...) &sem::id,
#include "ventus/instructions.def"
#undef VT_INSN
};

const SemanticsSource* const kSemanticsSources[isa::kNumOps] = {
#define VT_INSN(id, ...) &sem_source::id,
#include "ventus/instructions.def"
#undef VT_INSN
};

}  // namespace ventus::sim
