#include "host_pool.h"

#include <algorithm>

namespace ventus::sim {

HostPool::~HostPool() {
  stopping_.store(true, std::memory_order_relaxed);
  generation_.fetch_add(1, std::memory_order_release);
  generation_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void HostPool::run(unsigned helpers, const std::function<void()>& work) {
  helpers = std::min<unsigned>(helpers, kFieldMask);
  // A new thread starts at the current generation, so it sleeps until the job below is
  // offered (or joins a later one: both are fine).
  while (threads_.size() < helpers) {
    try {
      threads_.emplace_back(
          [this, seen = generation_.load(std::memory_order_relaxed)] { serve(seen); });
    } catch (...) {  // std::system_error or std::bad_alloc: the host cannot start another
      break;
    }
  }
  helpers = std::min<unsigned>(helpers, static_cast<unsigned>(threads_.size()));
  if (helpers == 0) {
    work();
    return;
  }
  work_ = &work;
  state_.store(helpers << kWantedShift, std::memory_order_release);
  generation_.fetch_add(1, std::memory_order_release);
  generation_.notify_all();
  work();
  // Close the job, then wait for the helpers that joined it to leave.
  uint32_t s = state_.fetch_or(kClosed, std::memory_order_acq_rel) | kClosed;
  while (left(s) != joined(s)) {
    state_.wait(s, std::memory_order_acquire);
    s = state_.load(std::memory_order_acquire);
  }
}

void HostPool::serve(uint32_t seen) {
  while (true) {
    generation_.wait(seen, std::memory_order_acquire);
    seen = generation_.load(std::memory_order_acquire);
    if (stopping_.load(std::memory_order_relaxed)) return;
    join();
  }
}

void HostPool::join() {
  uint32_t s = state_.load(std::memory_order_acquire);
  do {
    if ((s & kClosed) || joined(s) >= wanted(s)) return;
  } while (!state_.compare_exchange_weak(s, s + 1, std::memory_order_acq_rel,
                                         std::memory_order_acquire));
  // Joined: the job and work_ stay as they are until this helper has left.
  (*work_)();
  const uint32_t after = state_.fetch_add(kLeftOne, std::memory_order_acq_rel) + kLeftOne;
  if ((after & kClosed) && left(after) == joined(after)) state_.notify_all();
}

}  // namespace ventus::sim
