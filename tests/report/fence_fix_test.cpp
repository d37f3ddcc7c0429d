#include "report/fence_fix.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "report/sarif_renderer.h"
#include "sample_report.h"

namespace barracuda::report {
namespace {

Site site_at(const char* function, const char* file, uint32_t line) {
  Site site;
  site.function = function;
  site.source = SourceLocation{file, line, 3};
  return site;
}

Access access_of(Site site, Coord3 block, AccessOperation kind, MemorySemantics semantics, MemoryScope scope) {
  Access access;
  access.site = std::move(site);
  access.thread.block = block;
  access.kind = kind;
  access.semantics = semantics;
  access.scope = scope;
  return access;
}

// A consumer block spun on a legacy atomic and read the data with no fence after the spin.
Race unfenced_race(const std::string& missing_fence) {
  Race race;
  race.race_class = RaceClass::kInterBlock;
  race.hazard = Hazard::kReadAfterWrite;
  race.kernel = "handoff";
  race.previous = access_of(site_at("produce", "mp.cu", 10), {0, 0, 0}, AccessOperation::kWrite, MemorySemantics::kWeak,
                            MemoryScope::kSystem);
  race.current = access_of(site_at("consume", "mp.cu", 21), {1, 0, 0}, AccessOperation::kRead, MemorySemantics::kWeak,
                           MemoryScope::kSystem);
  race.unfenced_acquire = UnfencedAcquire{site_at("consume", "mp.cu", 19), missing_fence};
  return race;
}

Race scoped_atomics(MemoryScope current_scope, MemoryScope previous_scope) {
  Race race;
  race.race_class = RaceClass::kScoped;
  race.hazard = Hazard::kWriteAfterWrite;
  race.kernel = "count";
  race.current = access_of(site_at("count", "count.cu", 8), {3, 0, 0}, AccessOperation::kAtomic, MemorySemantics::kLegacy,
                           current_scope);
  race.previous = access_of(site_at("count", "count.cu", 12), {0, 0, 0}, AccessOperation::kAtomic,
                            MemorySemantics::kLegacy, previous_scope);
  return race;
}

TEST(FenceFix, AnUnfencedAcquireGetsTheMissingFenceInsertedAfterItsSpin) {
  const RaceHardening hardening = harden_race(unfenced_race("__threadfence() after the spin on the flag (there is none)"));
  ASSERT_EQ(hardening.fixes.size(), 1u);
  const FenceFix& fix = hardening.fixes[0];
  EXPECT_EQ(fix.site.source.line, 19u);  // the spin, not the racing read
  EXPECT_EQ(fix.inserted_line, "__threadfence();");
  EXPECT_EQ(fix.kind, FenceFix::Kind::kFenceAfter);
  EXPECT_EQ(fix.scope, MemoryScope::kGpu);
  EXPECT_NE(fix.change.find("insert `__threadfence();` after this spin"), std::string::npos) << fix.change;
  EXPECT_TRUE(hardening.no_fix_reason.empty());
}

TEST(FenceFix, ATooNarrowFenceAfterTheSpinIsWidenedNotDoubled) {
  const RaceHardening hardening = harden_race(
      unfenced_race("__threadfence() after the spin on the flag (__threadfence_block() is too narrow)"));
  ASSERT_EQ(hardening.fixes.size(), 1u);
  EXPECT_FALSE(hardening.fixes[0].inserted_line.has_value());
  EXPECT_NE(hardening.fixes[0].change.find("__threadfence() instead of __threadfence_block()"), std::string::npos)
      << hardening.fixes[0].change;
}

TEST(FenceFix, AClusterFenceIsInlinePtx) {
  const RaceHardening hardening =
      harden_race(unfenced_race("fence.acq_rel.cluster after the spin on the flag (there is none)"));
  ASSERT_EQ(hardening.fixes.size(), 1u);
  EXPECT_EQ(hardening.fixes[0].inserted_line, "asm volatile(\"fence.acq_rel.cluster;\" ::: \"memory\");");
  EXPECT_EQ(hardening.fixes[0].scope, MemoryScope::kCluster);
}

TEST(FenceFix, AnUnfencedAcquireWithoutItsSpinSaysSo) {
  Race race = unfenced_race("an acquire fence after a spin on an atomic");
  const RaceHardening hardening = harden_race(race);
  EXPECT_TRUE(hardening.fixes.empty());
  EXPECT_NE(hardening.no_fix_reason.find("does not name the spin"), std::string::npos);
}

TEST(FenceFix, BlockScopedAtomicsOfTwoBlocksBothGetDeviceScope) {
  const RaceHardening hardening = harden_race(scoped_atomics(MemoryScope::kCta, MemoryScope::kCta));
  ASSERT_EQ(hardening.fixes.size(), 2u);
  EXPECT_EQ(hardening.fixes[0].site.source.line, 8u);
  EXPECT_EQ(hardening.fixes[1].site.source.line, 12u);
  EXPECT_EQ(hardening.fixes[0].kind, FenceFix::Kind::kWidenScope);
  EXPECT_EQ(hardening.fixes[0].scope, MemoryScope::kGpu);
  EXPECT_NE(hardening.fixes[0].change.find("gpu scope instead of cta"), std::string::npos) << hardening.fixes[0].change;
  EXPECT_NE(hardening.fixes[0].change.find("atomicAdd instead of atomicAdd_block"), std::string::npos);
}

TEST(FenceFix, OnlyTheTooNarrowSideOfAScopedRaceChanges) {
  const RaceHardening hardening = harden_race(scoped_atomics(MemoryScope::kGpu, MemoryScope::kCta));
  ASSERT_EQ(hardening.fixes.size(), 1u);
  EXPECT_EQ(hardening.fixes[0].site.source.line, 12u);
}

TEST(FenceFix, AStrongStoreOfBlockScopeBecomesADeviceScopeStore) {
  Race race = scoped_atomics(MemoryScope::kGpu, MemoryScope::kCta);
  race.previous.kind = AccessOperation::kWrite;
  race.previous.semantics = MemorySemantics::kRelease;
  const RaceHardening hardening = harden_race(race);
  ASSERT_EQ(hardening.fixes.size(), 1u);
  EXPECT_NE(hardening.fixes[0].change.find("release store gpu scope"), std::string::npos) << hardening.fixes[0].change;
  EXPECT_NE(hardening.fixes[0].change.find("cuda::thread_scope_device"), std::string::npos);
}

// Message passing through __threadfence_block() across blocks: the plain data accesses race only
// because the fences' scope is too narrow, and the report does not name the fences.
TEST(FenceFix, PlainAccessesOfAScopedRaceGetDeviceFencesBetweenThem) {
  Race race = unfenced_race("");
  race.unfenced_acquire.reset();
  race.race_class = RaceClass::kScoped;
  const RaceHardening hardening = harden_race(race);
  ASSERT_EQ(hardening.fixes.size(), 2u);
  EXPECT_EQ(hardening.fixes[0].kind, FenceFix::Kind::kFenceAfter);
  EXPECT_EQ(hardening.fixes[0].site.source.line, 10u);  // the producer's data write
  EXPECT_EQ(hardening.fixes[1].kind, FenceFix::Kind::kFenceBefore);
  EXPECT_EQ(hardening.fixes[1].site.source.line, 21u);  // the consumer's data read
  for (const FenceFix& fix : hardening.fixes) {
    EXPECT_EQ(fix.scope, MemoryScope::kGpu);
    EXPECT_EQ(fix.inserted_line, "__threadfence();");
  }
}

TEST(FenceFix, PlainRacesGetTheReasonNoFenceFixesThem) {
  Race race = unfenced_race("");
  race.unfenced_acquire.reset();
  RaceHardening hardening = harden_race(race);
  EXPECT_TRUE(hardening.fixes.empty());
  EXPECT_NE(hardening.no_fix_reason.find("both accesses are plain"), std::string::npos);

  race.previous.kind = AccessOperation::kAtomic;
  race.previous.semantics = MemorySemantics::kLegacy;
  hardening = harden_race(race);
  EXPECT_NE(hardening.no_fix_reason.find("make the plain access atomic"), std::string::npos);
}

// Message passing with no fence on either side: a fence before the flag's write and one after its read,
// of the scope that covers both threads (the device across blocks, the block within one).
TEST(FenceFix, AFlagHandOffGetsAFenceBeforeTheFlagsWriteAndAfterItsRead) {
  Race race = unfenced_race("");
  race.unfenced_acquire.reset();
  race.flag_hand_off = FlagHandOff{site_at("produce", "mp.cu", 12), site_at("consume", "mp.cu", 19), 0x1000};
  RaceHardening hardening = harden_race(race);
  ASSERT_EQ(hardening.fixes.size(), 2u);
  EXPECT_TRUE(hardening.no_fix_reason.empty());
  EXPECT_EQ(hardening.fixes[0].kind, FenceFix::Kind::kFenceBefore);
  EXPECT_EQ(hardening.fixes[0].site.source.line, 12u);  // the flag's write, not the data's
  EXPECT_EQ(hardening.fixes[1].kind, FenceFix::Kind::kFenceAfter);
  EXPECT_EQ(hardening.fixes[1].site.source.line, 19u);  // the flag's read, not the data's
  for (const FenceFix& fix : hardening.fixes) {
    EXPECT_EQ(fix.scope, MemoryScope::kGpu);
    EXPECT_EQ(fix.inserted_line, "__threadfence();");
  }
  EXPECT_NE(hardening.fixes[0].change.find("0x1000"), std::string::npos) << hardening.fixes[0].change;

  race.race_class = RaceClass::kInterWarp;
  race.current.thread.block = race.previous.thread.block;
  hardening = harden_race(race);
  ASSERT_EQ(hardening.fixes.size(), 2u);
  EXPECT_EQ(hardening.fixes[0].scope, MemoryScope::kCta);
  EXPECT_EQ(hardening.fixes[0].inserted_line, "__threadfence_block();");
}

TEST(FenceFixSarif, AnInsertedFenceIsASarifFixOnTheLineAfterTheSpin) {
  Report report = testing::sample_report();
  report.races = {unfenced_race("__threadfence() after the spin on the flag (there is none)")};
  const nlohmann::ordered_json result = report_to_sarif(report, SarifOptions{.fence_fixes = true})["runs"][0]["results"][0];
  ASSERT_TRUE(result.contains("fixes")) << result.dump(2);
  const auto& replacement = result["fixes"][0]["artifactChanges"][0]["replacements"][0];
  EXPECT_EQ(replacement["deletedRegion"]["startLine"], 20);
  EXPECT_EQ(replacement["deletedRegion"]["endColumn"], 1);
  EXPECT_EQ(replacement["insertedContent"]["text"], "__threadfence();\n");
  EXPECT_EQ(result["fixes"][0]["artifactChanges"][0]["artifactLocation"]["uri"], "mp.cu");
  EXPECT_EQ(result["properties"]["hardening"]["changes"][0]["location"], "mp.cu:19");
}

TEST(FenceFixSarif, AFenceBeforeAnAccessIsInsertedAtItsLine) {
  Report report = testing::sample_report();
  report.races = {unfenced_race("")};
  report.races[0].unfenced_acquire.reset();
  report.races[0].race_class = RaceClass::kScoped;
  const nlohmann::ordered_json result = report_to_sarif(report, SarifOptions{.fence_fixes = true})["runs"][0]["results"][0];
  ASSERT_EQ(result["fixes"].size(), 2u) << result.dump(2);
  EXPECT_EQ(result["fixes"][0]["artifactChanges"][0]["replacements"][0]["deletedRegion"]["startLine"], 11);
  EXPECT_EQ(result["fixes"][1]["artifactChanges"][0]["replacements"][0]["deletedRegion"]["startLine"], 21);
}

TEST(FenceFixSarif, ScopeChangesAndReasonsAreProperties) {
  Report report = testing::sample_report();
  report.races = {scoped_atomics(MemoryScope::kCta, MemoryScope::kCta), unfenced_race("")};
  report.races[1].unfenced_acquire.reset();
  const nlohmann::ordered_json results = report_to_sarif(report, SarifOptions{.fence_fixes = true})["runs"][0]["results"];
  EXPECT_FALSE(results[0].contains("fixes"));  // SARIF fixes replace text; the atomic's spelling is not known
  EXPECT_EQ(results[0]["properties"]["hardening"]["changes"].size(), 2u);
  EXPECT_TRUE(results[1]["properties"]["hardening"].contains("noFix"));
}

TEST(FenceFixSarif, PlainSarifCarriesNoProposals) {
  const nlohmann::ordered_json results = report_to_sarif(testing::sample_report())["runs"][0]["results"];
  for (const auto& result : results) {
    EXPECT_FALSE(result.contains("fixes"));
    EXPECT_FALSE(result["properties"].contains("hardening"));
  }
}

}  // namespace
}  // namespace barracuda::report
