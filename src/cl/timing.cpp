// The cycle model under OpenCL (docs/opencl.md, "Timing"): VENTUS_TIMING, VENTUS_TIMING_SET
// and VENTUS_STATS_JSON.
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "commands.h"
#include "ventus/error.h"

namespace ventus::cl {
namespace {

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}

// The configuration the variables describe; ventus::Error naming the variable otherwise.
std::optional<timing::Config> timing_from_environment() {
  const std::string spec = environment("VENTUS_TIMING");
  const std::string settings = environment("VENTUS_TIMING_SET");
  if (spec.empty()) {
    for (const char* name : {"VENTUS_TIMING_SET", "VENTUS_STATS_JSON"})
      if (!environment(name).empty())
        throw Error(
            fmt::format("{} needs VENTUS_TIMING (a preset such as verilog-release, or a "
                        "configuration file)",
                        name));
    return std::nullopt;
  }
  timing::Config config;
  try {
    config = timing::load(spec);
  } catch (const Error& e) {
    throw Error(fmt::format("VENTUS_TIMING={}: {}", spec, e.what()));
  }
  for (size_t start = 0; start < settings.size();) {
    size_t end = settings.find(',', start);
    if (end == std::string::npos) end = settings.size();
    const std::string setting = settings.substr(start, end - start);
    try {
      timing::set_parameter(config, setting);
    } catch (const Error& e) {
      throw Error(fmt::format("VENTUS_TIMING_SET: '{}': {}", setting, e.what()));
    }
    start = end + 1;
  }
  try {
    timing::validate(config);
  } catch (const Error& e) {
    throw Error(
        fmt::format("VENTUS_TIMING={} with VENTUS_TIMING_SET={}: {}", spec, settings, e.what()));
  }
  return config;
}

// Writes `text` to a temporary file beside `path` and renames it over `path`: a reader sees
// the old document or the new one, never a part.
void replace_file(const std::string& path, const std::string& text) {
  // A FIFO or a device (/dev/null, /dev/stdout) is written in place: renaming a file over
  // it would replace the node itself.
  struct stat target;
  if (::stat(path.c_str(), &target) == 0 && !S_ISREG(target.st_mode)) {
    std::ofstream out(path, std::ios::binary);
    out << text;
    out.close();
    if (!out) throw Error(fmt::format("cannot write {}", path));
    return;
  }
  const std::string temporary = fmt::format("{}.{}.tmp", path, getpid());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out) {
      std::remove(temporary.c_str());
      throw Error(fmt::format("cannot write {}", temporary));
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    std::remove(temporary.c_str());
    throw Error(fmt::format("cannot rename {} to {}", temporary, path));
  }
}

}  // namespace

void configure_timing(_cl_device_id& device) {
  try {
    device.timing = timing_from_environment();
    if (device.timing) {
      device.runtime->set_timing(*device.timing);
      device.stats_json = environment("VENTUS_STATS_JSON");
    }
  } catch (const std::exception& e) {
    device.timing.reset();
    device.timing_error = fmt::format(
        "Ventus OpenCL: {}; the device is not available (contexts are refused with "
        "CL_DEVICE_NOT_AVAILABLE)",
        e.what());
    std::fprintf(stderr, "%s\n", device.timing_error.c_str());
  }
}

cl_ulong record_timed_launch(_cl_device_id& device, std::string_view kernel,
                             const timing::LaunchTiming& launch) {
  ++device.timed_launches;
  device.timing_total.add(launch);
  if (!device.stats_json.empty() && !device.stats_json_failed) {
    // ordered: the keys in the order timing::to_json writes them.
    using json = nlohmann::ordered_json;
    const json document = {
        {"config", json::parse(timing::to_json(*device.timing))},
        {"launches", device.timed_launches},
        {"last_launch", {{"kernel", kernel}, {"timing", json::parse(timing::to_json(launch))}}},
        {"total", json::parse(timing::to_json(device.timing_total))},
    };
    try {
      replace_file(device.stats_json, document.dump(1) + "\n");
    } catch (const std::exception& e) {
      device.stats_json_failed = true;
      std::fprintf(stderr, "Ventus OpenCL: VENTUS_STATS_JSON=%s: %s; no more statistics written\n",
                   device.stats_json.c_str(), e.what());
    }
  }
  return static_cast<cl_ulong>(
      std::llround(double(launch.cycles) * 1000.0 / double(device.timing->clock_mhz)));
}

}  // namespace ventus::cl
