#include "runtime/queue_record.h"

#include <cstdio>

namespace barracuda::runtime {

std::optional<std::string> describe_record_defect(const RecordHeader& header) {
  const RecordDefect defect = RecordView(header).defect();
  if (defect == RecordDefect::kNone) return std::nullopt;
  char bytes[48];
  std::snprintf(bytes, sizeof bytes, " (header op %u, size_mode %#x)", unsigned{header.op}, unsigned{header.size_mode});
  return record_defect_text(defect) + std::string(bytes);
}

LaneAddresses lane_addresses(const RecordView& record) {
  LaneAddresses addresses{};
  for (uint32_t lane = 0; lane < kWarpSize; ++lane) addresses[lane] = record.lane_address(lane);
  return addresses;
}

std::optional<RecordView> RecordCursor::next() {
  if (slots_.empty()) return std::nullopt;
  // Queue slots are RecordHeader-sized and -aligned (QueueSlot's static_assert): the engine reads
  // drained buffers the same way.
  const auto* header = reinterpret_cast<const RecordHeader*>(slots_.data());
  const RecordView record(*header, header + 1);
  if (record.defect() != RecordDefect::kNone || record.slot_count() > slots_.size()) return std::nullopt;
  slots_ = slots_.subspan(record.slot_count());
  return record;
}

}  // namespace barracuda::runtime
