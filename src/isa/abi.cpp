// The device ABI's tables (include/ventus/abi.def) and the CSR table of docs/simulator.md.
#include "ventus/abi.h"

#include <fmt/format.h>

#include <iterator>

namespace ventus::abi {
namespace {

#define RO CsrAccess::ReadOnly
#define RW CsrAccess::ReadWrite
#define ABSENT CsrAccess::Absent
constexpr CsrInfo kCsrs[] = {
#define VT_CSR(id, number, name, long_name, short_name, access, holds) \
  {number, name, long_name, short_name, access, holds},
#include "ventus/abi.def"
};
#undef RO
#undef RW
#undef ABSENT

struct Alias {
  std::string_view name;
  uint16_t number;
};
constexpr Alias kAliases[] = {
#define VT_CSR_ALIAS(name, id) {name, csr::id},
#include "ventus/abi.def"
};

constexpr KnlWord kKnlTable[] = {
#define VT_KNL_WORD(id, word, count, holds) {#id, word, count, holds},
#include "ventus/abi.def"
};

constexpr Value kValues[] = {
#define VT_ABI_VALUE(cxx_name, asm_name, value, what) {#cxx_name, #asm_name, value, what},
#include "ventus/abi.def"
};

constexpr bool numbers_unique() {
  for (size_t i = 0; i < std::size(kCsrs); ++i)
    for (size_t j = i + 1; j < std::size(kCsrs); ++j)
      if (kCsrs[i].number == kCsrs[j].number) return false;
  return true;
}
static_assert(numbers_unique(), "abi.def: two CSR rows have the same number");

constexpr bool knl_words_fit() {
  for (const KnlWord& w : kKnlTable)
    if (w.word + w.count > kKnlWords) return false;
  return true;
}
static_assert(knl_words_fit(), "abi.def: a KNL word lies beyond kKnlWords");

}  // namespace

std::string_view access_name(CsrAccess access) {
  switch (access) {
    case CsrAccess::ReadOnly: return "read-only";
    case CsrAccess::ReadWrite: return "read/write";
    case CsrAccess::Absent: break;
  }
  return "absent";
}

std::span<const CsrInfo> csrs() {
  return kCsrs;
}

const CsrInfo* csr_by_number(uint16_t number) {
  for (const CsrInfo& c : kCsrs)
    if (c.number == number) return &c;
  return nullptr;
}

std::optional<uint16_t> csr_by_name(std::string_view name) {
  if (name.empty()) return std::nullopt;
  for (const CsrInfo& c : kCsrs)
    if (c.name == name || c.long_name == name || c.short_name == name) return c.number;
  for (const Alias& a : kAliases)
    if (a.name == name) return a.number;
  return std::nullopt;
}

std::span<const KnlWord> knl_words() {
  return kKnlTable;
}

std::span<const Value> values() {
  return kValues;
}

std::string csr_table_markdown() {
  std::string out =
      "<!-- BEGIN generated from include/ventus/abi.def by `ventus abi --csr-markdown`; do not "
      "edit by hand -->\n\n"
      "| CSR | name | access | holds |\n| --- | --- | --- | --- |\n";
  for (const CsrInfo& c : kCsrs) {
    if (c.access == CsrAccess::Absent) continue;
    std::string names(c.name.empty() ? c.long_name : c.name);
    if (!c.short_name.empty()) names += fmt::format(", {}", c.short_name);
    out += fmt::format("| {:#05x} | {} | {} | {} |\n", c.number, names, access_name(c.access),
                       c.holds);
  }
  std::string absent;
  for (const CsrInfo& c : kCsrs)
    if (c.access == CsrAccess::Absent)
      absent += fmt::format("{}`{}` ({:#05x})", absent.empty() ? "" : ", ", c.name, c.number);
  out += fmt::format(
      "\nThe assembler and disassembler also know {}: the device has none of them, and any "
      "access faults.\n\n<!-- END generated -->\n",
      absent);
  return out;
}

}  // namespace ventus::abi
