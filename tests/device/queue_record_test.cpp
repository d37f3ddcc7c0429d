// Host side of drained records (runtime/queue_record.h): iterating a buffer of whole records and
// describing a header the drain refuses. The decoding itself is record_view_test's.
#include "runtime/queue_record.h"

#include "barracuda/queue.h"

#include <gtest/gtest.h>

#include <algorithm>
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
  std::vector<QueueSlot> slots(RecordView(header).slot_count());
  std::memcpy(&slots[0], &header, sizeof(header));
  if (!words.empty()) std::memcpy(&slots[1], words.data(), words.size() * sizeof(Word));
  return slots;
}

TEST(BackPressure, BranchLanesUseTheWholeRingAndWholeWarpsStopAQuarterShort) {
  EXPECT_EQ(back_pressure_limit(1u << 20, 3, false), 1u << 20);
  EXPECT_EQ(back_pressure_limit(1u << 20, 3, true), 3u << 18);
  EXPECT_LT(back_pressure_limit(1u << 20, kMaxRecordSlots, true), back_pressure_limit(1u << 20, kMaxRecordSlots, false));
}

// The smallest ring holds one longest record: a whole warp's still fits, or it would wait for ever.
TEST(BackPressure, AWholeWarpsRecordAlwaysFitsItsLimit) {
  for (uint64_t capacity = 32; capacity <= 1024; capacity *= 2) {
    for (uint32_t slots = 1; slots <= 2 * kMaxRecordSlots; ++slots) {
      EXPECT_GE(back_pressure_limit(capacity, slots, true), std::min<uint64_t>(slots, capacity)) << capacity << " " << slots;
      EXPECT_LE(back_pressure_limit(capacity, slots, true), capacity);
    }
  }
}

TEST(QueueRecord, DefectsAreDescribedWithTheHeaderBytes) {
  RecordHeader header = access_header(AddressMode::kAffine, 0, 0);
  EXPECT_FALSE(describe_record_defect(header));
  header.op = 99;
  EXPECT_EQ(*describe_record_defect(header), "unknown record op (header op 99, size_mode 0x2)");
  header = access_header(AddressMode::kAffine, 0, 0);
  header.size_mode = 3u << 3;
  EXPECT_EQ(*describe_record_defect(header), "unknown address mode (header op 1, size_mode 0x18)");
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
  EXPECT_EQ(first->slot_count(), 5u);
  EXPECT_EQ(first->lane_address(5), 8u);
  auto second = cursor.next();
  ASSERT_TRUE(second);
  EXPECT_EQ(lane_addresses(*second)[1], 6u);
  EXPECT_EQ(lane_addresses(*second)[31], 2u + 31 * 4);
  EXPECT_FALSE(cursor.next());
}

TEST(QueueRecord, CursorStopsAtAHeaderThatCannotStartARecord) {
  std::vector<QueueSlot> buffer =
      record_with_payload(access_header(AddressMode::kAffine, 2, 4), std::vector<int32_t>{});
  RecordHeader ticket{};
  ticket.op = static_cast<uint8_t>(RecordOp::kSyncTicket);
  const auto more = record_with_payload(ticket, std::vector<int32_t>{});
  buffer.insert(buffer.end(), more.begin(), more.end());
  buffer.emplace_back();  // a zeroed slot: op 0

  RecordCursor cursor(buffer);
  EXPECT_TRUE(cursor.next());
  auto second = cursor.next();
  ASSERT_TRUE(second);
  EXPECT_EQ(second->op(), RecordOp::kSyncTicket);
  EXPECT_FALSE(cursor.next());
}

}  // namespace
}  // namespace barracuda::runtime
