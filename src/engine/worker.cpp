#include "engine/worker.h"

#include <algorithm>
#include <bit>
#include <string>

#include "barracuda/barrier_count.h"
#include "engine/conflict_checker.h"
#include "engine/distributed_shared.h"

namespace barracuda::engine {
namespace {

// Shared memory is at most 228 KiB per block on sm_90; beyond that an address is garbage.
constexpr uint64_t kMaxSharedBytes = 256 * 1024;
// In a cluster launch a block's shared::cta addresses are shared::cluster addresses of the block
// itself: its rank in the cluster sits above bit 24. The block's shadow is indexed by the offset.
constexpr uint64_t kSharedOffsetMask = (uint64_t{1} << 24) - 1;

AccessKind kind_of(const RecordView& record) {
  const RecordOp op = record.op();
  const MemorySemantics sem = record.semantics();
  AccessKind kind{};
  kind.read = op == RecordOp::kLoad || op == RecordOp::kAtomic;
  kind.write = op != RecordOp::kLoad;
  kind.atomic = op == RecordOp::kAtomic || op == RecordOp::kReduction;
  kind.shared_space = record.space() == MemorySpace::kShared;
  // volatile is not atomic (BRIEF section 4): conflicting volatile accesses that nothing orders race.
  // A volatile read is strong (it may be the spin of an acquire pattern: read a flag, then a fence);
  // a volatile write is strong only where it completes a fence's release pattern (a flag written after
  // __threadfence()), which apply_memory decides lane by lane. A volatile store and a volatile load are
  // morally strong exactly when the load is a spin read (kFlagSpinRead), whatever `strong` says
  // (AccessKind::volatile_pair_with, decided in the conflict check).
  kind.strong = kind.atomic || (op != RecordOp::kAsyncCopy && sem != MemorySemantics::kWeak &&
                                !(sem == MemorySemantics::kVolatile && kind.write));
  kind.volatile_store = op == RecordOp::kStore && sem == MemorySemantics::kVolatile;
  kind.volatile_load = op == RecordOp::kLoad && sem == MemorySemantics::kVolatile;
  kind.spin_read = kind.volatile_load && (record.header().flags & kFlagSpinRead);
  // The PTX model treats volatile as relaxed at system scope.
  const MemoryScope scope = sem == MemorySemantics::kVolatile ? MemoryScope::kSystem : record.scope();
  kind.scope = static_cast<uint16_t>(scope);
  return kind;
}

bool releases(MemorySemantics sem) {
  return sem == MemorySemantics::kRelease || sem == MemorySemantics::kAcqRel || sem == MemorySemantics::kSeqCst;
}
bool acquires(MemorySemantics sem) {
  return sem == MemorySemantics::kAcquire || sem == MemorySemantics::kAcqRel || sem == MemorySemantics::kSeqCst;
}

MemoryScope narrower(MemoryScope a, MemoryScope b) { return std::min(a, b); }

// The barrier divergences, as the engine finds them from barrier and exit records and as the device
// sends them where it counts the barriers (BarrierDivergence, barracuda/barrier_count.h).
constexpr const char* kLetThroughText = "the barrier let threads through before every live thread arrived";
std::string exited_while_waiting(uint32_t warp) {
  return "warp " + std::to_string(warp) + " exited while other threads waited at the barrier";
}

}  // namespace

void Worker::consume(std::span<const RecordHeader> slots) {
  // Turns handed on since the last batch (a look at every held bucket here cost more than the batch).
  catch_up();
  size_t i = 0;
  // The tickets of the record that follows, and the lanes each orders (all of them: ~0u).
  std::vector<std::pair<SyncTicket, uint32_t>> tickets;
  while (i < slots.size()) {
    tickets.clear();
    if (slots[i].op == static_cast<uint8_t>(RecordOp::kSyncTicket)) {
      const RecordHeader& ticket_header = slots[i];
      const RecordView ticket_view(ticket_header, slots.size() - i > 1 ? &slots[i + 1] : nullptr);
      if (ticket_view.defect() != RecordDefect::kNone) {
        malformed(ticket_header, record_defect_text(ticket_view.defect()));
        ++i;
        continue;
      }
      const uint32_t ticket_slots = ticket_view.slot_count();
      if (slots.size() - i <= ticket_slots) return malformed(ticket_header, "sync ticket without the record it orders");
      i += ticket_slots;
      if (ticket_header.block_id != slots[i].block_id || ticket_header.warp_id != slots[i].warp_id ||
          slots[i].op == static_cast<uint8_t>(RecordOp::kSyncTicket)) {
        malformed(ticket_header, "sync ticket followed by a record of another warp");
        continue;
      }
      if (!read_tickets(ticket_view, tickets)) {
        malformed(ticket_header, "sync ticket of a location bucket that does not exist");
        continue;
      }
    }
    const RecordHeader& h = slots[i];
    // Framing only: apply() rejects the other defects, after the record's ticket has had its turn.
    const RecordView record(h);
    if (record.defect() == RecordDefect::kUnknownAddressMode) {
      malformed(h, record_defect_text(RecordDefect::kUnknownAddressMode));
      ++i;
      continue;
    }
    const uint32_t n = record.slot_count();
    if (slots.size() - i < n) {
      malformed(h, "record cut off at the end of the buffer");
      return;
    }
    ++stats_.records;
    const std::span<const RecordHeader> payload = slots.subspan(i + 1, n - 1);
    if (tickets.empty()) {
      submit(std::nullopt, h, payload);
    } else if (tickets.size() == 1 && tickets.front().second == ~0u) {
      submit(tickets.front().first, h, payload);
    } else {
      // Lanes of different buckets: each bucket's lanes wait for their own turn (their threads are
      // independent; each lane's records keep their order in the warp's FIFO).
      for (const auto& [ticket, lanes] : tickets) {
        RecordHeader part = h;
        part.active_mask &= lanes;
        if (part.active_mask != 0) submit(ticket, part, payload);
      }
    }
    i += n;
  }
}

bool Worker::read_tickets(const RecordView& ticket, std::vector<std::pair<SyncTicket, uint32_t>>& tickets) {
  const RecordHeader& h = ticket.header();
  if (ticket.address_mode() != AddressMode::kFull64) {
    // One bucket for every lane (0 in traces written before buckets: one order).
    const auto bucket = static_cast<uint32_t>(h.stride);
    if (bucket >= kSyncBuckets) return false;
    tickets.push_back({SyncTicket{bucket, h.base}, ~0u});
    return true;
  }
  for (uint32_t m = h.active_mask; m != 0; m &= m - 1) {
    const auto lane = static_cast<uint32_t>(std::countr_zero(m));
    const uint64_t word = ticket.lane_address(lane);
    const SyncTicket lane_ticket{lane_ticket_bucket(word), lane_ticket_number(word)};
    if (lane_ticket.bucket >= kSyncBuckets) return false;
    const auto same = std::find_if(tickets.begin(), tickets.end(), [&](const auto& t) { return t.first == lane_ticket; });
    if (same == tickets.end()) {
      tickets.push_back({lane_ticket, 1u << lane});
    } else {
      same->second |= 1u << lane;
    }
  }
  return true;
}

void Worker::malformed(const RecordHeader& h, const char* why) {
  ++stats_.malformed_records;
  diagnostics_.add(DiagnosticKind::kMalformedRecord, static_cast<SiteId>(h.site_id), static_cast<BlockId>(h.block_id),
                   std::string("record skipped: ") + why);
}

BlockState* Worker::block_for(const RecordHeader& h) {
  const LaunchInfo& launch = shared_.launch;
  if (h.launch_id != launch.launch_id) return malformed(h, "launch id of another launch"), nullptr;
  auto found = blocks_.find(h.block_id);
  if (found == blocks_.end()) {
    // A child grid's block (child_grids.h) is known once its warp's kChildEntry gave the grid's shape.
    Dim3 shape = launch.block;
    if (h.block_id >= launch.block_count()) {
      const std::optional<ChildGrids::Grid> child =
          launch.launches_child_grids ? shared_.children.find(h.block_id) : std::nullopt;
      if (!child) return malformed(h, "block id outside the grid"), nullptr;
      shape = child->shape.block;
    }
    if (h.warp_id >= (shape.volume() + kWarpSize - 1) / kWarpSize) return malformed(h, "warp id outside the block"), nullptr;
    if (finished_blocks_.size() <= h.block_id) {
      finished_blocks_.resize(std::max<size_t>(launch.block_count(), size_t{h.block_id} + 1), false);
    }
    if (finished_blocks_[h.block_id]) return malformed(h, "record after every warp of its block exited"), nullptr;
    found = blocks_.emplace(h.block_id, std::make_unique<BlockState>(launch, static_cast<BlockId>(h.block_id), shape,
                                                                     barriers_)).first;
    stats_.peak_resident_blocks = std::max<uint64_t>(stats_.peak_resident_blocks, blocks_.size());
  }
  BlockState& block = *found->second;
  if (h.warp_id >= block.warp_count()) return malformed(h, "warp id outside the block"), nullptr;
  const WarpState& warp = block.warp(h.warp_id);
  if (warp.exited) return malformed(h, "record after the warp's exit record"), nullptr;
  const auto op = static_cast<RecordOp>(h.op);
  const bool entry = op == RecordOp::kWarpEntry || op == RecordOp::kChildEntry;
  const uint32_t allowed = entry ? block.existing_lanes(h.warp_id) : warp.live_mask;
  if (h.active_mask & ~allowed) return malformed(h, "active lanes that do not exist or have exited"), nullptr;
  return &block;
}

void Worker::apply(const RecordHeader& h, std::span<const RecordHeader> payload) {
  const RecordView record(h, payload.data());
  if (const RecordDefect defect = record.defect(); defect != RecordDefect::kNone) {
    return malformed(h, record_defect_text(defect));
  }
  const auto op = static_cast<RecordOp>(h.op);
  if (op == RecordOp::kChildEntry &&
      (!shared_.launch.launches_child_grids ||
       !shared_.children.note_shape(record.child_grid(), shared_.launch.block_count()))) {
    return malformed(h, "child grid entry of a grid that cannot be");
  }
  BlockState* block_ptr = block_for(h);
  if (!block_ptr) return;
  BlockState& block = *block_ptr;
  if (op != RecordOp::kWarpEntry && op != RecordOp::kChildEntry) settle_barrier(block, h.warp_id, h.active_mask);
  const bool lockstep = shared_.launch.warp_model == WarpModel::kLockstep;
  switch (op) {
    case RecordOp::kFence:
      apply_fence(record, block);
      break;
    case RecordOp::kBarrier:
      return apply_barrier(h, block);
    case RecordOp::kBarriersPassed:
      block.complete_counted_barriers(h.base);
      return;
    case RecordOp::kWarpSync:
      block.warp_sync(h.warp_id, static_cast<uint32_t>(h.base));
      return;
    case RecordOp::kMbarrierArrive:
    case RecordOp::kMbarrierWait:
      for (uint32_t m = h.active_mask; m; m &= m - 1) {
        const uint32_t local = h.warp_id * kWarpSize + std::countr_zero(m);
        if (op == RecordOp::kMbarrierArrive) {
          block.release_in_block(local, h.base);
        } else {
          block.acquire_in_block(local, h.base);
        }
      }
      break;
    case RecordOp::kBranchIf:
    case RecordOp::kBranchElse:
      block.warp(h.warp_id).path_mask = h.active_mask;
      return;
    case RecordOp::kBranchFi:
      block.warp(h.warp_id).path_mask = h.active_mask;
      if (lockstep) block.warp_sync(h.warp_id, h.active_mask);
      return;
    case RecordOp::kWarpEntry:
      block.warp(h.warp_id).live_mask = block.warp(h.warp_id).path_mask = h.active_mask;
      return;
    case RecordOp::kWarpExit:
      return apply_exit(h, block);
    case RecordOp::kDeviceLaunch:
      return apply_device_launch(h, block);
    case RecordOp::kChildEntry:
      return apply_child_entry(h, block);
    case RecordOp::kChildExit:
      return apply_child_exit(h, block);
    case RecordOp::kBarrierArrive:
      if (h.base >= kHardwareBarriers) return malformed(h, "barrier id above 15");
      block.arrive_partial(static_cast<uint32_t>(h.base), static_cast<uint32_t>(h.stride), h.warp_id, h.active_mask,
                           Arrival::kPass);
      return;
    case RecordOp::kClusterBarrier:
      apply_cluster_barrier(h, block);
      return;
    case RecordOp::kSharedRace:
      return apply_shared_race(record, block);
    case RecordOp::kGlobalRace:
      return apply_global_race(record);
    case RecordOp::kBarrierDivergence:
      return apply_device_divergence(h, block);
    default:
      if (record.is_memory_access()) apply_memory(record, block);
      break;
  }
  // Lockstep: the instruction is ordered before the next one of every lane on the same path
  // (lanes predicated off included).
  if (lockstep) block.warp_sync(h.warp_id, block.warp(h.warp_id).path_mask | h.active_mask);
}

void Worker::apply_memory(const RecordView& access, BlockState& block) {
  const RecordHeader& h = access.header();
  const uint32_t lanes = static_cast<uint32_t>(std::popcount(h.active_mask));
  const RecordAccess record{static_cast<SiteId>(h.site_id), kind_of(access), access.space(), h.flags,
                            access.access_bytes()};
  if (record.space == MemorySpace::kOther) {
    stats_.ignored_accesses += lanes;
    return;
  }
  stats_.thread_accesses += lanes;
  const MemorySemantics sem = access.semantics();
  const bool release_sem = record.kind.write && releases(sem);
  const bool acquire_sem = record.kind.read && acquires(sem);
  const bool legacy_rmw = record.kind.read && record.kind.write && sem == MemorySemantics::kLegacy;
  const bool volatile_write = record.kind.write && sem == MemorySemantics::kVolatile;
  if (access.op() == RecordOp::kStore) {
    store_values_.note(record.site, access.has_uniform_value() ? std::optional(access.uniform_value()) : std::nullopt);
  }
  const MemoryScope scope = record.kind.memory_scope();
  ConflictChecker checker(shared_.launch, block, races_, late_flag_writes_, record);
  const bool cluster = record.space == MemorySpace::kCluster;
  const uint32_t cluster_index = cluster ? shared_.launch.cluster_of(block.id()) : 0;
  PageCursor cursor(cluster ? shared_.cluster : shared_.global, cluster ? cluster_pages_ : global_pages_);
  if (record.space != MemorySpace::kShared && access.address_mode() != AddressMode::kAffine) {
    // Scattered lanes (a gather): every lane's cell is on its way from memory before the first is checked.
    for (uint32_t m = h.active_mask; m; m &= m - 1) cursor.prefetch(access.lane_address(std::countr_zero(m)) / 4);
  }
  for (uint32_t m = h.active_mask; m; m &= m - 1) {
    const uint32_t lane = std::countr_zero(m);
    const uint32_t local = h.warp_id * kWarpSize + lane;
    uint64_t address = access.lane_address(lane);
    if (record.space == MemorySpace::kShared) address &= kSharedOffsetMask;
    if (cluster) address = distributed_shared_key(address, cluster_index);
    ThreadState& thread = block.thread(local);
    if (record.space == MemorySpace::kGlobal && block.gpu_acquires().may_hand_on(local)) {
      inherit_block_acquires(block, local);
    }
    // Stamped before a release moves the clock on: whoever acquires this release knows this access.
    checker.begin_lane(local, thread.clock);
    const bool completes_fence = record.kind.write && thread.release_pending;
    if (volatile_write) checker.set_strong(completes_fence);
    if (release_sem || completes_fence) {
      // A release qualifier, or the write completing a fence's release pattern.
      const MemoryScope release_scope =
          release_sem ? scope : record.kind.strong ? narrower(scope, thread.release_scope) : thread.release_scope;
      if (record.space == MemorySpace::kGlobal && release_scope >= MemoryScope::kGpu && tracks_cross_launch_sync()) {
        sync_points_.note_release(block.thread_id(local), address, thread.clock);
      }
      block.release(local, address, release_scope, shared_.sync);
      thread.release_pending = false;
    }
    if (record.kind.write) {
      thread.last_checked_read = {};
      check_bytes(block, checker, cursor, address, record);
    } else if (!check_read(block, thread, checker, cursor, address, record)) {
      ++stats_.repeated_reads;
    }
    checker.lane_done();
    if (record.kind.write && record.space == MemorySpace::kGlobal && !shared_.launch.unlogged_load_ranges.empty()) {
      note_write_into_unlogged_loads(address);
    }
    if (record.kind.read) {
      thread.has_last_read = true;
      thread.last_read_address = address;
      thread.last_read_scope = record.kind.strong ? scope : MemoryScope::kSystem;
      thread.last_read_space = record.space;
      thread.last_read_fenced = false;
      thread.last_read_spin = false;
      // A legacy RMW after a fence also acquires: the "last block" idiom of the CUDA programming
      // guide (__threadfence(); atomicInc(); __syncthreads(); read every block's result) needs it.
      if (acquire_sem || (completes_fence && legacy_rmw)) {
        note_acquire(block, local, address, scope, record.space);
        block.acquire(local, address, scope, shared_.sync);
      } else if (legacy_rmw) {
        // A spin on a legacy atomic (while (atomicExch(&flag, 0) == 0);): no acquire in the PTX
        // model unless a fence follows, but GPUs honour the control dependency. The unfenced view
        // acquires now; an acquire fence of the atomic's scope right after it takes the blame back.
        const UnfencedOrigin before = thread.knowledge.origin;
        const bool no_unfenced_before = !thread.knowledge.unfenced;
        if (block.acquire_unfenced(local, address, scope, shared_.sync)) {
          thread.last_read_spin = true;
          thread.origin_before_spin = before;
          thread.no_unfenced_before_spin = no_unfenced_before;
          thread.knowledge.origin = UnfencedOrigin{record.site, scope, false, MemoryScope::kCta, true};
        }
      }
    }
  }
}

bool Worker::check_read(BlockState& block, ThreadState& thread, ConflictChecker& checker, PageCursor& cursor,
                        uint64_t address, const RecordAccess& record) {
  if (record.space != MemorySpace::kGlobal) {
    check_bytes(block, checker, cursor, address, record);
    return true;
  }
  CheckedRead& last = thread.last_checked_read;
  if (!last.same_read(address, record.size, record.site, record.kind, thread.clock)) {
    check_bytes(block, checker, cursor, address, record);
    // Field by field: an aggregate built on the stack and copied in whole stalls on store forwarding
    // (it was most of this function's time).
    last.address = address;
    last.clock = thread.clock;
    last.site = record.site;
    last.kind = record.kind;
    last.size = static_cast<uint16_t>(record.size);
    last.generation_known = false;
    return true;
  }
  // The same read again. Within one stripe only: the generation covers one stripe.
  const uint64_t first_word = address / 4, last_word = (address + record.size - 1) / 4;
  if (record.size == 0 || last_word < first_word || first_word / kWordsPerStripe != last_word / kWordsPerStripe) {
    check_bytes(block, checker, cursor, address, record);
    return true;
  }
  // Taken before the check: a write checked meanwhile moves it on, and the next read is checked.
  const uint32_t generation = cursor.write_generation(first_word);
  if (last.generation_known && last.write_generation == generation) return false;
  check_bytes(block, checker, cursor, address, record);
  last.write_generation = generation;
  last.generation_known = true;
  return true;
}

void Worker::check_bytes(BlockState& block, ConflictChecker& checker, PageCursor& cursor, uint64_t address,
                         const RecordAccess& record) {
  const bool shared = record.space == MemorySpace::kShared;
  const uint64_t last = address + record.size - 1;
  if (last < address || (shared && last >= kMaxSharedBytes)) {
    ++stats_.malformed_records;
    return;
  }
  if (record.size == 4 && (address & 3) == 0) {
    checker.set_word(address);
    if (shared) {
      apply_whole_word_access(block.shared_word(address / 4), checker.stamp(), checker, index_);
      return;
    }
    // A read that went to this worker's own list of the word's reads under the shared lock is done.
    const bool read_shared = !record.kind.write && cursor.try_shared_read(address / 4, checker.stamp(), checker, index_);
    if (!read_shared) {
      ShadowCell& cell = cursor.cell(address / 4);
      apply_whole_word_access(cell, checker.stamp(), checker, index_);
      cursor.note_owner(cell);
      if (record.kind.write) {
        cursor.note_write(address / 4);
      } else {
        cursor.note_own_list(cell, index_);
      }
    }
    if (shared_.earlier && record.space == MemorySpace::kGlobal) check_earlier(block, checker, address / 4, record.size);
    return;
  }
  for (uint64_t word = address / 4; word <= last / 4; ++word) {
    const uint64_t lo = std::max(address, word * 4), hi = std::min(last, word * 4 + 3);
    const uint32_t mask = ((1u << (hi - lo + 1)) - 1) << (lo - word * 4);
    checker.set_word(word * 4);
    ShadowCell& cell = shared ? block.shared_word(word) : cursor.cell(word);
    if (mask == 0xF) {
      // Each word of a wide aligned access (a 16-byte vector load): the inlined whole-word paths.
      apply_whole_word_access(cell, checker.stamp(), checker, index_);
    } else {
      apply_word_access(cell, mask, checker.stamp(), checker, index_);
    }
    if (!shared) cursor.note_owner(cell);
    if (!shared && record.kind.write) cursor.note_write(word);
    if (shared_.earlier && record.space == MemorySpace::kGlobal) check_earlier(block, checker, word, record.size);
  }
}

void Worker::note_write_into_unlogged_loads(uint64_t address) {
  for (const auto& [begin, end] : shared_.launch.unlogged_load_ranges) {
    if (address >= begin && address < end) ++stats_.writes_into_unlogged_loads;
  }
}

void Worker::check_earlier(const BlockState& block, const ConflictChecker& checker, uint64_t word, uint32_t size) {
  const Stamp& current = checker.stamp();
  const ThreadCoord thread{block.id(), raw(current.thread) - raw(block.thread_id(0))};
  shared_.earlier->check(word, current, thread, size, sync_points_, races_, cross_launch_candidates_);
}

void Worker::note_acquire(BlockState& block, uint32_t local, uint64_t address, MemoryScope scope,
                          MemorySpace space) {
  if (space != MemorySpace::kGlobal || scope < MemoryScope::kGpu || !tracks_cross_launch_sync()) return;
  const Clock clock = block.thread(local).clock;
  sync_points_.note_acquire(block.thread_id(local), address, clock);
  block.gpu_acquires().note(local, block.thread_id(local), address, clock);
}

void Worker::inherit_block_acquires(BlockState& block, uint32_t local) {
  ThreadState& thread = block.thread(local);
  const ThreadId self = block.thread_id(local);
  const bool inherited = block.gpu_acquires().hand_on(
      local, [&](ThreadId acquirer, Clock clock) { return block.knows(local, acquirer, clock); },
      [&](uint64_t address) { sync_points_.note_acquire(self, address, thread.clock); });
  // The sync point keeps the thread's current clock: the access about to be stamped and later ones
  // must carry a higher one, its earlier accesses at this clock must not (a thread may learn of the
  // acquire without its clock moving, waiting on an mbarrier). Moving its own clock orders nothing new.
  if (inherited) thread.clock = next(thread.clock);
}

void Worker::apply_fence(const RecordView& fence, BlockState& block) {
  const RecordHeader& h = fence.header();
  const MemorySemantics sem = fence.semantics();
  const MemoryScope scope = fence.scope();
  for (uint32_t m = h.active_mask; m; m &= m - 1) {
    const uint32_t local = h.warp_id * kWarpSize + std::countr_zero(m);
    ThreadState& thread = block.thread(local);
    // Acquire pattern: a read, then this fence.
    if (sem != MemorySemantics::kRelease && thread.has_last_read &&
        (!thread.last_read_fenced || scope > thread.last_read_fence_scope)) {
      // After a spin on a legacy atomic, this is its acquire fence: enough when its scope reaches the
      // atomic's (the spin is no longer to blame), else too narrow (the spin stays the origin).
      const bool spin = thread.last_read_spin;
      const bool enough = scope >= thread.last_read_scope;
      const UnfencedOrigin spin_origin = thread.knowledge.origin;
      if (spin && enough) thread.knowledge.origin = thread.origin_before_spin;
      const MemoryScope acquire_scope = narrower(scope, thread.last_read_scope);
      note_acquire(block, local, thread.last_read_address, acquire_scope, thread.last_read_space);
      const bool fenced_releases_only = block.acquire(local, thread.last_read_address, acquire_scope, shared_.sync);
      // The fence acquired, at the spin's scope and from the same location, everything the spin had
      // taken into the unfenced view (locations only grow): when that view held nothing else, it equals
      // `strict` again, and later joins and releases need not carry it.
      if (spin && enough && thread.no_unfenced_before_spin && fenced_releases_only) thread.knowledge.unfenced = nullptr;
      if (spin && !enough) {
        thread.knowledge.origin = spin_origin;
        thread.knowledge.origin.narrow_fence = true;
        thread.knowledge.origin.fence = scope;
      }
      // Only a fence wider than this one can still add to what the read acquired.
      thread.last_read_fenced = true;
      thread.last_read_fence_scope = scope;
      if (enough) {
        thread.has_last_read = false;
        thread.last_read_spin = false;
      }
    }
    // Release pattern: this fence, then a write. A narrower fence between a wide one and the write
    // leaves the wide one's release in force (data write; __threadfence(); __threadfence_block(); flag).
    if (sem != MemorySemantics::kAcquire) {
      thread.release_scope = thread.release_pending ? std::max(thread.release_scope, scope) : scope;
      thread.release_pending = true;
    }
  }
}

void Worker::apply_barrier(const RecordHeader& h, BlockState& block) {
  // Named barriers (bar.sync id, count) join only their participants, which may include threads
  // that merely bar.arrive; barrier 0 for the whole block (__syncthreads) is the block barrier.
  const uint32_t expected = static_cast<uint32_t>(h.stride);
  if (h.base != 0 || (expected != 0 && expected < shared_.launch.block.volume())) {
    if (h.base >= kHardwareBarriers) return malformed(h, "barrier id above 15");
    block.arrive_partial(static_cast<uint32_t>(h.base), expected ? expected : block.live_threads(), h.warp_id,
                         h.active_mask, Arrival::kWait);
    return;
  }
  const WarpState& warp = block.warp(h.warp_id);
  if (shared_.launch.warp_model == WarpModel::kLockstep && h.active_mask != warp.live_mask) {
    diagnostics_.add(DiagnosticKind::kBarrierDivergence, static_cast<SiteId>(h.site_id), block.id(),
                     "warp " + std::to_string(h.warp_id) + " reached the barrier with inactive lanes");
  }
  block.arrive(h.warp_id, h.active_mask, static_cast<SiteId>(h.site_id));
  if (block.all_arrived()) block.complete_barrier();
}

void Worker::apply_cluster_barrier(const RecordHeader& h, BlockState& block) {
  // Only the block's own threads are ordered: the other blocks of the cluster live on other
  // workers, so the cross-block part is counted as not modelled.
  ++stats_.unsupported_records;
  if (h.base & kClusterBarrierWait) return block.cluster_wait(h.warp_id, h.active_mask);
  block.arrive_partial(kClusterBarrierSlot, block.live_threads(), h.warp_id, h.active_mask,
                       (h.base & kClusterBarrierRelaxed) ? Arrival::kPassRelaxed : Arrival::kPass);
}

void Worker::apply_exit(const RecordHeader& h, BlockState& block) {
  WarpState& warp = block.warp(h.warp_id);
  // Under independent thread scheduling the lanes of a warp exit separately, each group with its own
  // exit record: only the warp's last lanes end it.
  if (block.barrier_pending() && (h.active_mask & ~warp.arrived_mask)) {
    diagnostics_.add(DiagnosticKind::kBarrierDivergence, block.pending_barrier_site(), block.id(),
                     exited_while_waiting(h.warp_id));
  }
  warp.live_mask &= ~h.active_mask;
  warp.arrived_mask &= warp.live_mask;
  warp.exited = warp.live_mask == 0;
  if (block.barrier_pending() && block.all_arrived()) block.complete_barrier();
  const bool all_exited = [&] {
    for (uint32_t w = 0; w < block.warp_count(); ++w) {
      if (!block.warp(w).exited) return false;
    }
    return true;
  }();
  if (all_exited) {
    finished_blocks_[raw(block.id())] = true;
    blocks_.erase(raw(block.id()));
  }
}

void Worker::apply_device_divergence(const RecordHeader& h, BlockState& block) {
  const auto site = static_cast<SiteId>(h.site_id);
  switch (static_cast<BarrierDivergence>(h.base)) {
    case BarrierDivergence::kLetThrough:
      return diagnostics_.add(DiagnosticKind::kBarrierDivergence, site, block.id(), kLetThroughText);
    case BarrierDivergence::kExitedWhileWaiting:
      return diagnostics_.add(DiagnosticKind::kBarrierDivergence, site, block.id(), exited_while_waiting(h.warp_id));
    case BarrierDivergence::kNone:
      break;
  }
  malformed(h, "barrier divergence of no known kind");
}

void Worker::settle_barrier(BlockState& block, uint32_t warp, uint32_t lanes) {
  block.settle_partial(warp, lanes);
  if (block.barrier_pending() && (block.warp(warp).arrived_mask & lanes)) {
    complete_divergent(block, kLetThroughText);
  }
}

void Worker::complete_divergent(BlockState& block, const char* why) {
  diagnostics_.add(DiagnosticKind::kBarrierDivergence, block.pending_barrier_site(), block.id(), why);
  block.complete_barrier();
}

void Worker::finish_launch(bool pending_barriers_diverged) {
  for (auto& [id, block] : blocks_) {
    if (pending_barriers_diverged && block->barrier_pending()) {
      complete_divergent(*block, "the launch ended while threads waited at the barrier");
    }
  }
  blocks_.clear();
  finished_blocks_.clear();
}

}  // namespace barracuda::engine
