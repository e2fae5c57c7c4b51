// What the cycle model needs to know of one decoded instruction: its functional unit, its
// latency, the registers it reads and writes, and whether it redirects or blocks the warp.
// Derived once per decoded instruction from the instruction table row (class, mnemonic,
// operand kinds and roles) and the configuration's latencies (docs/timing.md, "Functional
// units").
#pragma once

#include <cstdint>

#include "decode_cache.h"
#include "ventus/timing.h"

namespace ventus::timing {

enum class Latency : uint8_t {
  ScalarAlu,
  VectorAlu,
  Multiply,
  Fpu,
  Fma,
  SfuInt,
  SfuFp,
  Csr,
  Tensor,
  Memory
};

struct InsnTiming {
  Unit unit = Unit::ScalarAlu;
  Latency latency = Latency::ScalarAlu;
  bool control = false;     // branch, jump, SIMT branch, join, barrier, endprg: blocks the warp
  bool memory = false;      // goes through the load/store unit
  bool atomic = false;      // a read-modify-write performed at the L2
  bool fence = false;       // later memory instructions wait for the earlier ones
  bool scalar_path = true;  // dual issue: the scalar path (else the vector path)
  bool writes_vector = false;
  uint8_t words = 1;  // 4-byte words it occupies in the instruction buffer (prefix included)
  // Registers, as x0..x63 then v0..v255 in one numbering (v registers at kVectorBase + n).
  static constexpr uint16_t kVectorBase = 64;
  uint8_t sources = 0, destinations = 0;
  uint16_t source[8] = {};
  uint16_t destination[4] = {};
};

// The description of a decoded instruction (never fails: every row has a unit).
InsnTiming describe(const sim::CachedInsn& entry);

// The latency of a class under a configuration (SFU and memory are per instruction).
uint32_t latency(const Config& config, Latency latency);

}  // namespace ventus::timing
