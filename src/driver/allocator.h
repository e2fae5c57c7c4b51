// The free address ranges of the buffer region [sim::kBufferBase, 4 GiB): which device
// addresses a new buffer may take. It knows nothing of device memory; driver::Context maps
// what it hands out. Ranges taken by a loaded program are reserved, so no buffer is ever
// placed over the program.
//
// Every operation is O(log n) in the number of free ranges: free ranges are kept twice, by
// address (to coalesce neighbours on release) and by (length, address) (to find the best
// fit). The choice is deterministic: the same sequence of calls gives the same addresses.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "ventus/device.h"

namespace ventus::driver {

class BufferAllocator {
 public:
  static constexpr uint64_t kRegionBegin = sim::kBufferBase;
  static constexpr uint64_t kRegionEnd = uint64_t{1} << 32;
  static constexpr uint64_t kRegionBytes = kRegionEnd - kRegionBegin;

  BufferAllocator();

  // Best fit: the lowest address of the shortest free range that holds `bytes` (a non-zero
  // multiple of sim::kPageSize); nullopt when no free range is long enough.
  std::optional<uint32_t> allocate(uint64_t bytes);
  // Returns [base, base + bytes), which allocate() handed out, to the free ranges.
  void release(uint32_t base, uint64_t bytes);

  // Takes the part of [begin, end) inside the region out of the free ranges (a loaded
  // program); the caller ensures that no allocated range overlaps it. unreserve() gives
  // such a range back.
  void reserve(uint64_t begin, uint64_t end);
  void unreserve(uint64_t begin, uint64_t end);

  uint64_t free_bytes() const { return free_bytes_; }
  uint64_t largest_free_range() const;

 private:
  void insert_free(uint64_t begin, uint64_t end);  // coalesces with its neighbours
  void erase_free(std::map<uint64_t, uint64_t>::iterator range);

  std::map<uint64_t, uint64_t> by_address_;            // begin -> end
  std::set<std::pair<uint64_t, uint64_t>> by_length_;  // (end - begin, begin)
  uint64_t free_bytes_ = 0;
};

}  // namespace ventus::driver
