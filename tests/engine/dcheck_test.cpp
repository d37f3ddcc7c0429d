// BARRACUDA_DCHECK: loud where checks are on (debug and sanitizer builds), free where they are off.
#include <gtest/gtest.h>

#include "barracuda/dcheck.h"

namespace barracuda {
namespace {

TEST(Dcheck, AFailedCheckAbortsNamingItsConditionOrCostsNothing) {
#if defined(BARRACUDA_DCHECKS)
  EXPECT_DEATH(BARRACUDA_DCHECK(1 + 1 == 3), "internal check failed: 1 \\+ 1 == 3");
  BARRACUDA_DCHECK(1 + 1 == 2);
#else
  int evaluated = 0;
  BARRACUDA_DCHECK(++evaluated == 5);
  EXPECT_EQ(evaluated, 0) << "the condition of a check that is off is not evaluated";
#endif
}

}  // namespace
}  // namespace barracuda
