#include "scenario.h"

#include <algorithm>
#include <cstring>
#include <limits>

namespace barracuda::engine::test {

RecordHeader WarpScript::header(RecordOp op, uint32_t mask) const {
  RecordHeader h{};
  h.op = static_cast<uint8_t>(op);
  h.active_mask = mask;
  h.block_id = block_;
  h.warp_id = static_cast<uint16_t>(warp_);
  h.launch_id = s_.launch_.launch_id;
  return h;
}

SiteId WarpScript::emit(RecordHeader h, const std::vector<RecordHeader>& payload, SiteId site) {
  if (raw(site) == 0) site = s_.next_site();
  h.site_id = raw(site);
  s_.append(block_, h, payload);
  return site;
}

SiteId WarpScript::memory(RecordOp op, uint32_t mask, uint64_t base, int32_t stride, AccessOptions o) {
  RecordHeader h = header(op, mask);
  h.space_sem = pack_space_sem(o.space, o.sem, o.scope);
  h.size_mode = pack_size_mode(o.size_log2, AddressMode::kAffine);
  h.flags = o.flags;
  h.stride = stride;
  h.base = base;
  return emit(h, {}, o.site);
}

SiteId WarpScript::load(uint32_t mask, uint64_t base, int32_t stride, AccessOptions o) {
  return memory(RecordOp::kLoad, mask, base, stride, o);
}
SiteId WarpScript::store(uint32_t mask, uint64_t base, int32_t stride, AccessOptions o) {
  return memory(RecordOp::kStore, mask, base, stride, o);
}
SiteId WarpScript::atomic(uint32_t mask, uint64_t base, int32_t stride, AccessOptions o) {
  if (o.sem == MemorySemantics::kWeak) o.sem = MemorySemantics::kLegacy;
  return memory(RecordOp::kAtomic, mask, base, stride, o);
}
SiteId WarpScript::reduction(uint32_t mask, uint64_t base, int32_t stride, AccessOptions o) {
  if (o.sem == MemorySemantics::kWeak) o.sem = MemorySemantics::kLegacy;
  return memory(RecordOp::kReduction, mask, base, stride, o);
}

SiteId WarpScript::access(RecordOp op, uint32_t mask, const std::vector<uint64_t>& addresses, AccessOptions o) {
  uint64_t base = std::numeric_limits<uint64_t>::max();
  for (uint32_t i = 0; i < kWarpSize; ++i) {
    if (mask & lane(i)) base = std::min(base, addresses.at(i));
  }
  bool fits = true;
  for (uint32_t i = 0; i < kWarpSize; ++i) {
    if ((mask & lane(i)) && addresses[i] - base > static_cast<uint64_t>(std::numeric_limits<int32_t>::max())) fits = false;
  }
  const AddressMode mode = fits ? AddressMode::kDelta32 : AddressMode::kFull64;
  std::vector<RecordHeader> payload(record_slots(mode) - 1);
  auto* bytes = reinterpret_cast<char*>(payload.data());
  for (uint32_t i = 0; i < kWarpSize; ++i) {
    if (!(mask & lane(i))) continue;
    if (fits) {
      const int32_t delta = static_cast<int32_t>(addresses[i] - base);
      std::memcpy(bytes + i * sizeof delta, &delta, sizeof delta);
    } else {
      std::memcpy(bytes + i * sizeof(uint64_t), &addresses[i], sizeof(uint64_t));
    }
  }
  RecordHeader h = header(op, mask);
  h.space_sem = pack_space_sem(o.space, o.sem, o.scope);
  h.size_mode = pack_size_mode(o.size_log2, mode);
  h.flags = o.flags;
  h.base = fits ? base : 0;
  return emit(h, payload);
}

SiteId WarpScript::control(RecordOp op, uint32_t mask, uint64_t base, int32_t stride, uint8_t space_sem) {
  RecordHeader h = header(op, mask);
  h.space_sem = space_sem;
  h.stride = stride;
  h.base = base;
  return emit(h);
}

SiteId WarpScript::fence(MemorySemantics sem, MemoryScope scope, uint32_t mask) {
  return control(RecordOp::kFence, mask, 0, 0, pack_space_sem(MemorySpace::kGlobal, sem, scope));
}
SiteId WarpScript::barrier(uint32_t mask) { return control(RecordOp::kBarrier, mask, 0); }
SiteId WarpScript::named_barrier(uint32_t id, uint32_t count, uint32_t mask) {
  return control(RecordOp::kBarrier, mask, id, static_cast<int32_t>(count));
}
SiteId WarpScript::mbarrier(RecordOp op, uint64_t mbarrier, uint32_t mask) { return control(op, mask, mbarrier); }
SiteId WarpScript::cluster_barrier(ClusterBarrierPayload payload, uint32_t mask) {
  return control(RecordOp::kClusterBarrier, mask, payload);
}
SiteId WarpScript::barrier_arrive(uint32_t id, uint32_t count, uint32_t mask) {
  return control(RecordOp::kBarrierArrive, mask, id, static_cast<int32_t>(count));
}
SiteId WarpScript::warp_sync(uint32_t members, uint32_t mask) { return control(RecordOp::kWarpSync, mask, members); }
void WarpScript::branch_if(uint32_t taken, uint32_t before) { control(RecordOp::kBranchIf, taken, before); }
void WarpScript::branch_else(uint32_t other) { control(RecordOp::kBranchElse, other, 0); }
void WarpScript::branch_fi(uint32_t reunited) { control(RecordOp::kBranchFi, reunited, 0); }
void WarpScript::entry(uint32_t mask) { control(RecordOp::kWarpEntry, mask, 0); }
void WarpScript::exit(uint32_t mask) { control(RecordOp::kWarpExit, mask, 0); }
SiteId WarpScript::device_launch(uint32_t launching, uint32_t first_block, uint64_t stream) {
  return control(RecordOp::kDeviceLaunch, launching, stream, static_cast<int32_t>(first_block));
}
void WarpScript::child_entry(uint32_t mask, uint32_t first_block, Dim3 grid, Dim3 block) {
  RecordHeader h = header(RecordOp::kChildEntry, mask);
  h.size_mode = pack_size_mode(0, AddressMode::kDelta32);
  std::vector<RecordHeader> payload(record_slots(AddressMode::kDelta32) - 1);
  auto* words = reinterpret_cast<uint32_t*>(payload.data());
  words[kChildGridFirstBlock] = first_block;
  const uint32_t dims[] = {grid.x, grid.y, grid.z, block.x, block.y, block.z};
  for (uint32_t d = 0; d < 6; ++d) words[kChildGridDimX + d] = dims[d];
  emit(h, payload);
}
void WarpScript::child_exit(uint32_t mask) {
  control(RecordOp::kChildExit, mask, 0);
  exit(mask);
}
void WarpScript::ticket(uint64_t ticket, uint32_t mask, uint32_t bucket) {
  RecordHeader h = header(RecordOp::kSyncTicket, mask);
  h.base = ticket;
  h.stride = static_cast<int32_t>(bucket);
  s_.append(block_, h);
}

void WarpScript::lane_tickets(uint32_t mask, const std::vector<std::pair<uint32_t, uint64_t>>& by_lane) {
  RecordHeader h = header(RecordOp::kSyncTicket, mask);
  h.size_mode = pack_size_mode(3, AddressMode::kFull64);
  std::vector<RecordHeader> payload(record_slots(AddressMode::kFull64) - 1);
  auto* words = reinterpret_cast<uint64_t*>(payload.data());
  for (uint32_t lane = 0; lane < by_lane.size() && lane < kWarpSize; ++lane) {
    if (mask >> lane & 1u) words[lane] = lane_ticket_word(by_lane[lane].first, by_lane[lane].second);
  }
  s_.append(block_, h, payload);
}

Scenario::Scenario(Dim3 grid, Dim3 block, WarpModel model, uint32_t workers)
    : engine_(EngineConfig{workers}), queues_(workers) {
  launch_.launch_id = 7;
  launch_.kernel = "scenario";
  launch_.grid = grid;
  launch_.block = block;
  launch_.warp_model = model;
}

Scenario& Scenario::with_cluster(Dim3 cluster) {
  launch_.cluster = cluster;
  return *this;
}

Scenario& Scenario::with_unlogged_loads(uint64_t begin, uint64_t end) {
  launch_.unlogged_load_ranges.emplace_back(begin, end);
  return *this;
}

Scenario& Scenario::with_unlogged_accesses() {
  launch_.unlogged_accesses = true;
  return *this;
}

Scenario& Scenario::with_child_grids() {
  launch_.launches_child_grids = true;
  return *this;
}

Scenario& Scenario::as_launch(uint64_t sequence) {
  launch_.order.sequence = LaunchSeq{sequence};
  return *this;
}

void Scenario::append(uint32_t block, const RecordHeader& header, const std::vector<RecordHeader>& payload) {
  auto& queue = queues_[block % queues_.size()];
  queue.push_back(header);
  queue.insert(queue.end(), payload.begin(), payload.end());
}

namespace {
void consume_in_order(Engine& engine, const std::vector<std::vector<RecordHeader>>& queues) {
  for (uint32_t q = 0; q < queues.size(); ++q) engine.worker(q).consume(queues[q]);
}
}  // namespace

void Scenario::run() { run(false, consume_in_order); }

void Scenario::run_stopped() { run(true, consume_in_order); }

void Scenario::run_consuming(const Consume& consume) { run(false, consume); }

void Scenario::run(bool stopped, const Consume& consume) {
  engine_.begin_launch(launch_);
  consume(engine_, queues_);
  if (stopped) engine_.stop_checking();
  engine_.end_launch();
  races_ = engine_.races();
  diagnostics_ = engine_.diagnostics();
}

std::optional<Race> Scenario::race(SiteId a, SiteId b) const {
  for (const Race& r : races_) {
    if ((r.first_site == a && r.second_site == b) || (r.first_site == b && r.second_site == a)) return r;
  }
  return std::nullopt;
}

bool Scenario::has_diagnostic(DiagnosticKind kind, SiteId site) const {
  return std::any_of(diagnostics_.begin(), diagnostics_.end(),
                     [&](const Diagnostic& d) { return d.kind == kind && d.site == site; });
}

}  // namespace barracuda::engine::test
