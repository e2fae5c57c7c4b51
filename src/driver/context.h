// The driver's engine: one simulated device with its buffer allocator, the loaded program,
// synchronous launches, and an in-order launch queue run by a worker thread (for the C API). The C
// API (driver.cpp) and the C++ runtime (runtime.cpp) are thin layers over it; it reports bad input
// with ventus::Error.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <span>
#include <stop_token>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "allocator.h"
#include "print_buffer.h"
#include "ventus/device.h"
#include "ventus/elf.h"
#include "ventus/runtime.h"

namespace ventus::driver {

using rt::TextSink;

class Context {
 public:
  explicit Context(const sim::DeviceConfig& config);
  ~Context();  // cancels the running launch and drops the queued ones (cancel())
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  const sim::DeviceConfig& config() const { return device_.config(); }

  // Device memory. Buffers are whole 4 KiB pages in [sim::kBufferBase, 4 GiB), zero-filled,
  // never over the loaded program (BufferAllocator places them).
  uint32_t allocate(uint64_t size, uint64_t task_id = 0);
  // The buffer starting at address; with only_task, only if it belongs to that task.
  void free(uint64_t address, std::optional<uint64_t> only_task = std::nullopt);
  void free_task(uint64_t task_id);  // every buffer of the task
  // The task of the buffer starting at address; nullopt when no buffer starts there.
  std::optional<uint64_t> task_of(uint64_t address) const;
  // The range must lie inside allocated buffers or the loaded program's sections.
  void copy_to_device(uint64_t address, const void* source, uint64_t size);
  void copy_from_device(uint64_t address, void* destination, uint64_t size);
  // copy_from_device without waiting for the running launch, for words the host wrote and
  // kernels do not touch (vt_start reads the KNL entry to name the kernel, and must not
  // wait for the kernels before it).
  void peek(uint64_t address, void* destination, uint64_t size);
  size_t buffer_count() const;

  // Loads the ELF's allocated sections at their addresses (.bss zero-filled) and makes it
  // the current program; the previous program's pages are released first.
  void load_program(const elf::Image& image);
  // A raw code image at sim::kCodeBase (the public driver's upload of plain bytes).
  void load_raw_code(std::span<const uint8_t> bytes);
  const elf::Image* program() const { return program_ ? &*program_ : nullptr; }
  uint32_t start_pc() const { return start_pc_; }

  // Queues a launch (the C driver's vt_start); a worker thread, started with the first,
  // runs queued launches in order. `finished_id` is what take_finished() reports for it.
  // sim::LaunchRefused, before anything is queued, when the device cannot run it.
  void start(const sim::KernelLaunch& launch, int finished_id);
  // Runs a launch in the calling thread once the queued ones have run (the C++ runtime's
  // synchronous launch: no queue, no thread). sim::LaunchRefused when the device cannot
  // run it, ventus::Error with the fault's description when it faulted; a stop request
  // on `cancel` cancels it.
  sim::LaunchStats run(const sim::KernelLaunch& launch, std::stop_token cancel);
  // Drops the queued launches and stops the running one at its next warp switch; the next
  // wait() reports its fault "launch cancelled by the host".
  void cancel();
  // Waits until the queue is empty and nothing runs. False on timeout. Throws
  // ventus::Error when a launch faulted (once per fault; later queued launches dropped).
  bool wait(uint64_t timeout_ms);
  static constexpr uint64_t kWaitForever = UINT64_MAX;
  // Kernels finished since the last call, as (task_id << 4 | kernel_id).
  std::vector<int> take_finished();

  // Of the last finished launch.
  sim::LaunchStats last_stats() const;
  std::optional<sim::Fault> last_fault() const;

  void set_print_sink(TextSink sink);                         // empty: stdout
  void emit_print_text(std::string_view text);                // to the print sink
  void set_trace_sink(std::shared_ptr<sim::TraceSink> sink);  // null: no trace
  // Progress of later launches, every `interval` seconds while one runs; empty: none.
  void set_progress_handler(sim::ProgressHandler handler, double interval);
  // Later launches run with the cycle model of this configuration (docs/timing.md); nullopt:
  // functional only. ventus::Error when the configuration cannot run (timing::validate).
  void set_timing(std::optional<timing::Config> config);
  void set_jit(std::optional<sim::JitMode> mode);  // nullopt: VENTUS_JIT decides
  std::optional<timing::Config> timing_config() const;
  // Receives the timeline of later timed launches (the caller calls begin_launch before
  // each); nullptr: none. The sink must outlive those launches.
  void set_timeline(timing::TimelineSink* sink);
  // What the cycle model said of the last finished launch; nullopt when it ran without timing.
  std::optional<timing::LaunchTiming> last_timing() const;
  // Later launches check every access against the buffers allocated when they start, the
  // loaded program's sections and their local and private memory (sim::Memcheck; at most
  // max_errors listed); a launch that makes an invalid access faults with the list.
  void set_memcheck(bool on, uint32_t max_errors = sim::Memcheck{}.max_errors);
  bool memcheck() const;
  // The invalid accesses of the last finished launch (with memcheck on), and their number.
  std::vector<sim::MemcheckError> last_memcheck_errors() const;

 private:
  struct Allocation {
    uint64_t size = 0;  // rounded up to pages
    uint64_t task_id = 0;
    uint64_t requested = 0;  // bytes asked for (memcheck's bounds)
  };
  void worker_loop();
  // Runs the launch at the front of the queue and records its result; called and returns
  // with `lock` held.
  void run_next(std::unique_lock<std::mutex>& lock);
  // Runs `launch` (nothing else running) and records its result as the last; called and
  // returns with `lock` held, which it releases meanwhile.
  sim::LaunchResult run_locked(const sim::KernelLaunch& launch, std::stop_token cancel,
                               std::unique_lock<std::mutex>& lock);
  void wait_idle_locked(std::unique_lock<std::mutex>& lock);
  void check_range(uint64_t address, uint64_t size, const char* what) const;
  // The base of an allocated buffer sharing a byte with [begin, end), if any.
  std::optional<uint32_t> buffer_overlapping(uint64_t begin, uint64_t end) const;
  // Maps the pages of [begin, end) ranges as the program's and reserves them.
  void map_program_pages(std::vector<std::pair<uint64_t, uint64_t>> ranges);
  void release_program_pages();
  // The memory checker's description of the next launch (with memcheck on).
  sim::Memcheck memcheck_for(const sim::KernelLaunch& launch);
  void remember_freed(uint32_t base, uint64_t size);
  void on_print(const sim::PrintRequest& request);
  void write_print_text_locked(std::string_view text);

  sim::Device device_;
  std::map<uint32_t, Allocation> allocations_;  // by base address
  BufferAllocator allocator_;
  std::optional<elf::Image> program_;
  std::vector<std::pair<uint64_t, uint64_t>> program_ranges_;  // mapped [begin, end), disjoint
  uint32_t start_pc_ = sim::kCodeBase;

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::pair<sim::KernelLaunch, int>> queue_;  // with its finished id
  bool running_ = false;
  bool stopping_ = false;
  std::stop_source running_cancel_;           // of the running launch
  size_t cancelled_queued_ = 0;               // launches cancel() dropped while one ran
  std::optional<std::string> pending_error_;  // a fault not yet reported by wait()
  std::vector<int> finished_;
  sim::LaunchStats last_stats_;
  std::optional<sim::Fault> last_fault_;
  std::optional<timing::LaunchTiming> last_timing_;
  std::optional<timing::Config> timing_;
  std::optional<uint32_t> memcheck_max_errors_;  // memcheck on
  // The most recently freed buffers (at most kFreedRemembered), for memcheck's reports.
  static constexpr size_t kFreedRemembered = 64;
  std::deque<sim::MemcheckRange> freed_;
  std::vector<sim::MemcheckError> last_memcheck_errors_;
  std::optional<sim::JitMode> jit_;
  timing::TimelineSink* timeline_ = nullptr;
  TextSink print_sink_;
  std::shared_ptr<sim::TraceSink> trace_sink_;
  sim::ProgressHandler progress_handler_;
  double progress_interval_ = 0.5;
  std::mutex print_mutex_;  // print requests arrive from several SM threads
  PrintDrain print_drain_;  // of the running launch; under print_mutex_
  std::thread worker_;      // started by the first start()
};

}  // namespace ventus::driver
