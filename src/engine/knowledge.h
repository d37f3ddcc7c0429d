#pragma once
// What a thread knows about other threads beyond its block barrier and warp (see BlockState):
// everything it acquired through release/acquire synchronisation, directly or through threads it
// later joined at a barrier or warp sync.
#include "engine/findings.h"
#include "engine/range_clock.h"

namespace barracuda::engine {

struct Knowledge {
  // Synchronisation whose scopes covered both threads: this orders accesses.
  SharedClock strict;
  // The same, had every scope been .gpu. A race ordered here but not in `strict` exists only
  // because a .cta/.cluster scope was too narrow: it is reported as a scoped race.
  SharedClock wide;
  // `strict` plus what spins on legacy atomics with no acquire fence after them (or one of too
  // narrow a scope) would have acquired from releases whose scope reaches the spinning thread: GPUs
  // honour the spin's control dependency. Null while it equals `strict` (nearly always). A race
  // ordered here but not in `strict` is reported as the warning "unfenced acquire".
  SharedClock unfenced;
  UnfencedOrigin origin;  // the latest spin `unfenced` relies on (valid once there was one)

  const SharedClock& assumed() const { return unfenced ? unfenced : strict; }
};

// The same knowledge (the same shared clocks, not merely equal ones): what every thread of a block
// holds after a barrier, so that the next barrier's join is the knowledge itself.
inline bool same_knowledge(const Knowledge& a, const Knowledge& b) {
  return a.strict == b.strict && a.wide == b.wide && a.unfenced == b.unfenced && a.origin == b.origin;
}

inline Knowledge join(const Knowledge& a, const Knowledge& b) {
  Knowledge k{join(a.strict, b.strict), join(a.wide, b.wide), nullptr, b.origin.valid ? b.origin : a.origin};
  if (a.unfenced || b.unfenced) k.unfenced = join(a.assumed(), b.assumed());
  return k;
}

}  // namespace barracuda::engine
