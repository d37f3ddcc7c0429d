#include "runtime/queue_record.h"

#include <cstring>

namespace barracuda::runtime {
namespace {

bool is_memory_access(RecordOp op) { return op >= RecordOp::kLoad && op <= RecordOp::kAsyncCopy; }

bool is_known_op(uint8_t raw) {
  auto op = static_cast<RecordOp>(raw);
  switch (op) {
    case RecordOp::kLoad:
    case RecordOp::kStore:
    case RecordOp::kAtomic:
    case RecordOp::kReduction:
    case RecordOp::kAsyncCopy:
    case RecordOp::kFence:
    case RecordOp::kBarrier:
    case RecordOp::kBarrierArrive:
    case RecordOp::kWarpSync:
    case RecordOp::kClusterBarrier:
    case RecordOp::kMbarrierArrive:
    case RecordOp::kMbarrierWait:
    case RecordOp::kSyncTicket:
    case RecordOp::kBranchIf:
    case RecordOp::kBranchElse:
    case RecordOp::kBranchFi:
    case RecordOp::kWarpEntry:
    case RecordOp::kWarpExit:
      return true;
    case RecordOp::kInvalid:
      return false;
  }
  return false;
}

template <typename Word>
Word payload_word(std::span<const QueueSlot> payload, uint32_t lane) {
  Word word;
  std::memcpy(&word, payload.data()->bytes.data() + size_t{lane} * sizeof(Word), sizeof(Word));
  return word;
}

}  // namespace

RecordView::RecordView(std::span<const QueueSlot> slots) {
  std::memcpy(&header_, slots.data(), sizeof(header_));
  payload_ = slots.subspan(1, slot_count() - 1);
}

uint64_t RecordView::lane_address(uint32_t lane) const {
  switch (record_address_mode(header_)) {
    case AddressMode::kAffine:
      return header_.base + static_cast<uint64_t>(int64_t{record_affine_stride(header_)} * lane);
    case AddressMode::kDelta32:
      return header_.base + static_cast<uint64_t>(int64_t{payload_word<int32_t>(payload_, lane)});
    case AddressMode::kFull64:
      return payload_word<uint64_t>(payload_, lane);
  }
  return 0;
}

LaneAddresses RecordView::lane_addresses() const {
  LaneAddresses addresses{};
  for (uint32_t lane = 0; lane < kWarpSize; ++lane) addresses[lane] = lane_address(lane);
  return addresses;
}

std::optional<std::string> validate_record_header(const RecordHeader& header) {
  if (!is_known_op(header.op)) return "unknown record op " + std::to_string(header.op);
  uint32_t mode = (header.size_mode >> 3) & 0x3u;
  if (mode > static_cast<uint32_t>(AddressMode::kFull64)) return "unknown address mode " + std::to_string(mode);
  if (header.size_mode >> 5) return "reserved size_mode bits set: " + std::to_string(header.size_mode);
  if (!is_memory_access(static_cast<RecordOp>(header.op)) && mode != 0) {
    return "non-memory record op " + std::to_string(header.op) + " with an address payload";
  }
  if ((header.size_mode & 0x7u) > 4) return "access size 2^" + std::to_string(header.size_mode & 0x7u) + " bytes";
  return std::nullopt;
}

std::optional<RecordView> RecordCursor::next() {
  if (slots_.empty()) return std::nullopt;
  RecordHeader header;
  std::memcpy(&header, slots_.data(), sizeof(header));
  // drain_queue only appends validated whole records; this guards hand-made buffers.
  uint32_t count = record_slots(record_address_mode(header));
  if (validate_record_header(header) || count > slots_.size()) return std::nullopt;
  RecordView record(slots_.first(count));
  slots_ = slots_.subspan(count);
  return record;
}

}  // namespace barracuda::runtime
