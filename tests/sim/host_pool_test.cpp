// The device's host thread pool (src/sim/host_pool.h): a job is completed by the calling
// thread and the helpers that join it, the threads are started once and reused, and a job
// does not wait for a helper that has not joined.
#include "host_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>

namespace ventus::test {
namespace {

// A job of `items` items that any number of threads take one at a time.
struct Job {
  explicit Job(unsigned items) : items(items) {}
  unsigned items;
  std::atomic<unsigned> next{0}, done{0};
  std::function<void()> work = [this] {
    while (next.fetch_add(1) < items) done.fetch_add(1);
  };
};

TEST(HostPool, WithoutHelpersTheCallingThreadDoesTheJobAndNoThreadStarts) {
  sim::HostPool pool;
  Job job(100);
  pool.run(0, job.work);
  EXPECT_EQ(job.done.load(), 100u);
  EXPECT_EQ(pool.threads(), 0u);
}

TEST(HostPool, ThreadsAreStartedOnceAndEveryJobCompletes) {
  sim::HostPool pool;
  for (int i = 0; i < 2000; ++i) {
    Job job(64);
    pool.run(3, job.work);
    // Every item done, and no helper still in the job: it could touch `job` after this.
    ASSERT_EQ(job.done.load(), 64u) << i;
    ASSERT_EQ(pool.threads(), 3u);
  }
  // A job with fewer helpers uses the threads there are; one with more starts the rest.
  Job fewer(10);
  pool.run(1, fewer.work);
  EXPECT_EQ(fewer.done.load(), 10u);
  EXPECT_EQ(pool.threads(), 3u);
  Job more(10);
  pool.run(5, more.work);
  EXPECT_EQ(more.done.load(), 10u);
  EXPECT_EQ(pool.threads(), 5u);
}

// The calling thread's work waits until a helper has joined: the helpers do run jobs (on
// threads other than the caller's), whenever the host schedules them.
TEST(HostPool, HelpersRunTheJobOnTheirOwnThreads) {
  sim::HostPool pool;
  std::mutex mutex;
  std::set<std::thread::id> ids;
  std::atomic<unsigned> entered{0};
  const std::thread::id caller = std::this_thread::get_id();
  const std::function<void()> work = [&] {
    {
      std::lock_guard lock(mutex);
      ids.insert(std::this_thread::get_id());
    }
    entered.fetch_add(1);
    if (std::this_thread::get_id() != caller) return;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (entered.load() < 3 && std::chrono::steady_clock::now() < deadline)
      std::this_thread::yield();
  };
  pool.run(2, work);
  EXPECT_EQ(entered.load(), 3u);
  EXPECT_EQ(ids.size(), 3u);
}

// A helper that has not joined by the time the calling thread's work returns is left out:
// run returns without waiting for it to wake, and no helper calls a job's work after run
// returned (it could touch what the caller has destroyed).
TEST(HostPool, AJobDoesNotWaitForHelpersThatHaveNotJoined) {
  sim::HostPool pool;
  Job warm(1);
  pool.run(1, warm.work);  // the helper exists and sleeps
  std::atomic<unsigned> calls{0};
  std::atomic<bool> returned{false}, late{false};
  const std::function<void()> work = [&] {
    calls.fetch_add(1);
    if (returned.load()) late = true;
  };
  for (int i = 0; i < 1000; ++i) {
    returned = false;
    calls = 0;
    pool.run(1, work);
    returned = true;
    ASSERT_GE(calls.load(), 1u);
    ASSERT_LE(calls.load(), 2u);
  }
  EXPECT_FALSE(late.load());
}

}  // namespace
}  // namespace ventus::test
