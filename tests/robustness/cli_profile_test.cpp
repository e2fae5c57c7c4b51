// Profiling translated code (issue 15): with VENTUS_JIT_PERF set, every translated block is
// named, by its entry pc, in the jitdump file that `perf inject --jit` turns into symbols.
#include <cstdlib>
#include <filesystem>
#include <optional>

#include "cli.h"

namespace ventus::test {
namespace {

namespace fs = std::filesystem;

// Sets an environment variable for one test (the child `ventus` inherits it).
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old_)
      setenv(name_, old_->c_str(), 1);
    else
      unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

class Profile : public CliTest {
 protected:
  // The jitdump files LLVM's perf listener wrote under JITDUMPDIR = the scratch folder.
  std::vector<fs::path> jitdumps() const {
    std::vector<fs::path> found;
    if (!fs::exists(dir_ / ".debug")) return found;
    for (const auto& e : fs::recursive_directory_iterator(dir_ / ".debug"))
      if (e.path().extension() == ".dump") found.push_back(e.path());
    return found;
  }
  CliResult bench_saxpy() {
    return run_ventus({"bench", "-k", "saxpy", "--scale", "1", "--repeat", "1", "--jit", "force"});
  }
};

TEST_F(Profile, VentusJitPerfNamesEveryBlockByItsPcInAJitdump) {
  ScopedEnv dump_dir("JITDUMPDIR", dir_.string());
  ScopedEnv perf("VENTUS_JIT_PERF", "1");
  const CliResult r = bench_saxpy();
  ASSERT_EQ(r.status, 0) << r.describe();
  const std::vector<fs::path> dumps = jitdumps();
  ASSERT_EQ(dumps.size(), 1u);
  const std::string dump = read_file_text(dumps[0].string());
  // The start code is loaded at CODE_BASE, 0x80000000 (`ventus abi`), and with --jit force
  // its first block is translated.
  EXPECT_NE(dump.find("block_80000000_"), std::string::npos);
}

TEST_F(Profile, WithoutVentusJitPerfNothingIsWritten) {
  ScopedEnv dump_dir("JITDUMPDIR", dir_.string());
  ScopedEnv perf("VENTUS_JIT_PERF", "0");
  const CliResult r = bench_saxpy();
  ASSERT_EQ(r.status, 0) << r.describe();
  EXPECT_TRUE(jitdumps().empty());
}

}  // namespace
}  // namespace ventus::test
