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
  fault(
      fmt::format("{} flat address {:#010x}, which is in no address space (global [{:#010x}, "
                  "{:#010x}], local [{:#010x}, {:#010x}])",
                  access_kind(store), a, kGdsBase, kGdsLimit, kLdsBase, kLdsLimit));
}

void stack_overflow(const Warp& w, uint32_t address, unsigned size, bool store) {
  const uint32_t bytes = w.stack_end - w.stack_base;
  fault(
      fmt::format("stack {}: sp-relative {}-byte {} address {:#010x} is outside warp {}'s "
                  "stack [{:#010x}, {:#010x}) ({} bytes from CSR_LDS + {} * warp, growing "
                  "upwards)",
                  address < w.stack_base ? "underflow" : "overflow", size, access_kind(store),
                  address, w.warp_in_group, w.stack_base, w.stack_end, bytes, bytes));
}

void MemorySystem::null_pointer(uint32_t address, bool store) {
  fault(
      fmt::format("{} through a null or small pointer: address {:#010x} is below {:#010x}, "
                  "where global, local and flat accesses fault (private memory is reached "
                  "only through the private-memory instructions, vlw.v and the _private "
                  "series)",
                  store ? "store" : "load", address, kNullWindowEnd));
}

void MemorySystem::check_writable(uint32_t address, uint32_t size) const {
  const Memory::ReadOnlyRange* r = global_.read_only_range(address, size);
  if (!r) return;
  fault(
      fmt::format("store to address {:#010x} in the loaded program's read-only section {} "
                  "[{:#010x}, {:#010x}): kernels may not write the program's code or "
                  "read-only data",
                  address, r->name, r->base, r->end));
}

void MemorySystem::beyond_32_bits(uint64_t address, bool store) {
  fault(fmt::format("{} 64-bit address {:#018x}: its high word {:#010x} is not zero, and the "
                    "device address space is 32 bits",
                    access_kind(store), address, static_cast<uint32_t>(address >> 32)));
}

}  // namespace ventus::sim
