// Outputs of every subcommand (issue 16, items 8, 12, 13 and 14): write errors (a full disk
// is /dev/full) are errors with exit status 1; output paths are checked before the work
// starts; an output is written whole or not at all (an existing file survives a failure);
// an output that names an input is refused.
#include <filesystem>

#include "cli.h"

namespace ventus::test {
namespace {

namespace fs = std::filesystem;

const std::string kSourceDir = VENTUS_SOURCE_DIR;
const std::string kVecadd = kSourceDir + "/examples/vecadd.s";
const std::string kKernelSource =
    "__kernel void twice(__global int* x) { x[get_global_id(0)] *= 2; }\n";

std::vector<std::string> vecadd_run(std::vector<std::string> extra) {
  std::vector<std::string> args = {"run",   kVecadd,
                                   "-g",    "64",
                                   "--arg", "a=f32[]:iota:64",
                                   "--arg", "b=f32[]:iota:64",
                                   "--arg", "c=f32[]:zeros:64",
                                   "--arg", "i32:64",
                                   "-q"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

class Outputs : public CliTest {};

bool have_dev_full() {
  return fs::exists("/dev/full");
}

TEST_F(Outputs, StandardOutputOnAFullDisk) {
  if (!have_dev_full()) GTEST_SKIP() << "no /dev/full";
  const std::string elf = path("k.elf");
  ASSERT_EQ(run_ventus({"as", kVecadd, "-o", elf}).status, 0);
  CliOptions full;
  full.stdout_path = "/dev/full";
  const std::vector<std::pair<std::string, std::vector<std::string>>> commands = {
      {"isa", {"isa"}},
      {"isa", {"isa", "--markdown"}},
      {"objdump", {"objdump", elf}},
      {"objdump", {"objdump", "-t", "-h", "-s", elf}},
      {"objdump", {"objdump", "--raw", elf}},
      {"run", vecadd_run({})},
      {"run",
       {"run", kVecadd, "-g", "64", "--arg", "f32[]:iota:64", "--arg", "f32[]:iota:64", "--arg",
        "f32[]:zeros:64", "--arg", "i32:64"}},
      {"cc", {"cc", write("k.cl", kKernelSource), "-S", "-o", "-"}},
  };
  for (const auto& [sub, args] : commands) {
    const CliResult r = run_ventus(args, full);
    if (sub == "run" && args.back() == "-q") {
      EXPECT_EQ(r.status, 0) << "-q prints nothing: " << r.describe();
      continue;
    }
    EXPECT_TRUE(fails_cleanly(r, sub, {"standard output", "No space left on device"}))
        << "ventus " << args[0] << " " << args[1];
  }
}

TEST_F(Outputs, OutputFilesOnAFullDisk) {
  if (!have_dev_full()) GTEST_SKIP() << "no /dev/full";
  const std::string cl = write("k.cl", kKernelSource);
  EXPECT_TRUE(fails_cleanly(run_ventus({"as", kVecadd, "-o", "/dev/full"}), "as",
                            {"/dev/full", "No space"}));
  for (const std::vector<std::string>& options :
       {std::vector<std::string>{}, {"-S"}, {"-c"}, {"-emit-llvm"}}) {
    std::vector<std::string> args = {"cc", cl, "-o", "/dev/full"};
    args.insert(args.end(), options.begin(), options.end());
    EXPECT_TRUE(fails_cleanly(run_ventus(args), "cc", {"/dev/full", "No space"}))
        << (options.empty() ? "" : options[0]);
  }
  EXPECT_TRUE(fails_cleanly(run_ventus(vecadd_run({"--dump", "c=/dev/full"})), "run",
                            {"--dump /dev/full", "No space"}));
  EXPECT_TRUE(fails_cleanly(run_ventus(vecadd_run({"--trace", "/dev/full"})), "run",
                            {"--trace /dev/full", "No space"}));
  // /dev/null is written in place, not replaced by a regular file.
  EXPECT_EQ(run_ventus({"as", kVecadd, "-o", "/dev/null"}).status, 0);
  EXPECT_FALSE(fs::is_regular_file("/dev/null"));
}

TEST_F(Outputs, PathsAreCheckedBeforeTheRun) {
  // A long run (an endless loop stopped by the budget) must not start when an output
  // cannot be written: the error comes at once and names the option.
  const std::string spin =
      write("spin.s", ".text\n.globl spin\n.type spin, @function\nspin:\n.Lloop:\n j .Lloop\n");
  fs::create_directory(path("folder"));
  const std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> cases = {
      {{"--dump", "0=" + path("folder")}, {"--dump", "is a directory"}},
      {{"--dump", "0=" + path("missing/y.txt")}, {"--dump", "no such folder"}},
      {{"--trace", path("folder")}, {"--trace", "is a directory"}},
      {{"--trace", path("missing/t.log")}, {"--trace", "no such folder"}},
      {{"--dump", "0=" + path("y.bin"), "--dump", "0=" + path("folder/../y.bin")},
       {"named as two outputs"}},
      {{"--dump", "0=" + path("y.bin"), "--trace", path("y.bin")}, {"named as two outputs"}},
      {{"--dump", "0=" + spin}, {"input file", "is the same as output file"}},
  };
  for (const auto& [options, mentions] : cases) {
    std::vector<std::string> args = {"run", spin, "--arg", "i32[]:zeros:4", "--budget", "0"};
    args.insert(args.end(), options.begin(), options.end());
    CliOptions quick;
    quick.timeout = std::chrono::seconds(20);  // --budget 0: the run would never end
    EXPECT_TRUE(fails_cleanly(run_ventus(args, quick), "run", mentions)) << options[1];
  }
  EXPECT_EQ(leftovers(), (std::vector<std::string>{"folder", "spin.s"}));
}

TEST_F(Outputs, OutputThatIsAnInputIsRefused) {
  const std::string source = read_file_text(kVecadd);
  const std::string s = write("k.s", source);
  const std::string cl = write("k.cl", kKernelSource);
  EXPECT_TRUE(fails_cleanly(run_ventus({"as", "-o", s, s}), "as",
                            {"input file '" + s + "' is the same as output file"}));
  EXPECT_TRUE(fails_cleanly(run_ventus({"cc", "-o", cl, cl}), "cc",
                            {"input file '" + cl + "' is the same as output file"}));
  EXPECT_TRUE(fails_cleanly(run_ventus({"cc", "-S", "-o", cl, cl}), "cc", {"same as output file"}));
  // Through another spelling of the path and through a symbolic link.
  fs::create_symlink(s, path("link.s"));
  EXPECT_TRUE(fails_cleanly(run_ventus({"as", "-o", path("link.s"), path("./k.s")}), "as",
                            {"same as output file"}));
  const std::string data = write("in.bin", std::string(256, '\1'));
  EXPECT_TRUE(fails_cleanly(run_ventus({"run", kVecadd, "-g", "64", "--arg", "a=f32[]:file:" + data,
                                        "--arg", "b=f32[]:iota:64", "--arg", "c=f32[]:zeros:64",
                                        "--arg", "i32:64", "--dump", "c=" + data}),
                            "run", {"same as output file"}));
  EXPECT_TRUE(fails_cleanly(run_ventus(vecadd_run({"--dump", "c=" + kVecadd})), "run",
                            {"same as output file"}));
  // Nothing was overwritten.
  EXPECT_EQ(read("k.s"), source);
  EXPECT_EQ(read("k.cl"), kKernelSource);
  EXPECT_EQ(read("in.bin"), std::string(256, '\1'));
}

// cc -c names each object after its source: two sources of one name would write one file.
TEST_F(Outputs, TwoObjectsOfOneNameAreRefused) {
  std::filesystem::create_directory(path("sub"));
  write("a.cl", kKernelSource);
  write("sub/a.cl", kKernelSource);
  CliOptions here;
  here.cwd = dir_.string();
  EXPECT_TRUE(fails_cleanly(run_ventus({"cc", "-c", "a.cl", "sub/a.cl"}, here), "cc",
                            {"a.o: named as two outputs"}));
  EXPECT_FALSE(fs::exists(path("a.o")));
}

TEST_F(Outputs, AFailedCommandLeavesTheOldOutput) {
  // The old output survives a failed assembly, compile or run, and no temporary file stays.
  write("k.elf", "old");
  write("bad.s", "this is not an instruction\n");
  write("bad.cl", "__kernel void k( { }\n");
  EXPECT_EQ(run_ventus({"as", path("bad.s"), "-o", path("k.elf")}).status, 1);
  EXPECT_EQ(run_ventus({"cc", path("bad.cl"), "-o", path("k.elf")}).status, 1);
  EXPECT_EQ(read("k.elf"), "old");
  write("y.txt", "old");
  const std::string spin =
      write("spin.s", ".text\n.globl spin\n.type spin, @function\nspin:\n.Lloop:\n j .Lloop\n");
  const CliResult r = run_ventus({"run", spin, "--arg", "y=i32[]:zeros:4", "--budget", "1000",
                                  "--dump", "y=" + path("y.txt"), "--trace", path("t.log")});
  EXPECT_TRUE(fails_cleanly(r, "run", {"budget"}));
  EXPECT_EQ(read("y.txt"), "old");
  // The trace of the failed run is kept: it is what explains the failure.
  EXPECT_TRUE(fs::exists(path("t.log")));
  EXPECT_EQ(leftovers(),
            (std::vector<std::string>{"bad.cl", "bad.s", "k.elf", "spin.s", "t.log", "y.txt"}));
}

// A regular file that cannot take all the bytes (here a file size limit; a full disk or a
// quota alike): an error naming the file, the old file kept, no temporary file left. The
// old code checked the stream before its buffer was flushed at close, exited 0 and left a
// truncated file.
TEST_F(Outputs, WriteErrorsOnRegularFiles) {
  CliOptions limited;
  limited.file_size_limit = 100;
  write("c.bin", "old");
  write("t.log", "old");
  write("k.elf", "old");
  EXPECT_TRUE(fails_cleanly(run_ventus(vecadd_run({"--dump", "c=" + path("c.bin")}), limited),
                            "run", {"--dump " + path("c.bin"), "File too large"}));
  EXPECT_TRUE(fails_cleanly(run_ventus(vecadd_run({"--trace", path("t.log")}), limited), "run",
                            {"--trace " + path("t.log"), "File too large"}));
  // (ventus as is left out: its ELF writer works in a memory file, which the limit stops
  // before the output is written.)
  const std::string cl = write("k.cl", kKernelSource);
  EXPECT_TRUE(fails_cleanly(run_ventus({"cc", cl, "-S", "-o", path("k.elf")}, limited), "cc",
                            {"-o " + path("k.elf"), "File too large"}));
  EXPECT_EQ(read("c.bin"), "old");
  EXPECT_EQ(read("t.log"), "old");
  EXPECT_EQ(read("k.elf"), "old");
  EXPECT_EQ(leftovers(), (std::vector<std::string>{"c.bin", "k.cl", "k.elf", "t.log"}));
}

// Several dumps are one result: a dump that cannot be written leaves every other dump file
// as it was (the old code had written the earlier ones already).
TEST_F(Outputs, DumpsAreWrittenAllOrNone) {
  if (!have_dev_full()) GTEST_SKIP() << "no /dev/full";
  write("a.txt", "old a");
  const CliResult r =
      run_ventus(vecadd_run({"--dump", "a=" + path("a.txt"), "--dump", "c=/dev/full"}));
  EXPECT_TRUE(fails_cleanly(r, "run", {"--dump /dev/full", "No space left on device"}));
  EXPECT_EQ(read("a.txt"), "old a");
  EXPECT_EQ(leftovers(), std::vector<std::string>{"a.txt"});
}

// A write error is reported once, however many writes failed.
TEST_F(Outputs, OneMessagePerWriteError) {
  if (!have_dev_full()) GTEST_SKIP() << "no /dev/full";
  CliOptions full;
  full.stdout_path = "/dev/full";
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"isa"}, {"isa", "--markdown"}, {"--help"}}) {
    const CliResult r = run_ventus(args, full);
    EXPECT_EQ(r.status, 1) << r.describe();
    const size_t first = r.err.find("error: ");
    ASSERT_NE(first, std::string::npos) << r.describe();
    EXPECT_EQ(r.err.find("error: ", first + 1), std::string::npos) << r.describe();
  }
}

// Diagnostics to a full stderr: progress reports come from simulating threads, where a
// throwing write used to call std::terminate.
TEST_F(Outputs, FullStandardErrorDoesNotAbort) {
  if (!have_dev_full()) GTEST_SKIP() << "no /dev/full";
  const std::string spin =
      write("spin.s", ".text\n.globl spin\n.type spin, @function\nspin:\n.Lloop:\n j .Lloop\n");
  CliOptions full;
  full.stderr_path = "/dev/full";
  // Long enough for a progress report (every 2 s) on two host threads; ends at the budget
  // (per workgroup: two workgroups of 3e8 warp instructions each).
  const CliResult r = run_ventus({"run", spin, "-g", "2", "-l", "1", "--budget", "300000000",
                                  "--progress", "--host-threads", "2"},
                                 full);
  EXPECT_EQ(r.status, 1) << r.describe();
}

TEST_F(Outputs, SuccessfulOutputsKeepTheirContent) {
  const std::string elf = path("k.elf");
  ASSERT_EQ(run_ventus({"as", kVecadd, "-o", elf}).status, 0);
  const CliResult r = run_ventus(vecadd_run(
      {"--dump", "c=" + path("c.txt"), "--dump", "a=" + path("a.bin"), "--trace", path("t.log")}));
  ASSERT_EQ(r.status, 0) << r.describe();
  std::string expected;
  for (int i = 0; i < 64; ++i) expected += std::to_string(2 * i) + "\n";
  EXPECT_EQ(read("c.txt"), expected);
  EXPECT_EQ(read("a.bin").size(), 256u);
  EXPECT_FALSE(read("t.log").empty());
  EXPECT_EQ(read("t.log").back(), '\n');
  EXPECT_EQ(leftovers(), (std::vector<std::string>{"a.bin", "c.txt", "k.elf", "t.log"}));
}

}  // namespace
}  // namespace ventus::test
