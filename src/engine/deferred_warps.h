#pragma once
// Records held back until their turn in the launch's sync-ticket order (barracuda/record_ops.inc,
// RecordOp::kSyncTicket). Once a warp has a held-back record, every later record of that warp is
// held behind it: one FIFO per warp keeps each lane's program order, which is all the engine needs
// within a warp. One worker owns its DeferredWarps (no lock).
//
// A warp's tickets need not increase along its FIFO: under independent thread scheduling two
// diverged groups of one warp each take a ticket and then reserve queue slots, so the group that
// took the later ticket may log first (measured on the H100: a lane's fence with ticket 3493 before
// another lane's unlock with ticket 3492). Each lane's own records are in program order and in
// ticket order, so a record may go before earlier held records of its warp that share no lane with
// it (take_ready). Applying the FIFO strictly in order instead waited for a ticket held behind itself
// until the launch ended.
//
// The front of each FIFO is indexed: by its ticket when it has one, else in the set of unticketed
// fronts (held behind a barrier, worker_order.cpp); every held ticket maps to its warp, so finding
// the warp whose turn has come is a lookup, not a walk over every held-back warp.
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
  // The warp holding the record with ticket `ticket` (anywhere in its FIFO), if one is held here.
  std::optional<uint64_t> warp_holding(uint64_t ticket) const;
  // Removes and returns the first record of warp `warp_key` that `ready` accepts and that shares no
  // lane with any record held before it; nullopt when there is none.
  template <typename Ready>
  std::optional<DeferredRecord> take_ready(uint64_t warp_key, Ready&& ready);
  // The held-back warp whose front record carries the lowest ticket, if that ticket is <= `ticket`
  // (below it only when a ticket was used twice).
  std::optional<uint64_t> warp_with_front_ticket_up_to(uint64_t ticket) const;
  // Whether a held-back record carries a ticket up to `ticket` (its turn may have come).
  bool holds_ticket_up_to(uint64_t ticket) const {
    return !ticket_warps_.empty() && ticket_warps_.begin()->first <= ticket;
  }
  // Held-back warps whose front record carries no ticket.
  std::vector<uint64_t> unticketed_fronts() const { return {unticketed_fronts_.begin(), unticketed_fronts_.end()}; }
  // The same, of one block only (a copy: applying them changes the set).
  std::vector<uint64_t> unticketed_fronts_of(uint32_t block) const {
    return {unticketed_fronts_.lower_bound(key(block, 0)), unticketed_fronts_.upper_bound(key(block, UINT16_MAX))};
  }
  static uint32_t block_of(uint64_t key) { return static_cast<uint32_t>(key >> 16); }
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
    ticket_warps_.clear();
  }
  // The lowest ticket any held-back record waits for.
  std::optional<uint64_t> lowest_ticket() const;

 private:
  void index_front(uint64_t warp_key, const DeferredRecord& record);
  void unindex_front(uint64_t warp_key, const DeferredRecord& record);
  // Removes entry `at` of the warp's FIFO (at > 0 keeps the front and its index).
  DeferredRecord remove(Map::iterator warp, size_t at);

  Map warps_;
  std::set<std::pair<uint64_t, uint64_t>> by_front_ticket_;  // (front ticket, warp key): a malformed stream may repeat a ticket
  std::set<uint64_t> unticketed_fronts_;
  std::multimap<uint64_t, uint64_t> ticket_warps_;  // ticket -> warp key, of every held-back ticketed record
};

template <typename Ready>
std::optional<DeferredRecord> DeferredWarps::take_ready(uint64_t warp_key, Ready&& ready) {
  const auto warp = warps_.find(warp_key);
  if (warp == warps_.end()) return std::nullopt;
  uint32_t lanes_before = 0;
  for (size_t at = 0; at < warp->second.size(); ++at) {
    const DeferredRecord& record = warp->second[at];
    const uint32_t lanes = record.header().active_mask != 0 ? record.header().active_mask : ~0u;  // none: keep its place
    if ((lanes & lanes_before) == 0 && ready(record)) return remove(warp, at);
    lanes_before |= lanes;
    if (lanes_before == ~0u) break;  // every later record shares a lane with an earlier one
  }
  return std::nullopt;
}

}  // namespace barracuda::engine
