// The cycle model of the Ventus SM (docs/timing.md): its configuration, what it reports
// per launch, and the timeline it can record. The model itself lives in src/timing; the
// device runs it when RunOptions::timing is set.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ventus::timing {

// Every parameter of the model (include/ventus/timing_parameters.def).
struct Config {
  std::string preset;  // the preset it started from, for reports
#define VT_TIMING_PARAM(name, vr, cm, unit, what, source) uint32_t name = vr;
#include "ventus/timing_parameters.def"
#undef VT_TIMING_PARAM
};

// One row of timing_parameters.def.
struct ParameterInfo {
  std::string_view name;
  uint32_t Config::*member;
  uint32_t verilog_release, chisel_master;
  std::string_view unit, description, source;
};
std::span<const ParameterInfo> parameters();
const ParameterInfo* find_parameter(std::string_view name);

// "verilog-release", "chisel-master".
std::span<const std::string_view> preset_names();
// The preset of that name; ventus::Error naming the presets when there is none.
Config preset(std::string_view name);
// Sets one parameter from text ("l2_hit_latency=6" as name and value); ventus::Error naming
// the parameter and why (unknown name, not a number, out of range) otherwise.
void set_parameter(Config& config, std::string_view name, std::string_view value);
// "name=value" as on the command line.
void set_parameter(Config& config, std::string_view assignment);
// What --timing takes: a preset name, or a JSON file
//   {"preset": "verilog-release", "parameters": {"l2_hit_latency": 6, ...}}
// (preset defaults to verilog-release). Errors name the file and the key.
Config load(std::string_view preset_or_file);
// The same from the file's text; errors name `source`.
Config parse(std::string_view json, std::string_view source);
// The configuration as that JSON (every parameter written out).
std::string to_json(const Config& config);
// Every parameter with both presets' values, unit, meaning and source: a text table, or
// (markdown) the table of docs/timing.md.
std::string parameter_table(bool markdown);
// Whether the values make a model that can run (non-zero sizes, powers of two where the
// model indexes by bits); ventus::Error saying which is wrong otherwise.
void validate(const Config& config);

// Why a warp did not issue in a cycle. Each cycle of each warp slot counts exactly once:
// the kinds add up to the launch's cycles (docs/timing.md, "Stall breakdown").
enum class Stall : uint8_t {
  Issued,          // it issued an instruction
  NotSelected,     // it could issue, another warp took the issue slot
  Fetch,           // its instruction buffer waits on a fetch in flight (I-cache hit latency)
  IcacheMiss,      // its next instruction's line is missing from the I-cache
  EmptyIbuffer,    // nothing fetched yet (the fetch port served other warps)
  Scoreboard,      // a source or destination register is pending (RAW/WAW)
  BankConflict,    // its previous instruction still collects operands (bank conflicts)
  Collector,       // its previous instruction still collects operands (no conflict)
  UnitBusy,        // the functional unit it needs cannot accept
  Memory,          // a memory instruction waits: in-flight limit, fence, the LSU
  Barrier,         // waits at a barrier
  BranchRedirect,  // a branch or jump is resolving, or its target is being fetched
  Dispatch,        // the workgroup's warps are being dispatched
  Ended,           // the warp ended, the workgroup has not
  Idle,            // no warp occupies the slot
  Count,
};
inline constexpr size_t kStallKinds = static_cast<size_t>(Stall::Count);
std::string_view name(Stall stall);  // "issued", "not_selected", "icache_miss", ...

// The functional units an instruction is dispatched to (docs/timing.md, "Functional units").
enum class Unit : uint8_t {
  ScalarAlu,  // scalar integer ALU, scalar branches and jumps
  VectorAlu,  // vector integer ALU, SIMT branches and join, vsetvl
  Multiply,   // integer multiply, scalar and vector
  Fpu,        // fp add/multiply/fma/compare/convert, scalar and vector
  Sfu,        // divide, remainder, square root, exp: threads / sfu_lane_divisor lanes at a time
  Lsu,        // every load, store, atomic and asynchronous copy (global, local, private)
  Csr,        // CSR access, barrier, endprg, fence
  Tensor,     // mma
  Count,
};
inline constexpr size_t kUnits = static_cast<size_t>(Unit::Count);
std::string_view name(Unit unit);  // "scalar_alu", "vector_alu", ...

struct CacheStats {
  uint64_t accesses = 0;  // line requests
  uint64_t hits = 0;
  uint64_t misses = 0;       // new misses (an MSHR allocated)
  uint64_t mshr_merges = 0;  // misses on a line already in flight
  uint64_t mshr_full = 0;    // requests refused because every MSHR was taken
  uint64_t writes = 0;       // write requests (write-through to the next level)
  void add(const CacheStats& other);
};

using StallCounts = std::array<uint64_t, kStallKinds>;

struct WarpSlotStats {
  uint32_t slot = 0;          // hardware warp slot in the SM
  uint64_t instructions = 0;  // warp instructions issued (a prefix counts, as in LaunchStats)
  StallCounts stalls{};       // sums to the launch's cycles
};

struct SmStats {
  uint32_t sm = 0;
  uint64_t instructions = 0;  // warp instructions issued (a prefix counts, as in LaunchStats)
  uint64_t busy_cycles = 0;   // cycles with a workgroup resident
  // Per cycle: Issued when an instruction issued, else the reason of the warp nearest to
  // issuing (lowest kind other than Idle/Ended), else Idle. Sums to the launch's cycles.
  StallCounts stalls{};
  CacheStats icache, dcache;
  uint64_t lds_accesses = 0, lds_bank_conflict_cycles = 0;
  uint64_t register_bank_conflicts = 0;        // lost register-read arbitrations
  uint64_t branch_redirects = 0;               // taken branches and jumps (refetches)
  std::array<uint64_t, kUnits> unit_busy{};    // cycles each unit could not accept
  std::array<uint64_t, kUnits> unit_issued{};  // instructions dispatched to each unit
  std::vector<WarpSlotStats> warps;            // every warp slot the launch used
};

// What the model says of one launch.
struct LaunchTiming {
  uint64_t cycles = 0;  // from the workgroups accepted to the host seeing the last done
  uint64_t instructions = 0;
  double ipc() const { return cycles ? double(instructions) / double(cycles) : 0; }
  double device_seconds(const Config& c) const { return double(cycles) / (c.clock_mhz * 1e6); }
  std::vector<SmStats> sms;
  CacheStats l2;
  uint64_t memory_requests = 0;
  void add(const LaunchTiming& other);  // sums (cycles add: launches run one after another)
};

// The launch and all launches of a run as JSON (--stats-json; docs/timing.md, "Reports").
std::string to_json(const LaunchTiming& launch);

// Receives the timeline as it is simulated. Tracks are per SM: a warp slot, or a functional
// unit; slices never overlap on one track.
struct TimelineSink {
  virtual ~TimelineSink() = default;
  enum class Track : uint8_t { Warp, Unit };
  // [begin, end) in cycles of the launch; what: an instruction's mnemonic or block name, a
  // stall kind's name, a unit's operation. Warp tracks carry the issue runs and the stalls.
  virtual void slice(uint32_t sm, Track track, uint32_t index, uint64_t begin, uint64_t end,
                     std::string_view what) = 0;
  // A launch begins at `offset` cycles from the start of the run (launches are laid one
  // after another on the time axis).
  virtual void begin_launch(std::string_view kernel, uint64_t offset) = 0;
};

// Writes a Chrome trace-event JSON file (Perfetto UI, chrome://tracing) with a process per SM,
// a thread per warp slot and per functional unit, and time in cycles (1 cycle = 1 us on the
// axis). Complete when finish() returns; errors name the file.
class ChromeTraceWriter : public TimelineSink {
 public:
  explicit ChromeTraceWriter(std::filesystem::path file);
  ~ChromeTraceWriter() override;
  void slice(uint32_t sm, Track track, uint32_t index, uint64_t begin, uint64_t end,
             std::string_view what) override;
  void begin_launch(std::string_view kernel, uint64_t offset) override;
  void finish();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ventus::timing
