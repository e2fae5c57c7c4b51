// The device ABI's tables (include/ventus/abi.def): the CSR table of docs/simulator.md is
// generated from them and must be current; every name of a CSR finds that CSR.
#include "ventus/abi.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "ventus/isa.h"

namespace ventus {
namespace {

TEST(AbiDoc, SimulatorCsrTableIsCurrent) {
  const std::string path = std::string(VENTUS_SOURCE_DIR) + "/docs/simulator.md";
  std::ifstream in(path);
  ASSERT_TRUE(in) << "cannot read " << path;
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_NE(text.str().find(abi::csr_table_markdown()), std::string::npos)
      << "the CSR table in docs/simulator.md differs from include/ventus/abi.def; replace the "
         "block between its BEGIN and END comments with the output of\n"
         "  ventus abi --csr-markdown";
}

// Every present CSR is in the generated table, by number and name.
TEST(AbiDoc, CsrTableHasEveryPresentCsr) {
  const std::string table = abi::csr_table_markdown();
  for (const abi::CsrInfo& c : abi::csrs()) {
    const std::string row =
        fmt::format("| {:#05x} | {}", c.number, c.name.empty() ? c.long_name : c.name);
    EXPECT_EQ(table.find(row) != std::string::npos, c.access != abi::CsrAccess::Absent) << row;
  }
}

TEST(Abi, EveryCsrNameFindsItsCsr) {
  std::set<std::string_view> names;
  for (const abi::CsrInfo& c : abi::csrs()) {
    EXPECT_EQ(abi::csr_by_number(c.number), &c);
    for (std::string_view name : {c.name, c.long_name, c.short_name}) {
      if (name.empty()) continue;
      EXPECT_TRUE(names.insert(name).second) << "two CSRs are called " << name;
      EXPECT_EQ(isa::csr_by_name(name), c.number) << name;
    }
  }
  EXPECT_EQ(abi::csr_by_name("CSR_GDY"), abi::csr::GIDY);
  EXPECT_EQ(abi::csr_by_name(""), std::nullopt);
  EXPECT_EQ(abi::csr_by_name("CSR_NOPE"), std::nullopt);
}

// The KNL fields do not overlap and fit the buffer the driver writes.
TEST(Abi, KnlWordsAreDisjoint) {
  std::set<uint32_t> used;
  for (const abi::KnlWord& w : abi::knl_words())
    for (uint32_t i = 0; i < w.count; ++i) {
      EXPECT_LT(w.word + i, abi::kKnlWords) << w.id;
      EXPECT_TRUE(used.insert(w.word + i).second) << w.id << " overlaps another field";
    }
}

}  // namespace
}  // namespace ventus
