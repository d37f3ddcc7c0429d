// The causal order of synchronisation across queues: a ticketed record (RecordOp::kSyncTicket) is
// applied only once every smaller ticket of the launch has been; until then its warp is held back
// (DeferredWarps) while the worker goes on with other warps. Never blocks on another worker.
#include <string>

#include "engine/worker.h"

namespace barracuda::engine {

void Worker::submit(std::optional<uint64_t> ticket, const RecordHeader& h, std::span<const RecordHeader> payload) {
  if (deferred_.holds(h) || !ready(ticket, h)) {
    deferred_.push(ticket, h, payload);
  } else {
    apply_ticketed(ticket, h, payload);
    if (ticket && has_deferred()) retry_deferred();
  }
  // Another worker may have handed the turn to a warp held back here: take it now, not at the next
  // drained batch (a batch can take milliseconds, and a lock-heavy launch passes the turn between
  // workers hundreds of thousands of times).
  catch_up();
}

bool Worker::ready(std::optional<uint64_t> ticket, const RecordHeader& h) {
  if (ticket && *ticket > shared_.tickets.next()) return false;
  return !waits_at_barrier_for_deferred_warp(h);
}

// A warp that waits at a pending barrier of its block (the block barrier or a named one) was
// released on the GPU only once the others arrived. If a block-mate that is not waiting yet is held
// back, its arrival may still be to come: applying the waiting warp's next record now would
// complete the barrier early (as divergent) and order nothing.
bool Worker::waits_at_barrier_for_deferred_warp(const RecordHeader& h) {
  if (!has_deferred()) return false;
  const auto found = blocks_.find(h.block_id);
  if (found == blocks_.end()) return false;
  BlockState& block = *found->second;
  if (h.warp_id >= block.warp_count() || (block.waiting_lanes(h.warp_id) & h.active_mask) == 0) return false;
  const auto [first, last] = deferred_.block_warps(h.block_id);
  for (auto it = first; it != last; ++it) {
    const uint16_t other = DeferredWarps::warp_of(it->first);
    if (other == h.warp_id || other >= block.warp_count()) continue;
    if (block.warp(other).live_mask & ~block.waiting_lanes(other)) return true;
  }
  return false;
}

void Worker::apply_ticketed(std::optional<uint64_t> ticket, const RecordHeader& h,
                            std::span<const RecordHeader> payload) {
  apply(h, payload);
  if (!ticket) return;
  if (*ticket == shared_.tickets.next()) {
    shared_.tickets.applied(*ticket);
  } else {
    diagnostics_.add(DiagnosticKind::kMalformedRecord, static_cast<SiteId>(h.site_id),
                     static_cast<BlockId>(h.block_id),
                     "sync ticket " + std::to_string(*ticket) + " used twice: record applied out of ticket order");
  }
}

bool Worker::retry_deferred() {
  bool applied_any = false;
  for (bool progress = true; progress;) {
    progress = false;
    // The warp holding the next ticket, as long as there is one: its records may hand the turn on.
    // (A front ticket below the next one was used twice: apply_ticketed reports it.)
    for (;;) {
      std::optional<uint64_t> warp = deferred_.warp_holding(shared_.tickets.next());
      if (!warp) warp = deferred_.warp_with_front_ticket_up_to(shared_.tickets.next());
      if (!warp || !apply_ready(*warp)) break;
      progress = true;
    }
    // Warps held behind a barrier: a block-mate's progress may have released them.
    for (const uint64_t warp : deferred_.unticketed_fronts()) progress |= apply_ready(warp);
    applied_any |= progress;
  }
  return applied_any;
}

bool Worker::apply_ready(uint64_t warp) {
  bool applied = false;
  const auto is_ready = [this](const DeferredRecord& record) { return ready(record.ticket, record.header()); };
  while (const DeferredRecord* front = deferred_.front(warp)) {
    std::optional<DeferredRecord> record;
    if (is_ready(*front)) {
      record = deferred_.pop_front(warp);
    } else if (deferred_.warp_holding(shared_.tickets.next()) == warp) {
      // The turn is this warp's, but behind its front: a diverged group logged it late.
      record = deferred_.take_ready(warp, is_ready);
    }
    if (!record) break;
    apply_ticketed(record->ticket, record->header(), record->payload());
    applied = true;
  }
  return applied;
}

void Worker::flush_deferred() {
  deferred_.drain_all([this](const DeferredRecord& record) { apply(record.header(), record.payload()); });
}

}  // namespace barracuda::engine
