// The other subcommands under hostile input (issue 16, items 1, 7 and 25): `ventus case
// --all` keeps going past a broken case, `ventus bench` refuses sizes it cannot allocate,
// `objdump --raw --base` refuses ranges past 2^32, and every numeric option is strict.
#include <filesystem>
#include <functional>

#include "cli.h"

namespace ventus::test {
namespace {

namespace fs = std::filesystem;

const std::string kSourceDir = VENTUS_SOURCE_DIR;
const std::string kVecadd = kSourceDir + "/examples/vecadd.s";

class Commands : public CliTest {
 protected:
  // A copy of a shipped hardware case, writable; empty when the cases are absent.
  std::string copy_case(const std::string& name, const std::string& as) {
    const fs::path from = fs::path(kSourceDir) / "../shared/cases" / name;
    if (!fs::exists(from / "case.txt")) return "";
    fs::create_directories(path(as));
    for (const auto& e : fs::directory_iterator(from)) {
      fs::copy_file(e.path(), path(as) / e.path().filename());
      fs::permissions(path(as) / e.path().filename(), fs::perms::owner_write,
                      fs::perm_options::add);
    }
    return path(as);
  }
  fs::path path(const std::string& name) const { return dir_ / name; }
};

// A case whose .data file is missing, a directory, a dangling or a looping link fails on
// its own line; the cases before and after it still run and report, and the exit status
// says that something failed.
TEST_F(Commands, CaseAllContinuesPastABrokenCase) {
  const std::string good = copy_case("vecadd-4w16t", "cases/a_good");
  if (good.empty()) GTEST_SKIP() << "../shared/cases is absent";
  copy_case("vecadd-4w16t", "cases/z_good");
  const std::vector<std::pair<std::string, std::function<void(const fs::path&)>>> damages = {
      {"missing", [](const fs::path& data) { fs::remove(data); }},
      {"directory", [](const fs::path& data) { fs::remove(data), fs::create_directory(data); }},
      {"dangling",
       [](const fs::path& data) { fs::remove(data), fs::create_symlink("nowhere", data); }},
      {"looping",
       [](const fs::path& data) { fs::remove(data), fs::create_symlink(data.filename(), data); }},
  };
  for (const auto& [name, damage] : damages) {
    const std::string broken = copy_case("vecadd-4w16t", "cases/m_broken_" + name);
    damage(fs::path(broken) / "vecadd_0.data");
  }
  const CliResult r = run_ventus({"case", "--all", path("cases").string()});
  EXPECT_EQ(r.status, 1) << r.describe();
  EXPECT_NE(r.out.find("PASS "), std::string::npos) << r.describe();
  EXPECT_NE(r.out.find("2 of 6 cases passed"), std::string::npos) << r.describe();
  for (const auto& [name, damage] : damages)
    EXPECT_NE(r.out.find("FAIL m_broken_" + name), std::string::npos)
        << name << ": " << r.describe();
  EXPECT_EQ(r.err.find("terminate"), std::string::npos) << r.describe();
  // One broken case alone: exit status 1 with the error, no abort.
  const CliResult one = run_ventus({"case", path("cases/m_broken_directory").string()});
  EXPECT_EQ(one.status, 1) << one.describe();
  EXPECT_NE(one.out.find("FAIL"), std::string::npos) << one.describe();
  EXPECT_EQ(one.err.find("terminate"), std::string::npos) << one.describe();
}

TEST_F(Commands, CaseAllRootMustBeAFolder) {
  fs::create_symlink("loop", path("loop"));
  EXPECT_TRUE(fails_cleanly(run_ventus({"case", "--all", path("loop").string()}), "case",
                            {"loop: not a directory", "symbolic links"}));
  EXPECT_TRUE(fails_cleanly(run_ventus({"case", "--all", path("none").string()}), "case",
                            {"none: not a directory", "No such file"}));
  fs::create_directory(path("empty"));
  EXPECT_TRUE(fails_cleanly(run_ventus({"case", "--all", path("empty").string()}), "case",
                            {"no case folders"}));
}

TEST_F(Commands, CaseProgramMustBeAFile) {
  const std::string good = copy_case("vecadd-4w16t", "c");
  if (good.empty()) GTEST_SKIP() << "../shared/cases is absent";
  fs::create_directory(path("folder.elf"));
  const CliResult r = run_ventus({"case", good, "--program", path("folder.elf").string()});
  EXPECT_EQ(r.status, 1) << r.describe();
  EXPECT_NE(r.out.find("folder.elf: is a directory"), std::string::npos) << r.describe();
}

// --program reads the case's listing for the kernels' names: a directory there is named as
// such (it read as a listing without symbols: "no symbol at the entry").
TEST_F(Commands, CaseListingMustBeAFile) {
  const std::string c = copy_case("vecadd-4w16t", "c");
  if (c.empty()) GTEST_SKIP() << "../shared/cases is absent";
  const std::string elf = path("v.elf").string();
  const CliResult compiled = run_ventus({"cc", c + "/object.cl", "-o", elf});
  if (compiled.status != 0) GTEST_SKIP() << "ventus cc is not built: " << compiled.describe();
  fs::remove(c + "/object.dump");
  fs::create_directory(c + "/object.dump");
  const CliResult r = run_ventus({"case", c, "--program", elf});
  EXPECT_EQ(r.status, 1) << r.describe();
  EXPECT_NE(r.out.find("object.dump: is a directory, not the listing"), std::string::npos)
      << r.describe();
}

TEST_F(Commands, BenchRefusesSizesItCannotAllocate) {
  if (run_ventus({"bench", "--help"}).status != 0) GTEST_SKIP() << "ventus bench is not built";
  const CliResult r = run_ventus({"bench", "--scale", "99999999"});
  EXPECT_TRUE(fails_cleanly(r, "bench", {"--scale", "too large", "at most 256"}));
  EXPECT_EQ(r.out, "");  // refused before anything ran
  EXPECT_TRUE(
      fails_cleanly(run_ventus({"bench", "--scale", "0"}), "bench", {"--scale", "too small"}));
  EXPECT_TRUE(fails_cleanly(run_ventus({"bench", "--repeat", "-1"}), "bench", {"--repeat"}));
  EXPECT_TRUE(fails_cleanly(run_ventus({"bench", "--threads", "33"}), "bench", {"--threads"}));
}

// std::bad_alloc used to escape main (std::terminate, exit status 134).
TEST_F(Commands, OutOfMemoryIsAnError) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer reserves more address space than the limit";
#endif
  const std::string spin =
      write("spin.s", ".text\n.globl spin\n.type spin, @function\nspin:\n.Lloop:\n j .Lloop\n");
  CliOptions small;
  small.address_space_limit = uint64_t{700} << 20;  // the 1 GiB buffer does not fit
  EXPECT_TRUE(fails_cleanly(run_ventus({"run", spin, "--arg", "i32[]:zeros:268435456"}, small),
                            "run", {"out of memory"}));
}

TEST_F(Commands, ObjdumpRawRangeStaysInTheAddressSpace) {
  const std::string words = write("w.bin", std::string(8, '\0'));
  EXPECT_TRUE(
      fails_cleanly(run_ventus({"objdump", "--raw", "--base", "0xfffffffc", words}), "objdump",
                    {"--base 0xfffffffc", "8 bytes", "past the end of the 32-bit address space"}));
  EXPECT_TRUE(fails_cleanly(run_ventus({"objdump", "--raw", "--base", "0x100000000", words}),
                            "objdump", {"--base", "not a 32-bit address"}));
  const CliResult ok = run_ventus({"objdump", "--raw", "--base", "0xfffffff8", words});
  EXPECT_EQ(ok.status, 0) << ok.describe();
  EXPECT_NE(ok.out.find("fffffffc"), std::string::npos) << ok.describe();
}

TEST_F(Commands, NumericOptionsAreStrict) {
  const std::string elf = path("k.elf").string();
  EXPECT_TRUE(fails_cleanly(run_ventus({"as", kVecadd, "-o", elf, "--max-errors", "-1"}), "as",
                            {"--max-errors"}));
  EXPECT_TRUE(fails_cleanly(run_ventus({"as", kVecadd, "-o", elf, "-Ttext=0x1g"}), "as",
                            {"-Ttext", "not a 32-bit address"}));
  EXPECT_TRUE(
      fails_cleanly(run_ventus({"as", kVecadd, "-o", elf, "--section-start", ".text=4294967296"}),
                    "as", {"--section-start", "not a 32-bit address"}));
  EXPECT_TRUE(
      fails_cleanly(run_ventus({"case", "--host-threads", "0", "x"}), "case", {"--host-threads"}));
  EXPECT_TRUE(fails_cleanly(run_ventus({"case", "--max-mismatches", "1e3", "x"}), "case",
                            {"--max-mismatches"}));
  EXPECT_FALSE(fs::exists(elf));
}

}  // namespace
}  // namespace ventus::test
