// Reading a whole input file, with a ventus::Error "PATH: why" that says what the user can
// fix (a missing file, a folder, a dangling or looping symbolic link, a FIFO or device where
// only files are taken, no permission, a file too large, a read error) rather than a
// std::filesystem or iostream exception, a hang on a FIFO, or an empty result taken for an
// empty file. Every reader of the project (the case reader, the ELF reader, the driver, the
// runtime and the `ventus` tool) goes through these; the library is ventus_common.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace ventus {

// The two policies in which the readers differ.
struct ReadOptions {
  // Whether FIFOs and character devices (/dev/stdin, <(...)) are read like files. When
  // false they are refused ("not a regular file") without being opened for long, so a
  // reader that takes only files cannot hang on a FIFO nobody writes.
  bool accept_streams = false;
  // Inputs larger than this are refused ("larger than N bytes"), so reading /dev/zero ends.
  uint64_t max_bytes = std::numeric_limits<uint64_t>::max();
};

// The `ventus` tool's policy: streams are read, inputs up to 1 GiB (a 2^28-element buffer
// file).
inline constexpr uint64_t kMaxToolInputBytes = uint64_t{1} << 30;
inline constexpr ReadOptions kToolInput{.accept_streams = true, .max_bytes = kMaxToolInputBytes};

std::string read_input_file(const std::string& path, const ReadOptions& options = {});
std::vector<uint8_t> read_input_bytes(const std::string& path, const ReadOptions& options = {});
// Reads an open descriptor to its end (standard input); name for messages. The descriptor
// stays open.
std::string read_descriptor(int fd, const std::string& name, const ReadOptions& options = {});

}  // namespace ventus
