// The fault paths of address translation (kept out of line: they are cold).
#include "memsys.h"

#include <fmt/format.h>

namespace ventus::sim {
namespace {
const char* access_kind(bool store) {
  return store ? "store to" : "load from";
}
}  // namespace

void MemorySystem::misaligned(uint32_t address, unsigned size, bool store) {
  fault(fmt::format("misaligned {}-byte {} address {:#010x}", size, access_kind(store), address));
}

void MemorySystem::unmapped(uint32_t address, bool store) {
  fault(fmt::format("{} unmapped address {:#010x}", access_kind(store), address));
}

void MemorySystem::unmapped_private(uint32_t a, uint32_t physical, bool store) {
  fault(
      fmt::format("{} private address {:#010x} (device address {:#010x}, not mapped: is the "
                  "private-memory buffer allocated?)",
                  access_kind(store), a, physical));
}

}  // namespace ventus::sim
