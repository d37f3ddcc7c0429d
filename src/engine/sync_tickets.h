#pragma once
// The launch's progress through its sync tickets (RecordOp::kSyncTicket), shared by all workers.
// Ticketed records are applied strictly in ticket order: only the holder of ticket `next()` may
// apply its record, then it calls applied(). Tickets are unique, so at most one worker at a time
// can advance the counter and it needs no lock; release/acquire make the applied record's effects
// (sync map, shadow) visible to the worker that applies the next ticket.
#include <atomic>
#include <cstdint>

namespace barracuda::engine {

class SyncTickets {
 public:
  // Every ticket below this one has been applied.
  uint64_t next() const { return next_.load(std::memory_order_acquire); }
  void applied(uint64_t ticket) { next_.store(ticket + 1, std::memory_order_release); }
  // End of launch only (no worker running): tickets [next(), ticket) never arrived; go on without them.
  void skip_to(uint64_t ticket) { next_.store(ticket, std::memory_order_release); }
  void reset() { next_.store(0, std::memory_order_release); }

 private:
  std::atomic<uint64_t> next_{0};
};

}  // namespace barracuda::engine
