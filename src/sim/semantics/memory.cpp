// Vector memory: the RVV loads and stores (unit-stride, strided, indexed) and the Ventus
// per-thread forms: the "12" series (flat addressing, vs1 + simm12), the "12D" series (flat
// addressing at a 64-bit address {vs1+1:vs1} + simm12), the private-memory series (vs1 +
// simm11, interleaved per thread) and the explicit global/local/private series (vs1 +
// simm10 in that space). Every access acts only on the active lanes
// (SIMT mask, vl, v0 when vm = 0). An instruction faults before it changes anything: loads
// collect all lanes first, stores translate all addresses first.
#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "memsys.h"
#include "semantics.h"
#include "vector_util.h"

namespace ventus::sim {
namespace {

// Data: scalar-style addressing (LDS window or global memory), the RVV forms. Flat: the
// guide's range check. Global/Local/Private: the explicit-space series.
enum class Space : uint8_t { Data, Flat, Global, Local, Private };

[[noreturn, gnu::cold, gnu::noinline]] void register_group_fault(unsigned reg, unsigned regs,
                                                                 const char* role) {
  fault(fmt::format("{} v{} is not a valid group of {} register(s)", role, reg, regs));
}
inline void check_registers(unsigned reg, unsigned regs, const char* role, unsigned align) {
  if (!vec::aligned_to(reg, align) || reg + regs > kNumVRegs) [[unlikely]]
    register_group_fault(reg, regs, role);
}

template <Space S>
inline uint8_t* translate(Exec& ctx, unsigned lane, uint32_t address, unsigned size, bool store) {
  if constexpr (S == Space::Data)
    return ctx.mem->data_pointer(address, size, store, lane);
  else if constexpr (S == Space::Flat)
    return ctx.mem->flat_pointer(address, size, store, lane);
  else if constexpr (S == Space::Global)
    return ctx.mem->global_pointer(ctx.warp, lane, address, size, store);
  else if constexpr (S == Space::Local)
    return ctx.mem->local_pointer(ctx.warp, lane, address, size, store);
  else
    return ctx.mem->private_pointer(ctx.warp, lane, address, size, store);
}

// Fault messages name the lane.
template <class F>
inline auto in_lane(unsigned lane, F&& f) {
  try {
    return f();
  } catch (const ExecFault& e) {
    throw ExecFault(fmt::format("thread {}: {}", lane, e.what()));
  }
}

// Calls f(lane) for every active lane in increasing order; a plain counted loop when the
// whole warp is active (the common case, which the compiler can unroll and vectorize).
template <class F>
inline void for_active(const Warp& w, uint32_t active, F&& f) {
  if (active == w.lane_mask) {
    for (unsigned lane = 0; lane < w.lanes; ++lane) f(lane);
    return;
  }
  for (uint32_t m = active; m; m &= m - 1) f(static_cast<unsigned>(__builtin_ctz(m)));
}

// The most registers one access moves: an LMUL=2 group, or 128 bits under PREFIX_MEMORY.
constexpr unsigned kMaxDataRegs = 4;

// Whether the space's accesses may not reach the LDS window (MemorySystem::page_span).
template <Space S>
constexpr bool kGlobalOnly = S == Space::Private || S == Space::Global;

// The device address lane `lane` touches for address a: private addresses are interleaved
// into global memory, global and local ones are relative to csr_gds / csr_lds.
template <Space S>
inline uint32_t physical(const Warp& w, unsigned lane, uint32_t a) {
  if constexpr (S == Space::Private)
    return w.csr_pds + (a & ~3u) * w.lanes + (a & 3u) + 4u * lane;
  else if constexpr (S == Space::Global)
    return a + w.csr_gds;
  else if constexpr (S == Space::Local)
    return a + w.csr_lds;
  else
    return a;
}

// Whether a device address of a span may take the fast path: it lies in the space the
// instruction addresses. (Flat null-window addresses go lane by lane and fault.)
template <Space S>
inline bool span_in_space(uint32_t address) {
  if constexpr (S == Space::Flat)
    return address >= kLdsBase;  // the local and global windows are contiguous up to 2^32 - 1
  else if constexpr (S == Space::Global)
    return in_global_window(address);
  else if constexpr (S == Space::Local)
    return in_local_window(address);
  else
    return true;
}

// The host memory behind the accesses of one register when they all lie in at most two
// consecutive mapped pages: [lo, low_last] at `low`, the rest at `high`.
struct Span {
  uint8_t* low = nullptr;
  uint8_t* high = nullptr;
  uint32_t lo = 0, low_last = 0;
  // No span, but each lane may take its page from the page cache (paged_pointers): aligned
  // accesses in the instruction's space with neither the commit log nor the memory checker
  // on, over more than two pages (a column of a matrix) or pages page_span refused.
  bool paged = false;
  explicit operator bool() const { return low != nullptr; }
  uint8_t* at(uint32_t a) const {
    return a <= low_last ? low + (a - lo) : high + (a - low_last - 1);
  }
};

// Whether aligned accesses from lo to hi + size may take the fast path. The commit log sees
// every lane's access; so does the memory checker, unless the span lies inside one allocation
// or the workgroup's local memory (private spans always go lane by lane: the checker bounds
// private addresses, not device addresses).
template <Space S>
inline bool span_allowed(Exec& ctx, uint32_t lo, uint32_t hi, unsigned size) {
  if (ctx.mem->log || !span_in_space<S>(lo) || !span_in_space<S>(hi)) return false;
  if (ctx.mem->memcheck) [[unlikely]]
    if (S == Space::Private || !ctx.mem->memcheck->covers(ctx, lo, uint64_t{hi} + size))
      return false;
  return true;
}

// The addresses of one register's active lanes, and their Span when they are aligned and lie
// in one or two pages (the common cases: consecutive words, rows that cross a page).
template <Space S, class Address>
inline Span gather_addresses(Exec& ctx, unsigned k, uint32_t active, unsigned size, bool store,
                             Address address, uint32_t* addr) {
  uint32_t lo = ~0u, hi = 0, bits = 0;
  for_active(ctx.warp, active, [&](unsigned lane) {
    const uint32_t a = physical<S>(ctx.warp, lane, address(k, lane));
    addr[lane] = a;
    lo = std::min(lo, a);
    hi = std::max(hi, a);
    bits |= a;
  });
  if ((bits & (size - 1)) != 0 || !span_allowed<S>(ctx, lo, hi, size)) return {};
  const Span paged{.paged = ctx.mem->memcheck == nullptr};
  const uint32_t last = hi + size - 1;  // aligned: no access crosses a page
  if ((lo >> kPageShift) == (last >> kPageShift)) {
    uint8_t* page = ctx.mem->page_span(lo, last, store, kGlobalOnly<S>);
    return page ? Span{page, nullptr, lo, last} : paged;
  }
  if ((last >> kPageShift) != (lo >> kPageShift) + 1) return paged;
  const uint32_t low_last = lo | (kPageSize - 1);
  uint8_t* low = ctx.mem->page_span(lo, low_last, store, kGlobalOnly<S>);
  uint8_t* high = low ? ctx.mem->page_span(low_last + 1, last, store, kGlobalOnly<S>) : nullptr;
  if (!high) return paged;
  return {low, high, lo, low_last};
}

// host[lane] for each active lane of a Span::paged access, from the page cache
// (MemorySystem::whole_page); false when a lane's page is not open to it whole (unmapped, in
// the null window, holding read-only data for a store): the caller goes lane by lane.
template <Space S>
inline bool paged_pointers(Exec& ctx, uint32_t active, bool store, const uint32_t* addr,
                           uint8_t** host) {
  for (uint32_t m = active; m; m &= m - 1) {
    const unsigned lane = static_cast<unsigned>(__builtin_ctz(m));
    uint8_t* page = ctx.mem->whole_page(addr[lane], store, kGlobalOnly<S>);
    if (!page) return false;
    host[lane] = page + (addr[lane] & (kPageSize - 1));
  }
  return true;
}

// v[vd + k][lane] = memory[address(k, lane)] for the `regs` registers of the group.
template <Space S, class Address>
void vector_load(Exec& ctx, unsigned vd, unsigned regs, unsigned size, bool is_signed,
                 uint32_t active, Address address, unsigned align = 0) {
  check_registers(vd, regs, "vd", align ? align : regs);
  Warp& w = ctx.warp;
  uint32_t loaded[kMaxDataRegs][kMaxLanes];
  for (unsigned k = 0; k < regs; ++k) {
    uint32_t addr[kMaxLanes];
    const Span span = gather_addresses<S>(ctx, k, active, size, false, address, addr);
    if (span) {
      if (size == 4) {  // the common case: one move per lane, nothing to extend
        for_active(w, active,
                   [&](unsigned lane) { loaded[k][lane] = load_bytes(span.at(addr[lane]), 4); });
        continue;
      }
      for_active(w, active, [&](unsigned lane) {
        const uint32_t raw = load_bytes(span.at(addr[lane]), size);
        loaded[k][lane] = is_signed ? sign_extend(raw, size) : raw;
      });
      continue;
    }
    if (uint8_t * host[kMaxLanes];
        span.paged && paged_pointers<S>(ctx, active, false, addr, host)) {
      for_active(w, active, [&](unsigned lane) {
        const uint32_t raw = load_bytes(host[lane], size);
        loaded[k][lane] = is_signed ? sign_extend(raw, size) : raw;
      });
      continue;
    }
    for (uint32_t m = active; m; m &= m - 1) {
      const unsigned lane = static_cast<unsigned>(__builtin_ctz(m));
      const uint32_t a = address(k, lane);
      const uint32_t raw =
          load_bytes(in_lane(lane, [&] { return translate<S>(ctx, lane, a, size, false); }), size);
      if (ctx.mem->log)
        ctx.mem->record(a, physical<S>(w, lane, a), raw, static_cast<uint8_t>(lane),
                        static_cast<uint8_t>(size), false);
      loaded[k][lane] = is_signed ? sign_extend(raw, size) : raw;
    }
  }
  for (unsigned k = 0; k < regs; ++k)
    for_active(w, active, [&](unsigned lane) { w.v[vd + k][lane] = loaded[k][lane]; });
}

// memory[address(k, lane)] = low `size` bytes of v[vs + k][lane].
template <Space S, class Address>
void vector_store(Exec& ctx, unsigned vs, unsigned regs, unsigned size, uint32_t active,
                  Address address, unsigned align = 0) {
  check_registers(vs, regs, "vs3", align ? align : regs);
  Warp& w = ctx.warp;
  uint8_t* where[kMaxDataRegs][kMaxLanes];
  for (unsigned k = 0; k < regs; ++k) {
    uint32_t addr[kMaxLanes];
    const Span span = gather_addresses<S>(ctx, k, active, size, true, address, addr);
    if (span) {
      for_active(w, active, [&](unsigned lane) { where[k][lane] = span.at(addr[lane]); });
      continue;
    }
    if (span.paged && paged_pointers<S>(ctx, active, true, addr, where[k])) continue;
    for (uint32_t m = active; m; m &= m - 1) {
      const unsigned lane = static_cast<unsigned>(__builtin_ctz(m));
      const uint32_t a = address(k, lane);
      where[k][lane] = in_lane(lane, [&] { return translate<S>(ctx, lane, a, size, true); });
    }
  }
  const uint32_t keep = size == 4 ? ~0u : (1u << (8 * size)) - 1;
  for (unsigned k = 0; k < regs; ++k)
    for_active(w, active, [&](unsigned lane) {
      const uint32_t value = w.v[vs + k][lane] & keep;
      store_bytes(where[k][lane], value, size);
      if (ctx.mem->log)
        ctx.mem->record(address(k, lane), physical<S>(w, lane, address(k, lane)), value,
                        static_cast<uint8_t>(lane), static_cast<uint8_t>(size), true);
    });
}

// Unit stride: element k*lanes + lane at rs1 + (k*lanes + lane) * size.
void unit_load(Exec& ctx, const Insn& in, unsigned size) {
  const uint32_t base = ctx.warp.x[in.rs1], lanes = ctx.warp.lanes;
  vector_load<Space::Data>(
      ctx, in.rd, ctx.warp.vcfg.lmul, size, false, ctx.active_lanes(in.vm),
      [&](unsigned k, unsigned lane) { return base + (k * lanes + lane) * size; });
}
void unit_store(Exec& ctx, const Insn& in, unsigned size) {
  const uint32_t base = ctx.warp.x[in.rs1], lanes = ctx.warp.lanes;
  vector_store<Space::Data>(
      ctx, in.rs3, ctx.warp.vcfg.lmul, size, ctx.active_lanes(in.vm),
      [&](unsigned k, unsigned lane) { return base + (k * lanes + lane) * size; });
}

// Strided: element j at rs1 + j * x[rs2].
void strided_load(Exec& ctx, const Insn& in, unsigned size) {
  const uint32_t base = ctx.warp.x[in.rs1], stride = ctx.warp.x[in.rs2], lanes = ctx.warp.lanes;
  vector_load<Space::Data>(
      ctx, in.rd, ctx.warp.vcfg.lmul, size, false, ctx.active_lanes(in.vm),
      [&](unsigned k, unsigned lane) { return base + (k * lanes + lane) * stride; });
}
void strided_store(Exec& ctx, const Insn& in, unsigned size) {
  const uint32_t base = ctx.warp.x[in.rs1], stride = ctx.warp.x[in.rs2], lanes = ctx.warp.lanes;
  vector_store<Space::Data>(
      ctx, in.rs3, ctx.warp.vcfg.lmul, size, ctx.active_lanes(in.vm),
      [&](unsigned k, unsigned lane) { return base + (k * lanes + lane) * stride; });
}

// Indexed: element at rs1 + the index (index_size bytes, zero-extended) of vs2; the data
// width is SEW, as in RVV.
void indexed_load(Exec& ctx, const Insn& in, unsigned index_size) {
  const Warp& w = ctx.warp;
  const uint32_t base = w.x[in.rs1];
  const uint32_t index_mask = index_size == 4 ? ~0u : (1u << (8 * index_size)) - 1;
  check_registers(in.rs2, w.vcfg.lmul, "vs2", w.vcfg.lmul);
  vector_load<Space::Data>(
      ctx, in.rd, w.vcfg.lmul, w.vcfg.sew / 8, false, ctx.active_lanes(in.vm),
      [&](unsigned k, unsigned lane) { return base + (w.v[in.rs2 + k][lane] & index_mask); });
}
void indexed_store(Exec& ctx, const Insn& in, unsigned index_size) {
  const Warp& w = ctx.warp;
  const uint32_t base = w.x[in.rs1];
  const uint32_t index_mask = index_size == 4 ? ~0u : (1u << (8 * index_size)) - 1;
  check_registers(in.rs2, w.vcfg.lmul, "vs2", w.vcfg.lmul);
  vector_store<Space::Data>(
      ctx, in.rs3, w.vcfg.lmul, w.vcfg.sew / 8, ctx.active_lanes(in.vm),
      [&](unsigned k, unsigned lane) { return base + (w.v[in.rs2 + k][lane] & index_mask); });
}

// Per-thread forms: address = vs1[lane] + imm, one register, SIMT-active lanes.
template <Space S>
void thread_load(Exec& ctx, const Insn& in, unsigned size, bool is_signed) {
  check_registers(in.rs1, 1, "vs1", 1);
  const uint32_t* vs1 = ctx.warp.v[in.rs1];
  const uint32_t offset = static_cast<uint32_t>(in.imm);
  vector_load<S>(ctx, in.rd, 1, size, is_signed, ctx.warp.mask,
                 [&](unsigned, unsigned lane) { return vs1[lane] + offset; });
}
template <Space S>
void thread_store(Exec& ctx, const Insn& in, unsigned size) {
  check_registers(in.rs1, 1, "vs1", 1);
  const uint32_t* vs1 = ctx.warp.v[in.rs1];
  const uint32_t offset = static_cast<uint32_t>(in.imm);
  vector_store<S>(ctx, in.rs2, 1, size, ctx.warp.mask,
                  [&](unsigned, unsigned lane) { return vs1[lane] + offset; });
}

// 12D: address = {v[vs1+1][lane] : v[vs1][lane]} + simm12, 64-bit; its high word must be zero
// (the device address space is 32 bits), then the flat range check applies.
template <bool Store>
inline auto pair_address(Exec& ctx, const Insn& in) {
  check_pair(in.rs1, "vs1", "v", isa::info(in.op).mnemonic);
  check_registers(in.rs1, 2, "vs1", 2);
  const uint32_t* lo = ctx.warp.v[in.rs1];
  const uint32_t* hi = ctx.warp.v[in.rs1 + 1];
  const uint64_t offset = static_cast<uint64_t>(int64_t{in.imm});
  return [lo, hi, offset](unsigned, unsigned lane) {
    const uint64_t a = ((uint64_t{hi[lane]} << 32) | lo[lane]) + offset;
    return in_lane(lane, [&] { return MemorySystem::device_address(a, Store); });
  };
}
void pair_load(Exec& ctx, const Insn& in, unsigned size, bool is_signed) {
  vector_load<Space::Flat>(ctx, in.rd, 1, size, is_signed, ctx.warp.mask,
                           pair_address<false>(ctx, in));
}
void pair_store(Exec& ctx, const Insn& in, unsigned size) {
  vector_store<Space::Flat>(ctx, in.rs2, 1, size, ctx.warp.mask, pair_address<true>(ctx, in));
}

// The per-thread load/store rows PREFIX_MEMORY applies to, as the prefix needs them.
struct ThreadRow {
  bool valid = false, store = false, is_signed = false, pair = false;
  unsigned size = 0;
  Space space = Space::Flat;
};

ThreadRow thread_row(isa::Op op) {
  using isa::Op;
  const auto load = [](unsigned size, bool is_signed, Space space, bool pair = false) {
    return ThreadRow{true, false, is_signed, pair, size, space};
  };
  const auto store = [](unsigned size, Space space, bool pair = false) {
    return ThreadRow{true, true, false, pair, size, space};
  };
#define VT_THREAD_ROWS(SUFFIX, SPACE, PAIR)                         \
  case Op::VLB##SUFFIX: return load(1, true, Space::SPACE, PAIR);   \
  case Op::VLH##SUFFIX: return load(2, true, Space::SPACE, PAIR);   \
  case Op::VLW##SUFFIX: return load(4, false, Space::SPACE, PAIR);  \
  case Op::VLBU##SUFFIX: return load(1, false, Space::SPACE, PAIR); \
  case Op::VLHU##SUFFIX: return load(2, false, Space::SPACE, PAIR); \
  case Op::VSB##SUFFIX: return store(1, Space::SPACE, PAIR);        \
  case Op::VSH##SUFFIX: return store(2, Space::SPACE, PAIR);        \
  case Op::VSW##SUFFIX: return store(4, Space::SPACE, PAIR);
  switch (op) {
    VT_THREAD_ROWS(12_V, Flat, false)
    VT_THREAD_ROWS(_V, Private, false)
    VT_THREAD_ROWS(12D_V, Flat, true)
    VT_THREAD_ROWS(_GLOBAL_V, Global, false)
    VT_THREAD_ROWS(_PRIVATE_V, Private, false)
    VT_THREAD_ROWS(_LOCAL_V, Local, false)
    default: return {};
  }
#undef VT_THREAD_ROWS
}

// Runs body.template operator()<S>() for the space S a per-thread access goes to.
template <class Body>
void with_space(Space space, Body&& body) {
  switch (space) {
    case Space::Global: body.template operator()<Space::Global>(); break;
    case Space::Local: body.template operator()<Space::Local>(); break;
    case Space::Private: body.template operator()<Space::Private>(); break;
    default: body.template operator()<Space::Flat>(); break;
  }
}

}  // namespace

bool is_thread_memory(isa::Op op) {
  return thread_row(op).valid;
}

// PREFIX_MEMORY: the space override (global a + csr_gds, local a + csr_lds, private the
// interleaved formula), mem_words consecutive words at a, a + 4, ... into / from
// registers r, r + 1, ..., and the 64-bit address {v[vs1+1]:v[vs1]} + offset.
void prefixed_thread_memory(Exec& ctx, const Insn& in) {
  const ThreadRow row = thread_row(in.op);
  const char* mnemonic = isa::info(in.op).mnemonic.data();
  const unsigned words = in.mem_words;
  if (words > 1 && row.size != 4)
    fault(fmt::format("a {}-bit PREFIX_MEMORY width needs a word load/store, not {}", 32 * words,
                      mnemonic));
  static constexpr Space kSpaces[4] = {Space::Flat, Space::Global, Space::Private, Space::Local};
  const Space space = in.mem_space ? kSpaces[in.mem_space] : row.space;
  const unsigned size = words > 1 ? 4 : row.size;
  const unsigned data = row.store ? in.rs2 : in.rd;
  if (data + words > kNumVRegs)
    fault(fmt::format("{}-bit data v{}..v{} goes beyond v{}", 32 * words, data, data + words - 1,
                      kNumVRegs - 1));
  const uint32_t offset = static_cast<uint32_t>(in.imm);
  uint32_t base[kMaxLanes] = {};
  if (row.pair || in.mem_pair) {
    check_pair(in.rs1, "vs1", "v", mnemonic);
    check_registers(in.rs1, 2, "vs1", 2);
    const uint32_t* lo = ctx.warp.v[in.rs1];
    const uint32_t* hi = ctx.warp.v[in.rs1 + 1];
    for_active(ctx.warp, ctx.warp.mask, [&](unsigned lane) {
      const uint64_t a = ((uint64_t{hi[lane]} << 32) | lo[lane]) + int64_t{in.imm};
      base[lane] = in_lane(lane, [&] { return MemorySystem::device_address(a, row.store); });
    });
  } else {
    check_registers(in.rs1, 1, "vs1", 1);
    for_active(ctx.warp, ctx.warp.mask,
               [&](unsigned lane) { base[lane] = ctx.warp.v[in.rs1][lane] + offset; });
  }
  const auto address = [&](unsigned k, unsigned lane) { return base[lane] + 4 * k; };
  with_space(space, [&]<Space S>() {
    if (row.store)
      vector_store<S>(ctx, data, words, size, ctx.warp.mask, address, 1);
    else
      vector_load<S>(ctx, data, words, size, row.is_signed, ctx.warp.mask, address, 1);
  });
}

uint8_t* thread_span(Exec& ctx, uint32_t lo, uint32_t hi, unsigned size, bool store,
                     bool private_space) noexcept {
  if (((lo | hi) & (size - 1)) != 0 || (lo >> kPageShift) != (hi >> kPageShift)) return nullptr;
  if (private_space ? !span_allowed<Space::Private>(ctx, lo, hi, size)
                    : !span_allowed<Space::Flat>(ctx, lo, hi, size))
    return nullptr;
  try {
    // Through whole_page's cache, which translated code looks up itself next time.
    if (!ctx.mem->log && !ctx.mem->memcheck)
      if (uint8_t* page = ctx.mem->whole_page(lo, store, private_space))
        return page + (lo & (kPageSize - 1));
    return ctx.mem->page_span(lo, hi + size - 1, store, private_space);
  } catch (...) {  // no memory for the page: the semantics report it
    return nullptr;
  }
}

bool thread_pointers(Exec& ctx, const uint32_t* address, uint32_t active, unsigned size, bool store,
                     bool private_space, uint8_t** host) noexcept {
  if (ctx.mem->log || ctx.mem->memcheck) return false;
  uint32_t page = 0;
  uint8_t* base = nullptr;  // of page
  try {
    for (uint32_t left = active; left != 0; left &= left - 1) {
      const unsigned lane = static_cast<unsigned>(std::countr_zero(left));
      const uint32_t a = address[lane];
      if ((a & (size - 1)) != 0 || (!private_space && !span_in_space<Space::Flat>(a))) return false;
      if (!base || (a >> kPageShift) != page) {
        page = a >> kPageShift;
        base = ctx.mem->whole_page(a, store, private_space);
        if (!base) return false;
      }
      host[lane] = base + (a & (kPageSize - 1));
    }
  } catch (...) {  // no memory for a page: the semantics report it
    return false;
  }
  return true;
}

VT_SEM(VLE8_V) {
  unit_load(ctx, in, 1);
}
VT_SEM(VLE16_V) {
  unit_load(ctx, in, 2);
}
VT_SEM(VLE32_V) {
  unit_load(ctx, in, 4);
}
VT_SEM(VSE8_V) {
  unit_store(ctx, in, 1);
}
VT_SEM(VSE16_V) {
  unit_store(ctx, in, 2);
}
VT_SEM(VSE32_V) {
  unit_store(ctx, in, 4);
}
VT_SEM(VLSE8_V) {
  strided_load(ctx, in, 1);
}
VT_SEM(VLSE16_V) {
  strided_load(ctx, in, 2);
}
VT_SEM(VLSE32_V) {
  strided_load(ctx, in, 4);
}
VT_SEM(VSSE8_V) {
  strided_store(ctx, in, 1);
}
VT_SEM(VSSE16_V) {
  strided_store(ctx, in, 2);
}
VT_SEM(VSSE32_V) {
  strided_store(ctx, in, 4);
}
// Ordered and unordered indexed forms are the same here: lanes are accessed in order.
VT_SEM(VLUXEI8_V) {
  indexed_load(ctx, in, 1);
}
VT_SEM(VLUXEI16_V) {
  indexed_load(ctx, in, 2);
}
VT_SEM(VLUXEI32_V) {
  indexed_load(ctx, in, 4);
}
VT_SEM(VLOXEI8_V) {
  indexed_load(ctx, in, 1);
}
VT_SEM(VLOXEI16_V) {
  indexed_load(ctx, in, 2);
}
VT_SEM(VLOXEI32_V) {
  indexed_load(ctx, in, 4);
}
VT_SEM(VSUXEI8_V) {
  indexed_store(ctx, in, 1);
}
VT_SEM(VSUXEI16_V) {
  indexed_store(ctx, in, 2);
}
VT_SEM(VSUXEI32_V) {
  indexed_store(ctx, in, 4);
}
VT_SEM(VSOXEI8_V) {
  indexed_store(ctx, in, 1);
}
VT_SEM(VSOXEI16_V) {
  indexed_store(ctx, in, 2);
}
VT_SEM(VSOXEI32_V) {
  indexed_store(ctx, in, 4);
}

VT_SEM(VLB12_V) {
  thread_load<Space::Flat>(ctx, in, 1, true);
}
VT_SEM(VLH12_V) {
  thread_load<Space::Flat>(ctx, in, 2, true);
}
VT_SEM(VLW12_V) {
  thread_load<Space::Flat>(ctx, in, 4, false);
}
VT_SEM(VLBU12_V) {
  thread_load<Space::Flat>(ctx, in, 1, false);
}
VT_SEM(VLHU12_V) {
  thread_load<Space::Flat>(ctx, in, 2, false);
}
VT_SEM(VSB12_V) {
  thread_store<Space::Flat>(ctx, in, 1);
}
VT_SEM(VSH12_V) {
  thread_store<Space::Flat>(ctx, in, 2);
}
VT_SEM(VSW12_V) {
  thread_store<Space::Flat>(ctx, in, 4);
}

VT_SEM(VLB_V) {
  thread_load<Space::Private>(ctx, in, 1, true);
}
VT_SEM(VLH_V) {
  thread_load<Space::Private>(ctx, in, 2, true);
}
VT_SEM(VLW_V) {
  thread_load<Space::Private>(ctx, in, 4, false);
}
VT_SEM(VLBU_V) {
  thread_load<Space::Private>(ctx, in, 1, false);
}
VT_SEM(VLHU_V) {
  thread_load<Space::Private>(ctx, in, 2, false);
}
VT_SEM(VSB_V) {
  thread_store<Space::Private>(ctx, in, 1);
}
VT_SEM(VSH_V) {
  thread_store<Space::Private>(ctx, in, 2);
}
VT_SEM(VSW_V) {
  thread_store<Space::Private>(ctx, in, 4);
}

VT_SEM(VLB12D_V) {
  pair_load(ctx, in, 1, true);
}
VT_SEM(VLH12D_V) {
  pair_load(ctx, in, 2, true);
}
VT_SEM(VLW12D_V) {
  pair_load(ctx, in, 4, false);
}
VT_SEM(VLBU12D_V) {
  pair_load(ctx, in, 1, false);
}
VT_SEM(VLHU12D_V) {
  pair_load(ctx, in, 2, false);
}
VT_SEM(VSB12D_V) {
  pair_store(ctx, in, 1);
}
VT_SEM(VSH12D_V) {
  pair_store(ctx, in, 2);
}
VT_SEM(VSW12D_V) {
  pair_store(ctx, in, 4);
}

#define VT_SPACE_SEMANTICS(SP, SPACE)                                     \
  VT_SEM(VLB_##SP##_V) { thread_load<Space::SPACE>(ctx, in, 1, true); }   \
  VT_SEM(VLH_##SP##_V) { thread_load<Space::SPACE>(ctx, in, 2, true); }   \
  VT_SEM(VLW_##SP##_V) { thread_load<Space::SPACE>(ctx, in, 4, false); }  \
  VT_SEM(VLBU_##SP##_V) { thread_load<Space::SPACE>(ctx, in, 1, false); } \
  VT_SEM(VLHU_##SP##_V) { thread_load<Space::SPACE>(ctx, in, 2, false); } \
  VT_SEM(VSB_##SP##_V) { thread_store<Space::SPACE>(ctx, in, 1); }        \
  VT_SEM(VSH_##SP##_V) { thread_store<Space::SPACE>(ctx, in, 2); }        \
  VT_SEM(VSW_##SP##_V) { thread_store<Space::SPACE>(ctx, in, 4); }
VT_SPACE_SEMANTICS(GLOBAL, Global)
VT_SPACE_SEMANTICS(LOCAL, Local)
VT_SPACE_SEMANTICS(PRIVATE, Private)
#undef VT_SPACE_SEMANTICS

}  // namespace ventus::sim
