// Reading the host files the driver and the runtime load (programs, assembly sources).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ventus::driver {

// The bytes of the file; ventus::Error naming the path when it cannot be read (missing,
// a directory, a read error), never another exception type.
std::vector<uint8_t> read_host_file(const std::string& path);

}  // namespace ventus::driver
