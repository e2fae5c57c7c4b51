// The host threads of a device (docs/simulator.md, "Host threads"): started when a launch
// first needs them, kept from launch to launch, joined when the pool is destroyed.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <new>
#include <thread>
#include <vector>

namespace ventus::sim {

// Data written by one host thread and read by others in a loop gets a cache line of its own.
// A constant rather than std::hardware_destructive_interference_size, whose value may differ
// between compilers and so is not meant for a library's layout.
constexpr size_t kCacheLine = 64;

// Allocates blocks that start at a cache line and fill whole lines. The state of a workgroup
// slot that changes as it places and retires workgroups (its lists of warps and workgroups,
// WorkgroupState) lives in such blocks, so that it shares no cache line with another slot's,
// which another host thread may be changing at the same time: heap blocks of a few dozen
// bytes, allocated by whichever thread ran a slot first, otherwise lie side by side.
template <class T>
struct LineAllocator {
  using value_type = T;
  LineAllocator() = default;
  template <class U>
  LineAllocator(const LineAllocator<U>&) {}  // NOLINT: rebinding, as std::allocator does
  T* allocate(size_t n) {
    const size_t bytes = (n * sizeof(T) + kCacheLine - 1) / kCacheLine * kCacheLine;
    return static_cast<T*>(::operator new(bytes, std::align_val_t{kCacheLine}));
  }
  void deallocate(T* p, size_t) { ::operator delete(p, std::align_val_t{kCacheLine}); }
  friend bool operator==(const LineAllocator&, const LineAllocator&) { return true; }
};
template <class T>
using LineVector = std::vector<T, LineAllocator<T>>;

class HostPool {
 public:
  HostPool() = default;
  HostPool(const HostPool&) = delete;
  HostPool& operator=(const HostPool&) = delete;
  // Joins the pool's threads (each finishes at once: no job can be running).
  ~HostPool();

  // Calls `work` on this thread and on each of up to `helpers` pool threads that wakes in
  // time to join, i.e. before this thread's own call returns; then waits for the calls that
  // joined. So a helper that the host schedules late never delays the job: `work` must take
  // what is left to do until nothing is, so that any number of calls completes it, and must
  // not throw. Starts missing pool threads first; where the host cannot start one (no thread
  // or no memory left), the job has fewer helpers. Never throws.
  void run(unsigned helpers, const std::function<void()>& work);

  // The pool's threads started so far.
  size_t threads() const { return threads_.size(); }

 private:
  // state_: the job's helpers wanted, joined and left, and whether it is closed (the calling
  // thread's call returned: no helper may join any more).
  static constexpr unsigned kFieldBits = 10;
  static constexpr uint32_t kFieldMask = (1u << kFieldBits) - 1;
  static constexpr uint32_t kLeftOne = 1u << kFieldBits;
  static constexpr unsigned kWantedShift = 2 * kFieldBits;
  static constexpr uint32_t kClosed = 1u << 31;
  static uint32_t joined(uint32_t s) { return s & kFieldMask; }
  static uint32_t left(uint32_t s) { return (s >> kFieldBits) & kFieldMask; }
  static uint32_t wanted(uint32_t s) { return (s >> kWantedShift) & kFieldMask; }

  void serve(uint32_t seen);  // a pool thread's life; seen: the generation it started at
  void join();                // joins the job on offer, if it still takes helpers

  std::vector<std::thread> threads_;
  const std::function<void()>* work_ = nullptr;  // the job; set before it is offered
  // Bumped to offer a job (or to stop the threads): the pool's threads sleep on it.
  alignas(kCacheLine) std::atomic<uint32_t> generation_{0};
  std::atomic<bool> stopping_{false};
  alignas(kCacheLine) std::atomic<uint32_t> state_{kClosed};
};

}  // namespace ventus::sim
