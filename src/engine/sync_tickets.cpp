#include "engine/sync_tickets.h"

#include <bit>

namespace barracuda::engine {

SyncTickets::SyncTickets(uint32_t workers) {
  for (uint32_t i = 0; i < workers; ++i) mailboxes_.push_back(std::make_unique<Mailbox>());
}

void SyncTickets::applied(SyncTicket ticket) {
  // seq_cst store then load, against wait_in's seq_cst read-modify-write then load: one of the two
  // sees the other, so no waiter misses its turn.
  note_used();
  next_[ticket.bucket].store(ticket.number + 1, std::memory_order_seq_cst);
  uint64_t waiters = waiting_[ticket.bucket].load(std::memory_order_seq_cst);
  for (; waiters != 0; waiters &= waiters - 1) {
    for (uint32_t worker = static_cast<uint32_t>(std::countr_zero(waiters)); worker < mailboxes_.size(); worker += 64) {
      poke(ticket.bucket, static_cast<WorkerIndex>(worker));
    }
  }
}

void SyncTickets::reset() {
  if (!used_.exchange(false, std::memory_order_relaxed)) return;
  for (uint32_t bucket = 0; bucket < kSyncBuckets; ++bucket) {
    next_[bucket].store(0, std::memory_order_relaxed);
    waiting_[bucket].store(0, std::memory_order_relaxed);
  }
  for (const auto& box : mailboxes_) {
    box->any.store(false, std::memory_order_relaxed);
    for (std::atomic<uint64_t>& word : box->summary) word.store(0, std::memory_order_relaxed);
    for (std::atomic<uint64_t>& word : box->buckets) word.store(0, std::memory_order_relaxed);
  }
  std::atomic_thread_fence(std::memory_order_release);
}

void SyncTickets::wait_in(uint32_t bucket, WorkerIndex worker) {
  note_used();
  const uint64_t bit = waiter_bit(worker);
  if ((waiting_[bucket].load(std::memory_order_relaxed) & bit) == 0) {
    waiting_[bucket].fetch_or(bit, std::memory_order_seq_cst);
  } else {
    std::atomic_thread_fence(std::memory_order_seq_cst);
  }
}

void SyncTickets::stop_waiting(uint32_t bucket, WorkerIndex worker) {
  if (mailboxes_.size() > 64) return;  // the bit may be another worker's too
  waiting_[bucket].fetch_and(~waiter_bit(worker), std::memory_order_relaxed);
}

void SyncTickets::poke(uint32_t bucket, WorkerIndex worker) {
  Mailbox& box = mailbox(worker);
  note_used();
  // Word, then summary, then `any`: a look that misses the summary bit finds `any` set again.
  box.buckets[bucket / 64].fetch_or(uint64_t{1} << (bucket % 64), std::memory_order_relaxed);
  box.summary[bucket / 4096].fetch_or(uint64_t{1} << (bucket / 64 % 64), std::memory_order_release);
  box.any.store(true, std::memory_order_release);
}

std::vector<uint32_t> SyncTickets::take_pokes(WorkerIndex worker) {
  std::vector<uint32_t> buckets;
  Mailbox& box = mailbox(worker);
  if (!box.any.exchange(false, std::memory_order_acq_rel)) return buckets;
  for (uint32_t top = 0; top < box.summary.size(); ++top) {
    if (box.summary[top].load(std::memory_order_relaxed) == 0) continue;
    for (uint64_t words = box.summary[top].exchange(0, std::memory_order_acquire); words != 0; words &= words - 1) {
      const uint32_t w = top * 64 + static_cast<uint32_t>(std::countr_zero(words));
      for (uint64_t bits = box.buckets[w].exchange(0, std::memory_order_relaxed); bits != 0; bits &= bits - 1) {
        buckets.push_back(w * 64 + static_cast<uint32_t>(std::countr_zero(bits)));
      }
    }
  }
  return buckets;
}

}  // namespace barracuda::engine
