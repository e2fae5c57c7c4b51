// The public API of the OpenCL C compiler (include/ventus/compiler.h): the front end
// (frontend.cpp), the back end (backend/) and the assembler, one after the other.
#include "ventus/compiler.h"

#include <fmt/format.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <exception>

#include "backend.h"
#include "frontend.h"
#include "guard.h"
#include "inline_asm.h"
#include "ventus/asm.h"
#include "ventus/device.h"
#include "ventus/elf.h"
#include "ventus/error.h"

namespace ventus::cc {
namespace {

// A message from a later stage as one diagnostic: kept as is when it already reads
// "where: error: why", else prefixed with the file name.
std::string as_diagnostic(const std::string& message, const Options& options) {
  std::string text = message;
  if (text.find("error: ") == std::string::npos) text = options.file_name + ": error: " + text;
  if (text.empty() || text.back() != '\n') text += '\n';
  return text;
}

// The front end's module (built by `front_end` in `context`) through the back end and,
// with `executable`, the assembler: what compile, compile_to_assembly and link share.
template <typename FrontEnd>
Result finish(FrontEnd&& front_end, const Options& options, bool executable) {
  Result result;
  try {
    llvm::LLVMContext context;
    std::unique_ptr<llvm::Module> module = front_end(context, result.diagnostics);
    if (!module) return result;
    result.assembly =
        backend::generate_assembly(*module, frontend::effective_opt_level(options, nullptr));
  } catch (const std::exception& e) {
    // ventus::Error from the back end ("FILE:LINE:COL: error: ..."), or anything else that
    // must not escape: the contract is a diagnostic, never an exception.
    result.diagnostics += as_diagnostic(e.what(), options);
    result.assembly.clear();
    return result;
  }
  if (!executable) {
    result.ok = true;
    return result;
  }
  try {
    const elf::Image image = assembler::assemble({{options.file_name + ".s", result.assembly}});
    for (const elf::Section& section : image.sections)
      if (section.alloc && uint64_t{section.address} + section.size > sim::kBufferBase) {
        // The back end checks the data alone; code and data together are known here.
        result.diagnostics += fmt::format(
            "{}: error: the program's code and data end at {:#x}, past the buffers at {:#x} "
            "(a program has {} MiB)\n",
            options.file_name, uint64_t{section.address} + section.size, sim::kBufferBase,
            (sim::kBufferBase - sim::kCodeBase) >> 20);
        return result;
      }
    result.elf = elf::write(image);
    result.ok = true;
  } catch (const std::exception& e) {
    // The user's inline assembly reaches the assembler unchecked: its errors are the user's.
    if (std::optional<std::string> user =
            backend::inline_asm_diagnostic(result.assembly, e.what())) {
      result.diagnostics += as_diagnostic(*user, options);
      return result;
    }
    // The back end checks what the source controls, so this is a compiler bug; the
    // assembler's positions are in the generated assembly, which `ventus cc -S` writes.
    result.diagnostics += fmt::format(
        "{}: error: internal compiler error: the generated assembly (ventus cc -S) does not "
        "assemble: {}\n",
        options.file_name, llvm::StringRef(e.what()).rtrim().str());
  }
  return result;
}

// `work` (which returns a Result or an Object) under run_guarded: a stack overflow or an
// LLVM fatal error becomes the only diagnostic of a failed output.
template <typename Output, typename Work>
Output guarded(const Options& options, Work&& work) {
  Output output;
  // `output` is assigned only when `work` returns: after a crash it is still empty.
  if (std::optional<std::string> failure = run_guarded([&] { output = work(); }))
    output.diagnostics = as_diagnostic(*failure, options);
  return output;
}

Result compile_source(std::string_view source, const Options& options, bool executable) {
  return finish(
      [&](llvm::LLVMContext& context, std::string& diagnostics) {
        return frontend::build_module(source, options, context, diagnostics);
      },
      options, executable);
}

}  // namespace

Result compile_to_assembly(std::string_view source, const Options& options) {
  return guarded<Result>(options, [&] { return compile_source(source, options, false); });
}

Result compile(std::string_view source, const Options& options) {
  return guarded<Result>(options, [&] { return compile_source(source, options, true); });
}

Object compile_object(std::string_view source, const Options& options) {
  return guarded<Object>(options, [&] {
    Object object;
    try {
      llvm::LLVMContext context;
      if (std::unique_ptr<llvm::Module> unit =
              frontend::build_unit(source, options, context, object.diagnostics)) {
        object.bitcode = frontend::write_object(*unit);
        object.ok = true;
      }
    } catch (const std::exception& e) {
      object.diagnostics += as_diagnostic(e.what(), options);
      object.bitcode.clear();
      object.ok = false;
    }
    return object;
  });
}

Result link(const std::vector<std::vector<uint8_t>>& objects, const Options& options) {
  return guarded<Result>(options, [&] {
    return finish(
        [&](llvm::LLVMContext& context, std::string& diagnostics) -> std::unique_ptr<llvm::Module> {
          std::vector<std::unique_ptr<llvm::Module>> units;
          bool ok = true;
          for (size_t i = 0; i < objects.size(); ++i) {
            // Objects have no file names: "object 2 of 3" says which one is bad.
            std::unique_ptr<llvm::Module> unit = frontend::read_object(
                objects[i], fmt::format("object {} of {}", i + 1, objects.size()), context,
                diagnostics);
            ok = ok && unit;
            units.push_back(std::move(unit));
          }
          if (!ok) return nullptr;
          return frontend::link_units(std::move(units), options, diagnostics);
        },
        options, true);
  });
}

bool is_object(std::span<const uint8_t> bytes) {
  return frontend::is_object(bytes);
}

std::string compile_to_llvm_ir(std::string_view source, const Options& options,
                               std::string* diagnostics) {
  struct Text {
    std::string text, diagnostics;
  };
  Text out = guarded<Text>(options, [&] {
    Text ir;
    try {
      llvm::LLVMContext context;
      if (std::unique_ptr<llvm::Module> module =
              frontend::build_module(source, options, context, ir.diagnostics))
        ir.text = frontend::to_text(*module);
    } catch (const std::exception& e) {
      ir.diagnostics += as_diagnostic(e.what(), options);
    }
    return ir;
  });
  if (diagnostics) *diagnostics = std::move(out.diagnostics);
  return out.text;
}

}  // namespace ventus::cc
