// Runs a libFuzzer target's LLVMFuzzerTestOneInput on files without libFuzzer: each argument
// is a file or a folder of files (its seed corpus). The target aborts on what it finds, so a
// clean exit means every input passed.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

int replay(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "fuzz_replay: cannot read %s\n", file.c_str());
    return 1;
  }
  const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), {});
  LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int failures = 0, inputs = 0;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path path = argv[i];
    if (std::filesystem::is_directory(path)) {
      for (const auto& entry : std::filesystem::directory_iterator(path)) {
        if (!entry.is_regular_file()) continue;
        failures += replay(entry.path());
        ++inputs;
      }
    } else {
      failures += replay(path);
      ++inputs;
    }
  }
  if (inputs == 0) {
    std::fprintf(stderr, "fuzz_replay: no inputs (usage: %s FILE_OR_FOLDER...)\n", argv[0]);
    return 1;
  }
  std::printf("fuzz_replay: %d inputs\n", inputs);
  return failures == 0 ? 0 : 1;
}
