#include <gtest/gtest.h>

#include <utility>

#include "report/fingerprint.h"
#include "sample_report.h"

namespace barracuda::report {
namespace {

using testing::sample_race;
using testing::source_site;

const Site kStore = source_site("k", "a.cu", 10, 3);
const Site kLoad = source_site("k", "a.cu", 20, 7);

TEST(Fingerprint, IsSixteenHexDigits) {
  const std::string fingerprint = race_fingerprint(sample_race(kStore, kLoad));
  ASSERT_EQ(fingerprint.size(), 16u);
  EXPECT_EQ(fingerprint.find_first_not_of("0123456789abcdef"), std::string::npos);
}

TEST(Fingerprint, IsStableAcrossBuilds) {
  // Baselines written by earlier versions depend on this exact value: change it only on purpose.
  EXPECT_EQ(race_fingerprint(sample_race(kStore, kLoad)), "2c6f023436a3fe54");
}

TEST(Fingerprint, DoesNotDependOnWhichAccessCameFirst) {
  Race write_then_read = sample_race(kStore, kLoad);
  write_then_read.current.kind = AccessOperation::kRead;
  write_then_read.hazard = Hazard::kReadAfterWrite;
  Race read_then_write = write_then_read;
  std::swap(read_then_write.current, read_then_write.previous);
  read_then_write.hazard = Hazard::kWriteAfterRead;
  EXPECT_EQ(race_fingerprint(write_then_read), race_fingerprint(read_then_write));
}

TEST(Fingerprint, IgnoresWhatChangesFromRunToRun) {
  const Race race = sample_race(kStore, kLoad);
  Race other_run = race;
  other_run.address = 0xdead0000;
  other_run.launch_index = 42;
  other_run.dynamic_count = 1000;
  other_run.current.thread = ThreadCoordinates{{9, 9, 9}, {1, 2, 3}, 7, 8};
  other_run.known = true;
  EXPECT_EQ(race_fingerprint(race), race_fingerprint(other_run));
}

TEST(Fingerprint, DistinguishesWhatMakesARaceDifferent) {
  const Race base = sample_race(kStore, kLoad);
  const std::string id = race_fingerprint(base);
  auto changed = [&](auto edit) {
    Race race = base;
    edit(race);
    return race_fingerprint(race);
  };
  EXPECT_NE(id, changed([](Race& r) { r.kernel = "k2"; }));
  EXPECT_NE(id, changed([](Race& r) { r.race_class = RaceClass::kInterWarp; }));
  EXPECT_NE(id, changed([](Race& r) { r.space = MemorySpace::kShared; }));
  EXPECT_NE(id, changed([](Race& r) { r.hazard = Hazard::kAtomicPlain; }));
  EXPECT_NE(id, changed([](Race& r) { r.current.site.source.line = 21; }));
  EXPECT_NE(id, changed([](Race& r) { r.current.site.source.column = 8; }));
  EXPECT_NE(id, changed([](Race& r) { r.current.kind = AccessOperation::kAtomic; }));
  EXPECT_NE(id, changed([](Race& r) { r.previous.site.inlined_at.push_back({"caller", {"b.cu", 5, 1}}); }));
}

TEST(Fingerprint, UsesPtxLinesOnlyWithoutLineInfo) {
  Race with_source = sample_race(kStore, kLoad);
  Race moved_ptx = with_source;
  moved_ptx.current.site.ptx_line += 100;  // same source line, different PTX (e.g. another nvcc)
  EXPECT_EQ(race_fingerprint(with_source), race_fingerprint(moved_ptx));

  Race ptx_only = sample_race(Site{"k", 100, {}, {}}, Site{"k", 200, {}, {}});
  Race other_ptx = ptx_only;
  other_ptx.current.site.ptx_line = 201;
  EXPECT_NE(race_fingerprint(ptx_only), race_fingerprint(other_ptx));
}

TEST(Fingerprint, FieldBoundariesMatter) {
  // Length-prefixed fields: moving characters between kernel and function must change the id.
  Race a = sample_race(source_site("bc", "a.cu", 1, 1), source_site("bc", "a.cu", 1, 1));
  a.kernel = std::string{"a"};
  Race b = sample_race(source_site("c", "a.cu", 1, 1), source_site("bc", "a.cu", 1, 1));
  b.kernel = std::string{"ab"};
  EXPECT_NE(race_fingerprint(a), race_fingerprint(b));
}

}  // namespace
}  // namespace barracuda::report
