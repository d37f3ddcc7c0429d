#include "engine/earlier_launches.h"

#include <algorithm>

#include "engine/conflict_checker.h"

namespace barracuda::engine {
namespace {

// Races held per worker until the launch ends (each a Race and two stamps): a bound on their memory.
constexpr size_t kMaxCandidates = size_t{1} << 20;

bool contains(const std::vector<LaunchSeq>& sorted, LaunchSeq sequence) {
  return std::binary_search(sorted.begin(), sorted.end(), sequence);
}

// Two launches share no block, cluster or warp: only gpu- and system-scoped strong accesses are
// morally strong across them; across two devices only system-scoped ones.
bool covers_other_launches(const AccessKind& kind, bool other_device) {
  return kind.strong && kind.memory_scope() >= (other_device ? MemoryScope::kSystem : MemoryScope::kGpu);
}

bool conflicts(const AccessKind& earlier, const AccessKind& current, bool other_device) {
  if (!earlier.write && !current.write) return false;
  // A volatile store and a volatile load: morally strong (relaxed.sys) exactly when the load spins.
  if (earlier.volatile_pair_with(current)) return !earlier.spins_with(current);
  return !(covers_other_launches(earlier, other_device) && covers_other_launches(current, other_device));
}

}  // namespace

void EarlierLaunches::begin(const LaunchOrder& order, DeviceId device) {
  std::vector<LaunchSeq> open = order.still_open;
  std::sort(open.begin(), open.end());
  const bool any_open = std::any_of(launches_.begin(), launches_.end(),
                                    [&](const Remembered& r) { return contains(open, r.sequence); });
  if (!any_open) {
    launches_.clear();
    pages_.clear();
  }
  std::vector<LaunchSeq> concurrent = order.concurrent_with;
  std::sort(concurrent.begin(), concurrent.end());
  concurrent_count_ = 0;
  for (Remembered& r : launches_) {
    r.concurrent = contains(concurrent, r.sequence);
    r.other_device = r.device != device;
    concurrent_count_ += r.concurrent;
  }
}

void EarlierLaunches::check(uint64_t word, const Stamp& current, ThreadCoord current_thread, uint32_t size,
                            const LaunchSyncPoints& current_sync, RaceLog& races,
                            std::vector<CrossLaunchCandidate>& candidates) const {
  const auto page = pages_.find(word / kWordsPerPage);
  if (page == pages_.end()) return;
  const EarlierWord& earlier = (*page->second)[word % kWordsPerPage];
  report(earlier.write, word, current, current_thread, size, current_sync, races, candidates);
  if (current.kind.write) report(earlier.read, word, current, current_thread, size, current_sync, races, candidates);
}

bool EarlierLaunches::ordered_by_sync(const CrossLaunchCandidate& candidate, const LaunchSyncPoints& current) const {
  // The earlier thread acquired what the current launch's releases published (held for this).
  return LaunchSyncPoints::acquired_what_other_published(launches_[candidate.earlier_launch].sync,
                                                         candidate.earlier_thread, candidate.earlier_clock, current,
                                                         candidate.current_thread, candidate.current_clock);
}

void EarlierLaunches::report(const EarlierAccess& earlier, uint64_t word, const Stamp& current,
                             ThreadCoord current_thread, uint32_t size, const LaunchSyncPoints& current_sync,
                             RaceLog& races, std::vector<CrossLaunchCandidate>& candidates) const {
  if (earlier.launch == 0) return;
  const Remembered& launch = launches_[earlier.launch - 1];
  if (!launch.concurrent || !conflicts(earlier.kind, current.kind, launch.other_device)) return;
  Race race;
  race.first_kernel = launch.kernel;
  race.first_device = launch.device;
  // Two concurrent launches on one device run their blocks side by side, which is what inter-block
  // means; on two devices the race is inter-device.
  race.race_class = launch.other_device ? RaceClass::kInterDevice : RaceClass::kInterBlock;
  race.hazard = hazard_between(earlier.kind, current.kind);
  race.sides = atomic_plain_sides(earlier.kind, current.kind);
  race.space = MemorySpace::kGlobal;
  race.first_site = earlier.site;
  race.second_site = current.site;
  race.first_thread = {static_cast<BlockId>(raw(earlier.thread) / launch.padded_threads_per_block),
                       raw(earlier.thread) % launch.padded_threads_per_block};
  race.second_thread = current_thread;
  race.address = word * 4;
  race.size = size;
  // The current thread acquired, before this access, what the earlier launch published: ordered.
  if (LaunchSyncPoints::acquired_what_other_published(current_sync, current.thread, current.clock, launch.sync,
                                                      earlier.thread, earlier.clock)) {
    return;
  }
  // Only a release still to come in the current launch could order the pair, and only if the earlier
  // thread acquired something before its access; past a bound the pair counts as a race (never lost).
  if (launch.sync.acquired_before(earlier.thread, earlier.clock) && candidates.size() < kMaxCandidates) {
    candidates.push_back({race, earlier.launch - 1, earlier.thread, earlier.clock, current.thread, current.clock});
    return;
  }
  races.add(race);
}

void EarlierLaunches::remember(const LaunchInfo& launch, const PagedShadow& global, LaunchSyncPoints sync) {
  launches_.push_back({launch.order.sequence, launch.kernel, launch.padded_threads_per_block(), launch.device, false,
                       false, std::move(sync)});
  const auto index = static_cast<uint32_t>(launches_.size());
  auto as_earlier = [index](const Stamp& s) { return EarlierAccess{index, s.thread, s.site, s.kind, 0, s.clock}; };
  global.for_each_page([&](uint64_t page_index, const ShadowPage& page) {
    std::unique_ptr<Page>& kept = pages_[page_index];
    if (!kept) kept = std::make_unique<Page>();
    for (uint32_t i = 0; i < kWordsPerPage; ++i) {
      const CellAccesses accesses = remembered_accesses(page.cell(i));
      if (accesses.write) (*kept)[i].write = as_earlier(*accesses.write);
      if (accesses.read) (*kept)[i].read = as_earlier(*accesses.read);
    }
  });
}

}  // namespace barracuda::engine
