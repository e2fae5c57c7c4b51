// Program libraries (clLinkProgram -create-library): the compiled objects they hold, in
// one binary that CL_PROGRAM_BINARIES hands out and clCreateProgramWithBinary takes back.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace ventus::cl {

// "VTCLLIB1", the object count, then each object's size and bytes (little-endian u32s).
std::vector<uint8_t> pack_library(const std::vector<std::vector<uint8_t>>& objects);
// The objects of a library binary; nothing when `bytes` is not one (or is damaged).
std::optional<std::vector<std::vector<uint8_t>>> unpack_library(std::span<const uint8_t> bytes);

}  // namespace ventus::cl
