// The sample report rendered three ways must match the files under tests/report/golden/.
// After an intended format change, regenerate them with
//   BARRACUDA_UPDATE_GOLDEN=1 ctest --test-dir build -R Golden
// and review the diff.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "report/json_report.h"
#include "report/sarif_renderer.h"
#include "report/text_renderer.h"
#include "sample_report.h"

namespace barracuda::report {
namespace {

std::string golden_path(const std::string& name) { return std::string{BARRACUDA_REPORT_GOLDEN_DIR} + "/" + name; }

void expect_matches_golden(const std::string& name, const std::string& actual) {
  const std::string path = golden_path(name);
  const char* update = std::getenv("BARRACUDA_UPDATE_GOLDEN");
  if (update != nullptr && std::string{update} == "1") {
    std::ofstream{path, std::ios::binary} << actual;
    return;
  }
  std::ifstream in{path, std::ios::binary};
  ASSERT_TRUE(in) << "missing golden file " << path << " (set BARRACUDA_UPDATE_GOLDEN=1 to create it)";
  std::ostringstream expected;
  expected << in.rdbuf();
  EXPECT_EQ(expected.str(), actual) << "output differs from " << path;
}

TEST(Golden, Text) {
  std::ostringstream text;
  render_text(testing::sample_report(), TextOptions{}, text);
  expect_matches_golden("sample.txt", text.str());
}

TEST(Golden, TextWithPrintLimit) {
  std::ostringstream text;
  render_text(testing::sample_report(), TextOptions{.print_limit = 1}, text);
  expect_matches_golden("sample-limit1.txt", text.str());
}

TEST(Golden, QuietTextIsTheSummaryLineAlone) {
  std::ostringstream quiet_stream;
  render_text(testing::sample_report(), TextOptions{.summary_only = true}, quiet_stream);
  std::ostringstream full_stream;
  render_text(testing::sample_report(), TextOptions{}, full_stream);
  const std::string quiet = quiet_stream.str();
  ASSERT_EQ(std::count(quiet.begin(), quiet.end(), '\n'), 1);
  EXPECT_TRUE(full_stream.str().ends_with(quiet));
}

TEST(Golden, Json) { expect_matches_golden("sample.json", render_json(testing::sample_report())); }

TEST(Golden, Sarif) { expect_matches_golden("sample.sarif", render_sarif(testing::sample_report())); }

// A site of machine code the SASS back end checked: no source and no PTX line, its function naming the
// instruction's offset. Neither the stack nor the summary line invents a "PTX line 0".
TEST(Text, AMachineCodeSiteIsNamedByItsOffset) {
  Site sass;
  sass.function = "_Z5storePi+0xd0 (SASS)";
  Report report;
  report.races.push_back(testing::sample_race(sass, sass));
  std::ostringstream text;
  render_text(report, TextOptions{}, text);
  EXPECT_NE(text.str().find("    #0 _Z5storePi+0xd0 (SASS)\n"), std::string::npos) << text.str();
  EXPECT_NE(text.str().find("data race machine code in _Z5storePi+0xd0 (SASS)"), std::string::npos) << text.str();
  EXPECT_EQ(text.str().find("PTX line"), std::string::npos) << text.str();
}

}  // namespace
}  // namespace barracuda::report
