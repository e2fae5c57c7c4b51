// ventus cc: compile OpenCL C into a Ventus ELF executable (or assembly, or LLVM IR).
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <sstream>

#include "commands.h"
#include "ventus/compiler.h"
#include "ventus/error.h"

namespace {

struct CcArgs {
  std::string input;
  std::string output;
  bool assembly = false;  // -S
  std::vector<std::string> defines, include_dirs;
};

// The options CLI11 leaves over: the single-dash long options of cc and clang
// (-cl-std=CL3.0, -emit-llvm, -O2, -Werror, -cl-mad-enable, ...), which CLI11 cannot
// declare because it reads "-cl-std" as the short option -c. CLI11 hands over any
// option it does not know whole, so they are read here, in order.
struct GccStyle {
  std::optional<int> opt_level;
  std::string cl_std = "CL1.2";
  bool emit_llvm = false;
  std::vector<std::string> clang_args;  // warnings and OpenCL build options for clang
  std::vector<std::string> inputs;      // more positional arguments (an error)
};

GccStyle read_gcc_style(const std::vector<std::string>& args) {
  GccStyle out;
  for (const std::string& a : args) {
    std::string_view s = a;
    if (s.size() < 2 || s[0] != '-') {
      out.inputs.push_back(a);
      continue;
    }
    // --emit-llvm, --cl-std=... read like -emit-llvm, -cl-std=...
    if (s.starts_with("--")) s.remove_prefix(1);
    if (s == "-O") {
      out.opt_level = 1;  // like cc
    } else if (s.size() == 3 && s[1] == 'O' && s[2] >= '0' && s[2] <= '3') {
      out.opt_level = s[2] - '0';
    } else if (s.starts_with("-O")) {
      throw ventus::Error(fmt::format("{}: expected -O0, -O1, -O2 or -O3", a));
    } else if (s.starts_with("-cl-std=")) {
      out.cl_std = std::string(s.substr(8));
    } else if (s == "-emit-llvm") {
      out.emit_llvm = true;
    } else if (s == "-w" || (s.starts_with("-W") && s.size() > 2) ||
               (s.starts_with("-cl-") && s.size() > 4)) {
      out.clang_args.emplace_back(s);
    } else {
      throw ventus::Error(fmt::format("unknown option '{}' (see ventus cc --help)", a));
    }
  }
  return out;
}

std::string read_input(const std::string& path) {
  std::ostringstream text;
  if (path == "-") {
    text << std::cin.rdbuf();
    return text.str();
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ventus::Error(fmt::format("{}: cannot open file", path));
  text << in.rdbuf();
  return text.str();
}

void write_output(const std::string& path, std::string_view bytes) {
  if (path == "-") {
    std::fwrite(bytes.data(), 1, bytes.size(), stdout);
    std::fflush(stdout);
    return;
  }
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw ventus::Error(fmt::format("{}: cannot write file", path));
}

void run(const CcArgs& a, const std::vector<std::string>& remaining) {
  const GccStyle extra = read_gcc_style(remaining);
  if (a.input.empty()) throw ventus::Error("no input file (usage: ventus cc [options] FILE.cl)");
  if (!extra.inputs.empty())
    throw ventus::Error(fmt::format("one input file at a time ('{}' and '{}')", a.input,
                                    extra.inputs.front()));
  ventus::cc::Options options;
  if (extra.opt_level) options.opt_level = *extra.opt_level;
  options.cl_std = extra.cl_std;
  options.defines = a.defines;
  options.include_dirs = a.include_dirs;
  options.extra_args = extra.clang_args;
  options.file_name = a.input == "-" ? "<stdin>" : a.input;
  const std::string source = read_input(a.input);

  // Default output: the input's base name in the current directory with the suffix of
  // what is written (like cc -c and cc -S); "a" for stdin.
  const char* suffix = extra.emit_llvm ? ".ll" : a.assembly ? ".s" : ".elf";
  std::string output = a.output;
  if (output.empty())
    output = (a.input == "-" ? std::string("a")
                             : std::filesystem::path(a.input).stem().string()) +
             suffix;

  std::string diagnostics, text;
  std::vector<uint8_t> elf;
  bool ok = false;
  if (extra.emit_llvm) {
    text = ventus::cc::compile_to_llvm_ir(source, options, &diagnostics);
    ok = !text.empty();
  } else if (a.assembly) {
    ventus::cc::Result result = ventus::cc::compile_to_assembly(source, options);
    ok = result.ok, text = std::move(result.assembly), diagnostics = std::move(result.diagnostics);
  } else {
    ventus::cc::Result result = ventus::cc::compile(source, options);
    ok = result.ok, elf = std::move(result.elf), diagnostics = std::move(result.diagnostics);
  }
  // Warnings too, as cc prints them; errors and a failure status when !ok.
  std::fputs(diagnostics.c_str(), stderr);
  if (!ok) throw CLI::RuntimeError(1);
  if (extra.emit_llvm || a.assembly)
    write_output(output, text);
  else
    write_output(output, std::string_view(reinterpret_cast<const char*>(elf.data()), elf.size()));
}

ventus::cli::Registration reg(5, [](CLI::App& app) {
  auto args = std::make_shared<CcArgs>();
  CLI::App* sub = app.add_subcommand(
      "cc", "Compile OpenCL C (FILE.cl, or - for stdin) into a Ventus ELF executable");
  sub->allow_extras();  // the cc/clang spellings below, read by read_gcc_style
  sub->footer(
      "Options in the spelling of cc and clang:\n"
      "  -O0, -O1, -O2, -O3  optimization level (default -O2; -O is -O1)\n"
      "  -cl-std=CLx.y       OpenCL C version: CL1.0, CL1.1, CL1.2 (default), CL2.0, CL3.0\n"
      "  -emit-llvm          write the optimized LLVM IR as text (FILE.ll)\n"
      "  -Werror, -w, -W...  clang's warning options\n"
      "  -cl-...             OpenCL build options (-cl-fast-relaxed-math, -cl-mad-enable,\n"
      "                      -cl-opt-disable, ...)\n"
      "Output: FILE.elf, FILE.s (-S) or FILE.ll (-emit-llvm) in the current directory,\n"
      "named after the input (a.elf ... for stdin), unless -o names it; -o - is stdout.\n"
      "Diagnostics go to stderr as file:line:column: error: ...; errors exit with 1.\n"
      "See docs/compiler.md.\n");
  sub->add_option("file", args->input, "OpenCL C source file, - for stdin");
  sub->add_option("-o,--output", args->output, "output file");
  sub->add_flag("-S", args->assembly, "write Ventus assembly (FILE.s) instead of an executable");
  sub->add_option("-D", args->defines, "define a macro: NAME or NAME=VALUE")
      ->allow_extra_args(false);
  sub->add_option("-I", args->include_dirs, "add a directory to the #include search path")
      ->allow_extra_args(false);
  sub->callback([args, sub] { run(*args, sub->remaining()); });
});

}  // namespace
