// Bad source never crashes the front end: random bytes, random OpenCL tokens, every
// truncation of a real kernel and byte mutations of it. The contract: either IR and no
// error, or no IR and at least one "error:" line.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>

#include "test_util.h"

namespace {

using namespace ventus::test;

// Inputs per test; VENTUS_FUZZ_ITERATIONS=N runs more (a front-end compile takes a few ms).
int iterations() {
  const char* env = std::getenv("VENTUS_FUZZ_ITERATIONS");
  return env && std::atoi(env) > 0 ? std::atoi(env) : 64;
}

constexpr char kKernel[] = R"(#define TILE 16
typedef struct { float x, y; } pair_t;
inline float dot2(pair_t a, pair_t b) { return a.x * b.x + a.y * b.y; }
kernel void reduce(global const pair_t *in, global float *out, local float *scratch, uint n) {
  const uint lid = get_local_id(0), gid = get_global_id(0);
  scratch[lid] = gid < n ? dot2(in[gid], in[gid]) : 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (lid < s) scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) out[get_group_id(0)] = scratch[0];
  __local int counts[TILE];
  if (lid < TILE) counts[lid] = (int)lid;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) out[0] += counts[TILE - 1];
}
)";

// Returns whether the source failed to compile.
bool expect_ir_or_error(const std::string& source, const std::string& what) {
  ventus::cc::Options options;
  options.file_name = "fuzz.cl";
  const Ir r = ir_of(source, options);
  if (r.text.empty())
    EXPECT_TRUE(contains(r.diagnostics, "error:")) << what << ": no IR and no error";
  else
    EXPECT_FALSE(contains(r.diagnostics, "error:")) << what << ": IR and an error";
  return r.text.empty();
}

TEST(Fuzz, TheKernelCompiles) {
  const Ir r = ir_of(kKernel);
  EXPECT_TRUE(contains(r.text, "spir_kernel void @reduce")) << r.diagnostics;
}

TEST(Fuzz, RandomBytes) {
  std::mt19937 random(12345);
  int errors = 0;
  for (int n = 0; n < iterations(); ++n) {
    std::string source(1 + random() % 300, '\0');
    for (char& c : source) c = static_cast<char>(random());
    errors += expect_ir_or_error(source, fmt::format("input {}", n));
  }
  // Nearly all are errors (a few bytes of white space or a comment are a valid program).
  EXPECT_GE(errors, iterations() * 9 / 10);
}

TEST(Fuzz, RandomTokens) {
  const char* const tokens[] = {
      "kernel", "void",   "global", "local", "int",  "float4", "*",   "(",     ")",    "{",
      "}",      "[",      "]",      ";",     ",",    "=",      "+=",  "if",    "for",  "while",
      "return", "struct", "x",      "y",     "0",    "1.5f",   "<<",  "?",     ":",    "#define",
      "\n",     "#if",    "#endif", "\"s\"", "'c'",  "->",     ".",   "sizeof", "barrier",
      "get_global_id",    "typedef", "union", "__attribute__", "((", "))", "-", "~", "!"};
  std::mt19937 random(777);
  for (int n = 0; n < iterations(); ++n) {
    std::string source;
    const int count = 1 + static_cast<int>(random() % 80);
    for (int i = 0; i < count; ++i) source += std::string(tokens[random() % std::size(tokens)]) + " ";
    expect_ir_or_error(source, source);
  }
}

TEST(Fuzz, TruncatedKernels) {
  const std::string kernel = kKernel;
  int errors = 0;
  for (size_t length = 0; length < kernel.size(); length += 29) {
    const std::string source = kernel.substr(0, length);
    errors += expect_ir_or_error(source, fmt::format("first {} bytes", length));
  }
  EXPECT_GT(errors, 0);
}

TEST(Fuzz, MutatedKernels) {
  std::mt19937 random(4242);
  for (int n = 0; n < iterations(); ++n) {
    std::string source = kKernel;
    for (int k = 0; k < 3; ++k) source[random() % source.size()] = static_cast<char>(random());
    expect_ir_or_error(source, fmt::format("mutation {}", n));
  }
}

}  // namespace
