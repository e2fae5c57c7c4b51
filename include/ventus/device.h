// The simulated Ventus device: configuration, device memory and kernel execution.
// This is the simulator's C++ interface; the driver API (ventus.h) and the runtime
// (runtime.h) are built on it.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ventus/abi.h"
#include "ventus/error.h"
#include "ventus/timing.h"

namespace ventus::sim {

// Fixed parts of the memory map (docs/design.md). Data accesses below kNullWindowEnd fault
// as null or small pointers (docs/simulator.md, "Limits and errors"); private memory is
// reached only through the private-memory instructions, never by a global or flat address.
using abi::kBufferBase;
using abi::kCodeBase;
using abi::kLdsWindowBase;
using abi::kNullWindowEnd;
using abi::kPageSize;
// An address's page number is addr >> kPageShift.
inline constexpr unsigned kPageShift = std::countr_zero(kPageSize);
static_assert(kPageSize == 1u << kPageShift);

// The warps of one workgroup: at most the width of the barrier masks.
using abi::kMaxWarpsPerWorkgroup;

// Warp instructions each workgroup slot runs per round of a launch without the cycle model
// (docs/simulator.md, "Host threads"); fewer after a round that served print requests.
// Every round ends with all host threads waiting for its slowest slot: with translated code
// a round of 16,384 took 40-60 us of a thread, so that on 16 host threads the waits cost
// about as much as the slots (docs/performance.md, "Sixteen host threads"). A longer round
// costs a program whose workgroups wait for each other through memory up to a round per
// wait where they share a host thread.
inline constexpr uint64_t kRoundWarpInstructions = uint64_t{1} << 16;

struct DeviceConfig {
  uint32_t num_sms = 2;
  uint32_t warp_slots_per_sm = 32;              // resident warps an SM can hold
  uint32_t max_threads_per_warp = 32;           // hardware lanes (wf_size may be smaller)
  uint32_t vgprs_per_sm = 4096;                 // physical vector registers (per lane)
  uint32_t sgprs_per_sm = 2048;                 // physical scalar registers
  uint32_t lds_bytes_per_sm = 64 * 1024;        // local memory of an SM, shared by its workgroups
  uint32_t max_workgroups_per_sm = 8;           // workgroup slots (CSR_WGID range)
  uint64_t instruction_budget = 2'000'000'000;  // warp instructions per workgroup; 0 = unlimited
  unsigned host_threads = 1;                    // workgroup slots simulated in parallel
  uint32_t schedule_quantum = 256;              // warp instructions a warp runs before the next one

  // The warps a workgroup can have: an SM's warp slots, at most kMaxWarpsPerWorkgroup.
  uint32_t max_warps_per_workgroup() const {
    return warp_slots_per_sm < kMaxWarpsPerWorkgroup ? warp_slots_per_sm : kMaxWarpsPerWorkgroup;
  }
};

// One kernel launch, as the driver's metadata describes it.
struct KernelLaunch {
  std::string kernel_name;            // for messages
  uint32_t start_pc = kCodeBase;      // where every warp starts (the start code)
  uint32_t grid[3] = {1, 1, 1};       // workgroups per dimension (kernel_size)
  uint32_t threads_per_warp = 32;     // wf_size
  uint32_t warps_per_workgroup = 1;   // wg_size
  uint32_t knl_address = 0;           // CSR_KNL: the kernel metadata buffer
  uint64_t lds_bytes = 0;             // local memory per workgroup (ldsSize)
  uint32_t pds_bytes_per_thread = 0;  // private memory per thread (pdsSize)
  uint32_t pds_base = 0;              // private memory of workgroup 0 (pdsBaseAddr)
  uint32_t sgpr_usage = 32;           // per warp, multiple of 4
  uint32_t vgpr_usage = 32;           // per thread, multiple of 4
  // The start code's stack of warp w is [CSR_LDS + w * this, + this) in local memory (it
  // grows upwards); sp-relative scalar accesses outside it fault as a stack overflow.
  // 0: the stack layout is unknown and not checked (hardware cases, raw launches).
  uint32_t warp_stack_bytes = 0;
};

// Which limit refused a launch (LaunchError). The OpenCL platform maps each to its error code
// (docs/opencl.md, "Limits and errors").
enum class LaunchLimit : uint8_t {
  work_dimensions,   // 1 to 3 dimensions
  global_size,       // a zero global size, or a local size with more dimensions
  local_size,        // a zero local size, one that does not divide the global size, or
                     // not the kernel's reqd_work_group_size
  work_item_size,    // a local size in one dimension beyond the largest workgroup
  work_group_size,   // the warps of a workgroup beyond an SM's warp slots (or 32)
  grid,              // more than 2^32 - 1 workgroups
  threads_per_warp,  // beyond the device's lanes
  scalar_registers,  // warps x sgpr_usage beyond an SM's scalar registers
  vector_registers,  // warps x vgpr_usage beyond an SM's vector registers
  local_memory,      // warp stacks + local data beyond an SM's local memory
  private_memory,    // private memory of the launch beyond its limit or the address space
  arguments,         // the arguments do not match the kernel's (count, kind, size)
  argument_bytes,    // the argument buffer beyond its limit
};
const char* to_string(LaunchLimit limit);

// Why a launch cannot run: the limit, what the launch asks for and what there is (in the
// limit's unit: work-items, warps, registers, bytes, workgroups), and a sentence for users.
struct LaunchError {
  LaunchLimit limit = LaunchLimit::grid;
  uint64_t requested = 0;
  uint64_t available = 0;
  std::string message;
};

// A refused launch, as an exception (its what() is the error's message).
class LaunchRefused : public Error {
 public:
  explicit LaunchRefused(LaunchError error) : Error(error.message), error_(std::move(error)) {}
  const LaunchError& error() const { return error_; }

 private:
  LaunchError error_;
};

struct LaunchStats {
  uint64_t warp_instructions = 0;
  uint64_t thread_instructions = 0;  // active lanes of vector instructions + scalar instructions
  uint64_t divergences = 0;          // vector branches that split a warp
  uint64_t barriers = 0;             // barrier instructions executed (per warp)
  uint64_t workgroups = 0;
  uint64_t decodes = 0;  // instructions decoded (decode-cache misses), all SMs
  double seconds = 0;    // host wall time of the launch
};

// Why a launch stopped early: where and what.
struct Fault {
  std::string message;  // what went wrong
  std::string kernel;
  // false: the launch stopped outside any warp (it could not be placed, or the host failed
  // between instructions); workgroup, warp, sm, pc and instruction then mean nothing.
  bool at_warp = true;
  uint32_t workgroup[3] = {0, 0, 0};
  uint32_t warp = 0;  // warp index within the workgroup
  uint32_t sm = 0;    // the SM the workgroup ran on
  uint32_t pc = 0;
  uint32_t instruction = 0;
  std::string disassembly;       // the faulting instruction as text
  std::string describe() const;  // one line for users
};

// The device's rule for whether a launch can ever run (the only one: the runtime, the C
// driver and the OpenCL platform ask it, Device::run applies it): nullopt when it can.
std::optional<LaunchError> check_launch(const KernelLaunch& launch, const DeviceConfig& config);

// Private memory, as the hardware reserves it: per resident workgroup, not per workgroup of
// the grid. Workgroup g's warps find theirs in area p of W * T * pds_bytes_per_thread bytes
// from pds_base (warp w at + w * T * pds_bytes_per_thread): p = g when the grid has no more
// workgroups than the device holds at once (num_sms x the workgroups an SM holds of this
// launch: the public driver's layout, one area per workgroup), otherwise p = sm * (workgroups
// an SM holds) + slot, the area of the slot it is resident in, which the workgroups after it
// in that slot reuse. So a launch needs private_memory_bytes() from pds_base whatever its
// grid (at most num_sms x warp_slots_per_sm x T x pds_bytes_per_thread), and never more than
// one area per workgroup of the grid (docs/simulator.md, "Private memory").
uint64_t private_memory_bytes(const KernelLaunch& launch, const DeviceConfig& config);
// CSR_PDS of warp `warp` of workgroup `linear` resident in slot `slot` of SM `sm` (a launch
// check_launch accepts).
uint32_t private_memory_of_warp(const KernelLaunch& launch, const DeviceConfig& config,
                                uint32_t linear, uint32_t sm, uint32_t slot, uint32_t warp);

// The memory checker (RunOptions::memcheck, docs/simulator.md "Memory checking"): every
// global access of every lane must lie inside one of `allocations`, every local access inside
// its workgroup's local memory (KernelLaunch::lds_bytes from CSR_LDS) and every private access
// inside the thread's pds_bytes_per_thread. An access outside is reported as a MemcheckError
// and then performed as without the checker (an unmapped or misaligned one still faults),
// so one launch reports every invalid access it makes; a launch with any ends with a fault.
struct MemcheckRange {
  uint32_t base = 0;
  uint64_t size = 0;  // exactly as requested (not rounded to pages)
  std::string name;   // "" for a buffer; a program section's name (".text", ".rodata", ...)
};
struct Memcheck {
  std::vector<MemcheckRange> allocations;  // any order; disjoint
  // Buffers freed before the launch (the most recent ones): an access there is named so.
  std::vector<MemcheckRange> freed;
  // The launch's local size and global offset (KNL), for work-item ids in reports; a zero
  // local size: unknown, the reports give the thread's linear id in its workgroup.
  uint32_t local_size[3] = {0, 0, 0};
  uint32_t global_offset[3] = {0, 0, 0};
  uint32_t max_errors = 100;  // reported in full; the rest are only counted
  // Takes local_size and global_offset from the kernel metadata words (KNL) at knl_address
  // of `memory`, when they are mapped.
  void read_knl(const class Memory& memory, uint32_t knl_address);
};
enum class MemorySpace : uint8_t { global, local, private_ };
struct MemcheckError {
  // Kernel, workgroup, warp, SM, pc and instruction of the access; its message is the whole
  // report: "invalid global write of 4 bytes at 0x90002000 by work-item (64,0,0) (thread 0
  // of warp 2, local (0,0,0)): 0 bytes after the end of the 256-byte allocation at
  // 0x90001f00".
  Fault where;
  MemorySpace space = MemorySpace::global;
  bool store = false;
  uint32_t size = 0;
  uint32_t address = 0;  // global and local: the device address; private: the private address
  // The thread of the warp; kWarpAccess for a scalar (or whole-warp) access.
  static constexpr uint32_t kWarpAccess = 0xff;
  uint32_t lane = kWarpAccess;
  uint32_t local_linear = 0;  // warp * threads_per_warp + lane (a lane's access only)
};

struct LaunchResult {
  LaunchStats stats;
  std::optional<Fault> fault;
  // With RunOptions::memcheck: the invalid accesses (at most Memcheck::max_errors, by
  // workgroup, warp and lane) and how many there were in all.
  std::vector<MemcheckError> memcheck_errors;
  uint64_t memcheck_error_count = 0;
  // With RunOptions::timing: what the cycle model says of the launch (also after a fault:
  // the cycles up to it).
  std::optional<timing::LaunchTiming> timing;
  bool ok() const { return !fault; }
};

// Receives the commit log (--trace, docs/trace.md), one line per executed instruction in
// execution order. The simulator formats each line straight into the sink's memory:
// room(bytes) gives space for a line of at most `bytes` bytes, and commit(end) takes the
// line written there, which ends just before `end` with its '\n'. Either may throw (a full
// disk, a size limit): the launch then stops with a fault at that instruction, and a line
// whose commit threw is not part of the log. A traced launch runs on one host thread, so
// the calls never overlap.
class TraceSink {
 public:
  virtual ~TraceSink() = default;
  virtual char* room(size_t bytes) = 0;
  virtual void commit(const char* end) = 0;
};
// A sink that hands each line to `receive`, without its '\n' (the driver's callbacks).
std::shared_ptr<TraceSink> trace_lines(std::function<void(std::string_view line)> receive);
// Called when a warp writes CSR_PRINT: the device stops that warp until the handler returns,
// as the host's polling loop would. value is what the warp wrote; the CSR reads 0 afterwards.
struct PrintRequest {
  uint32_t workgroup_linear = 0;
  uint32_t warp = 0;
  uint32_t value = 0;
};
using PrintHandler = std::function<void(const PrintRequest&)>;

// Where a running launch stands, for progress output on long runs.
struct LaunchProgress {
  std::string_view kernel;         // KernelLaunch::kernel_name
  uint64_t warp_instructions = 0;  // executed so far, all SMs
  uint64_t workgroups_done = 0;
  uint64_t workgroups = 0;  // in the launch
  double seconds = 0;       // since the launch started
};
// "kernel 'k': 12 s, 345.6 M warp-instructions, 3 of 10 workgroups done": the progress
// line of `ventus run --progress` and of the OpenCL platform's VENTUS_PROGRESS.
std::string describe(const LaunchProgress& progress);
using ProgressHandler = std::function<void(const LaunchProgress&)>;

// The translating tier (docs/simulator.md, "Translation"): Off interprets everything; On
// translates blocks once they are hot; Force translates every block at its first execution
// whose instructions are decoded (the differential tests use it), compiled as hot blocks end
// up; ForceQuick likewise, compiled as On first compiles blocks (quickly, to slower code).
// Results are the same.
enum class JitMode : uint8_t { Off, On, Force, ForceQuick };
// "off", "on", "force" or "force-quick"
std::optional<JitMode> parse_jit_mode(std::string_view text);
// The mode VENTUS_JIT names (unset or empty: On); std::invalid_argument naming the variable
// for any other text.
JitMode jit_mode_from_environment();
// Does, in the calling thread, what the translating tier needs once per process before its
// first compile thread starts (LLVM's objects that compiles construct at their first use,
// and the exit hook that stops compile threads): about 10 ms of CPU, which the first launch
// that translates would otherwise spend inside its own time. Nothing when the mode (unset:
// jit_mode_from_environment(), or an invalid VENTUS_JIT) is Off; never throws (a launch
// that finds it undone does it). The OpenCL platform calls it when it creates a kernel (a
// program's kernel times are what its users compare), `ventus bench` before its launches;
// `ventus run` does not (the run's cost either way, and most runs never compile a block).
void prepare_translation(std::optional<JitMode> mode = std::nullopt) noexcept;

struct RunOptions {
  std::shared_ptr<TraceSink> trace;  // null: no trace
  PrintHandler on_print;             // empty: CSR_PRINT writes are only recorded
  // Called about every progress_interval seconds while the launch runs, from a simulating
  // thread (keep it short); empty: never.
  ProgressHandler on_progress;
  double progress_interval = 0.5;
  // A stop request ends the launch at the next warp switch (within schedule_quantum warp
  // instructions per SM) with the fault "launch cancelled by the host".
  std::stop_token cancel;
  // Not null: run the cycle model with this configuration (docs/timing.md). The SMs then
  // advance together cycle by cycle, and every instruction takes effect in simulated time.
  const timing::Config* timing = nullptr;
  // With timing: receives the launch's timeline (--timeline); null: none is recorded.
  timing::TimelineSink* timeline = nullptr;
  // Not null: check every access against it (Memcheck); null: no check and no cost.
  const Memcheck* memcheck = nullptr;
  // Unset: jit_mode_from_environment(). Traced and timed launches always interpret.
  std::optional<JitMode> jit;
};

// Device memory: a sparse 32-bit address space of 4 KiB pages. Only mapped pages can be
// accessed; everything else faults. Local memory (the LDS window) is per SM and not part
// of this space.
class Memory {
 public:
  Memory();
  ~Memory();
  Memory(const Memory&) = delete;
  Memory& operator=(const Memory&) = delete;

  // Maps [base, base+size) (rounded out to pages), zero-filled where not mapped before.
  // map and unmap change the page table without atomic read-modify-writes: call them only
  // while no launch runs (the driver does so between launches).
  void map(uint32_t base, uint64_t size);
  void unmap(uint32_t base, uint64_t size);
  bool is_mapped(uint32_t addr, uint64_t size) const;
  // Host access; false (and no partial effect) when any byte is unmapped.
  bool write(uint32_t addr, const void* src, uint64_t size);
  bool read(uint32_t addr, void* dst, uint64_t size) const;
  // Page pointer for the simulator's fast path (nullptr if unmapped). Only for reading:
  // a mapped page nothing has written yet is the shared zero page.
  const uint8_t* page(uint32_t addr) const {
    return pages_[addr >> kPageShift].load(std::memory_order_acquire);
  }
  // Page pointer for writing (nullptr if unmapped): gives the page its own memory on the
  // first write, so mapping a large allocation costs nothing until it is used.
  uint8_t* writable_page(uint32_t addr) {
    uint8_t* p = pages_[addr >> kPageShift].load(std::memory_order_acquire);
    return p == zero_page() ? materialize(addr >> kPageShift) : p;
  }
  // Whether `page` (from page()) is the shared zero page of mapped pages nothing wrote yet.
  static bool is_zero_page(const uint8_t* page) { return page == zero_page(); }
  // What page() reads, by page number (2^(32 - kPageShift) entries): translated code gathers loads'
  // pages from it (sim::PageCache::global_pages).
  const std::atomic<uint8_t*>* page_table() const { return pages_.get(); }
  uint64_t mapped_bytes() const;

  // Read-only ranges (the loaded program's code and read-only data): kernel stores into
  // them fault; host writes (write()) still work. Unmapping a page drops the ranges on it.
  void protect(uint32_t base, uint64_t size, std::string name);
  // Whether the page of addr holds any read-only byte (the stores' fast check).
  bool page_has_read_only(uint32_t addr) const {
    return (read_only_pages_[addr >> (kPageShift + 6)] >> ((addr >> kPageShift) & 63)) & 1;
  }
  // The read-only range that [addr, addr + size) touches, if any.
  struct ReadOnlyRange {
    uint32_t base = 0;
    uint64_t end = 0;
    std::string name;
  };
  const ReadOnlyRange* read_only_range(uint32_t addr, uint64_t size) const;
  // Whether every byte of [addr, addr + size) is read-only.
  bool is_read_only(uint32_t addr, uint64_t size) const;
  // Changes whenever read-only memory may have changed (a host write into it, a new or a
  // dropped range): decoded read-only code stays valid while this stays the same.
  uint64_t read_only_generation() const {
    return read_only_generation_.load(std::memory_order_acquire);
  }

 private:
  static uint8_t* zero_page();
  uint8_t* materialize(uint32_t page_number);
  void forget_read_only(uint32_t first_page, uint32_t last_page);
  std::unique_ptr<std::atomic<uint8_t*>[]> pages_;  // one per page
  std::unique_ptr<uint64_t[]> read_only_pages_;     // a bit per page: it has a read-only range
  std::vector<ReadOnlyRange> read_only_;
  std::atomic<uint64_t> read_only_generation_{0};
};

class Device {
 public:
  explicit Device(const DeviceConfig& config = {});
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  const DeviceConfig& config() const;
  Memory& memory();
  // Runs the launch to completion (or to its first fault, or until options.cancel asks it to
  // stop). The device and the rest of memory stay usable after a fault. A launch that
  // check_launch refuses ends at once with that fault. Decoded read-only code is kept
  // across launches, everything else is decoded afresh (docs/simulator.md, "Decoding and
  // the decode cache").
  LaunchResult run(const KernelLaunch& launch, const RunOptions& options = {});

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ventus::sim
