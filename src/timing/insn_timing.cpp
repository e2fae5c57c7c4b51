#include "insn_timing.h"

#include <string_view>

namespace ventus::timing {
namespace {

bool has(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

// Divide, remainder, square root, exp and the reciprocal estimates run in the SFU.
bool sfu_fp(std::string_view mn) {
  return has(mn, "div") || has(mn, "sqrt") || has(mn, "exp") || has(mn, "rec7");
}
bool fused(std::string_view mn) {
  return has(mn, "madd") || has(mn, "msub") || has(mn, "macc") || has(mn, "msac") ||
         has(mn, "ftta");
}
bool integer_multiply(std::string_view mn) {
  return has(mn, "mul") || has(mn, "macc") || has(mn, "madd") || has(mn, "nmsac") ||
         has(mn, "nmsub");
}

void classify(const isa::InsnInfo& row, InsnTiming& t) {
  const std::string_view mn = row.mnemonic;
  using isa::InsnClass;
  switch (row.cls) {
    case InsnClass::Scalar:
      if (mn == "fence") {
        t.unit = Unit::Csr, t.latency = Latency::Csr, t.fence = true;
      } else if (has(mn, "div") || has(mn, "rem")) {
        t.unit = Unit::Sfu, t.latency = Latency::SfuInt;
      } else if (has(mn, "mul")) {
        t.unit = Unit::Multiply, t.latency = Latency::Multiply;
      }
      return;
    case InsnClass::Jump:
    case InsnClass::Branch: t.control = true; return;
    case InsnClass::Atomic: t.atomic = true; [[fallthrough]];
    case InsnClass::Load:
    case InsnClass::Store:
      t.unit = Unit::Lsu, t.latency = Latency::Memory, t.memory = true, t.scalar_path = false;
      return;
    case InsnClass::Csr:
    case InsnClass::Unsupported: t.unit = Unit::Csr, t.latency = Latency::Csr; return;
    case InsnClass::Float:
      t.scalar_path = false;
      t.unit = sfu_fp(mn) ? Unit::Sfu : Unit::Fpu;
      t.latency = sfu_fp(mn) ? Latency::SfuFp : fused(mn) ? Latency::Fma : Latency::Fpu;
      return;
    case InsnClass::Config: return;
    case InsnClass::Vector:
      t.scalar_path = false;
      if (has(mn, "div") || has(mn, "rem"))
        t.unit = Unit::Sfu, t.latency = Latency::SfuInt;
      else if (integer_multiply(mn))
        t.unit = Unit::Multiply, t.latency = Latency::Multiply;
      else if (mn.starts_with("v64f"))
        t.unit = Unit::Fpu, t.latency = has(mn, "mul") ? Latency::Fma : Latency::Fpu;
      else
        t.unit = Unit::VectorAlu, t.latency = Latency::VectorAlu;
      return;
    case InsnClass::VFloat:
      t.scalar_path = false;
      t.unit = sfu_fp(mn) ? Unit::Sfu : Unit::Fpu;
      t.latency = sfu_fp(mn) ? Latency::SfuFp : fused(mn) ? Latency::Fma : Latency::Fpu;
      return;
    case InsnClass::VLoad:
    case InsnClass::VStore:
      t.unit = Unit::Lsu, t.latency = Latency::Memory, t.memory = true, t.scalar_path = false;
      return;
    case InsnClass::VBranch:
    case InsnClass::Join:
      t.unit = Unit::VectorAlu, t.latency = Latency::VectorAlu, t.control = true;
      t.scalar_path = false;
      return;
    case InsnClass::Control:
      // barrier/endprg block the warp; the asynchronous copies are memory instructions.
      if (mn.starts_with("cp_dma")) {
        t.unit = Unit::Lsu, t.latency = Latency::Memory, t.memory = true, t.scalar_path = false;
      } else {
        t.unit = Unit::Csr, t.latency = Latency::Csr, t.control = true;
      }
      return;
    case InsnClass::Matrix:
      t.unit = Unit::Tensor, t.latency = Latency::Tensor, t.scalar_path = false;
      return;
    case InsnClass::Prefix: return;
  }
}

void add(uint8_t& n, uint16_t* list, size_t capacity, uint16_t reg) {
  for (uint8_t i = 0; i < n; ++i)
    if (list[i] == reg) return;
  if (n < capacity) list[n++] = reg;
}

}  // namespace

InsnTiming describe(const sim::CachedInsn& entry) {
  InsnTiming t;
  const isa::Decoded& in = entry.insn;
  const isa::InsnInfo& row = isa::info(in.op);
  classify(row, t);
  t.words = static_cast<uint8_t>(entry.prefixed + entry.length / 4);
  const uint16_t fields[4] = {in.rd, in.rs1, in.rs2, in.rs3};
  for (const isa::OperandSlot& slot : row.operands) {
    const isa::OperandKindInfo& kind = isa::kind_info(slot.kind);
    if (kind.style == isa::OperandStyle::Mask) {
      if (in.vm == 0) add(t.sources, t.source, std::size(t.source), InsnTiming::kVectorBase);
      continue;
    }
    if (kind.file == isa::RegisterFile::None) continue;
    const bool vector = kind.file == isa::RegisterFile::V;
    const int field = kind.slot;
    uint16_t reg = kind.style == isa::OperandStyle::FixedV0 || field < 0 ? 0 : fields[field];
    // The data of a vector store and a tied accumulator are read through the rd field.
    if (field == 0 && isa::reads(slot.role)) reg = in.rs3;
    const unsigned count = (kind.align == 2 || in.pair) ? 2 : 1;
    for (unsigned k = 0; k < count; ++k) {
      const uint16_t r = static_cast<uint16_t>(reg + k + (vector ? InsnTiming::kVectorBase : 0));
      if (!vector && reg == 0) continue;  // x0 is never pending
      if (isa::reads(slot.role)) add(t.sources, t.source, std::size(t.source), r);
      if (isa::writes(slot.role)) {
        add(t.destinations, t.destination, std::size(t.destination), r);
        if (vector) t.writes_vector = true;
      }
    }
  }
  return t;
}

uint32_t latency(const Config& c, Latency l) {
  switch (l) {
    case Latency::ScalarAlu: return c.salu_latency;
    case Latency::VectorAlu: return c.valu_latency;
    case Latency::Multiply: return c.mul_latency;
    case Latency::Fpu: return c.fpu_latency;
    case Latency::Fma: return c.fma_latency;
    case Latency::SfuInt: return c.sfu_int_base + 32;  // 32 quotient bits: no early exit
    case Latency::SfuFp: return c.sfu_fp_latency;
    case Latency::Csr: return c.csr_latency;
    case Latency::Tensor: return c.tensor_latency;
    case Latency::Memory: return 0;
  }
  return 1;
}

}  // namespace ventus::timing
