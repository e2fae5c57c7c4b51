// The hardware-case reader against careless and hostile case folders (issue 16): CRLF line
// endings, files that are missing, folders or broken links, sizes of zero or beyond the
// address space. Every error is a ventus::Error naming file:line (addresses in hex); no
// std::filesystem exception escapes. The cases are written here, so these tests always run.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "ventus/case.h"
#include "ventus/error.h"

namespace ventus::test {
namespace {

namespace fs = std::filesystem;

// One launch "k" of one warp of 4 threads, one buffer of `size` bytes at `base`.
struct Metadata {
  uint32_t kernel_size[3] = {1, 1, 1};
  uint32_t wf_size = 4, wg_size = 1;
  std::vector<uint32_t> base = {0x90000000}, size = {4}, alloc = {0x1000};

  std::string text() const {
    std::string out;
    const auto field = [&](uint32_t v) { out += fmt::format("{:08x}\n00000000\n", v); };
    field(0x80000000);  // start_addr
    field(0);           // kernel_id
    for (uint32_t k : kernel_size) field(k);
    field(wf_size);
    field(wg_size);
    field(0x90001000);  // metaDataBaseAddr
    field(0x1000);      // ldsSize
    field(0x1000);      // pdsSize
    field(0x40);        // sgprUsage
    field(0x40);        // vgprUsage
    field(0x90002000);  // pdsBaseAddr
    field(static_cast<uint32_t>(base.size()));
    for (uint32_t v : base) field(v);
    for (uint32_t v : size) field(v);
    for (uint32_t v : alloc) field(v);
    return out;
  }
};

const char* const kCaseText =
    "# a test case\n"
    "config warps=1 threads=4\n"
    "launch k\n"
    "expect 0x90000000 00000001\n";

class CaseReader : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / fmt::format("ventus_case_reader_{}", ::getpid());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    write("case.txt", kCaseText);
    write("k.metadata", Metadata().text());
    write("k.data", "00000001\n");
  }
  void TearDown() override { fs::remove_all(dir_); }
  void write(const std::string& file, const std::string& text) {
    fs::remove_all(dir_ / file);
    std::ofstream(dir_ / file, std::ios::binary) << text;
  }
  std::string path(const std::string& file) const { return (dir_ / file).string(); }
  // The reader's message, or "" when the case loads. Any other exception fails the test.
  std::string error() {
    try {
      cases::load_case(dir_);
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  }
  fs::path dir_;
};

std::string crlf(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '\n' ? std::string("\r\n") : std::string(1, c);
  return out;
}

TEST_F(CaseReader, AcceptsCrlfLineEndings) {
  ASSERT_EQ(error(), "");
  const cases::Case lf = cases::load_case(dir_);
  write("case.txt", crlf(kCaseText));
  write("k.metadata", crlf(Metadata().text()));
  write("k.data", crlf("00000001\n"));
  ASSERT_EQ(error(), "");
  const cases::Case c = cases::load_case(dir_);
  EXPECT_EQ(c.description, lf.description);
  EXPECT_EQ(c.threads, 4u);
  ASSERT_EQ(c.launches.size(), 1u);
  EXPECT_EQ(c.launches[0].wf_size, 4u);
  ASSERT_EQ(c.launches[0].buffers.size(), 1u);
  EXPECT_EQ(c.launches[0].buffers[0].data, (std::vector<uint8_t>{1, 0, 0, 0}));
  ASSERT_EQ(c.expectations.size(), 1u);
  EXPECT_EQ(c.expectations[0].words, std::vector<uint32_t>{1});
}

TEST_F(CaseReader, ControlCharactersInMessagesAreVisible) {
  write("case.txt", "# a test case\nconfig warps=1 threads=4\x01\nlaunch k\n");
  EXPECT_EQ(error(), path("case.txt") + ":2: threads '4\\x01' is not a decimal number");
}

TEST_F(CaseReader, UnreadableFilesAreNamedWithTheReason) {
  fs::remove(dir_ / "k.data");
  EXPECT_EQ(error(), path("k.data") + ": cannot open file");
  fs::create_directory(dir_ / "k.data");
  EXPECT_EQ(error(), path("k.data") + ": is a directory, not a file");
  fs::remove(dir_ / "k.data");
  fs::create_symlink("k.missing", dir_ / "k.data");
  EXPECT_EQ(
      error(),
      path("k.data") + ": cannot open file: a dangling symbolic link (its target does not exist)");
  fs::remove(dir_ / "k.data");
  fs::create_symlink("k.loop", dir_ / "k.data");
  fs::create_symlink("k.data", dir_ / "k.loop");
  EXPECT_EQ(error(),
            path("k.data") +
                ": cannot open file: a symbolic link loop (Too many levels of symbolic links)");
  fs::remove(dir_ / "k.data");
  ASSERT_EQ(mkfifo(path("k.data").c_str(), 0600), 0);
  EXPECT_EQ(error(), path("k.data") + ": not a regular file (a FIFO, socket or device)");
  fs::remove(dir_ / "k.data");
  fs::remove(dir_ / "k.metadata");
  EXPECT_EQ(error(), path("k.metadata") + ": cannot open file");
  write("case.txt", "");
  EXPECT_EQ(error(), path("case.txt") + ": empty file");
  fs::remove_all(dir_);
  EXPECT_EQ(error(), path("case.txt") + ": cannot open file");
}

TEST_F(CaseReader, RejectsZeroSizes) {
  for (int d = 0; d < 3; ++d) {
    Metadata m;
    m.kernel_size[d] = 0;
    write("k.metadata", m.text());
    EXPECT_EQ(error(), fmt::format("{}:{}: kernel_size {} is 0: a launch has at least one "
                                   "workgroup in each dimension",
                                   path("k.metadata"), 5 + 2 * d, "xyz"[d]));
  }
  Metadata m;
  m.wg_size = 0;
  write("k.metadata", m.text());
  EXPECT_EQ(error(), path("k.metadata") + ":13: wg_size is 0: a workgroup has at least one warp");
  m = Metadata();
  m.wf_size = 0;
  write("k.metadata", m.text());
  EXPECT_EQ(error(), path("k.metadata") + ":11: wf_size is 0: a warp has at least one thread");
}

TEST_F(CaseReader, BuffersMustFitTheAddressSpaceWithoutOverlapping) {
  Metadata m;
  m.base = {0xfffff000};
  m.alloc = {0x2000};
  write("k.metadata", m.text());
  EXPECT_EQ(error(), path("k.metadata") +
                         ":33: buffer 0 at 0xfffff000 with 0x2000 bytes goes "
                         "beyond the 32-bit address space");
  m.base = {0x90000000};
  m.size = {8};
  m.alloc = {4};
  write("k.metadata", m.text());
  EXPECT_EQ(error(), path("k.metadata") +
                         ":31: buffer 0 at 0x90000000 has 0x8 bytes of data but "
                         "only 0x4 allocated");
  m.base = {0x90000000, 0x90000800};
  m.size = {4, 0};
  m.alloc = {0x1000, 0x1000};
  write("k.metadata", m.text());
  EXPECT_EQ(error(), path("k.metadata") +
                         ":39: buffers 0 [0x90000000, 0x90001000) and 1 "
                         "[0x90000800, 0x90001800) overlap");
}

TEST_F(CaseReader, HugeBufferSizesDoNotWrap) {
  // ceil(0xffffffff / 4) lines would be needed: 32-bit arithmetic made that 0, and the
  // reader then read 4 GiB of data from no lines.
  Metadata m;
  m.base = {0};
  m.size = {0xffffffff};
  m.alloc = {0xffffffff};
  write("k.metadata", m.text());
  write("k.data", "");
  EXPECT_EQ(error(),
            path("k.data") + ":1: the metadata's buffers need 1073741824 lines; the file has 0");
}

TEST_F(CaseReader, RejectsExpectationsBeyondTheAddressSpaceAndPathsAsLaunchNames) {
  write("case.txt", std::string(kCaseText) + "expect 0xfffffffc 00000000 00000000\n");
  EXPECT_EQ(error(),
            path("case.txt") + ":5: 2 words at 0xfffffffc go beyond the 32-bit address space");
  write("case.txt", "# a test case\nconfig warps=1 threads=4\nlaunch ../k\n");
  EXPECT_EQ(error(),
            path("case.txt") + ":3: launch name '../k' is not a file name in the case folder");
}

}  // namespace
}  // namespace ventus::test
