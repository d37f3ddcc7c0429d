#include "engine/engine.h"

#include <algorithm>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_set>

#include <tbb/parallel_for.h>

#include "engine/parallel_consume.h"

namespace barracuda::engine {

Engine::Engine(EngineConfig config) : config_(config) {
  if (config_.workers == 0) throw std::invalid_argument("engine needs at least one worker");
  shared_ = std::make_unique<LaunchShared>(config_.workers);
  for (uint32_t i = 0; i < config_.workers; ++i) workers_.push_back(std::make_unique<Worker>(*shared_, static_cast<WorkerIndex>(i)));
}

Engine::~Engine() = default;

void Engine::begin_launch(LaunchInfo launch) {
  if (open_) throw std::invalid_argument("begin_launch: launch " + shared_->launch.kernel + " is still open");
  if (!launch.fits()) throw std::invalid_argument("begin_launch: " + launch.kernel + " has more than 2^32 threads");
  if (launch.grid.volume() == 0 || launch.block.volume() == 0 || launch.cluster.volume() == 0) {
    throw std::invalid_argument("begin_launch: " + launch.kernel + " has an empty grid, block or cluster");
  }
  earlier_.begin(launch.order, launch.device);
  shared_->earlier = earlier_.any_concurrent() ? &earlier_ : nullptr;
  shared_->launch = std::move(launch);
  shared_->tickets.reset();
  open_ = true;
}

void Engine::end_launch() {
  if (!open_) throw std::invalid_argument("end_launch without begin_launch");
  DiagnosticLog ordering;
  apply_deferred(ordering);
  std::unordered_set<uint32_t> executed, useful;
  const bool stopping = shared_->stopping.load(std::memory_order_acquire);
  for (auto& worker : workers_) worker->finish_launch(/*pending_barriers_diverged=*/!stopping);
  // Races with earlier concurrent launches stand unless the two launches synchronised through a location.
  LaunchSyncPoints sync_points;
  for (auto& worker : workers_) sync_points.merge(std::move(worker->sync_points()));
  for (const uint64_t address : sync_points.released_addresses()) {
    sync_points.note_published(address, shared_->sync.acquire(SyncMap::kGpuDomain, address).strict);
  }
  for (auto& worker : workers_) {
    for (const CrossLaunchCandidate& candidate : worker->cross_launch_candidates()) {
      if (!earlier_.ordered_by_sync(candidate, sync_points)) worker->races().add(candidate.race);
    }
    worker->cross_launch_candidates().clear();
  }
  for (auto& worker : workers_) {
    executed.insert(worker->barriers().executed.begin(), worker->barriers().executed.end());
    useful.insert(worker->barriers().useful.begin(), worker->barriers().useful.end());
    worker->barriers() = {};
  }
  DiagnosticLog redundant;
  for (uint32_t site : executed) {
    if (!useful.contains(site) && !shared_->launch.unlogged_accesses) {
      redundant.add(DiagnosticKind::kRedundantBarrier, static_cast<SiteId>(site), BlockId{},
                    "barrier ordered no conflicting accesses in this launch");
    }
  }
  const std::string& kernel = shared_->launch.kernel;
  uint64_t peak_blocks = 0, peak_held = 0;
  const LaunchSeq launch = shared_->launch.order.sequence;
  diagnostics_.merge(std::move(ordering), kernel, launch);
  diagnostics_.merge(std::move(redundant), kernel, launch);
  // Same-value write-writes need "no read can observe the location between them": a store site that a
  // racing read observed (a RAW or WAR race in this launch) does not count as same-value.
  StoreValues launch_values;
  for (auto& worker : workers_) {
    launch_values.merge(worker->store_values());
    worker->store_values().clear();
  }
  for (auto& worker : workers_) {
    worker->races().for_each([&launch_values](const Race& race) {
      if (race.hazard == Hazard::kReadAfterWrite) launch_values.note(race.first_site, std::nullopt);
      if (race.hazard == Hazard::kWriteAfterRead) launch_values.note(race.second_site, std::nullopt);
    });
  }
  // Flags whose writes were checked after the races they hand over (any worker's blocks).
  std::vector<LateFlagWrite> late_flag_writes;
  for (auto& worker : workers_) {
    late_flag_writes.insert(late_flag_writes.end(), worker->late_flag_writes().begin(), worker->late_flag_writes().end());
    worker->late_flag_writes().clear();
  }
  const LateFlagWrites late_flags(std::move(late_flag_writes));
  for (auto& worker : workers_) late_flags.name_flags(worker->races());
  for (auto& worker : workers_) {
    if (shared_->launch.launches_child_grids) name_child_grids(worker->races());
    races_.merge(std::move(worker->races()), kernel, launch, shared_->launch.device, launch_values);
    diagnostics_.merge(std::move(worker->diagnostics()), kernel, launch);
    const EngineStats& s = worker->stats();
    stats_.records += s.records;
    stats_.thread_accesses += s.thread_accesses;
    stats_.repeated_reads += s.repeated_reads;
    stats_.ignored_accesses += s.ignored_accesses;
    stats_.malformed_records += s.malformed_records;
    stats_.unsupported_records += s.unsupported_records;
    stats_.writes_into_unlogged_loads += s.writes_into_unlogged_loads;
    stats_.unchecked_child_grids += s.unchecked_child_grids;
    peak_blocks += s.peak_resident_blocks;
    peak_held += s.peak_held_back_records;
    worker->reset_stats();
  }
  stats_.dynamic_races = races_.dynamic_count();
  stats_.peak_resident_blocks = std::max(stats_.peak_resident_blocks, peak_blocks);
  stats_.peak_held_back_records = std::max(stats_.peak_held_back_records, peak_held);
  if (shared_->launch.order.may_overlap_later) earlier_.remember(shared_->launch, shared_->global, std::move(sync_points));
  shared_->global.clear();
  shared_->cluster.clear();
  shared_->sync.clear();
  shared_->children.clear();
  open_ = false;
}

void Engine::name_child_grids(RaceLog& races) const {
  const auto name = [this](ThreadCoord& thread) {
    if (raw(thread.block) < shared_->launch.block_count()) return;
    if (const std::optional<ChildGrids::Grid> grid = shared_->children.find(raw(thread.block))) {
      thread.child = grid->shape;
    }
  };
  races.for_each([&name](Race& race) {
    name(race.first_thread);
    name(race.second_thread);
  });
}

// The turns of a lock- or look-back-heavy launch pass between the workers hundreds of thousands of
// times: where several workers hold records back, each takes its turns on a thread of its own, as the
// drain threads do while the launch runs (cub_scan at --scale 0.1 on the H100: the drain threads
// napping while end_launch applied the backlog on one thread, half of the run).
void Engine::settle_in_parallel() {
  std::vector<Worker*> holding;
  for (auto& worker : workers_) {
    if (worker->has_deferred()) holding.push_back(worker.get());
  }
  if (holding.size() < 2) return;
  SettleProgress progress;
  tbb::parallel_for(size_t{0}, holding.size(), [&](size_t i) { settle_worker(*holding[i], progress); },
                    tbb::simple_partitioner());
}

void Engine::apply_deferred(DiagnosticLog& diagnostics) {
  uint64_t missing = 0;
  for (;;) {
    if (shared_->stopping.load(std::memory_order_acquire)) {
      for (auto& worker : workers_) dropped_.push_back(worker->take_deferred());
      return;
    }
    settle_in_parallel();
    // Turns handed on (noted per worker) first: a look at every held bucket costs as much as the
    // backlog of a lock-heavy launch has buckets, and is needed only once nothing was noted.
    bool progress = false;
    for (auto& worker : workers_) progress |= worker->catch_up();
    if (progress) continue;
    for (auto& worker : workers_) progress |= worker->retry_deferred();
    if (progress) continue;
    // No turn can come any more: in each bucket whose lowest held ticket is above its turn, the tickets
    // between never arrived (a broken stream).
    std::map<uint32_t, uint64_t> lowest;
    for (auto& worker : workers_) {
      for (const SyncTicket ticket : worker->lowest_deferred_tickets()) {
        const auto [it, inserted] = lowest.emplace(ticket.bucket, ticket.number);
        if (!inserted) it->second = std::min(it->second, ticket.number);
      }
    }
    uint64_t skipped = 0;
    for (const auto& [bucket, number] : lowest) {
      const uint64_t next = shared_->tickets.next(bucket);
      if (number <= next) continue;
      skipped += number - next;
      shared_->tickets.skip_to(SyncTicket{bucket, number});
    }
    if (skipped == 0) break;
    missing += skipped;
  }
  if (missing != 0) {
    diagnostics.add(DiagnosticKind::kMalformedRecord, SiteId{}, BlockId{},
                    std::to_string(missing) +
                        " sync tickets never arrived: later synchronisation applied in ticket order without them");
  }
  // Only records stuck behind a malformed stream remain: apply them in warp order, unless the run is
  // being stopped meanwhile (then they are dropped, like those of the loop above).
  for (auto& worker : workers_) {
    const uint64_t held = worker->deferred_records();
    if (worker->flush_deferred()) {
      stats_.records_applied_at_launch_end += held;
    } else {
      dropped_.push_back(worker->take_deferred());
    }
  }
}

}  // namespace barracuda::engine
