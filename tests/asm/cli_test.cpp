// `ventus as` and `ventus isa` on the command line: layout options in every spelling,
// error lines with file:line:column and exit status 1. Skipped when the binary is not built
// (the environment variable VENTUS_BINARY may name another one).
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "test_util.h"
#include "ventus/elf.h"
#include "ventus/isa_table.h"

namespace fs = std::filesystem;

namespace {

using namespace ventus;

#ifdef VENTUS_BINARY
std::string ventus_binary() {
  const char* env = std::getenv("VENTUS_BINARY");
  return env && *env ? env : VENTUS_BINARY;
}

struct CommandResult {
  int status;
  std::string out;  // stdout and stderr
};

CommandResult ventus(const std::string& args) {
  const std::string command = ventus_binary() + " " + args + " 2>&1";
  FILE* p = popen(command.c_str(), "r");
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int status = pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

class Cli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(ventus_binary())) GTEST_SKIP() << ventus_binary() << " is not built";
    dir_ = fs::temp_directory_path() / fmt::format("ventus_as_cli_{}", getpid());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    std::ofstream((dir_ / name).string()) << text;
    return (dir_ / name).string();
  }
  fs::path dir_;
};

uint32_t address_of(const elf::Image& image, const std::string& section) {
  return test::section(image, section).address;
}

TEST_F(Cli, LayoutOptionsInEverySpelling) {
  const std::string src = write("k.s", ".text\nnop\n.data\n.word 1\n.bss\n.space 4\n");
  const std::string out = (dir_ / "k.elf").string();
  struct Case {
    std::string options;
    uint32_t text, data, bss;
  };
  const Case cases[] = {
      {"", 0x80000000, 0x80000004, 0x80000008},
      {"-Ttext=0x1000", 0x1000, 0x1004, 0x1008},
      {"-Ttext 0x1000", 0x1000, 0x1004, 0x1008},
      {"-T text 4096", 0x1000, 0x1004, 0x1008},
      {"-Ttext=0x1000 -Tdata=0x2000 -Tbss=0x3000", 0x1000, 0x2000, 0x3000},
      {"--section-start .data=0x2000", 0x80000000, 0x2000, 0x2004},
      {"--section-start=.text=0x400", 0x400, 0x404, 0x408},
  };
  for (const Case& c : cases) {
    // Options before and after the input: the input is never taken for an address.
    for (const std::string& args : {c.options + " --nostartfiles -o " + out + " " + src,
                                    "--nostartfiles " + src + " " + c.options + " -o " + out}) {
      fs::remove(out);
      const CommandResult r = ventus("as " + args);
      ASSERT_EQ(r.status, 0) << args << "\n" << r.out;
      const elf::Image image = elf::read_file(out);
      EXPECT_EQ(address_of(image, ".text"), c.text) << args;
      EXPECT_EQ(address_of(image, ".data"), c.data) << args;
      EXPECT_EQ(address_of(image, ".bss"), c.bss) << args;
    }
  }
}

TEST_F(Cli, ErrorsNameTheFileLineAndColumnAndExitWithOne) {
  const std::string bad = write("bad.s", "nop\n  addd a0, a1, a2\nvadd.vv v1, a0, v2\n");
  CommandResult r = ventus("as --nostartfiles -o " + (dir_ / "x.elf").string() + " " + bad);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, fmt::format(
                       "{0}:2:3: error: unknown instruction 'addd'; did you mean "
                       "'addi'?\n{0}:3:13: error: wrong register class: 'a0' is a scalar register, "
                       "'vadd.vv' needs a vector register here (v0-v255)\n",
                       bad));
  EXPECT_FALSE(fs::exists(dir_ / "x.elf"));
  const std::string ok = write("ok.s", "nop\n");
  const std::vector<std::pair<std::string, std::string>> usage_errors = {
      {"as " + (dir_ / "missing.s").string(),
       fmt::format("ventus as: error: {}: cannot open file\n", (dir_ / "missing.s").string())},
      {"as -Tfoo=1 " + ok, "ventus as: error: -Tfoo: expected -Ttext, -Tdata or -Tbss\n"},
      {"as -Ttext=0x1g " + ok, "ventus as: error: -Ttext: '0x1g' is not a 32-bit address\n"},
      {"as " + ok + " -Ttext", "ventus as: error: -Ttext: expected an address\n"},
      {"as --section-start .text " + ok,
       "ventus as: error: --section-start: expected NAME=ADDRESS, got '.text'\n"},
      {"as -Q " + ok, "ventus as: error: unknown option '-Q' (see ventus as --help)\n"},
      {"as", "ventus as: error: no input files (usage: ventus as [options] FILE.s...)\n"},
  };
  for (const auto& [args, message] : usage_errors) {
    r = ventus(args);
    EXPECT_EQ(r.status, 1) << args;
    EXPECT_EQ(r.out, message) << args;
  }
  // Layout errors have no source line.
  r = ventus("as --nostartfiles -Tdata=0x80000000 -o " + (dir_ / "y.elf").string() + " " +
             write("l.s", "nop\n.data\n.word 1\n"));
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(
      r.out,
      "link: error: sections '.text' [0x80000000, 0x80000004) and '.data' [0x80000000, 0x80000004) "
      "overlap\n");
}

TEST_F(Cli, UsageErrorsExitWithOne) {
  EXPECT_EQ(ventus("objdump --bogus x").status, 1);
  EXPECT_EQ(ventus("isa --bogus").status, 1);
  EXPECT_EQ(ventus("as -o").status, 1);
  EXPECT_EQ(ventus("isa --help").status, 0);
}

// Hostile sizes (issue 16): a clean error and status 1, no crash, no output file, quickly.
TEST_F(Cli, HostileSourcesFailCleanly) {
  const std::string out = (dir_ / "h.elf").string();
  const std::pair<std::string, std::string> sources[] = {
      {".word " + std::string(5000, '(') + "1" + std::string(5000, ')') + "\n",
       "h.s:1:107: error: expression nests parentheses more than 100 deep"},
      {".data\n" +
           [] {
             std::string s;
             for (int i = 0; i < 16; ++i) s += ".space 0x10000000\n";
             return s;
           }(),
       "h.s:10:8: error: 268435456 more bytes in '.data' make the program's sections"},
      {".word 0x100000000 * 0x100000000\n",
       "h.s:1:19: error: overflow in expression: 4294967296 * 4294967296 does not fit in 64 bits"},
  };
  for (const auto& [text, message] : sources) {
    fs::remove(out);
    const CommandResult r = ventus("as --nostartfiles -o " + out + " " + write("h.s", text));
    EXPECT_EQ(r.status, 1) << r.out.substr(0, 300);
    EXPECT_NE(r.out.find(message), std::string::npos) << r.out.substr(0, 300);
    EXPECT_FALSE(fs::exists(out));
  }
}

TEST_F(Cli, ObjdumpRejectsTruncatedAndOverlappingFiles) {
  const std::string elf = (dir_ / "k.elf").string();
  ASSERT_EQ(ventus("as -o " + elf + " " + write("k.s", ".globl k\nk: ret\n")).status, 0);
  std::vector<char> bytes(40, 0);
  std::ifstream(elf, std::ios::binary).read(bytes.data(), 40);
  std::ofstream(dir_ / "cut.elf", std::ios::binary).write(bytes.data(), 40);
  CommandResult r = ventus("objdump " + (dir_ / "cut.elf").string());
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, fmt::format("ventus objdump: error: {}: truncated ELF file: 40 bytes, but the "
                               "ELF header alone has 52\n",
                               (dir_ / "cut.elf").string()));
  elf::Image image = elf::read_file(elf);
  image.entry = 0x10;
  elf::write_file((dir_ / "entry.elf").string(), image);
  r = ventus("objdump " + (dir_ / "entry.elf").string());
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("the entry point 0x00000010 lies outside every loadable section"),
            std::string::npos)
      << r.out;
}

TEST_F(Cli, IsaPrintsTheTable) {
  EXPECT_EQ(ventus("isa --markdown").out, isa::table_markdown());
  EXPECT_EQ(ventus("isa").out, isa::table_text());
}
#endif

}  // namespace
