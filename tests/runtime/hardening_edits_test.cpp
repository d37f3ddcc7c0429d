// Option harden: an earlier report's proposals become PTX edits (one per proposal with a PTX line, no
// repeats), and an unreadable report is an error naming the file.
#include "runtime/hardening_edits.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace barracuda::runtime {
namespace {

using Edit = ptx::passes::HardeningEdit;

report::Site ptx_site(uint32_t ptx_line) {
  report::Site site;
  site.function = "consumer";
  site.ptx_line = ptx_line;
  site.source = report::SourceLocation{"mp.cu", 19, 5};
  return site;
}

report::Race unfenced(uint32_t flag_line, const std::string& missing_fence) {
  report::Race race;
  race.kernel = "_Z8consumerPiS_";
  race.unfenced_acquire = report::UnfencedAcquire{ptx_site(flag_line), missing_fence};
  return race;
}

report::Race scoped_atomics() {
  report::Race race;
  race.kernel = "_Z7counterPi";
  race.race_class = report::RaceClass::kScoped;
  for (report::Access* access : {&race.current, &race.previous}) {
    access->kind = report::AccessOperation::kAtomic;
    access->semantics = MemorySemantics::kLegacy;
    access->scope = MemoryScope::kCta;
  }
  race.current.thread.block = {1, 0, 0};
  race.current.site = ptx_site(27);
  race.previous.site = ptx_site(31);
  return race;
}

TEST(HardeningEdits, EachProposalWithAPtxLineIsOneEdit) {
  report::Report report;
  report.races = {unfenced(12, "__threadfence_system() after the spin on the flag (there is none)"), scoped_atomics(),
                  unfenced(12, "__threadfence_system() after the spin on the flag (there is none)"),
                  unfenced(0, "__threadfence() after the spin on the flag (there is none)")};
  const std::vector<Edit> edits = hardening_edits(report);
  const std::vector<Edit> expected{
      {"_Z8consumerPiS_", 12, Edit::Kind::kFenceAfter, ptx::Scope::Sys},
      {"_Z7counterPi", 27, Edit::Kind::kWidenScope, ptx::Scope::Gpu},
      {"_Z7counterPi", 31, Edit::Kind::kWidenScope, ptx::Scope::Gpu},
  };
  EXPECT_EQ(edits, expected);
}

// Message passing through a flag with no fence on either side, between two blocks: a device fence
// before the flag's write and one after its read (not at the racing data accesses).
TEST(HardeningEdits, AFlagHandOffFencesTheFlagsWriteAndRead) {
  report::Report report;
  report::Race race;
  race.kernel = "_Z2mpPiS_";
  race.current.site = ptx_site(40);
  race.current.thread.block = {1, 0, 0};
  race.previous.site = ptx_site(21);
  race.flag_hand_off = report::FlagHandOff{ptx_site(23), ptx_site(35), 0x1000};
  report.races = {race};
  const std::vector<Edit> expected{
      {"_Z2mpPiS_", 23, Edit::Kind::kFenceBefore, ptx::Scope::Gpu},
      {"_Z2mpPiS_", 35, Edit::Kind::kFenceAfter, ptx::Scope::Gpu},
  };
  EXPECT_EQ(hardening_edits(report), expected);
}

TEST(HardeningEdits, ATooNarrowFenceBecomesTheWiderOneAfterTheSpin) {
  report::Report report;
  report.races = {unfenced(12, "__threadfence() after the spin on the flag (__threadfence_block() is too narrow)")};
  const std::vector<Edit> edits = hardening_edits(report);
  ASSERT_EQ(edits.size(), 1u);
  EXPECT_EQ(edits[0].kind, Edit::Kind::kFenceAfter);
  EXPECT_EQ(edits[0].scope, ptx::Scope::Gpu);
}

TEST(HardeningEdits, PlainAccessesOfAScopedRaceGetAFenceAfterTheFirstAndBeforeTheSecond) {
  report::Report report;
  report::Race race = scoped_atomics();
  race.current.semantics = race.previous.semantics = MemorySemantics::kWeak;
  race.current.kind = report::AccessOperation::kRead;
  race.previous.kind = report::AccessOperation::kWrite;
  report.races = {race};
  const std::vector<Edit> expected{
      {"_Z7counterPi", 31, Edit::Kind::kFenceAfter, ptx::Scope::Gpu},
      {"_Z7counterPi", 27, Edit::Kind::kFenceBefore, ptx::Scope::Gpu},
  };
  EXPECT_EQ(hardening_edits(report), expected);
}

TEST(HardeningEdits, AnUnreadableReportNamesItsFile) {
  try {
    hardening_edits_from_file("/nonexistent/earlier.json");
    FAIL() << "no error";
  } catch (const std::runtime_error& error) {
    EXPECT_NE(std::string(error.what()).find("/nonexistent/earlier.json"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace barracuda::runtime
