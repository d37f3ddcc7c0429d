#include "engine/deferred_warps.h"

#include <bit>
#include <iterator>

namespace barracuda::engine {

void DeferredWarps::push(std::optional<SyncTicket> ticket, const RecordHeader& h, std::span<const RecordHeader> payload) {
  DeferredRecord record{ticket, {}};
  record.slots.reserve(1 + payload.size());
  record.slots.push_back(h);
  record.slots.insert(record.slots.end(), payload.begin(), payload.end());
  const uint64_t warp_key = key(h.block_id, h.warp_id);
  if (ticket) {
    ticket_warps_[ticket->bucket].emplace(ticket->number, warp_key);
    held_buckets_.set(ticket->bucket);
  }
  Fifo& fifo = warps_[warp_key];
  for (uint32_t m = lanes_of(h); m != 0; m &= m - 1) ++fifo.per_lane[std::countr_zero(m)];
  fifo.lanes |= lanes_of(h);
  fifo.records.push_back(std::move(record));
  if (fifo.records.size() == 1) index_front(warp_key, fifo.records.front());
}

void DeferredWarps::index_front(uint64_t warp_key, const DeferredRecord& record) {
  if (!record.ticket) unticketed_fronts_.insert(warp_key);
}

void DeferredWarps::unindex_front(uint64_t warp_key, const DeferredRecord& record) {
  if (!record.ticket) unticketed_fronts_.erase(warp_key);
}

DeferredRecord DeferredWarps::remove(Map::iterator warp, size_t at) {
  Fifo& fifo = warp->second;
  const uint64_t warp_key = warp->first;
  if (at == 0) unindex_front(warp_key, fifo.records.front());
  DeferredRecord record = std::move(fifo.records[at]);
  fifo.records.erase(fifo.records.begin() + static_cast<std::ptrdiff_t>(at));
  for (uint32_t m = lanes_of(record.header()); m != 0; m &= m - 1) {
    const auto lane = static_cast<uint32_t>(std::countr_zero(m));
    if (--fifo.per_lane[lane] == 0) fifo.lanes &= ~(1u << lane);
  }
  if (record.ticket) {
    auto& bucket = ticket_warps_[record.ticket->bucket];
    for (auto [it, end] = bucket.equal_range(record.ticket->number); it != end; ++it) {
      if (it->second == warp_key) {
        bucket.erase(it);
        break;
      }
    }
    if (bucket.empty()) held_buckets_.reset(record.ticket->bucket);
  }
  if (fifo.records.empty()) {
    warps_.erase(warp);
  } else if (at == 0) {
    index_front(warp_key, fifo.records.front());
  }
  return record;
}

DeferredRecord DeferredWarps::pop_front(uint64_t warp_key) { return remove(warps_.find(warp_key), 0); }

std::optional<uint64_t> DeferredWarps::warp_holding_up_to(uint32_t bucket, uint64_t number) const {
  const auto& held = ticket_warps_[bucket];
  if (held.empty() || held.begin()->first > number) return std::nullopt;
  return held.begin()->second;
}

bool DeferredWarps::holds_in_bucket(uint32_t bucket) const { return !ticket_warps_[bucket].empty(); }

std::vector<SyncTicket> DeferredWarps::lowest_tickets() const {
  std::vector<SyncTicket> lowest;
  for (uint32_t bucket = 0; bucket < kSyncBuckets; ++bucket) {
    if (held_buckets_.test(bucket)) lowest.push_back(SyncTicket{bucket, ticket_warps_[bucket].begin()->first});
  }
  return lowest;
}

std::pair<DeferredWarps::Map::const_iterator, DeferredWarps::Map::const_iterator> DeferredWarps::block_warps(
    uint32_t block) const {
  return {warps_.lower_bound(key(block, 0)), warps_.upper_bound(key(block, UINT16_MAX))};
}

}  // namespace barracuda::engine
