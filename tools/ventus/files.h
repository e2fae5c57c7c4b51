// Files of the `ventus` tool: every output is written through these (inputs: ventus/file.h),
// so that each subcommand gives the same clear errors and never leaves a half-written file.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ventus/file.h"

namespace ventus::cli {

// Inputs are read with ventus::read_input_file(path, ventus::kToolInput) (ventus/file.h):
// FIFOs and character devices (/dev/stdin, <(...)) are read like files, up to 1 GiB.
// Standard input, whole (`ventus cc -`), with the same policy.
std::string read_standard_input();

// An output file that is written whole or not at all. The constructor checks the path
// before any long work starts: it refuses a directory, a missing folder, an unwritable
// place and an input of the command ("input file 'k.s' is the same as output file", as gcc
// says), and creates a temporary file beside the target (".NAME.XXXXXX"). commit()
// renames it over the target once everything is written and closed without an error;
// without commit() (an error on the way) the temporary file is removed and an existing
// target is left as it was.
// Special targets are written in place: "-" (standard output), character devices such as
// /dev/null and FIFOs. Every write and the close are checked ("PATH: write failed: No
// space left on device").
class OutputFile {
 public:
  // what: the option or role for messages, e.g. "--dump" or "-o".
  OutputFile(std::string path, std::string what, std::span<const std::string> inputs);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  OutputFile(OutputFile&& other) noexcept;

  void write(std::string_view bytes);
  void write(std::span<const uint8_t> bytes) {
    write(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  }
  uint64_t bytes_written() const { return written_; }
  // Writes what is buffered and closes the file: every error but the rename's. commit()
  // finishes first if needed, then renames the temporary file over the target.
  void finish();
  void commit();
  const std::string& path() const { return path_; }

 private:
  static constexpr size_t kBlock = size_t{1} << 16;  // bytes per write(2)

  void flush();
  void write_all(std::string_view bytes);
  [[noreturn]] void fail(std::string_view doing, int error);

  std::string path_;    // as the user gave it
  std::string what_;    // option, for messages
  std::string target_;  // where commit() renames to ("" when written in place)
  std::string temp_;    // the temporary file ("" when written in place)
  int fd_ = -1;
  bool finished_ = false;
  bool committed_ = false;
  std::string buffer_;  // written in blocks
  uint64_t written_ = 0;
};

// Two outputs of one command that are one file would overwrite each other: ventus::Error
// "PATH: named as two outputs".
void check_distinct_outputs(const std::vector<std::string>& paths);

// Writes to standard output, checked: ventus::Error "standard output: write failed: ..."
// (a full disk, a closed pipe). The tool's main() checks the final flush too.
void print_stdout(std::string_view text);

// Writes a diagnostic to standard error. A failure there has nowhere to be reported and is
// ignored; fmt::print would throw, also inside a simulating thread (progress reports).
void print_stderr(std::string_view text) noexcept;

}  // namespace ventus::cli
