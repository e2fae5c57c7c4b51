// Every table row: words with random operand fields -> printed text (offset mode, with and
// without aliases) -> assembled -> the same word. Random words that decode likewise.
#include <gtest/gtest.h>

#include <random>

#include "test_util.h"
#include "ventus/disasm.h"
#include "ventus/isa.h"

namespace {

using namespace ventus;

struct Sample {
  uint32_t word;
  std::string text;
};

std::string printed(uint32_t word, bool aliases) {
  isa::PrintOptions o;
  o.aliases = aliases;
  o.absolute_targets = false;
  const auto p = isa::print_instruction(word, 0x80000000, o);
  return p ? p->text() : "";
}

// Words whose register-pair operands (rdp, rs1p, vs1p, ...) name an odd register decode
// (the simulator faults on them when they run) but have no assembly text: the assembler
// rejects odd pairs. The round trips leave them out.
bool pairs_are_even(uint32_t word) {
  const auto op = isa::decode_op(word);
  for (const isa::OperandSlot& s : isa::info(*op).operands)
    if (isa::is_pair_register_kind(s.kind) && isa::get_operand(word, s.kind) % 2 != 0) return false;
  return true;
}

// Assembles the samples as one file and compares word by word.
void expect_round_trip(const std::vector<Sample>& samples) {
  std::string source;
  for (const Sample& s : samples) source += s.text + "\n";
  std::vector<uint32_t> words;
  try {
    words = test::text_words(source);
  } catch (const std::exception& e) {
    FAIL() << e.what();
  }
  ASSERT_EQ(words.size(), samples.size());
  for (size_t i = 0; i < samples.size(); ++i)
    EXPECT_EQ(words[i], samples[i].word) << std::hex << samples[i].word << ": " << samples[i].text << " (line "
                                         << std::dec << i + 1 << ")";
}

TEST(RoundTrip, EveryRowWithRandomOperands) {
  std::mt19937 rng(12345);
  for (bool aliases : {false, true}) {
    std::vector<Sample> samples;
    for (const isa::InsnInfo& row : isa::instructions()) {
      int made = 0;
      for (int attempt = 0; attempt < 200 && made < 12; ++attempt) {
        const uint32_t word = row.match | (rng() & ~row.mask);
        if (isa::decode_op(word) != row.op) continue;  // a more specific row owns this word
        if (!pairs_are_even(word)) continue;
        samples.push_back({word, printed(word, aliases)});
        ++made;
      }
      EXPECT_GT(made, 0) << row.mnemonic;
    }
    SCOPED_TRACE(aliases ? "with aliases" : "without aliases");
    expect_round_trip(samples);
  }
}

TEST(RoundTrip, RandomWordsThatDecode) {
  std::mt19937 rng(777);
  std::vector<Sample> samples;
  int decoded = 0;
  for (int i = 0; i < 200000 && decoded < 3000; ++i) {
    const uint32_t word = rng();
    if (!isa::decode_op(word) || !pairs_are_even(word)) continue;
    ++decoded;
    samples.push_back({word, printed(word, i % 2 == 0)});
  }
  EXPECT_EQ(decoded, 3000);
  expect_round_trip(samples);
}

}  // namespace
