#pragma once
// Records held back until their turn in the launch's sync-ticket order (barracuda/record_ops.inc,
// RecordOp::kSyncTicket). Once a warp has a held-back record, every later record of that warp is
// held behind it: one FIFO per warp keeps program order, which is all the engine needs within a
// warp. One worker owns its DeferredWarps (no lock).
//
// The front of each FIFO is indexed: by its ticket when it has one (a warp's tickets increase in
// program order, so the front holds the warp's lowest), else in the set of unticketed fronts (held
// behind a barrier, worker_order.cpp). Finding the warp whose turn has come is then a lookup, not
// a walk over every held-back warp: atomics-heavy kernels hold back thousands of warps.
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <vector>

#include "barracuda/record.h"

namespace barracuda::engine {

struct DeferredRecord {
  std::optional<uint64_t> ticket;
  std::vector<RecordHeader> slots;  // the record's header, then its address payload

  const RecordHeader& header() const { return slots.front(); }
  std::span<const RecordHeader> payload() const { return std::span(slots).subspan(1); }
};

class DeferredWarps {
 public:
  using Fifo = std::deque<DeferredRecord>;
  // Ordered by (block, warp), so the warps of one block are adjacent.
  using Map = std::map<uint64_t, Fifo>;

  static uint64_t key(uint32_t block, uint16_t warp) { return uint64_t{block} << 16 | warp; }
  static uint16_t warp_of(uint64_t key) { return static_cast<uint16_t>(key); }

  bool empty() const { return warps_.empty(); }
  bool holds(const RecordHeader& h) const { return warps_.contains(key(h.block_id, h.warp_id)); }
  void push(std::optional<uint64_t> ticket, const RecordHeader& h, std::span<const RecordHeader> payload);
  // The front record of warp `warp_key` (null when it holds nothing back), and its removal.
  const DeferredRecord* front(uint64_t warp_key) const {
    const auto found = warps_.find(warp_key);
    return found == warps_.end() ? nullptr : &found->second.front();
  }
  DeferredRecord pop_front(uint64_t warp_key);
  // The held-back warp whose front record carries the lowest ticket, if that ticket is <= `ticket`
  // (below it only when a ticket was used twice).
  std::optional<uint64_t> warp_with_front_ticket_up_to(uint64_t ticket) const;
  bool has_front_ticket_up_to(uint64_t ticket) const {
    return !by_front_ticket_.empty() && by_front_ticket_.begin()->first <= ticket;
  }
  // Held-back warps whose front record carries no ticket.
  std::vector<uint64_t> unticketed_fronts() const { return {unticketed_fronts_.begin(), unticketed_fronts_.end()}; }
  // The held-back warps of `block`, as a range of Map entries.
  std::pair<Map::const_iterator, Map::const_iterator> block_warps(uint32_t block) const;
  // Every held-back record, warp by warp, in program order; leaves nothing held back.
  template <typename Apply>
  void drain_all(Apply&& apply) {
    for (const auto& [warp, fifo] : warps_) {
      for (const DeferredRecord& record : fifo) apply(record);
    }
    warps_.clear();
    by_front_ticket_.clear();
    unticketed_fronts_.clear();
    held_tickets_.clear();
  }
  // The lowest ticket any held-back record waits for.
  std::optional<uint64_t> lowest_ticket() const;

 private:
  void index_front(uint64_t warp_key, const DeferredRecord& record);

  Map warps_;
  std::set<std::pair<uint64_t, uint64_t>> by_front_ticket_;  // (front ticket, warp key): a malformed stream may repeat a ticket
  std::set<uint64_t> unticketed_fronts_;
  std::multiset<uint64_t> held_tickets_;  // of every held-back record (one may wait behind an unticketed front)
};

}  // namespace barracuda::engine
