// Cell names (the detector driver's handle on one cell) and the stress-tuning grid.
#include "cell.h"
#include "tune.h"

#include <gtest/gtest.h>

#include <set>

namespace litmus {
namespace {

TEST(LitmusCell, EveryCellNameParsesBackToItsCell) {
  std::vector<Cell> cells = all_cells();
  EXPECT_EQ(cells.size(), kAllTests.size() * kVariants.size() * kAllPlacements.size());
  std::set<std::string> names;
  for (const Cell& c : cells) {
    std::string name = cell_name(c);
    EXPECT_TRUE(names.insert(name).second) << name;
    std::optional<Cell> back = parse_cell(name);
    ASSERT_TRUE(back) << name;
    EXPECT_EQ(back->test, c.test);
    EXPECT_EQ(back->variant, c.variant);
    EXPECT_EQ(back->placement, c.placement);
  }
  EXPECT_EQ(cell_name(*parse_cell("MP:membar.cta:inter-block")), "MP:membar.cta:inter-block");
}

TEST(LitmusCell, MalformedNamesAreRejected) {
  for (const char* bad : {"", "MP", "MP:membar.cta", "MP:membar.cta:inter-block:", "mp:membar.cta:inter-block",
                          "MP:membar.cta:inter-grid", "XY:weak:intra-warp", "MP::intra-warp", ":::"}) {
    EXPECT_FALSE(parse_cell(bad)) << bad;
  }
}

TEST(LitmusTune, GridCoversEveryParameterWithinLimits) {
  std::vector<StressSetting> grid = tuning_grid(132, 792);
  std::set<uint32_t> lines, iterations, spreads;
  std::set<int> blocks;
  for (const StressSetting& s : grid) {
    EXPECT_GT(s.lines, 0u);
    EXPECT_GE(s.spread_words, 1u);
    EXPECT_LE(s.spread_words, kMaxSpreadWords);
    EXPECT_GE(s.stress_blocks, 0);
    EXPECT_LE(s.stress_blocks, 792);
    lines.insert(s.lines);
    iterations.insert(s.iterations);
    spreads.insert(s.spread_words);
    blocks.insert(s.stress_blocks);
  }
  EXPECT_GE(lines.size(), 3u);
  EXPECT_GE(iterations.size(), 3u);
  EXPECT_GE(spreads.size(), 3u);
  EXPECT_EQ(blocks, (std::set<int>{0, 66, 132, 792}));
  EXPECT_EQ(grid.size(), lines.size() * iterations.size() * spreads.size() * blocks.size());
}

TEST(LitmusTune, BlockCountsNeverExceedWhatFitsBesideTheTestBlocks) {
  for (const StressSetting& s : tuning_grid(132, 100)) EXPECT_LE(s.stress_blocks, 100);
  std::set<int> none;
  for (const StressSetting& s : tuning_grid(132, 0)) none.insert(s.stress_blocks);
  EXPECT_EQ(none, std::set<int>{0});
}

TEST(LitmusTune, SettingPrintsAsTheArgumentsThatSelectIt) {
  StressSetting s{16, 64, 8, 132};
  EXPECT_EQ(setting_arguments(s), "--stress-lines 16 --stress-iterations 64 --location-spread 8 --stress-blocks 132");
}

}  // namespace
}  // namespace litmus
