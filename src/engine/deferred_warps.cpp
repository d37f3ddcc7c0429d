#include "engine/deferred_warps.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <iterator>

#include "barracuda/dcheck.h"
#include "barracuda/record_view.h"

namespace barracuda::engine {

void DeferredWarps::push(std::optional<SyncTicket> ticket, const RecordHeader& h, std::span<const RecordHeader> payload,
                         bool divisible) {
  DeferredRecord record{ticket, lanes_of(h), divisible, h};
  store_payload(record, payload);
  const uint64_t warp_key = key(h.block_id, h.warp_id);
  if (ticket) {
    ticket_warps_[ticket->bucket].insert(ticket->number, warp_key);
    mark_held(ticket->bucket);
  }
  Map::iterator found = warps_.find(warp_key);
  const bool added = found == warps_.end();
  if (added && !spare_warps_.empty()) {
    Map::node_type node = std::move(spare_warps_.back());
    spare_warps_.pop_back();
    node.key() = warp_key;
    found = warps_.insert(std::move(node)).position;
  } else if (added) {
    found = warps_.try_emplace(warp_key).first;
  }
  Fifo& fifo = found->second;
  if (added) block_warps_[h.block_id].push_back(h.warp_id);
  const auto position = static_cast<Position>(fifo.front_position + fifo.records.size());
  const uint32_t lanes = record.lanes;
  fifo.records.push_back(std::move(record));
  for (uint32_t m = lanes; m != 0; m &= m - 1) {
    const auto lane = static_cast<uint32_t>(std::countr_zero(m));
    const bool first_of_lane = fifo.by_lane[lane].empty();
    fifo.by_lane[lane].push_back(position);
    if (first_of_lane) set_lane_front(fifo, lane, position);
  }
  fifo.lanes |= lanes;
  ++records_;
  if (fifo.records.size() == 1) index_front(warp_key, fifo.records.front());
}

void DeferredWarps::TicketRow::insert(uint64_t number, uint64_t warp_key) {
  const auto first = entries_.begin() + static_cast<std::ptrdiff_t>(head_);
  if (entries_.size() == head_ || entries_.back().first <= number) {
    entries_.emplace_back(number, warp_key);
  } else if (head_ > 0 && number < first->first) {
    *std::prev(first) = {number, warp_key};
    --head_;
  } else {
    const auto at = std::upper_bound(first, entries_.end(), number,
                                     [](uint64_t n, const std::pair<uint64_t, uint64_t>& e) { return n < e.first; });
    entries_.emplace(at, number, warp_key);
  }
}

void DeferredWarps::TicketRow::erase(uint64_t number, uint64_t warp_key) {
  const auto first = entries_.begin() + static_cast<std::ptrdiff_t>(head_);
  auto at = std::lower_bound(first, entries_.end(), number,
                             [](const std::pair<uint64_t, uint64_t>& e, uint64_t n) { return e.first < n; });
  while (at != entries_.end() && at->first == number && at->second != warp_key) ++at;
  if (at == entries_.end() || at->first != number) return;
  if (at == first) {
    ++head_;
  } else {
    entries_.erase(at);
  }
  if (head_ == entries_.size()) {
    clear();
  } else if (head_ > 64 && head_ * 2 > entries_.size()) {  // the head's gap outgrew the entries
    entries_.erase(entries_.begin(), entries_.begin() + static_cast<std::ptrdiff_t>(head_));
    head_ = 0;
  }
}

void DeferredWarps::LaneQueue::erase(Position position) {
  if (empty()) return;
  if (positions_[head_] == position) {
    ++head_;
  } else {
    const auto found = std::find(positions_.begin() + static_cast<std::ptrdiff_t>(head_), positions_.end(), position);
    if (found == positions_.end()) return;
    positions_.erase(found);
  }
  if (head_ == positions_.size()) {
    positions_.clear();
    head_ = 0;
  } else if (head_ >= 64 && head_ * 2 >= positions_.size()) {
    positions_.erase(positions_.begin(), positions_.begin() + static_cast<std::ptrdiff_t>(head_));
    head_ = 0;
  }
}

void DeferredWarps::recycle(DeferredRecord&& record) { recycle_slots(std::move(record.payload_slots)); }

void DeferredWarps::recycle_slots(std::vector<RecordHeader>&& slots) {
  constexpr size_t kKept = 4096;
  const size_t capacity = slots.capacity();
  if (spare_slots_.size() >= kKept || capacity == 0 || capacity > 64) return;
  slots.clear();
  spare_slots_.push_back(std::move(slots));
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
  const auto position = static_cast<Position>(fifo.front_position + at);
  DeferredRecord record = std::move(fifo.records[at]);
  --records_;
  fifo.records[at].ticket.reset();
  fifo.records[at].lanes = 0;  // a gap: the records behind it stay where they are
  if (at == 0) {
    while (!fifo.records.empty() && fifo.records.front().lanes == 0) {
      fifo.records.pop_front();
      ++fifo.front_position;
    }
  }
  drop_lanes(fifo, position, record.lanes);
  if (record.ticket) {
    auto& bucket = ticket_warps_[record.ticket->bucket];
    bucket.erase(record.ticket->number, warp_key);
    if (bucket.empty()) unmark_held(record.ticket->bucket);
  }
  if (fifo.lanes == 0) {  // nothing left but gaps
    std::vector<uint16_t>& of_block = block_warps_[block_of(warp_key)];
    of_block.erase(std::find(of_block.begin(), of_block.end(), warp_of(warp_key)));
    if (of_block.empty()) block_warps_.erase(block_of(warp_key));
    recycle_warp(warp);
  } else if (at == 0) {
    index_front(warp_key, fifo.records.front());
  }
  return record;
}

void DeferredWarps::drop_lanes(Fifo& fifo, Position position, uint32_t lanes) {
  for (uint32_t m = lanes; m != 0; m &= m - 1) {
    const auto lane = static_cast<uint32_t>(std::countr_zero(m));
    LaneQueue& queue = fifo.by_lane[lane];
    queue.erase(position);
    if (queue.empty()) {
      fifo.lanes &= ~(1u << lane);
    } else {
      set_lane_front(fifo, lane, queue.front());
    }
  }
}

void DeferredWarps::set_lane_front(Fifo& fifo, uint32_t lane, Position position) {
  const DeferredRecord& record = fifo.records[position - fifo.front_position];
  fifo.lane_fronts[lane] = position;
  fifo.lane_front_lanes[lane] = record.lanes;
  const uint32_t bit = 1u << lane;
  fifo.lane_fronts_divisible = (fifo.lane_fronts_divisible & ~bit) | (record.divisible ? bit : 0);
  fifo.lane_fronts_ticketed = (fifo.lane_fronts_ticketed & ~bit) | (record.ticket ? bit : 0);
  if (record.ticket) fifo.lane_front_tickets[lane] = *record.ticket;
}

namespace {

// Bytes of one lane's address word in a payload of this mode (0: the record has no per-lane words).
size_t lane_word_bytes(AddressMode mode) {
  return mode == AddressMode::kDelta32 ? sizeof(int32_t) : mode == AddressMode::kFull64 ? sizeof(uint64_t) : 0;
}

}  // namespace

void DeferredWarps::store_payload(DeferredRecord& record, std::span<const RecordHeader> payload) {
  const RecordView view(record.head, payload.empty() ? nullptr : payload.data());
  const size_t word = view.is_memory_access() ? lane_word_bytes(view.address_mode()) : 0;
  record.packed_lanes = word != 0 && payload.size() * sizeof(RecordHeader) >= kWarpSize * word;
  if (!record.packed_lanes) {
    record.payload_slots = take_spare_slots(payload.size());
    record.payload_slots.assign(payload.begin(), payload.end());
    return;
  }
  const auto* from = reinterpret_cast<const unsigned char*>(payload.data());
  const size_t bytes = static_cast<size_t>(std::popcount(record.head.active_mask)) * word;
  record.payload_slots = take_spare_slots(1);
  record.payload_slots.resize((bytes + sizeof(RecordHeader) - 1) / sizeof(RecordHeader));
  auto* to = reinterpret_cast<unsigned char*>(record.payload_slots.data());
  for (uint32_t m = record.head.active_mask; m != 0; m &= m - 1, to += word) {
    std::memcpy(to, from + std::countr_zero(m) * word, word);
  }
}

std::span<const RecordHeader> DeferredRecord::payload(std::array<RecordHeader, kMaxPayloadSlots>& buffer) const {
  if (!packed_lanes) return payload_slots;
  const AddressMode mode = RecordView(head, nullptr).address_mode();
  const size_t word = lane_word_bytes(mode);
  const size_t slots = record_slots(mode) - 1;
  auto* to = reinterpret_cast<unsigned char*>(buffer.data());
  std::memset(to, 0, slots * sizeof(RecordHeader));
  const auto* from = reinterpret_cast<const unsigned char*>(payload_slots.data());
  for (uint32_t m = head.active_mask; m != 0; m &= m - 1, from += word) {
    std::memcpy(to + std::countr_zero(m) * word, from, word);
  }
  return std::span<const RecordHeader>(buffer.data(), slots);
}

std::vector<RecordHeader> DeferredWarps::take_spare_slots(size_t payload_slots) {
  if (payload_slots == 0 || spare_slots_.empty()) return {};
  std::vector<RecordHeader> slots = std::move(spare_slots_.back());
  spare_slots_.pop_back();
  return slots;
}

DeferredRecord DeferredWarps::split_off(Map::iterator warp, size_t at, uint32_t lanes) {
  Fifo& fifo = warp->second;
  DeferredRecord& held = fifo.records[at];
  BARRACUDA_DCHECK(held.divisible && !held.ticket && (lanes & ~held.lanes) == 0);
  if (lanes == held.lanes) return remove(warp, at);
  const auto position = static_cast<Position>(fifo.front_position + at);
  // The payload as carried, in a buffer of its own: both parts are stored from it.
  std::array<RecordHeader, kMaxPayloadSlots> wire;
  const std::span<const RecordHeader> unpacked = held.payload(wire);
  BARRACUDA_DCHECK(unpacked.size() <= wire.size());  // a divisible record is a memory access
  if (unpacked.data() != wire.data()) std::copy(unpacked.begin(), unpacked.end(), wire.begin());
  const std::span<const RecordHeader> carried(wire.data(), unpacked.size());
  DeferredRecord piece{std::nullopt, lanes, true, held.head};
  piece.head.active_mask = lanes;
  store_payload(piece, carried);
  held.lanes &= ~lanes;
  held.head.active_mask = held.lanes;
  recycle_slots(std::move(held.payload_slots));
  store_payload(held, carried);
  drop_lanes(fifo, position, lanes);
  // The lanes still held whose oldest record this is see its lanes shrink.
  for (uint32_t m = held.lanes; m != 0; m &= m - 1) {
    const auto lane = static_cast<uint32_t>(std::countr_zero(m));
    if (fifo.lane_fronts[lane] == position) fifo.lane_front_lanes[lane] = held.lanes;
  }
  return piece;
}

void DeferredWarps::LaneQueue::reset() {
  constexpr size_t kKeptPositions = 64;  // a warp that held thousands does not pin them in the pool
  if (positions_.capacity() > kKeptPositions) {
    positions_ = {};
  } else {
    positions_.clear();
  }
  head_ = 0;
}

void DeferredWarps::recycle_warp(Map::iterator warp) {
  constexpr size_t kKeptWarps = 4096;
  if (spare_warps_.size() >= kKeptWarps) {
    warps_.erase(warp);
    return;
  }
  Map::node_type node = warps_.extract(warp);
  Fifo& fifo = node.mapped();
  // The front is never a gap, so a warp without lanes holds no record at all.
  BARRACUDA_DCHECK(fifo.lanes == 0 && fifo.records.empty());
  fifo.front_position = 0;
  for (LaneQueue& queue : fifo.by_lane) queue.reset();
  spare_warps_.push_back(std::move(node));
}

DeferredRecord DeferredWarps::pop_front(uint64_t warp_key) { return remove(warps_.find(warp_key), 0); }

std::optional<uint64_t> DeferredWarps::warp_holding_up_to(uint32_t bucket, uint64_t number) const {
  const TicketRow& held = ticket_warps_[bucket];
  if (held.empty() || held.lowest().first > number) return std::nullopt;
  return held.lowest().second;
}

bool DeferredWarps::holds_in_bucket(uint32_t bucket) const { return !ticket_warps_[bucket].empty(); }

std::vector<SyncTicket> DeferredWarps::lowest_tickets() const {
  std::vector<SyncTicket> lowest;
  for_each_held_bucket([&](uint32_t bucket) { lowest.push_back(SyncTicket{bucket, ticket_warps_[bucket].lowest().first}); });
  return lowest;
}

void DeferredWarps::append_held_buckets(std::vector<uint32_t>& buckets) const {
  for_each_held_bucket([&](uint32_t bucket) { buckets.push_back(bucket); });
}

}  // namespace barracuda::engine
