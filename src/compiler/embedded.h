// Files embedded into ventus_compiler at build time (embed.cpp, CMakeLists.txt).
#pragma once

#include <cstddef>
#include <string_view>

namespace ventus::cc::embedded {

// The builtin library: lib/**/*.cl compiled to LLVM bitcode and linked into one module.
extern const unsigned char kBuiltinLibrary[];
extern const std::size_t kBuiltinLibrary_size;
// lib/device_features.h, the header included before every translation unit.
extern const unsigned char kDeviceFeaturesHeader[];
extern const std::size_t kDeviceFeaturesHeader_size;

inline std::string_view builtin_library() {
  return {reinterpret_cast<const char*>(kBuiltinLibrary), kBuiltinLibrary_size};
}
inline std::string_view device_features_header() {
  return {reinterpret_cast<const char*>(kDeviceFeaturesHeader), kDeviceFeaturesHeader_size};
}

}  // namespace ventus::cc::embedded
