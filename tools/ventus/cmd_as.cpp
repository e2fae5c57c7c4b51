// ventus as: assemble and link GNU-as style sources into an ELF32 executable.
#include <fmt/format.h>

#include <charconv>
#include <fstream>
#include <sstream>

#include "commands.h"
#include "ventus/asm.h"
#include "ventus/elf.h"
#include "ventus/error.h"

namespace {

uint32_t parse_address(const std::string& text, const std::string& option) {
  std::string_view s = text;
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2), base = 16;
  uint64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (s.empty() || ec != std::errc{} || p != s.data() + s.size() || v > UINT32_MAX)
    throw ventus::Error(fmt::format("{}: '{}' is not a 32-bit address", option, text));
  return static_cast<uint32_t>(v);
}

struct AsArgs {
  std::string output = "a.out";
  std::vector<std::string> inputs;
  std::vector<std::string> section_starts;
  std::vector<std::string> t_options;  // -Ttext ADDR / -Tdata ADDR / -Tbss ADDR, as pairs
  bool no_start_files = false;
  size_t max_errors = 20;
};

void run(const AsArgs& a) {
  ventus::assembler::Options options;
  options.start_files = !a.no_start_files;
  options.max_errors = a.max_errors;
  for (const std::string& s : a.section_starts) {
    const size_t eq = s.find('=');
    if (eq == std::string::npos || eq == 0)
      throw ventus::Error(fmt::format("--section-start: expected NAME=ADDRESS, got '{}'", s));
    options.section_start[s.substr(0, eq)] = parse_address(s.substr(eq + 1), "--section-start");
  }
  for (size_t i = 0; i + 1 < a.t_options.size(); i += 2) {
    std::string which = a.t_options[i];
    if (!which.empty() && which.back() == '=') which.pop_back();
    if (which != "text" && which != "data" && which != "bss")
      throw ventus::Error(fmt::format("-T{}: expected -Ttext, -Tdata or -Tbss", which));
    options.section_start["." + which] = parse_address(a.t_options[i + 1], "-T" + which);
  }
  std::vector<ventus::assembler::SourceFile> sources;
  for (const std::string& path : a.inputs) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw ventus::Error(fmt::format("{}: cannot open file", path));
    std::ostringstream text;
    text << in.rdbuf();
    sources.push_back({path, text.str()});
  }
  const ventus::elf::Image image = ventus::assembler::assemble(sources, options);
  ventus::elf::write_file(a.output, image);
}

ventus::cli::Registration reg(10, [](CLI::App& app) {
  auto args = std::make_shared<AsArgs>();
  CLI::App* sub = app.add_subcommand("as", "Assemble and link Ventus assembly into an ELF32 executable");
  sub->add_option("inputs", args->inputs, "assembly source files (.s)")->required();
  sub->add_option("-o,--output", args->output, "output ELF file")->capture_default_str();
  sub->add_option("--section-start", args->section_starts, "place a section: NAME=ADDRESS (e.g. .data=0x80100000)");
  sub->add_option("-T", args->t_options, "-Ttext ADDR, -Tdata ADDR, -Tbss ADDR: section start addresses")
      ->expected(2)
      ->type_name("SECTION ADDR");
  sub->add_flag("--nostartfiles", args->no_start_files, "do not link the built-in start file (start.S)");
  sub->add_option("--max-errors", args->max_errors, "stop after this many errors")->capture_default_str();
  sub->callback([args] { run(*args); });
});

}  // namespace
