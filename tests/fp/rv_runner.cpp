#include "rv_runner.h"

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace ventus::testing {
namespace {

namespace fs = std::filesystem;

bool on_path(const std::string& tool) {
  return std::system(fmt::format("command -v {} >/dev/null 2>&1", tool).c_str()) == 0;
}

// Runs a shell command, returns its stdout; throws with stderr (captured to a file) on failure.
std::string run_command(const std::string& command, const fs::path& stderr_file) {
  FILE* pipe = popen(fmt::format("{} 2>{}", command, stderr_file.string()).c_str(), "r");
  if (!pipe) throw std::runtime_error("cannot start: " + command);
  std::string output;
  char buffer[65536];
  size_t n;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, n);
  const int status = pclose(pipe);
  if (status != 0) {
    std::ifstream err(stderr_file);
    const std::string message((std::istreambuf_iterator<char>(err)), {});
    throw std::runtime_error(fmt::format("`{}` failed (status {}): {}", command, status, message));
  }
  return output;
}

struct TempDir {
  fs::path path;
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "ventus-rv-XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    path = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
};

}  // namespace

std::string missing_rv_tools() {
  std::string missing;
  for (const char* tool : {"riscv64-unknown-elf-as", "riscv64-unknown-elf-ld",
                           "riscv64-unknown-elf-objcopy", "qemu-riscv32"}) {
    if (!on_path(tool)) missing += fmt::format("{}{}", missing.empty() ? "" : ", ", tool);
  }
  return missing;
}

const RvTarget& rv32_f_vector() {
  static const RvTarget target{"rv32imf_zve32f", "rv32,v=true,vext_spec=v1.0,vlen=128,elen=32"};
  return target;
}

const RvTarget& rv32_zfinx() {
  static const RvTarget target{"rv32im_zicsr_zfinx", "rv32,f=false,d=false,v=false,zfinx=true"};
  return target;
}

namespace {

// Assembles and links in `dir`; returns the executable's path.
fs::path build(const fs::path& dir, const std::string& assembly, const std::string& march,
               const std::string& link_options) {
  const fs::path source = dir / "program.s", object = dir / "program.o", binary = dir / "program",
                 errors = dir / "stderr.txt";
  std::ofstream(source) << assembly;
  run_command(fmt::format("riscv64-unknown-elf-as -march={} -mabi=ilp32 {} -o {}", march,
                          source.string(), object.string()),
              errors);
  run_command(fmt::format("riscv64-unknown-elf-ld -m elf32lriscv -e _start {} {} -o {}",
                          link_options, object.string(), binary.string()),
              errors);
  return binary;
}

}  // namespace

std::vector<uint8_t> run_rv32(const std::string& assembly, const RvTarget& target) {
  const TempDir dir;
  const fs::path binary = build(dir.path, assembly, target.march, "");
  const std::string output =
      run_command(fmt::format("qemu-riscv32 -cpu {} {}", target.qemu_cpu, binary.string()),
                  dir.path / "stderr.txt");
  return {output.begin(), output.end()};
}

std::vector<uint8_t> flat_image(const std::string& assembly, const std::string& march,
                                uint32_t text_address) {
  const TempDir dir;
  const fs::path binary =
      build(dir.path, assembly, march, fmt::format("-Ttext={:#x}", text_address));
  const fs::path image = dir.path / "image.bin";
  run_command(
      fmt::format("riscv64-unknown-elf-objcopy -O binary {} {}", binary.string(), image.string()),
      dir.path / "stderr.txt");
  std::ifstream in(image, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

std::vector<uint32_t> words_of(const std::vector<uint8_t>& bytes) {
  std::vector<uint32_t> words(bytes.size() / 4);
  for (size_t i = 0; i < words.size(); ++i) {
    words[i] = uint32_t{bytes[4 * i]} | uint32_t{bytes[4 * i + 1]} << 8 |
               uint32_t{bytes[4 * i + 2]} << 16 | uint32_t{bytes[4 * i + 3]} << 24;
  }
  return words;
}

}  // namespace ventus::testing
