#pragma once
// Records held back until their turn in their location bucket's sync-ticket order
// (barracuda/record_ops.inc, RecordOp::kSyncTicket; sync_tickets.h). Once a warp has a held-back record, every later record of that warp is
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
// Unticketed fronts (held behind a barrier, worker_order.cpp) are indexed, and every held ticket maps
// to its warp, so finding the warp whose turn has come in a bucket is a lookup, not a walk over every
// held-back warp. A lock-heavy launch holds back most of its records in a hundred thousand warps: the
// warps are hashed, each lane's records are queued by position (the records that may go first are the
// lanes' fronts), a record taken from the middle of a FIFO leaves a gap instead of moving the records
// behind it, and payload buffers and the map nodes of warps that held nothing more are reused.
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <deque>
#include <optional>
#include <set>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

#include "barracuda/record.h"
#include "engine/sync_tickets.h"

namespace barracuda::engine {

// The most payload slots a record carries (a kFull64 address per lane).
inline constexpr size_t kMaxPayloadSlots = record_slots(AddressMode::kFull64) - 1;

struct DeferredRecord {
  std::optional<SyncTicket> ticket;
  uint32_t lanes = 0;  // DeferredWarps::lanes_of(header()); 0: a gap left by a record taken
  // Its lanes may go one group at a time (an unticketed memory access under independent thread
  // scheduling: each lane is its own thread, and the payload is indexed by lane): the lanes whose
  // earlier records were all applied go, the others stay held (take_ready).
  bool divisible = false;
  // The header in place: every look at a held record reads it, and a synchronisation record (a fence,
  // a barrier) has no payload, so it needs no buffer at all.
  RecordHeader head{};
  // The payload. A memory access's per-lane addresses (kDelta32, kFull64) are kept packed: its active
  // lanes' address words only, in lane order. The wire payload has room for all 32 lanes (128 or 256
  // bytes), and a lock launch holds millions of records of a few lanes each.
  std::vector<RecordHeader> payload_slots;
  bool packed_lanes = false;

  const RecordHeader& header() const { return head; }
  // The payload as the record carried it; a packed one is unpacked into `buffer`.
  std::span<const RecordHeader> payload(std::array<RecordHeader, kMaxPayloadSlots>& buffer) const;
};

class DeferredWarps {
 public:
  // A record's place in its warp's FIFO, counted since the warp's first held record, in 32 bits (each
  // lane of each record keeps one: a full-warp record's places cost 128 bytes, not 256). A warp that
  // never empties may wrap the count; places are only compared for equality and ordered by their
  // distance from the FIFO's front, which a warp's records never exceed.
  using Position = uint32_t;
  // The positions in its warp's FIFO of one lane's held-back records, oldest first.
  class LaneQueue {
   public:
    bool empty() const { return head_ == positions_.size(); }
    Position front() const { return positions_[head_]; }
    void push_back(Position position) { positions_.push_back(position); }
    // Removes `position` (nearly always the front: only a record first in each of its lanes goes).
    void erase(Position position);
    // Empty again, keeping a small buffer for the warp that reuses it.
    void reset();

   private:
    std::vector<Position> positions_;
    size_t head_ = 0;  // positions_ before it were erased
  };
  // A warp's held-back records in program order (the front is never a gap), each lane's of them, and
  // the lanes with any (a record without lanes counts for all): asked on every record of a held-back
  // warp. The records that may go before earlier ones (take_ready) are the fronts of the lanes'
  // queues: at most 32 to look at, where a walk over the FIFO took 35 records on average in a
  // lock-heavy launch, half of the walks in vain.
  struct Fifo {
    std::deque<DeferredRecord> records;
    Position front_position = 0;  // of records.front()
    std::array<LaneQueue, kWarpSize> by_lane;
    // Where l is in `lanes`: by_lane[l].front() and that record's lanes, kept beside the FIFO so that
    // take_ready reads neither a queue nor a record it cannot take.
    std::array<Position, kWarpSize> lane_fronts{};
    std::array<uint32_t, kWarpSize> lane_front_lanes{};
    uint32_t lane_fronts_divisible = 0;  // bit l: lane l's oldest record is divisible
    // Bit l: lane l's oldest record waits for lane_front_tickets[l]. A lock-heavy warp holds mostly
    // records whose turn has not come: this tells them apart without reading a record.
    uint32_t lane_fronts_ticketed = 0;
    std::array<SyncTicket, kWarpSize> lane_front_tickets{};
    uint32_t lanes = 0;
  };
  using Map = std::unordered_map<uint64_t, Fifo>;

  static uint64_t key(uint32_t block, uint16_t warp) { return uint64_t{block} << 16 | warp; }
  static uint16_t warp_of(uint64_t key) { return static_cast<uint16_t>(key); }

  bool empty() const { return warps_.empty(); }
  // Records held back now.
  uint64_t size() const { return records_; }
  // The lanes of `h`'s warp that have a held-back record (0 when it holds none).
  uint32_t held_lanes(const RecordHeader& h) const {
    const auto found = warps_.find(key(h.block_id, h.warp_id));
    return found == warps_.end() ? 0 : found->second.lanes;
  }
  // The lanes a record orders its warp's later records by: its own, or all when it names none.
  static uint32_t lanes_of(const RecordHeader& h) { return h.active_mask != 0 ? h.active_mask : ~0u; }
  void push(std::optional<SyncTicket> ticket, const RecordHeader& h, std::span<const RecordHeader> payload,
            bool divisible = false);
  // The front record of warp `warp_key` (null when it holds nothing back), and its removal.
  const DeferredRecord* front(uint64_t warp_key) const {
    const auto found = warps_.find(warp_key);
    return found == warps_.end() ? nullptr : &found->second.records.front();
  }
  DeferredRecord pop_front(uint64_t warp_key);
  // The warp holding the lowest ticket of `bucket` held here (anywhere in its FIFO), if that ticket is
  // at most `number` (below it only when a ticket was used twice).
  std::optional<uint64_t> warp_holding_up_to(uint32_t bucket, uint64_t number) const;
  // Whether a record waiting for a ticket of `bucket` is held here.
  bool holds_in_bucket(uint32_t bucket) const;
  // The lowest ticket held here in each bucket that holds one.
  std::vector<SyncTicket> lowest_tickets() const;
  // Appends the buckets that hold a ticket here, in order.
  void append_held_buckets(std::vector<uint32_t>& buckets) const;
  // Removes and returns the first record of warp `warp_key` that `ready` accepts and that shares no
  // lane with any record held before it; else, of the first divisible record `ready` accepts that is
  // the oldest of some of its lanes, those lanes (the record stays held for the others); nullopt when
  // there is neither. A warp whose lanes each wait for their own lock would otherwise tie every lane
  // to the slowest one at each access the lanes make together (hash_table: nearly every record of the
  // launch held back at once).
  // `turn_came(ticket)` is asked first for a record waiting for a ticket, and false there means `ready`
  // would refuse it too (a cheap look that reads no held record).
  template <typename Ready, typename TurnCame>
  std::optional<DeferredRecord> take_ready(uint64_t warp_key, Ready&& ready, TurnCame&& turn_came);
  template <typename Ready>
  std::optional<DeferredRecord> take_ready(uint64_t warp_key, Ready&& ready) {
    return take_ready(warp_key, std::forward<Ready>(ready), [](const SyncTicket&) { return true; });
  }
  // Held-back warps whose front record carries no ticket.
  std::vector<uint64_t> unticketed_fronts() const { return {unticketed_fronts_.begin(), unticketed_fronts_.end()}; }
  // The same, of one block only (a copy: applying them changes the set).
  std::vector<uint64_t> unticketed_fronts_of(uint32_t block) const {
    return {unticketed_fronts_.lower_bound(key(block, 0)), unticketed_fronts_.upper_bound(key(block, UINT16_MAX))};
  }
  static uint32_t block_of(uint64_t key) { return static_cast<uint32_t>(key >> 16); }
  // The warps of `block` that hold records back (empty when none does).
  const std::vector<uint16_t>& block_warps(uint32_t block) const {
    static const std::vector<uint16_t> none;
    const auto found = block_warps_.find(block);
    return found == block_warps_.end() ? none : found->second;
  }
  // Hands a record's payload buffer back after it was applied, for the next record held back.
  void recycle(DeferredRecord&& record);
  // Every held-back record, warp by warp in (block, warp) order, each in program order, while
  // `go_on()`; leaves nothing held back and returns true, or returns false at the first record
  // `go_on()` refused, leaving everything held (the applied records too: for the caller to drop).
  template <typename GoOn, typename Apply>
  bool drain_all(GoOn&& go_on, Apply&& apply) {
    std::vector<uint64_t> keys;
    keys.reserve(warps_.size());
    for (const auto& entry : warps_) keys.push_back(entry.first);
    std::sort(keys.begin(), keys.end());
    for (const uint64_t warp : keys) {
      for (const DeferredRecord& record : warps_.at(warp).records) {
        if (record.lanes == 0) continue;
        if (!go_on()) return false;
        apply(record);
      }
    }
    warps_.clear();
    records_ = 0;
    block_warps_.clear();
    unticketed_fronts_.clear();
    for_each_held_bucket([&](uint32_t bucket) { ticket_warps_[bucket].clear(); });
    held_buckets_.assign(held_buckets_.size(), 0);
    held_words_.fill(0);
    return true;
  }
 private:
  void index_front(uint64_t warp_key, const DeferredRecord& record);
  void unindex_front(uint64_t warp_key, const DeferredRecord& record);
  // Removes entry `at` of the warp's FIFO (at > 0 keeps the front and its index).
  DeferredRecord remove(Map::iterator warp, size_t at);
  // Entry `at` restricted to `lanes` (some of its lanes, each of which it is the oldest record of);
  // the entry keeps the others.
  DeferredRecord split_off(Map::iterator warp, size_t at, uint32_t lanes);
  // Takes `lanes` out of their queues at `position` (the record there no longer holds them): each
  // lane's front moves to its next record, a lane with none leaves the warp's lanes.
  void drop_lanes(Fifo& fifo, Position position, uint32_t lanes);
  // Lane `lane`'s oldest record is now the one at `position`.
  static void set_lane_front(Fifo& fifo, uint32_t lane, Position position);
  // An emptied payload buffer of an applied record, or a new one (none for a record without payload).
  std::vector<RecordHeader> take_spare_slots(size_t payload_slots);
  // Keeps a payload buffer no record needs any more for the next one held back.
  void recycle_slots(std::vector<RecordHeader>&& slots);
  // `record`'s payload from `payload` (the record's own, as carried): packed where it is a memory
  // access with per-lane addresses, for the lanes of `record.head`.
  void store_payload(DeferredRecord& record, std::span<const RecordHeader> payload);
  // The warp holds nothing more: its node goes to spare_warps_, emptied.
  void recycle_warp(Map::iterator warp);

  Map warps_;
  uint64_t records_ = 0;  // held back now (gaps not counted)
  std::unordered_map<uint32_t, std::vector<uint16_t>> block_warps_;  // block -> its warps in warps_
  std::set<uint64_t> unticketed_fronts_;
  // Per bucket, (ticket number, warp key) of every held-back ticketed record, sorted by ticket (a
  // malformed stream may repeat one). A worker drains a bucket's tickets nearly in order and applies
  // its lowest first: a sorted array gains at its end and loses at its head, where a tree paid a cache
  // miss per level on every record of a lock-heavy launch.
  class TicketRow {
   public:
    bool empty() const { return head_ == entries_.size(); }
    const std::pair<uint64_t, uint64_t>& lowest() const { return entries_[head_]; }
    void insert(uint64_t number, uint64_t warp_key);
    void erase(uint64_t number, uint64_t warp_key);
    void clear() {
      entries_.clear();
      head_ = 0;
    }

   private:
    std::vector<std::pair<uint64_t, uint64_t>> entries_;
    size_t head_ = 0;  // entries_ before it were erased
  };
  std::vector<TicketRow> ticket_warps_ = std::vector<TicketRow>(kSyncBuckets);  // 512 KiB: not on a stack
  // The buckets whose row is not empty, 64 to a word, and the words that are not zero: looked at
  // whenever every held turn is retried, where a bit-by-bit walk over 2,048 buckets cost 6 % of a
  // lock-heavy replay (and there are 16,384 now).
  std::vector<uint64_t> held_buckets_ = std::vector<uint64_t>(kSyncBuckets / 64);
  static_assert(kSyncBuckets % 4096 == 0, "whole summary words");
  std::array<uint64_t, kSyncBuckets / 64 / 64> held_words_{};
  void mark_held(uint32_t bucket) {
    held_buckets_[bucket / 64] |= uint64_t{1} << (bucket % 64);
    held_words_[bucket / 4096] |= uint64_t{1} << (bucket / 64 % 64);
  }
  void unmark_held(uint32_t bucket) {
    uint64_t& word = held_buckets_[bucket / 64];
    word &= ~(uint64_t{1} << (bucket % 64));
    if (word == 0) held_words_[bucket / 4096] &= ~(uint64_t{1} << (bucket / 64 % 64));
  }
  template <typename Visit>
  void for_each_held_bucket(Visit&& visit) const {
    for (uint32_t top = 0; top < held_words_.size(); ++top) {
      for (uint64_t words = held_words_[top]; words != 0; words &= words - 1) {
        const uint32_t word = top * 64 + static_cast<uint32_t>(std::countr_zero(words));
        for (uint64_t bits = held_buckets_[word]; bits != 0; bits &= bits - 1) {
          visit(word * 64 + static_cast<uint32_t>(std::countr_zero(bits)));
        }
      }
    }
  }
  std::vector<std::vector<RecordHeader>> spare_slots_;  // payload buffers of applied records
  // Map nodes of warps that held nothing more, emptied: a lock-heavy launch holds a warp back and lets
  // it go again all the time, and a new Fifo cost its node, the deque's map and block and a buffer per
  // lane it used (a quarter of the held-back path's time went to malloc and free).
  std::vector<Map::node_type> spare_warps_;
};

template <typename Ready, typename TurnCame>
std::optional<DeferredRecord> DeferredWarps::take_ready(uint64_t warp_key, Ready&& ready, TurnCame&& turn_came) {
  const auto warp = warps_.find(warp_key);
  if (warp == warps_.end()) return std::nullopt;
  const Fifo& fifo = warp->second;
  // Each lane's oldest record, in program order: one that is the oldest of every lane it has shares
  // no lane with any record before it.
  std::array<Position, kWarpSize> fronts;
  size_t count = 0;
  for (uint32_t m = fifo.lanes; m != 0; m &= m - 1) {
    const auto lane = static_cast<uint32_t>(std::countr_zero(m));
    // A record is looked at once, by its lowest lane (which holds it as its oldest record if any does).
    const uint32_t record_lanes = fifo.lane_front_lanes[lane];
    if (lane != static_cast<uint32_t>(std::countr_zero(record_lanes))) continue;
    if ((fifo.lane_fronts_ticketed >> lane & 1u) != 0 && !turn_came(fifo.lane_front_tickets[lane])) continue;
    const Position position = fifo.lane_fronts[lane];
    bool first_of_its_lanes = true;
    for (uint32_t l = record_lanes & (record_lanes - 1); l != 0 && first_of_its_lanes; l &= l - 1) {
      first_of_its_lanes = fifo.lane_fronts[std::countr_zero(l)] == position;
    }
    // Sorted by distance from the FIFO's front: positions may wrap past 2^32 in a warp never emptied.
    if (first_of_its_lanes) fronts[count++] = position - fifo.front_position;
  }
  std::sort(fronts.begin(), fronts.begin() + static_cast<std::ptrdiff_t>(count));
  const auto end = fronts.begin() + static_cast<std::ptrdiff_t>(count);
  for (auto it = fronts.begin(); it != end; ++it) {
    if (ready(fifo.records[*it])) return remove(warp, *it);
  }
  // The lanes of a divisible record that it is the oldest record of.
  std::array<std::pair<Position, uint32_t>, kWarpSize> partial;
  size_t partial_count = 0;
  for (uint32_t m = fifo.lanes; m != 0; m &= m - 1) {
    const auto lane = static_cast<uint32_t>(std::countr_zero(m));
    if ((fifo.lane_fronts_divisible >> lane & 1u) == 0) continue;
    const Position at = fifo.lane_fronts[lane] - fifo.front_position;
    auto same = std::find_if(partial.begin(), partial.begin() + static_cast<std::ptrdiff_t>(partial_count),
                             [&](const auto& entry) { return entry.first == at; });
    if (same == partial.begin() + static_cast<std::ptrdiff_t>(partial_count)) partial[partial_count++] = {at, 0};
    same->second |= 1u << lane;
  }
  std::sort(partial.begin(), partial.begin() + static_cast<std::ptrdiff_t>(partial_count));
  for (size_t i = 0; i < partial_count; ++i) {
    const size_t at = partial[i].first;
    if (ready(fifo.records[at])) return split_off(warp, at, partial[i].second);
  }
  return std::nullopt;
}

}  // namespace barracuda::engine
