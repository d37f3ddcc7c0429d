#pragma once
// Everything the engine tracks about one thread block: its threads' clocks and knowledge, its
// warps, its barrier, its block-scope synchronisation locations and its shared-memory shadow.
// A block is owned by one worker, so none of this is locked.
//
// Happens-before is kept compressed in three layers, from cheapest to most general:
//  1. Block barrier: completing a barrier lifts every thread's clock to max+1 of the block and
//     records the old max as `floor`; a block-mate's event with clock <= floor is then ordered.
//  2. Warp sync (bar.warp.sync, and every instruction in the lockstep model): the same trick per
//     warp (`converged`), or a 32x32 lane matrix while a warp's lanes sync in subsets (diverged).
//  3. Knowledge acquired through release/acquire: a shared RangeClock per thread, usually null.
#include <array>
#include <bit>
#include <memory>
#include <memory_resource>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "barracuda/record.h"
#include "engine/block_acquires.h"
#include "engine/flag_observations.h"
#include "engine/knowledge.h"
#include "engine/launch.h"
#include "engine/shadow_cell.h"
#include "engine/sync_map.h"

namespace barracuda::engine {

// A thread's last global read checked in full, and the write generation of its shadow stripe when it
// was. The same read again (same bytes, site and kind) at the same clock, with no write by the thread
// and none checked in the stripe since, would store the very stamp the cell already holds and meet
// the same last write: FastTrack's same-epoch read, skipped (a spinning look-back re-reads its
// predecessors' status words thousands of times, each under the lock every spinner contends for).
// The generation is looked up only once the same read came twice: streaming reads, which never
// repeat, pay a comparison and no lookup.
struct CheckedRead {
  uint64_t address = 0;
  uint32_t write_generation = 0;
  Clock clock{};  // 0: none (clocks start at 1)
  SiteId site{};
  AccessKind kind{};
  uint16_t size = 0;
  bool generation_known = false;  // write_generation was taken before this read was checked

  bool same_read(uint64_t a, uint32_t s, SiteId at, const AccessKind& k, Clock now) const {
    return raw(clock) != 0 && clock == now && address == a && size == s && site == at &&
           std::bit_cast<uint16_t>(kind) == std::bit_cast<uint16_t>(k);
  }
};

struct ThreadState {
  Clock clock{1};  // clocks start at 1: 0 means "nothing known" in every clock vector
  CheckedRead last_checked_read;
  Knowledge knowledge;
  // Fence-adjacency inference: the last read (a read then a fence acquires from its address)...
  uint64_t last_read_address = 0;
  bool has_last_read = false;
  MemoryScope last_read_scope = MemoryScope::kSystem;
  MemorySpace last_read_space = MemorySpace::kGlobal;
  // A fence after that read that was narrower than the read's scope leaves it open: a wider fence
  // later still completes the acquire pattern (PTX does not need the fence right after the read:
  // `atomicAdd(flag, 0); __threadfence_block(); __threadfence();` acquires at gpu scope).
  bool last_read_fenced = false;
  MemoryScope last_read_fence_scope = MemoryScope::kCta;
  // ...and a fence waiting for the next write, which releases at the widest pending fence's scope.
  bool release_pending = false;
  MemoryScope release_scope = MemoryScope::kSystem;
  // The last read was a spin on a legacy atomic that acquired in the unfenced view only (its site is
  // the origin); an acquire fence of its scope after it makes the origin the one before it again.
  bool last_read_spin = false;
  UnfencedOrigin origin_before_spin;
  bool no_unfenced_before_spin = false;  // the unfenced view equalled `strict` before that spin
};

struct WarpState {
  uint32_t live_mask = 0;     // lanes that exist and have not exited
  uint32_t arrived_mask = 0;  // lanes waiting at the block's pending barrier
  bool exited = false;
  uint32_t path_mask = 0;     // lockstep: lanes on the warp's current branch path
  Clock converged{};  // while `diverged` is null: every lane knows every lane up to this clock
  std::unique_ptr<std::array<Clock, kWarpSize * kWarpSize>> diverged;  // [t * 32 + u]: t knows u up to

  Clock lane_knows(uint32_t t, uint32_t u) const { return diverged ? (*diverged)[t * kWarpSize + u] : converged; }
};

// A barrier for part of the block (`bar.sync id, count` with count below the block's size, and
// `bar.arrive id, count`; PTX named barriers): it completes when `expected` threads arrived. The
// threads that wait then know what every arrived thread did; those that only arrived go on at once.
struct PartialBarrier {
  uint32_t expected = 0;
  uint32_t arrived = 0;           // threads arrived so far, waiting or not
  std::vector<uint32_t> waiting;  // per warp: lanes in bar.sync
  std::vector<uint32_t> arrivals;  // per warp: lanes counted (waiting or passed by with bar.arrive)
  // What the arrived threads knew and did when they arrived (RangeClock input, merged at completion).
  ClockRanges strict, wide, unfenced;
  bool any_unfenced = false;  // an arrived thread had unfenced knowledge: `unfenced` is filled
  UnfencedOrigin origin;
  Clock latest{};
  Knowledge completed;  // what the last completion published (barrier.cluster.wait after completion)
};
inline constexpr uint32_t kHardwareBarriers = 16;  // barrier ids 0..15 per CTA
// The block's share of the cluster barrier (barrier.cluster.arrive/wait) is kept as one more partial
// barrier: its threads are ordered with each other; other blocks of the cluster are not modelled.
inline constexpr uint32_t kClusterBarrierSlot = kHardwareBarriers;

// How threads reach a partial barrier.
enum class Arrival : uint8_t {
  kWait,         // bar.sync: arrives and waits for the barrier to complete
  kPass,         // bar.arrive, barrier.cluster.arrive: arrives, publishing what it did so far
  kPassRelaxed,  // barrier.cluster.arrive.relaxed: arrives, publishing nothing
};

// Per-worker facts about barriers, filled by the blocks the worker owns.
struct BarrierLog {
  std::unordered_set<uint32_t> executed;  // barrier sites that completed
  std::unordered_set<uint32_t> useful;    // barrier sites that ordered a conflicting pair
};

class BlockState {
 public:
  // `block`: the block's shape (the launch's, or its child grid's).
  BlockState(const LaunchInfo& launch, BlockId id, Dim3 block, BarrierLog& barriers);
  ~BlockState();

  BlockId id() const { return id_; }
  ThreadId thread_id(uint32_t local) const { return static_cast<ThreadId>(first_thread_ + local); }
  bool contains(ThreadId t) const { return raw(t) - first_thread_ < threads_per_block_; }
  ThreadState& thread(uint32_t local) { return threads_[local]; }
  const ThreadState& thread(uint32_t local) const { return threads_[local]; }
  WarpState& warp(uint32_t index) { return warps_[index]; }
  FlagObservations& flags() { return flags_; }
  uint32_t padded_threads() const { return static_cast<uint32_t>(threads_.size()); }
  uint32_t warp_count() const { return static_cast<uint32_t>(warps_.size()); }
  // Lanes of a warp that exist in the launch's block shape.
  uint32_t existing_lanes(uint32_t warp) const;
  // Threads that have not exited.
  uint32_t live_threads() const;

  // Does local thread `local` know `other`'s event at `clock`, i.e. is it ordered before now?
  // A barrier that provides the order is marked useful.
  bool knows(uint32_t local, ThreadId other, Clock clock) {
    // Inline: a block-mate's access before the last barrier is by far the most common answer.
    if (contains(other) && clock <= floor_) {
      if (clock <= useful_above_ || clock > useful_up_to_) mark_useful_barrier(clock);
      return true;
    }
    return knows_beyond_barrier(local, other, clock);
  }
  // The same question without marking the barrier that answers it useful (a question the report
  // asks about, not a pair the barrier ordered).
  bool ordered_after(uint32_t local, ThreadId other, Clock clock) const {
    return (contains(other) && clock <= floor_) || knows_beyond_barrier(local, other, clock);
  }
  // The same question under the scope-agnostic view (Knowledge::wide).
  bool knows_ignoring_scopes(uint32_t local, ThreadId other, Clock clock) const;
  // The same question had every spin on a legacy atomic been followed by its acquire fence
  // (Knowledge::unfenced); only asked after knows() said no.
  bool knows_assuming_spins(uint32_t local, ThreadId other, Clock clock) const {
    const SharedClock& unfenced = threads_[local].knowledge.unfenced;
    return unfenced && clock <= unfenced->at(other);
  }

  // Joins the lanes of `mask` of a warp: each learns what the others know and did.
  void warp_sync(uint32_t warp, uint32_t mask);
  // Joins every thread of the block and starts a new barrier interval (the pending barrier's).
  void complete_barrier();
  // kBarriersPassed: the block's threads passed `passed` barriers the device counted and did not log.
  // No record of the block came between those barriers, so one completion stands for all it missed.
  void complete_counted_barriers(uint64_t passed);
  bool barrier_pending() const { return barrier_pending_; }
  SiteId pending_barrier_site() const { return pending_site_; }
  void arrive(uint32_t warp, uint32_t lanes, SiteId site);
  // True when every live lane of every live warp has arrived.
  bool all_arrived() const;

  // Lanes of `warp` arrive at partial barrier `id` (<= kClusterBarrierSlot) expecting `expected`
  // threads; completes it when that many arrived.
  void arrive_partial(uint32_t id, uint32_t expected, uint32_t warp, uint32_t lanes, Arrival arrival);
  // barrier.cluster.wait: lanes whose arrival completed learn what it published, the others wait.
  void cluster_wait(uint32_t warp, uint32_t lanes);
  // `lanes` of `warp` logged again while waiting at a partial barrier: it let them through on the
  // GPU, so it completes now with whoever waits (the count the engine kept was off).
  void settle_partial(uint32_t warp, uint32_t lanes);
  // Lanes of `warp` waiting at a pending barrier, the block's or a partial one.
  uint32_t waiting_lanes(uint32_t warp) const;

  void release(uint32_t local, uint64_t address, MemoryScope scope, SyncMap& sync);
  // Returns whether what it acquired had no unfenced part (the location's releases were all fenced).
  bool acquire(uint32_t local, uint64_t address, MemoryScope scope, const SyncMap& sync);
  // A read of a legacy atomic with no acquire of its own: only the unfenced view acquires, at the
  // atomic's scope. True when it learnt something the thread did not know strictly.
  bool acquire_unfenced(uint32_t local, uint64_t address, MemoryScope scope, const SyncMap& sync);
  // Synchronisation through a location in the block's own shared memory (an mbarrier): other
  // blocks have their own location at the same offset, so nothing reaches the shared SyncMap.
  void release_in_block(uint32_t local, uint64_t offset);
  void acquire_in_block(uint32_t local, uint64_t offset);

  // The block's gpu-scope acquires of global memory, handed on to block-mates ordered after them.
  BlockAcquires& gpu_acquires() { return gpu_acquires_; }

  // The shadow cell of shared-memory word `word`, growing the shadow on demand.
  ShadowCell& shared_word(uint64_t word) {
    if (word >= shared_.size()) grow_shared(word);
    return shared_[word];
  }

 private:
  // What thread `local` knows through the block barrier, its warp and its own clock.
  void append_own_ranges(uint32_t local, ClockRanges& ranges) const;
  SharedClock snapshot(uint32_t local, const SharedClock& knowledge) const;
  void complete_partial(PartialBarrier& barrier);
  void mark_useful_barrier(Clock clock);
  // Barriers that are part of a synchronisation with other blocks (a grid-wide sync) order accesses
  // across blocks through the clocks a release carries, which knows() does not attribute to them: the
  // latest barrier before a release, and the first after an acquire, beyond the block are useful.
  void mark_barrier_before_release_useful();
  void grow_shared(uint64_t word);
  bool knows_beyond_barrier(uint32_t local, ThreadId other, Clock clock) const;

  struct CompletedBarrier {
    Clock floor;
    SiteId site;
    bool useful;  // already reported to BarrierLog::useful
  };

  BlockId id_;
  uint32_t cluster_;
  // The launch has clusters of several blocks. Without, a block is its own cluster: cluster-scope
  // releases reach no thread cta_sync_ does not, so the shared cluster domain is skipped.
  bool clustered_;
  uint32_t first_thread_;
  uint32_t threads_per_block_;
  uint32_t block_threads_;  // real threads (the last warp may be partial)
  uint32_t shared_words_hint_;  // LaunchInfo::shared_bytes in words
  BarrierLog& barriers_;
  std::vector<ThreadState> threads_;
  std::vector<WarpState> warps_;
  Clock floor_{};
  std::vector<CompletedBarrier> completed_;  // floors increase
  // Clocks in (useful_above_, useful_up_to_] were ordered by a barrier already marked useful.
  Clock useful_above_{};
  Clock useful_up_to_{};
  bool barrier_pending_ = false;
  SiteId pending_site_{};
  uint64_t barriers_completed_ = 0;  // logged or counted on the device
  bool acquired_beyond_block_ = false;  // since the latest barrier (mark_barrier_before_release_useful)
  std::array<PartialBarrier, kClusterBarrierSlot + 1> partial_;
  uint32_t partial_waiting_ = 0;  // bit i: partial barrier i has threads waiting (checked per record)
  // Block-scope synchronisation locations (strict, unfenced and origin; wide is kept by SyncMap).
  // A lock-heavy block releases to every lock its threads took (hash_table): the map's nodes come from
  // a buffer freed whole with the block (nothing is erased from the map before that).
  std::pmr::monotonic_buffer_resource cta_sync_memory_;
  std::pmr::unordered_map<uint64_t, Knowledge> cta_sync_{&cta_sync_memory_};
  BlockAcquires gpu_acquires_;
  FlagObservations flags_;
  std::vector<ShadowCell> shared_;
};

}  // namespace barracuda::engine
