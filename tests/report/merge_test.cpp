#include "report/merge.h"

#include <gtest/gtest.h>

#include <sstream>

#include "report/exit_code.h"
#include "report/fingerprint.h"
#include "report/text_renderer.h"
#include "report/summary_counts.h"
#include "sample_report.h"

namespace barracuda::report {
namespace {

using testing::sample_race;
using testing::sample_report;
using testing::source_site;

Report process_report(uint32_t pid, std::vector<Race> races) {
  Report report;
  report.run.pid = pid;
  report.run.tool_version = "0.1.0";
  report.run.command_line = {"./test_" + std::to_string(pid)};
  report.run.start_time = "2026-11-24T10:00:0" + std::to_string(pid % 10) + "Z";
  report.summary.kernels_instrumented = 2;
  report.summary.launches = 3;
  report.summary.events = 100;
  report.races = std::move(races);
  return report;
}

TEST(MergeProcessReports, TheSameRaceInTwoProcessesIsOneRaceSeenInBoth) {
  const Race shared = sample_race(source_site("k", "a.cu", 3, 1), source_site("k", "a.cu", 4, 1));
  const Race only_second = sample_race(source_site("k", "b.cu", 9, 1), source_site("k", "b.cu", 9, 1));
  Race shared_again = shared;
  shared_again.dynamic_count = 4;
  const Report merged = merge_process_reports(
      {process_report(11, {shared}), process_report(12, {shared_again, only_second})}, {"ctest", "-j2"});

  ASSERT_EQ(merged.races.size(), 2u);
  EXPECT_EQ(race_fingerprint(merged.races[0]), race_fingerprint(shared));
  EXPECT_EQ(merged.races[0].dynamic_count, 5u);
  EXPECT_EQ(merged.races[0].pid, 11u) << "named by the first process that saw it";
  EXPECT_EQ(merged.races[1].pid, 12u);
  ASSERT_EQ(merged.processes.size(), 2u);
  EXPECT_EQ(merged.processes[1].pid, 12u);
  EXPECT_EQ(merged.processes[1].command_line, std::vector<std::string>{"./test_12"});
  EXPECT_EQ(merged.run.command_line, (std::vector<std::string>{"ctest", "-j2"}));
  EXPECT_EQ(merged.run.pid, 0u);
  EXPECT_EQ(merged.run.start_time, "2026-11-24T10:00:01Z");
  EXPECT_EQ(merged.summary.kernels_instrumented, 4u);
  EXPECT_EQ(merged.summary.launches, 6u);
  EXPECT_EQ(merged.summary.events, 200u);
  EXPECT_EQ(exit_code_for(merged, 0, {}), 66);
}

// A kernel both processes checked through its machine code is named once.
TEST(MergeProcessReports, KernelsCheckedThroughMachineCodeAreNamedOnce) {
  Report first = process_report(11, {});
  Report second = process_report(12, {});
  first.summary.kernels_machine_code = {"gemm_sm90"};
  second.summary.kernels_machine_code = {"gemm_sm90", "triton_add"};
  const Report merged = merge_process_reports({first, second}, {"ctest"});
  EXPECT_EQ(merged.summary.kernels_machine_code, (std::vector<std::string>{"gemm_sm90", "triton_add"}));
}

TEST(MergeProcessReports, ACleanParentDoesNotHideARacyChild) {
  const Race race = sample_race(source_site("k", "a.cu", 3, 1), source_site("k", "a.cu", 3, 1));
  const Report merged = merge_process_reports({process_report(21, {race}), process_report(22, {})}, {"bash"});
  EXPECT_EQ(count_summary(merged).unique_races, 1u);
  EXPECT_EQ(exit_code_for(merged, 0, {}), 66);
}

TEST(MergeProcessReports, AnIncompleteProcessMakesTheRunIncompleteAndIsNamed) {
  Report incomplete = process_report(31, {});
  incomplete.summary.kernels_skipped.push_back({"module 2", "no PTX for sm_90 in the module (cubin only)"});
  incomplete.summary.dropped_events = 7;
  const Report merged = merge_process_reports({process_report(30, {}), incomplete}, {"make", "test"});
  ASSERT_EQ(merged.summary.kernels_skipped.size(), 1u);
  EXPECT_EQ(merged.summary.kernels_skipped[0].kernel, "module 2 (process 31)");
  EXPECT_EQ(merged.summary.dropped_events, 7u);
  EXPECT_TRUE(analysis_incomplete(merged));
  EXPECT_EQ(exit_code_for(merged, 0, {}), 67);
}

TEST(MergeProcessReports, UnloggedInstructionKindsAreListedOnceWithEveryKernel) {
  Report first = process_report(50, {});
  first.summary.unlogged_instructions = {{"ldmatrix", {"gemm"}}};
  Report second = process_report(51, {});
  second.summary.unlogged_instructions = {{"ldmatrix", {"gemm", "attention"}}, {"sust", {"blur"}}};
  const Report merged = merge_process_reports({first, second}, {"make"});
  const std::vector<UnloggedInstructions> expected{{"ldmatrix", {"gemm", "attention"}}, {"sust", {"blur"}}};
  EXPECT_EQ(merged.summary.unlogged_instructions, expected);
  EXPECT_FALSE(analysis_incomplete(merged));
}

TEST(MergeProcessReports, DiagnosticsAndStatisticsAddUp) {
  Report first = sample_report();
  first.run.pid = 41;
  Report second = sample_report();
  second.run.pid = 42;
  const Report merged = merge_process_reports({first, second}, {"pytest"});
  EXPECT_EQ(merged.races.size(), first.races.size());
  EXPECT_EQ(merged.diagnostics.size(), first.diagnostics.size());
  for (const Diagnostic& diagnostic : merged.diagnostics) EXPECT_EQ(diagnostic.pid, 41u);
  ASSERT_TRUE(merged.statistics);
  EXPECT_EQ(merged.statistics->slots, 2 * first.statistics->slots);
  EXPECT_EQ(merged.statistics->queue_host_bytes, first.statistics->queue_host_bytes);
  EXPECT_EQ(merged.summary.suppressed_races, 2 * first.summary.suppressed_races);
  EXPECT_EQ(count_summary(merged).dynamic_races, 2 * count_summary(first).dynamic_races);
}

TEST(MergeProcessReports, TheTextNamesEachFindingsProcessAndCountsTheProcesses) {
  const Race race = sample_race(source_site("k", "a.cu", 3, 1), source_site("k", "a.cu", 3, 1));
  const Report merged = merge_process_reports({process_report(51, {}), process_report(52, {race})}, {"sh"});
  std::ostringstream text;
  render_text(merged, TextOptions{}, text);
  EXPECT_NE(text.str().find("  In process 52: ./test_52\n"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find(", 2 processes\n"), std::string::npos) << text.str();
  std::ostringstream one_process;
  render_text(process_report(53, {race}), TextOptions{}, one_process);
  EXPECT_EQ(one_process.str().find("process"), std::string::npos) << "a single process's report names none";
}

// Runs of `barracuda run --explore` merge as processes do: a race both runs saw keeps the seed of the
// first, and the text says how to run that order again.
TEST(MergeProcessReports, AnExploredRaceKeepsTheSeedOfTheFirstRunThatSawIt) {
  Race race = sample_race(source_site("k", "a.cu", 3, 1), source_site("k", "a.cu", 4, 1));
  race.perturb_seed = 2;
  Race again = race;
  again.perturb_seed = 3;
  const Report merged = merge_process_reports({process_report(61, {race}), process_report(62, {again})}, {"app"});
  ASSERT_EQ(merged.races.size(), 1u);
  EXPECT_EQ(merged.races[0].perturb_seed, 2u);
  std::ostringstream text;
  render_text(merged, TextOptions{}, text);
  EXPECT_NE(text.str().find("  Found with --perturb 2 "), std::string::npos) << text.str();
}

TEST(SameValueWriteWrite, IsAWarningInTheTextAndTheCountsNotARace) {
  Race flag = sample_race(source_site("k", "g.cu", 5, 1), source_site("k", "g.cu", 9, 1));
  flag.same_value = true;
  const Report report = process_report(61, {flag});
  std::ostringstream text;
  render_text(report, TextOptions{}, text);
  EXPECT_NE(text.str().find("WARNING: barracuda: same-value write-write (inter-block, global) in kernel k"),
            std::string::npos) << text.str();
  EXPECT_NE(text.str().find("SUMMARY: barracuda: same-value write-write g.cu:9"), std::string::npos) << text.str();
  EXPECT_EQ(count_summary(report).unique_races, 0u);
  EXPECT_EQ(count_summary(report).warnings, 1u);
  EXPECT_EQ(exit_code_for(report, 0, {}), 0);
}

TEST(UnfencedAcquire, IsAWarningInTheTextAndTheCountsNotARace) {
  Race handed = sample_race(source_site("k", "g.cu", 5, 1), source_site("k", "g.cu", 9, 1));
  handed.unfenced_acquire = UnfencedAcquire{source_site("k", "g.cu", 8, 1),
                                            "__threadfence() after the spin on the flag (there is none)"};
  const Report report = process_report(61, {handed});
  std::ostringstream text;
  render_text(report, TextOptions{}, text);
  EXPECT_NE(text.str().find("WARNING: barracuda: unfenced acquire (inter-block, global, "), std::string::npos)
      << text.str();
  EXPECT_NE(text.str().find("missing: __threadfence() after the spin on the flag (there is none)"), std::string::npos)
      << text.str();
  EXPECT_NE(text.str().find("Spin on the flag (no acquire fence after it):"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("g.cu:8"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("SUMMARY: barracuda: unfenced acquire g.cu:9"), std::string::npos) << text.str();
  EXPECT_EQ(count_summary(report).unique_races, 0u);
  EXPECT_EQ(count_summary(report).warnings, 1u);
  EXPECT_EQ(exit_code_for(report, 0, {}), 0);
}

TEST(MergeProcessReports, AnUnfencedAcquireInOneProcessAndARaceInAnotherIsARace) {
  Race race = sample_race(source_site("k", "g.cu", 5, 1), source_site("k", "g.cu", 9, 1));
  Race warned = race;
  warned.unfenced_acquire = UnfencedAcquire{source_site("k", "g.cu", 8, 1), "__threadfence() after the spin"};
  const Report merged = merge_process_reports({process_report(1, {warned}), process_report(2, {race})}, {"x"});
  ASSERT_EQ(merged.races.size(), 1u);
  EXPECT_FALSE(merged.races[0].unfenced_acquire);
}

TEST(MergeProcessReports, NoProcessesIsAnEmptyCleanRun) {
  const Report merged = merge_process_reports({}, {"true"});
  EXPECT_TRUE(merged.races.empty());
  EXPECT_TRUE(merged.processes.empty());
  EXPECT_FALSE(analysis_incomplete(merged));
  EXPECT_EQ(exit_code_for(merged, 3, {}), 3);
}

}  // namespace
}  // namespace barracuda::report
