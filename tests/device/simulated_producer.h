#pragma once
// CPU threads playing warps of the device runtime: the same reserve / back-pressure / fill /
// header-last publication steps as device/runtime.cu, on both halves of an arena in host memory with
// std::atomic_ref, so the consumer code can be tested against concurrent producers without a GPU.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "barracuda/queue.h"
#include "runtime/queue_arena.h"
#include "runtime/queue_record.h"

namespace barracuda::testing {

// The host arena (what the drain reads) and the producer block (device memory on a GPU).
struct SimulatedArena {
  explicit SimulatedArena(const runtime::QueueArenaShape& shape);
  std::vector<std::byte> host;
  std::vector<std::byte> producers;
};

class SimulatedProducer {
 public:
  SimulatedProducer(SimulatedArena& arena, uint32_t queue);

  // Logs `header` followed by `payload` (record_slots(mode) - 1 slots), preceded in the same
  // reservation by a kSyncTicket slot carrying `sync_ticket` when given; blocks while the ring is full.
  void log(const RecordHeader& header, std::span<const runtime::QueueSlot> payload,
           std::optional<uint64_t> sync_ticket = std::nullopt);

 private:
  uint64_t reserve(uint64_t slots);

  QueueProducerLine* line_;
  QueueControl* control_;
  runtime::QueueSlot* ring_;
  uint64_t capacity_;
};

}  // namespace barracuda::testing
