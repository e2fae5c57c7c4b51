// Asynchronous copies from global into local memory: cp_dma (per thread, 4/8/16 bytes with
// zero fill), cp_dma_bulk (a warp-level block copy), cp_dma_tensor (a warp-level box of a
// tiled tensor, modelled on CUDA's tiled tensor maps) and cp_dma_mbarrier, which completes
// them. A copy reads its source and checks every parameter when it is issued, and is queued
// on the warp (Warp::async_copies); its destination is written only when the warp's
// cp_dma_mbarrier completes it, so a program observes the data only through the mbarrier.
// docs/isa.md ("Asynchronous copies") and docs/simulator.md describe the model.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstring>

#include "memsys.h"
#include "semantics.h"

namespace ventus::sim {
namespace {

// Copies n bytes of global memory at `address` (any alignment) into out.
void read_global(Exec& ctx, uint32_t address, uint32_t n, uint8_t* out, const char* what) {
  if (n == 0) return;
  const uint64_t end = uint64_t{address} + n;
  if (end > (uint64_t{1} << 32))
    fault(fmt::format("{}: source {:#010x} + {} bytes wraps around the address space", what,
                      address, n));
  if (address < kLdsWindowEnd && end > kLdsWindowBase)
    fault(
        fmt::format("{}: source {:#010x}..{:#010x} lies in the local-memory window "
                    "[{:#010x}, {:#010x}); asynchronous copies read global memory",
                    what, address, end - 1, kLdsWindowBase, kLdsWindowEnd));
  ctx.mem->check_range(address, n, false);
  try {
    while (n > 0) {
      const uint32_t chunk = std::min<uint32_t>(n, kPageSize - (address & (kPageSize - 1)));
      std::memcpy(out, ctx.mem->data_pointer(address, 1, false), chunk);
      address += chunk;
      out += chunk;
      n -= chunk;
    }
  } catch (const ExecFault& e) {
    throw ExecFault(fmt::format("{}: {}", what, e.what()));
  }
}

// The LDS-window address of local offset `offset`, checked so that `bytes` bytes from it lie
// inside the window (the destination is then always writable when the copy completes).
uint32_t local_destination(const Exec& ctx, uint32_t offset, uint64_t bytes, const char* what) {
  const uint64_t start = uint64_t{ctx.warp.csr_lds} + offset;
  if (start + bytes > kLdsWindowEnd)
    fault(
        fmt::format("{}: destination csr_lds {:#010x} + offset {:#x} + {} bytes ends beyond the "
                    "local-memory window [{:#010x}, {:#010x})",
                    what, ctx.warp.csr_lds, offset, bytes, kLdsWindowBase, kLdsWindowEnd));
  if (bytes != 0) ctx.mem->check_range(static_cast<uint32_t>(start), bytes, true);
  return static_cast<uint32_t>(start);
}

void write_local(Exec& ctx, uint32_t address, const uint8_t* data, uint32_t n) {
  while (n > 0) {
    const uint32_t chunk = std::min<uint32_t>(n, kPageSize - (address & (kPageSize - 1)));
    std::memcpy(ctx.mem->data_pointer(address, 1, true), data, chunk);
    address += chunk;
    data += chunk;
    n -= chunk;
  }
}

// Where byte `offset` of a tile lands under a swizzle mask (1, 3, 7 for 32B, 64B, 128B):
// its 16-byte chunk index, bits [6:4], is XORed with the 128-byte row index, bits [9:7].
constexpr uint32_t swizzled(uint32_t offset, uint32_t mask) {
  return offset ^ (((offset >> 7) & mask) << 4);
}

void complete(Exec& ctx, const AsyncCopy& copy) {
  const uint32_t n = static_cast<uint32_t>(copy.bytes.size());
  if (copy.swizzle == 0) {
    write_local(ctx, copy.local_address, copy.bytes.data(), n);
    return;
  }
  // Chunk by chunk; a swizzle never moves bytes across 16-byte chunk boundaries.
  for (uint32_t o = 0; o < n; o += 16)
    write_local(ctx, copy.local_address + swizzled(o, copy.swizzle), copy.bytes.data() + o,
                std::min<uint32_t>(16, n - o));
}

// ---------------------------------------------------------------- cp_dma

void copy_per_thread(Exec& ctx, const Insn& in, uint32_t copy_size) {
  Warp& w = ctx.warp;
  const uint32_t active = ctx.active_lanes(1);
  // Check every lane before queueing any, so that a fault leaves the queue as it was.
  std::array<AsyncCopy, kMaxLanes> copies;
  unsigned count = 0;
  for (uint32_t m = active; m; m &= m - 1) {
    const unsigned lane = static_cast<unsigned>(__builtin_ctz(m));
    const uint32_t local = w.v[in.rs3][lane], source = w.v[in.rs1][lane],
                   src_size = w.v[in.rs2][lane];
    const std::string what = fmt::format("cp_dma.{} thread {}", copy_size, lane);
    if (src_size > copy_size)
      fault(fmt::format("{}: srcsize {} (v{}) exceeds the copy size {}", what, src_size, in.rs2,
                        copy_size));
    AsyncCopy& c = copies[count++];
    c.lane = static_cast<uint8_t>(lane);
    c.local_address = local_destination(ctx, local, copy_size, what.c_str());
    c.bytes.assign(copy_size, 0);  // bytes beyond srcsize are zero
    read_global(ctx, source, src_size, c.bytes.data(), what.c_str());
  }
  for (unsigned i = 0; i < count; ++i) w.async_copies.push_back(std::move(copies[i]));
}

// ---------------------------------------------------------------- cp_dma_tensor

enum class Interleave : uint32_t { None, Bytes16, Bytes32 };

struct DataType {
  const char* name;
  uint32_t size;  // bytes
  uint64_t nan;   // the quiet NaN of a floating-point type; 0 for integer types
  bool is_float;
};
// Codes as CUDA's CUtensorMapDataType (the FTZ and TF32 variants are not modelled).
constexpr DataType kDataTypes[] = {
    {"uint8", 1, 0, false},
    {"uint16", 2, 0, false},
    {"uint32", 4, 0, false},
    {"int32", 4, 0, false},
    {"uint64", 8, 0, false},
    {"int64", 8, 0, false},
    {"float16", 2, 0x7e00, true},
    {"float32", 4, 0x7fc00000, true},
    {"float64", 8, 0x7ff8000000000000, true},
    {"bfloat16", 2, 0x7fc0, true},
};
constexpr uint32_t kRankMax = 5;
constexpr uint32_t kTensorParams = 13, kBoxParams = 15;

// The parameters of a cp_dma_tensor, read from the lanes of vs1 and vs2: parameter k of a
// register operand r is lane k % T of register r + k / T (T threads per warp).
struct TensorCopy {
  uint32_t datatype, rank, global_address;
  uint32_t global_dim[kRankMax], global_stride[kRankMax];
  uint32_t box_address, box_dim[kRankMax], element_stride[kRankMax];
  uint32_t interleave, swizzle, l2_promotion, oob_fill;
};

uint32_t parameter(const Warp& w, unsigned reg, unsigned k) {
  return w.v[reg + k / w.lanes][k % w.lanes];
}

void check_parameter_registers(const Warp& w, unsigned reg, unsigned count, const char* role) {
  const unsigned regs = (count + w.lanes - 1) / w.lanes;
  if (reg + regs > kNumVRegs)
    fault(
        fmt::format("cp_dma_tensor: the {} parameters in {} need v{}..v{} with {} threads per "
                    "warp, beyond v{}",
                    count, role, reg, reg + regs - 1, w.lanes, kNumVRegs - 1));
}

TensorCopy read_parameters(const Warp& w, const Insn& in) {
  check_parameter_registers(w, in.rs1, kTensorParams, "vs1");
  check_parameter_registers(w, in.rs2, kBoxParams, "vs2");
  TensorCopy t;
  t.datatype = parameter(w, in.rs1, 0);
  t.rank = parameter(w, in.rs1, 1);
  t.global_address = parameter(w, in.rs1, 2);
  t.box_address = parameter(w, in.rs2, 0);
  for (unsigned k = 0; k < kRankMax; ++k) {
    t.global_dim[k] = parameter(w, in.rs1, 3 + k);
    t.global_stride[k] = parameter(w, in.rs1, 8 + k);
    t.box_dim[k] = parameter(w, in.rs2, 1 + k);
    t.element_stride[k] = parameter(w, in.rs2, 6 + k);
  }
  t.interleave = parameter(w, in.rs2, 11);
  t.swizzle = parameter(w, in.rs2, 12);
  t.l2_promotion = parameter(w, in.rs2, 13);
  t.oob_fill = parameter(w, in.rs2, 14);
  return t;
}

[[noreturn]] void bad(const std::string& why) {
  fault("cp_dma_tensor: " + why);
}

// Every limit of the parameter table; the fault names the parameter (1-based dimensions, as
// the guide numbers them).
void validate(const TensorCopy& t) {
  if (t.datatype >= std::size(kDataTypes))
    bad(fmt::format("datatype {} (vs1[0]) is not a data type code 0..{}", t.datatype,
                    std::size(kDataTypes) - 1));
  const DataType& type = kDataTypes[t.datatype];
  if (t.rank < 1 || t.rank > kRankMax)
    bad(fmt::format("tensorRank {} (vs1[1]) is not 1..5", t.rank));
  if (t.interleave > 2)
    bad(fmt::format("interleave {} (vs2[11]) is not 0 (none), 1 (16B) or 2 (32B)", t.interleave));
  if (t.swizzle > 3)
    bad(fmt::format("swizzle {} (vs2[12]) is not 0 (none), 1 (32B), 2 (64B) or 3 (128B)",
                    t.swizzle));
  if (t.l2_promotion > 3)
    bad(fmt::format("L2promotion {} (vs2[13]) is not 0 (none), 1 (64B), 2 (128B) or 3 (256B)",
                    t.l2_promotion));
  if (t.oob_fill > 1)
    bad(fmt::format("oobfill {} (vs2[14]) is not 0 (zero) or 1 (NaN)", t.oob_fill));
  if (t.oob_fill == 1 && !type.is_float)
    bad(fmt::format("oobfill 1 (NaN) needs a floating-point datatype, not {} ({})", type.name,
                    t.datatype));
  const auto interleave = static_cast<Interleave>(t.interleave);
  if (interleave != Interleave::None && t.rank < 3)
    bad(fmt::format("an interleaved tensor (interleave {}) needs tensorRank >= 3, not {}",
                    t.interleave, t.rank));
  if (interleave == Interleave::Bytes32 && t.swizzle != 1)
    bad(fmt::format("interleave 2 (32B) needs swizzle 1 (32B), not {}", t.swizzle));
  const uint32_t align = interleave == Interleave::Bytes32 ? 32 : 16;
  if (t.global_address % align != 0)
    bad(fmt::format("globalAddress {:#010x} (vs1[2]) is not {}-byte aligned", t.global_address,
                    align));
  // Dimension k + 1 starts no earlier than dimension k ends, so that a box address names one
  // element, and the whole tensor lies in the 32-bit address space.
  uint64_t extent = type.size;  // bytes spanned by dimensions 1..k
  for (unsigned k = 0; k < t.rank; ++k) {
    if (t.global_dim[k] == 0) bad(fmt::format("globalDim{} (vs1[{}]) is 0", k + 1, 3 + k));
    if (t.box_dim[k] == 0 || t.box_dim[k] > 256)
      bad(fmt::format("boxDim{} {} (vs2[{}]) is not 1..256", k + 1, t.box_dim[k], 1 + k));
    if (t.element_stride[k] == 0 || t.element_stride[k] > 8)
      bad(fmt::format("elementStrides{} {} (vs2[{}]) is not 1..8", k + 1, t.element_stride[k],
                      6 + k));
    extent *= t.global_dim[k];
    if (k + 1 < t.rank) {
      const uint32_t stride = t.global_stride[k];
      if (stride % align != 0)
        bad(fmt::format("globalStride{} {} (vs1[{}]) is not a multiple of {}", k + 1, stride, 8 + k,
                        align));
      if (stride < extent)
        bad(
            fmt::format("globalStride{} {} (vs1[{}], the stride of dimension {}) is smaller than "
                        "the {} bytes of dimensions 1..{}",
                        k + 1, stride, 8 + k, k + 2, extent, k + 1));
      extent = stride;
    }
  }
  if (t.global_address + extent > (uint64_t{1} << 32))
    bad(fmt::format("the tensor at {:#010x} ({} bytes) extends beyond the 32-bit address space",
                    t.global_address, extent));
  const uint32_t row_bytes = t.box_dim[0] * type.size;
  if (interleave == Interleave::None) {
    if (row_bytes % 16 != 0)
      bad(fmt::format("boxDim1 {} x {} bytes ({}) is not a multiple of 16 bytes", t.box_dim[0],
                      type.size, type.name));
    const uint32_t span = t.swizzle == 0 ? 0 : 16u << t.swizzle;
    if (span != 0 && row_bytes > span)
      bad(fmt::format("boxDim1 {} x {} bytes exceeds the {}-byte swizzle span", t.box_dim[0],
                      type.size, span));
  } else {
    const uint32_t vector = interleave == Interleave::Bytes16 ? 16 : 32;
    if (row_bytes != vector)
      bad(fmt::format("boxDim1 {} x {} bytes is not the {}-byte interleave vector", t.box_dim[0],
                      type.size, vector));
    if (t.element_stride[0] != 1)
      bad(fmt::format("elementStrides1 {} must be 1 for an interleaved tensor",
                      t.element_stride[0]));
  }
}

// The box's first element as tensor coordinates.
std::array<uint64_t, kRankMax> box_origin(const TensorCopy& t) {
  const uint32_t size = kDataTypes[t.datatype].size;
  if (t.box_address < t.global_address)
    bad(fmt::format("box address {:#010x} (vs2[0]) lies below globalAddress {:#010x}",
                    t.box_address, t.global_address));
  uint64_t offset = t.box_address - t.global_address;
  std::array<uint64_t, kRankMax> c{};
  for (unsigned k = t.rank; k-- > 1;) {
    c[k] = offset / t.global_stride[k - 1];
    offset %= t.global_stride[k - 1];
  }
  c[0] = offset / size;
  bool element = offset % size == 0;
  for (unsigned k = 0; k < t.rank; ++k) element = element && c[k] < t.global_dim[k];
  if (!element)
    bad(
        fmt::format("box address {:#010x} (vs2[0]) is not the address of an element of the "
                    "tensor (offset {:#x} from globalAddress)",
                    t.box_address, t.box_address - t.global_address));
  return c;
}

}  // namespace

VT_SEM(CP_DMA_4) {
  copy_per_thread(ctx, in, 4);
}
VT_SEM(CP_DMA_8) {
  copy_per_thread(ctx, in, 8);
}
VT_SEM(CP_DMA_16) {
  copy_per_thread(ctx, in, 16);
}

// cp_dma_bulk rs3, rs1, rs2: x[rs2] bytes from global x[rs1] to local offset x[rs3]. The guide
// gives the size as "4 to 2^32 - 4" and says it is "aligned to 16 bytes": the range wins for
// the size (a multiple of 4), the alignment applies to both addresses.
VT_SEM(CP_DMA_BULK) {
  Warp& w = ctx.warp;
  const uint32_t local = w.x[in.rs3], source = w.x[in.rs1], size = w.x[in.rs2];
  if (size == 0 || size % 4 != 0)
    fault(fmt::format("cp_dma_bulk: size {} ({}) is not a multiple of 4 in [4, 2^32 - 4]", size,
                      isa::xreg_abi_name(in.rs2)));
  if (source % 16 != 0)
    fault(fmt::format("cp_dma_bulk: source {:#010x} ({}) is not 16-byte aligned", source,
                      isa::xreg_abi_name(in.rs1)));
  if (local % 16 != 0)
    fault(fmt::format("cp_dma_bulk: destination offset {:#x} ({}) is not 16-byte aligned", local,
                      isa::xreg_abi_name(in.rs3)));
  AsyncCopy c;
  c.local_address = local_destination(ctx, local, size, "cp_dma_bulk");
  c.bytes.resize(size);
  read_global(ctx, source, size, c.bytes.data(), "cp_dma_bulk");
  w.async_copies.push_back(std::move(c));
}

// cp_dma_tensor rs3, vs1, vs2: the box of a tiled tensor into local offset x[rs3], densely in
// box order (dimension 1 fastest), optionally swizzled; elements outside the tensor are 0 or
// the datatype's NaN.
VT_SEM(CP_DMA_TENSOR) {
  Warp& w = ctx.warp;
  const TensorCopy t = read_parameters(w, in);
  validate(t);
  const DataType& type = kDataTypes[t.datatype];
  const std::array<uint64_t, kRankMax> origin = box_origin(t);
  const uint32_t local = w.x[in.rs3];
  const uint32_t align = t.swizzle == 0 ? 128 : 128u << t.swizzle;
  if (local % align != 0)
    bad(fmt::format("destination offset {:#x} ({}) is not {}-byte aligned{}", local,
                    isa::xreg_abi_name(in.rs3), align,
                    t.swizzle ? " (the swizzle pattern's repeat)" : ""));
  // Elements per dimension: the box traversed with the element strides.
  uint64_t count[kRankMax], elements = 1;
  for (unsigned k = 0; k < kRankMax; ++k) {
    count[k] = k < t.rank ? (t.box_dim[k] + t.element_stride[k] - 1) / t.element_stride[k] : 1;
    elements *= count[k];
  }
  const uint64_t bytes = elements * type.size;
  const uint32_t mask = t.swizzle == 0 ? 0 : (1u << t.swizzle) - 1;
  // A swizzle moves chunks within their 128-byte row; the last row may reach beyond `bytes`.
  uint64_t reach = bytes;
  if (mask != 0 && bytes <= kLdsWindowEnd - kLdsWindowBase)
    for (uint32_t o = static_cast<uint32_t>(bytes & ~uint64_t{127}); o < bytes; o += 16)
      reach = std::max<uint64_t>(reach, swizzled(o, mask) + std::min<uint64_t>(16, bytes - o));
  AsyncCopy c;
  c.swizzle = static_cast<uint8_t>(mask);
  c.local_address = local_destination(ctx, local, reach, "cp_dma_tensor");
  c.bytes.resize(bytes);
  // The out-of-bounds fill, little-endian: zero, or the datatype's quiet NaN.
  const uint64_t fill = t.oob_fill ? type.nan : 0;
  uint8_t* out = c.bytes.data();
  const auto fill_elements = [&](uint64_t n) {
    for (uint64_t i = 0; i < n; ++i, out += type.size) std::memcpy(out, &fill, type.size);
  };
  uint64_t stride[kRankMax] = {type.size, 0, 0, 0, 0};  // bytes between coordinates, per dim
  for (unsigned k = 1; k < t.rank; ++k) stride[k] = t.global_stride[k - 1];
  // One box row (dimension 1) per iteration of the outer dimensions.
  uint64_t i[kRankMax] = {};
  for (uint64_t row = 0; row < elements / count[0]; ++row) {
    bool inside = true;
    uint64_t address = t.global_address;
    for (unsigned k = 1; k < t.rank; ++k) {
      const uint64_t x = origin[k] + i[k] * t.element_stride[k];
      inside = inside && x < t.global_dim[k];
      address += x * stride[k];
    }
    if (!inside) {
      fill_elements(count[0]);
    } else if (t.element_stride[0] == 1) {
      const uint64_t valid = std::min<uint64_t>(count[0], t.global_dim[0] - origin[0]);
      read_global(ctx, static_cast<uint32_t>(address + origin[0] * type.size),
                  static_cast<uint32_t>(valid * type.size), out, "cp_dma_tensor");
      out += valid * type.size;
      fill_elements(count[0] - valid);
    } else {
      for (uint64_t e = 0; e < count[0]; ++e) {
        const uint64_t x = origin[0] + e * t.element_stride[0];
        if (x >= t.global_dim[0]) {
          fill_elements(1);
          continue;
        }
        read_global(ctx, static_cast<uint32_t>(address + x * type.size), type.size, out,
                    "cp_dma_tensor");
        out += type.size;
      }
    }
    for (unsigned k = 1; k < kRankMax && ++i[k] == count[k]; ++k) i[k] = 0;
  }
  w.async_copies.push_back(std::move(c));
}

// cp_dma_mbarrier: completes, in issue order, the warp's whole-warp copies and the per-thread
// copies of its active threads. Threads wait in groups of four (threads 4g..4g+3): a group
// whose threads are partly active could never proceed, since the SIMT stack runs its other
// threads only after this path goes on, so that is a fault.
VT_SEM(CP_DMA_MBARRIER) {
  Warp& w = ctx.warp;
  for (unsigned g = 0; g < w.lanes; g += 4) {
    const uint32_t group = (0xfu << g) & w.lane_mask;
    const uint32_t active = w.mask & group;
    if (active != 0 && active != group)
      fault(
          fmt::format("cp_dma_mbarrier in divergent code: threads {}..{} wait as one group of "
                      "4, but only some of them are active (SIMT mask {:#010x})",
                      g, std::min(g + 3, w.lanes - 1), w.mask));
  }
  auto& queue = w.async_copies;
  size_t kept = 0;
  for (size_t k = 0; k < queue.size(); ++k) {
    AsyncCopy& c = queue[k];
    if (c.lane == AsyncCopy::kWholeWarp || ((w.mask >> c.lane) & 1u))
      complete(ctx, c);
    else if (kept++ != k)
      queue[kept - 1] = std::move(c);
  }
  queue.resize(kept);
}

}  // namespace ventus::sim
