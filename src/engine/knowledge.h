#pragma once
// What a thread knows about other threads beyond its block barrier and warp (see BlockState):
// everything it acquired through release/acquire synchronisation, directly or through threads it
// later joined at a barrier or warp sync.
#include "engine/range_clock.h"

namespace barracuda::engine {

struct Knowledge {
  // Synchronisation whose scopes covered both threads: this orders accesses.
  SharedClock strict;
  // The same, had every scope been .gpu. A race ordered here but not in `strict` exists only
  // because a .cta/.cluster scope was too narrow: it is reported as a scoped race.
  SharedClock wide;
};

inline Knowledge join(const Knowledge& a, const Knowledge& b) {
  return {join(a.strict, b.strict), join(a.wide, b.wide)};
}

}  // namespace barracuda::engine
