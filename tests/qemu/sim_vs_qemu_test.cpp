// Random RV32IM + Zicsr + Zfinx programs as one-warp Ventus kernels on the simulator against
// qemu-riscv32: the same instructions (assembled by GNU as), all of x1..x29 and fcsr compared.
// The kernel stores its registers to a buffer and ends with endprg.
#include <gtest/gtest.h>

#include "random_program.h"
#include "rv_runner.h"
#include "ventus/device.h"

namespace ventus::testing {
namespace {

constexpr uint32_t kPrograms = 60;
constexpr size_t kLength = 400;

MachineState run_on_simulator(const RandomProgram& program) {
  const std::vector<uint8_t> image = flat_image(
      assembly_of(program) + ventus_epilogue(sim::kBufferBase), rv32_zfinx().march, sim::kCodeBase);
  sim::Device device;
  device.memory().map(sim::kCodeBase, image.size());
  EXPECT_TRUE(device.memory().write(sim::kCodeBase, image.data(), image.size()));
  device.memory().map(sim::kBufferBase, sim::kPageSize);
  sim::KernelLaunch launch;
  launch.kernel_name = "random_program";
  launch.start_pc = sim::kCodeBase;
  const sim::LaunchResult result = device.run(launch);
  EXPECT_TRUE(result.ok()) << (result.fault ? result.fault->describe() : "");
  std::vector<uint32_t> words(kProgramRegisters);
  EXPECT_TRUE(device.memory().read(sim::kBufferBase, words.data(), words.size() * 4));
  return state_from_words(words);
}

class SimVsQemu : public ::testing::TestWithParam<uint32_t> {};

TEST_P(SimVsQemu, SameRegistersAndFcsr) {
  const std::string missing = missing_rv_tools();
  if (!missing.empty()) GTEST_SKIP() << "RISC-V reference tools not installed: " << missing;
  const RandomProgram program = generate_program(GetParam(), kLength);
  const auto words = words_of(run_rv32(assembly_of(program) + qemu_epilogue(), rv32_zfinx()));
  ASSERT_EQ(words.size(), kProgramRegisters);
  const std::string differences =
      compare_states(state_from_words(words), run_on_simulator(program), "qemu", "simulator");
  EXPECT_TRUE(differences.empty()) << "seed " << GetParam() << ":\n" << differences;
}

INSTANTIATE_TEST_SUITE_P(Seeds, SimVsQemu, ::testing::Range(1u, kPrograms + 1));

}  // namespace
}  // namespace ventus::testing
