#include "files.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "ventus/error.h"
#include "ventus/file.h"

namespace ventus::cli {

namespace fs = std::filesystem;

namespace {

// fs::equivalent without exceptions: false when either does not exist.
bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec;
  return fs::equivalent(a, b, ec) && !ec;
}

mode_t new_file_mode() {
  const mode_t mask = umask(0);
  umask(mask);
  return 0666 & ~mask;
}

}  // namespace

std::string read_standard_input() {
  return read_descriptor(STDIN_FILENO, "<stdin>", kToolInput);
}

OutputFile::OutputFile(std::string path, std::string what, std::span<const std::string> inputs)
    : path_(std::move(path)), what_(std::move(what)) {
  if (path_.empty()) throw Error(fmt::format("{}: an empty file name", what_));
  for (const std::string& input : inputs)
    if (input != "-" && same_file(input, path_))
      throw Error(fmt::format("{}: input file '{}' is the same as output file", what_, input));
  if (path_ == "-") {
    std::fflush(stdout);  // what was printed before comes first
    fd_ = STDOUT_FILENO;
    return;
  }
  // A symbolic link is followed: the file it names is replaced, the link stays.
  std::error_code ec;
  const fs::file_status status = fs::status(path_, ec);
  if (ec && ec != std::errc::no_such_file_or_directory)
    throw Error(fmt::format("{} {}: {}", what_, path_, ec.message()));
  if (fs::is_directory(status))
    throw Error(fmt::format("{} {}: is a directory, not a file", what_, path_));
  if (fs::exists(status) && !fs::is_regular_file(status)) {
    // /dev/null, /dev/full, a FIFO: written in place (renaming onto it would replace it).
    fd_ = open(path_.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd_ < 0)
      throw Error(fmt::format("{} {}: cannot write: {}", what_, path_, std::strerror(errno)));
    return;
  }
  std::error_code link_ec;
  target_ = path_;
  if (fs::is_symlink(fs::symlink_status(path_, link_ec)) && fs::exists(status)) {
    target_ = fs::canonical(path_, ec).string();
    if (ec) throw Error(fmt::format("{} {}: {}", what_, path_, ec.message()));
  }
  const fs::path target(target_);
  const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::string temp = (folder / ("." + target.filename().string() + ".XXXXXX")).string();
  fd_ = mkstemp(temp.data());
  if (fd_ < 0) {
    const int error = errno;
    if (error == ENOENT || error == ENOTDIR)
      throw Error(fmt::format("{} {}: no such folder '{}'", what_, path_, folder.string()));
    throw Error(fmt::format("{} {}: cannot write in '{}': {}", what_, path_, folder.string(),
                            std::strerror(error)));
  }
  temp_ = temp;
  struct stat existing;
  const mode_t mode =
      stat(target_.c_str(), &existing) == 0 ? existing.st_mode & 07777 : new_file_mode();
  fchmod(fd_, mode);
}

OutputFile::OutputFile(OutputFile&& other) noexcept
    : path_(std::move(other.path_)),
      what_(std::move(other.what_)),
      target_(std::move(other.target_)),
      temp_(std::move(other.temp_)),
      fd_(other.fd_),
      finished_(other.finished_),
      committed_(other.committed_),
      buffer_(std::move(other.buffer_)),
      written_(other.written_) {
  other.fd_ = -1;
  other.temp_.clear();
}

OutputFile::~OutputFile() {
  if (fd_ > STDERR_FILENO) close(fd_);
  if (!temp_.empty() && !committed_) unlink(temp_.c_str());
}

void OutputFile::fail(std::string_view doing, int error) {
  if (fd_ > STDERR_FILENO) close(fd_);
  fd_ = -1;
  if (!temp_.empty()) unlink(temp_.c_str());
  temp_.clear();
  const std::string name = path_ == "-" ? std::string("standard output") : what_ + " " + path_;
  throw Error(fmt::format("{}: {} failed: {}", name, doing, std::strerror(error)));
}

void OutputFile::write(std::string_view bytes) {
  if (fd_ < 0) throw Error(fmt::format("{} {}: written after an error or commit", what_, path_));
  written_ += bytes.size();
  if (bytes.size() >= kBlock) {
    // A whole block already: written as it is, not copied.
    flush();
    write_all(bytes);
    return;
  }
  buffer_.append(bytes);
  if (buffer_.size() >= kBlock) flush();
}

void OutputFile::flush() {
  write_all(buffer_);
  buffer_.clear();
}

void OutputFile::write_all(std::string_view bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd_, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail("write", n < 0 ? errno : EIO);
    done += static_cast<size_t>(n);
  }
}

void OutputFile::finish() {
  if (fd_ < 0) throw Error(fmt::format("{} {}: finished after an error or twice", what_, path_));
  flush();
  const int fd = fd_;
  fd_ = -1;
  finished_ = true;
  // The close reports what a network or full file system could not store.
  if (fd > STDERR_FILENO && close(fd) != 0) fail("close", errno);
}

void OutputFile::commit() {
  if (!finished_) finish();
  if (committed_) throw Error(fmt::format("{} {}: committed twice", what_, path_));
  if (!temp_.empty() && std::rename(temp_.c_str(), target_.c_str()) != 0) fail("rename", errno);
  committed_ = true;
}

void check_distinct_outputs(const std::vector<std::string>& paths) {
  std::vector<fs::path> seen;
  for (const std::string& p : paths) {
    if (p == "-") continue;
    std::error_code ec;
    fs::path normal = fs::weakly_canonical(p, ec);
    if (ec) normal = fs::absolute(p).lexically_normal();
    if (std::find(seen.begin(), seen.end(), normal) != seen.end())
      throw Error(fmt::format("{}: named as two outputs", p));
    seen.push_back(normal);
  }
}

void print_stdout(std::string_view text) {
  if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::ferror(stdout))
    throw Error(fmt::format("standard output: write failed: {}", std::strerror(errno)));
}

void print_stderr(std::string_view text) noexcept {
  std::fwrite(text.data(), 1, text.size(), stderr);
}

}  // namespace ventus::cli
