#include "runtime/queue_record.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace barracuda::runtime {
namespace {

RecordHeader access_header(AddressMode mode, uint64_t base, int32_t stride) {
  RecordHeader header{};
  header.op = static_cast<uint8_t>(RecordOp::kLoad);
  header.size_mode = pack_size_mode(2, mode);
  header.active_mask = 0xffffffffu;
  header.base = base;
  header.stride = stride;
  return header;
}

template <typename Word>
std::vector<QueueSlot> record_with_payload(const RecordHeader& header, const std::vector<Word>& words) {
  std::vector<QueueSlot> slots(record_slots(record_address_mode(header)));
  std::memcpy(&slots[0], &header, sizeof(header));
  if (!words.empty()) std::memcpy(&slots[1], words.data(), words.size() * sizeof(Word));
  return slots;
}

TEST(QueueRecord, AffineRecordDecodesBasePlusLaneTimesStride) {
  std::vector<QueueSlot> slots(1);
  RecordHeader header = access_header(AddressMode::kAffine, 0x1000, -8);
  std::memcpy(&slots[0], &header, sizeof(header));
  RecordView record(slots);
  EXPECT_EQ(record.slot_count(), 1u);
  EXPECT_EQ(record.lane_address(0), 0x1000u);
  EXPECT_EQ(record.lane_address(31), 0x1000u - 31 * 8);
}

TEST(QueueRecord, Delta32RecordAddsSignedLaneOffsets) {
  std::vector<int32_t> deltas(kWarpSize);
  for (uint32_t lane = 0; lane < kWarpSize; ++lane) deltas[lane] = (lane % 2 ? -1 : 1) * int32_t(lane * 4096);
  auto slots = record_with_payload(access_header(AddressMode::kDelta32, 0x10'0000, 0), deltas);
  RecordView record(slots);
  EXPECT_EQ(record.slot_count(), 5u);
  EXPECT_EQ(record.lane_address(2), 0x10'0000u + 2 * 4096);
  EXPECT_EQ(record.lane_address(3), 0x10'0000u - 3 * 4096);
  EXPECT_EQ(record.lane_addresses()[31], 0x10'0000u - 31 * 4096);
}

TEST(QueueRecord, Full64RecordReturnsAbsoluteAddresses) {
  std::vector<uint64_t> addresses(kWarpSize);
  for (uint32_t lane = 0; lane < kWarpSize; ++lane) addresses[lane] = (uint64_t{lane} << 40) | 0x123;
  auto slots = record_with_payload(access_header(AddressMode::kFull64, 0, 0), addresses);
  RecordView record(slots);
  EXPECT_EQ(record.slot_count(), 9u);
  EXPECT_EQ(record.lane_address(17), (uint64_t{17} << 40) | 0x123);
}

TEST(QueueRecord, ValidationRejectsWhatWouldMisframeTheQueue) {
  RecordHeader header = access_header(AddressMode::kAffine, 0, 0);
  EXPECT_FALSE(validate_record_header(header));
  header.op = 0;
  EXPECT_EQ(*validate_record_header(header), "unknown record op 0");
  header.op = 99;
  EXPECT_EQ(*validate_record_header(header), "unknown record op 99");
  header = access_header(AddressMode::kAffine, 0, 0);
  header.size_mode = 3u << 3;
  EXPECT_EQ(*validate_record_header(header), "unknown address mode 3");
  header.size_mode = 5;
  EXPECT_EQ(*validate_record_header(header), "access size 2^5 bytes");
  header = access_header(AddressMode::kDelta32, 0, 0);
  header.op = static_cast<uint8_t>(RecordOp::kBarrier);
  EXPECT_EQ(*validate_record_header(header), "non-memory record op 17 with an address payload");
}

TEST(QueueRecord, CursorWalksMixedRecordsAndStopsAtATruncatedOne) {
  std::vector<QueueSlot> buffer;
  auto append = [&](const std::vector<QueueSlot>& slots) { buffer.insert(buffer.end(), slots.begin(), slots.end()); };
  append(record_with_payload(access_header(AddressMode::kDelta32, 1, 0), std::vector<int32_t>(32, 7)));
  append(record_with_payload(access_header(AddressMode::kAffine, 2, 4), std::vector<int32_t>{}));
  append(record_with_payload(access_header(AddressMode::kFull64, 0, 0), std::vector<uint64_t>(32, 9)));
  buffer.pop_back();  // truncate the last record

  RecordCursor cursor(buffer);
  auto first = cursor.next();
  ASSERT_TRUE(first);
  EXPECT_EQ(first->lane_address(5), 8u);
  auto second = cursor.next();
  ASSERT_TRUE(second);
  EXPECT_EQ(second->lane_address(1), 6u);
  EXPECT_FALSE(cursor.next());
}

}  // namespace
}  // namespace barracuda::runtime

namespace barracuda::runtime {
namespace {

TEST(QueueRecord, SyncTicketIsAHeaderOnlyRecord) {
  RecordHeader ticket{};
  ticket.op = static_cast<uint8_t>(RecordOp::kSyncTicket);
  ticket.base = 12345;
  EXPECT_FALSE(validate_record_header(ticket));
  ticket.size_mode = pack_size_mode(0, AddressMode::kDelta32);
  EXPECT_EQ(*validate_record_header(ticket), "non-memory record op 23 with an address payload");
}

uint8_t space_sem(MemorySpace space, MemorySemantics sem, MemoryScope scope) { return pack_space_sem(space, sem, scope); }

// The rule the device runtime (ticket or not) and the passes (log before or after) share.
TEST(QueueRecord, SyncTicketsGoToWhatCanSynchroniseAcrossBlocks) {
  using enum MemorySemantics;
  constexpr auto kGlobal = MemorySpace::kGlobal;
  constexpr auto kGpu = MemoryScope::kGpu;
  EXPECT_EQ(sync_role(RecordOp::kLoad, space_sem(kGlobal, kAcquire, kGpu)), SyncRole::kAcquire);
  EXPECT_EQ(sync_role(RecordOp::kAtomic, space_sem(kGlobal, kAcqRel, kGpu)), SyncRole::kAcquire);
  EXPECT_EQ(sync_role(RecordOp::kFence, space_sem(kGlobal, kLegacy, kGpu)), SyncRole::kAcquire);
  EXPECT_EQ(sync_role(RecordOp::kStore, space_sem(kGlobal, kRelease, kGpu)), SyncRole::kRelease);
  EXPECT_EQ(sync_role(RecordOp::kStore, space_sem(kGlobal, kVolatile, MemoryScope::kSystem)), SyncRole::kRelease);
  EXPECT_EQ(sync_role(RecordOp::kAtomic, space_sem(kGlobal, kLegacy, kGpu)), SyncRole::kRelease);
  EXPECT_EQ(sync_role(RecordOp::kReduction, space_sem(kGlobal, kRelaxed, kGpu)), SyncRole::kRelease);
  EXPECT_EQ(sync_role(RecordOp::kLoad, space_sem(kGlobal, kRelaxed, kGpu)), SyncRole::kNone);
  EXPECT_EQ(sync_role(RecordOp::kLoad, space_sem(kGlobal, kVolatile, MemoryScope::kSystem)), SyncRole::kNone);
  EXPECT_EQ(sync_role(RecordOp::kStore, space_sem(kGlobal, kWeak, MemoryScope::kCta)), SyncRole::kNone);
  EXPECT_EQ(sync_role(RecordOp::kBarrier, 0), SyncRole::kNone);
  EXPECT_TRUE(takes_sync_ticket(RecordOp::kFence, space_sem(kGlobal, kLegacy, MemoryScope::kCta)));
  EXPECT_TRUE(takes_sync_ticket(RecordOp::kAtomic, space_sem(MemorySpace::kCluster, kLegacy, kGpu)));
  EXPECT_FALSE(takes_sync_ticket(RecordOp::kAtomic, space_sem(MemorySpace::kShared, kLegacy, kGpu)));
  EXPECT_FALSE(takes_sync_ticket(RecordOp::kLoad, space_sem(kGlobal, kWeak, kGpu)));
}

}  // namespace
}  // namespace barracuda::runtime
