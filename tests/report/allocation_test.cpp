// The "Memory:" part of a race report: the text line, the JSON object (and reports without it), the
// SARIF message and property, for every kind of memory a race can name.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "report/json_report.h"
#include "report/sarif_renderer.h"
#include "report/text_renderer.h"
#include "report/value_text.h"
#include "sample_report.h"

namespace barracuda::report {
namespace {

Report one_race(std::optional<Allocation> allocation) {
  Report report;
  Race race = testing::sample_race(testing::source_site("k", "k.cu", 3, 1), testing::source_site("k", "k.cu", 4, 1));
  race.address = 0x7f0000000110;
  race.size = 4;
  race.allocation = std::move(allocation);
  report.races.push_back(race);
  return report;
}

std::string text_of(const Report& report) {
  std::ostringstream out;
  render_text(report, TextOptions{}, out);
  return out.str();
}

Allocation heap_block(std::vector<std::string> frames) {
  return Allocation{AllocationKind::kMemAlloc, 0x7f0000000100, 804, 0x10, "", {}, std::move(frames)};
}

TEST(AllocationText, NamesTheBlockItsSizeTheOffsetAndTheApplicationsCallSite) {
  const std::string text = text_of(one_race(heap_block({"cudart::driverHelper+0x2a (app)", "cudaMalloc+0x5f (app)",
                                                        "main+0x1c (app)", "__libc_start_main+0x80 (libc.so.6)"})));
  EXPECT_NE(text.find("  Memory: 4 bytes at offset 0x10 of a 804-byte allocation at 0x7f0000000100 "
                      "(cudaMalloc/cuMemAlloc from main+0x1c (app))\n"),
            std::string::npos)
      << text;
}

TEST(AllocationText, FallsBackToANamedFrameTheInnermostOrNone) {
  EXPECT_EQ(allocation_text(heap_block({"app+0x11a4", "app+0x1200"}), 4, 0x7f0000000110),
            "4 bytes at offset 0x10 of a 804-byte allocation at 0x7f0000000100 (cudaMalloc/cuMemAlloc from app+0x11a4)");
  // A static cudart's cudaMalloc has no exported name: the first named frame is the application's.
  EXPECT_EQ(allocation_text(heap_block({"app+0x11a4", "app+0x1200", "main+0x1c (app)"}), 4, 0x7f0000000110),
            "4 bytes at offset 0x10 of a 804-byte allocation at 0x7f0000000100 (cudaMalloc/cuMemAlloc from main+0x1c (app))");
  EXPECT_EQ(allocation_text(heap_block({}), 4, 0x7f0000000110),
            "4 bytes at offset 0x10 of a 804-byte allocation at 0x7f0000000100 (cudaMalloc/cuMemAlloc)");
}

TEST(AllocationText, NamesEachKind) {
  Allocation variable{AllocationKind::kGlobalVariable, 0x7f0000002000, 16, 4, "ns::counter", {}, {}};
  EXPECT_EQ(allocation_text(variable, 4, 0x7f0000002004),
            "4 bytes at offset 0x4 of the 16-byte __device__ variable ns::counter at 0x7f0000002000");
  EXPECT_EQ(allocation_text(Allocation{}, 4, 0x7f0000009000),
            "0x7f0000009000 is not in any allocation barracuda saw");
  EXPECT_EQ(allocation_text(Allocation{.kind = AllocationKind::kShared, .offset = 0x80, .block = {2, 1, 0}}, 8, 0x80),
            "shared memory of block (2,1,0), offset 0x80");
  Allocation mapped = heap_block({"main+0x1c (app)"});
  mapped.kind = AllocationKind::kMemMap;
  EXPECT_NE(allocation_text(mapped, 4, 0x7f0000000110).find("(cuMemCreate+cuMemMap from main+0x1c (app))"),
            std::string::npos);
}

TEST(AllocationText, RacesWithoutOneHaveNoMemoryLine) {
  EXPECT_EQ(text_of(one_race(std::nullopt)).find("Memory:"), std::string::npos);
}

TEST(AllocationJson, WritesOnlyTheFieldsOfItsKind) {
  const auto json_of = [](const Allocation& allocation) {
    return nlohmann::json::parse(render_json(one_race(allocation)))["races"][0]["allocation"];
  };
  const nlohmann::json heap = json_of(heap_block({"main+0x1c (app)"}));
  EXPECT_EQ(heap, nlohmann::json::parse(R"j({"kind": "cuMemAlloc", "offset": "0x10", "base": "0x7f0000000100",
                                              "size": 804, "allocated_by": ["main+0x1c (app)"]})j"));
  EXPECT_EQ(json_of(Allocation{AllocationKind::kGlobalVariable, 0x7f0000002000, 16, 4, "counter", {}, {}})["symbol"],
            "counter");
  EXPECT_EQ(json_of(Allocation{}), nlohmann::json::parse(R"({"kind": "none"})"));
  EXPECT_EQ(json_of(Allocation{.kind = AllocationKind::kShared, .offset = 0x80, .block = {2, 1, 0}}),
            nlohmann::json::parse(R"({"kind": "shared", "offset": "0x80", "block": [2, 1, 0]})"));
}

TEST(AllocationJson, RoundTripsEveryKindAndItsAbsence) {
  for (const std::optional<Allocation>& allocation :
       {std::optional<Allocation>{}, std::optional<Allocation>{Allocation{}},
        std::optional<Allocation>{heap_block({"main+0x1c (app)", "app+0x11a4"})},
        std::optional<Allocation>{Allocation{AllocationKind::kGlobalVariable, 0x7f0000002000, 16, 4, "counter", {}, {}}},
        std::optional<Allocation>{Allocation{.kind = AllocationKind::kShared, .offset = 0x80, .block = {2, 1, 0}}}}) {
    const Report report = one_race(allocation);
    const std::string json = render_json(report);
    EXPECT_EQ(parse_json_report(json), report) << json;
    EXPECT_EQ(json.find("\"allocation\"") != std::string::npos, allocation.has_value());
  }
}

TEST(AllocationJson, NamesAMalformedAllocation) {
  nlohmann::json document = nlohmann::json::parse(render_json(one_race(heap_block({}))));
  document["races"][0]["allocation"].erase("base");
  EXPECT_THROW(
      {
        try {
          report_from_json(document);
        } catch (const ReportFormatError& e) {
          EXPECT_NE(std::string(e.what()).find("races[0].allocation.base: missing"), std::string::npos) << e.what();
          throw;
        }
      },
      ReportFormatError);
}

TEST(AllocationSarif, InTheMessageAndTheResultsProperties) {
  const nlohmann::json result = report_to_sarif(one_race(heap_block({"main+0x1c (app)"})))["runs"][0]["results"][0];
  EXPECT_NE(result["message"]["text"].get<std::string>().find(
                " Memory: 4 bytes at offset 0x10 of a 804-byte allocation at 0x7f0000000100"),
            std::string::npos);
  EXPECT_EQ(result["properties"]["allocation"]["kind"], "cuMemAlloc");
  EXPECT_EQ(result["properties"]["allocation"]["allocated_by"][0], "main+0x1c (app)");
  const nlohmann::json bare = report_to_sarif(one_race(std::nullopt))["runs"][0]["results"][0];
  EXPECT_FALSE(bare["properties"].contains("allocation"));
  EXPECT_EQ(bare["message"]["text"].get<std::string>().find("Memory:"), std::string::npos);
}

TEST(Demangled, SpellsCppSymbolsAsSourceDoesAndLeavesOthers) {
  EXPECT_EQ(demangled("_ZN2ns7counterE"), "ns::counter");
  EXPECT_EQ(demangled("counter"), "counter");
}

TEST(OutOfBoundsText, NamesTheParameterWhatItPointsIntoAndHowFarOutTheAddressLies) {
  const OutOfBounds past{0, "int const*", Allocation{AllocationKind::kMemAlloc, 0x1000, 804, 0, "", {}, {}}};
  EXPECT_EQ(out_of_bounds_text(past, 0x1000 + 804 + 12),
            "the address comes from parameter 0 (int const*) of the kernel, which points into a 804-byte "
            "allocation at 0x1000; it lies 12 bytes past that allocation's end");
  EXPECT_NE(out_of_bounds_text(past, 0xff0).find("16 bytes before its start"), std::string::npos);
  EXPECT_NE(out_of_bounds_text(past, 0x1000 + 804).find("it lies just past that allocation's end"), std::string::npos);
}

TEST(KernelParameterType, ComesFromTheDemangledSignature) {
  EXPECT_EQ(kernel_parameter_type("_Z6gatherPKiPil", 0), "int const*");
  EXPECT_EQ(kernel_parameter_type("_Z6gatherPKiPil", 2), "long");
  EXPECT_EQ(kernel_parameter_type("_Z6gatherPKiPil", 3), "");
  EXPECT_EQ(kernel_parameter_type("_Z4scanIfLi256EEvPT_S1_i", 1), "float*");  // a template kernel
  EXPECT_EQ(kernel_parameter_type("not_mangled", 0), "");
}

}  // namespace
}  // namespace barracuda::report
