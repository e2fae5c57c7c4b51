// The semantics of every instruction, one function per row of instructions.def.
// Each is defined exactly once, with VT_SEM(ID) { ... }, in a file of src/sim/semantics/
// grouped by kind (scalar.cpp, float.cpp, vector_int.cpp, ...). A row without a body fails
// to link, so the table and the simulator cannot drift apart.
// A family of rows is often defined by one macro that pastes the names (VT_SEM(ID##_VV) in
// vector_int.cpp defines VADD_VV for VADD), so grep does not find VT_SEM(VADD_VV): VT_SEM
// records where it is expanded, `ventus isa --semantics` prints each row's file and line,
// and docs/semantics-index.md (generated, kept current by a test) lists each row's file.
#pragma once

#include <string>

#include "warp.h"

namespace ventus::sim {

using SemanticsFn = void (*)(Exec& ctx, const Insn& in);

namespace sem {
#define VT_INSN(id, mn, match, mask, ops, cls, ...) void id(Exec& ctx, const Insn& in);
#include "ventus/instructions.def"
#undef VT_INSN
}  // namespace sem

// Indexed by isa::Op.
extern const SemanticsFn kSemantics[isa::kNumOps];

// The SIMT stack (docs/simulator.md, "SIMT stack"), as the semantics of the vector branches
// and join (semantics/control.cpp) run it; translated code pushes and pops it as IR by these
// rules (src/jit/translator.cpp, emit_split and emit_join; tests/jit/simt_stack_test.cpp
// compares the two) and calls split_warp where the stack has no room. split_warp: a vector branch
// at ctx.pc whose taken lanes are some but not all of the active ones pushes the reconvergence
// entry and the path that runs second, and sets the mask and ctx.next_pc to the path that runs
// first (it faults only where the stack has no room, which the warp's masks rule out: SimtStack).
// join_pops: join at pc pops the stack when its top belongs to pc, setting the mask and resume_pc
// to the top's; otherwise it changes nothing and returns false.
void split_warp(Exec& ctx, uint32_t taken, uint32_t target);
bool join_pops(Warp& w, uint32_t pc, uint32_t& resume_pc) noexcept;

// Where VT_SEM(ID) was expanded: __FILE__ as the compiler saw it, and the line of the
// VT_SEM or of the family macro's use.
struct SemanticsSource {
  const char* file;
  int line;
};
namespace sem_source {
#define VT_INSN(id, ...) extern const SemanticsSource id;
#include "ventus/instructions.def"
#undef VT_INSN
}  // namespace sem_source
// Indexed by isa::Op.
extern const SemanticsSource* const kSemanticsSources[isa::kNumOps];

// Instructions after a PREFIX / PREFIXI / PREFIX_MEMORY (docs/isa.md, "Prefixes"); the
// decode cache picks these instead of the row's semantics when the prefix asks for them.
// ABS/NEG on the sources: "" when they apply to the row, else why not.
std::string source_modifiers_problem(const isa::Decoded& in);
void with_source_modifiers(Exec& ctx, const Insn& in);  // the row's semantics on modified sources
// PREFIX_MEMORY: whether the row is a per-thread load/store it applies to, and those
// instructions with the prefix's space, width and address form.
bool is_thread_memory(isa::Op op);
void prefixed_thread_memory(Exec& ctx, const Insn& in);
// The 64-bit register-pair form of a row (Insn::pair set by a regpair/regpairi or PREFIX
// prefix), or nullptr when the row has none (semantics/pair.cpp).
SemanticsFn pair_semantics(isa::Op op);

// The translating tier's fast path of the per-thread accesses of `size` bytes (vlb12.v ...
// vsw12.v in the flat space; vlb.v ... vsw.v in private memory, private_space): the host
// memory of the access at lo when the active lanes' accesses [lo, hi + size) (device
// addresses: private ones interleaved) are aligned, lie in one mapped page and may skip the
// per-lane path as vector_load/vector_store's fast path does (no commit log; the memory
// checker covers them, never for private memory); nullptr otherwise (then the semantics
// run). Never throws.
uint8_t* thread_span(Exec& ctx, uint32_t lo, uint32_t hi, unsigned size, bool store,
                     bool private_space) noexcept;
// The same for accesses that lie in several pages: host[lane] = the host memory of the access
// at device address address[lane] for every active lane, when each is aligned in a mapped
// page of the space that the fast path may use (no commit log, no memory checker; the pages
// go through MemorySystem::whole_page); false otherwise.
bool thread_pointers(Exec& ctx, const uint32_t* address, uint32_t active, unsigned size, bool store,
                     bool private_space, uint8_t** host) noexcept;
// The translating tier's fast path of the scalar loads and stores (lb ... sw): the host
// memory of the `size` bytes at address (x[rs1] + imm) when the access is aligned, within
// the warp's stack where rs1 is sp, does not fault (MemorySystem::data_pointer), and neither
// the commit log nor the memory checker is on; nullptr otherwise (then the semantics run,
// and report any fault). Never throws.
uint8_t* scalar_data_span(Exec& ctx, uint32_t address, uint32_t rs1, uint32_t size,
                          bool store) noexcept;
// The warp field that CSR `number` reads as it is (a per-warp CSR), or nullptr for a CSR
// that is computed, constant or unknown. The translating tier inlines reads of these.
const uint32_t* csr_field(const Warp& w, uint32_t number) noexcept;
// The warp field that a write of CSR `number` sets to the value written, as it is (no bits
// masked off, nothing else done: mstatus, mtvec, ...), or nullptr. The translating tier
// inlines writes of these.
uint32_t* csr_written_field(Warp& w, uint32_t number) noexcept;

}  // namespace ventus::sim

// Defines the semantics of row ID: VT_SEM(ADD) { ctx.warp.write_x(in.rd, ...); }
#define VT_SEM(ID)                                                                              \
  constinit const ventus::sim::SemanticsSource ventus::sim::sem_source::ID{__FILE__, __LINE__}; \
  void ventus::sim::sem::ID([[maybe_unused]] Exec& ctx, [[maybe_unused]] const Insn& in)
