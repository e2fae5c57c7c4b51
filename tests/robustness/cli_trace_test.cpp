// The commit log (docs/trace.md) byte for byte: each run's trace equals the reference in
// tests/robustness/trace/, which the simulator wrote when it still compared the whole
// register file before and after every instruction, at the schedule quantum of then (64,
// given as --schedule-quantum: the quantum orders the warps' lines). The kernels write
// scalar registers and pairs, vector registers alone, in LMUL=2 groups, widened, above v31
// and in matrix fragments (mma), four at a time (PREFIX_MEMORY), memory in every form, and
// change the SIMT mask; a run that shows fewer or other effects than the reference fails.
#include <fmt/format.h>

#include <map>
#include <string_view>

#include "cli.h"

namespace ventus::test {
namespace {

const std::string kSourceDir = VENTUS_SOURCE_DIR;
const std::string kTraceDir = kSourceDir + "/tests/robustness/trace/";

struct TraceCase {
  const char* name;  // the reference is trace/<name>.trace
  std::vector<std::string> run;
};

std::vector<TraceCase> trace_cases() {
  return {
      {"kernel",
       {kTraceDir + "kernel.s", "-g", "32", "-l", "16", "--threads", "8", "--arg",
        "out=i32[]:zeros:64"}},
      {"gemm_fp16",
       {kSourceDir + "/examples/gemm_fp16.s",
        "-g",
        "8,1",
        "-l",
        "8,1",
        "--threads",
        "8",
        "--local-mem",
        "4608",
        "--arg",
        "u32[]:random:128:1",
        "--arg",
        "u32[]:random:64:2",
        "--arg",
        "f32[]:zeros:128",
        "--arg",
        "i32:16",
        "--arg",
        "i32:8",
        "--arg",
        "i32:16"}},
      {"prefix",
       {kSourceDir + "/examples/prefix.s", "-g", "16", "-l", "8", "--threads", "8", "--arg",
        "f32[]:random:64:1", "--arg", "f32[]:random:64:2", "--arg", "f32[]:zeros:64", "--arg",
        "i32[]:random:64:3", "--arg", "i32[]:zeros:64", "--arg", "i32:12"}},
      {"addr64",
       {kSourceDir + "/examples/addr64.s", "-g", "16", "-l", "8", "--threads", "8", "--arg",
        "i32[]:iota:2048", "--arg", "i32[]:random:16:4", "--arg", "i32[]:zeros:16", "--arg",
        "i32:1000", "--arg", "i32:14"}},
  };
}

class Trace : public CliTest {};

TEST_F(Trace, EqualsTheReferenceByteForByte) {
  for (const TraceCase& c : trace_cases()) {
    SCOPED_TRACE(c.name);
    const std::string reference = read_file_text(kTraceDir + c.name + ".trace");
    ASSERT_FALSE(reference.empty());
    std::vector<std::string> args = {"run"};
    args.insert(args.end(), c.run.begin(), c.run.end());
    for (const char* host_threads : {"1", "2"}) {
      std::vector<std::string> with_threads = args;
      with_threads.insert(with_threads.end(),
                          {"-q", "--host-threads", host_threads, "--schedule-quantum", "64",
                           "--trace", path("t.log")});
      const CliResult r = run_ventus(with_threads);
      ASSERT_EQ(r.status, 0) << r.describe();
      const std::string trace = read_file_text(path("t.log"));
      if (trace == reference) continue;
      // The first line that differs, rather than two files of thousands of lines.
      size_t at = 0, line = 1;
      while (at < trace.size() && at < reference.size() && trace[at] == reference[at])
        line += trace[at++] == '\n';
      const auto line_at = [&](const std::string& text) {
        const size_t begin = text.rfind('\n', at == 0 ? 0 : at - 1);
        const size_t start = begin == std::string::npos || at == 0 ? 0 : begin + 1;
        return text.substr(start, text.find('\n', start) - start);
      };
      ADD_FAILURE() << "--host-threads " << host_threads << ": line " << line
                    << " differs\n  got:      " << line_at(trace)
                    << "\n  expected: " << line_at(reference);
    }
  }
}

// The default quantum (256) orders the same lines otherwise: each warp's lines, in their
// order, are the reference's (the quantum decides only which warp runs when).
TEST_F(Trace, TheQuantumOrdersTheWarpsLinesAndChangesNothingElse) {
  const TraceCase c = trace_cases().front();
  std::vector<std::string> args = {"run"};
  args.insert(args.end(), c.run.begin(), c.run.end());
  args.insert(args.end(), {"-q", "--trace", path("t.log")});
  const CliResult r = run_ventus(args);
  ASSERT_EQ(r.status, 0) << r.describe();
  const std::string trace = read_file_text(path("t.log"));
  const std::string reference = read_file_text(kTraceDir + c.name + ".trace");
  EXPECT_NE(trace, reference) << "the reference's quantum (64) gave the default's order";
  // Each warp's lines ("core C wg G warp W: ..."), in order.
  const auto by_warp = [](const std::string& text) {
    std::map<std::string, std::vector<std::string>> lines;
    for (const std::string& line : lines_of(text))
      lines[line.substr(0, line.find(':'))].push_back(line);
    return lines;
  };
  const auto got = by_warp(trace), expected = by_warp(reference);
  EXPECT_GT(expected.size(), 1u);
  EXPECT_TRUE(got == expected) << "some warp's lines differ from the reference's";
}

// ventus run writes the log in blocks of whole lines: a log of many blocks has every line
// once, whole and in order (a loop of 100,000 iterations, about 11 MB).
TEST_F(Trace, ALogOfManyBlocksHasEveryLineOnceAndWhole) {
  const std::string count = write("count.s",
                                  ".text\n.globl count\n.type count, @function\ncount:\n"
                                  " li t0, 100000\n.Lloop:\n addi t0, t0, -1\n"
                                  " bnez t0, .Lloop\n ret\n");
  const CliResult r = run_ventus({"run", count, "-q", "--trace", path("t.log")});
  ASSERT_EQ(r.status, 0) << r.describe();
  const std::string trace = read_file_text(path("t.log"));
  ASSERT_FALSE(trace.empty());
  EXPECT_EQ(trace.back(), '\n');
  uint32_t next = 99999;  // what the next addi leaves in t0
  size_t branches = 0, lines = 0;
  for (size_t at = 0; at < trace.size(); at = trace.find('\n', at) + 1) {
    const std::string_view line(trace.data() + at, trace.find('\n', at) - at);
    ++lines;
    ASSERT_TRUE(line.starts_with("core 0 wg 0 warp 0: 0x8")) << "line " << lines << ": " << line;
    if (line.find(" addi t0, t0, -1") != std::string_view::npos) {
      ASSERT_TRUE(line.ends_with(fmt::format(" x5 {:#010x}", next))) << line;
      --next;
    }
    branches += line.find(" bnez t0, ") != std::string_view::npos;
  }
  EXPECT_EQ(next, ~0u);  // all 100,000 iterations
  EXPECT_EQ(branches, 100000u);
  EXPECT_GT(trace.size(), 10u << 20);
}

}  // namespace
}  // namespace ventus::test
