#pragma once
// The global accesses of earlier launches that a later launch may run concurrently with (launches on
// other streams with nothing ordering them), kept past their end so that the later launch is
// checked against them: cross-launch races. Only launches whose stream order leaves such a later
// launch possible are remembered, and all are forgotten once every one of them is ordered before
// whatever comes next, so an application whose launches are all ordered keeps nothing.
//
// Written between launches only (begin, remember); read-only, hence lock-free, while workers
// check a launch.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/access.h"
#include "engine/cross_launch_sync.h"
#include "engine/findings.h"
#include "engine/launch.h"
#include "engine/paged_shadow.h"
#include "engine/race_log.h"

namespace barracuda::engine {

// One remembered access of an earlier launch.
struct EarlierAccess {
  uint32_t launch = 0;  // 1 + index into EarlierLaunches' launch table; 0: no access
  ThreadId thread{};    // in that launch's numbering
  SiteId site{};
  AccessKind kind{};
  uint16_t unused = 0;
  Clock clock{};  // the thread's, at the access (cross_launch_sync.h)
};
static_assert(sizeof(EarlierAccess) == 20, "five 32-bit fields, the fourth the kind and padding");

// A race between an access of the current launch and one of an earlier concurrent launch, held until
// the current launch has ended: only then is every synchronisation that may order them known
// (cross_launch_sync.h).
struct CrossLaunchCandidate {
  Race race;
  uint32_t earlier_launch = 0;  // index into EarlierLaunches' launch table
  ThreadId earlier_thread{};
  Clock earlier_clock{};
  ThreadId current_thread{};
  Clock current_clock{};
};

// Per 4-byte word of global memory: the last write of the remembered launches and one read.
struct EarlierWord {
  EarlierAccess write;
  EarlierAccess read;
};

class EarlierLaunches {
 public:
  // Before a launch on `device`: notes which remembered launches it is concurrent with, and forgets
  // everything once no remembered launch is still open.
  void begin(const LaunchOrder& order, DeviceId device);
  bool any_concurrent() const { return concurrent_count_ > 0; }
  // Checks an access of the current launch by `current_thread` to global word `word` (address / 4)
  // against the concurrent launches' accesses. `current_sync`: the sync points of the access's thread
  // so far. A pair the two launches' synchronisation cannot order goes to `races`; one that a release
  // later in the current launch may still order, to `candidates` (ordered_by_sync at its end).
  void check(uint64_t word, const Stamp& current, ThreadCoord current_thread, uint32_t size,
             const LaunchSyncPoints& current_sync, RaceLog& races, std::vector<CrossLaunchCandidate>& candidates) const;
  // After the current launch (whose synchronisation points are `current`): whether `candidate` is no
  // race because the two launches synchronised through a location (cross_launch_sync.h).
  bool ordered_by_sync(const CrossLaunchCandidate& candidate, const LaunchSyncPoints& current) const;
  // After a launch that a later one may overlap: remembers its global accesses and sync points.
  void remember(const LaunchInfo& launch, const PagedShadow& global, LaunchSyncPoints sync);
  uint64_t remembered_launches() const { return launches_.size(); }

 private:
  struct Remembered {
    LaunchSeq sequence{};
    std::string kernel;
    uint32_t padded_threads_per_block = 0;
    DeviceId device{};
    bool concurrent = false;    // with the current launch
    bool other_device = false;  // than the current launch's
    LaunchSyncPoints sync;
  };
  using Page = std::array<EarlierWord, kWordsPerPage>;

  void report(const EarlierAccess& earlier, uint64_t word, const Stamp& current, ThreadCoord current_thread,
              uint32_t size, const LaunchSyncPoints& current_sync, RaceLog& races,
              std::vector<CrossLaunchCandidate>& candidates) const;

  std::vector<Remembered> launches_;
  uint32_t concurrent_count_ = 0;
  std::unordered_map<uint64_t, std::unique_ptr<Page>> pages_;
};

}  // namespace barracuda::engine
