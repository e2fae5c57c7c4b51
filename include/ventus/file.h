// Reading a whole input file, with a ventus::Error that names the file and says why it
// cannot be read (a missing file, a folder, a dangling or looping symbolic link, a FIFO or
// device, no permission, a read error) rather than a std::filesystem or iostream exception,
// a hang on a FIFO, or an empty result taken for an empty file.
#pragma once

#include <cerrno>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

#include "ventus/error.h"

namespace ventus {

inline std::string read_input_file(const std::filesystem::path& path) {
  namespace fs = std::filesystem;
  const auto fail = [&](const std::string& why) {
    throw Error(path.string() + ": cannot read: " + why);
  };
  std::error_code ec;
  const fs::file_status link = fs::symlink_status(path, ec);
  const fs::file_status target = fs::status(path, ec);
  if (ec && ec != std::errc::no_such_file_or_directory)
    fail(ec.message());  // e.g. too many levels of symbolic links
  if (!fs::exists(target))
    fail(fs::is_symlink(link) ? "a symbolic link to a missing file" : "no such file");
  if (fs::is_directory(target)) fail("it is a folder, not a file");
  if (!fs::is_regular_file(target)) fail("not a regular file");
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(std::strerror(errno));
  std::string text;
  try {
    char chunk[1 << 16];
    while (in.read(chunk, sizeof chunk) || in.gcount() > 0)
      text.append(chunk, static_cast<size_t>(in.gcount()));
  } catch (const std::exception& e) {  // a failing stream buffer, or no memory for the text
    fail(e.what());
  }
  if (in.bad()) fail("read error");
  return text;
}

}  // namespace ventus
