// The report's findings from an engine run: redundant-barrier warnings only when asked.
#include "runtime/report_builder.h"

#include <gtest/gtest.h>

#include "scenario.h"

namespace barracuda::runtime {
namespace {

using engine::Dim3;
using engine::test::Scenario;
using engine::test::lane;

// Two warps: the first barrier orders a store before a load (useful), the second orders nothing.
void run_one_useful_and_one_redundant_barrier(Scenario& s) {
  constexpr uint64_t kX = 0x40000;
  s.warp(0, 0).store(lane(0), kX);
  s.warp(0, 0).barrier();
  s.warp(0, 1).barrier();
  s.warp(0, 1).load(lane(0), kX);
  s.warp(0, 0).barrier();
  s.warp(0, 1).barrier();
  s.run();
}

size_t redundant_barriers(const report::Report& report) {
  size_t count = 0;
  for (const report::Diagnostic& d : report.diagnostics) count += d.kind == report::DiagnosticKind::kRedundantBarrier;
  return count;
}

TEST(AddFindings, RedundantBarrierWarningsOnlyWhenAsked) {
  Scenario s(Dim3{1, 1, 1}, Dim3{64, 1, 1});
  run_one_useful_and_one_redundant_barrier(s);
  SiteRegistry sites;
  const LaunchLookup no_launches = [](const std::string&) { return std::optional<LaunchRecord>(); };
  report::Report quiet, asked;
  add_findings(quiet, s.engine(), sites, no_launches, false);
  add_findings(asked, s.engine(), sites, no_launches, true);
  EXPECT_EQ(redundant_barriers(quiet), 0u);
  EXPECT_EQ(redundant_barriers(asked), 1u);
  EXPECT_TRUE(quiet.races.empty());
}

}  // namespace
}  // namespace barracuda::runtime
