// Host-side helpers of the GPU workloads: the input generators must be deterministic and well formed,
// and the result checks must catch what they are meant to catch.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "compare.h"
#include "graph.h"
#include "random.h"
#include "workload.h"

namespace bench {
namespace {

TEST(GpubenchRandom, SameSeedSameSequenceAndValuesInRange) {
  Random a(42), b(42), c(43);
  bool differs = false;
  for (int i = 0; i < 1000; ++i) {
    const std::uint32_t x = a.below(10);
    EXPECT_EQ(x, b.below(10));
    EXPECT_LT(x, 10u);
    const float f = a.uniform(-2.0f, 3.0f);
    EXPECT_EQ(f, b.uniform(-2.0f, 3.0f));
    EXPECT_GE(f, -2.0f);
    EXPECT_LT(f, 3.0f);
    differs |= x != c.below(10);
  }
  EXPECT_TRUE(differs);
}

TEST(GpubenchGraph, CsrIsWellFormedWithRingAndBoundedDegrees) {
  constexpr std::uint32_t kVertices = 5000, kExtra = 4, kMaxWeight = 7;
  const CsrGraph g = generate_graph(kVertices, kExtra, kMaxWeight, 1);
  ASSERT_EQ(g.vertices, kVertices);
  ASSERT_EQ(g.row_offsets.size(), kVertices + 1);
  EXPECT_EQ(g.row_offsets.front(), 0u);
  EXPECT_EQ(g.row_offsets.back(), g.columns.size());
  EXPECT_EQ(g.weights.size(), g.columns.size());
  for (std::uint32_t v = 0; v < kVertices; ++v) {
    const std::uint32_t degree = g.row_offsets[v + 1] - g.row_offsets[v];
    ASSERT_GE(degree, 1u);
    ASSERT_LE(degree, 1 + 2 * kExtra);
    EXPECT_EQ(g.columns[g.row_offsets[v]], (v + 1) % kVertices);  // the ring edge comes first
  }
  for (std::uint32_t c : g.columns) ASSERT_LT(c, kVertices);
  for (std::uint32_t w : g.weights) ASSERT_TRUE(w >= 1 && w <= kMaxWeight);
  const double mean_extra = double(g.columns.size()) / kVertices - 1;
  EXPECT_NEAR(mean_extra, kExtra, 0.5);
}

TEST(GpubenchGraph, SameSeedSameGraph) {
  const CsrGraph a = generate_graph(1000, 3, 9, 5), b = generate_graph(1000, 3, 9, 5);
  EXPECT_EQ(a.row_offsets, b.row_offsets);
  EXPECT_EQ(a.columns, b.columns);
  EXPECT_EQ(a.weights, b.weights);
  EXPECT_NE(a.columns, generate_graph(1000, 3, 9, 6).columns);
}

TEST(GpubenchCompare, CloseAcceptsToleranceAndRejectsBeyondItAndNan) {
  const std::vector<float> want = {1.0f, 100.0f};
  EXPECT_EQ(compare_close("v", {1.0005f, 100.05f}, want, 1e-3f, 1e-3f), "");
  EXPECT_EQ(compare_close("v", {1.0f, 100.5f}, want, 1e-3f, 1e-3f), "v[1] = 100.5, expected 100");
  EXPECT_NE(compare_close("v", {std::nanf(""), 100.0f}, want, 1e-3f, 1e-3f), "");
  EXPECT_EQ(compare_close("v", {1.0f}, want, 1e-3f, 1e-3f), "v: 1 elements, expected 2");
}

TEST(GpubenchCompare, ExactReportsTheFirstMismatch) {
  EXPECT_EQ(compare_exact<std::int32_t>("s", {1, 2, 3}, {1, 2, 3}), "");
  EXPECT_EQ(compare_exact<std::int32_t>("s", {1, 5, 7}, {1, 2, 3}), "s[1] = 5, expected 2");
  EXPECT_EQ(compare_exact<std::uint32_t>("u", {}, {4}), "u: 0 elements, expected 1");
}

TEST(GpubenchScaledRepetitions, ScalesRoundsAndStaysInRange) {
  EXPECT_EQ(scaled_repetitions(300, {1.0}), 300);
  EXPECT_EQ(scaled_repetitions(300, {0.5}), 150);
  EXPECT_EQ(scaled_repetitions(300, {0.001}), 1);
  EXPECT_EQ(scaled_repetitions(300, {1e300}), 1000000000);
}

}  // namespace
}  // namespace bench
