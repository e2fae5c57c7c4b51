// Loading ELF files that no loader may accept (issue 16, item 21): overlapping sections and
// an entry point outside every section are refused by the ELF reader that the C API, the
// C++ runtime and the command line share, with the reason, and the device keeps no part of
// such a program.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ventus/elf.h"
#include "ventus/error.h"
#include "ventus/runtime.h"
#include "ventus/ventus.h"

namespace {

std::vector<uint8_t> program_bytes(uint32_t data_address, uint32_t entry) {
  ventus::elf::Image image;
  ventus::elf::Section text;
  text.name = ".text";
  text.address = 0x80000000;
  text.size = 16;
  text.bytes.assign(16, 0);
  text.alloc = text.exec = true;
  ventus::elf::Section data = text;
  data.name = ".data";
  data.address = data_address;
  data.exec = false;
  data.write = true;
  image.sections = {text, data};
  image.entry = entry;
  return ventus::elf::write(image);
}

TEST(ElfLoad, OverlappingSectionsAndAStrayEntryAreRefused) {
  vt_device_h device = nullptr;
  ASSERT_EQ(vt_dev_open(&device), 0);
  const std::vector<uint8_t> good = program_bytes(0x80000010, 0x80000000);
  EXPECT_EQ(vt_upload_kernel_bytes(device, good.data(), good.size(), 0), 0)
      << vt_ext_last_error(device);

  const std::vector<uint8_t> overlapping = program_bytes(0x80000008, 0x80000000);
  EXPECT_EQ(vt_upload_kernel_bytes(device, overlapping.data(), overlapping.size(), 0), -1);
  EXPECT_NE(std::string(vt_ext_last_error(device))
                .find("sections '.text' [0x80000000, 0x80000010) and '.data' [0x80000008, "
                      "0x80000018) overlap"),
            std::string::npos)
      << vt_ext_last_error(device);

  const std::vector<uint8_t> stray_entry = program_bytes(0x80000010, 0x70000000);
  EXPECT_EQ(vt_upload_kernel_bytes(device, stray_entry.data(), stray_entry.size(), 0), -1);
  EXPECT_NE(std::string(vt_ext_last_error(device))
                .find("the entry point 0x70000000 lies outside every loadable section"),
            std::string::npos)
      << vt_ext_last_error(device);
  EXPECT_EQ(vt_dev_close(device), 0);

  // The C++ runtime reads through the same reader.
  try {
    ventus::rt::Program::from_elf_bytes(overlapping, "k.elf");
    ADD_FAILURE() << "loaded";
  } catch (const ventus::Error& e) {
    EXPECT_NE(std::string(e.what()).find("k.elf: sections '.text'"), std::string::npos) << e.what();
  }
}

}  // namespace
