// The causal order of synchronisation across queues: a ticketed record (RecordOp::kSyncTicket) is
// applied only once every smaller ticket of its location bucket has been; until then its warp is held
// back (DeferredWarps) while the worker goes on with other warps. Never blocks on another worker.
#include <algorithm>
#include <string>

#include "engine/worker.h"

namespace barracuda::engine {

void Worker::submit(std::optional<SyncTicket> ticket, const RecordHeader& h, std::span<const RecordHeader> payload) {
  // A branch record no lane took (logged only when recording, kLaunchLogsEveryRecord) names no lane,
  // so held back it would order the whole warp behind it; under independent thread scheduling it
  // orders nothing at all (a recorded lock-heavy launch deadlocked on it and was then applied in warp
  // order, with false races).
  if (!ticket && h.active_mask == 0 && shared_.launch.warp_model != WarpModel::kLockstep &&
      record_op_kind(static_cast<RecordOp>(h.op)) == RecordOpKind::kControlFlow) {
    return;
  }
  // A record of a held-back warp goes first when it shares no lane with the warp's held records (their
  // threads are independent: each lane's records keep their order; deferred_warps.h). In lock code
  // every lane waits for its own lock's turn, and the warp is held back nearly all the time.
  // (Not under the lockstep warp model, where a warp's records order all its lanes.)
  const uint32_t held = deferred_.held_lanes(h);
  const bool behind_own_lanes =
      held != 0 && ((held & DeferredWarps::lanes_of(h)) != 0 || shared_.launch.warp_model == WarpModel::kLockstep);
  // An unticketed memory access under independent thread scheduling is one access per lane: the lanes
  // that hold nothing back go now, and only the others wait behind their own records.
  const bool divisible = !ticket && h.active_mask != 0 && shared_.launch.warp_model != WarpModel::kLockstep &&
                         record_op_kind(static_cast<RecordOp>(h.op)) == RecordOpKind::kMemory &&
                         (h.flags & kFlagSameValue) == 0;
  if (behind_own_lanes && divisible && (h.active_mask & ~held) != 0 && ready(ticket, h)) {
    RecordHeader free_lanes = h;
    free_lanes.active_mask = h.active_mask & ~held;
    apply_ticketed(std::nullopt, free_lanes, payload);
    RecordHeader held_lanes = h;
    held_lanes.active_mask = h.active_mask & held;
    deferred_.push(std::nullopt, held_lanes, payload, true);
    stats_.peak_held_back_records = std::max(stats_.peak_held_back_records, deferred_.size());
  } else if (behind_own_lanes || !ready(ticket, h)) {
    deferred_.push(ticket, h, payload, divisible);
    stats_.peak_held_back_records = std::max(stats_.peak_held_back_records, deferred_.size());
    if (ticket) {
      // Registered before looking at the turn again: a turn handed on meanwhile is noted either way.
      shared_.tickets.wait_in(ticket->bucket, index_);
      if (shared_.tickets.turn_came(*ticket)) shared_.tickets.poke(ticket->bucket, index_);
    }
  } else {
    apply_ticketed(ticket, h, payload);
    // The record may release block-mates held at a barrier.
    if (has_deferred()) take_turns(h.block_id);
  }
  // Another worker may have handed a bucket's turn to a warp held back here: take it now, not at the
  // next drained batch (a batch can take milliseconds, and a lock-heavy launch passes turns between
  // workers hundreds of thousands of times).
  catch_up();
}

bool Worker::ready(std::optional<SyncTicket> ticket, const RecordHeader& h) {
  if (ticket && !shared_.tickets.turn_came(*ticket)) return false;
  return !waits_at_barrier_for_deferred_warp(h);
}

bool Worker::ready_in_warp(const DeferredRecord& record, const BlockState* block) {
  if (record.ticket && !shared_.tickets.turn_came(*record.ticket)) return false;
  // Most held records have no lane waiting at a barrier: that needs no walk over the block's warps.
  const RecordHeader& h = record.header();
  if (block == nullptr || h.warp_id >= block->warp_count() || (block->waiting_lanes(h.warp_id) & h.active_mask) == 0) {
    return true;
  }
  return !waits_at_barrier_for_deferred_warp(h);
}

// A warp that waits at a pending barrier of its block (the block barrier or a named one) was
// released on the GPU only once the others arrived. If a block-mate that is not waiting yet is held
// back, its arrival may still be to come: applying the waiting warp's next record now would
// complete the barrier early (as divergent) and order nothing. The same holds for held-back lanes of
// the record's own warp (a grid sync: lane 0 spins on the grid's counter while its warp-mates wait
// at the barrier after it); its lanes that hold nothing back arrive through records still to come.
bool Worker::waits_at_barrier_for_deferred_warp(const RecordHeader& h) {
  if (!has_deferred()) return false;
  const auto found = blocks_.find(h.block_id);
  if (found == blocks_.end()) return false;
  BlockState& block = *found->second;
  if (h.warp_id >= block.warp_count() || (block.waiting_lanes(h.warp_id) & h.active_mask) == 0) return false;
  for (const uint16_t other : deferred_.block_warps(h.block_id)) {
    if (other >= block.warp_count()) continue;
    uint32_t not_arrived = block.warp(other).live_mask & ~block.waiting_lanes(other);
    if (other == h.warp_id) not_arrived &= deferred_.held_lanes(h);
    if (not_arrived != 0) return true;
  }
  return false;
}

void Worker::apply_ticketed(std::optional<SyncTicket> ticket, const RecordHeader& h,
                            std::span<const RecordHeader> payload) {
  apply(h, payload);
  if (!ticket) return;
  if (ticket->number == shared_.tickets.next(ticket->bucket)) {
    shared_.tickets.applied(*ticket);
  } else {
    diagnostics_.add(DiagnosticKind::kMalformedRecord, static_cast<SiteId>(h.site_id),
                     static_cast<BlockId>(h.block_id),
                     "sync ticket " + std::to_string(ticket->number) + " of location bucket " +
                         std::to_string(ticket->bucket) + " used twice: record applied out of ticket order");
  }
}

bool Worker::retry_deferred() { return take_turns(std::nullopt, true); }

bool Worker::take_turns(std::optional<uint32_t> block, bool every_block) {
  bool applied_any = false;
  // Blocks whose held-back warps may wait at a barrier a record just applied there completed: only
  // their unticketed fronts are looked at again (a launch can hold back a hundred thousand warps, and
  // turns pass once per ticket).
  std::vector<uint32_t> touched;
  if (block) touched.push_back(*block);
  for (bool progress = true; progress && !shared_.stopping.load(std::memory_order_relaxed);) {
    progress = false;
    std::vector<uint32_t> buckets = shared_.tickets.take_pokes(index_);
    if (every_block) {
      deferred_.append_held_buckets(buckets);
    }
    for (const uint32_t bucket : buckets) {
      // The warp holding the bucket's turn, as long as there is one: its records may hand it on.
      // (A held ticket below the turn was used twice: apply_ticketed reports it.)
      for (;;) {
        const std::optional<uint64_t> warp = deferred_.warp_holding_up_to(bucket, shared_.tickets.next(bucket));
        if (!warp || shared_.stopping.load(std::memory_order_relaxed) || !apply_ready(*warp, bucket)) break;
        progress = true;
        touched.push_back(DeferredWarps::block_of(*warp));
      }
      if (!deferred_.holds_in_bucket(bucket)) shared_.tickets.stop_waiting(bucket, index_);
    }
    std::vector<uint64_t> fronts;
    if (every_block) {
      fronts = deferred_.unticketed_fronts();
      every_block = false;
    } else {
      std::sort(touched.begin(), touched.end());
      touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
      for (const uint32_t b : touched) {
        const std::vector<uint64_t> of_block = deferred_.unticketed_fronts_of(b);
        fronts.insert(fronts.end(), of_block.begin(), of_block.end());
      }
    }
    touched.clear();
    for (const uint64_t warp : fronts) {
      if (apply_ready(warp)) {
        progress = true;
        touched.push_back(DeferredWarps::block_of(warp));
      }
    }
    applied_any |= progress;
  }
  return applied_any;
}

bool Worker::apply_ready(uint64_t warp, std::optional<uint32_t> bucket) {
  bool applied = false;
  // The warp's block, looked up once per applied record (a record may end the block) rather than once
  // for each held record looked at: a look at up to 32 lanes' oldest records follows every record applied.
  const BlockState* block = nullptr;
  const auto find_block = [&] {
    const auto found = blocks_.find(DeferredWarps::block_of(warp));
    block = found == blocks_.end() ? nullptr : found->second.get();
  };
  find_block();
  const auto is_ready = [&](const DeferredRecord& record) { return ready_in_warp(record, block); };
  while (const DeferredRecord* front = deferred_.front(warp)) {
    std::optional<DeferredRecord> record;
    if (is_ready(*front)) {
      record = deferred_.pop_front(warp);
    } else if (shared_.launch.warp_model != WarpModel::kLockstep ||
               (bucket && deferred_.warp_holding_up_to(*bucket, shared_.tickets.next(*bucket)) == warp)) {
      // A record behind the front whose turn has come. Under independent thread scheduling any such
      // record that shares no lane with an earlier held one: a turn handed on while its record waited
      // behind its own lanes is not noted again, and taking only the bucket just handed on left the
      // others for the launch's end (hash_table: the kernel over in seconds, then one thread applying
      // its backlog for minutes). Under lockstep, only the bucket's turn just handed on: a diverged
      // group logged it late.
      record = deferred_.take_ready(warp, is_ready,
                                    [this](const SyncTicket& ticket) { return shared_.tickets.turn_came(ticket); });
    }
    if (!record) break;
    std::array<RecordHeader, kMaxPayloadSlots> buffer;
    apply_ticketed(record->ticket, record->header(), record->payload(buffer));
    deferred_.recycle(std::move(*record));
    applied = true;
    find_block();
  }
  return applied;
}

bool Worker::flush_deferred() {
  return deferred_.drain_all([this] { return !shared_.stopping.load(std::memory_order_relaxed); },
                             [this](const DeferredRecord& record) {
                               std::array<RecordHeader, kMaxPayloadSlots> buffer;
                               apply(record.header(), record.payload(buffer));
                             });
}

}  // namespace barracuda::engine
