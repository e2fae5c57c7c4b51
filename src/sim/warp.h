// The architectural state of one warp and the context an instruction's semantics run in.
// Every semantics function (src/sim/semantics/*.cpp, one VT_SEM body per table row) sees
// only this header, src/sim/semantics.h and the fp library.
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "ventus/isa.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace ventus::jit {
struct Block;  // a translated block (src/jit/translator.h)
}  // namespace ventus::jit

namespace ventus::sim {

inline constexpr unsigned kMaxLanes = 32;
inline constexpr unsigned kNumXRegs = 64;  // architectural scalar registers (regext: x32..x63)
inline constexpr unsigned kNumVRegs = isa::kNumVectorRegisters;  // regext: v32..v255

// Lane-mask helpers for the hot paths (the branches, v0.t masks and the thread-instruction
// count), written so that the baseline x86-64 build gets vector code and no library calls.
namespace lanes {

// Four lanes as host vector elements (GCC/Clang vector extensions); comparing two gives -1
// (true) or 0 per element.
using U32x4 = uint32_t __attribute__((vector_size(16)));
using I32x4 = int32_t __attribute__((vector_size(16)));

// Bit i of the result: element i of a comparison result is true.
inline uint32_t bits_of(I32x4 holds) {
#if defined(__SSE2__)
  return static_cast<uint32_t>(_mm_movemask_ps(_mm_castsi128_ps(reinterpret_cast<__m128i>(holds))));
#else
  return static_cast<uint32_t>((holds[0] & 1) | (holds[1] & 2) | (holds[2] & 4) | (holds[3] & 8));
#endif
}

// The lanes i (of all kMaxLanes) where holds(a[i..], b[i..]) is true, four lanes at a time:
// holds compares two U32x4 and returns the I32x4 of the comparison.
template <class Holds>
inline uint32_t where(const uint32_t* a, const uint32_t* b, Holds holds) {
  uint32_t bits = 0;
  for (unsigned q = 0; q < kMaxLanes / 4; ++q) {
    U32x4 x, y;
    std::memcpy(&x, a + 4 * q, sizeof x);
    std::memcpy(&y, b + 4 * q, sizeof y);
    bits |= bits_of(holds(x, y)) << (4 * q);
  }
  return bits;
}

// The number of lanes set in mask. std::popcount is a libgcc call where the build targets
// baseline x86-64 (no POPCNT instruction); this is the same count in a few inline operations.
inline uint32_t count(uint32_t mask) {
#if defined(__POPCNT__) || !defined(__x86_64__)
  return static_cast<uint32_t>(__builtin_popcount(mask));
#else
  mask = mask - ((mask >> 1) & 0x55555555u);
  mask = (mask & 0x33333333u) + ((mask >> 2) & 0x33333333u);
  mask = (mask + (mask >> 4)) & 0x0f0f0f0fu;
  return (mask * 0x01010101u) >> 24;
#endif
}

}  // namespace lanes

// One entry of the SIMT reconvergence stack (docs/simulator.md, ventus-facts.md).
struct SimtEntry {
  uint32_t rpc;        // the join address this entry belongs to
  uint32_t resume_pc;  // where the warp continues when the entry is popped
  uint32_t mask;       // the mask it continues with
};

// The SIMT stack, inline in the warp so that translated code pushes and pops it itself
// (src/jit/translator.cpp, emit_vbranch and emit_join); the rules are semantics/control.cpp's.
// A split pushes the mask before it and the path that runs second, and the warp's mask becomes
// the path that runs first: both paths are nonempty, so every mask on the stack and the warp's
// own is nonempty and, against each mask below it, a strict subset or disjoint. They are
// distinct members of a laminar family of sets of `lanes` lanes, of which there are at most
// 2 * lanes - 1: the depth never exceeds 2 * lanes - 2, which kCapacity holds for any warp
// (split_warp faults rather than write past it).
struct SimtStack {
  static constexpr uint32_t kCapacity = 2 * kMaxLanes;
  uint32_t depth = 0;
  SimtEntry entries[kCapacity];

  bool empty() const { return depth == 0; }
  uint32_t size() const { return depth; }
  const SimtEntry& top() const { return entries[depth - 1]; }
  void clear() { depth = 0; }
};

// AtHost: the warp wrote CSR_PRINT and waits until the host served the request (Device::run
// serves them between rounds).
enum class WarpStatus : uint8_t { Ready, AtBarrier, AtHost, Ended };

// An asynchronous copy into local memory (cp_dma, cp_dma_bulk, cp_dma_tensor) that waits for
// the warp's cp_dma_mbarrier: its source was read when it was issued, its destination is
// written when the mbarrier completes it (docs/simulator.md, "Asynchronous copies").
struct AsyncCopy {
  static constexpr uint8_t kWholeWarp = 0xff;
  uint8_t lane = kWholeWarp;   // the issuing thread (cp_dma), or kWholeWarp (bulk, tensor)
  uint8_t swizzle = 0;         // cp_dma_tensor's 16-byte-chunk XOR mask: 0, 1, 3 or 7
  uint32_t local_address = 0;  // destination in the LDS window (csr_lds + offset)
  std::vector<uint8_t> bytes;  // the data, in tile order before any swizzle
};

// The vtype fields the semantics need, decoded once by vsetvl*.
struct VectorConfig {
  uint32_t vtype = 0;  // raw vtype CSR value
  uint32_t vl = 0;     // active element count (lanes >= vl are inactive)
  uint32_t sew = 32;   // 8, 16 or 32
  uint32_t lmul = 1;   // 1 or 2 (register groups of one or two registers)
};

struct Warp {
  // Scalar side: executes once per warp. x[0] always reads 0 (writes are dropped by the
  // semantics through write_x).
  uint32_t pc = 0;
  uint32_t x[kNumXRegs] = {};
  // Vector side: v[reg][lane], 32-bit elements, one per thread. Elements narrower than
  // SEW=32 live in the low bits of the lane's word.
  alignas(64) uint32_t v[kNumVRegs][kMaxLanes] = {};

  uint32_t lanes = 32;     // threads per warp (wf_size), <= kMaxLanes
  uint32_t lane_mask = 0;  // (1 << lanes) - 1
  uint32_t mask = 0;       // the SIMT active mask: bit i = thread i runs
  SimtStack simt_stack;
  VectorConfig vcfg;

  // CSRs kept per warp. The Ventus CSRs 0x800-0x80a are set at dispatch.
  uint32_t frm = 0;      // fcsr[7:5]
  uint32_t fflags = 0;   // fcsr[4:0], accrued
  uint32_t vxrm = 0;     // fixed-point rounding mode
  uint32_t vxsat = 0;    // fixed-point saturation flag
  uint32_t rpc = 0;      // CSR_RPC (0x80c), set by setrpc
  uint32_t print = 0;    // CSR_PRINT (0x80b)
  uint32_t csr_gds = 0;  // CSR_GDS (0x80d): base of the explicit global space, set by kernels
  uint32_t csr_tid = 0, csr_numw = 0, csr_numt = 0, csr_knl = 0, csr_wgid = 0, csr_wid = 0,
           csr_lds = 0, csr_pds = 0, csr_gid[3] = {0, 0, 0};
  uint32_t mstatus = 0, mtvec = 0, mscratch = 0;  // plain storage, seen in compiled code

  // Issued asynchronous copies not yet completed by a cp_dma_mbarrier, in issue order.
  std::vector<AsyncCopy> async_copies;

  WarpStatus status = WarpStatus::Ready;
  // Its last turn ended inside a translated block (Sm::run_block): the next one resumes it at
  // entry resume_entry when the warp is still at that entry's pc. Set and read only while a
  // launch runs (its blocks stay valid).
  const jit::Block* resume_block = nullptr;
  uint32_t resume_entry = 0;
  // Its last turn ended where no block starts, interpreting the block that starts at
  // block_start: the next turn goes on there (in that block's translation if there is one
  // by then) instead of counting pc as a block start (Sm::run_warp).
  bool inside_block = false;
  uint32_t block_start = 0;
  uint32_t warp_in_group = 0;  // index of the warp in its workgroup
  // The start code's stack of this warp in local memory, [stack_base, stack_end)
  // (KernelLaunch::warp_stack_bytes); stack_end == 0: not checked.
  uint32_t stack_base = 0, stack_end = 0;

  // Atomic reservation (lr.w/sc.w), per lane for vector form, one for the scalar form.
  bool reservation_valid = false;
  uint32_t reservation_addr = 0;
  uint32_t reservation_value = 0;  // what lr.w loaded; sc.w stores only if the word still holds it

  // The v0.t mask as lane bits: bit 0 of every element of v0 (Ventus masks are per-element
  // 0/1 values), four lanes at a time.
  uint32_t v0_mask() const {
    const uint32_t m =
        lanes::where(v[0], v[0], [](lanes::U32x4 a, lanes::U32x4) { return (a & 1u) != 0u; });
    return m & lane_mask;
  }

  void write_x(unsigned r, uint32_t value) {
    if (r != 0) x[r] = value;
  }

  // 64-bit values on even-aligned scalar register pairs {x[r+1]:x[r]} (docs/isa.md, "RV64I /
  // RV64A on register pairs"). r is even (check_pair). The pair at x0 is the zero pair:
  // it reads 0 and writes to it are dropped, so x1 (ra) is never half of a value.
  uint64_t x_pair(unsigned r) const { return r == 0 ? 0 : (uint64_t{x[r + 1]} << 32) | x[r]; }
  void write_x_pair(unsigned r, uint64_t value) {
    if (r == 0) return;
    x[r] = static_cast<uint32_t>(value);
    x[r + 1] = static_cast<uint32_t>(value >> 32);
  }
};

// Raised by semantics for an architectural fault (illegal operand, bad address, ...). The
// simulator catches it and reports kernel, workgroup, warp, pc and instruction with it.
struct ExecFault : std::runtime_error {
  using std::runtime_error::runtime_error;
};
[[noreturn]] inline void fault(const std::string& why) {
  throw ExecFault(why);
}

inline constexpr unsigned kStackPointer = 2;  // sp (x2)

// An sp-relative scalar access of `size` bytes at `address` must stay in the warp's stack.
inline bool in_stack(const Warp& w, uint32_t address, unsigned size) {
  return w.stack_end == 0 || (address >= w.stack_base && uint64_t{address} + size <= w.stack_end);
}
void stack_overflow(const Warp& w, uint32_t address, unsigned size, bool store);  // faults
inline void check_stack(const Warp& w, uint32_t address, unsigned size, bool store) {
  if (!in_stack(w, address, size)) stack_overflow(w, address, size, store);
}

// A register pair operand must start at an even register: role is "rd", "rs1", "vs1", ...
// and prefix "x" or "v".
inline void check_pair(unsigned r, const char* role, const char* prefix,
                       std::string_view mnemonic) {
  if (r % 2 != 0)
    fault(std::string(mnemonic) + ": " + role + " " + prefix + std::to_string(r) +
          " is odd, but a 64-bit register pair starts at an even register");
}

// What an instruction asks of the scheduler after it executed.
enum class Flow : uint8_t {
  Next,     // continue at ctx.next_pc (pc + 4 unless the semantics changed it)
  Barrier,  // stop this warp at a workgroup barrier; next_pc is where it resumes
  End,      // endprg: the warp has ended
  Print,    // the warp wrote CSR_PRINT; the host drains the print buffer before it goes on
};

struct WorkgroupState;  // owned by the SM (src/sim/sm.h); opaque to ALU semantics
class MemorySystem;     // global + local + private address translation (src/sim/memsys.h)
struct PageCache;       // MemorySystem::whole_page's pages (src/sim/memsys.h)

// The execution context of one instruction.
struct Exec {
  Warp& warp;
  WorkgroupState* group = nullptr;
  MemorySystem* mem = nullptr;
  PageCache* pages = nullptr;  // &mem->page_cache where translated code runs (Sm::run_warp)
  uint32_t pc = 0;
  uint32_t next_pc = 0;  // pre-set to pc + 4
  Flow flow = Flow::Next;
  // Statistics the semantics report: vector branches that split the warp.
  uint32_t divergences = 0;

  // The lanes a vector instruction acts on: SIMT-active lanes below vl, and with vm == 0
  // also those whose v0 element has bit 0 set (Ventus masks are per-element 0/1 values).
  uint32_t active_lanes(uint8_t vm) const {
    uint32_t m = warp.mask & vl_mask();
    if (!vm) m &= warp.v0_mask();
    return m;
  }
  uint32_t vl_mask() const {
    return warp.vcfg.vl >= 32 ? 0xffffffffu : ((1u << warp.vcfg.vl) - 1u);
  }
  // The static rounding mode for an fp operation: the instruction's rm, or frm for DYN.
  uint32_t rounding_mode(uint8_t rm) const {
    const uint32_t r = rm == 7 ? warp.frm : rm;
    if (r > 4) fault("reserved floating-point rounding mode " + std::to_string(r));
    return r;
  }
};

// One decoded instruction as the interpreter keeps it (isa::Decoded is the source).
using Insn = isa::Decoded;

}  // namespace ventus::sim
