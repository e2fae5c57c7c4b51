// ventus as: assemble and link GNU-as style sources into an ELF32 executable.
#include <fmt/format.h>

#include "arguments.h"
#include "commands.h"
#include "ventus/asm.h"
#include "ventus/elf.h"
#include "ventus/error.h"

namespace {

struct AsArgs {
  std::string output = "a.out";
  std::vector<std::string> section_starts;
  bool no_start_files = false;
  size_t max_errors = 20;
};

// GNU ld's "-Ttext=ADDR", "-Ttext ADDR" and "-T text ADDR" (likewise data and bss) are not
// options CLI11 can express next to positional inputs, so the arguments CLI11 leaves over
// are read here in order: -T forms and input files.
struct InputsAndLayout {
  std::vector<std::string> inputs;
  std::vector<std::pair<std::string, std::string>> t_options;  // section, address text
};

InputsAndLayout split_remaining(const std::vector<std::string>& args) {
  InputsAndLayout out;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.rfind("-T", 0) != 0) {
      if (a.size() > 1 && a[0] == '-')
        throw ventus::Error(fmt::format("unknown option '{}' (see ventus as --help)", a));
      out.inputs.push_back(a);
      continue;
    }
    std::string which = a.substr(2), address;
    if (which.empty()) {
      if (++i >= args.size())
        throw ventus::Error("-T: expected a section (text, data or bss) and an address");
      which = args[i];
    }
    if (const size_t eq = which.find('='); eq != std::string::npos) {
      address = which.substr(eq + 1);
      which.resize(eq);
    } else {
      if (++i >= args.size()) throw ventus::Error(fmt::format("-T{}: expected an address", which));
      address = args[i];
    }
    if (which != "text" && which != "data" && which != "bss")
      throw ventus::Error(fmt::format("-T{}: expected -Ttext, -Tdata or -Tbss", which));
    out.t_options.emplace_back(which, address);
  }
  if (out.inputs.empty())
    throw ventus::Error("no input files (usage: ventus as [options] FILE.s...)");
  return out;
}

void run(const AsArgs& a, const std::vector<std::string>& remaining) {
  const InputsAndLayout rest = split_remaining(remaining);
  ventus::assembler::Options options;
  options.start_files = !a.no_start_files;
  options.max_errors = a.max_errors;
  for (const std::string& s : a.section_starts) {
    const size_t eq = s.find('=');
    if (eq == std::string::npos || eq == 0)
      throw ventus::Error(fmt::format("--section-start: expected NAME=ADDRESS, got '{}'", s));
    options.section_start[s.substr(0, eq)] =
        ventus::cli::parse_address(s.substr(eq + 1), "--section-start");
  }
  for (const auto& [which, address] : rest.t_options)
    options.section_start["." + which] = ventus::cli::parse_address(address, "-T" + which);
  ventus::cli::OutputFile output(a.output, "-o", rest.inputs);
  std::vector<ventus::assembler::SourceFile> sources;
  for (const std::string& path : rest.inputs)
    sources.push_back({path, ventus::read_input_file(path, ventus::kToolInput)});
  ventus::elf::Image image;
  try {
    image = ventus::assembler::assemble(sources, options);
  } catch (const ventus::Error& e) {
    // Already one "file:line:column: error: why" line per error, as GNU as prints them.
    ventus::cli::print_stderr(fmt::format("{}\n", e.what()));
    throw CLI::RuntimeError(1);
  }
  output.write(ventus::elf::write(image));
  output.commit();
}

ventus::cli::Registration reg(10, [](CLI::App& app) {
  auto args = std::make_shared<AsArgs>();
  CLI::App* sub = app.add_subcommand(
      "as", "Assemble and link Ventus assembly (FILE.s...) into an ELF32 executable");
  sub->allow_extras();  // the inputs and -T options, read by split_remaining
  sub->footer(
      "Inputs: assembly source files (.s), linked in the order given after the start file.\n"
      "Layout: -Ttext=ADDR, -Tdata=ADDR, -Tbss=ADDR (or -Ttext ADDR) set a section's start "
      "address,\n"
      "like --section-start .text=ADDR.");
  sub->add_option("-o,--output", args->output, "output ELF file")->capture_default_str();
  sub->add_option("--section-start", args->section_starts,
                  "place a section: NAME=ADDRESS (e.g. .data=0x80100000)")
      ->allow_extra_args(false);
  sub->add_flag("--nostartfiles", args->no_start_files,
                "do not link the built-in start file (start.S)");
  ventus::cli::add_number(sub, "--max-errors", args->max_errors, "stop after this many errors");
  sub->callback([args, sub] { run(*args, sub->remaining()); });
});

}  // namespace
