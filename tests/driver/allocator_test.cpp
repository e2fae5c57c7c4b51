// The buffer allocator (src/driver/allocator.h) and its use by the driver: buffers never
// over the loaded program, sizes reported as given, allocation in O(log n).
#include "allocator.h"

#include <gtest/gtest.h>
#include <time.h>

#include <cstring>
#include <vector>

#include "context.h"
#include "support.h"
#include "ventus/elf.h"
#include "ventus/ventus.h"

namespace {

namespace rt = ventus::rt;
using ventus::driver::BufferAllocator;
constexpr uint64_t kPage = ventus::sim::kPageSize;
constexpr uint64_t kBase = ventus::sim::kBufferBase;

TEST(BufferAllocator, BestFitIsDeterministicAndCoalesces) {
  BufferAllocator allocator;
  EXPECT_EQ(allocator.free_bytes(), BufferAllocator::kRegionBytes);
  const uint32_t a = *allocator.allocate(kPage);
  const uint32_t b = *allocator.allocate(2 * kPage);
  const uint32_t c = *allocator.allocate(kPage);
  EXPECT_EQ(a, kBase);
  EXPECT_EQ(b, kBase + kPage);
  EXPECT_EQ(c, kBase + 3 * kPage);
  allocator.release(b, 2 * kPage);
  // The two-page hole is the shortest range that fits one page: taken from its start.
  EXPECT_EQ(*allocator.allocate(kPage), b);
  EXPECT_EQ(*allocator.allocate(kPage), b + kPage);
  EXPECT_EQ(*allocator.allocate(2 * kPage), kBase + 4 * kPage);
  allocator.release(a, kPage);
  allocator.release(b, kPage);
  allocator.release(b + kPage, kPage);
  allocator.release(c, kPage);
  allocator.release(kBase + 4 * kPage, 2 * kPage);
  // Everything released: one range again.
  EXPECT_EQ(allocator.free_bytes(), BufferAllocator::kRegionBytes);
  EXPECT_EQ(allocator.largest_free_range(), BufferAllocator::kRegionBytes);
  EXPECT_FALSE(allocator.allocate(BufferAllocator::kRegionBytes + kPage));
}

TEST(BufferAllocator, ReservedRangesAreNeverHandedOut) {
  BufferAllocator allocator;
  allocator.reserve(kBase - kPage, kBase + 2 * kPage);  // clipped to the region
  allocator.reserve(kBase + 5 * kPage, kBase + 6 * kPage);
  EXPECT_EQ(allocator.free_bytes(), BufferAllocator::kRegionBytes - 3 * kPage);
  std::vector<uint32_t> got;
  for (int i = 0; i < 5; ++i) got.push_back(*allocator.allocate(kPage));
  EXPECT_EQ(got, (std::vector<uint32_t>{kBase + 2 * kPage, kBase + 3 * kPage, kBase + 4 * kPage,
                                        kBase + 6 * kPage, kBase + 7 * kPage}));
  allocator.unreserve(kBase + 5 * kPage, kBase + 6 * kPage);
  EXPECT_EQ(*allocator.allocate(kPage), kBase + 5 * kPage);
}

// A program linked into the buffer region: .text at 0x90000000 (issue 16, item 17).
ventus::elf::Image program_in_buffer_region() {
  ventus::elf::Image image;
  image.entry = kBase;
  ventus::elf::Section text;
  text.name = ".text";
  text.address = kBase;
  text.size = 0x1800;
  text.bytes.assign(text.size, 0x5a);
  text.alloc = text.exec = true;
  image.sections.push_back(text);
  return image;
}

TEST(DriverAllocation, BuffersAreNeverPlacedOverTheProgram) {
  vt_device_h device = nullptr;
  ASSERT_EQ(vt_dev_open(&device), 0);
  const std::vector<uint8_t> elf = ventus::elf::write(program_in_buffer_region());
  ASSERT_EQ(vt_upload_kernel_bytes(device, elf.data(), elf.size(), 0), 0)
      << vt_ext_last_error(device);
  uint64_t buffer = 0;
  ASSERT_EQ(vt_buf_alloc(device, 64, &buffer, VT_BUF_READ_WRITE, 0, 0), 0);
  EXPECT_EQ(buffer, kBase + 2 * kPage);  // after the program's two pages
  // The program's address is not a buffer: freeing it fails and unmaps nothing.
  uint64_t program = kBase;
  EXPECT_EQ(vt_one_buf_free(device, 0, &program, 0, 0), -1);
  EXPECT_NE(std::string(vt_ext_last_error(device)).find("not the start of an allocated buffer"),
            std::string::npos);
  EXPECT_EQ(vt_buf_free(device, 0, nullptr, 0, 0), 0);  // every buffer of task 0
  uint8_t code[0x1800] = {};
  ASSERT_EQ(vt_copy_from_dev(device, kBase, code, sizeof code, 0, 0), 0)
      << vt_ext_last_error(device);
  EXPECT_EQ(code[0], 0x5a);
  EXPECT_EQ(code[sizeof code - 1], 0x5a);
  EXPECT_EQ(vt_dev_close(device), 0);
}

TEST(DriverAllocation, ReloadingTheProgramGivesItsPagesBack) {
  rt::Device device;
  device.context().load_program(program_in_buffer_region());
  EXPECT_EQ(device.allocate(1), kBase + 2 * kPage);
  // A program elsewhere: the first pages of the region are free again.
  const rt::Program other = ventus::test::program_from_text(
      "k.s", ".text\n.globl k\n.type k, @function\nk:\n  ret\n.size k, .-k\n");
  device.load(other);
  EXPECT_EQ(device.allocate(2 * kPage), kBase);
  // A program over an allocated buffer is refused, naming the buffer.
  try {
    device.context().load_program(program_in_buffer_region());
    FAIL() << "a program over a buffer was loaded";
  } catch (const ventus::Error& e) {
    EXPECT_NE(std::string(e.what()).find("overlaps the buffer at 0x90000000"), std::string::npos)
        << e.what();
  }
}

TEST(DriverAllocation, HugeSizesAreReportedAsGiven) {
  vt_device_h device = nullptr;
  ASSERT_EQ(vt_dev_open(&device), 0);
  uint64_t address = 0;
  EXPECT_EQ(vt_buf_alloc(device, UINT64_MAX, &address, VT_BUF_READ_WRITE, 0, 0), -1);
  EXPECT_NE(std::string(vt_ext_last_error(device)).find("18446744073709551615 bytes requested"),
            std::string::npos)
      << vt_ext_last_error(device);
  // Fits the region's size but not what is left of it.
  ASSERT_EQ(vt_buf_alloc(device, kPage, &address, VT_BUF_READ_WRITE, 0, 0), 0);
  EXPECT_EQ(vt_buf_alloc(device, BufferAllocator::kRegionBytes, &address, VT_BUF_READ_WRITE, 0, 0),
            -1);
  EXPECT_NE(std::string(vt_ext_last_error(device)).find("no free range of 1879048192 bytes"),
            std::string::npos)
      << vt_ext_last_error(device);
  EXPECT_EQ(vt_dev_close(device), 0);
}

double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// First fit over all buffers took about 20 s of CPU for this; O(log n) takes well under 1 s
// (the bound leaves room for sanitizer builds). CPU time: a loaded machine does not matter.
TEST(DriverAllocation, ManyBuffersCostLogarithmicTime) {
  rt::Device device;
  constexpr int kBuffers = 100'000;
  std::vector<uint32_t> addresses;
  addresses.reserve(kBuffers);
  const double start = thread_cpu_seconds();
  for (int i = 0; i < kBuffers; ++i) addresses.push_back(device.allocate(64));
  for (uint32_t address : addresses) device.free(address);
  const double seconds = thread_cpu_seconds() - start;
  EXPECT_LT(seconds, 5.0);
  EXPECT_EQ(addresses.back(), kBase + (kBuffers - 1) * kPage);
  EXPECT_EQ(device.buffer_count(), 0u);
}

}  // namespace
