#pragma once
// A vector clock stored as sorted, disjoint thread ranges that share one clock value. GPU
// knowledge is naturally range-shaped (a barrier teaches every thread of a block, a converged
// warp sync every lane of a warp), so a release that carries a whole block's history costs a few
// ranges, not one entry per thread. Threads not covered have clock 0 (nothing known).
#include <array>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include <tbb/scalable_allocator.h>

#include "engine/ids.h"

namespace barracuda::engine {

struct ClockRange {
  uint32_t first;  // first thread id covered
  uint32_t end;    // one past the last thread id covered
  Clock clock;
};

// Every release makes a clock (a snapshot of what its thread knows), on every worker at once: TBB's
// scalable allocator (thread-local free lists) instead of malloc, which spent 12% of the recorded
// hash_table replay in its free-list upkeep.
using ClockRanges = std::vector<ClockRange, tbb::scalable_allocator<ClockRange>>;

class RangeClock {
 public:
  RangeClock() = default;
  // `ranges` may overlap and come in any order; overlapping parts keep the larger clock.
  explicit RangeClock(ClockRanges ranges);

  Clock at(ThreadId thread) const;
  std::span<const ClockRange> ranges() const { return ranges_; }
  bool empty() const { return ranges_.empty(); }
  // True when every entry of `other` is <= the entry here (joining it would change nothing).
  bool covers(const RangeClock& other) const;
  // Pointwise maximum, in time linear in both sizes.
  static RangeClock merged(const RangeClock& a, const RangeClock& b);

  // covers(), answered without a walk when `other` is one of the clocks this one was merged from
  // (directly or a few merges back): a lock handed from thread to thread makes each holder's
  // knowledge a merge of the lock's clock, and the release then joins the two again.
  bool descends_from(const RangeClock& other) const;

 private:
  // Merged-from clocks remembered per clock, most recent first.
  static constexpr size_t kRememberedAncestors = 4;

  ClockRanges ranges_;  // sorted by first, disjoint, adjacent equal clocks merged
  uint64_t id_ = next_id();         // identity of this value (copies share it: same contents)
  std::array<uint64_t, kRememberedAncestors> ancestors_{};  // ids; 0 = none

  static uint64_t next_id();
};

// Knowledge is shared between threads (all lanes of a block after a barrier hold the same one),
// so it is immutable and reference counted; joining makes a new one.
using SharedClock = std::shared_ptr<const RangeClock>;

// A new shared clock (allocated as its ranges are).
template <typename... Args>
SharedClock make_clock(Args&&... args) {
  return std::allocate_shared<const RangeClock>(tbb::scalable_allocator<RangeClock>(), std::forward<Args>(args)...);
}

// Pointwise maximum. Returns one of the inputs unchanged when it already covers the other.
SharedClock join(const SharedClock& a, const SharedClock& b);

}  // namespace barracuda::engine
