// Checks the SARIF output against what the SARIF 2.1.0 specification (OASIS, sections 3.13-3.49)
// requires of the objects we emit, and against what GitHub code scanning reads.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "report/fingerprint.h"
#include "report/sarif_renderer.h"
#include "sample_report.h"

namespace barracuda::report {
namespace {

using Json = nlohmann::json;

const std::set<std::string> kLevels{"none", "note", "warning", "error"};

void expect_message(const Json& object, const std::string& where) {
  ASSERT_TRUE(object.contains("message")) << where;
  ASSERT_TRUE(object["message"].contains("text")) << where;
  EXPECT_TRUE(object["message"]["text"].is_string()) << where;
  EXPECT_FALSE(object["message"]["text"].get<std::string>().empty()) << where;
}

void expect_valid_location(const Json& location, const std::string& where) {
  ASSERT_TRUE(location.is_object()) << where;
  if (location.contains("physicalLocation")) {
    const Json& physical = location["physicalLocation"];
    ASSERT_TRUE(physical.contains("artifactLocation")) << where;
    ASSERT_TRUE(physical["artifactLocation"]["uri"].is_string()) << where;
    const std::string uri = physical["artifactLocation"]["uri"];
    EXPECT_EQ(uri.find(' '), std::string::npos) << where << ": URIs are percent-encoded";
    ASSERT_TRUE(physical["region"]["startLine"].is_number_integer()) << where;
    EXPECT_GE(physical["region"]["startLine"].get<int>(), 1) << where;  // 1-based (3.30.5)
  }
  ASSERT_TRUE(location["logicalLocations"].is_array()) << where;
  EXPECT_TRUE(location["logicalLocations"][0]["name"].is_string()) << where;
}

TEST(Sarif, HasTheRequiredTopLevelStructure) {
  const Json sarif = Json::parse(render_sarif(testing::sample_report()));
  EXPECT_EQ(sarif["version"], "2.1.0");
  EXPECT_EQ(sarif["$schema"], "https://json.schemastore.org/sarif-2.1.0.json");
  ASSERT_TRUE(sarif["runs"].is_array());
  ASSERT_EQ(sarif["runs"].size(), 1u);
  const Json& run = sarif["runs"][0];
  ASSERT_TRUE(run["tool"]["driver"]["name"].is_string());
  EXPECT_EQ(run["tool"]["driver"]["name"], "barracuda");
  ASSERT_TRUE(run["invocations"].is_array());
  EXPECT_TRUE(run["invocations"][0]["executionSuccessful"].is_boolean());  // required in invocation (3.20.14)
  ASSERT_TRUE(run["results"].is_array());
}

TEST(Sarif, RulesHaveUniqueIdsAndHelp) {
  const Json sarif = Json::parse(render_sarif(testing::sample_report()));
  std::set<std::string> ids;
  for (const Json& rule : sarif["runs"][0]["tool"]["driver"]["rules"]) {
    ASSERT_TRUE(rule["id"].is_string());
    EXPECT_TRUE(ids.insert(rule["id"]).second) << "duplicate rule id " << rule["id"];
    EXPECT_FALSE(rule["shortDescription"]["text"].get<std::string>().empty());
    EXPECT_FALSE(rule["help"]["text"].get<std::string>().empty());
    EXPECT_TRUE(kLevels.contains(rule["defaultConfiguration"]["level"]));
  }
  for (const char* id : {"race/intra-warp", "race/inter-warp", "race/inter-block", "race/branch-ordering",
                         "race/scoped", "barrier-divergence", "redundant-barrier"}) {
    EXPECT_TRUE(ids.contains(id)) << id;
  }
}

TEST(Sarif, OneResultPerUniqueRaceWithBothAccesses) {
  const Report report = testing::sample_report();
  const Json sarif = Json::parse(render_sarif(report));
  const Json& run = sarif["runs"][0];
  const Json& rules = run["tool"]["driver"]["rules"];
  const Json& results = run["results"];
  ASSERT_EQ(results.size(), report.races.size() + report.diagnostics.size());
  for (size_t i = 0; i < results.size(); ++i) {
    const Json& result = results[i];
    const std::string where = "results[" + std::to_string(i) + "]";
    expect_message(result, where);
    ASSERT_TRUE(result["ruleIndex"].is_number_unsigned()) << where;
    const size_t rule_index = result["ruleIndex"];
    ASSERT_LT(rule_index, rules.size()) << where;
    EXPECT_EQ(result["ruleId"], rules[rule_index]["id"]) << where << ": ruleId and ruleIndex must agree (3.27.5)";
    EXPECT_TRUE(kLevels.contains(result["level"])) << where;
    ASSERT_EQ(result["locations"].size(), 1u) << where;
    expect_valid_location(result["locations"][0], where + ".locations[0]");
  }
  for (size_t i = 0; i < report.races.size(); ++i) {
    const Json& result = results[i];
    ASSERT_EQ(result["relatedLocations"].size(), 1u);
    const Json& related = result["relatedLocations"][0];
    expect_valid_location(related, "related");
    expect_message(related, "related");
    EXPECT_GE(related["id"].get<int>(), 0);  // ids are non-negative integers (3.28.2)
    EXPECT_EQ(result["partialFingerprints"]["barracudaRace/v1"], race_fingerprint(report.races[i]));
    EXPECT_EQ(result["baselineState"], report.races[i].known ? "unchanged" : "new");
  }
}

TEST(Sarif, SameValueWriteWriteHasItsOwnWarningRule) {
  Report report = testing::sample_report();
  report.races[0].same_value = true;
  const Json results = report_to_sarif(report)["runs"][0]["results"];
  EXPECT_EQ(results[0]["ruleId"], "same-value-write-write");
  EXPECT_EQ(results[0]["level"], "warning");
  EXPECT_EQ(results[1]["ruleId"], "race/intra-warp");
}

TEST(Sarif, UnfencedAcquireHasItsOwnWarningRuleAndNamesTheSpin) {
  Report report = testing::sample_report();
  report.races[0].unfenced_acquire = UnfencedAcquire{report.races[0].previous.site, "__threadfence() after the spin"};
  const Json results = report_to_sarif(report)["runs"][0]["results"];
  EXPECT_EQ(results[0]["ruleId"], "unfenced-acquire");
  EXPECT_EQ(results[0]["level"], "warning");
  EXPECT_EQ(results[0]["relatedLocations"].size(), 2u);
  EXPECT_EQ(results[0]["relatedLocations"][1]["id"], 2);
  EXPECT_NE(results[0]["message"]["text"].get<std::string>().find("Missing: __threadfence() after the spin."),
            std::string::npos);
  EXPECT_EQ(results[1]["ruleId"], "race/intra-warp");
}

TEST(Sarif, RaceWithoutLineInfoHasOnlyALogicalLocation) {
  const Json sarif = Json::parse(render_sarif(testing::sample_report()));
  const Json& location = sarif["runs"][0]["results"][1]["locations"][0];  // the intra-warp race
  EXPECT_FALSE(location.contains("physicalLocation"));
  EXPECT_EQ(location["logicalLocations"][0]["name"], "reduce");
}

TEST(Sarif, EncodesPathsAsUris) {
  Report report = testing::sample_report();
  report.races[0].current.site.source.file = "/home/me/my kernels/a%b.cu";
  const Json sarif = Json::parse(render_sarif(report));
  const Json& artifact = sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"];
  EXPECT_EQ(artifact["uri"], "file:///home/me/my%20kernels/a%25b.cu");
  EXPECT_FALSE(artifact.contains("uriBaseId"));
  const Json& relative = sarif["runs"][0]["results"][2]["locations"][0]["physicalLocation"]["artifactLocation"];
  EXPECT_EQ(relative["uri"], "src/count.cu");
  EXPECT_EQ(relative["uriBaseId"], "SRCROOT");
}

TEST(Sarif, ReportsUncheckedKernelsAsNotifications) {
  const Json sarif = Json::parse(render_sarif(testing::sample_report()));
  const Json& notifications = sarif["runs"][0]["invocations"][0]["toolExecutionNotifications"];
  ASSERT_EQ(notifications.size(), 2u);
  EXPECT_EQ(notifications[0]["message"]["text"],
            "Not checked: cublasLt_sm90_gemm: no sm_90 PTX in the fat binary");
  expect_message(notifications[1], "dropped events");
}

}  // namespace
}  // namespace barracuda::report
