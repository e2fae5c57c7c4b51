// The simulator's CSR semantics (src/sim/semantics/csr.cpp) against the device ABI's CSR
// table (include/ventus/abi.def): every CSR the table lists as present can be read, writes
// fault exactly for the read-only ones, and every access to an absent one faults. A CSR
// added to the table without semantics, or semantics that disagree with its access, fail.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "sim_harness.h"
#include "ventus/abi.h"

namespace ventus {
namespace {

using namespace ventus::test;

std::string run_one(const std::string& instruction) {
  sim::DeviceConfig config;
  config.num_sms = 1;
  sim::Device device(config);
  load_program(device, instruction + "\nendprg x0, x0, x0\n");
  return fault_text(device.run(launch_of(1, 4)));
}

TEST(CsrAbi, SemanticsFollowTheTable) {
  for (const abi::CsrInfo& c : abi::csrs()) {
    SCOPED_TRACE(fmt::format("CSR {:#05x}", c.number));
    const std::string read = run_one(fmt::format("csrr a0, {}", c.number));
    const std::string write = run_one(fmt::format("csrw {}, zero", c.number));
    const std::string absent = fmt::format("CSR {:#05x} does not exist on Ventus", c.number);
    switch (c.access) {
      case abi::CsrAccess::ReadWrite:
        EXPECT_EQ(read, "");
        EXPECT_EQ(write, "");
        break;
      case abi::CsrAccess::ReadOnly:
        EXPECT_EQ(read, "");
        EXPECT_NE(write.find(fmt::format("CSR {:#05x} is read-only", c.number)), std::string::npos)
            << write;
        break;
      case abi::CsrAccess::Absent:
        EXPECT_NE(read.find(absent), std::string::npos) << read;
        EXPECT_NE(write.find(absent), std::string::npos) << write;
        break;
    }
  }
}

// A number in no row of the table is no CSR of the device either.
TEST(CsrAbi, NumbersOutsideTheTableFault) {
  for (const uint32_t number : {0x7c0u, 0x812u, 0x8ffu}) {
    ASSERT_EQ(abi::csr_by_number(static_cast<uint16_t>(number)), nullptr);
    EXPECT_NE(run_one(fmt::format("csrr a0, {}", number))
                  .find(fmt::format("CSR {:#05x} does not exist on Ventus", number)),
              std::string::npos);
  }
}

}  // namespace
}  // namespace ventus
