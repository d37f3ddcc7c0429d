#pragma once
// Scenario harness in the style of ThreadSanitizer's tests/rtl: a test scripts what each warp of
// each block does, the harness encodes real record.h records, feeds them through the engine's
// public API (one queue per worker, blocks pinned to queues) and the test checks the races.
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "engine/engine.h"

namespace barracuda::engine::test {

inline constexpr uint32_t kAllLanes = ~0u;
constexpr uint32_t lane(uint32_t i) { return 1u << i; }

struct AccessOptions {
  MemorySpace space = MemorySpace::kGlobal;
  MemorySemantics sem = MemorySemantics::kWeak;
  MemoryScope scope = MemoryScope::kGpu;
  uint32_t size_log2 = 2;  // 4-byte accesses
  uint8_t flags = 0;
  SiteId site{};  // 0: the next site id; else this one (the same instruction again, as in a loop)
};

class Scenario;

// The records of one warp, appended in program order.
class WarpScript {
 public:
  WarpScript(Scenario& scenario, uint32_t block, uint32_t warp) : s_(scenario), block_(block), warp_(warp) {}

  // Lane i of `mask` accesses base + i * stride (affine address mode).
  SiteId load(uint32_t mask, uint64_t base, int32_t stride = 4, AccessOptions o = {});
  SiteId store(uint32_t mask, uint64_t base, int32_t stride = 4, AccessOptions o = {});
  SiteId atomic(uint32_t mask, uint64_t base, int32_t stride = 4, AccessOptions o = {});
  SiteId reduction(uint32_t mask, uint64_t base, int32_t stride = 4, AccessOptions o = {});
  // One address per lane (kDelta32 when the offsets fit, else kFull64); inactive lanes are ignored.
  SiteId access(RecordOp op, uint32_t mask, const std::vector<uint64_t>& addresses, AccessOptions o = {});

  SiteId fence(MemorySemantics sem, MemoryScope scope, uint32_t mask = kAllLanes);
  SiteId barrier(uint32_t mask = kAllLanes);
  // bar.sync id, count / bar.arrive id, count (named barriers).
  SiteId named_barrier(uint32_t id, uint32_t count, uint32_t mask = kAllLanes);
  SiteId barrier_arrive(uint32_t id, uint32_t count, uint32_t mask = kAllLanes);
  // mbarrier.arrive (kMbarrierArrive) or a successful try_wait (kMbarrierWait) on `mbarrier`.
  SiteId mbarrier(RecordOp op, uint64_t mbarrier, uint32_t mask = kAllLanes);
  // barrier.cluster.arrive (payload 0 or kClusterBarrierRelaxed) or .wait (kClusterBarrierWait).
  SiteId cluster_barrier(ClusterBarrierPayload payload, uint32_t mask = kAllLanes);
  SiteId warp_sync(uint32_t members, uint32_t mask = kAllLanes);
  void branch_if(uint32_t taken, uint32_t before);
  void branch_else(uint32_t other);
  void branch_fi(uint32_t reunited);
  void entry(uint32_t mask);
  // Lanes exit separately under independent thread scheduling: each group logs its own exit record.
  void exit(uint32_t mask = kAllLanes);
  // Dynamic parallelism (engine/child_grids.h): lane `launching` launches the child grid whose blocks
  // start at `first_block` into device stream `stream` (kDeviceLaunch); a child grid's warp enters
  // (kChildEntry with the grid's shape) and exits (kChildExit, then kWarpExit).
  SiteId device_launch(uint32_t launching, uint32_t first_block, uint64_t stream = 0);
  void child_entry(uint32_t mask, uint32_t first_block, Dim3 grid, Dim3 block);
  void child_exit(uint32_t mask = kAllLanes);
  // A sync ticket (RecordOp::kSyncTicket) for the record scripted next, as the device writes it:
  // ticket `ticket` of location bucket `bucket` (barracuda/sync_bucket.h).
  void ticket(uint64_t ticket, uint32_t mask = kAllLanes, uint32_t bucket = 0);
  // Sync tickets of different buckets by lane, as the device writes them when a record's lanes reach
  // several buckets: lane -> (bucket, ticket), for the lanes of `mask`.
  void lane_tickets(uint32_t mask, const std::vector<std::pair<uint32_t, uint64_t>>& by_lane);

 private:
  RecordHeader header(RecordOp op, uint32_t mask) const;
  // Gives the record `site`, or the next site id, and appends it (and its payload) to the block's queue.
  SiteId emit(RecordHeader h, const std::vector<RecordHeader>& payload = {}, SiteId site = {});
  SiteId memory(RecordOp op, uint32_t mask, uint64_t base, int32_t stride, AccessOptions o);
  SiteId control(RecordOp op, uint32_t mask, uint64_t base, int32_t stride = 0, uint8_t space_sem = 0);

  Scenario& s_;
  uint32_t block_;
  uint32_t warp_;
};

class Scenario {
 public:
  Scenario(Dim3 grid, Dim3 block, WarpModel model = WarpModel::kIndependent, uint32_t workers = 1);

  Scenario& with_cluster(Dim3 cluster);
  // The kernel holds memory instructions that are not logged (LaunchInfo::unlogged_accesses).
  Scenario& with_unlogged_accesses();
  // The kernel may launch child grids from the device (LaunchInfo::launches_child_grids).
  Scenario& with_child_grids();
  // The launch's issue number in the run (LaunchOrder::sequence; 0, not known, by default).
  Scenario& as_launch(uint64_t sequence);
  // Loads in [begin, end) were not logged (LaunchInfo::unlogged_load_ranges).
  Scenario& with_unlogged_loads(uint64_t begin, uint64_t end);
  WarpScript warp(uint32_t block, uint32_t warp) { return WarpScript(*this, block, warp); }

  // Feeds every record to the engine and ends the launch. The records of each queue are consumed
  // in the order they were scripted, whole records per call.
  void run();
  // run(), with the run being stopped (Engine::stop_checking) after the records were consumed.
  void run_stopped();
  // run(), with `consume` handing the queues to the engine's workers (to look at them in between).
  using Consume = std::function<void(Engine&, const std::vector<std::vector<RecordHeader>>&)>;
  void run_consuming(const Consume& consume);
  const std::vector<Race>& races() const { return races_; }
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }
  const EngineStats& stats() const { return engine_.stats(); }
  const Engine& engine() const { return engine_; }  // after run(): what a report is built from
  // The race between the two sites (in either order), if reported.
  std::optional<Race> race(SiteId a, SiteId b) const;
  bool has_diagnostic(DiagnosticKind kind, SiteId site) const;

 private:
  friend class WarpScript;
  void run(bool stopped, const Consume& consume);
  void append(uint32_t block, const RecordHeader& header, const std::vector<RecordHeader>& payload = {});
  SiteId next_site() { return static_cast<SiteId>(next_site_++); }

  LaunchInfo launch_;
  Engine engine_;
  std::vector<std::vector<RecordHeader>> queues_;
  uint32_t next_site_ = 1;
  std::vector<Race> races_;
  std::vector<Diagnostic> diagnostics_;
};

}  // namespace barracuda::engine::test
