// Address translation of one SM: global memory (device Memory), the SM's local memory
// behind the LDS window and per-thread private memory. Semantics ask it for a host pointer
// to the bytes an access touches; it faults (ExecFault) for unmapped, out-of-range and
// misaligned accesses. docs/simulator.md describes the memory map.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

#include "memcheck.h"
#include "ventus/device.h"
#include "warp.h"

namespace ventus::sim {

// One memory access as the commit log shows it.
struct MemAccess {
  uint32_t address;  // the address the instruction computed (before private interleaving)
  uint32_t device;   // the device address it touched (private interleaved, gds/lds added)
  uint32_t value;    // loaded or stored value (zero-extended)
  uint8_t lane;      // 0xff: a scalar access
  uint8_t size;      // bytes
  bool store;
};

inline constexpr uint32_t kLdsWindowEnd = kCodeBase;  // [0x70000000, 0x80000000) is local

// The address windows of the guide's flat range check (docs/simulator.md, "Address
// spaces"), readable as the CSRs gds_base/gds_limit/lds_base/lds_limit. Global is
// everything from the code base up (code, data and buffers), local is the LDS window.
// Limits are inclusive. The guide's third window, private (a[31:24] == 0), is the null
// window here: a flat access there faults, so that a null or small global pointer never
// reaches a thread's private memory.
inline constexpr uint32_t kGdsBase = kCodeBase;
inline constexpr uint32_t kGdsLimit = 0xffffffffu;
inline constexpr uint32_t kLdsBase = kLdsWindowBase;
inline constexpr uint32_t kLdsLimit = kLdsWindowEnd - 1;

inline constexpr bool in_global_window(uint32_t a) {
  return a >= kGdsBase && a <= kGdsLimit;
}
inline constexpr bool in_local_window(uint32_t a) {
  return a >= kLdsBase && a <= kLdsLimit;
}
inline constexpr bool in_null_window(uint32_t a) {
  return a < kNullWindowEnd;
}

// The local memory of one SM: the whole LDS window, as lazily allocated zeroed pages.
// DeviceConfig::lds_bytes_per_sm limits how many workgroups an SM holds, not which window
// addresses work: the public start code variants space warp stacks 1 KiB or 1 MiB apart.
// The workgroups of one SM may run on different host threads (docs/simulator.md, "Host
// threads"), so a page is published atomically once, under a lock.
class LocalMemory {
 public:
  static constexpr uint32_t kPages = (kLdsWindowEnd - kLdsWindowBase) / kPageSize;
  LocalMemory() : pages_(std::make_unique<std::atomic<uint8_t*>[]>(kPages)) {}
  LocalMemory(const LocalMemory&) = delete;
  LocalMemory& operator=(const LocalMemory&) = delete;
  ~LocalMemory() { clear(); }
  uint8_t* at(uint32_t offset) {
    uint8_t* page = pages_[offset >> kPageShift].load(std::memory_order_acquire);
    if (!page) [[unlikely]]
      page = allocate(offset >> kPageShift);
    return page + (offset & (kPageSize - 1));
  }
  // Back to all zeros (at the start of a launch, with no host thread running it).
  void clear() {
    for (uint32_t p : touched_) delete[] pages_[p].exchange(nullptr, std::memory_order_relaxed);
    touched_.clear();
  }

 private:
  uint8_t* allocate(uint32_t page) {
    std::lock_guard lock(mutex_);
    uint8_t* existing = pages_[page].load(std::memory_order_relaxed);
    if (existing) return existing;
    touched_.reserve(touched_.size() + 1);      // before the page: nothing leaks if it throws
    uint8_t* fresh = new uint8_t[kPageSize]();  // zeroed
    touched_.push_back(page);
    pages_[page].store(fresh, std::memory_order_release);
    return fresh;
  }

  std::unique_ptr<std::atomic<uint8_t*>[]> pages_;
  std::vector<uint32_t> touched_;
  std::mutex mutex_;
};

// The host memory of whole pages that the translating tier's fast paths (scalar_data_span,
// thread_pointers, and the inline scalar accesses that look here first) found open to every
// aligned access of their kind: MemorySystem::whole_page. Direct-mapped by page number, one
// table for loads and one for stores. A load's entry is never the shared zero page (the
// first store gives the page its own memory). Pages are mapped, protected and unmapped, and
// local memory freed, only between launches, so each SM empties its cache at the start of
// a launch (Sm::start); nothing is cached while the commit log or the memory checker is on.
struct PageCache {
  // spmv's vector (64 pages) with the pages of the rows streaming past it, and tiles.
  static constexpr uint32_t kEntries = 256;
  static constexpr uint32_t kNoPage = ~0u;  // no page number is this large
  // Where an address is looked up: by its page number (address >> kPageShift) modulo
  // kEntries in load and store, by its word (address >> kStoreShift) modulo kStores in
  // stores. Translated code looks them up inline with these (src/jit/emit_memory.cpp).
  static constexpr unsigned kStoreShift = 2;
  struct Entry {
    uint32_t page = kNoPage;  // device address >> kPageShift
    uint8_t* host = nullptr;  // the page's first byte
  };
  Entry load[kEntries];
  Entry store[kEntries];
  // Scalar stores that MemorySystem::data_pointer accepted where no whole page is open to
  // them (a page that also holds read-only data: ventus cc's .data beside .text, which the
  // start code writes in every warp), by address: until the launch ends, the same store is
  // accepted again at the same host address (scalar_data_span).
  struct Store {
    uint32_t address = kNoPage;
    uint32_t size = 0;  // no store has size 0: an entry never used matches nothing
    uint8_t* host = nullptr;
  };
  static constexpr uint32_t kStores = 16;
  Store stores[kStores];
  // Memory::page_table while neither the commit log nor the memory checker is on, else null
  // (Sm::start): a load lane in the global window whose page is there (the shared zero page
  // included) is open to every aligned load, so translated gathers over many pages (spmv's
  // vector beside the rows streaming past, which evict each other here) look their pages up
  // there instead.
  const std::atomic<uint8_t*>* global_pages = nullptr;
  Entry& entry(uint32_t address, bool for_store) {
    return (for_store ? store : load)[(address >> kPageShift) % kEntries];
  }
  Store& known_store(uint32_t address) { return stores[(address >> kStoreShift) % kStores]; }
  void clear() { *this = PageCache{}; }
};

class MemorySystem {
 public:
  static constexpr uint8_t kScalarLane = 0xff;

  MemorySystem(Memory& global, LocalMemory& local) : global_(global), local_(local) {}

  // Scalar and RVV accesses: the LDS window or global memory (never the null window). lane:
  // the thread of a vector access, for the memory checker.
  uint8_t* data_pointer(uint32_t address, unsigned size, bool store,
                        unsigned lane = kScalarLane) const {
    if (in_null_window(address)) null_pointer(address, store);
    check_alignment(address, size, store);
    check(address, size, store, lane);
    if (address >= kLdsWindowBase && address < kLdsWindowEnd)
      return local_.at(address - kLdsWindowBase);
    uint8_t* page = page_for(address, size, store);
    if (!page) unmapped(address, store);
    return page + (address & (kPageSize - 1));
  }

  // Private memory of thread `lane` of warp w at private address a (the guide's formula).
  uint8_t* private_pointer(const Warp& w, unsigned lane, uint32_t a, unsigned size,
                           bool store) const {
    check_alignment(a, size, store);
    if (memcheck) [[unlikely]]
      memcheck->private_access(*exec, a, size, store, lane);
    const uint32_t physical = w.csr_pds + (a & ~3u) * w.lanes + (a & 3u) + 4u * lane;
    uint8_t* page = page_for(physical, size, store);
    if (!page) unmapped_private(a, physical, store);
    return page + (physical & (kPageSize - 1));
  }

  // The global space of thread `lane`: device address a + csr_gds, which must lie in the
  // global window (32-bit address arithmetic, as the hardware's adder).
  uint8_t* global_pointer(const Warp& w, unsigned lane, uint32_t a, unsigned size,
                          bool store) const {
    const uint32_t address = a + w.csr_gds;
    if (!in_global_window(address)) outside_window("global", a, address, store);
    return global_memory(address, size, store, lane);
  }

  // The local space: window address a + csr_lds, which must lie in the LDS window.
  uint8_t* local_pointer(const Warp& w, unsigned lane, uint32_t a, unsigned size,
                         bool store) const {
    const uint32_t address = a + w.csr_lds;
    if (!in_local_window(address)) outside_window("local", a, address, store);
    check_alignment(address, size, store);
    check(address, size, store, lane);
    return local_.at(address - kLdsBase);
  }

  // Flat addressing (the "12" and "12D" series): the guide's range check on the effective
  // address picks the space; global and local addresses are used as they are. The null
  // window and an address in no window fault.
  uint8_t* flat_pointer(uint32_t a, unsigned size, bool store, unsigned lane = kScalarLane) const {
    if (in_global_window(a)) return global_memory(a, size, store, lane);
    if (in_local_window(a)) {
      check_alignment(a, size, store);
      check(a, size, store, lane);
      return local_.at(a - kLdsBase);
    }
    if (in_null_window(a)) null_pointer(a, store);
    no_space(a, store);
  }

  // A 64-bit address (register pair {hi:lo} plus offset) as a device address. The device's
  // physical address space is 32 bits (Memory is a 4 GiB space), so a non-zero high word
  // is a fault.
  static uint32_t device_address(uint64_t address, bool store) {
    if ((address >> 32) != 0) beyond_32_bits(address, store);
    return static_cast<uint32_t>(address);
  }

  // Fast path of vector accesses: a pointer to `first` when [first, last] lies in one
  // page of local or (for global_only, of global) memory that is mapped; nullptr otherwise
  // (the caller then goes lane by lane, which also produces the fault message).
  uint8_t* page_span(uint32_t first, uint32_t last, bool store, bool global_only) const {
    if ((first >> kPageShift) != (last >> kPageShift)) return nullptr;
    if (first >= kLdsWindowBase && first < kLdsWindowEnd)
      return global_only ? nullptr : local_.at(first - kLdsWindowBase);
    // The null window and read-only ranges go lane by lane, which names the lane that faults.
    if (in_null_window(first) || (store && global_.page_has_read_only(first))) return nullptr;
    uint8_t* page = page_for(first, last - first + 1, store);
    return page ? page + (first & (kPageSize - 1)) : nullptr;
  }

  // The host memory of the page of `address`, when page_span would give it for the whole
  // page (so for every aligned access in it); global_only: not in the LDS window. Looked up
  // in and added to page_cache. Only for callers that checked that neither the commit log
  // nor the memory checker is on.
  uint8_t* whole_page(uint32_t address, bool store, bool global_only) {
    if (global_only && address >= kLdsWindowBase && address < kLdsWindowEnd) return nullptr;
    PageCache::Entry& cached = page_cache.entry(address, store);
    if (cached.page == address >> kPageShift) return cached.host;
    uint8_t* host =
        page_span(address & ~(kPageSize - 1), address | (kPageSize - 1), store, global_only);
    if (host && (store || !global_.is_zero_page(host))) cached = {address >> kPageShift, host};
    return host;
  }

  void record(uint32_t address, uint32_t value, uint8_t lane, uint8_t size, bool store) const {
    if (log) log->push_back({address, address, value, lane, size, store});
  }
  void record(uint32_t address, uint32_t device, uint32_t value, uint8_t lane, uint8_t size,
              bool store) const {
    if (log) log->push_back({address, device, value, lane, size, store});
  }

  // An access of `bytes` bytes from `address` (local or global memory) that no translation
  // above checks whole (the asynchronous copies' ranges), for the memory checker.
  void check_range(uint32_t address, uint64_t bytes, bool store) const {
    check(address, bytes, store, kScalarLane);
  }

  // The accesses of the current instruction, or nullptr: the commit log (--trace) and the
  // cycle model's load/store unit read them.
  std::vector<MemAccess>* log = nullptr;

  // The memory checker of the launch (RunOptions::memcheck), or nullptr: off. While it is
  // on, exec is the instruction executing (whose warp and pc a report names).
  Memchecker* memcheck = nullptr;
  const Exec* exec = nullptr;

  // whole_page's pages (Exec::pages points here: translated code reads it).
  PageCache page_cache;

 private:
  // Loads may read the shared zero page of a mapped page nothing wrote yet; stores need the
  // page's own memory and must not touch a read-only range ([address, address + size) lies
  // in one page). The result is only written through when store is set.
  uint8_t* page_for(uint32_t address, uint32_t size, bool store) const {
    if (!store) return const_cast<uint8_t*>(global_.page(address));
    if (global_.page_has_read_only(address)) check_writable(address, size);
    return global_.writable_page(address);
  }
  uint8_t* global_memory(uint32_t address, unsigned size, bool store, unsigned lane) const {
    check_alignment(address, size, store);
    check(address, size, store, lane);
    uint8_t* page = page_for(address, size, store);
    if (!page) unmapped(address, store);
    return page + (address & (kPageSize - 1));
  }
  static void check_alignment(uint32_t address, unsigned size, bool store);
  void check(uint32_t address, uint64_t size, bool store, unsigned lane) const {
    if (memcheck) [[unlikely]]
      memcheck->data(*exec, address, size, store, lane);
  }
  void check_writable(uint32_t address, uint32_t size) const;
  [[noreturn]] static void null_pointer(uint32_t address, bool store);
  [[noreturn]] static void misaligned(uint32_t address, unsigned size, bool store);
  [[noreturn]] static void unmapped(uint32_t address, bool store);
  [[noreturn]] static void unmapped_private(uint32_t a, uint32_t physical, bool store);
  [[noreturn]] static void outside_window(const char* space, uint32_t a, uint32_t address,
                                          bool store);
  [[noreturn]] static void no_space(uint32_t a, bool store);
  [[noreturn]] static void beyond_32_bits(uint64_t address, bool store);

  Memory& global_;
  LocalMemory& local_;
};

inline void MemorySystem::check_alignment(uint32_t address, unsigned size, bool store) {
  if ((address & (size - 1)) != 0) misaligned(address, size, store);
}

// Little-endian loads and stores of 1, 2 or 4 bytes (the host is little-endian).
inline uint32_t load_bytes(const uint8_t* p, unsigned size) {
  switch (size) {
    case 1: return *p;
    case 2: {
      uint16_t v;
      std::memcpy(&v, p, 2);
      return v;
    }
    default: {
      uint32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
  }
}
inline void store_bytes(uint8_t* p, uint32_t value, unsigned size) {
  switch (size) {  // fixed sizes, so that each memcpy is one move
    case 1: *p = static_cast<uint8_t>(value); break;
    case 2: {
      const uint16_t v = static_cast<uint16_t>(value);
      std::memcpy(p, &v, 2);
      break;
    }
    default: std::memcpy(p, &value, 4);
  }
}

// Sign-extends the low `size` bytes.
inline uint32_t sign_extend(uint32_t v, unsigned size) {
  const unsigned shift = 32 - 8 * size;
  return static_cast<uint32_t>(static_cast<int32_t>(v << shift) >> shift);
}

}  // namespace ventus::sim
