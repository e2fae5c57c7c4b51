// The cycle model's configuration: presets, parameters by name, the JSON configuration
// file (docs/timing.md, "Configuration").
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <nlohmann/json.hpp>

#include "ventus/error.h"
#include "ventus/file.h"
#include "ventus/timing.h"

namespace ventus::timing {
namespace {

constexpr ParameterInfo kParameters[] = {
#define VT_TIMING_PARAM(name, verilog_release, chisel_master, unit, what, source) \
  {#name, &Config::name, verilog_release, chisel_master, unit, what, source},
#include "ventus/timing_parameters.def"
#undef VT_TIMING_PARAM
};

constexpr uint32_t kMaxCycles = 65536;

constexpr std::array<std::string_view, 2> kPresets = {"verilog-release", "chisel-master"};

// Parameters that are on/off switches, powers of two (the model indexes sets and lines by
// bits), or may be zero.
bool is_switch(std::string_view name) {
  return name == "dual_issue" || name == "dcache_flush_at_end";
}
bool is_power_of_two(std::string_view name) {
  return name.ends_with("_sets") || name.ends_with("_line_bytes");
}
bool may_be_zero(std::string_view name) {
  return is_switch(name) || name == "lds_banks" || name.ends_with("_cycles") ||
         name == "writeback_to_issue" || name == "end_report_cycles" ||
         name == "dispatch_first_warp_cycles";
}

std::string names_list() {
  std::string text;
  for (const ParameterInfo& p : kParameters)
    text += (text.empty() ? "" : ", ") + std::string(p.name);
  return text;
}

}  // namespace

std::span<const ParameterInfo> parameters() {
  return kParameters;
}

const ParameterInfo* find_parameter(std::string_view name) {
  for (const ParameterInfo& p : kParameters)
    if (p.name == name) return &p;
  return nullptr;
}

std::span<const std::string_view> preset_names() {
  return kPresets;
}

Config preset(std::string_view name) {
  if (name != kPresets[0] && name != kPresets[1])
    throw Error(fmt::format("unknown timing preset '{}' (presets: {}, {}; or a configuration file)",
                            name, kPresets[0], kPresets[1]));
  Config c;
  c.preset = std::string(name);
  for (const ParameterInfo& p : kParameters)
    c.*p.member = name == kPresets[0] ? p.verilog_release : p.chisel_master;
  return c;
}

void set_parameter(Config& config, std::string_view name, std::string_view value) {
  const ParameterInfo* p = find_parameter(name);
  if (!p)
    throw Error(fmt::format("unknown timing parameter '{}' (parameters: {})", name, names_list()));
  uint64_t number = 0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), number);
  if (value.empty() || error != std::errc() || end != value.data() + value.size() ||
      number > UINT32_MAX)
    throw Error(fmt::format("timing parameter {}: '{}' is not a number from 0 to {}", name, value,
                            UINT32_MAX));
  config.*p->member = static_cast<uint32_t>(number);
}

void set_parameter(Config& config, std::string_view assignment) {
  const size_t equals = assignment.find('=');
  if (equals == std::string_view::npos)
    throw Error(fmt::format("timing parameter '{}': expected NAME=VALUE", assignment));
  set_parameter(config, assignment.substr(0, equals), assignment.substr(equals + 1));
}

Config load(std::string_view preset_or_file) {
  if (std::find(kPresets.begin(), kPresets.end(), preset_or_file) != kPresets.end())
    return preset(preset_or_file);
  const std::string file(preset_or_file);
  std::error_code ec;
  if (!std::filesystem::exists(file, ec))
    throw Error(fmt::format("'{}' is neither a timing preset ({}, {}) nor a configuration file",
                            file, kPresets[0], kPresets[1]));
  return parse(read_input_file(file, kToolInput), file);
}

Config parse(std::string_view text, std::string_view source) {
  const std::string file(source);
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {  // a syntax error, a number beyond 2^64
    throw Error(fmt::format("{}: not JSON: {}", file, e.what()));
  }
  if (!doc.is_object()) throw Error(fmt::format("{}: expected a JSON object", file));
  for (const auto& [key, value] : doc.items())
    if (key != "preset" && key != "parameters")
      throw Error(fmt::format("{}: unknown key \"{}\" (expected \"preset\" and \"parameters\")",
                              file, key));
  std::string base = std::string(kPresets[0]);
  if (doc.contains("preset")) {
    if (!doc["preset"].is_string())
      throw Error(fmt::format("{}: \"preset\" must be a string", file));
    base = doc["preset"].get<std::string>();
  }
  Config config;
  try {
    config = preset(base);
  } catch (const Error& e) {
    throw Error(fmt::format("{}: {}", file, e.what()));
  }
  if (doc.contains("parameters")) {
    const nlohmann::json& params = doc["parameters"];
    if (!params.is_object())
      throw Error(fmt::format("{}: \"parameters\" must be an object of name: number", file));
    for (const auto& [key, value] : params.items()) {
      const ParameterInfo* p = find_parameter(key);
      if (!p)
        throw Error(fmt::format("{}: unknown timing parameter \"{}\" (parameters: {})", file, key,
                                names_list()));
      if (!value.is_number_unsigned() || value.get<uint64_t>() > UINT32_MAX)
        throw Error(fmt::format("{}: parameter \"{}\" is {}, not a number from 0 to {}", file, key,
                                value.dump(), UINT32_MAX));
      config.*p->member = value.get<uint32_t>();
    }
  }
  config.preset = base;
  try {
    validate(config);
  } catch (const Error& e) {
    throw Error(fmt::format("{}: {}", file, e.what()));
  }
  return config;
}

std::string to_json(const Config& config) {
  nlohmann::ordered_json params;
  for (const ParameterInfo& p : kParameters) params[std::string(p.name)] = config.*p.member;
  nlohmann::ordered_json doc;
  doc["preset"] = config.preset.empty() ? std::string(kPresets[0]) : config.preset;
  doc["parameters"] = std::move(params);
  return doc.dump(2) + "\n";
}

std::string parameter_table(bool markdown) {
  std::string out;
  if (markdown) {
    out += "| parameter | verilog-release | chisel-master | unit | what | source |\n";
    out += "| --- | ---: | ---: | --- | --- | --- |\n";
    for (const ParameterInfo& p : kParameters)
      out += fmt::format("| `{}` | {} | {} | {} | {} | {} |\n", p.name, p.verilog_release,
                         p.chisel_master, p.unit, p.description, p.source);
    return out;
  }
  out += fmt::format("{:<28} {:>15} {:>13}  {:<12} {}\n", "parameter", "verilog-release",
                     "chisel-master", "unit", "what");
  for (const ParameterInfo& p : kParameters)
    out += fmt::format("{:<28} {:>15} {:>13}  {:<12} {}\n", p.name, p.verilog_release,
                       p.chisel_master, p.unit, p.description);
  return out;
}

void validate(const Config& config) {
  for (const ParameterInfo& p : kParameters) {
    const uint32_t v = config.*p.member;
    if (is_switch(p.name) && v > 1)
      throw Error(fmt::format("timing parameter {} is {}: it is 0 (off) or 1 (on)", p.name, v));
    if (!may_be_zero(p.name) && v == 0)
      throw Error(fmt::format("timing parameter {} is 0: it must be at least 1", p.name));
    // A longer wait is no hardware's; the model steps through some waits cycle by cycle.
    if (p.unit == "cycles" && v > kMaxCycles)
      throw Error(fmt::format("timing parameter {} is {}: at most {} cycles", p.name, v,
                              kMaxCycles));
    if (is_power_of_two(p.name) && !std::has_single_bit(v))
      throw Error(fmt::format("timing parameter {} is {}: it must be a power of two", p.name, v));
  }
  const auto at_least = [](const char* name, uint32_t v, uint32_t least) {
    if (v < least)
      throw Error(fmt::format("timing parameter {} is {}: it must be at least {}", name, v, least));
  };
  at_least("icache_line_bytes", config.icache_line_bytes, 4);
  at_least("dcache_line_bytes", config.dcache_line_bytes, 4);
  at_least("l2_line_bytes", config.l2_line_bytes, 4);
  // The instruction buffer holds at most 16 words (the model's ring).
  if (uint64_t{config.ibuffer_packets} * config.fetch_instructions > 16)
    throw Error(fmt::format(
        "timing parameters ibuffer_packets x fetch_instructions = {} x {}: at most 16 words",
        config.ibuffer_packets, config.fetch_instructions));
  if (config.fetch_instructions > 16 || !std::has_single_bit(config.fetch_instructions))
    throw Error(
        fmt::format("timing parameter fetch_instructions is {}: a power of two from 1 to 16",
                    config.fetch_instructions));
  if (config.memory_outstanding > 1024)
    throw Error(fmt::format("timing parameter memory_outstanding is {}: at most 1024",
                            config.memory_outstanding));
  if (config.register_banks > 256)
    throw Error(
        fmt::format("timing parameter register_banks is {}: at most 256", config.register_banks));
  for (const auto& [name, sets, ways] :
       {std::tuple{"icache", config.icache_sets, config.icache_ways},
        std::tuple{"dcache", config.dcache_sets, config.dcache_ways},
        std::tuple{"l2", config.l2_sets, config.l2_ways}})
    if (uint64_t{sets} * ways > (uint64_t{1} << 20))
      throw Error(fmt::format("timing parameters {}_sets x {}_ways = {} x {}: at most 2^20 lines",
                              name, name, sets, ways));
}

}  // namespace ventus::timing
