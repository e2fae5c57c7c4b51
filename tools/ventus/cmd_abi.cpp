// ventus abi: print the device ABI (include/ventus/abi.def); --csr-markdown prints the CSR
// table of docs/simulator.md.
#include <fmt/format.h>

#include "commands.h"
#include "ventus/abi.h"

namespace {

std::string abi_text() {
  namespace abi = ventus::abi;
  std::string out = "CSRs (number, names, access):\n";
  for (const abi::CsrInfo& c : abi::csrs()) {
    out += fmt::format("  {:#05x}  {:<14} {:<10} {}\n", c.number,
                       c.name.empty() ? c.long_name : c.name, c.short_name,
                       abi::access_name(c.access));
  }
  out += "Kernel metadata buffer (CSR_KNL), 32-bit words:\n";
  for (const abi::KnlWord& w : abi::knl_words())
    out += fmt::format("  {:>2}  {:<14} {}\n", w.word, w.id, w.holds);
  out += "Values:\n";
  for (const abi::Value& v : abi::values())
    // Addresses in hex, counts and offsets in decimal.
    out += fmt::format("  {:<26} {:>10}  {}\n", v.asm_name,
                       v.value >= 0x10000 ? fmt::format("{:#x}", v.value) : std::to_string(v.value),
                       v.what);
  return out;
}

ventus::cli::Registration reg(91, [](CLI::App& app) {
  auto markdown = std::make_shared<bool>(false);
  CLI::App* sub = app.add_subcommand(
      "abi", "Print the device ABI: CSRs, kernel metadata words, stack, memory map, print buffer");
  sub->add_flag("--csr-markdown", *markdown, "print the CSR table of docs/simulator.md (Markdown)");
  sub->callback([markdown] {
    ventus::cli::print("{}", *markdown ? ventus::abi::csr_table_markdown() : abi_text());
  });
});

}  // namespace
