// The semantics index (ventus/semantics_index.h): each row's recorded site is where its
// semantics are written, and docs/semantics-index.md is current.
#include "ventus/semantics_index.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "ventus/isa_table.h"

namespace {

using namespace ventus;

std::string read_source(const std::string& relative) {
  std::ifstream in(std::string(VENTUS_SOURCE_DIR) + "/" + relative);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line.substr(std::min(line.find_first_not_of(' '), line.size())));
  return lines;
}

const char* const kRowIds[] = {
#define VT_INSN(id, ...) #id,
#include "ventus/instructions.def"
#undef VT_INSN
};

TEST(SemanticsIndex, CheckedInMarkdownIsCurrent) {
  EXPECT_TRUE(read_source("docs/semantics-index.md") == sim::semantics_index_markdown())
      << "docs/semantics-index.md differs from the semantics; regenerate it with\n"
         "  ventus isa --semantics --markdown > docs/semantics-index.md";
}

// A row written as VT_SEM(ID) is found at that line (indentation aside); a row whose name a family
// macro pastes is found at a use of that macro (a line that calls a macro and has no VT_SEM).
TEST(SemanticsIndex, EverySitePointsAtTheDefinition) {
  for (const isa::InsnInfo& row : isa::instructions()) {
    const std::string id = kRowIds[static_cast<size_t>(row.op)];
    const sim::SemanticsSite site = sim::semantics_site(row.op);
    ASSERT_TRUE(site.file.starts_with("src/sim/semantics/")) << id << ": " << site.file;
    const std::vector<std::string> lines = lines_of(read_source(site.file));
    ASSERT_GE(site.line, 1) << id;
    ASSERT_LE(static_cast<size_t>(site.line), lines.size()) << id << ": " << site.file;
    const std::string& text = lines[site.line - 1];
    bool written_out = false;
    for (const std::string& line : lines)
      written_out = written_out || line.starts_with("VT_SEM(" + id + ")");
    if (written_out) {
      EXPECT_TRUE(text.starts_with("VT_SEM(" + id + ")"))
          << id << ": " << site.file << ":" << site.line << ": " << text;
    } else {
      EXPECT_EQ(text.find("VT_SEM("), std::string::npos)
          << id << ": " << site.file << ":" << site.line << ": " << text;
      EXPECT_NE(text.find('('), std::string::npos)
          << id << ": " << site.file << ":" << site.line << ": " << text;
    }
  }
}

TEST(SemanticsIndex, TextHasOneLinePerRow) {
  const std::vector<std::string> lines = lines_of(sim::semantics_index_text());
  ASSERT_EQ(lines.size(), isa::instructions().size());
  const sim::SemanticsSite add = sim::semantics_site(isa::Op::ADD);
  EXPECT_EQ(add.file, "src/sim/semantics/scalar.cpp");
  EXPECT_EQ(lines[static_cast<size_t>(isa::Op::ADD)],
            fmt::format("{:<20} {:<24} {}:{}", "ADD", "add", add.file, add.line));
}

}  // namespace
