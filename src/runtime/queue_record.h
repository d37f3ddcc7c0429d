#pragma once
// Host side of records drained from a device queue (barracuda/queue.h): a record is its header slot
// followed by its payload slots, stored contiguously once drained. RecordView (barracuda/record_view.h)
// decodes them; this adds what only the host needs: raw slot storage, messages and iteration.
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "barracuda/record_view.h"

namespace barracuda::runtime {

// One 32-byte queue slot as raw bytes: a RecordHeader or a slice of a record's address payload.
struct alignas(8) QueueSlot {
  std::array<std::byte, kSlotBytes> bytes;
};
static_assert(sizeof(QueueSlot) == sizeof(RecordHeader) && alignof(QueueSlot) == alignof(RecordHeader));

// Why `header` cannot start a record (RecordView::defect()), with the bytes that say so, or nullopt
// when it can.
std::optional<std::string> describe_record_defect(const RecordHeader& header);

using LaneAddresses = std::array<uint64_t, kWarpSize>;
LaneAddresses lane_addresses(const RecordView& record);

// Iterates over a buffer of whole records (what drain_queue appends).
class RecordCursor {
 public:
  explicit RecordCursor(std::span<const QueueSlot> slots) : slots_(slots) {}
  // The next record, viewing the buffer's slots; nullopt at the end of the buffer or at a slot that
  // cannot start a record (drain_queue only appends whole, well-formed records: that guards
  // hand-made buffers).
  std::optional<RecordView> next();

 private:
  std::span<const QueueSlot> slots_;
};

}  // namespace barracuda::runtime
