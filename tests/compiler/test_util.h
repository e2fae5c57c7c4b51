// Helpers for the compiler tests: the front end's output as text and as an LLVM module.
#pragma once

#include <gtest/gtest.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <memory>
#include <string>
#include <vector>

#include "frontend.h"
#include "ventus/compiler.h"

namespace ventus::test {

struct Ir {
  std::string text;         // "" on errors
  std::string diagnostics;  // clang's and the front end's messages
};

inline Ir ir_of(const std::string& source, const cc::Options& options = {}) {
  Ir r;
  r.text = cc::compile_to_llvm_ir(source, options, &r.diagnostics);
  return r;
}

inline cc::Options with_std(const std::string& cl_std, int opt_level = 2) {
  cc::Options options;
  options.cl_std = cl_std;
  options.opt_level = opt_level;
  return options;
}

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The optimized module (what the back end receives), for tests that inspect
// instructions rather than text. Fails the test when the source does not compile.
struct Built {
  std::unique_ptr<llvm::LLVMContext> context = std::make_unique<llvm::LLVMContext>();
  std::unique_ptr<llvm::Module> module;  // destroyed before its context
  std::string diagnostics;

  Built() = default;
  Built(Built&&) = default;
  // A member-wise assignment would destroy the old context before the old module.
  Built& operator=(Built&&) = delete;
};

inline Built build(const std::string& source, const cc::Options& options = {}) {
  Built b;
  b.module = cc::frontend::build_module(source, options, *b.context, b.diagnostics);
  EXPECT_TRUE(b.module) << b.diagnostics;
  return b;
}

// Every call to the function named `callee` in the module, in instruction order.
inline std::vector<const llvm::CallInst*> calls_to(const llvm::Module& module,
                                                   const std::string& callee) {
  std::vector<const llvm::CallInst*> out;
  for (const llvm::Function& f : module)
    for (const llvm::BasicBlock& block : f)
      for (const llvm::Instruction& i : block)
        if (const auto* call = llvm::dyn_cast<llvm::CallInst>(&i))
          if (call->getCalledFunction() && call->getCalledFunction()->getName() == callee)
            out.push_back(call);
  return out;
}

}  // namespace ventus::test
