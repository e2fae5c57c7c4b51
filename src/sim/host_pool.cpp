#include "host_pool.h"

#include <algorithm>
#include <chrono>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace ventus::sim {

namespace {

// How long a thread that waits for the pool polls before it sleeps. A helper that has run
// its slots waits there for the launch's next round, which starts when the slowest slot of
// this one is done: on 16 host threads that is often more than 50 us later, and a helper
// that slept by then lost its slots of the next round to the threads that were awake
// (SlotRanges), which then ran two slots each. Polling for 50 us, 16 helpers went to sleep
// about once per round (21,000 times in 19,000 rounds); polling for 1 ms, about 100 times
// (docs/performance.md, "Sixteen host threads"). Past kSpin a poller yields its core at
// each check, so that on a loaded host (more host threads than free cores: parallel test
// runs) it gives way to a thread with work instead of taking its time slice.
constexpr std::chrono::microseconds kPoll{1000}, kSpin{50};

// Polls until done() holds or kPoll has passed; whether it holds.
template <class Done>
bool poll(Done done) {
  const auto start = std::chrono::steady_clock::now();
  while (true) {
    for (int i = 0; i < 64; ++i) {
      if (done()) return true;
#if defined(__x86_64__) || defined(__i386__)
      _mm_pause();
#endif
    }
    const auto waited = std::chrono::steady_clock::now() - start;
    if (waited >= kPoll) return done();
    if (waited >= kSpin) std::this_thread::yield();
  }
}

}  // namespace

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
  if (left(s) != joined(s)) {
    poll([&] {
      s = state_.load(std::memory_order_acquire);
      return left(s) == joined(s);
    });
  }
  while (left(s) != joined(s)) {
    state_.wait(s, std::memory_order_acquire);
    s = state_.load(std::memory_order_acquire);
  }
}

void HostPool::serve(uint32_t seen) {
  while (true) {
    if (!poll([&] { return generation_.load(std::memory_order_acquire) != seen; }))
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
