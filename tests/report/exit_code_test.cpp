#include <gtest/gtest.h>

#include "report/baseline.h"
#include "report/exit_code.h"
#include "report/fingerprint.h"
#include "sample_report.h"

namespace barracuda::report {
namespace {

Report clean_report() {
  Report report;
  report.summary.kernels_instrumented = 2;
  return report;
}

TEST(ExitCode, CleanRunExitsZeroOrPassesTheAppCodeThrough) {
  EXPECT_EQ(exit_code_for(clean_report(), 0, {}), 0);
  EXPECT_EQ(exit_code_for(clean_report(), 3, {}), 3);
}

TEST(ExitCode, NewRacesWinOverEverything) {
  Report report = clean_report();
  report.races.push_back(testing::sample_race(testing::source_site("k", "a.cu", 1, 1), testing::source_site("k", "a.cu", 2, 1)));
  report.summary.dropped_events = 5;
  EXPECT_EQ(exit_code_for(report, 0, {}), 66);
  EXPECT_EQ(exit_code_for(report, 1, {}), 66);
  EXPECT_EQ(exit_code_for(report, 0, ExitCodePolicy{.races_found = 99}), 99);
}

TEST(ExitCode, KnownRacesDoNotFail) {
  Report report = clean_report();
  report.races.push_back(testing::sample_race(testing::source_site("k", "a.cu", 1, 1), testing::source_site("k", "a.cu", 2, 1)));
  report.races.back().known = true;
  EXPECT_EQ(exit_code_for(report, 0, {}), 0);
}

TEST(ExitCode, BarrierDivergenceFailsButRedundantBarrierDoesNot) {
  Report report = clean_report();
  report.diagnostics.push_back(Diagnostic{.kind = DiagnosticKind::kRedundantBarrier});
  EXPECT_EQ(exit_code_for(report, 0, {}), 0);
  report.diagnostics.push_back(Diagnostic{.kind = DiagnosticKind::kBarrierDivergence});
  EXPECT_EQ(exit_code_for(report, 0, {}), 66);
}

TEST(ExitCode, IncompleteAnalysisIsNotReportedClean) {
  Report dropped = clean_report();
  dropped.summary.dropped_events = 1;
  EXPECT_EQ(exit_code_for(dropped, 0, {}), 67);
  Report skipped = clean_report();
  skipped.summary.kernels_skipped.push_back({"gemm", "no PTX"});
  EXPECT_EQ(exit_code_for(skipped, 0, {}), 67);
  EXPECT_EQ(exit_code_for(skipped, 0, ExitCodePolicy{.analysis_incomplete = 70}), 70);
  EXPECT_EQ(exit_code_for(skipped, 4, {}), 4);  // the app's own failure is the more important news
}

TEST(Baseline, MarksOnlyRacesWhoseFingerprintItHolds) {
  Report previous = testing::sample_report();
  previous.races.erase(previous.races.begin() + 1);  // the intra-warp race is new this time
  Report current = testing::sample_report();
  for (Race& race : current.races) race.known = false;
  // A different run: other addresses, threads and counts must not matter.
  current.races[0].address += 0x100;
  current.races[0].dynamic_count = 1;
  current.races[2].current.thread.block.x = 9;

  mark_known_races(current, baseline_fingerprints(previous));
  EXPECT_TRUE(current.races[0].known);
  EXPECT_FALSE(current.races[1].known);
  EXPECT_TRUE(current.races[2].known);
  EXPECT_EQ(exit_code_for(current, 0, {}), 66);

  current.races.erase(current.races.begin() + 1);
  current.diagnostics.clear();
  current.summary = clean_report().summary;
  EXPECT_EQ(exit_code_for(current, 0, {}), 0);
}

TEST(Baseline, AnEmptyBaselineMakesEveryRaceNew) {
  Report report = testing::sample_report();
  mark_known_races(report, {});
  for (const Race& race : report.races) EXPECT_FALSE(race.known);
}

}  // namespace
}  // namespace barracuda::report
