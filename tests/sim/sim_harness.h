// Helpers for the simulator tests: assemble a kernel (no start file), load it at
// 0x80000000 and run it.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "ventus/asm.h"
#include "ventus/device.h"
#include "ventus/elf.h"

namespace ventus::test {

// Assembles source without start files and maps its sections; the image goes to `image`
// when given (for its symbols).
inline void load_program(sim::Device& device, const std::string& source,
                         elf::Image* image_out = nullptr) {
  assembler::Options options;
  options.start_files = false;
  const elf::Image image = assembler::assemble({{"kernel.s", source}}, options);
  if (image_out) *image_out = image;
  for (const elf::Section& s : image.sections) {
    if (!s.alloc || s.size == 0) continue;
    device.memory().map(s.address, s.size);
    if (!s.nobits) {
      ASSERT_TRUE(device.memory().write(s.address, s.bytes.data(), s.bytes.size()));
    }
  }
}

inline sim::KernelLaunch launch_of(uint32_t warps, uint32_t threads, uint32_t groups_x = 1) {
  sim::KernelLaunch l;
  l.kernel_name = "test";
  l.warps_per_workgroup = warps;
  l.threads_per_warp = threads;
  l.grid[0] = groups_x;
  l.lds_bytes = 1024;
  return l;
}

inline std::vector<uint32_t> read_words(sim::Device& device, uint32_t address, size_t count) {
  std::vector<uint32_t> words(count);
  EXPECT_TRUE(device.memory().read(address, words.data(), count * 4));
  return words;
}

inline std::string fault_text(const sim::LaunchResult& r) {
  return r.fault ? r.fault->describe() : "";
}

}  // namespace ventus::test
