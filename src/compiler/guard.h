// Where the in-process compiler runs (docs/compiler.md, "Limits and errors"): clang and
// LLVM recurse over the source's nesting (a 60,000-term sum overflows an 8 MiB stack) and
// end the process on a fatal error. Every entry point of include/ventus/compiler.h runs
// its work through run_guarded, so that neither kills the application that compiles
// (`ventus cc`, or a host program in clBuildProgram).
#pragma once

#include <llvm/ADT/STLFunctionalExtras.h>

#include <cstddef>
#include <optional>
#include <string>

namespace ventus::cc {

// The stack of the compiling thread: address space, only touched pages cost memory. A
// 1,000,000-term expression needs about 250 MiB in clang.
inline constexpr size_t kCompilerStackBytes = size_t{1} << 30;

// Runs `work` on a new thread with a `stack_bytes` stack under LLVM's crash recovery and
// waits for it. Returns nullopt when `work` returned, or why it did not: "compilation ran
// out of stack: ..." for a stack overflow, the message of an LLVM fatal error, the signal
// of another crash, or an exception that `work` let escape. After a crash, what `work`
// allocated is leaked (its frames are abandoned, not unwound) and what it wrote must not
// be used.
std::optional<std::string> run_guarded(llvm::function_ref<void()> work,
                                       size_t stack_bytes = kCompilerStackBytes);

}  // namespace ventus::cc
