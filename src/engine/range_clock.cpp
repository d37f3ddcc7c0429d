#include "engine/range_clock.h"

#include <algorithm>
#include <atomic>
#include <limits>

namespace barracuda::engine {
namespace {

constexpr uint32_t kEnd = std::numeric_limits<uint32_t>::max();  // past every thread id

// Sweeps the range boundaries in order and keeps, between consecutive boundaries, the largest
// clock of the ranges covering that stretch.
ClockRanges normalise(ClockRanges input) {
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

  ClockRanges out;
  // Ranges still open at the current cut; input is sorted by start, so `next` only moves forward.
  ClockRanges open;
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

RangeClock::RangeClock(ClockRanges ranges) : ranges_(normalise(std::move(ranges))) {}

Clock RangeClock::at(ThreadId thread) const {
  const uint32_t t = raw(thread);
  auto it = std::upper_bound(ranges_.begin(), ranges_.end(), t,
                             [](uint32_t value, const ClockRange& r) { return value < r.first; });
  if (it == ranges_.begin()) return Clock{};
  --it;
  return t < it->end ? it->clock : Clock{};
}

bool RangeClock::covers(const RangeClock& other) const {
  // Both lists are sorted and disjoint: one forward walk over each.
  size_t i = 0;
  for (const ClockRange& r : other.ranges_) {
    uint32_t pos = r.first;
    while (pos < r.end) {
      while (i < ranges_.size() && ranges_[i].end <= pos) ++i;
      if (i == ranges_.size() || ranges_[i].first > pos || ranges_[i].clock < r.clock) return false;
      pos = ranges_[i].end;
    }
  }
  return true;
}

uint64_t RangeClock::next_id() {
  static std::atomic<uint64_t> counter{0};
  return counter.fetch_add(1, std::memory_order_relaxed) + 1;
}

bool RangeClock::descends_from(const RangeClock& other) const {
  return other.id_ == id_ || std::find(ancestors_.begin(), ancestors_.end(), other.id_) != ancestors_.end();
}

RangeClock RangeClock::merged(const RangeClock& a, const RangeClock& b) {
  // Linear sweep over two sorted, disjoint lists, emitting the pointwise maximum.
  RangeClock out;
  // The result covers a, b and whatever they descend from: remember the nearest of them.
  size_t remembered = 0;
  for (const uint64_t id : {a.id_, b.id_, a.ancestors_[0], b.ancestors_[0], a.ancestors_[1], b.ancestors_[1]}) {
    if (remembered == kRememberedAncestors) break;
    if (id != 0 && std::find(out.ancestors_.begin(), out.ancestors_.begin() + remembered, id) ==
                       out.ancestors_.begin() + remembered) {
      out.ancestors_[remembered++] = id;
    }
  }
  out.ranges_.reserve(a.ranges_.size() + b.ranges_.size());
  const auto& x = a.ranges_;
  const auto& y = b.ranges_;
  size_t i = 0, j = 0;
  uint32_t pos = 0;
  while (i < x.size() || j < y.size()) {
    if (i < x.size() && x[i].end <= pos) { ++i; continue; }
    if (j < y.size() && y[j].end <= pos) { ++j; continue; }
    const uint32_t x_lo = i < x.size() ? std::max(x[i].first, pos) : kEnd;
    const uint32_t y_lo = j < y.size() ? std::max(y[j].first, pos) : kEnd;
    const uint32_t lo = std::min(x_lo, y_lo);
    const bool in_x = x_lo == lo, in_y = y_lo == lo;
    uint32_t hi = kEnd;
    if (i < x.size()) hi = std::min(hi, in_x ? x[i].end : x_lo);
    if (j < y.size()) hi = std::min(hi, in_y ? y[j].end : y_lo);
    const Clock clock = std::max(in_x ? x[i].clock : Clock{}, in_y ? y[j].clock : Clock{});
    auto& o = out.ranges_;
    if (!o.empty() && o.back().end == lo && o.back().clock == clock) {
      o.back().end = hi;
    } else {
      o.push_back({lo, hi, clock});
    }
    pos = hi;
  }
  return out;
}

SharedClock join(const SharedClock& a, const SharedClock& b) {
  if (!b || b->empty() || a == b) return a;
  if (!a || a->empty()) return b;
  if (a->descends_from(*b)) return a;
  if (b->descends_from(*a)) return b;
  if (a->covers(*b)) return a;
  if (b->covers(*a)) return b;
  return make_clock(RangeClock::merged(*a, *b));
}

}  // namespace barracuda::engine
