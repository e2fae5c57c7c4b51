// `ventus cc` on the command line: --help, the cc/clang option spellings, output names,
// stdin, diagnostics on stderr with file:line:column and exit status 1. Skipped when the
// binary is not built (the environment variable VENTUS_BINARY may name another one).
// The back end is not asserted here: the tests write LLVM IR (-emit-llvm).
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace {

#ifdef VENTUS_BINARY
std::string ventus_binary() {
  const char* env = std::getenv("VENTUS_BINARY");
  return env && *env ? env : VENTUS_BINARY;
}

struct CommandResult {
  int status;
  std::string out;  // stdout, or stdout and stderr
};

class CcCli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(ventus_binary())) GTEST_SKIP() << ventus_binary() << " is not built";
    dir_ = fs::temp_directory_path() / fmt::format("ventus_cc_cli_{}", getpid());
    fs::create_directories(dir_);
    write("k.cl",
          "kernel void k(global int *p) {\n"
          "  p[get_global_id(0)] = VALUE;\n"
          "}\n");
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& text) {
    std::ofstream((dir_ / name).string()) << text;
    return (dir_ / name).string();
  }
  std::string read(const std::string& name) {
    std::ifstream in(dir_ / name);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }
  // Runs `ventus ARGS` in the test directory; stderr joins stdout unless `split`.
  CommandResult ventus(const std::string& args, bool split = false) {
    const std::string command = fmt::format("cd '{}' && {} {} {}", dir_.string(), ventus_binary(),
                                            args, split ? "2>/dev/null" : "2>&1");
    FILE* p = popen(command.c_str(), "r");
    std::string out;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    const int status = pclose(p);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
  }
  fs::path dir_;
};

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST_F(CcCli, Help) {
  const CommandResult r = ventus("cc --help");
  EXPECT_EQ(r.status, 0);
  for (const char* option :
       {"-o,--output", "-S", "-D", "-I", "-cl-std=", "-emit-llvm", "-O0", "-c "})
    EXPECT_TRUE(contains(r.out, option)) << option << "\n" << r.out;
  EXPECT_TRUE(contains(ventus("--help").out, "cc")) << "cc is listed in ventus --help";
}

TEST_F(CcCli, EmitLlvmWithDefaultAndGivenOutputNames) {
  CommandResult r = ventus("cc -emit-llvm -DVALUE=42 k.cl");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_TRUE(contains(read("k.ll"), "store i32 42,")) << read("k.ll");
  r = ventus("cc --emit-llvm -D VALUE=43 -o out.ll k.cl");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_TRUE(contains(read("out.ll"), "store i32 43,"));
  r = ventus("cc k.cl -emit-llvm -DVALUE=44 -o -", true);  // options after the input too
  ASSERT_EQ(r.status, 0);
  EXPECT_TRUE(contains(r.out, "store i32 44,")) << r.out;
  EXPECT_TRUE(contains(r.out, "target triple = \"spir-unknown-unknown\"")) << r.out;
}

TEST_F(CcCli, StdinAndIncludeDirectory) {
  fs::create_directories(dir_ / "inc");
  write("inc/v.h", "#define VALUE 7\n");
  write("with_include.cl",
        "#include \"v.h\"\n"
        "kernel void k(global int *p) { p[0] = VALUE * 6; }\n");
  CommandResult ok = ventus("cc -emit-llvm -Iinc -o - - < with_include.cl", true);
  ASSERT_EQ(ok.status, 0);
  EXPECT_TRUE(contains(ok.out, "store i32 42,")) << ok.out;
  // Without -I: the include fails, named as stdin.
  CommandResult bad = ventus("cc -emit-llvm -o - - < with_include.cl");
  EXPECT_EQ(bad.status, 1);
  EXPECT_TRUE(contains(bad.out, "<stdin>:1:10: fatal error: 'v.h' file not found")) << bad.out;
}

TEST_F(CcCli, ErrorsGoToStderrWithLocationAndStatus1) {
  write("bad.cl", "kernel void k(global int *p) {\n  p[0] = missing;\n}\n");
  CommandResult r = ventus("cc -emit-llvm bad.cl");
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(contains(r.out, "bad.cl:2:10: error: use of undeclared identifier 'missing'"))
      << r.out;
  EXPECT_FALSE(fs::exists(dir_ / "bad.ll"));
  r = ventus("cc -emit-llvm bad.cl", true);  // nothing on stdout
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  // The same for an executable and for assembly (the front end fails first).
  EXPECT_EQ(ventus("cc bad.cl").status, 1);
  EXPECT_EQ(ventus("cc -S bad.cl").status, 1);
}

TEST_F(CcCli, LanguageVersionAndOptimizationLevel) {
  write("v2.cl", "kernel void k(global uint *p) { p[get_global_linear_id()] = 1; }\n");
  EXPECT_EQ(ventus("cc -emit-llvm -cl-std=CL3.0 v2.cl").status, 0);
  EXPECT_EQ(ventus("cc -emit-llvm --cl-std=CL2.0 v2.cl").status, 0);
  CommandResult r = ventus("cc -emit-llvm -cl-std=CL1.2 v2.cl");
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(contains(r.out, "v2.cl:1:35: error:")) << r.out;
  r = ventus("cc -emit-llvm -cl-std=CL4.0 v2.cl");
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(contains(r.out, "'-cl-std=CL4.0'")) << r.out;

  write("calls.cl",
        "int twice(int x) { return 2 * x; }\n"
        "kernel void k(global int *p) { p[0] = twice(p[1]); }\n");
  EXPECT_TRUE(
      contains(ventus("cc -emit-llvm -O0 -o - calls.cl", true).out, "call spir_func i32 @twice"));
  EXPECT_FALSE(contains(ventus("cc -emit-llvm -O2 -o - calls.cl", true).out, "@twice"));
  EXPECT_FALSE(contains(ventus("cc -emit-llvm -O -o - calls.cl", true).out, "@twice"));
  r = ventus("cc -emit-llvm -O7 calls.cl");
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(contains(r.out, "-O7: expected -O0, -O1, -O2 or -O3")) << r.out;
}

TEST_F(CcCli, WarningsAndWerror) {
  write("w.cl", "#warning careful\nkernel void k(global int *p) { p[0] = 1; }\n");
  CommandResult r = ventus("cc -emit-llvm w.cl");
  EXPECT_EQ(r.status, 0);
  EXPECT_TRUE(contains(r.out, "w.cl:1:2: warning: careful")) << r.out;
  r = ventus("cc -emit-llvm -Werror w.cl");
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(contains(r.out, "w.cl:1:2: error: careful")) << r.out;
  EXPECT_EQ(ventus("cc -emit-llvm -w -o - w.cl").out.find("careful"), std::string::npos);
}

TEST_F(CcCli, UsageErrors) {
  CommandResult r = ventus("cc -emit-llvm -fbogus k.cl");
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(contains(r.out, "unknown option '-fbogus'")) << r.out;
  r = ventus("cc -emit-llvm k.cl other.cl");
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(contains(r.out, "-emit-llvm takes one OpenCL C source")) << r.out;
  r = ventus("cc -c -S k.cl");
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(contains(r.out, "-c writes an object: not with -S or -emit-llvm")) << r.out;
  r = ventus("cc -emit-llvm missing.cl");
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(contains(r.out, "missing.cl: cannot open file")) << r.out;
  r = ventus("cc -emit-llvm");
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(contains(r.out, "no input file")) << r.out;
  r = ventus("cc -emit-llvm -cl-bogus-option k.cl");  // clang's own message
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(contains(r.out, "unknown argument: '-cl-bogus-option'")) << r.out;
}
TEST_F(CcCli, SeparateCompilationAndLinking) {
  write("main.cl",
        "int helper(int);\n"
        "kernel void k(global int *p) {\n  p[0] = helper(p[1]);\n}\n");
  write("helper.cl", "int helper(int x) { return x + 1; }\n");
  // -c: one object per source, named after it; -o names the object of one source.
  CommandResult r = ventus("cc -c main.cl helper.cl");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(read("main.o").substr(0, 4), "\xDE\xC0\x17\x0B");  // LLVM's bitcode wrapper
  EXPECT_EQ(read("main.o").substr(20, 4), "BC\xC0\xDE");
  ASSERT_EQ(ventus("cc -c -o h.o helper.cl").status, 0);
  EXPECT_EQ(read("h.o"), read("helper.o"));
  EXPECT_FALSE(fs::exists(dir_ / "main.elf")) << "-c links nothing";
  // Objects link into an executable (default name a.elf for several inputs); a mix of
  // objects and sources too; -S writes the linked program's assembly.
  r = ventus("cc main.o helper.o");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(read("a.elf").substr(0, 4), "\177ELF");
  r = ventus("cc main.o helper.cl -o mixed.elf");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(read("mixed.elf"), read("a.elf"));
  r = ventus("cc -S main.cl helper.o -o -", true);
  ASSERT_EQ(r.status, 0);
  EXPECT_TRUE(contains(r.out, "\nk:")) << r.out;
  // The same as compiling one source whole.
  write("whole.cl",
        "int helper(int x) { return x + 1; }\n"
        "kernel void k(global int *p) {\n  p[0] = helper(p[1]);\n}\n");
  ASSERT_EQ(ventus("cc -c whole.cl").status, 0);
  ASSERT_EQ(ventus("cc whole.o -o linked.elf").status, 0);
  ASSERT_EQ(ventus("cc whole.cl -o whole.elf").status, 0);
  EXPECT_EQ(read("linked.elf"), read("whole.elf"));
  // Errors: the undefined function at its line, a duplicate, a bad object, -o with -c
  // and several sources, an object given to -c.
  r = ventus("cc main.o");
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(contains(r.out, "main.cl:3:10: error: call to 'helper'")) << r.out;
  r = ventus("cc main.o helper.o whole.o");
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(contains(r.out, "whole.cl:1: error: duplicate definition of function 'helper'"))
      << r.out;
  write("bad.o", "not an object\n");
  r = ventus("cc main.o bad.o");
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(contains(r.out, "bad.o: not a Ventus object")) << r.out;
  std::string corrupt = read("helper.o");
  corrupt[corrupt.size() / 2] ^= 1;
  write("corrupt.o", corrupt);
  r = ventus("cc main.o corrupt.o");
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(contains(r.out, "corrupt.o: corrupt object (checksum mismatch)")) << r.out;
  r = ventus("cc -c -o x.o main.cl helper.cl");
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(contains(r.out, "-o with -c names the object of one source")) << r.out;
  r = ventus("cc -c main.o");
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(contains(r.out, "main.o: already an object")) << r.out;
}

TEST_F(CcCli, HostileSourcesAreErrorsNotCrashes) {
  // 60,000 terms: clang recursed past the 8 MiB main stack (SIGSEGV, exit status 139).
  std::string sum = "a";
  for (int i = 1; i < 60000; ++i) sum += "+a";
  write("sum.cl", "kernel void k(global int *o, int a) { o[0] = " + sum + "; }\n");
  CommandResult r = ventus("cc sum.cl -o sum.elf");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_TRUE(fs::file_size(dir_ / "sum.elf") > 0);
  // Back-end errors at the source line, with the real cause.
  write("asm.cl",
        "kernel void k(global int *o) {\n  int x;\n  __asm__(\"lii %0, 1\" : \"=r\"(x));\n  o[0] = "
        "x;\n}\n");
  r = ventus("cc asm.cl -o asm.elf");
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(contains(r.out, "asm.cl:3:3: error: the inline assembly in kernel 'k' does not "
                              "assemble: unknown instruction 'lii'"))
      << r.out;
  EXPECT_FALSE(fs::exists(dir_ / "asm.elf"));
  write("big.cl",
        "constant int t[80000000] = {1};\nkernel void k(global int *o) { o[0] = t[o[1]]; }\n");
  r = ventus("cc big.cl -o big.elf");
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(contains(r.out, "big.cl:1:14: error: program-scope variable 't' is 320000000 bytes"))
      << r.out;
  EXPECT_FALSE(contains(r.out, ".s:")) << r.out;
}
#endif

}  // namespace
