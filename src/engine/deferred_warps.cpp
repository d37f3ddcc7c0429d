#include "engine/deferred_warps.h"


namespace barracuda::engine {

void DeferredWarps::push(std::optional<uint64_t> ticket, const RecordHeader& h, std::span<const RecordHeader> payload) {
  DeferredRecord record{ticket, {}};
  record.slots.reserve(1 + payload.size());
  record.slots.push_back(h);
  record.slots.insert(record.slots.end(), payload.begin(), payload.end());
  if (ticket) held_tickets_.insert(*ticket);
  const uint64_t warp_key = key(h.block_id, h.warp_id);
  Fifo& fifo = warps_[warp_key];
  fifo.push_back(std::move(record));
  if (fifo.size() == 1) index_front(warp_key, fifo.front());
}

void DeferredWarps::index_front(uint64_t warp_key, const DeferredRecord& record) {
  if (record.ticket) {
    by_front_ticket_.insert({*record.ticket, warp_key});
  } else {
    unticketed_fronts_.insert(warp_key);
  }
}

DeferredRecord DeferredWarps::pop_front(uint64_t warp_key) {
  const auto found = warps_.find(warp_key);
  Fifo& fifo = found->second;
  DeferredRecord record = std::move(fifo.front());
  fifo.pop_front();
  if (record.ticket) {
    held_tickets_.erase(held_tickets_.find(*record.ticket));
    by_front_ticket_.erase({*record.ticket, warp_key});
  } else {
    unticketed_fronts_.erase(warp_key);
  }
  if (fifo.empty()) {
    warps_.erase(found);
  } else {
    index_front(warp_key, fifo.front());
  }
  return record;
}

std::optional<uint64_t> DeferredWarps::warp_with_front_ticket_up_to(uint64_t ticket) const {
  if (by_front_ticket_.empty() || by_front_ticket_.begin()->first > ticket) return std::nullopt;
  return by_front_ticket_.begin()->second;
}

std::pair<DeferredWarps::Map::const_iterator, DeferredWarps::Map::const_iterator> DeferredWarps::block_warps(
    uint32_t block) const {
  return {warps_.lower_bound(key(block, 0)), warps_.upper_bound(key(block, UINT16_MAX))};
}

std::optional<uint64_t> DeferredWarps::lowest_ticket() const {
  if (held_tickets_.empty()) return std::nullopt;
  return *held_tickets_.begin();
}

}  // namespace barracuda::engine
