// What the row tests (jit_fp32_test.cpp, jit_vint_test.cpp) share: where their kernels find
// their operands and leave their results, and the code that loads the operands.
#pragma once

#include <cstdint>
#include <string>

namespace ventus::test {

constexpr uint32_t kIn = 0x90000000;   // a, b, c (32 words each), then the v0 mask's words
constexpr uint32_t kOut = 0x90001000;  // per row: 32 result words, then its scalar result

// s0 = kIn, s1 = kOut; lane i of v1, v2, v3 and v0 holds word i of a, b, c and the mask, and
// v12 lane i the address of result word i (v10: 4 * i, v11: the operands' addresses).
// `move_results` runs before the addresses are formed (a kernel that gives each warp its own
// results adds to s1 there).
inline std::string load_operands(const std::string& move_results = "") {
  return "\n    li s0, " + std::to_string(kIn) + "\n    li s1, " + std::to_string(kOut) + "\n" +
         move_results + R"(
    vid.v v10
    vsll.vi v10, v10, 2
    vadd.vx v11, v10, s0
    vadd.vx v12, v10, s1
    vlw12.v v1, 0(v11)
    vlw12.v v2, 128(v11)
    vlw12.v v3, 256(v11)
    vlw12.v v0, 384(v11)
)";
}

}  // namespace ventus::test
