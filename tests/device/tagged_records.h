#pragma once
// Records whose every field identifies them, for queue tests: site = producer, block = sequence
// number, payload words derived from both, so a torn, duplicated or reordered record is detected.
#include <cstdint>
#include <vector>

#include "runtime/queue_record.h"

namespace barracuda::testing {

struct TaggedRecord {
  RecordHeader header{};
  std::vector<runtime::QueueSlot> payload;
};

// Cycles through the three address modes, so records of 1, 5 and 9 slots interleave.
AddressMode mixed_mode(uint32_t producer, uint32_t sequence);
TaggedRecord tagged_record(uint32_t producer, uint32_t sequence, AddressMode mode);
// Checks (gtest assertions) that `view` is tagged_record(producer, sequence, mixed_mode(...)) of
// launch `launch`.
void expect_tagged(const RecordView& view, uint32_t producer, uint32_t sequence, uint16_t launch = 0);

}  // namespace barracuda::testing
