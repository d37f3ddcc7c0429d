#pragma once
// The launch's progress through its sync tickets (RecordOp::kSyncTicket), shared by all workers.
// Tickets count per location bucket (barracuda/sync_bucket.h): the ticketed records of one bucket are
// applied strictly in ticket order, those of different buckets independently. Only the holder of
// ticket `next(bucket)` may apply its record, then it calls applied(). Tickets are unique, so at most
// one worker at a time can advance a bucket and it needs no lock; release/acquire make the applied
// record's effects (sync map, shadow) visible to the worker that applies the bucket's next ticket.
//
// A worker holding records back in a bucket registers there (wait_in); applied() then leaves a note
// in that worker's mailbox, so a worker finds the buckets whose turn may have come without looking at
// every record it holds (a lock-heavy launch hands turns on hundreds of thousands of times).
#include <array>
#include <atomic>
#include <compare>
#include <cstdint>
#include <memory>
#include <vector>

#include "barracuda/sync_bucket.h"
#include "engine/ids.h"

namespace barracuda::engine {

struct SyncTicket {
  uint32_t bucket = 0;  // < kSyncBuckets
  uint64_t number = 0;  // the bucket's 0, 1, 2, ... in this launch
  friend auto operator<=>(const SyncTicket&, const SyncTicket&) = default;
};

class SyncTickets {
 public:
  explicit SyncTickets(uint32_t workers);

  // Every ticket of `bucket` below this one has been applied.
  uint64_t next(uint32_t bucket) const { return next_[bucket].load(std::memory_order_acquire); }
  // Whether `ticket`'s record may be applied now: every smaller ticket of its bucket has been.
  bool turn_came(const SyncTicket& ticket) const { return ticket.number <= next(ticket.bucket); }
  // The holder of `ticket` (== next(ticket.bucket)) applied its record: hands the bucket's turn on and
  // notes it for every worker waiting there.
  void applied(SyncTicket ticket);
  // End of launch only (no worker running): tickets [next(bucket), ticket) never arrived.
  void skip_to(SyncTicket ticket) {
    note_used();
    next_[ticket.bucket].store(ticket.number, std::memory_order_release);
  }
  // Before a launch (no worker running).
  void reset();

  // `worker` holds a record back for a ticket of `bucket`: applied() there notes it from now on.
  // Lock-free with applied(): either this call sees the bucket's new turn or applied() sees the waiter.
  void wait_in(uint32_t bucket, WorkerIndex worker);
  // `worker` holds nothing back in `bucket` any more.
  void stop_waiting(uint32_t bucket, WorkerIndex worker);
  // Notes for `worker` that the turn of `bucket` may have come.
  void poke(uint32_t bucket, WorkerIndex worker);
  // Whether a note waits for `worker` (one relaxed load: called after every record).
  bool poked(WorkerIndex worker) const { return mailbox(worker).any.load(std::memory_order_relaxed); }
  // The buckets noted for `worker` since it last looked; clears them.
  std::vector<uint32_t> take_pokes(WorkerIndex worker);

 private:
  static constexpr uint32_t kWords = kSyncBuckets / 64;
  // Noted buckets, 64 to a word, and the words noted, 64 to a summary word: a look costs the summary
  // words and the words with a note, not all 256 words of the 16,384 buckets.
  static_assert(kWords % 64 == 0, "whole summary words");
  struct Mailbox {
    std::atomic<bool> any{false};
    std::array<std::atomic<uint64_t>, kWords / 64> summary{};
    std::array<std::atomic<uint64_t>, kWords> buckets{};
  };
  Mailbox& mailbox(WorkerIndex worker) const { return *mailboxes_[static_cast<uint32_t>(worker)]; }
  // A bucket's waiters, bit (worker % 64): with more than 64 workers two share a bit and both are noted.
  static uint64_t waiter_bit(WorkerIndex worker) { return uint64_t{1} << (static_cast<uint32_t>(worker) % 64); }

  std::unique_ptr<std::atomic<uint64_t>[]> next_ = std::make_unique<std::atomic<uint64_t>[]>(kSyncBuckets);
  std::unique_ptr<std::atomic<uint64_t>[]> waiting_ = std::make_unique<std::atomic<uint64_t>[]>(kSyncBuckets);
  std::vector<std::unique_ptr<Mailbox>> mailboxes_;
  // A ticket was applied or waited for since the last reset: most launches take none, and clearing
  // 16,384 buckets for each of a program's thousands of small launches would cost more than they do.
  std::atomic<bool> used_{false};
  void note_used() {
    if (!used_.load(std::memory_order_relaxed)) used_.store(true, std::memory_order_relaxed);
  }
};

}  // namespace barracuda::engine
