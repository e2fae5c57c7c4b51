// Register allocation: virtual registers -> x5..x63 / v1..v252, spill code as
// @sspill/@sreload/@vspill/@vreload pseudo instructions that the emitter expands once
// the frame is known.
#pragma once

#include "mir.h"

namespace ventus::cc::backend {

void allocate_registers(MFunction& function);

}  // namespace ventus::cc::backend
