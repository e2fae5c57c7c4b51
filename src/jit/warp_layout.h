// Where translated code finds a warp's state: byte offsets of the sim::Warp fields that the
// inline IR of the translator, the fp32 rows (emit_fp32.cpp) and the memory accesses
// (emit_memory.cpp) load and store.
#pragma once

#include <cstdint>

#include "warp.h"

namespace ventus::jit {

struct WarpLayout {
  uint64_t x, v, lanes, mask, lane_mask, vtype, vl, sew, lmul, rpc, csr_pds, frm, fflags,
      stack_base, stack_end;
  uint64_t simt_depth, simt_entries;  // SimtStack::depth and entries[0]
};
const WarpLayout& warp_layout();

// The byte offset in sim::Warp of `field`, a field of `warp`.
inline uint64_t offset_in(const sim::Warp& warp, const void* field) {
  return static_cast<uint64_t>(static_cast<const char*>(field) -
                               reinterpret_cast<const char*>(&warp));
}

}  // namespace ventus::jit
