// Assembly text of an allocated MFunction: frame, prologue/epilogue, pseudo expansions.
#pragma once

#include <string>
#include <vector>

#include "mir.h"

namespace ventus::cc::backend {

struct FunctionSummary {
  uint32_t scalar_frame = 0;   // bytes of local memory (sp) per warp
  uint32_t private_frame = 0;  // bytes of private memory (tp) per thread
  uint32_t sgpr = 0, vgpr = 0;  // registers used (highest index + 1)
  std::vector<std::string> callees;
  bool uses_printf = false;
  // The end of the module's __local data this function addresses itself (not its callees).
  uint32_t local_data_end = 0;
};

// Appends the function's assembly to `out`.
FunctionSummary emit_function(const MFunction& function, std::string& out);

}  // namespace ventus::cc::backend
