#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "report/json_report.h"
#include "report/sarif_renderer.h"
#include "report/text_renderer.h"
#include "sample_report.h"

namespace barracuda::report {
namespace {

TEST(JsonReport, RoundTripsEveryField) {
  const Report original = testing::sample_report();
  EXPECT_EQ(parse_json_report(render_json(original)), original);
}

TEST(JsonReport, RoundTripsAMergedReportsProcesses) {
  Report merged = testing::sample_report();
  merged.processes = {{11, {"./a", "--x"}}, {12, {"./b"}}};
  merged.races[0].pid = 11;
  merged.races[1].pid = 12;
  merged.diagnostics[0].pid = 12;
  merged.races[2].same_value = true;
  merged.races[1].unfenced_acquire = UnfencedAcquire{merged.races[1].previous.site, "__threadfence() after the spin"};
  merged.races[0].perturb_seed = 7;  // barracuda run --explore
  merged.diagnostics[0].perturb_seed = 8;
  EXPECT_EQ(parse_json_report(render_json(merged)), merged);
}

// A race a flag handed over without fences: the flag's write and read survive the JSON, and the text
// and SARIF name both.
TEST(JsonReport, RoundTripsAFlagHandOff) {
  Report report = testing::sample_report();
  Site write = report.races[0].previous.site, read = report.races[0].current.site;
  write.source.line = 40;
  read.source.line = 50;
  report.races[0].flag_hand_off = FlagHandOff{write, read, 0x7f0000001000};
  EXPECT_EQ(parse_json_report(render_json(report)), report);
  std::ostringstream text;
  render_text(report, TextOptions{}, text);
  EXPECT_THAT(text.str(), ::testing::HasSubstr("Handed over through the flag at 0x7f0000001000 with no fence"));
  EXPECT_THAT(text.str(), ::testing::HasSubstr("Flag written (no fence before it):"));
  EXPECT_THAT(text.str(), ::testing::HasSubstr("Flag read (no fence after it):"));
  const auto sarif = nlohmann::json::parse(render_sarif(report, SarifOptions{}));
  const auto& related = sarif["runs"][0]["results"][0]["relatedLocations"];
  ASSERT_EQ(related.size(), 3u);
  EXPECT_EQ(related[1]["physicalLocation"]["region"]["startLine"], 40);
  EXPECT_EQ(related[2]["physicalLocation"]["region"]["startLine"], 50);
}

// Several GPUs: an inter-device race names both devices (JSON and text); a library's kernels left alone
// by design are listed without making the analysis incomplete.
TEST(JsonReport, RoundTripsDevicesAndLibraryCode) {
  Report report = testing::sample_report();
  report.races[0].race_class = RaceClass::kInterDevice;
  report.races[0].previous.device = 0;
  report.races[0].current.device = 1;
  report.summary.library_code = {"NCCL (its collectives' kernels)"};
  EXPECT_EQ(parse_json_report(render_json(report)), report);
  std::ostringstream text;
  render_text(report, TextOptions{}, text);
  EXPECT_THAT(text.str(), ::testing::HasSubstr("data race (inter-device"));
  EXPECT_THAT(text.str(), ::testing::HasSubstr("on GPU 1:"));
  EXPECT_THAT(text.str(), ::testing::HasSubstr("on GPU 0:"));
  EXPECT_THAT(text.str(), ::testing::HasSubstr("library code, not checked: NCCL"));
}

// Dynamic parallelism: a thread of a child grid carries its grid's shape (JSON and text).
TEST(JsonReport, RoundTripsAChildGridsThread) {
  Report report = testing::sample_report();
  report.races[0].previous.thread.child_grid = ChildGrid{{2, 1, 1}, {64, 1, 1}};
  const Report read = parse_json_report(render_json(report));
  EXPECT_EQ(read, report);
  ASSERT_TRUE(read.races[0].previous.thread.child_grid);
  EXPECT_FALSE(read.races[0].current.thread.child_grid);
  std::ostringstream text;
  render_text(report, TextOptions{}, text);
  EXPECT_THAT(text.str(), ::testing::HasSubstr("of a child grid <<<(2,1,1), (64,1,1)>>> launched from the device"));
}

TEST(JsonReport, ReadsReportsWrittenBeforePidsExisted) {
  nlohmann::json document = nlohmann::json::parse(render_json(testing::sample_report()));
  document["run"].erase("pid");
  EXPECT_EQ(report_from_json(document).run.pid, 0u);
}

TEST(JsonReport, RoundTripsEmptyReport) { EXPECT_EQ(parse_json_report(render_json(Report{})), Report{}); }

TEST(JsonReport, RoundTripsLargestAddress) {
  Report report = testing::sample_report();
  report.races[0].address = UINT64_MAX;
  EXPECT_EQ(parse_json_report(render_json(report)).races[0].address, UINT64_MAX);
}

// Applies `edit` to the sample report's JSON; reading it must fail with exactly `message`.
template <typename Edit>
void expect_error_after(Edit edit, const std::string& message) {
  nlohmann::json document = nlohmann::json::parse(render_json(testing::sample_report()));
  edit(document);
  EXPECT_THAT([&] { report_from_json(document); },
              ::testing::ThrowsMessage<ReportFormatError>(::testing::StrEq(message)));
}

TEST(JsonReport, NamesMissingField) {
  expect_error_after([](nlohmann::json& d) { d["races"][1]["current"]["thread"].erase("lane"); },
                     "JSON report: races[1].current.thread.lane: missing");
}

TEST(JsonReport, NamesWrongType) {
  expect_error_after([](nlohmann::json& d) { d["summary"]["events"] = "many"; },
                     "JSON report: summary.events: expected a non-negative integer");
  expect_error_after([](nlohmann::json& d) { d["races"][0]["size"] = -4; },
                     "JSON report: races[0].size: expected a non-negative integer");
  expect_error_after([](nlohmann::json& d) { d["races"][0]["launch_index"] = uint64_t{1} << 40; },
                     "JSON report: races[0].launch_index: does not fit in 32 bits");
}

TEST(JsonReport, NamesUnknownEnumValueAndListsChoices) {
  expect_error_after([](nlohmann::json& d) { d["races"][2]["hazard"] = "read-read"; },
                     "JSON report: races[2].hazard: unknown value \"read-read\" (expected one of: read-after-write, "
                     "write-after-read, write-write, atomic-plain)");
}

TEST(JsonReport, RejectsBadAddressesAndDimensions) {
  expect_error_after([](nlohmann::json& d) { d["races"][0]["address"] = "4096"; },
                     "JSON report: races[0].address: expected a hex address like \"0x1000\", got \"4096\"");
  expect_error_after(
      [](nlohmann::json& d) { d["races"][0]["address"] = "0x10000000000000000"; },
      "JSON report: races[0].address: expected a hex address like \"0x1000\", got \"0x10000000000000000\"");
  expect_error_after(
      [](nlohmann::json& d) {
        d["diagnostics"][0]["thread"]["block"] = {1, 2};
      },
      "JSON report: diagnostics[0].thread.block: expected [x, y, z]");
}

TEST(JsonReport, RejectsOtherSchemasAndVersions) {
  expect_error_after([](nlohmann::json& d) { d["schema"] = "sarif"; },
                     "JSON report: schema: not a barracuda report (expected \"barracuda-report\")");
  expect_error_after([](nlohmann::json& d) { d["schema_version"] = 2; },
                     "JSON report: schema_version: version 2 is not supported (this barracuda reads 1)");
  expect_error_after([](nlohmann::json& d) { d = nlohmann::json::array(); },
                     "JSON report: top level: expected an object");
}

TEST(JsonReport, ReadsReportsWrittenBeforeStatistics) {
  nlohmann::json document = nlohmann::json::parse(render_json(testing::sample_report()));
  document.erase("statistics");
  Report expected = testing::sample_report();
  expected.statistics.reset();
  const Report read = report_from_json(document);
  EXPECT_EQ(read, expected);
  EXPECT_FALSE(report_to_json(read).contains("statistics"));  // re-rendering does not invent zeros
}

TEST(JsonReport, WritesDerivedStatisticsAndIgnoresThemWhenRead) {
  nlohmann::json document = nlohmann::json::parse(render_json(testing::sample_report()));
  const nlohmann::json& statistics = document["statistics"];
  EXPECT_EQ(statistics["events"], 123456);
  EXPECT_EQ(statistics["bytes_logged"], 150000 * 32);
  EXPECT_DOUBLE_EQ(statistics["bytes_per_event"].get<double>(), 150000.0 * 32 / 123456);
  EXPECT_EQ(statistics["queue_bytes"], (132 << 20) + 17024);
  EXPECT_DOUBLE_EQ(statistics["drain_events_per_second"].get<double>(), 123456 / 0.5);
  EXPECT_DOUBLE_EQ(statistics["engine_thread_accesses_per_second"].get<double>(), 2e6);
  EXPECT_EQ(statistics["jit_seconds"], 1.25);
  for (const char* derived : {"events", "bytes_logged", "bytes_per_event", "queue_bytes", "drain_events_per_second",
                              "engine_thread_accesses_per_second"}) {
    document["statistics"][derived] = 1;
  }
  EXPECT_EQ(report_from_json(document), testing::sample_report());
}

TEST(JsonReport, NamesBadStatistics) {
  expect_error_after([](nlohmann::json& d) { d["statistics"]["jit_seconds"] = -0.5; },
                     "JSON report: statistics.jit_seconds: expected a non-negative number of seconds");
  expect_error_after([](nlohmann::json& d) { d["statistics"]["engine_seconds"] = "slow"; },
                     "JSON report: statistics.engine_seconds: expected a non-negative number of seconds");
  expect_error_after([](nlohmann::json& d) { d["statistics"].erase("cache_hits"); },
                     "JSON report: statistics.cache_hits: missing");
  expect_error_after([](nlohmann::json& d) { d["statistics"]["drain_threads"] = uint64_t{1} << 33; },
                     "JSON report: statistics.drain_threads: does not fit in 32 bits");
  expect_error_after([](nlohmann::json& d) { d["statistics"] = 3; }, "JSON report: statistics: expected an object");
}

TEST(JsonReport, ReportsSyntaxErrors) {
  EXPECT_THAT([] { parse_json_report("{\"schema\": "); },
              ::testing::ThrowsMessage<ReportFormatError>(::testing::HasSubstr("parse error")));
}

TEST(JsonReport, IgnoresDerivedFields) {
  // Fingerprints and summary counts are recomputed, never trusted from the file.
  const std::string edited = [] {
    nlohmann::json d = nlohmann::json::parse(render_json(testing::sample_report()));
    d["races"][0]["fingerprint"] = "0000000000000000";
    d["summary"]["unique_races"] = 99;
    return d.dump();
  }();
  EXPECT_EQ(parse_json_report(edited), testing::sample_report());
}

}  // namespace
}  // namespace barracuda::report
