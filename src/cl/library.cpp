#include "library.h"

#include <cstring>

#include "ventus/compiler.h"

namespace ventus::cl {
namespace {

constexpr char kMagic[8] = {'V', 'T', 'C', 'L', 'L', 'I', 'B', '1'};

void put_u32(std::vector<uint8_t>& out, uint32_t value) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(value >> (8 * i)));
}

}  // namespace

std::vector<uint8_t> pack_library(const std::vector<std::vector<uint8_t>>& objects) {
  std::vector<uint8_t> out(kMagic, kMagic + sizeof kMagic);
  put_u32(out, static_cast<uint32_t>(objects.size()));
  for (const std::vector<uint8_t>& object : objects) {
    put_u32(out, static_cast<uint32_t>(object.size()));
    out.insert(out.end(), object.begin(), object.end());
  }
  return out;
}

std::optional<std::vector<std::vector<uint8_t>>> unpack_library(std::span<const uint8_t> bytes) {
  if (bytes.size() < sizeof kMagic + 4 || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
    return std::nullopt;
  size_t at = sizeof kMagic;
  auto get_u32 = [&](uint32_t& value) {
    if (bytes.size() - at < 4) return false;
    value = 0;
    for (int i = 0; i < 4; ++i) value |= uint32_t{bytes[at + i]} << (8 * i);
    at += 4;
    return true;
  };
  uint32_t count = 0;
  if (!get_u32(count)) return std::nullopt;
  std::vector<std::vector<uint8_t>> objects;
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t size = 0;
    if (!get_u32(size) || bytes.size() - at < size) return std::nullopt;
    std::span<const uint8_t> object = bytes.subspan(at, size);
    if (!cc::is_object(object)) return std::nullopt;
    objects.emplace_back(object.begin(), object.end());
    at += size;
  }
  if (at != bytes.size()) return std::nullopt;
  return objects;
}

}  // namespace ventus::cl
