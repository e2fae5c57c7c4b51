// The start code (src/asm/start_file.cpp) against the device ABI (include/ventus/abi.def):
// the stack it gives each warp and the KNL words it reads are the ABI's, as the assembled
// instructions show them.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "ventus/abi.h"
#include "ventus/asm.h"
#include "ventus/listing.h"

namespace ventus {
namespace {

std::string start_code_listing() {
  const elf::Image image = assembler::assemble({{"empty.s", ""}});
  return listing::disassemble(image, "start");
}

TEST(StartFile, WarpStackIsTheAbis) {
  // sp = CSR_LDS + CSR_WID * stack bytes.
  const std::string text = start_code_listing();
  EXPECT_NE(text.find(fmt::format("li\tt3, {}\n", abi::kWarpStackBytes)), std::string::npos)
      << text;
  EXPECT_NE(text.find(fmt::format("csrr\tt1, {}\n", +abi::csr::WID)), std::string::npos) << text;
  EXPECT_NE(text.find(fmt::format("csrr\tt2, {}\n", +abi::csr::LDS)), std::string::npos) << text;
}

TEST(StartFile, KnlWordsAreTheAbis) {
  const std::string text = start_code_listing();
  EXPECT_NE(text.find(fmt::format("csrr\tt0, {}\n", +abi::csr::KNL)), std::string::npos) << text;
  const std::pair<const char*, uint32_t> loads[] = {{"t1", abi::knl::ENTRY},
                                                    {"a0", abi::knl::ARG_BASE},
                                                    {"t2", abi::knl::PRINT_ADDR},
                                                    {"t3", abi::knl::PRINT_SIZE}};
  for (const auto& [reg, word] : loads)
    EXPECT_NE(text.find(fmt::format("lw\t{}, {}(t0)\n", reg, 4 * word)), std::string::npos)
        << reg << "\n"
        << text;
}

}  // namespace
}  // namespace ventus
