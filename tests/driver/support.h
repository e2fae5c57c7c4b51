// Helpers of the driver and kernel tests: source files of the repository and small programs.
#pragma once

#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "ventus/asm.h"
#include "ventus/elf.h"
#include "ventus/error.h"
#include "ventus/runtime.h"

namespace ventus::test {

inline std::string source_text(const std::string& relative_path) {
  const std::string path = std::string(VENTUS_SOURCE_DIR) + "/" + relative_path;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(path + ": cannot open file");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Links repository files (paths relative to the source root) into a program.
inline rt::Program program_from(const std::vector<std::string>& relative_paths) {
  std::vector<assembler::SourceFile> sources;
  for (const std::string& p : relative_paths) sources.push_back({p, source_text(p)});
  return rt::Program::from_assembly(sources);
}

inline rt::Program program_from_text(const std::string& name, const std::string& text) {
  return rt::Program::from_assembly({{name, text}});
}

// The program of `image` with `json` as its `.ventus.kernels` section (the compiler's
// kernel metadata).
inline rt::Program with_kernel_metadata(elf::Image image, const std::string& json) {
  elf::Section section;
  section.name = ".ventus.kernels";
  section.bytes.assign(json.begin(), json.end());
  section.size = static_cast<uint32_t>(json.size());
  image.sections.push_back(std::move(section));
  return rt::Program::from_image(std::move(image));
}

// What f throws as a ventus::Error, or "(no error)".
inline std::string launch_error(const std::function<void()>& f) {
  try {
    f();
  } catch (const ventus::Error& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace ventus::test
