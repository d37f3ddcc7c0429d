#include "engine/range_clock.h"

#include <algorithm>

namespace barracuda::engine {
namespace {

// Sweeps the range boundaries in order and keeps, between consecutive boundaries, the largest
// clock of the ranges covering that stretch.
std::vector<ClockRange> normalise(std::vector<ClockRange> input) {
  std::vector<uint32_t> cuts;
  cuts.reserve(input.size() * 2);
  for (const ClockRange& r : input) {
    if (r.first < r.end && raw(r.clock) != 0) {
      cuts.push_back(r.first);
      cuts.push_back(r.end);
    }
  }
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  std::sort(input.begin(), input.end(), [](const ClockRange& a, const ClockRange& b) { return a.first < b.first; });

  std::vector<ClockRange> out;
  // Ranges still open at the current cut; input is sorted by start, so `next` only moves forward.
  std::vector<ClockRange> open;
  size_t next = 0;
  for (size_t i = 0; i + 1 < cuts.size(); ++i) {
    const uint32_t lo = cuts[i];
    const uint32_t hi = cuts[i + 1];
    while (next < input.size() && input[next].first <= lo) open.push_back(input[next++]);
    std::erase_if(open, [lo](const ClockRange& r) { return r.end <= lo; });
    Clock best{};
    for (const ClockRange& r : open) best = std::max(best, r.clock);
    if (raw(best) == 0) continue;
    if (!out.empty() && out.back().end == lo && out.back().clock == best) {
      out.back().end = hi;
    } else {
      out.push_back({lo, hi, best});
    }
  }
  return out;
}

}  // namespace

RangeClock::RangeClock(std::vector<ClockRange> ranges) : ranges_(normalise(std::move(ranges))) {}

Clock RangeClock::at(ThreadId thread) const {
  const uint32_t t = raw(thread);
  auto it = std::upper_bound(ranges_.begin(), ranges_.end(), t,
                             [](uint32_t value, const ClockRange& r) { return value < r.first; });
  if (it == ranges_.begin()) return Clock{};
  --it;
  return t < it->end ? it->clock : Clock{};
}

bool RangeClock::covers(const RangeClock& other) const {
  for (const ClockRange& r : other.ranges_) {
    // Walk this clock's ranges over [r.first, r.end); any gap or smaller clock means "no".
    uint32_t pos = r.first;
    auto it = std::partition_point(ranges_.begin(), ranges_.end(), [pos](const ClockRange& x) { return x.end <= pos; });
    while (pos < r.end) {
      if (it == ranges_.end() || it->first > pos || it->clock < r.clock) return false;
      pos = it->end;
      ++it;
    }
  }
  return true;
}

SharedClock join(const SharedClock& a, const SharedClock& b) {
  if (!b || b->empty() || a == b) return a;
  if (!a || a->empty()) return b;
  if (a->covers(*b)) return a;
  if (b->covers(*a)) return b;
  std::vector<ClockRange> all(a->ranges().begin(), a->ranges().end());
  all.insert(all.end(), b->ranges().begin(), b->ranges().end());
  return std::make_shared<const RangeClock>(std::move(all));
}

}  // namespace barracuda::engine
