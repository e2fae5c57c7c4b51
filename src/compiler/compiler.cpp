// The public API of the OpenCL C compiler (include/ventus/compiler.h): the front end
// (frontend.cpp), the back end (backend/) and the assembler, one after the other.
#include "ventus/compiler.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <exception>

#include "backend.h"
#include "frontend.h"
#include "ventus/asm.h"
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

}  // namespace

Result compile_to_assembly(std::string_view source, const Options& options) {
  Result result;
  try {
    llvm::LLVMContext context;
    std::unique_ptr<llvm::Module> module =
        frontend::build_module(source, options, context, result.diagnostics);
    if (!module) return result;
    result.assembly =
        backend::generate_assembly(*module, frontend::effective_opt_level(options, nullptr));
    result.ok = true;
  } catch (const std::exception& e) {
    // ventus::Error from the back end ("FILE:LINE:COL: error: ..."), or anything else that
    // must not escape: the contract is a diagnostic, never an exception.
    result.diagnostics += as_diagnostic(e.what(), options);
    result.assembly.clear();
  }
  return result;
}

Result compile(std::string_view source, const Options& options) {
  Result result = compile_to_assembly(source, options);
  if (!result.ok) return result;
  try {
    const elf::Image image = assembler::assemble({{options.file_name + ".s", result.assembly}});
    result.elf = elf::write(image);
  } catch (const std::exception& e) {
    // The back end's output did not assemble: a compiler bug, reported with the
    // assembler's "file.s:line:column: error: ..." lines.
    result.ok = false;
    result.diagnostics += as_diagnostic(e.what(), options);
  }
  return result;
}

std::string compile_to_llvm_ir(std::string_view source, const Options& options,
                               std::string* diagnostics) {
  std::string messages;
  std::string text;
  try {
    llvm::LLVMContext context;
    if (std::unique_ptr<llvm::Module> module =
            frontend::build_module(source, options, context, messages))
      text = frontend::to_text(*module);
  } catch (const std::exception& e) {
    messages += as_diagnostic(e.what(), options);
  }
  if (diagnostics) *diagnostics = std::move(messages);
  return text;
}

}  // namespace ventus::cc
