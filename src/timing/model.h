// The cycle model of a launch (docs/timing.md, "The model"): every SM of the launch, its
// fetch, instruction buffers, issue, operand collector, scoreboards, functional units,
// writeback and load/store unit, and the L2 and memory they share, advanced together one
// cycle at a time. It decides when each warp's next instruction issues; the SM (src/sim)
// executes it then, so memory effects, barriers and atomics follow simulated time.
#pragma once

#include <functional>
#include <span>

#include "ventus/timing.h"

namespace ventus::sim {
class Sm;
struct LaunchShared;
}  // namespace ventus::sim

namespace ventus::timing {

// Runs the launch whose SMs were started (Sm::start) to its end or first fault. progress
// is called now and then (about every 2^16 cycles).
LaunchTiming run_launch(const Config& config, std::span<sim::Sm* const> sms,
                        sim::LaunchShared& shared, TimelineSink* timeline,
                        const std::function<void()>& progress);

}  // namespace ventus::timing
