// Block-order permutation (block_order.h): every %ctaid read of the module goes through a bijection of
// its grid dimension, the result compiles, and a module reading cluster registers is left alone.
#include "ptx/passes/block_order.h"

#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <string>
#include <vector>

#include "ptx/parser.h"
#include "ptx/printer.h"
#include "ptxas_runner.h"

namespace barracuda::ptx::passes {
namespace {

// Reads blockIdx.x in the kernel and blockIdx.y in a function it calls.
constexpr std::string_view kModule = R"(.version 8.0
.target sm_90
.address_size 64
.func (.reg .b32 y) row()
{
mov.u32 y, %ctaid.y;
ret;
}
.visible .entry k(.param .u64 out)
{
.reg .b32 %r<6>;
.reg .b64 %rd<6>;
ld.param.u64 %rd1, [out];
cvta.to.global.u64 %rd2, %rd1;
mov.u32 %r1, %ctaid.x;
call.uni (%r2), row, ();
add.s32 %r3, %r1, %r2;
mul.wide.u32 %rd3, %r1, 4;
add.s64 %rd4, %rd2, %rd3;
st.global.u32 [%rd4], %r3;
ret;
}
)";

struct Permuted {
  BlockOrderResult result;
  std::string text;
};

Permuted permute(std::string_view source, BlockOrder order, uint64_t seed = 1) {
  ParseResult parsed = parse(std::string(source));
  EXPECT_TRUE(parsed) << parsed.error.to_string();
  Permuted permuted{permute_block_order(*parsed.module, order, seed), {}};
  permuted.text = to_string(*parsed.module);
  return permuted;
}

// The instructions that read %ctaid.* (the only ones left must copy it into a fresh register).
std::vector<std::string> block_index_reads(const std::string& text) {
  std::vector<std::string> reads;
  const std::regex line(R"([^\n]*%ctaid\.[xyz][^\n]*)");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), line); it != std::sregex_iterator(); ++it) {
    reads.push_back(it->str());
  }
  return reads;
}

TEST(BlockOrder, NaturalLeavesTheModuleAlone) {
  ParseResult parsed = parse(std::string(kModule));
  ASSERT_TRUE(parsed);
  const std::string before = to_string(*parsed.module);
  const Permuted natural = permute(kModule, BlockOrder::kNatural);
  EXPECT_EQ(natural.result.remapped_reads, 0u);
  EXPECT_EQ(natural.text, before);
}

TEST(BlockOrder, ReverseRemapsEveryReadInEveryFunctionAndCompiles) {
  const Permuted reversed = permute(kModule, BlockOrder::kReverse);
  EXPECT_EQ(reversed.result.remapped_reads, 2u);
  EXPECT_FALSE(reversed.result.declined);
  // The program's own reads now take a computed register; only the inserted copies read %ctaid.
  for (const std::string& read : block_index_reads(reversed.text)) {
    EXPECT_NE(read.find("mov.u32"), std::string::npos) << read;
    EXPECT_EQ(read.find("%r1,"), std::string::npos) << "the kernel's own read is left: " << read;
    EXPECT_EQ(read.find("y,"), std::string::npos) << "the function's own read is left: " << read;
  }
  EXPECT_EQ(block_index_reads(reversed.text).size(), 2u);
  EXPECT_NE(reversed.text.find("%nctaid.x"), std::string::npos);
  EXPECT_NE(reversed.text.find("%nctaid.y"), std::string::npos);
  const testing::PtxasResult compiled = testing::run_ptxas(reversed.text, "sm_90");
  EXPECT_TRUE(compiled.ok) << compiled.log << reversed.text;
}

// The multipliers and offsets the shuffle emits make a * i + b a bijection of [0, n) for any grid size.
TEST(BlockOrder, ShuffleIsABijectionForAnyGridSizeAndDependsOnTheSeed) {
  const Permuted first = permute(kModule, BlockOrder::kShuffle, 1);
  const Permuted second = permute(kModule, BlockOrder::kShuffle, 2);
  EXPECT_EQ(first.result.remapped_reads, 2u);
  EXPECT_NE(first.text, second.text);
  const testing::PtxasResult compiled = testing::run_ptxas(first.text, "sm_90");
  EXPECT_TRUE(compiled.ok) << compiled.log << first.text;
  const std::regex mad(R"(mad\.lo\.u64\s+[^,]+,\s*[^,]+,\s*(\d+),\s*(\d+);)");
  size_t checked = 0;
  for (const std::string* text : {&first.text, &second.text}) {
    for (auto it = std::sregex_iterator(text->begin(), text->end(), mad); it != std::sregex_iterator(); ++it) {
      const uint64_t a = std::stoull((*it)[1].str());
      const uint64_t b = std::stoull((*it)[2].str());
      EXPECT_GT(a, uint64_t{0x7fffffff});
      EXPECT_LT(b, uint64_t{1} << 32);
      for (const uint64_t n : {1ull, 2ull, 3ull, 7ull, 64ull, 1000ull, 65535ull, 100003ull}) {
        std::set<uint64_t> images;
        for (uint64_t i = 0; i < n; ++i) images.insert((a * i + b) % n);
        EXPECT_EQ(images.size(), n) << "a=" << a << " b=" << b << " n=" << n;
      }
      ++checked;
    }
  }
  EXPECT_EQ(checked, 4u);
}

TEST(BlockOrder, AModuleReadingClusterRegistersKeepsTheNaturalOrder) {
  std::string source(kModule);
  source.replace(source.find("mov.u32 %r1, %ctaid.x;"), 22, "mov.u32 %r1, %cluster_ctarank;");
  ParseResult parsed = parse(source);
  ASSERT_TRUE(parsed);
  const std::string before = to_string(*parsed.module);
  const Permuted reversed = permute(source, BlockOrder::kReverse);
  ASSERT_TRUE(reversed.result.declined);
  EXPECT_NE(reversed.result.declined->find("cluster"), std::string::npos);
  EXPECT_EQ(reversed.result.remapped_reads, 0u);
  EXPECT_EQ(reversed.text, before);
}

}  // namespace
}  // namespace barracuda::ptx::passes
