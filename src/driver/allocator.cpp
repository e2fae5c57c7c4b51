// The buffer region's free ranges (allocator.h).
#include "allocator.h"

#include <algorithm>

namespace ventus::driver {

BufferAllocator::BufferAllocator() {
  insert_free(kRegionBegin, kRegionEnd);
}

std::optional<uint32_t> BufferAllocator::allocate(uint64_t bytes) {
  const auto fit = by_length_.lower_bound({bytes, 0});
  if (fit == by_length_.end()) return std::nullopt;
  const auto [length, begin] = *fit;
  erase_free(by_address_.find(begin));
  if (length > bytes) insert_free(begin + bytes, begin + length);
  return static_cast<uint32_t>(begin);
}

void BufferAllocator::release(uint32_t base, uint64_t bytes) {
  insert_free(base, uint64_t{base} + bytes);
}

void BufferAllocator::reserve(uint64_t begin, uint64_t end) {
  begin = std::max(begin, kRegionBegin);
  end = std::min(end, kRegionEnd);
  while (begin < end) {
    // The first free range that ends after begin, if it starts before end.
    auto range = by_address_.upper_bound(begin);
    if (range != by_address_.begin() && std::prev(range)->second > begin) --range;
    if (range == by_address_.end() || range->first >= end) return;
    const uint64_t range_begin = range->first, range_end = range->second;
    erase_free(range);
    if (range_begin < begin) insert_free(range_begin, begin);
    if (range_end > end) insert_free(end, range_end);
  }
}

void BufferAllocator::unreserve(uint64_t begin, uint64_t end) {
  insert_free(std::max(begin, kRegionBegin), std::min(end, kRegionEnd));
}

uint64_t BufferAllocator::largest_free_range() const {
  return by_length_.empty() ? 0 : by_length_.rbegin()->first;
}

void BufferAllocator::insert_free(uint64_t begin, uint64_t end) {
  if (begin >= end) return;
  auto next = by_address_.lower_bound(begin);
  if (next != by_address_.end() && next->first == end) {
    end = next->second;
    erase_free(next);
  }
  auto next_after = by_address_.lower_bound(begin);
  if (next_after != by_address_.begin()) {
    const auto previous = std::prev(next_after);
    if (previous->second == begin) {
      begin = previous->first;
      erase_free(previous);
    }
  }
  by_address_.emplace(begin, end);
  by_length_.emplace(end - begin, begin);
  free_bytes_ += end - begin;
}

void BufferAllocator::erase_free(std::map<uint64_t, uint64_t>::iterator range) {
  by_length_.erase({range->second - range->first, range->first});
  free_bytes_ -= range->second - range->first;
  by_address_.erase(range);
}

}  // namespace ventus::driver
