// The vtype values Ventus supports and the fields they set (semantics/config.cpp, which
// faults on any other; the translating tier inlines vsetvli/vsetivli of these).
#pragma once

#include <cstdint>

#include "ventus/isa.h"

namespace ventus::sim {

// SEW 8, 16 or 32 and LMUL 1 or 2 (the guide), no bit above vma.
constexpr bool is_supported_vtype(uint32_t vtype) {
  const uint32_t vlmul = vtype & 7, vsew = (vtype >> 3) & 7;
  return vsew <= 2 && (1u << vlmul) <= isa::kMaxLmul && (vtype >> 8) == 0;
}
constexpr uint32_t sew_of(uint32_t vtype) {
  return 8u << ((vtype >> 3) & 7);
}
constexpr uint32_t lmul_of(uint32_t vtype) {
  return 1u << (vtype & 7);
}

}  // namespace ventus::sim
