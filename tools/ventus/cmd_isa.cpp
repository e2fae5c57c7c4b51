// ventus isa: print the instruction table (docs/isa-table.md is its --markdown output), or
// with --semantics where each row's semantics are (docs/semantics-index.md).
#include <fmt/format.h>

#include "commands.h"
#include "ventus/isa_table.h"
#include "ventus/semantics_index.h"

namespace {

ventus::cli::Registration reg(90, [](CLI::App& app) {
  auto markdown = std::make_shared<bool>(false);
  auto semantics = std::make_shared<bool>(false);
  CLI::App* sub = app.add_subcommand(
      "isa", "Print the instruction table: mnemonic, syntax, match, mask, class, group");
  sub->add_flag("--markdown", *markdown,
                "print Markdown (the contents of docs/isa-table.md, or with --semantics of "
                "docs/semantics-index.md)");
  sub->add_flag("--semantics", *semantics,
                "print where each row's semantics are defined: row, mnemonic, file:line");
  sub->callback([markdown, semantics] {
    if (*semantics)
      ventus::cli::print("{}", *markdown ? ventus::sim::semantics_index_markdown()
                                         : ventus::sim::semantics_index_text());
    else
      ventus::cli::print("{}",
                         *markdown ? ventus::isa::table_markdown() : ventus::isa::table_text());
  });
});

}  // namespace
