// The instruction table as text: what `ventus isa` prints and docs/isa-table.md holds.
#pragma once

#include <string>
#include <string_view>

#include "ventus/isa.h"

namespace ventus::isa {

// The extension a row belongs to ("RV32I", "M", "A", "Zicsr", "Zfinx", "RVV", "Ventus"),
// derived from its encoding and class so that the table rows need no extra column.
std::string_view extension_group(const InsnInfo& row);
std::string_view class_name(InsnClass cls);
// The row's assembly syntax: "vadd.vv vd, vs2, vs1[, v0.t]".
std::string assembly_syntax(const InsnInfo& row);

// Every row, one per line, in table order (aligned columns).
std::string table_text();
// The same as a Markdown document (docs/isa-table.md).
std::string table_markdown();

}  // namespace ventus::isa
