// Device memory: mapping, host access, page boundaries, zero pages.
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "ventus/device.h"
#include "ventus/error.h"

namespace ventus::test {
namespace {

TEST(SimMemory, MapReadWriteAcrossPages) {
  sim::Memory m;
  EXPECT_FALSE(m.is_mapped(0x90000000, 4));
  m.map(0x90000ffc, 8);  // two pages
  EXPECT_TRUE(m.is_mapped(0x90000000, 0x2000));
  EXPECT_FALSE(m.is_mapped(0x90000000, 0x2001));
  EXPECT_EQ(m.mapped_bytes(), 0x2000u);
  std::vector<uint8_t> bytes(0x1800);
  std::iota(bytes.begin(), bytes.end(), uint8_t{0});
  ASSERT_TRUE(m.write(0x90000400, bytes.data(), bytes.size()));
  std::vector<uint8_t> back(bytes.size());
  ASSERT_TRUE(m.read(0x90000400, back.data(), back.size()));
  EXPECT_EQ(back, bytes);
  uint32_t word = 1;
  ASSERT_TRUE(m.read(0x90000000, &word, 4));
  EXPECT_EQ(word, 0u);                          // mapped memory starts zeroed
  EXPECT_FALSE(m.write(0x90001ffe, &word, 4));  // crosses into an unmapped page: no effect
  m.unmap(0x90001000, 1);
  EXPECT_FALSE(m.is_mapped(0x90001000, 1));
  EXPECT_TRUE(m.is_mapped(0x90000000, 0x1000));
  // A range over written, unwritten and unmapped pages; mapped again, it reads zero.
  m.map(0x90003000, 0x1000);
  m.unmap(0x90000000, 0x4000);
  EXPECT_FALSE(m.is_mapped(0x90000000, 1));
  EXPECT_EQ(m.mapped_bytes(), 0u);
  m.map(0x90000000, 0x1000);
  ASSERT_TRUE(m.read(0x90000400, &word, 4));
  EXPECT_EQ(word, 0u);
}

TEST(SimMemory, LargeMappingsCostNothingUntilWritten) {
  sim::Memory m;
  m.map(0x80000000, 0x10000000);  // the code allocation of the hardware cases
  EXPECT_EQ(m.mapped_bytes(), 0x10000000u);
  EXPECT_EQ(m.page(0x80000000), m.page(0x8ffff000));  // one shared zero page
  uint32_t v = 0x12345678;
  ASSERT_TRUE(m.write(0x8ffff000, &v, 4));
  EXPECT_NE(m.page(0x80000000), m.page(0x8ffff000));
  uint32_t back = 0;
  ASSERT_TRUE(m.read(0x80000000, &back, 4));
  EXPECT_EQ(back, 0u);
  ASSERT_TRUE(m.read(0x8ffff000, &back, 4));
  EXPECT_EQ(back, v);
}

TEST(SimMemory, BadRangesAreErrors) {
  sim::Memory m;
  EXPECT_THROW(m.map(0xfffff000, 0x2000), Error);
  EXPECT_THROW(m.map(0x1000, 0), Error);
}

}  // namespace
}  // namespace ventus::test
