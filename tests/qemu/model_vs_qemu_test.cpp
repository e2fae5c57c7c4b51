// Random RV32IM + Zicsr + Zfinx programs on qemu-riscv32 against the host model (plain C++
// integer semantics, FP through ventus_fp). This checks the generator and the model that the
// simulator comparison relies on, and ventus_fp in context: dynamic rounding modes from frm,
// fflags accumulating across instructions, CSR reads and writes.
#include <gtest/gtest.h>

#include "random_program.h"
#include "rv_runner.h"

namespace ventus::testing {
namespace {

constexpr uint32_t kPrograms = 60;
constexpr size_t kLength = 400;

class ModelVsQemu : public ::testing::TestWithParam<uint32_t> {};

TEST_P(ModelVsQemu, SameRegistersAndFcsr) {
  const std::string missing = missing_rv_tools();
  if (!missing.empty()) GTEST_SKIP() << "RISC-V reference tools not installed: " << missing;
  const RandomProgram program = generate_program(GetParam(), kLength);
  const auto words = words_of(run_rv32(assembly_of(program) + qemu_epilogue(), rv32_zfinx()));
  ASSERT_EQ(words.size(), kProgramRegisters);
  const std::string differences =
      compare_states(run_model(program), state_from_words(words), "model", "qemu");
  EXPECT_TRUE(differences.empty()) << "seed " << GetParam() << ":\n" << differences;
}

INSTANTIATE_TEST_SUITE_P(Seeds, ModelVsQemu, ::testing::Range(1u, kPrograms + 1));

}  // namespace
}  // namespace ventus::testing
