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
  uint64_t word;  // a 64-bit instruction whole, a 32-bit one zero-extended
  std::string text;
};

std::string printed(uint64_t word, bool aliases) {
  isa::PrintOptions o;
  o.aliases = aliases;
  o.absolute_targets = false;
  const auto p = isa::print_instruction(word, 0x80000000, o);
  return p ? p->text() : "";
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
  size_t at = 0;
  for (size_t i = 0; i < samples.size(); ++i) {
    const unsigned length = isa::instruction_length(static_cast<uint32_t>(samples[i].word));
    ASSERT_LE(at + length / 4, words.size());
    const uint64_t got = length == 8 ? words[at] | uint64_t{words[at + 1]} << 32 : words[at];
    at += length / 4;
    EXPECT_EQ(got, samples[i].word) << std::hex << samples[i].word << ": " << samples[i].text << " (line "
                                    << std::dec << i + 1 << ")";
  }
  EXPECT_EQ(at, words.size());
}

// Random bits for the free fields of a row (all 64 bits of a 64-bit row).
uint64_t random_fields(std::mt19937& rng, const isa::InsnInfo& row) {
  const uint64_t bits = row.length == 8 ? uint64_t{rng()} << 32 | rng() : rng();
  return bits & ~row.mask;
}

TEST(RoundTrip, EveryRowWithRandomOperands) {
  std::mt19937 rng(12345);
  for (bool aliases : {false, true}) {
    std::vector<Sample> samples;
    for (const isa::InsnInfo& row : isa::instructions()) {
      int made = 0;
      for (int attempt = 0; attempt < 200 && made < 12; ++attempt) {
        const uint64_t word = row.match | random_fields(rng, row);
        if (isa::decode_op(word) != row.op) continue;  // a more specific row owns this word
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
    uint64_t word = rng();
    // Every fourth word a 64-bit one: they are too sparse among random 32-bit words.
    if (i % 4 == 0) word = (word & ~uint64_t{0x7f}) | 0x3f | uint64_t{rng()} << 32;
    if (!isa::decode_op(word)) continue;
    ++decoded;
    samples.push_back({word, printed(word, i % 2 == 0)});
  }
  EXPECT_EQ(decoded, 3000);
  expect_round_trip(samples);
}

}  // namespace
