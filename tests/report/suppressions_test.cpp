#include "report/suppressions.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "sample_report.h"

namespace barracuda::report {
namespace {

TEST(SuppressionPattern, MatchesSubstringsUnlessAnchored) {
  EXPECT_TRUE(suppression_pattern_matches("reduce", "block_reduce<float>"));
  EXPECT_FALSE(suppression_pattern_matches("^reduce", "block_reduce<float>"));
  EXPECT_TRUE(suppression_pattern_matches("^block", "block_reduce<float>"));
  EXPECT_FALSE(suppression_pattern_matches("reduce$", "block_reduce<float>"));
  EXPECT_TRUE(suppression_pattern_matches("float>$", "block_reduce<float>"));
  EXPECT_TRUE(suppression_pattern_matches("^block_reduce<float>$", "block_reduce<float>"));
  EXPECT_FALSE(suppression_pattern_matches("^block_reduce$", "block_reduce<float>"));
}

TEST(SuppressionPattern, StarMatchesAnyRun) {
  EXPECT_TRUE(suppression_pattern_matches("^src/*/kernel.cu$", "src/a/b/kernel.cu"));
  EXPECT_TRUE(suppression_pattern_matches("^src/*kernel.cu$", "src/kernel.cu"));
  EXPECT_FALSE(suppression_pattern_matches("^src/*/kernel.cu$", "lib/a/kernel.cu"));
  EXPECT_TRUE(suppression_pattern_matches("a*b*c", "xxaxxbxxcxx"));
  EXPECT_FALSE(suppression_pattern_matches("a*b*c", "xxaxxcxxbxx"));
  EXPECT_TRUE(suppression_pattern_matches("*", ""));
}

TEST(SuppressionPattern, StaysFastOnPathologicalPatterns) {
  const std::string name(5000, 'a');
  EXPECT_FALSE(suppression_pattern_matches("^" + std::string(50, '*') + "a*a*a*a*a*b$", name));
}

TEST(Suppressions, ParsesEntriesCommentsAndBlankLines) {
  const auto suppressions =
      parse_suppressions("# known races\n\nrace:histogram   # trailing comment\r\n  race: ^reduce$\n", "supp.txt");
  ASSERT_EQ(suppressions.size(), 2u);
  EXPECT_EQ(suppressions[0].pattern, "histogram");
  EXPECT_EQ(suppressions[0].line, 3u);
  EXPECT_EQ(suppressions[1].pattern, "^reduce$");
  EXPECT_EQ(suppressions[1].line, 4u);
}

TEST(Suppressions, RejectsUnknownTypesAndEmptyPatterns) {
  EXPECT_THAT([] { parse_suppressions("race:a\nmutex:b\n", "supp.txt"); },
              ::testing::ThrowsMessage<SuppressionsError>(
                  ::testing::StrEq("supp.txt:2: expected \"race:PATTERN\", got \"mutex:b\"")));
  EXPECT_THROW(parse_suppressions("race:\n", "s"), SuppressionsError);
  EXPECT_THROW(parse_suppressions("race:^$\n", "s"), SuppressionsError);
}

TEST(Suppressions, MatchKernelFunctionsInlinedFramesAndFiles) {
  auto suppressed_count = [](const char* text) {
    Report report = testing::sample_report();
    auto suppressions = parse_suppressions(text, "s");
    apply_suppressions(report, suppressions);
    return report.summary.suppressed_races - 1;  // the sample already counts one
  };
  EXPECT_EQ(suppressed_count("race:^histogram$"), 1u);  // kernel (and the inlined-at frame)
  EXPECT_EQ(suppressed_count("race:^add_bin$"), 1u);    // function of the current access
  EXPECT_EQ(suppressed_count("race:count.cu"), 1u);     // source file
  EXPECT_EQ(suppressed_count("race:/src/*.cu"), 1u);    // only the first race has absolute /src files
  EXPECT_EQ(suppressed_count("race:*"), 3u);
  EXPECT_EQ(suppressed_count("race:nothing_like_this"), 0u);
}

TEST(Suppressions, RemoveRacesAndCountHitsOnFirstMatch) {
  Report report = testing::sample_report();
  auto suppressions = parse_suppressions("race:reduce\nrace:*\n", "s");
  apply_suppressions(report, suppressions);
  EXPECT_TRUE(report.races.empty());
  EXPECT_EQ(report.summary.suppressed_races, 4u);
  EXPECT_EQ(suppressions[0].hit_count, 1u);
  EXPECT_EQ(suppressions[1].hit_count, 2u);
  EXPECT_EQ(report.diagnostics.size(), 2u);  // diagnostics are not races
}

}  // namespace
}  // namespace barracuda::report
