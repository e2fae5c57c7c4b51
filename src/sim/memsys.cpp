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

void MemorySystem::outside_window(const char* space, uint32_t a, uint32_t address, bool store) {
  const bool global = space[0] == 'g';
  fault(fmt::format("{} {} address {:#010x}: device address {:#010x} (= address + csr_{}) is "
                    "outside the {} window [{:#010x}, {:#010x}]",
                    access_kind(store), space, a, address, global ? "gds" : "lds", space,
                    global ? kGdsBase : kLdsBase, global ? kGdsLimit : kLdsLimit));
}

void MemorySystem::no_space(uint32_t a, bool store) {
  fault(fmt::format("{} flat address {:#010x}, which is in no address space (global [{:#010x}, "
                    "{:#010x}], local [{:#010x}, {:#010x}], private [0, {:#010x}])",
                    access_kind(store), a, kGdsBase, kGdsLimit, kLdsBase, kLdsLimit,
                    kPrivateLimit));
}

void MemorySystem::beyond_32_bits(uint64_t address, bool store) {
  fault(fmt::format("{} 64-bit address {:#018x}: its high word {:#010x} is not zero, and the "
                    "device address space is 32 bits",
                    access_kind(store), address, static_cast<uint32_t>(address >> 32)));
}

}  // namespace ventus::sim
