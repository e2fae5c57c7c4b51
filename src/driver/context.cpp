// The driver's engine (context.h).
#include "context.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <new>
#include <utility>

#include "ventus/error.h"

namespace ventus::driver {
namespace {

constexpr uint64_t kAddressSpaceEnd = uint64_t{1} << 32;

uint64_t round_up_pages(uint64_t size) {
  return (size + sim::kPageSize - 1) / sim::kPageSize * sim::kPageSize;
}

}  // namespace

Context::Context(const sim::DeviceConfig& config) : device_(config) {}

Context::~Context() {
  cancel();
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  if (worker_.joinable()) worker_.join();
}

void Context::cancel() {
  std::lock_guard lock(mutex_);
  const size_t dropped = queue_.size();
  queue_.clear();
  if (running_) {
    cancelled_queued_ += dropped;  // reported with the running launch's result
    running_cancel_.request_stop();
  } else if (dropped != 0) {
    pending_error_ = fmt::format("{} queued launch(es) cancelled by the host", dropped);
  }
  changed_.notify_all();
}

uint32_t Context::allocate(uint64_t size, uint64_t task_id) {
  if (size == 0) throw Error("buffer allocation: size is 0");
  if (size > BufferAllocator::kRegionBytes)
    throw Error(fmt::format(
        "buffer allocation: {} bytes requested; the buffer region [0x{:08x}, 4 GiB) holds at "
        "most {} bytes",
        size, BufferAllocator::kRegionBegin, BufferAllocator::kRegionBytes));
  const uint64_t rounded = round_up_pages(size);
  std::unique_lock lock(mutex_);
  wait_idle_locked(lock);
  const std::optional<uint32_t> base = allocator_.allocate(rounded);
  if (!base)
    throw Error(fmt::format(
        "buffer allocation: no free range of {} bytes in [0x{:08x}, 4 GiB): {} bytes free, the "
        "longest free range {} bytes ({} buffers allocated)",
        size, BufferAllocator::kRegionBegin, allocator_.free_bytes(),
        allocator_.largest_free_range(), allocations_.size()));
  device_.memory().map(*base, rounded);
  allocations_.emplace(*base, Allocation{rounded, task_id, size});
  return *base;
}

void Context::free(uint64_t address, std::optional<uint64_t> only_task) {
  std::unique_lock lock(mutex_);
  wait_idle_locked(lock);
  auto it = address < kAddressSpaceEnd ? allocations_.find(static_cast<uint32_t>(address))
                                       : allocations_.end();
  if (it == allocations_.end())
    throw Error(
        fmt::format("buffer free: 0x{:x} is not the start of an allocated buffer", address));
  if (only_task && it->second.task_id != *only_task)
    throw Error(fmt::format("buffer free: the buffer at 0x{:08x} belongs to task {}, not {}",
                            address, it->second.task_id, *only_task));
  device_.memory().unmap(it->first, it->second.size);
  allocator_.release(it->first, it->second.size);
  remember_freed(it->first, it->second.requested);
  allocations_.erase(it);
}

void Context::remember_freed(uint32_t base, uint64_t size) {
  // Kept when a later buffer reuses the range: memcheck names a freed buffer only for an
  // access outside every live one.
  freed_.push_back({base, size, ""});
  if (freed_.size() > kFreedRemembered) freed_.pop_front();
}

void Context::free_task(uint64_t task_id) {
  std::unique_lock lock(mutex_);
  wait_idle_locked(lock);
  for (auto it = allocations_.begin(); it != allocations_.end();) {
    if (it->second.task_id == task_id) {
      device_.memory().unmap(it->first, it->second.size);
      allocator_.release(it->first, it->second.size);
      remember_freed(it->first, it->second.requested);
      it = allocations_.erase(it);
    } else {
      ++it;
    }
  }
}

std::optional<uint64_t> Context::task_of(uint64_t address) const {
  std::lock_guard lock(mutex_);
  const auto it = address < kAddressSpaceEnd ? allocations_.find(static_cast<uint32_t>(address))
                                             : allocations_.end();
  if (it == allocations_.end()) return std::nullopt;
  return it->second.task_id;
}

size_t Context::buffer_count() const {
  std::lock_guard lock(mutex_);
  return allocations_.size();
}

void Context::check_range(uint64_t address, uint64_t size, const char* what) const {
  if (size == 0) throw Error(fmt::format("{}: size is 0", what));
  if (address >= kAddressSpaceEnd || size > kAddressSpaceEnd - address)
    throw Error(fmt::format("{}: [0x{:x}, +{}) is outside the 32-bit device address space", what,
                            address, size));
  const uint64_t end = address + size;
  // The range must be covered by one buffer or by the program's pages.
  auto it = allocations_.upper_bound(static_cast<uint32_t>(address));
  if (it != allocations_.begin()) {
    --it;
    if (address >= it->first && end <= it->first + it->second.size) return;
  }
  for (const auto& [begin, range_end] : program_ranges_)
    if (address >= begin && end <= range_end) return;
  throw Error(
      fmt::format("{}: [0x{:08x}, 0x{:08x}) is not inside one allocated buffer or the "
                  "loaded program",
                  what, address, end));
}

void Context::copy_to_device(uint64_t address, const void* source, uint64_t size) {
  if (source == nullptr) throw Error("copy to device: source pointer is NULL");
  std::unique_lock lock(mutex_);
  wait_idle_locked(lock);
  check_range(address, size, "copy to device");
  if (!device_.memory().write(static_cast<uint32_t>(address), source, size))
    throw Error(fmt::format("copy to device: 0x{:08x} is not mapped", address));
}

void Context::copy_from_device(uint64_t address, void* destination, uint64_t size) {
  if (destination == nullptr) throw Error("copy from device: destination pointer is NULL");
  std::unique_lock lock(mutex_);
  wait_idle_locked(lock);
  check_range(address, size, "copy from device");
  if (!device_.memory().read(static_cast<uint32_t>(address), destination, size))
    throw Error(fmt::format("copy from device: 0x{:08x} is not mapped", address));
}

std::optional<uint32_t> Context::buffer_overlapping(uint64_t begin, uint64_t end) const {
  // Buffers are disjoint: if the last one starting before end ends before begin, so do all.
  auto it = end >= kAddressSpaceEnd ? allocations_.end()
                                    : allocations_.lower_bound(static_cast<uint32_t>(end));
  if (it == allocations_.begin()) return std::nullopt;
  --it;
  if (it->first + it->second.size > begin) return it->first;
  return std::nullopt;
}

void Context::map_program_pages(std::vector<std::pair<uint64_t, uint64_t>> ranges) {
  // Sections may share pages: map and reserve the union of their pages.
  std::sort(ranges.begin(), ranges.end());
  for (const auto& [begin, end] : ranges) {
    if (!program_ranges_.empty() && begin <= program_ranges_.back().second)
      program_ranges_.back().second = std::max(program_ranges_.back().second, end);
    else
      program_ranges_.emplace_back(begin, end);
  }
  for (const auto& [begin, end] : program_ranges_) {
    device_.memory().map(static_cast<uint32_t>(begin), end - begin);
    allocator_.reserve(begin, end);
  }
}

void Context::peek(uint64_t address, void* destination, uint64_t size) {
  std::lock_guard lock(mutex_);
  check_range(address, size, "read of device memory");
  if (!device_.memory().read(static_cast<uint32_t>(address), destination, size))
    throw Error(fmt::format("read of device memory: 0x{:08x} is not mapped", address));
}

void Context::release_program_pages() {
  for (const auto& [begin, end] : program_ranges_) {
    device_.memory().unmap(static_cast<uint32_t>(begin), end - begin);
    allocator_.unreserve(begin, end);
  }
  program_ranges_.clear();
  program_.reset();
}

void Context::load_program(const elf::Image& image) {
  std::unique_lock lock(mutex_);
  wait_idle_locked(lock);
  std::vector<std::pair<uint64_t, uint64_t>> pages;  // [begin, end) of each section's pages
  for (const elf::Section& s : image.sections) {
    if (!s.alloc || s.size == 0) continue;
    const uint64_t end = uint64_t{s.address} + s.size;
    if (end > kAddressSpaceEnd)
      throw Error(fmt::format("program: section {} [0x{:08x}, +{}) leaves the address space",
                              s.name, s.address, s.size));
    if (s.address < sim::kCodeBase && end > sim::kLdsWindowBase)
      throw Error(fmt::format("program: section {} at 0x{:08x} overlaps the local memory window",
                              s.name, s.address));
    const uint64_t page_begin = s.address & ~uint64_t{sim::kPageSize - 1};
    const uint64_t page_end = round_up_pages(end);
    // Buffers are whole pages: sharing a page with one means sharing a byte.
    if (const std::optional<uint32_t> buffer = buffer_overlapping(page_begin, page_end))
      throw Error(
          fmt::format("program: section {} [0x{:08x}, 0x{:08x}) overlaps the buffer at "
                      "0x{:08x}",
                      s.name, s.address, end, *buffer));
    pages.emplace_back(page_begin, page_end);
  }
  if (pages.empty()) throw Error("program: the ELF has no loadable sections");
  release_program_pages();
  map_program_pages(std::move(pages));
  for (const elf::Section& s : image.sections) {
    if (!s.alloc || s.size == 0) continue;
    std::vector<uint8_t> bytes(s.size, 0);
    if (!s.nobits)
      std::copy_n(s.bytes.begin(), std::min<size_t>(s.bytes.size(), s.size), bytes.begin());
    device_.memory().write(s.address, bytes.data(), bytes.size());
    // Kernel stores into code and read-only data fault (the host may still write them).
    if (!s.write) device_.memory().protect(s.address, s.size, s.name);
  }
  program_ = image;
  start_pc_ = image.entry != 0 ? image.entry : sim::kCodeBase;
}

void Context::load_raw_code(std::span<const uint8_t> bytes) {
  if (bytes.empty()) throw Error("program: no code bytes");
  if (bytes.size() > kAddressSpaceEnd - sim::kCodeBase)
    throw Error(fmt::format("program: {} bytes of code at 0x{:08x} leave the address space",
                            bytes.size(), sim::kCodeBase));
  const uint64_t end = round_up_pages(sim::kCodeBase + uint64_t{bytes.size()});
  std::unique_lock lock(mutex_);
  wait_idle_locked(lock);
  if (const std::optional<uint32_t> buffer = buffer_overlapping(sim::kCodeBase, end))
    throw Error(fmt::format("program: {} bytes of code at 0x{:08x} overlap the buffer at 0x{:08x}",
                            bytes.size(), sim::kCodeBase, *buffer));
  release_program_pages();
  map_program_pages({{sim::kCodeBase, end}});
  device_.memory().write(sim::kCodeBase, bytes.data(), bytes.size());
  start_pc_ = sim::kCodeBase;
}

void Context::start(const sim::KernelLaunch& launch, int finished_id) {
  if (std::optional<sim::LaunchError> refused = sim::check_launch(launch, config()))
    throw sim::LaunchRefused(std::move(*refused));
  {
    std::lock_guard lock(mutex_);
    if (program_ranges_.empty()) throw Error("start: no kernel program was uploaded");
    if (!worker_.joinable()) worker_ = std::thread([this] { worker_loop(); });
    queue_.emplace_back(launch, finished_id);
  }
  changed_.notify_all();
}

sim::LaunchStats Context::run(const sim::KernelLaunch& launch, std::stop_token cancel) {
  if (std::optional<sim::LaunchError> refused = sim::check_launch(launch, config()))
    throw sim::LaunchRefused(std::move(*refused));
  std::unique_lock lock(mutex_);
  wait_idle_locked(lock);
  if (program_ranges_.empty()) throw Error("start: no kernel program was uploaded");
  const sim::LaunchResult result = run_locked(launch, std::move(cancel), lock);
  changed_.notify_all();
  if (result.fault) throw Error(result.fault->describe());
  return result.stats;
}

void Context::wait_idle_locked(std::unique_lock<std::mutex>& lock) {
  changed_.wait(lock, [this] { return queue_.empty() && !running_; });
}

bool Context::wait(uint64_t timeout_ms) {
  std::unique_lock lock(mutex_);
  const auto is_idle = [this] { return queue_.empty() && !running_; };
  // Beyond a year the deadline would overflow the clock: wait without one.
  constexpr uint64_t kLongestTimedWait = 365ull * 24 * 3600 * 1000;
  bool idle = true;
  if (timeout_ms > kLongestTimedWait)
    changed_.wait(lock, is_idle);
  else
    idle = changed_.wait_for(lock, std::chrono::milliseconds(timeout_ms), is_idle);
  if (pending_error_) {
    std::string message = std::move(*pending_error_);
    pending_error_.reset();
    throw Error(message);
  }
  return idle;
}

std::vector<int> Context::take_finished() {
  std::lock_guard lock(mutex_);
  return std::exchange(finished_, {});
}

sim::LaunchStats Context::last_stats() const {
  std::lock_guard lock(mutex_);
  return last_stats_;
}

std::optional<sim::Fault> Context::last_fault() const {
  std::lock_guard lock(mutex_);
  return last_fault_;
}

void Context::set_print_sink(TextSink sink) {
  std::lock_guard lock(print_mutex_);
  print_sink_ = std::move(sink);
}

void Context::set_trace_sink(std::shared_ptr<sim::TraceSink> sink) {
  std::lock_guard lock(mutex_);
  trace_sink_ = std::move(sink);
}

void Context::set_progress_handler(sim::ProgressHandler handler, double interval) {
  std::lock_guard lock(mutex_);
  progress_handler_ = std::move(handler);
  progress_interval_ = interval;
}

void Context::set_timing(std::optional<timing::Config> config) {
  if (config) timing::validate(*config);
  std::lock_guard lock(mutex_);
  timing_ = std::move(config);
}

void Context::set_jit(std::optional<sim::JitMode> mode) {
  std::lock_guard lock(mutex_);
  jit_ = mode;
}

std::optional<timing::Config> Context::timing_config() const {
  std::lock_guard lock(mutex_);
  return timing_;
}

void Context::set_timeline(timing::TimelineSink* sink) {
  std::lock_guard lock(mutex_);
  timeline_ = sink;
}

std::optional<timing::LaunchTiming> Context::last_timing() const {
  std::lock_guard lock(mutex_);
  return last_timing_;
}

void Context::set_memcheck(bool on, uint32_t max_errors) {
  std::lock_guard lock(mutex_);
  memcheck_max_errors_ = on ? std::optional<uint32_t>(max_errors) : std::nullopt;
}

bool Context::memcheck() const {
  std::lock_guard lock(mutex_);
  return memcheck_max_errors_.has_value();
}

std::vector<sim::MemcheckError> Context::last_memcheck_errors() const {
  std::lock_guard lock(mutex_);
  return last_memcheck_errors_;
}

sim::Memcheck Context::memcheck_for(const sim::KernelLaunch& launch) {
  sim::Memcheck m;
  m.max_errors = *memcheck_max_errors_;
  for (const auto& [base, a] : allocations_) m.allocations.push_back({base, a.requested, ""});
  if (program_) {
    for (const elf::Section& s : program_->sections)
      if (s.alloc && s.size != 0) m.allocations.push_back({s.address, s.size, s.name});
  } else {
    // A raw code image: its pages.
    for (const auto& [begin, end] : program_ranges_)
      m.allocations.push_back({static_cast<uint32_t>(begin), end - begin, "(raw code)"});
  }
  m.freed.assign(freed_.begin(), freed_.end());
  m.read_knl(device_.memory(), launch.knl_address);
  return m;
}

void Context::on_print(const sim::PrintRequest& request) {
  // The warp waits while its record is formatted, as it would for a polling host.
  std::lock_guard lock(print_mutex_);
  std::string text;
  try {
    text = format_print_record(device_.memory(), request.value);
  } catch (const Error& e) {
    text = fmt::format("[vt_printf: workgroup {} warp {}: {}]\n", request.workgroup_linear,
                       request.warp, e.what());
  }
  write_print_text_locked(text);
  print_drain_.printed(device_.memory(), request.value);
}

void Context::emit_print_text(std::string_view text) {
  std::lock_guard lock(print_mutex_);
  write_print_text_locked(text);
}

void Context::write_print_text_locked(std::string_view text) {
  if (print_sink_) {
    print_sink_(text);
  } else {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
  }
}

void Context::worker_loop() {
  std::unique_lock lock(mutex_);
  while (true) {
    changed_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping
    try {
      run_next(lock);
    } catch (...) {
      // No exception may leave the thread: only the bookkeeping around a launch can get
      // here, when host memory ran out (the message fits without allocating).
      if (!lock.owns_lock()) lock.lock();
      running_ = false;
      queue_.clear();
      pending_error_ = "out of memory";
    }
    changed_.notify_all();
  }
}

void Context::run_next(std::unique_lock<std::mutex>& lock) {
  const auto [launch, finished_id] = queue_.front();
  queue_.pop_front();
  const sim::LaunchResult result = run_locked(launch, {}, lock);
  const size_t dropped = queue_.size() + std::exchange(cancelled_queued_, 0);
  if (result.fault) {
    pending_error_ = result.fault->describe();
    if (dropped != 0) *pending_error_ += fmt::format(" ({} queued launch(es) dropped)", dropped);
    queue_.clear();
  } else {
    finished_.push_back(finished_id);
    if (dropped != queue_.size())
      pending_error_ =
          fmt::format("{} queued launch(es) cancelled by the host", dropped - queue_.size());
  }
}

sim::LaunchResult Context::run_locked(const sim::KernelLaunch& launch, std::stop_token cancel,
                                      std::unique_lock<std::mutex>& lock) {
  running_ = true;
  running_cancel_ = std::stop_source();
  sim::RunOptions options;
  options.cancel = running_cancel_.get_token();
  options.trace = trace_sink_;
  options.on_print = [this](const sim::PrintRequest& r) { on_print(r); };
  options.on_progress = progress_handler_;
  options.progress_interval = progress_interval_;
  options.jit = jit_;
  // A copy: set_timing may change the configuration while this launch runs.
  const std::optional<timing::Config> timing = timing_;
  if (timing) {
    options.timing = &*timing;
    options.timeline = timeline_;
  }
  std::optional<sim::Memcheck> memcheck;
  if (memcheck_max_errors_) {
    memcheck = memcheck_for(launch);
    options.memcheck = &*memcheck;
  }
  std::stop_source& running_cancel = running_cancel_;
  lock.unlock();
  sim::LaunchResult result;
  try {
    {
      // The print buffer the start code hands to vt_printf (KNL words PRINT_ADDR, PRINT_SIZE).
      static_assert(abi::knl::PRINT_SIZE == abi::knl::PRINT_ADDR + 1);
      const uint64_t words = launch.knl_address + uint64_t{4} * abi::knl::PRINT_ADDR;
      uint32_t print_buffer[2] = {0, 0};
      if (words + sizeof print_buffer > kAddressSpaceEnd ||
          !device_.memory().read(static_cast<uint32_t>(words), print_buffer, sizeof print_buffer))
        print_buffer[0] = 0;
      std::lock_guard print_lock(print_mutex_);
      print_drain_.start(print_buffer[0], print_buffer[1]);
    }
    const std::stop_callback forward(cancel, [&running_cancel] { running_cancel.request_stop(); });
    result = device_.run(launch, options);
  } catch (const std::exception& e) {
    sim::Fault fault;
    fault.message = dynamic_cast<const std::bad_alloc*>(&e)
                        ? "out of memory: host memory was exhausted while starting the launch"
                        : e.what();
    fault.kernel = launch.kernel_name;
    fault.at_warp = false;
    result.fault = fault;
  }
  lock.lock();
  running_ = false;
  last_stats_ = result.stats;
  last_fault_ = result.fault;
  last_timing_ = result.timing;
  last_memcheck_errors_ = result.memcheck_errors;
  return result;
}

}  // namespace ventus::driver
