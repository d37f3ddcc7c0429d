#pragma once
// One engine worker: decodes the records of one GPU queue and applies them. Every block's records
// must reach one worker only (blocks are pinned to queues), so block state needs no lock; the
// global shadow and the cluster/gpu synchronisation locations are shared and thread-safe.
#include <memory>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

#include "barracuda/record_view.h"
#include "engine/block_state.h"
#include "engine/child_grids.h"
#include "engine/deferred_warps.h"
#include "engine/diagnostic_log.h"
#include "engine/earlier_launches.h"
#include "engine/paged_shadow.h"
#include "engine/race_log.h"
#include "engine/store_values.h"
#include "engine/sync_tickets.h"

namespace barracuda::engine {

class ConflictChecker;
struct RecordAccess;

// State shared by all workers during one launch.
struct LaunchShared {
  explicit LaunchShared(uint32_t workers) : tickets(workers) {}

  LaunchInfo launch;
  PagedShadow global;
  PagedShadow cluster;  // distributed shared memory, addressed as the records give it
  SyncMap sync;
  SyncTickets tickets;
  ChildGrids children;  // grids the launch's kernels launched from the device
  // Set while the launch may run concurrently with remembered earlier launches.
  const EarlierLaunches* earlier = nullptr;
  // Set for good once the run is being stopped (Engine::stop_checking): held-back records are dropped.
  std::atomic<bool> stopping{false};
};

class Worker {
 public:
  Worker(LaunchShared& shared, WorkerIndex index) : shared_(shared), index_(index) {}

  // Decodes and applies whole records from `slots` (32-byte slots, header + payload). A record
  // cut off at the end of the span is reported malformed; callers hand over whole records.
  // A ticketed record whose turn has not come is held back with the rest of its warp (worker_order.cpp).
  void consume(std::span<const RecordHeader> slots);

  // Applies held-back records whose turn has come; true when it applied any.
  bool retry_deferred();
  // The same, only when a bucket's turn may have come for a record held back here (SyncTickets'
  // note): cheap enough to call after every record, and from a drain thread whose queues are empty.
  bool catch_up() { return has_deferred() && shared_.tickets.poked(index_) && take_turns(std::nullopt); }
  bool has_deferred() const { return !deferred_.empty(); }
  // The lowest ticket held back here in each bucket that holds one.
  std::vector<SyncTicket> lowest_deferred_tickets() const { return deferred_.lowest_tickets(); }
  // End of launch, when nothing can arrive any more: applies every held-back record in warp order.
  // Returns false where the run began stopping first (Engine::stop_checking): the records stay held,
  // for take_deferred. A stop during the launch's end makes its ticket-order passes find no progress
  // and end here with the whole backlog: cub_radix_sort at --scale 0.1 (H100, 2026-11-28) applied 35 M
  // records in warp order on one thread after its SIGTERM, and never wrote its report.
  bool flush_deferred();
  // The run is being stopped: hands over every held-back record, unapplied (freeing a lock-heavy
  // launch's backlog took longer than a stopped run may wait for its report).
  DeferredWarps take_deferred() { return std::exchange(deferred_, DeferredWarps{}); }
  // Records held back now.
  uint64_t deferred_records() const { return deferred_.size(); }

  // Called by the engine at the end of a launch: barriers still pending are divergent.
  // `pending_barriers_diverged`: false when the launch was cut short (records dropped), where a
  // barrier still pending says nothing about the program.
  void finish_launch(bool pending_barriers_diverged = true);
  RaceLog& races() { return races_; }
  // Flag writes checked after a read that may have seen them (LateFlagWrite), this launch.
  std::vector<LateFlagWrite>& late_flag_writes() { return late_flag_writes_; }
  // Races with earlier concurrent launches, decided once the launch has ended (cross_launch_sync.h).
  std::vector<CrossLaunchCandidate>& cross_launch_candidates() { return cross_launch_candidates_; }
  LaunchSyncPoints& sync_points() { return sync_points_; }
  DiagnosticLog& diagnostics() { return diagnostics_; }
  StoreValues& store_values() { return store_values_; }
  BarrierLog& barriers() { return barriers_; }
  const EngineStats& stats() const { return stats_; }
  void reset_stats() { stats_ = {}; }

 private:
  // The tickets a kSyncTicket record gives, with the lanes each orders; false when one names a
  // bucket that does not exist.
  static bool read_tickets(const RecordView& ticket, std::vector<std::pair<SyncTicket, uint32_t>>& tickets);
  void submit(std::optional<SyncTicket> ticket, const RecordHeader& h, std::span<const RecordHeader> payload);
  bool ready(std::optional<SyncTicket> ticket, const RecordHeader& h);
  // ready() for a held record of a warp of `block` (null: the block holds no state here).
  bool ready_in_warp(const DeferredRecord& record, const BlockState* block);
  bool waits_at_barrier_for_deferred_warp(const RecordHeader& h);
  // Applies held-back records whose turn has come: those of the buckets noted for this worker (of every
  // bucket held here with `every_block`), then warps held at a barrier of `block`, of the blocks where
  // records were applied meanwhile, or of every block.
  bool take_turns(std::optional<uint32_t> block, bool every_block = false);
  // Applies the held-back records of `warp` whose turn has come, in its FIFO's order, and those
  // behind its front that share no lane with an earlier held record (deferred_warps.h, take_ready);
  // under the lockstep model those only when `bucket`'s turn, just handed on, is the warp's.
  bool apply_ready(uint64_t warp, std::optional<uint32_t> bucket = std::nullopt);
  void apply_ticketed(std::optional<SyncTicket> ticket, const RecordHeader& h, std::span<const RecordHeader> payload);
  void apply(const RecordHeader& h, std::span<const RecordHeader> payload);
  void apply_memory(const RecordView& access, BlockState& block);
  // check_bytes for a read, unless it repeats the thread's last checked read (CheckedRead): false then.
  bool check_read(BlockState& block, ThreadState& thread, ConflictChecker& checker, PageCursor& cursor,
                  uint64_t address, const RecordAccess& record);
  void check_bytes(BlockState& block, ConflictChecker& checker, PageCursor& cursor, uint64_t address,
                   const RecordAccess& record);
  // Counts a lane's global write landing where loads were not logged (LaunchInfo::unlogged_load_ranges).
  void note_write_into_unlogged_loads(uint64_t address);
  // Checks a global access of the current lane (the checker's stamp) against concurrent earlier launches.
  void check_earlier(const BlockState& block, const ConflictChecker& checker, uint64_t word, uint32_t size);
  // Sync points (cross_launch_sync.h) matter only where this launch overlaps another: one checked
  // before it, or one that may run beside it later. Other launches skip the bookkeeping (a lock-heavy
  // kernel makes a sync point of every hand-off).
  bool tracks_cross_launch_sync() const { return shared_.earlier != nullptr || shared_.launch.order.may_overlap_later; }
  // Before `local` acquires at `address`: a gpu-scope acquire of global memory is a sync point, of the
  // thread and of block-mates ordered after it (BlockAcquires).
  void note_acquire(BlockState& block, uint32_t local, uint64_t address, MemoryScope scope, MemorySpace space);
  // Before a global access of `local`: the block-mates' acquires it is now ordered after become sync
  // points of its own.
  void inherit_block_acquires(BlockState& block, uint32_t local);
  // A shared-memory race the device found (RecordOp::kSharedRace): logged as if found here.
  void apply_shared_race(const RecordView& race, BlockState& block);
  void apply_global_race(const RecordView& race);
  void add_device_race(Race race, bool same_value);
  void apply_fence(const RecordView& fence, BlockState& block);
  void apply_barrier(const RecordHeader& h, BlockState& block);
  void apply_cluster_barrier(const RecordHeader& h, BlockState& block);
  void apply_exit(const RecordHeader& h, BlockState& block);
  // A barrier divergence the device found where it counts the barriers (RecordOp::kBarrierDivergence).
  void apply_device_divergence(const RecordHeader& h, BlockState& block);
  // Dynamic parallelism (child_grids.h): a launch from the device, a child grid's warp entering, exiting.
  void apply_device_launch(const RecordHeader& h, BlockState& block);
  void apply_child_entry(const RecordHeader& h, BlockState& block);
  void apply_child_exit(const RecordHeader& h, BlockState& block);
  // A lane that already waits at the pending barrier logs again: the barrier must have released
  // it on the GPU, so complete it now (divergently: some lanes never arrived).
  void settle_barrier(BlockState& block, uint32_t warp, uint32_t lanes);
  void complete_divergent(BlockState& block, const char* why);
  BlockState* block_for(const RecordHeader& h);
  void malformed(const RecordHeader& h, const char* why);

  LaunchShared& shared_;
  WorkerIndex index_;  // this worker's number: a location's reads are kept per worker
  PageCache global_pages_;
  PageCache cluster_pages_;
  std::unordered_map<uint32_t, std::unique_ptr<BlockState>> blocks_;
  std::vector<bool> finished_blocks_;  // blocks whose warps all exited (their state is freed)
  DeferredWarps deferred_;
  RaceLog races_;
  std::vector<LateFlagWrite> late_flag_writes_;
  std::vector<CrossLaunchCandidate> cross_launch_candidates_;
  LaunchSyncPoints sync_points_;  // gpu-scope releases and acquires of global memory, this launch
  StoreValues store_values_;
  DiagnosticLog diagnostics_;
  BarrierLog barriers_;
  EngineStats stats_;
};

}  // namespace barracuda::engine
