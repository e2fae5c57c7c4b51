// ventus isa: print the instruction table (docs/isa-table.md is its --markdown output).
#include <fmt/format.h>

#include "commands.h"
#include "ventus/isa_table.h"

namespace {

ventus::cli::Registration reg(90, [](CLI::App& app) {
  auto markdown = std::make_shared<bool>(false);
  CLI::App* sub = app.add_subcommand(
      "isa", "Print the instruction table: mnemonic, syntax, match, mask, class, group");
  sub->add_flag("--markdown", *markdown, "print Markdown (the contents of docs/isa-table.md)");
  sub->callback([markdown] {
    ventus::cli::print("{}", *markdown ? ventus::isa::table_markdown() : ventus::isa::table_text());
  });
});

}  // namespace
