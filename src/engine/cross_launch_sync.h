#pragma once
// Message passing between launches that run at the same time: a consumer kernel acquiring a flag that
// a producer kernel in another stream releases (or the producer launched first). The engine checks
// launches one after the other, so such a release orders nothing across them by itself, and the
// cross-launch check (earlier_launches.h) would report the consumer's read of the published data as a
// race with the producer's write.
//
// Each launch keeps, per thread and global location it synchronised on at gpu or system scope, the
// clock of its first acquire and of its last release. Clocks move on at both (BlockState), so an
// access with a clock above an acquire's came after it, and one with a clock at most a release's came
// before it. A race between two concurrent launches' accesses is then dropped when one thread's
// access came before a release of a location the other thread had acquired before its access. Like
// the engine's ordering of synchronisation inside a launch, this takes the acquire to have read from
// the release; unlike it, the order of the two in time is not known (tickets count per launch).
// A thread ordered after a block-mate's acquire (a leader spins on the flag, then __syncthreads) gets
// an acquire point of its own at its next access (block_acquires.h).
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "engine/ids.h"
#include "engine/range_clock.h"

namespace barracuda::engine {

class LaunchSyncPoints {
 public:
  // `before` is the thread's clock before the operation: what its earlier accesses carry.
  void note_release(ThreadId thread, uint64_t address, Clock before);
  void note_acquire(ThreadId thread, uint64_t address, Clock before);
  void merge(LaunchSyncPoints&& other);
  bool empty() const { return points_.empty(); }
  // The locations some thread released.
  std::vector<uint64_t> released_addresses() const;
  // What the releases of `address` published over the launch (the sync map's strict knowledge).
  void note_published(uint64_t address, SharedClock published) { published_[address] = std::move(published); }

  // Whether `thread` acquired any location before its access at `clock`: only then can a release the
  // other launch makes later order the two.
  bool acquired_before(ThreadId thread, Clock clock) const;
  // Whether `thread` of `acquirer` acquired, before its access at `clock`, a location whose releases
  // in `publisher` published the access of `other_thread` at `other_clock`.
  static bool acquired_what_other_published(const LaunchSyncPoints& acquirer, ThreadId thread, Clock clock,
                                            const LaunchSyncPoints& publisher, ThreadId other_thread, Clock other_clock);

 private:
  struct Point {
    uint64_t address = 0;
    Clock first_acquire{};  // 0: none
    Clock last_release{};   // 0: none
  };
  Point& point(ThreadId thread, uint64_t address);
  const std::vector<Point>* points_of(ThreadId thread) const;
  // Whether `thread`'s access at `clock` came before a release of `address` in this launch.
  bool published_by_release(uint64_t address, ThreadId thread, Clock clock) const;

  std::unordered_map<uint32_t, std::vector<Point>> points_;  // by thread: few locations each
  std::unordered_map<uint64_t, SharedClock> published_;
};

}  // namespace barracuda::engine
