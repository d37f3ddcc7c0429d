#include "engine/deferred_warps.h"

#include <iterator>

namespace barracuda::engine {

void DeferredWarps::push(std::optional<uint64_t> ticket, const RecordHeader& h, std::span<const RecordHeader> payload) {
  DeferredRecord record{ticket, {}};
  record.slots.reserve(1 + payload.size());
  record.slots.push_back(h);
  record.slots.insert(record.slots.end(), payload.begin(), payload.end());
  const uint64_t warp_key = key(h.block_id, h.warp_id);
  if (ticket) ticket_warps_.emplace(*ticket, warp_key);
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

void DeferredWarps::unindex_front(uint64_t warp_key, const DeferredRecord& record) {
  if (record.ticket) {
    by_front_ticket_.erase({*record.ticket, warp_key});
  } else {
    unticketed_fronts_.erase(warp_key);
  }
}

DeferredRecord DeferredWarps::remove(Map::iterator warp, size_t at) {
  Fifo& fifo = warp->second;
  const uint64_t warp_key = warp->first;
  if (at == 0) unindex_front(warp_key, fifo.front());
  DeferredRecord record = std::move(fifo[at]);
  fifo.erase(fifo.begin() + static_cast<std::ptrdiff_t>(at));
  if (record.ticket) {
    for (auto [it, end] = ticket_warps_.equal_range(*record.ticket); it != end; ++it) {
      if (it->second == warp_key) {
        ticket_warps_.erase(it);
        break;
      }
    }
  }
  if (fifo.empty()) {
    warps_.erase(warp);
  } else if (at == 0) {
    index_front(warp_key, fifo.front());
  }
  return record;
}

DeferredRecord DeferredWarps::pop_front(uint64_t warp_key) { return remove(warps_.find(warp_key), 0); }

std::optional<uint64_t> DeferredWarps::warp_with_front_ticket_up_to(uint64_t ticket) const {
  if (by_front_ticket_.empty() || by_front_ticket_.begin()->first > ticket) return std::nullopt;
  return by_front_ticket_.begin()->second;
}

std::optional<uint64_t> DeferredWarps::warp_holding(uint64_t ticket) const {
  const auto found = ticket_warps_.find(ticket);
  if (found == ticket_warps_.end()) return std::nullopt;
  return found->second;
}

std::pair<DeferredWarps::Map::const_iterator, DeferredWarps::Map::const_iterator> DeferredWarps::block_warps(
    uint32_t block) const {
  return {warps_.lower_bound(key(block, 0)), warps_.upper_bound(key(block, UINT16_MAX))};
}

std::optional<uint64_t> DeferredWarps::lowest_ticket() const {
  if (ticket_warps_.empty()) return std::nullopt;
  return ticket_warps_.begin()->first;
}

}  // namespace barracuda::engine
