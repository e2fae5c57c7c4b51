// The device ABI (include/ventus/abi.def) for C++: CSR numbers and their table, the kernel
// metadata (KNL) word indices, the stack, workgroup and memory map constants, the print
// buffer layout.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace ventus::abi {

#define VT_ABI_VALUE(cxx_name, asm_name, value, what) inline constexpr uint32_t cxx_name = value;
#include "ventus/abi.def"

// CSR numbers: abi::csr::TID, abi::csr::FFLAGS, ...
namespace csr {
enum : uint16_t {
#define VT_CSR(id, number, name, long_name, short_name, access, holds) id = number,
#include "ventus/abi.def"
};
}  // namespace csr

// Indices of 32-bit words in the kernel metadata buffer: abi::knl::ENTRY, ...
namespace knl {
enum : uint32_t {
#define VT_KNL_WORD(id, word, count, holds) id = word,
#include "ventus/abi.def"
};
}  // namespace knl

enum class CsrAccess : uint8_t {
  ReadOnly,  // writes fault
  ReadWrite,
  Absent,  // a name the tools know; the device faults on any access
};

std::string_view access_name(CsrAccess access);  // "read-only", "read/write", "absent"

struct CsrInfo {
  uint16_t number;
  std::string_view name;        // what the disassembler prints ("" = the number)
  std::string_view long_name;   // e.g. CSR_TID
  std::string_view short_name;  // e.g. tid
  CsrAccess access;
  std::string_view holds;  // Markdown
};
// Every CSR, by number.
std::span<const CsrInfo> csrs();
const CsrInfo* csr_by_number(uint16_t number);
// Any of a CSR's names, or an alias (CSR_GDX).
std::optional<uint16_t> csr_by_name(std::string_view name);

struct KnlWord {
  std::string_view id;  // ENTRY
  uint32_t word;
  uint32_t count;  // 3 for the per-dimension fields
  std::string_view holds;
};
std::span<const KnlWord> knl_words();

struct Value {
  std::string_view cxx_name;  // kWarpStackBytes
  std::string_view asm_name;  // WARP_STACK_BYTES
  uint32_t value;
  std::string_view what;
};
std::span<const Value> values();

// The CSR table of docs/simulator.md (`ventus abi --csr-markdown`).
std::string csr_table_markdown();

}  // namespace ventus::abi
