// The litmus model table against textbook results of the PTX memory model.
#include "model.h"

#include <gtest/gtest.h>

namespace litmus {
namespace {

const Variant& variant(std::string_view name) {
  for (const Variant& v : kVariants) {
    if (v.name == name) return v;
  }
  ADD_FAILURE() << "no variant " << name;
  return kVariants[0];
}

TEST(LitmusModel, MessagePassingNeedsReleaseAndAcquireAtACoveringScope) {
  EXPECT_TRUE(weak_outcome_allowed(LitmusTest::kMP, variant("no-fence"), Placement::kInterBlock));
  EXPECT_FALSE(weak_outcome_allowed(LitmusTest::kMP, variant("membar.gl"), Placement::kInterBlock));
  EXPECT_FALSE(weak_outcome_allowed(LitmusTest::kMP, variant("fence.acq_rel.gpu"), Placement::kInterBlock));
  EXPECT_FALSE(weak_outcome_allowed(LitmusTest::kMP, variant("release-acquire.gpu"), Placement::kInterBlock));
  // Block-scoped synchronisation between blocks: the scoped race BRIEF section 4 describes.
  EXPECT_TRUE(weak_outcome_allowed(LitmusTest::kMP, variant("membar.cta"), Placement::kInterBlock));
  EXPECT_TRUE(weak_outcome_allowed(LitmusTest::kMP, variant("release-acquire.cta"), Placement::kInterBlock));
  EXPECT_FALSE(weak_outcome_allowed(LitmusTest::kMP, variant("membar.cta"), Placement::kIntraBlock));
  EXPECT_FALSE(weak_outcome_allowed(LitmusTest::kMP, variant("release-acquire.cta"), Placement::kIntraWarp));
  // Volatile and relaxed atomics are strong but do not order the payload.
  EXPECT_TRUE(weak_outcome_allowed(LitmusTest::kMP, variant("volatile"), Placement::kIntraBlock));
  EXPECT_TRUE(weak_outcome_allowed(LitmusTest::kMP, variant("atomic-relaxed"), Placement::kIntraBlock));
}

TEST(LitmusModel, StoreBufferingAndIriwNeedSequentiallyConsistentFences) {
  for (LitmusTest t : {LitmusTest::kSB, LitmusTest::kIRIW}) {
    EXPECT_TRUE(weak_outcome_allowed(t, variant("fence.acq_rel.gpu"), Placement::kInterBlock));
    EXPECT_TRUE(weak_outcome_allowed(t, variant("release-acquire.gpu"), Placement::kInterBlock));
    EXPECT_FALSE(weak_outcome_allowed(t, variant("fence.sc.gpu"), Placement::kInterBlock));
    EXPECT_FALSE(weak_outcome_allowed(t, variant("membar.gl"), Placement::kInterBlock));
    EXPECT_TRUE(weak_outcome_allowed(t, variant("fence.sc.cta"), Placement::kInterBlock));
    EXPECT_FALSE(weak_outcome_allowed(t, variant("fence.sc.cta"), Placement::kIntraBlock));
  }
}

TEST(LitmusModel, LoadBufferingIsForbiddenByAcquireReleaseOrdering) {
  EXPECT_TRUE(weak_outcome_allowed(LitmusTest::kLB, variant("no-fence"), Placement::kInterBlock));
  EXPECT_FALSE(weak_outcome_allowed(LitmusTest::kLB, variant("fence.acq_rel.gpu"), Placement::kInterBlock));
  EXPECT_FALSE(weak_outcome_allowed(LitmusTest::kLB, variant("release-acquire.gpu"), Placement::kInterBlock));
}

TEST(LitmusModel, CoherenceHoldsForMorallyStrongAccessesOnly) {
  EXPECT_FALSE(weak_outcome_allowed(LitmusTest::kCoRR, variant("no-fence"), Placement::kInterBlock));
  EXPECT_FALSE(weak_outcome_allowed(LitmusTest::kCoRR, variant("volatile"), Placement::kInterBlock));
  EXPECT_TRUE(weak_outcome_allowed(LitmusTest::kCoRR, variant("weak"), Placement::kIntraWarp));
  EXPECT_TRUE(weak_outcome_allowed(LitmusTest::kCoRR, variant("release-acquire.cta"), Placement::kInterBlock));
}

TEST(LitmusModel, WeakAccessesAreNeverOrdered) {
  for (LitmusTest t : kAllTests) {
    for (Placement p : kAllPlacements) EXPECT_TRUE(weak_outcome_allowed(t, variant("weak"), p));
  }
}

TEST(LitmusDetectorVerdict, AllowedWeakOutcomeOfStrongAccessesIsNotARace) {
  // SB/LB/IRIW with relaxed atomics: the hardware shows the weak outcome, yet every access is morally strong.
  for (LitmusTest t : {LitmusTest::kSB, LitmusTest::kLB, LitmusTest::kIRIW}) {
    ASSERT_TRUE(weak_outcome_allowed(t, variant("atomic-relaxed"), Placement::kInterBlock));
    EXPECT_EQ(expected_detector_verdict(t, variant("atomic-relaxed"), Placement::kInterBlock), Verdict::kNoRace);
    EXPECT_EQ(expected_detector_verdict(t, variant("no-fence"), Placement::kInterBlock), Verdict::kNoRace);
  }
}

TEST(LitmusDetectorVerdict, VolatileWithoutFencesRacesThoughThePtxModelCallsItStrong) {
  // volatile is not atomic in CUDA C++ (BRIEF section 4): the detector reports what the model allows.
  for (LitmusTest t : kAllTests) {
    for (Placement p : kAllPlacements) {
      EXPECT_EQ(expected_detector_verdict(t, variant("volatile"), p), Verdict::kRace);
    }
  }
  EXPECT_FALSE(weak_outcome_allowed(LitmusTest::kCoRR, variant("volatile"), Placement::kInterBlock));
}

TEST(LitmusDetectorVerdict, MessagePassingPayloadRacesUnlessTheFlagSynchronises) {
  for (const char* v : {"no-fence", "atomic-relaxed", "volatile", "weak"}) {
    for (Placement p : kAllPlacements) EXPECT_EQ(expected_detector_verdict(LitmusTest::kMP, variant(v), p), Verdict::kRace) << v;
  }
  for (const char* v : {"membar.gl", "fence.acq_rel.gpu", "fence.sc.gpu", "release-acquire.gpu"}) {
    for (Placement p : kAllPlacements) EXPECT_EQ(expected_detector_verdict(LitmusTest::kMP, variant(v), p), Verdict::kNoRace) << v;
  }
  // Block-scoped synchronisation orders the payload inside a block only (a scoped race between blocks).
  for (const char* v : {"membar.cta", "fence.acq_rel.cta", "fence.sc.cta", "release-acquire.cta"}) {
    EXPECT_EQ(expected_detector_verdict(LitmusTest::kMP, variant(v), Placement::kIntraBlock), Verdict::kNoRace) << v;
    EXPECT_EQ(expected_detector_verdict(LitmusTest::kMP, variant(v), Placement::kInterBlock), Verdict::kRace) << v;
  }
}

TEST(LitmusDetectorVerdict, ScopedOrPlainSyncAccessesRaceInEveryTest) {
  for (LitmusTest t : kAllTests) {
    EXPECT_EQ(expected_detector_verdict(t, variant("release-acquire.cta"), Placement::kInterBlock), Verdict::kRace);
    EXPECT_EQ(expected_detector_verdict(t, variant("release-acquire.cta"), Placement::kIntraBlock), Verdict::kNoRace);
    for (Placement p : kAllPlacements) EXPECT_EQ(expected_detector_verdict(t, variant("weak"), p), Verdict::kRace);
  }
}

TEST(LitmusDetectorVerdict, ARaceIsExpectedOnlyWhereTheModelAllowsTheWeakOutcome) {
  // A racy cell gives the model no guarantee, so "race" implies "allowed"; the converse fails (SB above).
  // volatile is the exception by design: the detector is stricter than the PTX model there.
  for (LitmusTest t : kAllTests) {
    for (const Variant& v : kVariants) {
      if (v.sync == Access::kVolatile) continue;
      for (Placement p : kAllPlacements) {
        if (expected_detector_verdict(t, v, p) == Verdict::kRace) {
          EXPECT_TRUE(weak_outcome_allowed(t, v, p)) << v.name;
        }
      }
    }
  }
}

}  // namespace
}  // namespace litmus
