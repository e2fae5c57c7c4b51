// cases::with_program (src/driver/case_program.cpp): a program's memory image is bounded
// before it is built.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "ventus/case.h"
#include "ventus/elf.h"
#include "ventus/error.h"

namespace {

ventus::cases::Case case_with_code_buffer(uint32_t code_bytes) {
  ventus::cases::CaseLaunch launch;
  launch.name = "l0";
  launch.start_addr = 0x80000000;
  launch.metadata_base = 0x90000000;
  ventus::cases::CaseBuffer code{0x80000000, 0, code_bytes, {}};
  ventus::cases::CaseBuffer knl{0x90000000, 4, 4096, {0, 0, 0, 0x80}};
  launch.buffers = {code, knl};
  ventus::cases::Case c;
  c.name = "t";
  c.launches = {launch};
  return c;
}

ventus::elf::Section section(const char* name, uint32_t address, uint32_t size) {
  ventus::elf::Section s;
  s.name = name;
  s.address = address;
  s.size = size;
  s.bytes.assign(size, 1);
  s.alloc = true;
  return s;
}

std::string error_of(const ventus::elf::Image& program, uint32_t code_bytes) {
  const std::filesystem::path listing =
      std::filesystem::temp_directory_path() / "ventus_case_program_test.dump";
  std::ofstream(listing) << "80000000 <k>:\n";
  try {
    ventus::cases::with_program(case_with_code_buffer(code_bytes), program, listing);
  } catch (const ventus::Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(CaseProgram, SectionsPastFourGiBAreRefused) {
  ventus::elf::Image program;
  program.sections = {section(".text", 0x80000000, 64), section(".end", 0xfffff000, 0x2000)};
  // The end once wrapped to 0x1000: the image came out too small for the copies.
  const std::string e = error_of(program, 4096);
  EXPECT_NE(e.find("section .end [0xfffff000, +8192) leaves the address space"), std::string::npos)
      << e;
}

}  // namespace
