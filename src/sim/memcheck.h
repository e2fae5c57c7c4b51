// The memory checker of a launch (RunOptions::memcheck; docs/simulator.md, "Memory
// checking"). The memory system (memsys.h) calls an SM's Memchecker for every access while
// the checker is on; with it off, each access costs one not-taken branch.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

#include "ventus/device.h"
#include "warp.h"

namespace ventus::sim {

// What all SMs of one checked launch share: the allocations, sorted, and the errors found.
class MemcheckLaunch {
 public:
  MemcheckLaunch(const Memcheck& config, const KernelLaunch& launch);
  const Memcheck& config() const { return config_; }
  const KernelLaunch& launch() const { return launch_; }
  // Sorted by base.
  const std::vector<MemcheckRange>& allocations() const { return allocations_; }
  // Records one error (kept while fewer than max_errors are).
  void add(MemcheckError error);
  // Moves the errors into the result; a launch with any ends with the fault of the first
  // one (in workgroup, warp and lane order), whose message lists the others and any fault
  // that stopped the launch.
  void finish(LaunchResult& result);

 private:
  const Memcheck& config_;
  const KernelLaunch& launch_;
  std::vector<MemcheckRange> allocations_;
  std::mutex mutex_;
  std::vector<MemcheckError> errors_;
  std::atomic<uint64_t> count_{0};
};

// One SM's checker.
class Memchecker {
 public:
  Memchecker(MemcheckLaunch& launch, const Memory& memory, uint32_t sm)
      : launch_(launch), memory_(memory), sm_(sm) {}
  // An access of `size` bytes at device address `address` by `lane` (kWarpAccess: the
  // warp) of the instruction `ctx` executes: the LDS window is local memory, everything
  // else global.
  void data(const Exec& ctx, uint32_t address, uint64_t size, bool store, unsigned lane);
  // Whether [first, end) lies inside one allocation (global) or the workgroup's local
  // memory (the LDS window): then every access within it is valid.
  bool covers(const Exec& ctx, uint32_t first, uint64_t end);
  // An access at private address `a` of thread `lane`.
  void private_access(const Exec& ctx, uint32_t a, unsigned size, bool store, unsigned lane);

 private:
  bool in_local_memory(const Exec& ctx, uint32_t address, uint64_t size) const;
  bool in_an_allocation(uint32_t address, uint64_t size);
  void report(const Exec& ctx, MemorySpace space, uint32_t address, uint64_t size, bool store,
              unsigned lane, const std::string& what);
  // Why [address, address + size) is not inside one allocation ("4 bytes after the end of
  // the 4096-byte allocation at 0x90001000"), or "" when it is.
  std::string outside_allocations(uint32_t address, uint64_t size);

  MemcheckLaunch& launch_;
  const Memory& memory_;
  uint32_t sm_;
  size_t last_hit_ = 0;  // the allocation the last global access lay in
};

}  // namespace ventus::sim
