#include "engine/deferred_warps.h"

#include <algorithm>

namespace barracuda::engine {

void DeferredWarps::push(std::optional<uint64_t> ticket, const RecordHeader& h, std::span<const RecordHeader> payload) {
  DeferredRecord record{ticket, {}};
  record.slots.reserve(1 + payload.size());
  record.slots.push_back(h);
  record.slots.insert(record.slots.end(), payload.begin(), payload.end());
  warps_[key(h.block_id, h.warp_id)].push_back(std::move(record));
}

std::pair<DeferredWarps::Map::iterator, DeferredWarps::Map::iterator> DeferredWarps::block_warps(uint32_t block) {
  return {warps_.lower_bound(key(block, 0)), warps_.upper_bound(key(block, UINT16_MAX))};
}

std::optional<uint64_t> DeferredWarps::lowest_ticket() const {
  std::optional<uint64_t> lowest;
  for (const auto& [warp, fifo] : warps_) {
    for (const DeferredRecord& record : fifo) {
      if (record.ticket) lowest = std::min(lowest.value_or(*record.ticket), *record.ticket);
    }
  }
  return lowest;
}

}  // namespace barracuda::engine
