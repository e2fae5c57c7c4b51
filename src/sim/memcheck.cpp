// The memory checker (memcheck.h).
#include "memcheck.h"

#include <fmt/format.h>

#include <algorithm>

#include "memsys.h"
#include "sm.h"

namespace ventus::sim {
namespace {

static_assert(MemcheckError::kWarpAccess == MemorySystem::kScalarLane);

const char* space_name(MemorySpace space) {
  switch (space) {
    case MemorySpace::global: return "global";
    case MemorySpace::local: return "local";
    case MemorySpace::private_: return "private";
  }
  return "?";
}

bool inside(uint32_t address, uint64_t size, uint64_t base, uint64_t bytes) {
  return address >= base && address + size <= base + bytes;
}

// Where [address, address + size) lies relative to [base, base + bytes), which `range`
// names: "4 bytes after the end of <range>", "8 bytes before the start of <range>", or
// "partly outside <range>".
std::string relation(uint32_t address, uint64_t size, uint64_t base, uint64_t bytes,
                     const std::string& range) {
  if (address >= base + bytes)
    return fmt::format("{} bytes after the end of {}", address - (base + bytes), range);
  if (address + size <= base)
    return fmt::format("{} bytes before the start of {}", base - address, range);
  return "partly outside " + range;
}

std::string allocation_name(const MemcheckRange& r) {
  if (r.name.empty()) return fmt::format("the {}-byte allocation at {:#010x}", r.size, r.base);
  return fmt::format("the program's section {} ({} bytes at {:#010x})", r.name, r.size, r.base);
}

}  // namespace

void Memcheck::read_knl(const Memory& memory, uint32_t knl_address) {
  uint32_t knl[abi::kKnlWords] = {};
  if (uint64_t{knl_address} + sizeof knl > (uint64_t{1} << 32) ||
      !memory.read(knl_address, knl, sizeof knl))
    return;
  for (int d = 0; d < 3; ++d) {
    local_size[d] = knl[abi::knl::LOCAL_SIZE + d];
    global_offset[d] = knl[abi::knl::GLOBAL_OFFSET + d];
  }
}

MemcheckLaunch::MemcheckLaunch(const Memcheck& config, const KernelLaunch& launch)
    : config_(config), launch_(launch), allocations_(config.allocations) {
  std::sort(allocations_.begin(), allocations_.end(),
            [](const MemcheckRange& a, const MemcheckRange& b) { return a.base < b.base; });
}

void MemcheckLaunch::add(MemcheckError error) {
  count_.fetch_add(1, std::memory_order_relaxed);
  std::lock_guard lock(mutex_);
  if (errors_.size() < config_.max_errors) errors_.push_back(std::move(error));
}

void MemcheckLaunch::finish(LaunchResult& result) {
  result.memcheck_error_count = count_.load();
  if (result.memcheck_error_count == 0) return;
  // SMs on several host threads add in any order; within a warp, in program order.
  std::stable_sort(errors_.begin(), errors_.end(),
                   [](const MemcheckError& a, const MemcheckError& b) {
                     const Fault &x = a.where, &y = b.where;
                     return std::tie(x.workgroup[2], x.workgroup[1], x.workgroup[0], x.warp) <
                            std::tie(y.workgroup[2], y.workgroup[1], y.workgroup[0], y.warp);
                   });
  result.memcheck_errors = std::move(errors_);
  if (result.memcheck_errors.empty()) {  // max_errors 0: only counted
    Fault f;
    f.kernel = launch_.kernel_name;
    f.at_warp = false;
    f.message =
        fmt::format("memcheck: {} invalid accesses, none listed (Memcheck::max_errors is 0)",
                    result.memcheck_error_count);
    if (result.fault) f.message += "\nthen the launch stopped: " + result.fault->describe();
    result.fault = std::move(f);
    return;
  }
  Fault summary = result.memcheck_errors.front().where;
  summary.message = "memcheck: " + summary.message;
  const uint64_t count = result.memcheck_error_count;
  const size_t listed = result.memcheck_errors.size();
  if (count > 1) summary.message += fmt::format("; {} invalid accesses in all", count);
  for (size_t i = 1; i < listed; ++i)
    summary.message += "\n  " + result.memcheck_errors[i].where.describe();
  if (count > listed)
    summary.message += fmt::format("\n  ... and {} more, not listed (Memcheck::max_errors is {})",
                                   count - listed, config_.max_errors);
  if (result.fault) summary.message += "\nthen the launch stopped: " + result.fault->describe();
  result.fault = std::move(summary);
}

bool Memchecker::in_local_memory(const Exec& ctx, uint32_t address, uint64_t size) const {
  return inside(address, size, ctx.warp.csr_lds, launch_.launch().lds_bytes);
}

bool Memchecker::in_an_allocation(uint32_t address, uint64_t size) {
  const std::vector<MemcheckRange>& all = launch_.allocations();
  if (last_hit_ < all.size() && inside(address, size, all[last_hit_].base, all[last_hit_].size))
    return true;
  const auto after =
      std::upper_bound(all.begin(), all.end(), address,
                       [](uint32_t a, const MemcheckRange& r) { return a < r.base; });
  if (after == all.begin() ||
      !inside(address, size, std::prev(after)->base, std::prev(after)->size))
    return false;
  last_hit_ = static_cast<size_t>(std::prev(after) - all.begin());
  return true;
}

bool Memchecker::covers(const Exec& ctx, uint32_t first, uint64_t end) {
  const bool local = first >= kLdsWindowBase && first < kLdsWindowEnd;
  return local ? in_local_memory(ctx, first, end - first) : in_an_allocation(first, end - first);
}

void Memchecker::data(const Exec& ctx, uint32_t address, uint64_t size, bool store, unsigned lane) {
  if (address >= kLdsWindowBase && address < kLdsWindowEnd) {
    if (in_local_memory(ctx, address, size)) return;
    const uint32_t base = ctx.warp.csr_lds;
    const uint64_t bytes = launch_.launch().lds_bytes;
    report(ctx, MemorySpace::local, address, size, store, lane,
           relation(address, size, base, bytes,
                    fmt::format("the workgroup's {}-byte local memory at {:#010x}", bytes, base)));
    return;
  }
  if (in_an_allocation(address, size)) return;
  report(ctx, MemorySpace::global, address, size, store, lane, outside_allocations(address, size));
}

void Memchecker::private_access(const Exec& ctx, uint32_t a, unsigned size, bool store,
                                unsigned lane) {
  const uint32_t bytes = launch_.launch().pds_bytes_per_thread;
  if (inside(a, size, 0, bytes)) return;
  report(ctx, MemorySpace::private_, a, size, store, lane,
         bytes == 0 ? std::string("the launch has no private memory")
                    : relation(a, size, 0, bytes,
                               fmt::format("the thread's {}-byte private memory", bytes)));
}

std::string Memchecker::outside_allocations(uint32_t address, uint64_t size) {
  std::string freed;
  for (const MemcheckRange& r : launch_.config().freed)
    if (address < r.base + r.size && address + size > r.base)
      freed = fmt::format("in the freed {}-byte allocation at {:#010x}; ", r.size, r.base);
  const std::vector<MemcheckRange>& all = launch_.allocations();
  if (all.empty()) return freed + "no allocation exists";
  const auto after =
      std::upper_bound(all.begin(), all.end(), address,
                       [](uint32_t a, const MemcheckRange& r) { return a < r.base; });
  // The nearer of the allocation before the access (which it may overlap) and the one after.
  const MemcheckRange* nearest = nullptr;
  if (after != all.begin()) nearest = &*std::prev(after);
  if (after != all.end()) {
    const int64_t to_next = int64_t{after->base} - int64_t(address + size);
    if (!nearest || to_next < int64_t{address} - int64_t(nearest->base + nearest->size))
      nearest = &*after;
  }
  return freed + relation(address, size, nearest->base, nearest->size, allocation_name(*nearest));
}

void Memchecker::report(const Exec& ctx, MemorySpace space, uint32_t address, uint64_t size,
                        bool store, unsigned lane, const std::string& what) {
  const Warp& w = ctx.warp;
  const Memcheck& c = launch_.config();
  MemcheckError e;
  e.space = space;
  e.store = store;
  e.size = static_cast<uint32_t>(size);
  e.address = address;
  e.lane = lane;
  Fault& f = e.where;
  f.kernel = launch_.launch().kernel_name;
  for (int d = 0; d < 3; ++d) f.workgroup[d] = w.csr_gid[d];
  f.warp = w.warp_in_group;
  f.sm = sm_;
  f.pc = ctx.pc;
  describe_instruction(memory_, ctx.pc, f);
  std::string who;
  if (lane == MemcheckError::kWarpAccess) {
    who = fmt::format("warp {} (a scalar access)", w.warp_in_group);
  } else {
    e.local_linear = w.warp_in_group * w.lanes + lane;
    if (c.local_size[0] != 0 && c.local_size[1] != 0 && c.local_size[2] != 0) {
      const uint32_t local[3] = {e.local_linear % c.local_size[0],
                                 e.local_linear / c.local_size[0] % c.local_size[1],
                                 e.local_linear / (c.local_size[0] * c.local_size[1])};
      uint32_t global[3];
      for (int d = 0; d < 3; ++d)
        global[d] = c.global_offset[d] + w.csr_gid[d] * c.local_size[d] + local[d];
      who = fmt::format("work-item ({},{},{}) (thread {} of warp {}, local ({},{},{}))", global[0],
                        global[1], global[2], lane, w.warp_in_group, local[0], local[1], local[2]);
    } else {
      who =
          fmt::format("thread {} of warp {} (local id {})", lane, w.warp_in_group, e.local_linear);
    }
  }
  f.message =
      fmt::format("invalid {} {} of {} bytes at {}{:#010x} by {}: {}", space_name(space),
                  store ? "write" : "read", size,
                  space == MemorySpace::private_ ? "private address " : "", address, who, what);
  launch_.add(std::move(e));
}

}  // namespace ventus::sim
