// Reading input files (include/ventus/file.h).
#include "ventus/file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <new>

#include "ventus/error.h"

namespace ventus {

namespace {

// Why open() of an input failed, in words that say what the user can fix.
std::string open_failure(const std::string& path, int error) {
  struct stat link;
  if (error == ENOENT && lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode))
    return fmt::format("{}: cannot open file: a dangling symbolic link (its target does not exist)",
                       path);
  if (error == ELOOP)
    return fmt::format("{}: cannot open file: a symbolic link loop ({})", path,
                       std::strerror(error));
  if (error == ENOENT) return fmt::format("{}: cannot open file", path);
  return fmt::format("{}: cannot open file: {}", path, std::strerror(error));
}

}  // namespace

std::string read_descriptor(int fd, const std::string& name, const ReadOptions& options) {
  struct stat st;
  if (fstat(fd, &st) != 0)
    throw Error(fmt::format("{}: cannot read: {}", name, std::strerror(errno)));
  if (S_ISDIR(st.st_mode)) throw Error(fmt::format("{}: is a directory, not a file", name));
  if (!options.accept_streams && !S_ISREG(st.st_mode))
    throw Error(fmt::format("{}: not a regular file (a FIFO, socket or device)", name));
  std::string bytes;
  try {
    if (S_ISREG(st.st_mode) && static_cast<uint64_t>(st.st_size) <= options.max_bytes)
      bytes.reserve(static_cast<size_t>(st.st_size));
    char block[1 << 16];
    while (true) {
      const ssize_t n = ::read(fd, block, sizeof block);
      if (n == 0) break;
      if (n < 0) {
        if (errno == EINTR) continue;
        throw Error(fmt::format("{}: read failed: {}", name, std::strerror(errno)));
      }
      if (bytes.size() + static_cast<uint64_t>(n) > options.max_bytes)
        throw Error(fmt::format("{}: larger than {} bytes, the most an input may hold", name,
                                options.max_bytes));
      bytes.append(block, static_cast<size_t>(n));
    }
  } catch (const std::bad_alloc&) {
    throw Error(
        fmt::format("{}: not enough memory to read it ({} bytes read)", name, bytes.size()));
  }
  return bytes;
}

std::string read_input_file(const std::string& path, const ReadOptions& options) {
  // Without streams, O_NONBLOCK makes the open of a FIFO return at once (read_descriptor
  // then refuses it); it changes nothing for a regular file.
  const int flags = O_RDONLY | O_CLOEXEC | (options.accept_streams ? 0 : O_NONBLOCK);
  const int fd = open(path.c_str(), flags);
  if (fd < 0) throw Error(open_failure(path, errno));
  try {
    std::string bytes = read_descriptor(fd, path, options);
    close(fd);
    return bytes;
  } catch (...) {
    close(fd);
    throw;
  }
}

std::vector<uint8_t> read_input_bytes(const std::string& path, const ReadOptions& options) {
  const std::string bytes = read_input_file(path, options);
  return {bytes.begin(), bytes.end()};
}

}  // namespace ventus
