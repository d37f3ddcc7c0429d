#pragma once
// Records held back until their turn in the launch's sync-ticket order (barracuda/record.h,
// RecordOp::kSyncTicket). Once a warp has a held-back record, every later record of that warp is
// held behind it: one FIFO per warp keeps program order, which is all the engine needs within a
// warp. One worker owns its DeferredWarps (no lock).
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
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
  // The held-back warps of `block`, as a range of Map entries.
  std::pair<Map::iterator, Map::iterator> block_warps(uint32_t block);
  Map& warps() { return warps_; }
  // The lowest ticket any held-back record waits for.
  std::optional<uint64_t> lowest_ticket() const;

 private:
  Map warps_;
};

}  // namespace barracuda::engine
