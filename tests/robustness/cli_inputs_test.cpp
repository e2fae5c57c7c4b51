// Hostile inputs through every subcommand that reads a file (issue 16, items 1 and 2):
// missing files, directories, dangling and looping symbolic links, empty files and binary
// garbage give exit status 1 and an error naming the file; nothing is written.
#include <filesystem>

#include "cli.h"

namespace ventus::test {
namespace {

namespace fs = std::filesystem;

class Inputs : public CliTest {
 protected:
  // Every way of reading `input` as a file; each must fail cleanly, naming it, and write
  // nothing into the scratch folder.
  void expect_every_reader_fails(const std::string& input, const std::string& why) {
    const std::string out = path("out.elf");
    const std::string source_dir = VENTUS_SOURCE_DIR;
    const std::vector<std::pair<std::string, std::vector<std::string>>> commands = {
        {"as", {"as", input, "-o", out}},
        {"cc", {"cc", input, "-o", out}},
        {"objdump", {"objdump", input}},
        {"objdump", {"objdump", "--raw", input}},
        {"run", {"run", input}},
        {"run", {"run", source_dir + "/examples/vecadd.s", "--arg", "f32[]:file:" + input}},
        {"run", {"run", source_dir + "/examples/vecadd.s", "--arg", "f32[]:text:" + input}},
    };
    const auto before = leftovers();
    for (const auto& [sub, args] : commands) {
      const CliResult r = run_ventus(args);
      EXPECT_TRUE(fails_cleanly(r, sub, {input, why})) << "ventus " << args[0] << " " << args[1];
      EXPECT_EQ(leftovers(), before) << "ventus " << args[0] << " " << args[1];
    }
  }
};

TEST_F(Inputs, MissingFile) {
  expect_every_reader_fails(path("missing.s"), "cannot open file");
}

TEST_F(Inputs, Directory) {
  fs::create_directory(path("folder.s"));
  expect_every_reader_fails(path("folder.s"), "is a directory");
}

TEST_F(Inputs, DanglingSymbolicLink) {
  fs::create_symlink(path("nowhere.s"), path("dangling.s"));
  expect_every_reader_fails(path("dangling.s"), "dangling symbolic link");
}

TEST_F(Inputs, LoopingSymbolicLink) {
  fs::create_symlink(path("loop_b.s"), path("loop_a.s"));
  fs::create_symlink(path("loop_a.s"), path("loop_b.s"));
  expect_every_reader_fails(path("loop_a.s"), "symbolic link loop");
}

TEST_F(Inputs, UnreadableFile) {
  if (geteuid() == 0) GTEST_SKIP() << "root reads every file";
  write("secret.s", "nop\n");
  fs::permissions(path("secret.s"), fs::perms::none);
  expect_every_reader_fails(path("secret.s"), "Permission denied");
}

// `ventus as DIR` and `ventus cc DIR` used to "succeed" with an ELF holding only the start
// code: the directory read as an empty source.
TEST_F(Inputs, DirectoryIsNotAnEmptySource) {
  fs::create_directory(path("src"));
  const std::string out = path("k.elf");
  EXPECT_TRUE(fails_cleanly(run_ventus({"as", path("src"), "-o", out}), "as", {"is a directory"}));
  EXPECT_TRUE(fails_cleanly(run_ventus({"cc", path("src"), "-o", out}), "cc", {"is a directory"}));
  EXPECT_FALSE(fs::exists(out));
}

// An endless input (a device) is refused at 1 GiB instead of filling memory.
TEST_F(Inputs, EndlessInputIsRefused) {
  if (!fs::exists("/dev/zero")) GTEST_SKIP() << "no /dev/zero";
  EXPECT_TRUE(fails_cleanly(run_ventus({"objdump", "/dev/zero"}), "objdump",
                            {"/dev/zero: larger than 1073741824 bytes"}));
  EXPECT_TRUE(fails_cleanly(run_ventus({"as", "/dev/zero", "-o", path("z.elf")}), "as",
                            {"/dev/zero: larger than"}));
  EXPECT_EQ(leftovers(), std::vector<std::string>{});
}

TEST_F(Inputs, EmptyAndGarbageFiles) {
  const std::string empty = write("empty.bin", "");
  std::string garbage;
  for (int i = 0; i < 4096; ++i) garbage += static_cast<char>((i * 7919 + 13) & 0xff);
  const std::string junk = write("junk.bin", garbage);
  const std::string fake_elf = write("fake.elf", std::string("\177ELF") + garbage.substr(0, 40));
  EXPECT_TRUE(fails_cleanly(run_ventus({"run", junk}), "run", {junk, "neither an ELF"}));
  EXPECT_TRUE(fails_cleanly(run_ventus({"run", fake_elf}), "run", {fake_elf}));
  EXPECT_TRUE(fails_cleanly(run_ventus({"objdump", fake_elf}), "objdump", {fake_elf}));
  EXPECT_TRUE(fails_cleanly(run_ventus({"objdump", junk}), "objdump", {junk}));
  EXPECT_TRUE(fails_cleanly(run_ventus({"run", empty}), "run", {"kernel"}));
  const CliResult as_junk = run_ventus({"as", junk, "-o", path("junk.elf")});
  EXPECT_EQ(as_junk.status, 1) << as_junk.describe();
  EXPECT_FALSE(fs::exists(path("junk.elf")));
  // An empty buffer file and a file of 4n+1 bytes are not buffers.
  const std::string source_dir = VENTUS_SOURCE_DIR;
  const std::string odd = write("odd.bin", "12345");
  EXPECT_TRUE(fails_cleanly(
      run_ventus({"run", source_dir + "/examples/vecadd.s", "--arg", "f32[]:file:" + empty}), "run",
      {empty, "0 bytes"}));
  EXPECT_TRUE(fails_cleanly(
      run_ventus({"run", source_dir + "/examples/vecadd.s", "--arg", "f32[]:file:" + odd}), "run",
      {odd, "5 bytes"}));
  EXPECT_TRUE(fails_cleanly(
      run_ventus({"run", source_dir + "/examples/vecadd.s", "--arg", "f32[]:text:" + empty}), "run",
      {empty, "holds no numbers"}));
  EXPECT_TRUE(fails_cleanly(
      run_ventus({"run", source_dir + "/examples/vecadd.s", "--arg", "i32[]:text:" + junk}), "run",
      {junk, "line 1"}));
}

}  // namespace
}  // namespace ventus::test
