// Device memory: a sparse table of 4 KiB pages over the 32-bit address space. A mapped page
// shares one zero page until its first write (mapping the 256 MiB code allocation of the
// hardware cases costs nothing). Entries are atomic because SMs on several host threads may
// give a page its memory at the same time. Read-only ranges (the program's code) are kept as
// a short list plus one bit per page, so that a store checks one bit.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#include "ventus/device.h"
#include "ventus/error.h"

namespace ventus::sim {
namespace {
constexpr uint32_t kPages = uint32_t{1} << (32 - kPageShift);

// [first, last] page numbers covering [base, base + size); size > 0.
void page_range(uint32_t base, uint64_t size, uint32_t& first, uint32_t& last) {
  if (size == 0 || uint64_t{base} + size > (uint64_t{1} << 32))
    throw Error("device memory range at " + std::to_string(base) + " of " + std::to_string(size) +
                " bytes is empty or goes beyond the 32-bit address space");
  first = base >> kPageShift;
  last = static_cast<uint32_t>((uint64_t{base} + size - 1) >> kPageShift);
}

alignas(kPageSize) uint8_t g_zero_page[kPageSize];
}  // namespace

uint8_t* Memory::zero_page() {
  return g_zero_page;
}

uint8_t* Memory::materialize(uint32_t page_number) {
  // Page-aligned, so naturally aligned words are lock-free atomics.
  auto* fresh = static_cast<uint8_t*>(std::aligned_alloc(kPageSize, kPageSize));
  if (!fresh) throw std::bad_alloc();  // reported as "out of memory" where it happened
  std::memset(fresh, 0, kPageSize);
  uint8_t* expected = zero_page();
  if (pages_[page_number].compare_exchange_strong(expected, fresh, std::memory_order_acq_rel))
    return fresh;
  std::free(fresh);  // another thread was first
  return expected;
}

Memory::Memory()
    : pages_(new std::atomic<uint8_t*>[kPages]), read_only_pages_(new uint64_t[kPages / 64]()) {
  for (uint32_t i = 0; i < kPages; ++i) pages_[i].store(nullptr, std::memory_order_relaxed);
}

Memory::~Memory() {
  for (uint32_t i = 0; i < kPages; ++i) {
    uint8_t* p = pages_[i].load(std::memory_order_relaxed);
    if (p != zero_page()) std::free(p);
  }
}

void Memory::map(uint32_t base, uint64_t size) {
  uint32_t first, last;
  page_range(base, size, first, last);
  for (uint32_t p = first; p <= last; ++p)
    if (!pages_[p].load(std::memory_order_relaxed))
      pages_[p].store(zero_page(), std::memory_order_release);
}

void Memory::unmap(uint32_t base, uint64_t size) {
  uint32_t first, last;
  page_range(base, size, first, last);
  // Between launches, as map: nothing else changes the table now, so plain loads and stores
  // do what an exchange per page did at a locked instruction's cost (a launch's 1 MiB print
  // buffer is 256 pages).
  for (uint32_t p = first; p <= last; ++p) {
    uint8_t* old = pages_[p].load(std::memory_order_relaxed);
    if (!old) continue;
    pages_[p].store(nullptr, std::memory_order_relaxed);
    if (old != zero_page()) std::free(old);
  }
  forget_read_only(first, last);
}

void Memory::protect(uint32_t base, uint64_t size, std::string name) {
  uint32_t first, last;
  page_range(base, size, first, last);
  read_only_.push_back({base, uint64_t{base} + size, std::move(name)});
  for (uint32_t p = first; p <= last; ++p) read_only_pages_[p >> 6] |= uint64_t{1} << (p & 63);
  read_only_generation_.fetch_add(1, std::memory_order_acq_rel);
}

void Memory::forget_read_only(uint32_t first_page, uint32_t last_page) {
  const uint64_t begin = uint64_t{first_page} << kPageShift, end = (uint64_t{last_page} + 1)
                                                                   << kPageShift;
  const auto unmapped = [&](const ReadOnlyRange& r) { return r.base < end && r.end > begin; };
  if (std::none_of(read_only_.begin(), read_only_.end(), unmapped)) return;
  std::erase_if(read_only_, unmapped);
  read_only_generation_.fetch_add(1, std::memory_order_acq_rel);
  // Recompute the page bits of what is left.
  std::fill_n(read_only_pages_.get(), kPages / 64, 0);
  for (const ReadOnlyRange& r : read_only_)
    for (uint64_t p = r.base >> kPageShift; p <= (r.end - 1) >> kPageShift; ++p)
      read_only_pages_[p >> 6] |= uint64_t{1} << (p & 63);
}

bool Memory::is_read_only(uint32_t addr, uint64_t size) const {
  // Ranges may be adjacent (.text then .rodata): walk from range to range.
  uint64_t covered = addr;
  const uint64_t end = uint64_t{addr} + size;
  while (covered < end) {
    const auto holds = [covered](const ReadOnlyRange& r) {
      return r.base <= covered && covered < r.end;
    };
    const auto it = std::find_if(read_only_.begin(), read_only_.end(), holds);
    if (it == read_only_.end()) return false;
    covered = it->end;
  }
  return true;
}

const Memory::ReadOnlyRange* Memory::read_only_range(uint32_t addr, uint64_t size) const {
  const uint64_t end = uint64_t{addr} + size;
  for (const ReadOnlyRange& r : read_only_)
    if (r.base < end && r.end > addr) return &r;
  return nullptr;
}

bool Memory::is_mapped(uint32_t addr, uint64_t size) const {
  if (size == 0) return true;
  if (uint64_t{addr} + size > (uint64_t{1} << 32)) return false;
  const uint32_t last = static_cast<uint32_t>((uint64_t{addr} + size - 1) >> kPageShift);
  for (uint32_t p = addr >> kPageShift; p <= last; ++p)
    if (!pages_[p].load(std::memory_order_relaxed)) return false;
  return true;
}

bool Memory::write(uint32_t addr, const void* src, uint64_t size) {
  if (!is_mapped(addr, size)) return false;
  if (size == 0) return true;
  // Only a write into read-only memory (code, constants) can change decoded code that
  // the decode caches keep; buffers (arguments, KNL words, data) are not code.
  for (uint64_t p = addr >> kPageShift; p <= (uint64_t{addr} + size - 1) >> kPageShift; ++p)
    if (page_has_read_only(static_cast<uint32_t>(p << kPageShift))) {
      read_only_generation_.fetch_add(1, std::memory_order_acq_rel);
      break;
    }
  const auto* from = static_cast<const uint8_t*>(src);
  uint64_t done = 0;
  while (done < size) {
    const uint32_t a = static_cast<uint32_t>(addr + done);
    const uint64_t chunk = std::min<uint64_t>(size - done, kPageSize - (a & (kPageSize - 1)));
    std::memcpy(writable_page(a) + (a & (kPageSize - 1)), from + done, chunk);
    done += chunk;
  }
  return true;
}

bool Memory::read(uint32_t addr, void* dst, uint64_t size) const {
  if (!is_mapped(addr, size)) return false;
  auto* to = static_cast<uint8_t*>(dst);
  uint64_t done = 0;
  while (done < size) {
    const uint32_t a = static_cast<uint32_t>(addr + done);
    const uint64_t chunk = std::min<uint64_t>(size - done, kPageSize - (a & (kPageSize - 1)));
    std::memcpy(to + done, page(a) + (a & (kPageSize - 1)), chunk);
    done += chunk;
  }
  return true;
}

uint64_t Memory::mapped_bytes() const {
  uint64_t n = 0;
  for (uint32_t p = 0; p < kPages; ++p)
    n += pages_[p].load(std::memory_order_relaxed) ? kPageSize : 0;
  return n;
}

}  // namespace ventus::sim
