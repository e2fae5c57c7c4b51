// The print buffer is drained as records arrive (src/driver/print_buffer.h, PrintDrain): a
// kernel prints any amount through a small buffer, output streams, nothing is dropped.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <mutex>
#include <string>
#include <vector>

#include "print_buffer.h"
#include "support.h"

namespace {

namespace rt = ventus::rt;
using ventus::abi::kPrintHeaderBytes;
using ventus::driver::PrintDrain;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  for (size_t start = 0; start < text.size();) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

// What tests/kernels/printf.s prints for n items, sorted.
std::vector<std::string> expected_lines(uint32_t n) {
  std::vector<std::string> expected;
  char line[256];
  for (uint32_t i = 0; i < n; ++i) {
    std::snprintf(line, sizeof line, "item %d of %u: hex %x, half %f, %s %c 100%%", int(i), n,
                  17 * i, i / 2.0, "tag", 'a' + i % 26);
    expected.push_back(line);
    if (i & 1) {
      std::snprintf(line, sizeof line, "odd %03d", int(i));
      expected.push_back(line);
    }
  }
  std::sort(expected.begin(), expected.end());
  return expected;
}

class PrintStreaming : public ::testing::TestWithParam<unsigned> {};

// 4096 items print about 450 KB through a buffer with room for two records; before the
// buffer was drained, everything after its first two records was dropped.
TEST_P(PrintStreaming, LongOutputPassesThroughASmallBuffer) {
  ventus::sim::DeviceConfig config;
  config.host_threads = GetParam();
  rt::Device device(config);
  std::mutex mutex;
  std::string output;
  device.set_print_sink([&](std::string_view text) {
    std::lock_guard lock(mutex);
    output += text;
  });
  const rt::Program program =
      ventus::test::program_from({"tests/kernels/printf.s", "examples/lib/printf.s"});
  const uint32_t n = 4096;
  rt::LaunchOptions options;
  const uint32_t record = 16 + 4 * options.threads_per_warp * 7;  // 6 arguments
  options.print_buffer_bytes = kPrintHeaderBytes + 2 * record;
  rt::launch(device, program, "print_items", {n}, {128}, {n}, options);
  EXPECT_EQ(output.find("dropped"), std::string::npos);
  std::vector<std::string> got = lines_of(output);
  std::sort(got.begin(), got.end());
  const std::vector<std::string> expected = expected_lines(n);
  std::vector<std::string> missing, extra;
  std::set_difference(expected.begin(), expected.end(), got.begin(), got.end(),
                      std::back_inserter(missing));
  std::set_difference(got.begin(), got.end(), expected.begin(), expected.end(),
                      std::back_inserter(extra));
  EXPECT_TRUE(missing.empty()) << missing.size() << " lines missing, the first: " << missing[0];
  EXPECT_TRUE(extra.empty()) << extra.size() << " lines extra, the first: " << extra[0];
}

INSTANTIATE_TEST_SUITE_P(HostThreads, PrintStreaming, ::testing::Values(1u, 2u));

// The drain's bookkeeping on plain memory: a buffer at 0x90000000 with two records.
TEST(PrintDrain, ResetsTheOffsetOnlyWhenEveryReservedRecordIsPrinted) {
  ventus::sim::Memory memory;
  constexpr uint32_t kBase = 0x90000000;
  memory.map(kBase, 4096);
  const uint32_t lanes = 4, bytes = 16 + 4 * lanes * 2;  // one argument
  const uint32_t first = kBase + kPrintHeaderBytes, second = first + bytes;
  for (uint32_t record : {first, second}) {
    const uint32_t header[4] = {0, 1, lanes, 0};
    const uint32_t flags[lanes] = {1, 1, 1, 1};
    memory.write(record, header, sizeof header);
    memory.write(record + 16, flags, sizeof flags);
  }
  const uint32_t next_free = kPrintHeaderBytes + 2 * bytes;  // both reserved
  memory.write(kBase, &next_free, 4);
  PrintDrain drain;
  drain.start(kBase, 4096);
  const auto word = [&](uint32_t address) {
    uint32_t value = 0;
    memory.read(address, &value, 4);
    return value;
  };
  drain.printed(memory, second);  // printed out of order: the first one is still waiting
  EXPECT_EQ(word(kBase), next_free);
  EXPECT_EQ(word(second + 8), 0u);  // zeroed for the records placed there next
  EXPECT_EQ(word(second + 16), 0u);
  EXPECT_EQ(word(first + 16), 1u);
  drain.printed(memory, kBase + 4096 - 4);  // not a record of the buffer: ignored
  drain.printed(memory, first);
  EXPECT_EQ(word(kBase), kPrintHeaderBytes);
  EXPECT_EQ(word(first + 16 + 12), 0u);
}

}  // namespace
