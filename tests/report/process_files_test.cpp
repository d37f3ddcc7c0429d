#include "report/process_files.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "report/json_report.h"
#include "sample_report.h"

namespace barracuda::report {
namespace {

TEST(ProcessFilePath, PercentPIsThePid) {
  EXPECT_EQ(process_file_path("out/r.%p.json", 4711, true), "out/r.4711.json");
  EXPECT_EQ(process_file_path("out/r.%p.json", 4711, false), "out/r.4711.json");
  EXPECT_EQ(process_file_path("%p/%p.json", 9, false), "9/9.json");
}

TEST(ProcessFilePath, TheTopProcessKeepsThePathAndOthersInsertTheirPid) {
  EXPECT_EQ(process_file_path("out/r.json", 4711, true), "out/r.json");
  EXPECT_EQ(process_file_path("out/r.json", 4711, false), "out/r.4711.json");
  EXPECT_EQ(process_file_path("out.d/report", 5, false), "out.d/report.5");
  EXPECT_EQ(process_file_path("r.tar.gz", 5, false), "r.tar.5.gz");
  EXPECT_EQ(process_file_path(".hidden", 5, false), ".hidden.5");
  EXPECT_EQ(process_file_path("", 5, false), "");
}

TEST(ProcessFilePath, PendingMarkerSitsBesideTheReport) {
  EXPECT_EQ(pending_marker_path("d/report.12.json"), "d/report.12.json.pending");
}

class ProcessReportsDirectory : public ::testing::Test {
 protected:
  void SetUp() override {
    directory_ = std::filesystem::temp_directory_path() / ("process_files_test." + std::to_string(getpid()));
    std::filesystem::remove_all(directory_);
    std::filesystem::create_directories(directory_);
  }
  void TearDown() override { std::filesystem::remove_all(directory_); }
  std::string path_for(uint32_t pid) const { return process_file_path(run_report_pattern(directory_), pid, false); }
  void write(const std::string& path, const std::string& text) const { std::ofstream(path) << text; }

  std::filesystem::path directory_;
};

TEST_F(ProcessReportsDirectory, ReadsReportsInStartOrderAndNamesProcessesThatLeftOnlyAMarker) {
  Report late = testing::sample_report();
  late.run.pid = 7;
  late.run.start_time = "2026-11-24T10:00:09Z";
  Report early = late;
  early.run.pid = 300;
  early.run.start_time = "2026-11-24T10:00:01Z";
  write(path_for(7), render_json(late));
  write(path_for(300), render_json(early));
  write(pending_marker_path(path_for(300)), "./finishing");   // report written, marker not yet removed
  write(pending_marker_path(path_for(55)), "./crashed --flag");  // died before writing
  write(path_for(56), "{ not json");
  write((directory_ / "unrelated.txt").string(), "x");

  const ProcessReports found = read_process_reports(directory_);
  ASSERT_EQ(found.reports.size(), 2u);
  EXPECT_EQ(found.reports[0].run.pid, 300u);
  EXPECT_EQ(found.reports[1].run.pid, 7u);
  ASSERT_EQ(found.unchecked.size(), 2u);
  EXPECT_EQ(found.unchecked[0].kernel, "process 55 (./crashed --flag)");
  EXPECT_NE(found.unchecked[0].reason.find("ended before writing its report"), std::string::npos);
  EXPECT_EQ(found.unchecked[1].kernel, "process 56");
  EXPECT_NE(found.unchecked[1].reason.find("unreadable report"), std::string::npos);
}

TEST_F(ProcessReportsDirectory, AnEmptyOrMissingDirectoryHoldsNothing) {
  EXPECT_TRUE(read_process_reports(directory_).reports.empty());
  EXPECT_TRUE(read_process_reports(directory_ / "missing").unchecked.empty());
}

}  // namespace
}  // namespace barracuda::report
