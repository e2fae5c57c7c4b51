// Operand kinds: where each lives in the instruction word and what values it takes.
#include <fmt/format.h>

#include "ventus/isa.h"

namespace ventus::isa {
namespace {

constexpr uint32_t bits(uint32_t word, unsigned hi, unsigned lo) {
  return (word >> lo) & ((1u << (hi - lo + 1)) - 1);
}
constexpr int64_t sext(uint32_t value, unsigned width) {
  const uint32_t sign = 1u << (width - 1);
  return static_cast<int64_t>(static_cast<int32_t>((value ^ sign) - sign));
}
constexpr uint32_t place(uint32_t word, unsigned hi, unsigned lo, uint64_t value) {
  const uint32_t field_mask = ((1u << (hi - lo + 1)) - 1) << lo;
  return (word & ~field_mask) | ((static_cast<uint32_t>(value) << lo) & field_mask);
}

struct Range {
  int64_t min, max;
  unsigned align;  // value must be a multiple of this
};

Range range_of(OperandKind kind) {
  switch (kind) {
    case OperandKind::Rd: case OperandKind::Rs1: case OperandKind::Rs2: case OperandKind::Rs3:
    case OperandKind::XRd: case OperandKind::XRs1: case OperandKind::XRs2:
    case OperandKind::Vd: case OperandKind::Vs1: case OperandKind::Vs2: case OperandKind::Vs3:
    case OperandKind::Shamt: case OperandKind::Uimm5:
      return {0, 31, 1};
    case OperandKind::V0: return {0, 0, 1};
    case OperandKind::Simm12: case OperandKind::Simm12S: return {-2048, 2047, 1};
    case OperandKind::Uimm12: case OperandKind::Csr: return {0, 4095, 1};
    case OperandKind::Simm11: case OperandKind::Simm11S: return {-1024, 1023, 1};
    case OperandKind::Bimm: return {-4096, 4094, 2};
    case OperandKind::Jimm: return {-(1 << 20), (1 << 20) - 2, 2};
    case OperandKind::Uimm20: return {0, (1 << 20) - 1, 1};
    case OperandKind::Simm5: return {-16, 15, 1};
    case OperandKind::VtypeI11: return {0, 2047, 1};
    case OperandKind::VtypeI10: return {0, 1023, 1};
    case OperandKind::VMask: return {0, 1, 1};
    case OperandKind::RoundingMode: return {0, 7, 1};
    case OperandKind::FencePred: case OperandKind::FenceSucc: return {0, 15, 1};
    case OperandKind::Modifier: break;  // always a field of the row's own (see OperandSlot)
  }
  return {0, 0, 1};
}

}  // namespace

int64_t get_operand(uint32_t w, OperandKind kind) {
  switch (kind) {
    case OperandKind::Rd: case OperandKind::XRd: case OperandKind::Vd: case OperandKind::Vs3:
      return bits(w, 11, 7);
    case OperandKind::Rs1: case OperandKind::XRs1: case OperandKind::Vs1: case OperandKind::Uimm5:
      return bits(w, 19, 15);
    case OperandKind::Rs2: case OperandKind::XRs2: case OperandKind::Vs2: case OperandKind::Shamt:
      return bits(w, 24, 20);
    case OperandKind::Rs3: return bits(w, 31, 27);
    case OperandKind::V0: return 0;
    case OperandKind::Simm12: return sext(bits(w, 31, 20), 12);
    case OperandKind::Simm12S: return sext((bits(w, 31, 25) << 5) | bits(w, 11, 7), 12);
    case OperandKind::Uimm12: case OperandKind::Csr: return bits(w, 31, 20);
    case OperandKind::Simm11: return sext(bits(w, 30, 20), 11);
    case OperandKind::Simm11S: return sext((bits(w, 30, 25) << 5) | bits(w, 11, 7), 11);
    case OperandKind::Bimm:
      return sext((bits(w, 31, 31) << 12) | (bits(w, 7, 7) << 11) | (bits(w, 30, 25) << 5) |
                      (bits(w, 11, 8) << 1),
                  13);
    case OperandKind::Jimm:
      return sext((bits(w, 31, 31) << 20) | (bits(w, 19, 12) << 12) | (bits(w, 20, 20) << 11) |
                      (bits(w, 30, 21) << 1),
                  21);
    case OperandKind::Uimm20: return bits(w, 31, 12);
    case OperandKind::Simm5: return sext(bits(w, 19, 15), 5);
    case OperandKind::VtypeI11: return bits(w, 30, 20);
    case OperandKind::VtypeI10: return bits(w, 29, 20);
    case OperandKind::VMask: return bits(w, 25, 25);
    case OperandKind::RoundingMode: return bits(w, 14, 12);
    case OperandKind::FencePred: return bits(w, 27, 24);
    case OperandKind::FenceSucc: return bits(w, 23, 20);
    case OperandKind::Modifier: break;
  }
  return 0;
}

uint32_t set_operand(uint32_t w, OperandKind kind, int64_t v) {
  const auto u = static_cast<uint64_t>(v);
  switch (kind) {
    case OperandKind::Rd: case OperandKind::XRd: case OperandKind::Vd: case OperandKind::Vs3:
      return place(w, 11, 7, u);
    case OperandKind::Rs1: case OperandKind::XRs1: case OperandKind::Vs1: case OperandKind::Uimm5:
    case OperandKind::Simm5:
      return place(w, 19, 15, u);
    case OperandKind::Rs2: case OperandKind::XRs2: case OperandKind::Vs2: case OperandKind::Shamt:
      return place(w, 24, 20, u);
    case OperandKind::Rs3: return place(w, 31, 27, u);
    case OperandKind::V0: return w;
    case OperandKind::Simm12: case OperandKind::Uimm12: case OperandKind::Csr:
      return place(w, 31, 20, u);
    case OperandKind::Simm12S: return place(place(w, 11, 7, u), 31, 25, u >> 5);
    case OperandKind::Simm11: return place(w, 30, 20, u);
    case OperandKind::Simm11S: return place(place(w, 11, 7, u), 30, 25, u >> 5);
    case OperandKind::Bimm:
      w = place(w, 31, 31, u >> 12);
      w = place(w, 7, 7, u >> 11);
      w = place(w, 30, 25, u >> 5);
      return place(w, 11, 8, u >> 1);
    case OperandKind::Jimm:
      w = place(w, 31, 31, u >> 20);
      w = place(w, 19, 12, u >> 12);
      w = place(w, 20, 20, u >> 11);
      return place(w, 30, 21, u >> 1);
    case OperandKind::Uimm20: return place(w, 31, 12, u);
    case OperandKind::VtypeI11: return place(w, 30, 20, u);
    case OperandKind::VtypeI10: return place(w, 29, 20, u);
    case OperandKind::VMask: return place(w, 25, 25, u);
    case OperandKind::RoundingMode: return place(w, 14, 12, u);
    case OperandKind::FencePred: return place(w, 27, 24, u);
    case OperandKind::FenceSucc: return place(w, 23, 20, u);
    case OperandKind::Modifier: break;
  }
  return w;
}

int64_t get_operand(uint64_t word, const OperandSlot& slot) {
  if (slot.width == 0) return get_operand(static_cast<uint32_t>(word), slot.kind);
  return static_cast<int64_t>(Field{slot.lo, slot.width}.get(word));
}

uint64_t set_operand(uint64_t word, const OperandSlot& slot, int64_t value) {
  if (slot.width == 0)
    return (word & ~uint64_t{0xffffffff}) |
           set_operand(static_cast<uint32_t>(word), slot.kind, value);
  const uint64_t field_mask = ((uint64_t{1} << slot.width) - 1) << slot.lo;
  return (word & ~field_mask) | ((static_cast<uint64_t>(value) << slot.lo) & field_mask);
}

bool operand_fits(const OperandSlot& slot, int64_t value, std::string* why) {
  if (slot.width == 0) return operand_fits(slot.kind, value, why);
  const int64_t max = (int64_t{1} << slot.width) - 1;
  if (value < 0 || value > max) {
    if (why) *why = fmt::format("value {} out of range [0, {}]", value, max);
    return false;
  }
  return true;
}

bool operand_fits(OperandKind kind, int64_t value, std::string* why) {
  const Range r = range_of(kind);
  if (value < r.min || value > r.max) {
    if (why) *why = fmt::format("value {} out of range [{}, {}]", value, r.min, r.max);
    return false;
  }
  if (value % r.align != 0) {
    if (why) *why = fmt::format("value {} is not a multiple of {}", value, r.align);
    return false;
  }
  return true;
}

bool is_register_kind(OperandKind kind) {
  switch (kind) {
    case OperandKind::Rd: case OperandKind::Rs1: case OperandKind::Rs2: case OperandKind::Rs3:
    case OperandKind::XRd: case OperandKind::XRs1: case OperandKind::XRs2:
      return true;
    default:
      return is_vector_register_kind(kind);
  }
}

bool is_vector_register_kind(OperandKind kind) {
  return kind == OperandKind::Vd || kind == OperandKind::Vs1 || kind == OperandKind::Vs2 ||
         kind == OperandKind::Vs3;
}

bool is_pc_relative(OperandKind kind) {
  return kind == OperandKind::Bimm || kind == OperandKind::Jimm;
}

int register_slot(OperandKind kind) {
  switch (kind) {
    case OperandKind::Rd: case OperandKind::XRd: case OperandKind::Vd: case OperandKind::Vs3:
      return 0;
    case OperandKind::Rs1: case OperandKind::XRs1: case OperandKind::Vs1: return 1;
    case OperandKind::Rs2: case OperandKind::XRs2: case OperandKind::Vs2: return 2;
    case OperandKind::Rs3: return 3;
    default: return -1;
  }
}

}  // namespace ventus::isa
