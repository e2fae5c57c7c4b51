// Implementations that run a specification's launches: pocl (the reference, through the
// OpenCL API) and Ventus (`ventus cc` + the simulated device).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "spec.h"

namespace ventus::clspec {

// The contents of every buffer of a spec, indexed like Spec::buffers.
using Buffers = std::vector<std::vector<uint8_t>>;

Buffers initial_buffers(const Spec& spec);

class Runner {
 public:
  virtual ~Runner() = default;
  virtual std::string name() const = 0;
  // Compiles the program; throws ventus::Error with the compiler's diagnostics.
  virtual void compile(const Spec& spec, std::string_view source) = 0;
  // Runs the launches of one configuration on fresh buffers holding `initial`, returns the
  // final contents of every buffer. Throws ventus::Error naming the launch that failed.
  virtual Buffers execute(const Spec& spec, size_t configuration, const Buffers& initial) = 0;
};

// pocl through the ICD loader, restricted to pocl (OCL_ICD_VENDORS points at a folder with
// only pocl's .icd when the build found one; the platform is picked by name). nullptr and
// `why` when there is no pocl (not installed, or the build had no OpenCL headers).
std::unique_ptr<Runner> make_pocl_runner(std::string* why);

// `ventus cc` and the simulated device; nullptr and `why` when the compiler is not built.
struct VentusOptions {
  int opt_level = 2;                    // -O0 .. -O3
  std::vector<std::string> extra_args;  // more compiler options, after the spec's
  uint32_t threads_per_warp = 32;       // the device's warp width for the launches
  // When set, every launch adds its executed instructions here (cc_vs_pocl_run --stats).
  struct Counts {
    uint64_t warp_instructions = 0, thread_instructions = 0;
  };
  Counts* counts = nullptr;
};
std::unique_ptr<Runner> make_ventus_runner(std::string* why, const VentusOptions& options = {});

// Compiles and runs every configuration on fresh buffers: the final buffers per configuration.
std::vector<Buffers> run_all(const Spec& spec, std::string_view source, Runner& runner);

// Checked buffers that the reference left as initialised in every configuration: such a
// check cannot fail, so the suite reports it ("" when there is none).
std::string vacuous_checks(const Spec& spec, const std::vector<Buffers>& reference);

// The whole comparison of one spec: compile on both, run every configuration, compare the
// checked buffers. Returns an empty string when everything matched, else the report.
std::string compare_runs(const Spec& spec, std::string_view source, Runner& reference,
                         Runner& tested);
std::string compare_results(const Spec& spec, const std::vector<Buffers>& reference,
                            const std::vector<Buffers>& tested, std::string_view reference_name,
                            std::string_view tested_name);

}  // namespace ventus::clspec
