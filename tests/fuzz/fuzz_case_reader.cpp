// libFuzzer target: the hardware-case reader (ventus::cases::load_case) on a case folder
// written from the input. The input is a list of files in the style of `head a b`:
//
//   ==> case.txt <==          a regular file, its contents the lines up to the next header
//   ==> k.data -> k.dat <==   a symbolic link (dangling, looping, to a folder...)
//   ==> k.data/ <==           a folder
//
// Names are single path components of [A-Za-z0-9._-]. The reader must return a case or
// throw ventus::Error; anything else (another exception, a crash, a sanitizer report) is a
// bug. Seeds: tests/fuzz/corpus/case_reader/ (the shipped cases in this form).
#include <unistd.h>

#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "ventus/case.h"
#include "ventus/error.h"

namespace {

namespace fs = std::filesystem;

bool is_plain_name(std::string_view name) {
  if (name.empty() || name == "." || name == ".." || name.size() > 64) return false;
  for (const char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-')
      return false;
  return true;
}

// One folder per process, emptied before every input and removed at exit.
const fs::path& scratch_folder() {
  struct Folder {
    fs::path path;
    Folder() {
      std::string pattern = (fs::temp_directory_path() / "ventus-fuzz-case-XXXXXX").string();
      if (!mkdtemp(pattern.data())) std::abort();
      path = pattern;
    }
    ~Folder() {
      std::error_code ignored;
      fs::remove_all(path, ignored);
    }
  };
  static const Folder folder;
  return folder.path;
}

// Writes the input's files into `dir`.
void write_files(std::string_view input, const fs::path& dir) {
  constexpr std::string_view kOpen = "==> ", kClose = " <==";
  size_t pos = 0;
  while (pos < input.size()) {
    size_t end = input.find('\n', pos);
    if (end == std::string_view::npos) end = input.size();
    const std::string_view line = input.substr(pos, end - pos);
    pos = end + 1;
    if (!line.starts_with(kOpen) || !line.ends_with(kClose) ||
        line.size() < kOpen.size() + kClose.size())
      continue;
    std::string_view header = line.substr(kOpen.size(), line.size() - kOpen.size() - kClose.size());
    // The contents: up to the next header line.
    size_t next = pos;
    while (next < input.size() && input.compare(next, kOpen.size(), kOpen) != 0) {
      const size_t eol = input.find('\n', next);
      next = eol == std::string_view::npos ? input.size() : eol + 1;
    }
    const std::string_view contents =
        input.substr(std::min(pos, input.size()), next - std::min(pos, input.size()));
    pos = next;
    std::error_code ignored;
    if (const size_t arrow = header.find(" -> "); arrow != std::string_view::npos) {
      const std::string_view name = header.substr(0, arrow), target = header.substr(arrow + 4);
      if (is_plain_name(name) && is_plain_name(target))
        fs::create_symlink(std::string(target), dir / std::string(name), ignored);
    } else if (header.ends_with('/')) {
      header.remove_suffix(1);
      if (is_plain_name(header)) fs::create_directory(dir / std::string(header), ignored);
    } else if (is_plain_name(header)) {
      std::ofstream out(dir / std::string(header), std::ios::binary | std::ios::app);
      out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const fs::path& dir = scratch_folder();
  for (const fs::directory_entry& e : fs::directory_iterator(dir)) fs::remove_all(e.path());
  write_files(std::string_view(reinterpret_cast<const char*>(data), size), dir);
  try {
    const ventus::cases::Case c = ventus::cases::load_case(dir);
    for (const ventus::cases::CaseLaunch& l : c.launches) ventus::cases::to_kernel_launch(l);
  } catch (const ventus::Error&) {
  }
  return 0;
}
