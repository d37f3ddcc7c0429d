#pragma once
// A vector clock stored as sorted, disjoint thread ranges that share one clock value. GPU
// knowledge is naturally range-shaped (a barrier teaches every thread of a block, a converged
// warp sync every lane of a warp), so a release that carries a whole block's history costs a few
// ranges, not one entry per thread. Threads not covered have clock 0 (nothing known).
#include <array>
#include <memory>
#include <span>
#include <vector>

#include "engine/ids.h"

namespace barracuda::engine {

struct ClockRange {
  uint32_t first;  // first thread id covered
  uint32_t end;    // one past the last thread id covered
  Clock clock;
};

class RangeClock {
 public:
  RangeClock() = default;
  // `ranges` may overlap and come in any order; overlapping parts keep the larger clock.
  explicit RangeClock(std::vector<ClockRange> ranges);

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

  std::vector<ClockRange> ranges_;  // sorted by first, disjoint, adjacent equal clocks merged
  uint64_t id_ = next_id();         // identity of this value (copies share it: same contents)
  std::array<uint64_t, kRememberedAncestors> ancestors_{};  // ids; 0 = none

  static uint64_t next_id();
};

// Knowledge is shared between threads (all lanes of a block after a barrier hold the same one),
// so it is immutable and reference counted; joining makes a new one.
using SharedClock = std::shared_ptr<const RangeClock>;

// Pointwise maximum. Returns one of the inputs unchanged when it already covers the other.
SharedClock join(const SharedClock& a, const SharedClock& b);

}  // namespace barracuda::engine
