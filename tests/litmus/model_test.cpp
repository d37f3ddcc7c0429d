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

}  // namespace
}  // namespace litmus
