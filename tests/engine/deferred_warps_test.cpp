// Held-back records (engine/deferred_warps.h): a warp that held records, was emptied and holds
// again — its own map node reused by another warp — keeps nothing of its earlier life.
#include "engine/deferred_warps.h"

#include <gtest/gtest.h>

#include <array>
#include <cstring>

#include "barracuda/record_view.h"

namespace barracuda::engine {
namespace {

RecordHeader record(uint32_t block, uint16_t warp, uint32_t lanes, uint32_t site) {
  RecordHeader h{};
  h.op = static_cast<uint8_t>(RecordOp::kStore);
  h.block_id = block;
  h.warp_id = warp;
  h.active_mask = lanes;
  h.site_id = site;
  return h;
}

uint64_t key(uint32_t block, uint16_t warp) { return uint64_t{block} << 16 | warp; }

TEST(DeferredWarps, AWarpHeldAgainAfterItsFifoEmptiedStartsFromNothing) {
  DeferredWarps held;
  held.push(SyncTicket{7, 1}, record(0, 0, 0x0000ffff, 1), {});
  held.push(std::nullopt, record(0, 0, 0xffff0000, 2), {});
  held.push(std::nullopt, record(0, 0, 0x0000ffff, 3), {});
  ASSERT_EQ(held.size(), 3u);
  for (const uint32_t site : {1u, 2u, 3u}) EXPECT_EQ(held.pop_front(key(0, 0)).header().site_id, site);
  EXPECT_EQ(held.size(), 0u);
  EXPECT_EQ(held.held_lanes(record(0, 0, 1, 0)), 0u);
  EXPECT_TRUE(held.block_warps(0).empty());
  EXPECT_FALSE(held.holds_in_bucket(7));

  // A record taken from behind the front leaves a gap; once the front goes, gaps are all the warp
  // holds, and it holds nothing.
  held.push(SyncTicket{7, 2}, record(0, 0, 0x1, 6), {});
  held.push(std::nullopt, record(0, 0, 0x2, 7), {});
  const auto second = held.take_ready(key(0, 0), [](const DeferredRecord& r) { return r.header().site_id == 7; });
  ASSERT_TRUE(second);
  EXPECT_EQ(held.pop_front(key(0, 0)).header().site_id, 6u);
  EXPECT_EQ(held.front(key(0, 0)), nullptr);

  // Another warp (likely on the emptied warp's node), then the first one again.
  held.push(std::nullopt, record(5, 3, 0x1, 4), {});
  held.push(SyncTicket{9, 2}, record(0, 0, 0x2, 5), {});
  EXPECT_EQ(held.held_lanes(record(5, 3, 1, 0)), 0x1u);
  EXPECT_EQ(held.held_lanes(record(0, 0, 1, 0)), 0x2u);
  EXPECT_EQ(held.size(), 2u);
  EXPECT_EQ(held.front(key(5, 3))->header().site_id, 4u);
  EXPECT_EQ(held.front(key(0, 0))->header().site_id, 5u);
  // Its lane 1 front is the new record alone: nothing of the old lane queues holds it back.
  const std::optional<DeferredRecord> taken = held.take_ready(key(0, 0), [](const DeferredRecord&) { return true; });
  ASSERT_TRUE(taken);
  EXPECT_EQ(taken->header().site_id, 5u);
  EXPECT_EQ(held.held_lanes(record(0, 0, 1, 0)), 0u);
  EXPECT_EQ(held.size(), 1u);
}

// A divisible record (an unticketed access under independent thread scheduling) behind the held
// records of some of its lanes: its other lanes go, one group at a time, and it stays held for the
// rest; a record that is not divisible waits whole.
TEST(DeferredWarps, ADivisibleRecordLetsTheLanesItIsTheOldestRecordOfGo) {
  DeferredWarps held;
  held.push(SyncTicket{3, 5}, record(0, 0, 0x1, 1), {});  // lane 0 waits for its lock
  held.push(SyncTicket{4, 2}, record(0, 0, 0x2, 2), {});  // lane 1 for another
  held.push(std::nullopt, record(0, 0, 0xf, 3), {}, true);
  held.push(std::nullopt, record(0, 0, 0xc, 4), {});  // lanes 2-3, not divisible, behind the access
  const auto unticketed = [](const DeferredRecord& r) { return !r.ticket; };

  // Lanes 2 and 3 have no earlier record: they go; lanes 0 and 1 stay behind their tickets.
  std::optional<DeferredRecord> piece = held.take_ready(key(0, 0), unticketed);
  ASSERT_TRUE(piece);
  EXPECT_EQ(piece->header().site_id, 3u);
  EXPECT_EQ(piece->header().active_mask, 0xcu);
  EXPECT_EQ(piece->lanes, 0xcu);
  EXPECT_EQ(held.size(), 4u);
  // Lanes 2-3 may go on to their next record, which is whole now.
  std::optional<DeferredRecord> next = held.take_ready(key(0, 0), unticketed);
  ASSERT_TRUE(next);
  EXPECT_EQ(next->header().site_id, 4u);
  EXPECT_FALSE(held.take_ready(key(0, 0), unticketed));

  // Lane 1's turn: then its part of the access goes, and lane 0's stays.
  ASSERT_TRUE(held.take_ready(key(0, 0), [](const DeferredRecord& r) { return r.header().site_id == 2; }));
  piece = held.take_ready(key(0, 0), unticketed);
  ASSERT_TRUE(piece);
  EXPECT_EQ(piece->header().active_mask, 0x2u);
  EXPECT_EQ(held.held_lanes(record(0, 0, 1, 0)), 0x1u);
  EXPECT_EQ(held.size(), 2u);
  // Lane 0's turn: the front goes, then the access's last lane, and nothing is held.
  EXPECT_EQ(held.pop_front(key(0, 0)).header().site_id, 1u);
  const DeferredRecord last = held.pop_front(key(0, 0));
  EXPECT_EQ(last.header().site_id, 3u);
  EXPECT_EQ(last.header().active_mask, 0x1u);
  EXPECT_EQ(held.size(), 0u);
  EXPECT_EQ(held.front(key(0, 0)), nullptr);
  EXPECT_TRUE(held.block_warps(0).empty());
}

// A lock-heavy warp holds mostly records whose ticket's turn has not come: take_ready asks the cheap
// turn look first and reads only the records it lets through, each once however many lanes it has.
TEST(DeferredWarps, OnlyRecordsWhoseTurnMayHaveComeAreLookedAt) {
  DeferredWarps held;
  held.push(SyncTicket{3, 5}, record(0, 0, 0x1, 1), {});  // lane 0: bucket 3's turn has not come
  held.push(SyncTicket{4, 2}, record(0, 0, 0x2, 2), {});  // lane 1: bucket 4's has
  held.push(std::nullopt, record(0, 0, 0xfffffffc, 3), {});  // lanes 2-31, one record
  std::vector<uint32_t> looked_at;
  const auto ready = [&](const DeferredRecord& r) {
    looked_at.push_back(r.header().site_id);
    return r.header().site_id == 3;
  };
  const auto turn_came = [](const SyncTicket& ticket) { return ticket.bucket == 4; };
  const std::optional<DeferredRecord> taken = held.take_ready(key(0, 0), ready, turn_came);
  ASSERT_TRUE(taken);
  EXPECT_EQ(taken->header().site_id, 3u);
  EXPECT_EQ(looked_at, (std::vector<uint32_t>{2, 3})) << "in program order, bucket 3's record never, the wide one once";
  EXPECT_EQ(held.held_lanes(record(0, 0, 1, 0)), 0x3u);
  // A record naming no lane orders every lane: it is looked at once, when it is the oldest of all.
  held.push(std::nullopt, record(0, 0, 0, 4), {});
  looked_at.clear();
  EXPECT_FALSE(held.take_ready(key(0, 0), ready, turn_came));
  EXPECT_EQ(looked_at, (std::vector<uint32_t>{2}));
}

// A held memory access keeps only its active lanes' addresses; the record it gives back, whole or
// split by lanes, carries each lane's own address where the wire format puts it.
TEST(DeferredWarps, AHeldAccessGivesBackEachLanesAddress) {
  for (const AddressMode mode : {AddressMode::kFull64, AddressMode::kDelta32}) {
    RecordHeader h = record(0, 0, (1u << 3) | (1u << 17) | (1u << 20), 9);
    h.op = static_cast<uint8_t>(RecordOp::kLoad);
    h.space_sem = pack_space_sem(MemorySpace::kGlobal, MemorySemantics::kWeak, MemoryScope::kCta);
    h.size_mode = pack_size_mode(2, mode);
    h.base = 0x1000;
    std::array<RecordHeader, kMaxPayloadSlots> wire{};
    const size_t slots = record_slots(mode) - 1;
    auto* words = reinterpret_cast<unsigned char*>(wire.data());
    for (const uint32_t lane : {3u, 17u, 20u}) {
      if (mode == AddressMode::kFull64) {
        const uint64_t address = 0x7000'0000 + lane * 0x100;
        std::memcpy(words + lane * 8, &address, 8);
      } else {
        const int32_t delta = static_cast<int32_t>(lane * 0x40);
        std::memcpy(words + lane * 4, &delta, 4);
      }
    }
    const std::span<const RecordHeader> carried(wire.data(), slots);
    const RecordView original(h, wire.data());
    DeferredWarps held;
    held.push(SyncTicket{1, 5}, record(0, 0, 1u << 17, 1), {});  // lane 17 waits for a turn
    held.push(std::nullopt, h, carried, true);
    // Lanes 3 and 20 hold nothing else: they go, and lane 17 stays.
    std::optional<DeferredRecord> piece = held.take_ready(key(0, 0), [](const DeferredRecord& r) { return !r.ticket; });
    ASSERT_TRUE(piece);
    std::array<RecordHeader, kMaxPayloadSlots> buffer;
    std::span<const RecordHeader> payload = piece->payload(buffer);
    ASSERT_EQ(payload.size(), slots);
    const RecordView first(piece->header(), payload.data());
    EXPECT_EQ(piece->header().active_mask, (1u << 3) | (1u << 20));
    for (const uint32_t lane : {3u, 20u}) EXPECT_EQ(first.lane_address(lane), original.lane_address(lane));
    EXPECT_EQ(held.pop_front(key(0, 0)).header().site_id, 1u);
    const DeferredRecord rest = held.pop_front(key(0, 0));
    payload = rest.payload(buffer);
    const RecordView second(rest.header(), payload.data());
    EXPECT_EQ(rest.header().active_mask, 1u << 17);
    EXPECT_EQ(second.lane_address(17), original.lane_address(17));
  }
}

// The end of a launch applies what is still held in (block, warp) order; a run being stopped ends
// that at the next record and leaves everything held, for the engine to drop unapplied.
TEST(DeferredWarps, DrainingAllStopsWhereTheCallerStops) {
  const auto fill = [](DeferredWarps& held) {
    held.push(SyncTicket{3, 2}, record(1, 0, 0x1, 11), {});
    held.push(std::nullopt, record(1, 0, 0x1, 12), {});
    held.push(SyncTicket{3, 1}, record(0, 2, 0x1, 13), {});
  };
  DeferredWarps all;
  fill(all);
  std::vector<uint32_t> applied;
  EXPECT_TRUE(all.drain_all([] { return true; }, [&](const DeferredRecord& r) { applied.push_back(r.header().site_id); }));
  EXPECT_EQ(applied, (std::vector<uint32_t>{13, 11, 12}));
  EXPECT_EQ(all.size(), 0u);
  EXPECT_FALSE(all.holds_in_bucket(3));

  DeferredWarps stopped;
  fill(stopped);
  applied.clear();
  int allowed = 1;
  EXPECT_FALSE(stopped.drain_all([&] { return allowed-- > 0; },
                                 [&](const DeferredRecord& r) { applied.push_back(r.header().site_id); }));
  EXPECT_EQ(applied, (std::vector<uint32_t>{13}));
  EXPECT_EQ(stopped.size(), 3u) << "left held, for the engine to drop";
}

}  // namespace
}  // namespace barracuda::engine
