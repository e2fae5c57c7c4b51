// Runs the `ventus` tool as a user would and captures what it did: exit status, standard
// output and standard error, with a timeout (a hang is a failure, not a stuck test). The
// binary is the build's (VENTUS_BINARY), or the environment variable VENTUS_BINARY's.
//
//   CliTest fixture: a fresh scratch folder per test, write()/path() helpers, and
//   leftovers() to assert that a failed command left no half-written or temporary file.
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace ventus::test {

inline std::string ventus_binary() {
  const char* env = std::getenv("VENTUS_BINARY");
  return env && *env ? env : VENTUS_BINARY;
}

inline std::string read_file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The lines of a text (a command's output, a file), without their newlines.
inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  for (size_t start = 0; start < text.size();) {
    const size_t end = text.find('\n', start);
    lines.push_back(text.substr(start, end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return lines;
}

struct CliOptions {
  std::string stdout_path;  // empty: captured; else standard output goes to this file
  std::string stderr_path;  // empty: captured; else standard error goes to this file
  std::string stdin_text;   // standard input
  std::string cwd;          // empty: the test's working directory
  std::chrono::seconds timeout{120};
  uint64_t address_space_limit = 0;  // bytes of virtual memory (RLIMIT_AS); 0: no limit
  // Largest file the command may write (RLIMIT_FSIZE, with SIGXFSZ ignored, so that a
  // write past it fails with EFBIG as on a full disk); 0: no limit.
  uint64_t file_size_limit = 0;
};

struct CliResult {
  int status = -1;  // exit status; 128 + signal number when killed by a signal
  bool timed_out = false;
  std::string out, err;
  // For assertion messages: everything in one string.
  std::string describe() const {
    return "exit status " + std::to_string(status) + (timed_out ? " (timed out)" : "") +
           "\n--- stdout ---\n" + out + "\n--- stderr ---\n" + err;
  }
};

// Runs ventus with args (no shell: each string is one argument).
inline CliResult run_ventus(const std::vector<std::string>& args, const CliOptions& options = {}) {
  CliResult result;
  int out_pipe[2], err_pipe[2], in_pipe[2];
  if (pipe(out_pipe) != 0 || pipe(err_pipe) != 0 || pipe(in_pipe) != 0) {
    ADD_FAILURE() << "pipe failed";
    return result;
  }
  const std::string binary = ventus_binary();
  std::vector<std::string> argv_strings{binary};
  argv_strings.insert(argv_strings.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& s : argv_strings) argv.push_back(s.data());
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(in_pipe[0], 0);
    if (options.stdout_path.empty()) {
      dup2(out_pipe[1], 1);
    } else {
      const int fd = open(options.stdout_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (fd < 0) _exit(126);
      dup2(fd, 1);
    }
    if (options.stderr_path.empty()) {
      dup2(err_pipe[1], 2);
    } else {
      const int fd = open(options.stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (fd < 0) _exit(126);
      dup2(fd, 2);
    }
    for (int fd : {out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1], in_pipe[0], in_pipe[1]})
      close(fd);
    if (!options.cwd.empty() && chdir(options.cwd.c_str()) != 0) _exit(126);
    if (options.file_size_limit != 0) {
      const rlimit limit{options.file_size_limit, options.file_size_limit};
      signal(SIGXFSZ, SIG_IGN);
      if (setrlimit(RLIMIT_FSIZE, &limit) != 0) _exit(126);
    }
    if (options.address_space_limit != 0) {
      const rlimit limit{options.address_space_limit, options.address_space_limit};
      if (setrlimit(RLIMIT_AS, &limit) != 0) _exit(126);
    }
    execv(binary.c_str(), argv.data());
    _exit(127);
  }
  close(out_pipe[1]);
  close(err_pipe[1]);
  close(in_pipe[0]);
  // Small inputs only: written before reading so that the child never waits on us.
  signal(SIGPIPE, SIG_IGN);
  if (!options.stdin_text.empty()) {
    [[maybe_unused]] const ssize_t written =
        write(in_pipe[1], options.stdin_text.data(), options.stdin_text.size());
  }
  close(in_pipe[1]);
  const auto deadline = std::chrono::steady_clock::now() + options.timeout;
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  std::string* sinks[2] = {&result.out, &result.err};
  int open_fds = 2;
  while (open_fds > 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      result.timed_out = true;
      kill(pid, SIGKILL);
      break;
    }
    if (poll(fds, 2, static_cast<int>(std::min<long long>(left.count(), 1000))) < 0) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char buffer[65536];
      const ssize_t n = read(fds[i].fd, buffer, sizeof buffer);
      if (n > 0) {
        sinks[i]->append(buffer, static_cast<size_t>(n));
      } else {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
      }
    }
  }
  for (const pollfd& p : fds)
    if (p.fd >= 0) close(p.fd);
  int status = 0;
  waitpid(pid, &status, 0);
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(ventus_binary()))
      GTEST_SKIP() << ventus_binary() << " is not built";
    const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() /
           ("ventus_robustness_" + std::to_string(getpid()) + "_" + info->test_suite_name() + "_" +
            info->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ignored;
    std::filesystem::permissions(dir_, std::filesystem::perms::owner_all,
                                 std::filesystem::perm_options::add, ignored);
    std::filesystem::remove_all(dir_, ignored);
  }
  // A path in the scratch folder.
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  // Writes a file into the scratch folder; returns its path.
  std::string write(const std::string& name, const std::string& bytes) const {
    std::ofstream(path(name), std::ios::binary) << bytes;
    return path(name);
  }
  std::string read(const std::string& name) const { return read_file_text(path(name)); }
  // The names in the scratch folder (sorted): what a command left there.
  std::vector<std::string> leftovers() const {
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(dir_))
      names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }
  std::filesystem::path dir_;
};

// A failure as the CLI reports it: exit status 1, "ventus <sub>: error: " and every one of
// `mentions` in the message, nothing from a crash.
inline ::testing::AssertionResult fails_cleanly(const CliResult& r, const std::string& sub,
                                                const std::vector<std::string>& mentions) {
  if (r.timed_out || r.status != 1)
    return ::testing::AssertionFailure() << "expected exit status 1, got " << r.describe();
  if (r.err.find("ventus " + sub + ": error: ") == std::string::npos)
    return ::testing::AssertionFailure()
           << "no 'ventus " << sub << ": error: ' in " << r.describe();
  for (const std::string& m : mentions)
    if (r.err.find(m) == std::string::npos)
      return ::testing::AssertionFailure()
             << "the error does not mention '" << m << "': " << r.describe();
  for (const char* crash : {"terminate called", "Aborted", "AddressSanitizer", "runtime error:"})
    if (r.err.find(crash) != std::string::npos)
      return ::testing::AssertionFailure() << "crash output '" << crash << "': " << r.describe();
  return ::testing::AssertionSuccess();
}

}  // namespace ventus::test
