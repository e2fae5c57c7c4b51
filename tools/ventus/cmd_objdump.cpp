// ventus objdump: llvm-objdump style listings of Ventus ELF files and raw code words.
#include <fmt/format.h>

#include "arguments.h"
#include "commands.h"
#include "ventus/abi.h"
#include "ventus/elf.h"
#include "ventus/error.h"
#include "ventus/listing.h"

namespace {

struct ObjdumpArgs {
  std::string input;
  bool raw = false;
  std::string base = fmt::format("{:#x}", ventus::abi::kCodeBase);
  bool extended_registers = false;
  bool no_aliases = false;
  bool symbols = false, headers = false, contents = false, disassemble = false;
};

void run(const ObjdumpArgs& a) {
  const uint32_t base = ventus::cli::parse_address(a.base, "--base");
  const std::vector<uint8_t> bytes = ventus::read_input_bytes(a.input, ventus::kToolInput);
  ventus::listing::Options options;
  options.aliases = !a.no_aliases;
  options.extended_registers = a.extended_registers;
  if (a.raw) {
    if (a.symbols || a.headers || a.contents)
      throw ventus::Error("-t, -h and -s need an ELF file, not --raw");
    // The words' addresses must not wrap past the end of the 32-bit address space.
    if (base + uint64_t{bytes.size()} > (uint64_t{1} << 32))
      throw ventus::Error(
          fmt::format("--base {}: {} bytes of {} from there run past the end of "
                      "the 32-bit address space",
                      a.base, bytes.size(), a.input));
    ventus::cli::print("{}", ventus::listing::disassemble_raw(bytes, base, options));
    return;
  }
  const ventus::elf::Image image = ventus::elf::read(bytes, a.input);
  const bool any_table = a.symbols || a.headers || a.contents;
  if (a.headers) ventus::cli::print("{}", ventus::listing::section_headers(image, a.input));
  if (a.symbols) ventus::cli::print("{}", ventus::listing::symbol_table(image, a.input));
  if (a.contents) ventus::cli::print("{}", ventus::listing::section_contents(image, a.input));
  if (a.disassemble || !any_table)
    ventus::cli::print("{}", ventus::listing::disassemble(image, a.input, options));
}

ventus::cli::Registration reg(20, [](CLI::App& app) {
  auto args = std::make_shared<ObjdumpArgs>();
  CLI::App* sub = app.add_subcommand(
      "objdump", "Disassemble a Ventus ELF file (or raw words) like llvm-objdump -d");
  sub->set_help_flag("--help", "Print this help message and exit");  // -h is --section-headers
  sub->add_option("file", args->input, "ELF file, or raw little-endian words with --raw")
      ->required();
  sub->add_flag("--raw", args->raw, "the file holds raw little-endian instruction words");
  sub->add_option("--base", args->base, "address of the first raw word")->capture_default_str();
  sub->add_flag(
      "-X,--extended-registers", args->extended_registers,
      "show register numbers extended by a preceding regext/regexti/regpair/regpairi (v33, "
      "not v1)");
  sub->add_flag("-M,--no-aliases", args->no_aliases,
                "print real instructions instead of aliases (li, mv, ret...)");
  sub->add_flag("-d,--disassemble", args->disassemble,
                "disassemble (default unless -t/-h/-s is given)");
  sub->add_flag("-t,--syms", args->symbols, "print the symbol table");
  sub->add_flag("-h,--section-headers", args->headers, "print the section headers");
  sub->add_flag("-s,--full-contents", args->contents, "print the contents of every section");
  sub->callback([args] { run(*args); });
});

}  // namespace
