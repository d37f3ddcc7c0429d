#include "tagged_records.h"

#include <gtest/gtest.h>

#include <cstring>

namespace barracuda::testing {

AddressMode mixed_mode(uint32_t producer, uint32_t sequence) {
  static constexpr AddressMode kModes[] = {AddressMode::kAffine, AddressMode::kDelta32, AddressMode::kFull64};
  return kModes[(producer + sequence) % 3];
}

TaggedRecord tagged_record(uint32_t producer, uint32_t sequence, AddressMode mode) {
  TaggedRecord record;
  record.header.op = static_cast<uint8_t>(RecordOp::kStore);
  record.header.size_mode = pack_size_mode(3, mode);
  record.header.site_id = producer;
  record.header.block_id = sequence;
  record.header.base = uint64_t{producer} << 32 | sequence;
  record.payload.resize(record_slots(mode) - 1);
  for (size_t i = 0; i < record.payload.size(); ++i) {
    uint64_t word = record.header.base * 31 + i;
    std::memcpy(record.payload[i].bytes.data(), &word, sizeof(word));
  }
  return record;
}

void expect_tagged(const RecordView& view, uint32_t producer, uint32_t sequence, uint16_t launch) {
  TaggedRecord expected = tagged_record(producer, sequence, mixed_mode(producer, sequence));
  expected.header.launch_id = launch;
  ASSERT_EQ(view.header().site_id, producer);
  ASSERT_EQ(view.header().block_id, sequence);
  ASSERT_EQ(view.slot_count(), 1 + expected.payload.size());
  ASSERT_EQ(std::memcmp(&view.header(), &expected.header, sizeof(RecordHeader)), 0);
}

}  // namespace barracuda::testing
