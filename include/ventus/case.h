// Hardware test cases in the ../shared/cases format (FORMAT.md there): loading a case
// folder and replaying all its launches on one device memory, then checking the expected
// words.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "ventus/device.h"
#include "ventus/elf.h"

namespace ventus::cases {

struct CaseBuffer {
  uint32_t base = 0;
  uint32_t size = 0;        // bytes of initial data (in the .data file)
  uint32_t alloc_size = 0;  // bytes reserved at base
  std::vector<uint8_t> data;  // size bytes
};

// One NAME.metadata + NAME.data pair.
struct CaseLaunch {
  std::string name;
  uint32_t start_addr = 0;
  uint32_t kernel_id = 0;
  uint32_t kernel_size[3] = {1, 1, 1};
  uint32_t wf_size = 0;  // threads per warp
  uint32_t wg_size = 0;  // warps per workgroup
  uint32_t metadata_base = 0;  // CSR_KNL
  uint32_t lds_size = 0;
  uint32_t pds_size = 0;
  uint32_t sgpr_usage = 0;
  uint32_t vgpr_usage = 0;
  uint32_t pds_base = 0;
  std::vector<CaseBuffer> buffers;
};

struct Expectation {
  uint32_t address = 0;
  std::vector<uint32_t> words;
};

struct Case {
  std::string name;         // the folder name
  std::string description;  // line 1 of case.txt without "# "
  uint32_t warps = 0, threads = 0;
  std::vector<CaseLaunch> launches;
  std::vector<Expectation> expectations;
};

// Reads a case folder. Malformed files raise ventus::Error naming file and line.
Case load_case(const std::filesystem::path& dir);

// The KernelLaunch a case launch describes (for running it on sim::Device).
sim::KernelLaunch to_kernel_launch(const CaseLaunch& launch);

struct Mismatch {
  uint32_t address = 0;
  uint32_t expected = 0;
  std::optional<uint32_t> actual;  // nullopt: the address is not mapped
};

struct CaseResult {
  bool passed = false;
  size_t words_checked = 0;
  std::vector<Mismatch> mismatches;  // in address order, all of them
  sim::LaunchStats stats;            // summed over the launches
  std::optional<sim::Fault> fault;   // the first launch that faulted (the rest do not run)
  // With RunOptions::timing: the cycle model's account summed over the launches that ran
  // (cycles add up: the launches run one after another, as the testbench runs them).
  std::optional<timing::LaunchTiming> timing;
};

// Maps and loads every launch's buffers (in order, on one persistent memory), runs each
// launch to completion, then compares the expectations. With options.timing and
// options.timeline, each launch begins on the timeline (begin_launch, named after its
// metadata file) at timeline_start plus the cycles of the case's earlier launches. With
// options.memcheck (its max_errors), each launch is checked against the buffers of the
// case's launches so far.
CaseResult run_case(const Case& c, sim::Device& device, const sim::RunOptions& options = {},
                    uint64_t timeline_start = 0);

// The case with its code replaced by another program (e.g. `ventus cc object.cl`): every
// launch's code buffer gets the program's loadable sections, and its kernel metadata
// buffer the entry of the program's kernel with the same name as the one the case
// launched. Names come from `listing` (the case's object.dump: "800000a8 <Fan1>:") when
// the case has one, otherwise from the launches' names (<kernel>_<n>). Errors (an
// unreadable listing, unknown entry, a kernel the program lacks) raise ventus::Error.
Case with_program(const Case& c, const elf::Image& program, const std::filesystem::path& listing);

}  // namespace ventus::cases
