// The kernel metadata's one reader and writer (include/ventus/kernel_metadata.h).
#include "ventus/kernel_metadata.h"

#include <fmt/format.h>

#include <algorithm>
#include <initializer_list>
#include <nlohmann/json.hpp>

#include "ventus/device.h"
#include "ventus/error.h"

namespace ventus::rt {

std::string_view to_string(AddressSpace space) {
  switch (space) {
    case AddressSpace::global: return "global";
    case AddressSpace::constant: return "constant";
    case AddressSpace::local: return "local";
    case AddressSpace::private_: return "private";
  }
  return "private";
}

std::optional<AddressSpace> address_space_from_string(std::string_view text) {
  for (AddressSpace space :
       {AddressSpace::global, AddressSpace::constant, AddressSpace::local, AddressSpace::private_})
    if (to_string(space) == text) return space;
  return std::nullopt;
}

namespace {

// Limits of the `.ventus.kernels` metadata (docs/driver.md, "Kernel metadata").
// Every workgroup slot's local memory lies in the LDS window below the code.
constexpr uint64_t kMaxLocalBytes = sim::kCodeBase - sim::kLdsWindowBase;
constexpr uint64_t kMaxScalarRegisters = 64;   // x0..x63 (docs/isa.md, regext)
constexpr uint64_t kMaxVectorRegisters = 256;  // v0..v255

using Json = nlohmann::json;

// place: where in the metadata ("kernel 'k'", "argument 1 ('x') of kernel 'k'", "" for the
// top level).
[[noreturn]] void metadata_error(const std::string& place, const std::string& why) {
  throw Error(fmt::format("malformed .ventus.kernels section: {}{}{}", place,
                          place.empty() ? "" : ": ", why));
}

// An object with exactly the required keys and any of the optional ones.
void check_keys(const Json& object, std::initializer_list<std::string_view> required,
                std::initializer_list<std::string_view> optional, const std::string& place) {
  if (!object.is_object())
    metadata_error(place, fmt::format("not an object but {}", object.type_name()));
  for (const auto& item : object.items()) {
    // Not a structured binding: clang 15 (the fuzz build) cannot capture one.
    const std::string& key = item.key();
    const auto is_key = [&key](std::string_view k) { return k == key; };
    if (std::none_of(required.begin(), required.end(), is_key) &&
        std::none_of(optional.begin(), optional.end(), is_key))
      metadata_error(place, fmt::format("unknown field \"{}\"", key));
  }
  for (std::string_view key : required)
    if (!object.contains(key)) metadata_error(place, fmt::format("missing field \"{}\"", key));
}

uint64_t unsigned_field(const Json& object, std::string_view key, uint64_t max,
                        const std::string& place) {
  const Json& value = object.at(key);
  if (!value.is_number_unsigned())
    metadata_error(place, fmt::format("\"{}\" is {}, not an unsigned integer", key, value.dump()));
  const uint64_t number = value.get<uint64_t>();
  if (number > max)
    metadata_error(place, fmt::format("\"{}\" is {} (at most {})", key, number, max));
  return number;
}

std::string string_field(const Json& object, std::string_view key, const std::string& place) {
  const Json& value = object.at(key);
  if (!value.is_string())
    metadata_error(place, fmt::format("\"{}\" is {}, not a string", key, value.dump()));
  return value.get<std::string>();
}

const Json& array_field(const Json& object, std::string_view key, const std::string& place) {
  const Json& value = object.at(key);
  if (!value.is_array()) metadata_error(place, fmt::format("\"{}\" is not an array", key));
  return value;
}

// The name of an object that has a string "name", for messages; "" if none.
std::string name_for_messages(const Json& object) {
  if (!object.is_object()) return "";
  const auto name = object.find("name");
  return name != object.end() && name->is_string() ? name->get<std::string>() : "";
}

KernelArgInfo parse_argument(const Json& a, size_t index, const std::string& kernel) {
  const std::string name = name_for_messages(a);
  const std::string place =
      name.empty() ? fmt::format("argument {} of kernel '{}'", index, kernel)
                   : fmt::format("argument {} ('{}') of kernel '{}'", index, name, kernel);
  check_keys(a, {"name", "type", "address_space", "offset", "size"}, {"qualifiers"}, place);
  KernelArgInfo arg;
  arg.name = string_field(a, "name", place);
  arg.type = string_field(a, "type", place);
  const std::string space = string_field(a, "address_space", place);
  const std::optional<AddressSpace> address_space = address_space_from_string(space);
  if (!address_space)
    metadata_error(place,
                   fmt::format("address space \"{}\" (global, constant, local or private)", space));
  arg.address_space = *address_space;
  if (a.contains("qualifiers")) arg.qualifiers = string_field(a, "qualifiers", place);
  const uint64_t offset = unsigned_field(a, "offset", kMaxArgumentBytes, place);
  const uint64_t size = unsigned_field(a, "size", kMaxArgumentBytes, place);
  if (size == 0) metadata_error(place, "\"size\" is 0");
  if (offset + size > kMaxArgumentBytes)
    metadata_error(place, fmt::format("bytes [{}, {}) leave the {}-byte argument buffer", offset,
                                      offset + size, kMaxArgumentBytes));
  arg.offset = static_cast<uint32_t>(offset);
  arg.size = static_cast<uint32_t>(size);
  return arg;
}

KernelInfo parse_kernel(const Json& k, size_t index, uint64_t version) {
  const std::string name = name_for_messages(k);
  const std::string place =
      name.empty() ? fmt::format("kernel {}", index) : fmt::format("kernel '{}'", name);
  if (version == 1)
    check_keys(k, {"name", "local_bytes", "private_bytes", "sgpr", "vgpr", "args"},
               {"reqd_work_group_size", "attributes"}, place);
  else
    check_keys(k, {"name", "local_bytes", "private_bytes", "stack_bytes", "sgpr", "vgpr", "args"},
               {"reqd_work_group_size", "attributes"}, place);
  KernelInfo info;
  info.name = string_field(k, "name", place);
  if (info.name.empty()) metadata_error(place, "empty name");
  info.local_bytes = static_cast<uint32_t>(unsigned_field(k, "local_bytes", kMaxLocalBytes, place));
  info.private_bytes =
      static_cast<uint32_t>(unsigned_field(k, "private_bytes", kMaxPrivateBytes, place));
  if (version != 1) {
    const uint64_t stack = unsigned_field(k, "stack_bytes", kMaxLocalBytes, place);
    if (stack < abi::kWarpStackBytes || stack % 4 != 0)
      metadata_error(place, fmt::format("\"stack_bytes\" is {} (a multiple of 4, at least the "
                                        "start code's {})",
                                        stack, abi::kWarpStackBytes));
    info.stack_bytes = static_cast<uint32_t>(stack);
  }
  info.sgpr = static_cast<uint32_t>(unsigned_field(k, "sgpr", kMaxScalarRegisters, place));
  info.vgpr = static_cast<uint32_t>(unsigned_field(k, "vgpr", kMaxVectorRegisters, place));
  if (k.contains("reqd_work_group_size")) {
    const Json& sizes = array_field(k, "reqd_work_group_size", place);
    if (sizes.size() != 3)
      metadata_error(place,
                     fmt::format("\"reqd_work_group_size\" has {} elements, not 3", sizes.size()));
    for (int d = 0; d < 3; ++d) {
      const Json& size = sizes[d];
      if (!size.is_number_unsigned() || size.get<uint64_t>() == 0 ||
          size.get<uint64_t>() > UINT32_MAX)
        metadata_error(place, fmt::format("\"reqd_work_group_size\" element {} is {} (1 to {})", d,
                                          size.dump(), UINT32_MAX));
      info.reqd_work_group_size[d] = size.get<uint32_t>();
    }
  }
  if (k.contains("attributes")) info.attributes = string_field(k, "attributes", place);
  const Json& args = array_field(k, "args", place);
  for (size_t i = 0; i < args.size(); ++i)
    info.args.push_back(parse_argument(args[i], i, info.name));
  return info;
}

}  // namespace

std::string write_kernel_metadata(std::span<const KernelInfo> kernels) {
  // Fields in a fixed order (ordered_json), so that the section's bytes depend only on the
  // kernels.
  using Ordered = nlohmann::ordered_json;
  Ordered list = Ordered::array();
  for (const KernelInfo& k : kernels) {
    Ordered kernel;
    kernel["name"] = k.name;
    kernel["local_bytes"] = k.local_bytes;
    kernel["private_bytes"] = k.private_bytes;
    kernel["stack_bytes"] = k.stack_bytes;
    kernel["sgpr"] = k.sgpr;
    kernel["vgpr"] = k.vgpr;
    if (k.reqd_work_group_size[0] != 0)
      kernel["reqd_work_group_size"] = {k.reqd_work_group_size[0], k.reqd_work_group_size[1],
                                        k.reqd_work_group_size[2]};
    if (!k.attributes.empty()) kernel["attributes"] = k.attributes;
    Ordered args = Ordered::array();
    for (const KernelArgInfo& a : k.args)
      args.push_back({{"name", a.name},
                      {"type", a.type},
                      {"address_space", to_string(a.address_space)},
                      {"qualifiers", a.qualifiers},
                      {"offset", a.offset},
                      {"size", a.size}});
    kernel["args"] = std::move(args);
    list.push_back(std::move(kernel));
  }
  Ordered document;
  document["version"] = kKernelMetadataVersion;
  document["kernels"] = std::move(list);
  // Names are the source's: bytes that are not UTF-8 become U+FFFD instead of failing.
  return document.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

std::vector<KernelInfo> parse_kernel_metadata(std::string_view json) {
  Json doc;
  try {
    doc = Json::parse(json);
  } catch (const Json::exception& e) {
    throw Error(fmt::format("malformed .ventus.kernels section: {}", e.what()));
  }
  const std::string top;
  check_keys(doc, {"version", "kernels"}, {}, top);
  const Json& version = doc.at("version");
  if (!version.is_number_unsigned() || version.get<uint64_t>() == 0 ||
      version.get<uint64_t>() > kKernelMetadataVersion)
    metadata_error(top, fmt::format("version {} (this runtime reads versions 1 to {})",
                                    version.dump(), kKernelMetadataVersion));
  const Json& kernels = array_field(doc, "kernels", top);
  std::vector<KernelInfo> result;
  for (size_t i = 0; i < kernels.size(); ++i) {
    KernelInfo info = parse_kernel(kernels[i], i, version.get<uint64_t>());
    for (const KernelInfo& earlier : result)
      if (earlier.name == info.name)
        metadata_error(top, fmt::format("kernel '{}' is described twice", info.name));
    result.push_back(std::move(info));
  }
  return result;
}

}  // namespace ventus::rt
