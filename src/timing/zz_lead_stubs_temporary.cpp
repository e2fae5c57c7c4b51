// TEMPORARY (lead): replaced by t14-config's report.cpp.
#include "ventus/timing.h"
namespace ventus::timing {
std::string_view name(Stall s) {
  static const char* n[] = {"issued",        "not_selected", "fetch",         "icache_miss",
                            "empty_ibuffer", "scoreboard",   "bank_conflict", "collector",
                            "unit_busy",     "memory",       "barrier",       "branch_redirect",
                            "dispatch",      "ended",        "idle"};
  return n[static_cast<size_t>(s)];
}
std::string_view name(Unit u) {
  static const char* n[] = {"scalar_alu", "vector_alu", "multiply", "fpu",
                            "sfu",        "lsu",        "csr",      "tensor"};
  return n[static_cast<size_t>(u)];
}
}  // namespace ventus::timing
