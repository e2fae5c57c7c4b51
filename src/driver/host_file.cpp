// Reading host files (host_file.h).
#include "host_file.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "ventus/error.h"

namespace ventus::driver {

std::vector<uint8_t> read_host_file(const std::string& path) {
  // A directory opens as a stream but fails (with an exception) on the first read.
  std::error_code error;
  if (std::filesystem::is_directory(path, error))
    throw Error(fmt::format("{}: is a directory, not a file", path));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(fmt::format("{}: cannot open file", path));
  std::vector<uint8_t> bytes;
  try {
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  } catch (const std::exception& e) {
    throw Error(fmt::format("{}: cannot read the file: {}", path, e.what()));
  }
  if (in.bad()) throw Error(fmt::format("{}: cannot read the file", path));
  return bytes;
}

}  // namespace ventus::driver
