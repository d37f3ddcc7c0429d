#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "report/json_report.h"
#include "sample_report.h"

namespace barracuda::report {
namespace {

TEST(JsonReport, RoundTripsEveryField) {
  const Report original = testing::sample_report();
  EXPECT_EQ(parse_json_report(render_json(original)), original);
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
