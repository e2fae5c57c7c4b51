// Where each instruction row's semantics are written (src/sim/semantics/*.cpp). Families of
// rows are defined by macros that paste their names, so grep cannot find them; this index
// can (`ventus isa --semantics`, docs/semantics-index.md).
#pragma once

#include <string>

#include "ventus/isa.h"

namespace ventus::sim {

struct SemanticsSite {
  std::string file;  // relative to the repository: src/sim/semantics/NAME.cpp
  int line;          // of the VT_SEM, or of the use of the family macro that pastes the name
};
SemanticsSite semantics_site(isa::Op op);

// One line per row: ID, mnemonic, file:line.
std::string semantics_index_text();
// docs/semantics-index.md: the file of each row (no lines, so that edits inside a file
// leave it current).
std::string semantics_index_markdown();

}  // namespace ventus::sim
