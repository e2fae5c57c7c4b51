// The ELF reader against files a loader must not accept (issue 16): truncated files,
// overlapping sections, sections beyond 4 GiB, entry points outside every section, tables
// past the end of the file. Each is a ventus::Error that names the file and says why.
#include "ventus/elf.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <string>

#include "ventus/error.h"

namespace ventus::test {
namespace {

elf::Section loaded(std::string name, uint32_t address, uint32_t size, bool exec = false) {
  elf::Section s;
  s.name = std::move(name);
  s.address = address;
  s.size = size;
  s.bytes.assign(size, 0x13);
  s.alloc = true;
  s.exec = exec;
  return s;
}

// The message of reading `bytes`, or "" when they read.
std::string read_error(const std::vector<uint8_t>& bytes) {
  try {
    elf::read(bytes, "k.elf");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

std::vector<uint8_t> written(const elf::Image& image) {
  return elf::write(image);
}

elf::Image program() {
  elf::Image image;
  image.sections.push_back(loaded(".text", 0x80000000, 0x100, true));
  image.sections.push_back(loaded(".data", 0x80000100, 0x10));
  image.entry = 0x80000000;
  return image;
}

TEST(ElfReader, AcceptsAWellFormedProgram) {
  EXPECT_EQ(read_error(written(program())), "");
}

TEST(ElfReader, TruncatedFilesSaySoWithTheirSize) {
  const std::vector<uint8_t> file = written(program());
  for (size_t size : {size_t{1}, size_t{3}, size_t{4}, size_t{10}, size_t{16}, size_t{51}}) {
    const std::vector<uint8_t> cut(file.begin(), file.begin() + size);
    EXPECT_EQ(read_error(cut),
              fmt::format("k.elf: truncated ELF file: {} bytes, but the ELF header "
                          "alone has 52",
                          size));
  }
  // Cut after the header: the section header table is missing.
  const std::vector<uint8_t> cut(file.begin(), file.begin() + 60);
  EXPECT_NE(read_error(cut).find("does not fit in the file (60 bytes)"), std::string::npos)
      << read_error(cut);
  EXPECT_EQ(read_error({'E', 'L', 'F', 0x7f}), "k.elf: not an ELF file (bad magic number)");
  EXPECT_EQ(read_error({}), "k.elf: empty file, not an ELF file");
}

TEST(ElfReader, RejectsOverlappingSections) {
  elf::Image image = program();
  image.sections[1].address = 0x800000f0;
  EXPECT_EQ(read_error(written(image)),
            "k.elf: sections '.text' [0x80000000, 0x80000100) and '.data' [0x800000f0, "
            "0x80000100) overlap");
  // A section inside another, listed first.
  image = program();
  image.sections.insert(image.sections.begin(), loaded(".inner", 0x80000010, 4));
  EXPECT_NE(read_error(written(image))
                .find("sections '.text' [0x80000000, 0x80000100) and "
                      "'.inner' [0x80000010, 0x80000014) overlap"),
            std::string::npos)
      << read_error(written(image));
  // Sections without contents in memory (not allocated, or empty) take no addresses.
  image = program();
  image.sections.push_back(loaded(".empty", 0x80000004, 0));
  image.sections.push_back(loaded(".comment", 0, 0x10));
  image.sections.back().alloc = false;
  image.sections.push_back(loaded(".note", 0x80000000, 0x10));
  image.sections.back().alloc = false;
  EXPECT_EQ(read_error(written(image)), "");
}

TEST(ElfReader, RejectsSectionsBeyondTheAddressSpace) {
  elf::Image image = program();
  image.sections[1] = loaded(".data", 0xfffffff0, 0x20);
  image.sections[1].nobits = true;
  image.sections[1].bytes.clear();
  EXPECT_EQ(read_error(written(image)),
            "k.elf: section '.data' [0xfffffff0, +0x20) goes beyond the 32-bit address space");
}

TEST(ElfReader, RejectsAnEntryOutsideEverySection) {
  elf::Image image = program();
  for (uint32_t entry : {0u, 0x7ffffffcu, 0x80000110u, 0x90000000u}) {
    image.entry = entry;
    EXPECT_EQ(
        read_error(written(image)),
        fmt::format("k.elf: the entry point {:#010x} lies outside every loadable section", entry));
  }
  image.entry = 0x800000fc;
  EXPECT_EQ(read_error(written(image)), "");
}

TEST(ElfReader, RejectsASymbolTablePastTheEndOfTheFile) {
  elf::Image image = program();
  image.symbols.push_back({"k", 0x80000000, 4, true, false, true, ".text"});
  std::vector<uint8_t> file = written(image);
  // The section header of .symtab (type 2): move its contents past the end.
  uint32_t shoff = 0;
  uint16_t shnum = 0;
  std::memcpy(&shoff, file.data() + 32, 4);
  std::memcpy(&shnum, file.data() + 48, 2);
  bool moved = false;
  for (uint16_t i = 0; i < shnum; ++i) {
    uint8_t* header = file.data() + shoff + 40 * i;
    uint32_t type = 0;
    std::memcpy(&type, header + 4, 4);
    if (type != 2) continue;
    const uint32_t past = static_cast<uint32_t>(file.size());
    std::memcpy(header + 16, &past, 4);
    moved = true;
  }
  ASSERT_TRUE(moved);
  EXPECT_NE(read_error(file).find("section '.symtab' (offset"), std::string::npos)
      << read_error(file);
  EXPECT_NE(read_error(file).find("extends past the end of the file"), std::string::npos);
}

TEST(ElfFiles, UnreadableFilesAndFailedWritesAreErrors) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / fmt::format("ventus_elf_test_{}", ::getpid());
  fs::create_directories(dir);
  const auto read_error_of = [](const fs::path& path) -> std::string {
    try {
      elf::read_file(path.string());
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(read_error_of(dir), dir.string() + ": is a directory, not a file");
  EXPECT_EQ(read_error_of(dir / "none.elf"), (dir / "none.elf").string() + ": cannot open file");
  fs::create_symlink("none.elf", dir / "dangling.elf");
  EXPECT_EQ(read_error_of(dir / "dangling.elf"),
            (dir / "dangling.elf").string() +
                ": cannot open file: a dangling symbolic link (its target does not exist)");
  elf::write_file((dir / "k.elf").string(), program());
  EXPECT_EQ(read_error_of(dir / "k.elf"), "");
  fs::remove_all(dir);
  // /dev/full takes the bytes into the stream's buffer and fails when they are written.
  try {
    elf::write_file("/dev/full", program());
    ADD_FAILURE() << "written";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "/dev/full: write failed");
  }
}

}  // namespace
}  // namespace ventus::test
