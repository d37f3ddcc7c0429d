#include "engine/cross_launch_sync.h"

#include <algorithm>

namespace barracuda::engine {
namespace {

bool has(Clock clock) { return raw(clock) != 0; }

}  // namespace

LaunchSyncPoints::Point& LaunchSyncPoints::point(ThreadId thread, uint64_t address) {
  std::vector<Point>& points = points_[raw(thread)];
  auto found = std::find_if(points.begin(), points.end(), [&](const Point& p) { return p.address == address; });
  if (found != points.end()) return *found;
  return points.emplace_back(Point{address, {}, {}});
}

void LaunchSyncPoints::note_release(ThreadId thread, uint64_t address, Clock before) {
  Point& p = point(thread, address);
  p.last_release = static_cast<Clock>(std::max(raw(p.last_release), raw(before)));
}

void LaunchSyncPoints::note_acquire(ThreadId thread, uint64_t address, Clock before) {
  Point& p = point(thread, address);
  if (!has(p.first_acquire) || raw(before) < raw(p.first_acquire)) p.first_acquire = before;
}

std::vector<uint64_t> LaunchSyncPoints::released_addresses() const {
  std::vector<uint64_t> addresses;
  for (const auto& [thread, points] : points_) {
    for (const Point& p : points) {
      if (has(p.last_release)) addresses.push_back(p.address);
    }
  }
  std::sort(addresses.begin(), addresses.end());
  addresses.erase(std::unique(addresses.begin(), addresses.end()), addresses.end());
  return addresses;
}

void LaunchSyncPoints::merge(LaunchSyncPoints&& other) {
  for (auto& [thread, points] : other.points_) {
    for (const Point& p : points) {
      if (has(p.last_release)) note_release(static_cast<ThreadId>(thread), p.address, p.last_release);
      if (has(p.first_acquire)) note_acquire(static_cast<ThreadId>(thread), p.address, p.first_acquire);
    }
  }
  other.points_.clear();
  for (auto& [address, published] : other.published_) published_[address] = join(published_[address], published);
  other.published_.clear();
}

const std::vector<LaunchSyncPoints::Point>* LaunchSyncPoints::points_of(ThreadId thread) const {
  const auto found = points_.find(raw(thread));
  return found == points_.end() ? nullptr : &found->second;
}

bool LaunchSyncPoints::published_by_release(uint64_t address, ThreadId thread, Clock clock) const {
  if (const auto found = published_.find(address); found != published_.end() && found->second &&
                                                     raw(found->second->at(thread)) >= raw(clock)) {
    return true;
  }
  const std::vector<Point>* points = points_of(thread);
  if (points == nullptr) return false;
  return std::any_of(points->begin(), points->end(), [&](const Point& p) {
    return p.address == address && has(p.last_release) && raw(clock) <= raw(p.last_release);
  });
}

bool LaunchSyncPoints::acquired_what_other_published(const LaunchSyncPoints& acquirer, ThreadId thread, Clock clock,
                                                     const LaunchSyncPoints& publisher, ThreadId other_thread,
                                                     Clock other_clock) {
  const std::vector<Point>* points = acquirer.points_of(thread);
  if (points == nullptr) return false;
  return std::any_of(points->begin(), points->end(), [&](const Point& p) {
    return has(p.first_acquire) && raw(clock) > raw(p.first_acquire) &&
           publisher.published_by_release(p.address, other_thread, other_clock);
  });
}

bool LaunchSyncPoints::acquired_before(ThreadId thread, Clock clock) const {
  const std::vector<Point>* points = points_of(thread);
  return points != nullptr && std::any_of(points->begin(), points->end(), [&](const Point& p) {
           return has(p.first_acquire) && raw(clock) > raw(p.first_acquire);
         });
}

}  // namespace barracuda::engine
