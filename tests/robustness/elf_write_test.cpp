// ventus::elf::write_file (the library's ELF writer to a path): the bytes a stream still
// buffers are written at close, and a failure there is an error, not a truncated file.
#include <gtest/gtest.h>

#include <filesystem>

#include "ventus/elf.h"
#include "ventus/error.h"

namespace ventus::elf {
namespace {

TEST(ElfWriteFile, FailureAtCloseIsAnError) {
  if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  Image image;
  Section text;
  text.name = ".text";
  text.address = 0x80000000;
  text.size = 64;
  text.bytes.assign(64, 0x13);
  text.alloc = text.exec = true;
  image.sections.push_back(text);
  image.entry = 0x80000000;
  // Small enough to sit in the stream's buffer until close.
  EXPECT_THROW(write_file("/dev/full", image), Error);
}

}  // namespace
}  // namespace ventus::elf
