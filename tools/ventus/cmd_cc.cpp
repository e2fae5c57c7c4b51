// ventus cc: compile OpenCL C into a Ventus ELF executable (or assembly, or LLVM IR, or
// an object with -c), and link objects and sources into one executable.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <span>

#include "commands.h"
#include "ventus/compiler.h"
#include "ventus/error.h"

namespace {

struct CcArgs {
  std::vector<std::string> inputs;
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
  bool compile_only = false;            // -c
  std::vector<std::string> clang_args;  // warnings and OpenCL build options for clang
  std::vector<std::string> inputs;      // positional arguments CLI11 left over
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
    } else if (s == "-c") {
      out.compile_only = true;
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
  return path == "-" ? ventus::cli::read_standard_input()
                     : ventus::read_input_file(path, ventus::kToolInput);
}

std::string stem(const std::string& input) {
  return input == "-" ? std::string("a") : std::filesystem::path(input).stem().string();
}

struct Input {
  std::string path;  // as given; "-" is stdin
  std::string bytes;
  bool object = false;
};

// An input is an object when its bytes are one (cc::is_object); a file named *.o or
// *.bc, or one starting like an object or an executable, that is not one is an error
// with the reason link gives; anything else is OpenCL C.
Input classify(const std::string& path) {
  Input in{path, read_input(path)};
  const std::span<const uint8_t> bytes(reinterpret_cast<const uint8_t*>(in.bytes.data()),
                                       in.bytes.size());
  in.object = ventus::cc::is_object(bytes);
  const std::string suffix = std::filesystem::path(path).extension().string();
  const bool binary = in.bytes.starts_with("\xDE\xC0\x17\x0B") ||
                      in.bytes.starts_with("BC\xC0\xDE") || in.bytes.starts_with("\177ELF");
  if (!in.object && (suffix == ".o" || suffix == ".bc" || binary)) {
    std::string why =
        ventus::cc::link({std::vector<uint8_t>(bytes.begin(), bytes.end())}).diagnostics;
    if (const size_t at = why.find("error: "); at != std::string::npos) why = why.substr(at + 7);
    while (!why.empty() && why.back() == '\n') why.pop_back();
    throw ventus::Error(fmt::format("{}: {}", path, why));
  }
  return in;
}

void run(const CcArgs& a, const std::vector<std::string>& remaining) {
  const GccStyle extra = read_gcc_style(remaining);
  std::vector<std::string> paths = a.inputs;
  paths.insert(paths.end(), extra.inputs.begin(), extra.inputs.end());
  if (paths.empty())
    throw ventus::Error("no input file (usage: ventus cc [options] FILE.cl|FILE.o...)");
  if (extra.compile_only && (a.assembly || extra.emit_llvm))
    throw ventus::Error("-c writes an object: not with -S or -emit-llvm");
  if (extra.emit_llvm && paths.size() != 1)
    throw ventus::Error("-emit-llvm takes one OpenCL C source");
  if (extra.compile_only && paths.size() > 1 && !a.output.empty())
    throw ventus::Error("-o with -c names the object of one source, not of several");
  ventus::cc::Options options;
  if (extra.opt_level) options.opt_level = *extra.opt_level;
  options.cl_std = extra.cl_std;
  options.defines = a.defines;
  options.include_dirs = a.include_dirs;
  options.extra_args = extra.clang_args;
  std::vector<Input> inputs;
  for (const std::string& path : paths) inputs.push_back(classify(path));
  const bool any_object =
      std::any_of(inputs.begin(), inputs.end(), [](const Input& in) { return in.object; });
  if (extra.emit_llvm && any_object) throw ventus::Error("-emit-llvm takes an OpenCL C source");
  auto name_of = [](const Input& in) { return in.path == "-" ? std::string("<stdin>") : in.path; };

  // Default output: named after the input (after "a" for stdin or several inputs) in the
  // current directory, with the suffix of what is written (like cc -c and cc -S).
  const char* suffix = extra.compile_only ? ".o"
                       : extra.emit_llvm  ? ".ll"
                       : a.assembly       ? ".s"
                                          : ".elf";
  const std::string output =
      !a.output.empty() ? a.output : (inputs.size() == 1 ? stem(paths[0]) : "a") + suffix;

  if (extra.compile_only) {
    // Every source into its own object; the others still compile after an error.
    std::vector<std::string> object_paths;
    for (const Input& in : inputs) {
      if (in.object)
        throw ventus::Error(fmt::format("{}: already an object (-c compiles sources)", in.path));
      object_paths.push_back(inputs.size() == 1 ? output : stem(in.path) + ".o");
    }
    ventus::cli::check_distinct_outputs(object_paths);
    std::vector<ventus::cli::OutputFile> objects;
    for (const std::string& path : object_paths) objects.emplace_back(path, "-o", paths);
    bool ok = true;
    for (size_t i = 0; i < inputs.size(); ++i) {
      options.file_name = name_of(inputs[i]);
      const ventus::cc::Object object = ventus::cc::compile_object(inputs[i].bytes, options);
      std::fputs(object.diagnostics.c_str(), stderr);
      if (!object.ok) {
        ok = false;
        continue;
      }
      objects[i].write(object.bitcode);
      objects[i].commit();
    }
    if (!ok) throw CLI::RuntimeError(1);
    return;
  }
  ventus::cli::OutputFile output_file(output, "-o", paths);

  std::string diagnostics, text;
  std::vector<uint8_t> elf;
  bool ok = false;
  if (inputs.size() == 1 && !any_object) {
    const std::string& source = inputs[0].bytes;
    options.file_name = name_of(inputs[0]);
    if (extra.emit_llvm) {
      text = ventus::cc::compile_to_llvm_ir(source, options, &diagnostics);
      ok = !text.empty();
    } else if (a.assembly) {
      ventus::cc::Result result = ventus::cc::compile_to_assembly(source, options);
      ok = result.ok, text = std::move(result.assembly),
      diagnostics = std::move(result.diagnostics);
    } else {
      ventus::cc::Result result = ventus::cc::compile(source, options);
      ok = result.ok, elf = std::move(result.elf), diagnostics = std::move(result.diagnostics);
    }
  } else {
    // Sources become objects, then everything links in the order given.
    std::vector<std::vector<uint8_t>> objects;
    bool compiled = true;
    for (const Input& in : inputs) {
      if (in.object) {
        objects.emplace_back(in.bytes.begin(), in.bytes.end());
        continue;
      }
      options.file_name = name_of(in);
      ventus::cc::Object object = ventus::cc::compile_object(in.bytes, options);
      diagnostics += object.diagnostics;
      compiled = compiled && object.ok;
      objects.push_back(std::move(object.bitcode));
    }
    if (compiled) {
      options.file_name = std::filesystem::path(output).stem().string();
      ventus::cc::Result result = ventus::cc::link(objects, options);
      ok = result.ok, text = std::move(result.assembly), elf = std::move(result.elf);
      diagnostics += result.diagnostics;
    }
  }
  // Warnings too, as cc prints them; errors and a failure status when !ok.
  std::fputs(diagnostics.c_str(), stderr);
  if (!ok) throw CLI::RuntimeError(1);
  if (extra.emit_llvm || a.assembly)
    output_file.write(text);
  else
    output_file.write(elf);
  output_file.commit();
}

ventus::cli::Registration reg(5, [](CLI::App& app) {
  auto args = std::make_shared<CcArgs>();
  CLI::App* sub = app.add_subcommand(
      "cc",
      "Compile OpenCL C (FILE.cl, or - for stdin) into a Ventus ELF executable, or into an "
      "object (-c); link objects and sources into one executable");
  sub->allow_extras();  // the cc/clang spellings below, read by read_gcc_style
  sub->footer(
      "Options in the spelling of cc and clang:\n"
      "  -O0, -O1, -O2, -O3  optimization level (default -O2; -O is -O1)\n"
      "  -cl-std=CLx.y       OpenCL C version: CL1.0, CL1.1, CL1.2 (default), CL2.0, CL3.0\n"
      "  -c                  compile each source into an object (FILE.o, LLVM bitcode)\n"
      "                      for a later link; no executable\n"
      "  -emit-llvm          write the optimized LLVM IR as text (FILE.ll; one source)\n"
      "  -Werror, -w, -W...  clang's warning options\n"
      "  -cl-...             OpenCL build options (-cl-fast-relaxed-math, -cl-mad-enable,\n"
      "                      -cl-opt-disable, ...)\n"
      "Inputs: OpenCL C sources and objects of ventus cc -c, in any mix: several inputs\n"
      "(or an object) are linked into one executable (or its assembly with -S).\n"
      "Output: FILE.elf, FILE.s (-S), FILE.ll (-emit-llvm) or FILE.o (-c) in the current\n"
      "directory, named after the input (a.elf ... for stdin or several inputs), unless\n"
      "-o names it; -o - is stdout.\n"
      "Diagnostics go to stderr as file:line:column: error: ...; errors exit with 1.\n"
      "See docs/compiler.md.\n");
  sub->add_option("files", args->inputs,
                  "OpenCL C source files (- for stdin) and objects (ventus cc -c) to link");
  sub->add_option("-o,--output", args->output, "output file");
  sub->add_flag("-S", args->assembly, "write Ventus assembly (FILE.s) instead of an executable");
  sub->add_option("-D", args->defines, "define a macro: NAME or NAME=VALUE")
      ->allow_extra_args(false);
  sub->add_option("-I", args->include_dirs, "add a directory to the #include search path")
      ->allow_extra_args(false);
  sub->callback([args, sub] { run(*args, sub->remaining()); });
});

}  // namespace
