// run_guarded (guard.h): a large-stack thread under llvm::CrashRecoveryContext.
//
// LLVM's crash recovery catches SIGSEGV and friends on a thread inside RunSafely and
// longjmps back to it. Two things it lacks for a stack overflow: the signal handler must
// run on an alternate signal stack (the thread's own is exhausted), and its handler is
// installed without SA_ONSTACK. So the thread gets an alternate stack, and SIGSEGV/SIGBUS
// go to on_fault, which runs there, notes whether the fault hit the guard page below the
// compiling thread's stack, and hands the signal to LLVM's handler. LLVM's fatal errors
// (report_fatal_error, which would end the process) go to on_fatal_error, which returns to
// RunSafely the same way.
#include "guard.h"

#include <fmt/format.h>
#include <llvm/Support/CrashRecoveryContext.h>
#include <llvm/Support/ErrorHandling.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <vector>

namespace ventus::cc {
namespace {

constexpr char kStackOverflow[] =
    "compilation ran out of stack: expression or statement nested too deeply";
// Below the stack: large frames (clang's are up to a few KiB) skip a one-page guard.
constexpr size_t kGuardBytes = size_t{1} << 20;
// What a fault address may lie above the lowest stack address and still be an overflow
// (the deepest frame is partly inside the stack).
constexpr size_t kOverflowMargin = size_t{64} << 10;

// The compiling thread's state, for the handlers (which run on that thread).
struct Guarded {
  uintptr_t stack_low = 0;  // lowest address of the thread's stack (its guard is below)
  bool overflowed = false;
  std::string fatal_error;
};
thread_local Guarded* current = nullptr;

// LLVM's crash recovery handlers of SIGSEGV and SIGBUS, which on_fault calls.
struct sigaction recovery_segv, recovery_bus;

void on_fault(int signal, siginfo_t* info, void* context) {
  if (Guarded* g = current; g && info) {
    const auto address = reinterpret_cast<uintptr_t>(info->si_addr);
    g->overflowed = address < g->stack_low + kOverflowMargin &&
                    address + kGuardBytes + kOverflowMargin >= g->stack_low;
  }
  const struct sigaction& next = signal == SIGSEGV ? recovery_segv : recovery_bus;
  if (next.sa_flags & SA_SIGINFO) {
    next.sa_sigaction(signal, info, context);
  } else if (next.sa_handler != SIG_DFL && next.sa_handler != SIG_IGN) {
    next.sa_handler(signal);
  } else {
    // Outside any crash recovery: the default action, a crash as without this handler.
    ::signal(signal, SIG_DFL);
    raise(signal);
  }
}

// Inside a guarded compilation: back to RunSafely with the message. Elsewhere LLVM's own
// behaviour: the message, and LLVM ends the process when this returns.
void on_fatal_error(void*, const char* reason, bool) {
  if (llvm::CrashRecoveryContext* recovery = llvm::CrashRecoveryContext::GetCurrent();
      recovery && current) {
    current->fatal_error = reason;
    recovery->HandleExit(1);
  }
  const std::string text = fmt::format("LLVM ERROR: {}\n", reason);
  [[maybe_unused]] ssize_t written = ::write(STDERR_FILENO, text.data(), text.size());
}

void on_bad_alloc(void* data, const char* reason, bool crash) {
  on_fatal_error(data, fmt::format("out of memory ({})", reason).c_str(), crash);
}

void install_handlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::CrashRecoveryContext::Enable();
    llvm::install_fatal_error_handler(on_fatal_error);
    llvm::install_bad_alloc_error_handler(on_bad_alloc);
    struct sigaction fault {};
    fault.sa_sigaction = on_fault;
    fault.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&fault.sa_mask);
    sigaction(SIGSEGV, &fault, &recovery_segv);
    sigaction(SIGBUS, &fault, &recovery_bus);
  });
}

struct Job {
  llvm::function_ref<void()> work;
  std::optional<std::string> failure;
};

void* run_job(void* argument) {
  Job& job = *static_cast<Job*>(argument);
  // The alternate signal stack on_fault runs on.
  const size_t signal_stack_bytes =
      std::max<size_t>(size_t{256} << 10, 4 * static_cast<size_t>(sysconf(_SC_SIGSTKSZ)));
  std::vector<char> signal_stack(signal_stack_bytes);
  stack_t alternate{}, previous{};
  alternate.ss_sp = signal_stack.data();
  alternate.ss_size = signal_stack.size();
  sigaltstack(&alternate, &previous);

  Guarded guarded;
  pthread_attr_t attributes;
  if (pthread_getattr_np(pthread_self(), &attributes) == 0) {
    void* low = nullptr;
    size_t size = 0;
    if (pthread_attr_getstack(&attributes, &low, &size) == 0)
      guarded.stack_low = reinterpret_cast<uintptr_t>(low);
    pthread_attr_destroy(&attributes);
  }
  current = &guarded;
  llvm::CrashRecoveryContext recovery;
  // An exception must not leave the thread's function (std::terminate): it becomes the
  // failure too.
  const auto work = [&job] {
    try {
      job.work();
    } catch (const std::exception& e) {
      job.failure = fmt::format("internal compiler error: {}", e.what());
    } catch (...) {
      job.failure = "internal compiler error: an unknown exception";
    }
  };
  if (!recovery.RunSafely(work)) {
    if (guarded.overflowed)
      job.failure = kStackOverflow;
    else if (!guarded.fatal_error.empty())
      job.failure = guarded.fatal_error;
    else
      job.failure = fmt::format("internal compiler error: the compiler crashed ({})",
                                recovery.RetCode > 128
                                    ? strsignal(recovery.RetCode - 128)
                                    : fmt::format("exit status {}", recovery.RetCode).c_str());
  }
  current = nullptr;
  sigaltstack(&previous, nullptr);
  return nullptr;
}

}  // namespace

std::optional<std::string> run_guarded(llvm::function_ref<void()> work, size_t stack_bytes) {
  install_handlers();
  Job job{work, std::nullopt};
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  pthread_attr_setguardsize(&attributes, kGuardBytes);
  pthread_t thread;
  int status = EINVAL;
  // Smaller stacks where the address space is limited (ulimit -v): still far more than
  // the caller's thread usually has.
  for (size_t bytes = stack_bytes; status != 0 && bytes >= (size_t{8} << 20); bytes /= 4) {
    pthread_attr_setstacksize(&attributes, bytes);
    status = pthread_create(&thread, &attributes, run_job, &job);
  }
  pthread_attr_destroy(&attributes);
  if (status != 0)
    return fmt::format("cannot start the compiler's thread: {}", std::strerror(status));
  pthread_join(thread, nullptr);
  return job.failure;
}

}  // namespace ventus::cc
