#include "engine/block_state.h"

#include <optional>

#include <algorithm>
#include <bit>
#include <utility>

#include "barracuda/warp_lanes.h"

namespace barracuda::engine {
namespace {

bool scope_reaches(MemoryScope scope, MemoryScope level) { return static_cast<int>(scope) >= static_cast<int>(level); }

}  // namespace

BlockState::BlockState(const LaunchInfo& launch, BlockId id, Dim3 block, BarrierLog& barriers)
    : id_(id),
      cluster_(launch.cluster_of(id)),
      clustered_(launch.cluster.volume() > 1),
      first_thread_(raw(id) * launch.padded_threads_per_block()),
      threads_per_block_(launch.padded_threads_per_block()),
      block_threads_(static_cast<uint32_t>(block.volume())),
      shared_words_hint_((launch.shared_bytes + 3) / 4),
      barriers_(barriers),
      threads_((block_threads_ + kWarpSize - 1) / kWarpSize * kWarpSize),
      warps_((block_threads_ + kWarpSize - 1) / kWarpSize),
      gpu_acquires_(threads_per_block_) {
  for (uint32_t w = 0; w < warps_.size(); ++w) warps_[w].live_mask = warps_[w].path_mask = existing_lanes(w);
}

BlockState::~BlockState() {
  for (ShadowCell& cell : shared_) reset_cell(cell);
}

uint32_t BlockState::existing_lanes(uint32_t warp) const { return existing_lanes_of_warp(block_threads_, warp); }

uint32_t BlockState::live_threads() const {
  uint32_t live = 0;
  for (const WarpState& w : warps_) live += static_cast<uint32_t>(std::popcount(w.live_mask));
  return live;
}

void BlockState::mark_useful_barrier(Clock clock) {
  // Conflicts come in runs ordered by the same barrier: knows() skips the search while they do.
  // The barrier that ordered an event at `clock` is the first one whose floor covers it.
  auto it = std::lower_bound(completed_.begin(), completed_.end(), clock,
                             [](const CompletedBarrier& b, Clock c) { return b.floor < c; });
  if (it == completed_.end()) return;
  if (!it->useful) {
    it->useful = true;
    barriers_.useful.insert(raw(it->site));
  }
  useful_above_ = it == completed_.begin() ? Clock{} : std::prev(it)->floor;
  useful_up_to_ = it->floor;
}

void BlockState::mark_barrier_before_release_useful() {
  // The block's accesses before its latest barrier reach other blocks through this release (a
  // grid-wide sync's first __syncthreads, then one thread's arrival): that barrier orders them.
  if (completed_.empty() || completed_.back().useful) return;
  completed_.back().useful = true;
  barriers_.useful.insert(raw(completed_.back().site));
}

bool BlockState::knows_beyond_barrier(uint32_t local, ThreadId other, Clock clock) const {
  const ThreadState& self = threads_[local];
  if (contains(other)) {
    const uint32_t other_local = raw(other) - first_thread_;
    const uint32_t warp = local / kWarpSize;
    if (other_local / kWarpSize == warp &&
        clock <= warps_[warp].lane_knows(local % kWarpSize, other_local % kWarpSize)) {
      return true;
    }
  }
  return self.knowledge.strict && clock <= self.knowledge.strict->at(other);
}

bool BlockState::knows_ignoring_scopes(uint32_t local, ThreadId other, Clock clock) const {
  const ThreadState& self = threads_[local];
  return self.knowledge.wide && clock <= self.knowledge.wide->at(other);
}

void BlockState::warp_sync(uint32_t warp_index, uint32_t mask) {
  WarpState& warp = warps_[warp_index];
  mask &= warp.live_mask;
  if (mask == 0) return;
  const uint32_t base = warp_index * kWarpSize;
  Clock latest{};
  bool same = true;
  const Knowledge& first = threads_[base + std::countr_zero(mask)].knowledge;
  for (uint32_t m = mask; m; m &= m - 1) {
    const ThreadState& t = threads_[base + std::countr_zero(m)];
    latest = std::max(latest, t.clock);
    same = same && same_knowledge(t.knowledge, first);
  }
  Knowledge joined = join(Knowledge{}, first);
  const Knowledge* previous = &first;
  for (uint32_t m = mask & (mask - 1); m && !same; m &= m - 1) {
    const Knowledge& knowledge = threads_[base + std::countr_zero(m)].knowledge;
    if (same_knowledge(knowledge, *previous)) continue;  // joined in already
    joined = join(joined, knowledge);
    previous = &knowledge;
  }
  if (mask == warp.live_mask) {
    // Everyone still alive joins: back to (or stay in) the converged form.
    warp.diverged.reset();
    warp.converged = latest;
  } else {
    if (!warp.diverged) {
      warp.diverged = std::make_unique<std::array<Clock, kWarpSize * kWarpSize>>();
      warp.diverged->fill(warp.converged);
    }
    auto& rows = *warp.diverged;
    std::array<Clock, kWarpSize> merged{};
    for (uint32_t m = mask; m; m &= m - 1) {
      const uint32_t t = std::countr_zero(m);
      for (uint32_t u = 0; u < kWarpSize; ++u) merged[u] = std::max(merged[u], rows[t * kWarpSize + u]);
    }
    for (uint32_t m = mask; m; m &= m - 1) merged[std::countr_zero(m)] = latest;
    for (uint32_t m = mask; m; m &= m - 1) {
      std::copy(merged.begin(), merged.end(), rows.begin() + std::countr_zero(m) * kWarpSize);
    }
  }
  for (uint32_t m = mask; m; m &= m - 1) {
    ThreadState& t = threads_[base + std::countr_zero(m)];
    t.clock = next(latest);
    if (!same_knowledge(t.knowledge, joined)) t.knowledge = joined;
  }
}

void BlockState::arrive(uint32_t warp, uint32_t lanes, SiteId site) {
  warps_[warp].arrived_mask |= lanes & warps_[warp].live_mask;
  if (!barrier_pending_) pending_site_ = site;  // diagnostics name the first arrival's barrier
  barrier_pending_ = true;
}

bool BlockState::all_arrived() const {
  return std::all_of(warps_.begin(), warps_.end(),
                     [](const WarpState& w) { return w.exited || w.arrived_mask == w.live_mask; });
}

void BlockState::complete_barrier() {
  const SiteId site = pending_site_;
  // After the block's first barrier its threads mostly hold one knowledge (this join's): compared by
  // pointer, not joined thread by thread (each join and copy of a shared clock is an atomic count).
  Clock latest{};
  bool same = true;
  for (const ThreadState& t : threads_) {
    latest = std::max(latest, t.clock);
    same = same && same_knowledge(t.knowledge, threads_.front().knowledge);
  }
  Knowledge joined = join(Knowledge{}, threads_.front().knowledge);
  // Threads that share the knowledge of the thread before them add nothing to the join: where one
  // thread acquired from outside the block (thread 0 of a grid sync) the others still share the last
  // barrier's, and joining each of them again walked the acquired clock's ranges 255 times per
  // barrier (BM_GridSyncOneRead: 82 ms, two thirds of it in RangeClock::covers).
  for (size_t i = 1; i < threads_.size() && !same; ++i) {
    if (same_knowledge(threads_[i].knowledge, threads_[i - 1].knowledge)) continue;
    joined = join(joined, threads_[i].knowledge);
  }
  floor_ = latest;
  // A barrier after an acquire from outside the block hands it to the block (a grid-wide sync's
  // second __syncthreads): it orders what other blocks did before the block's later accesses.
  const bool hands_on_acquire = std::exchange(acquired_beyond_block_, false);
  completed_.push_back({latest, site, hands_on_acquire});
  ++barriers_completed_;
  // A completion the device counted names no barrier of its own: none to warn about as redundant.
  if (barrier_pending_) barriers_.executed.insert(raw(site));
  if (hands_on_acquire) barriers_.useful.insert(raw(site));
  for (ThreadState& t : threads_) {
    t.clock = next(latest);
    if (!same_knowledge(t.knowledge, joined)) t.knowledge = joined;
  }
  for (WarpState& w : warps_) {
    w.arrived_mask = 0;
    w.diverged.reset();
    w.converged = Clock{};  // the floor now covers everything the warp knew
  }
  barrier_pending_ = false;
}

void BlockState::complete_counted_barriers(uint64_t passed) {
  if (passed <= barriers_completed_) return;
  complete_barrier();
  barriers_completed_ = passed;
}

void BlockState::arrive_partial(uint32_t id, uint32_t expected, uint32_t warp, uint32_t lanes, Arrival arrival) {
  PartialBarrier& barrier = partial_[id];
  partial_waiting_ |= 1u << id;
  if (barrier.arrivals.empty()) {
    barrier.waiting.assign(warps_.size(), 0);
    barrier.arrivals.assign(warps_.size(), 0);
  }
  const uint32_t newcomers = lanes & warps_[warp].live_mask & ~barrier.arrivals[warp];
  barrier.expected = expected;
  barrier.arrivals[warp] |= newcomers;
  if (arrival == Arrival::kWait) barrier.waiting[warp] |= newcomers;
  barrier.arrived += static_cast<uint32_t>(std::popcount(newcomers));
  // Snapshotted now: a thread passing by with bar.arrive goes on, and what it does next is not
  // published by this barrier.
  for (uint32_t m = arrival == Arrival::kPassRelaxed ? 0 : newcomers; m; m &= m - 1) {
    const uint32_t local = warp * kWarpSize + std::countr_zero(m);
    ThreadState& t = threads_[local];
    barrier.latest = std::max(barrier.latest, t.clock);
    append_own_ranges(local, barrier.strict);
    append_own_ranges(local, barrier.wide);
    if (t.knowledge.strict) barrier.strict.insert(barrier.strict.end(), t.knowledge.strict->ranges().begin(), t.knowledge.strict->ranges().end());
    if (t.knowledge.wide) barrier.wide.insert(barrier.wide.end(), t.knowledge.wide->ranges().begin(), t.knowledge.wide->ranges().end());
    if (t.knowledge.unfenced) {
      barrier.unfenced.insert(barrier.unfenced.end(), t.knowledge.unfenced->ranges().begin(),
                              t.knowledge.unfenced->ranges().end());
    }
    if (t.knowledge.origin.valid) barrier.origin = t.knowledge.origin;
    if (arrival == Arrival::kPass) t.clock = next(t.clock);
  }
  if (barrier.arrived >= barrier.expected) complete_partial(barrier);
}

void BlockState::cluster_wait(uint32_t warp, uint32_t lanes) {
  PartialBarrier& barrier = partial_[kClusterBarrierSlot];
  const uint32_t pending = barrier.arrivals.empty() ? 0 : lanes & barrier.arrivals[warp];
  if (pending) barrier.waiting[warp] |= pending;
  for (uint32_t m = lanes & ~pending; m; m &= m - 1) {
    ThreadState& t = threads_[warp * kWarpSize + std::countr_zero(m)];
    t.knowledge = join(t.knowledge, barrier.completed);
  }
}

void BlockState::settle_partial(uint32_t warp, uint32_t lanes) {
  for (uint32_t ids = partial_waiting_; ids; ids &= ids - 1) {
    PartialBarrier& barrier = partial_[std::countr_zero(ids)];
    if (barrier.waiting[warp] & lanes) complete_partial(barrier);
  }
}

uint32_t BlockState::waiting_lanes(uint32_t warp) const {
  uint32_t lanes = barrier_pending_ ? warps_[warp].arrived_mask : 0;
  for (uint32_t ids = partial_waiting_; ids; ids &= ids - 1) {
    const PartialBarrier& barrier = partial_[std::countr_zero(ids)];
    if (warp < barrier.waiting.size()) lanes |= barrier.waiting[warp];
  }
  return lanes;
}

void BlockState::complete_partial(PartialBarrier& barrier) {
  SharedClock unfenced;
  if (!barrier.unfenced.empty()) {
    // Every thread's unfenced view contains its strict one: the strict ranges plus the extra ones.
    barrier.unfenced.insert(barrier.unfenced.end(), barrier.strict.begin(), barrier.strict.end());
    unfenced = make_clock(std::move(barrier.unfenced));
  }
  barrier.completed = {make_clock(std::move(barrier.strict)),
                       make_clock(std::move(barrier.wide)), std::move(unfenced), barrier.origin};
  const Knowledge& joined = barrier.completed;
  for (uint32_t w = 0; w < warps_.size(); ++w) {
    for (uint32_t m = barrier.waiting[w]; m; m &= m - 1) {
      ThreadState& t = threads_[w * kWarpSize + std::countr_zero(m)];
      t.clock = next(std::max(t.clock, barrier.latest));
      t.knowledge = join(t.knowledge, joined);
    }
  }
  barrier.arrived = 0;
  barrier.latest = Clock{};
  barrier.strict.clear();
  barrier.wide.clear();
  barrier.unfenced.clear();
  barrier.origin = {};
  std::fill(barrier.waiting.begin(), barrier.waiting.end(), 0u);
  std::fill(barrier.arrivals.begin(), barrier.arrivals.end(), 0u);
  partial_waiting_ &= ~(1u << static_cast<uint32_t>(&barrier - partial_.data()));
}

void BlockState::append_own_ranges(uint32_t local, ClockRanges& ranges) const {
  ranges.push_back({first_thread_, first_thread_ + threads_per_block_, floor_});
  const uint32_t warp = local / kWarpSize;
  const uint32_t warp_first = first_thread_ + warp * kWarpSize;
  const WarpState& w = warps_[warp];
  if (w.diverged) {
    for (uint32_t u = 0; u < kWarpSize; ++u) ranges.push_back({warp_first + u, warp_first + u + 1, w.lane_knows(local % kWarpSize, u)});
  } else {
    ranges.push_back({warp_first, warp_first + kWarpSize, w.converged});
  }
  ranges.push_back({first_thread_ + local, first_thread_ + local + 1, threads_[local].clock});
}

SharedClock BlockState::snapshot(uint32_t local, const SharedClock& knowledge) const {
  ClockRanges ranges;
  append_own_ranges(local, ranges);
  RangeClock own(std::move(ranges));
  if (!knowledge) return make_clock(std::move(own));
  return make_clock(RangeClock::merged(own, *knowledge));
}

void BlockState::release(uint32_t local, uint64_t address, MemoryScope scope, SyncMap& sync) {
  ThreadState& t = threads_[local];
  const SharedClock strict = snapshot(local, t.knowledge.strict);
  const SharedClock wide = t.knowledge.wide == t.knowledge.strict ? strict : snapshot(local, t.knowledge.wide);
  const Knowledge released{strict, nullptr, t.knowledge.unfenced ? snapshot(local, t.knowledge.unfenced) : nullptr,
                           t.knowledge.origin};
  Knowledge& cta = cta_sync_[address];
  cta = join(cta, released);
  if (scope_reaches(scope, MemoryScope::kCluster)) {
    mark_barrier_before_release_useful();
    if (clustered_) sync.release_to_cluster(cluster_, address, released);
  }
  sync.release_to_gpu(address, released, wide, scope_reaches(scope, MemoryScope::kGpu));
  // Later events of this thread must not look released.
  t.clock = next(t.clock);
}

namespace {

// What a location's levels reachable at `scope` released (strict, unfenced and origin; no wide).
// `cluster`: the block's cluster, or nullopt where the block is its own (cta_sync holds it all).
// `gpu_level`: what the location's gpu level holds, looked up once by the caller (SyncMap::acquire).
Knowledge released_to(const std::pmr::unordered_map<uint64_t, Knowledge>& cta_sync, std::optional<uint32_t> cluster,
                      uint64_t address, MemoryScope scope, const SyncMap& sync, const Knowledge& gpu_level) {
  Knowledge gained;
  if (auto it = cta_sync.find(address); it != cta_sync.end()) gained = it->second;
  if (cluster && scope_reaches(scope, MemoryScope::kCluster)) gained = join(gained, sync.acquire(*cluster, address));
  if (scope_reaches(scope, MemoryScope::kGpu)) gained = join(gained, gpu_level);
  gained.wide = nullptr;
  return gained;
}

}  // namespace

bool BlockState::acquire(uint32_t local, uint64_t address, MemoryScope scope, const SyncMap& sync) {
  ThreadState& t = threads_[local];
  const Knowledge gpu_level = sync.acquire(SyncMap::kGpuDomain, address);
  Knowledge gained =
      released_to(cta_sync_, clustered_ ? std::optional(cluster_) : std::nullopt, address, scope, sync, gpu_level);
  gained.wide = gpu_level.wide;
  t.knowledge = join(t.knowledge, gained);
  if (scope_reaches(scope, MemoryScope::kCluster)) acquired_beyond_block_ = true;
  // Later accesses carry a higher clock than earlier ones: a gpu-scope acquire may pair with a release
  // in a concurrent launch (cross_launch_sync.h). Moving a thread's own clock on orders nothing new.
  if (scope_reaches(scope, MemoryScope::kGpu)) t.clock = next(t.clock);
  return !gained.unfenced;
}

bool BlockState::acquire_unfenced(uint32_t local, uint64_t address, MemoryScope scope, const SyncMap& sync) {
  // Every legacy atomic comes here: most find no release (and no block-scope one) to learn from.
  if (!sync.may_hold(address) && (cta_sync_.empty() || !cta_sync_.contains(address))) return false;
  ThreadState& t = threads_[local];
  const Knowledge gpu_level =
      scope_reaches(scope, MemoryScope::kGpu) ? sync.acquire(SyncMap::kGpuDomain, address) : Knowledge{};
  const Knowledge gained =
      released_to(cta_sync_, clustered_ ? std::optional(cluster_) : std::nullopt, address, scope, sync, gpu_level);
  const SharedClock& found = gained.assumed();
  if (!found) return false;
  const SharedClock before = t.knowledge.assumed();
  const SharedClock after = join(before, found);
  if (after == before) return false;
  t.knowledge.unfenced = after;
  return true;
}

void BlockState::release_in_block(uint32_t local, uint64_t offset) {
  ThreadState& t = threads_[local];
  Knowledge& location = cta_sync_[offset];
  location = join(location, Knowledge{snapshot(local, t.knowledge.strict), nullptr,
                                      t.knowledge.unfenced ? snapshot(local, t.knowledge.unfenced) : nullptr,
                                      t.knowledge.origin});
  t.clock = next(t.clock);
}

void BlockState::acquire_in_block(uint32_t local, uint64_t offset) {
  auto it = cta_sync_.find(offset);
  if (it == cta_sync_.end()) return;
  // Block scope covers both threads: the scope-agnostic view gains exactly the same.
  ThreadState& t = threads_[local];
  Knowledge gained = it->second;
  gained.wide = gained.strict;
  t.knowledge = join(t.knowledge, gained);
}

void BlockState::grow_shared(uint64_t word) {
  // Sized for the launch's shared memory at the first shared access (blocks that never touch
  // shared memory pay nothing); grows if the launch under-declared it.
  shared_.resize(std::max<uint64_t>(word + 1, shared_words_hint_));
}

}  // namespace barracuda::engine
