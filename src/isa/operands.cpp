// Operand kinds (operand_kinds.def): where each lives in the instruction word and what values
// it takes.
#include <fmt/format.h>

#include <algorithm>

#include "ventus/isa.h"

namespace ventus::isa {
namespace {

#define VT_FIELD(hi, lo, at) FieldPiece{hi, lo, at},
#define VT_OPERAND_KIND(id, token, file, style, role, is_signed, align, wide, fields) \
  constexpr FieldPiece kFields_##id[] = {fields FieldPiece{0, 0, 0}};
#include "ventus/operand_kinds.def"
#undef VT_OPERAND_KIND
#undef VT_FIELD

// How many value bits the fields hold.
constexpr unsigned value_width(std::span<const FieldPiece> fields) {
  unsigned width = 0;
  for (const FieldPiece& f : fields) width = std::max<unsigned>(width, f.at + f.hi - f.lo + 1);
  return width;
}

// The regext field that extends a register in the field starting at bit lo.
constexpr int8_t register_slot_of(std::span<const FieldPiece> fields) {
  constexpr uint8_t kRegisterFieldLo[] = {7, 15, 20, 27};  // rd, rs1, rs2, rs3
  if (fields.size() != 1) return -1;
  for (int8_t i = 0; i < 4; ++i)
    if (fields[0].lo == kRegisterFieldLo[i] && fields[0].hi == kRegisterFieldLo[i] + 4) return i;
  return -1;
}

constexpr OperandKindInfo make_kind(OperandKind kind, std::string_view token, RegisterFile file,
                                    OperandStyle style, OperandRole role, bool is_signed,
                                    uint8_t align, bool wide,
                                    std::span<const FieldPiece> with_sentinel) {
  const auto fields = with_sentinel.first(with_sentinel.size() - 1);
  const unsigned width = value_width(fields);
  int64_t min = 0, max = 0;
  if (width > 0) {
    min = is_signed ? -(int64_t{1} << (width - 1)) : 0;
    max = (is_signed ? int64_t{1} << (width - 1) : int64_t{1} << width) - 1;
    max -= max % align;
  }
  return {kind,  token, file,
          style, role,  is_signed,
          align, wide,  fields,
          min,   max,   file == RegisterFile::None ? int8_t{-1} : register_slot_of(fields)};
}

constexpr OperandKindInfo kKinds[] = {
#define VT_FIELD(hi, lo, at)
#define VT_OPERAND_KIND(id, token, file, style, role, is_signed, align, wide, fields)           \
  make_kind(OperandKind::id, token, RegisterFile::file, OperandStyle::style, OperandRole::role, \
            is_signed, align, wide, kFields_##id),
#include "ventus/operand_kinds.def"
#undef VT_OPERAND_KIND
#undef VT_FIELD
};

constexpr bool kinds_in_enum_order() {
  for (size_t i = 0; i < std::size(kKinds); ++i)
    if (static_cast<size_t>(kKinds[i].kind) != i) return false;
  return true;
}
static_assert(kinds_in_enum_order());

}  // namespace

const OperandKindInfo& kind_info(OperandKind kind) {
  return kKinds[static_cast<size_t>(kind)];
}
std::span<const OperandKindInfo> operand_kinds() {
  return kKinds;
}

int64_t get_operand(uint32_t word, OperandKind kind) {
  const OperandKindInfo& k = kind_info(kind);
  uint64_t value = 0;
  for (const FieldPiece& f : k.fields)
    value |= uint64_t{(word >> f.lo) & ((1u << (f.hi - f.lo + 1)) - 1)} << f.at;
  const unsigned width = value_width(k.fields);
  if (k.is_signed && width > 0) {
    const uint64_t sign = uint64_t{1} << (width - 1);
    return static_cast<int64_t>((value ^ sign) - sign);
  }
  return static_cast<int64_t>(value);
}

uint32_t set_operand(uint32_t word, OperandKind kind, int64_t value) {
  const auto u = static_cast<uint64_t>(value);
  for (const FieldPiece& f : kind_info(kind).fields) {
    const uint32_t field_mask = ((1u << (f.hi - f.lo + 1)) - 1) << f.lo;
    word = (word & ~field_mask) | ((static_cast<uint32_t>(u >> f.at) << f.lo) & field_mask);
  }
  return word;
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
  const OperandKindInfo& k = kind_info(kind);
  if (value < k.min || value > k.max) {
    if (why) *why = fmt::format("value {} out of range [{}, {}]", value, k.min, k.max);
    return false;
  }
  if (value % k.align != 0) {
    if (why) *why = fmt::format("value {} is not a multiple of {}", value, k.align);
    return false;
  }
  return true;
}

bool is_register_kind(OperandKind kind) {
  return kind_info(kind).file != RegisterFile::None && !kind_info(kind).fields.empty();
}

bool is_vector_register_kind(OperandKind kind) {
  return is_register_kind(kind) && kind_info(kind).file == RegisterFile::V;
}

bool is_pair_register_kind(OperandKind kind) {
  return is_register_kind(kind) && kind_info(kind).align == 2;
}

bool is_pc_relative(OperandKind kind) {
  return kind_info(kind).style == OperandStyle::Target;
}

int register_slot(OperandKind kind) {
  return kind_info(kind).slot;
}

}  // namespace ventus::isa
