#pragma once
// Host view of records drained from a device queue (barracuda/queue.h): a record is its header slot
// followed by record_slots(mode) - 1 payload slots, stored contiguously once drained.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "barracuda/record.h"

namespace barracuda::runtime {

// One 32-byte queue slot as raw bytes: a RecordHeader or a slice of a record's address payload.
struct alignas(8) QueueSlot {
  std::array<std::byte, kSlotBytes> bytes;
};
static_assert(sizeof(QueueSlot) == sizeof(RecordHeader) && alignof(QueueSlot) == alignof(RecordHeader));

using LaneAddresses = std::array<uint64_t, kWarpSize>;

class RecordView {
 public:
  // `slots` must hold the whole record (validate_record_header accepted its header).
  explicit RecordView(std::span<const QueueSlot> slots);

  const RecordHeader& header() const { return header_; }
  uint32_t slot_count() const { return record_slots(record_address_mode(header_)); }
  // Address accessed by `lane` (meaningful for active lanes of memory-access records).
  uint64_t lane_address(uint32_t lane) const;
  LaneAddresses lane_addresses() const;

 private:
  RecordHeader header_;
  std::span<const QueueSlot> payload_;
};

// Why a header slot cannot start a record, or nullopt when it can. Guards the host against torn or
// foreign memory: an unknown op or address mode would otherwise mis-frame every following record.
std::optional<std::string> validate_record_header(const RecordHeader& header);

// Iterates over a buffer of whole records (what drain_queue appends).
class RecordCursor {
 public:
  explicit RecordCursor(std::span<const QueueSlot> slots) : slots_(slots) {}
  // The next record, or nullopt at the end of the buffer.
  std::optional<RecordView> next();

 private:
  std::span<const QueueSlot> slots_;
};

}  // namespace barracuda::runtime
