#pragma once
// A CPU thread playing one warp of the device runtime: the same reserve / back-pressure / fill /
// commit steps as device/runtime.cu, on an arena image in host memory with std::atomic_ref, so the
// consumer code can be tested against concurrent producers without a GPU.
#include <cstddef>
#include <cstdint>
#include <span>

#include "barracuda/queue.h"
#include "runtime/queue_record.h"

namespace barracuda::testing {

class SimulatedProducer {
 public:
  SimulatedProducer(std::span<std::byte> arena, uint32_t queue);

  // Logs `header` followed by `payload` (record_slots(mode) - 1 slots); blocks while the ring is full.
  void log(const RecordHeader& header, std::span<const runtime::QueueSlot> payload);

 private:
  QueueControl* control_;
  runtime::QueueSlot* ring_;
  uint64_t capacity_;
};

// A thread's last step on the device: count itself in threads_exited once its records are committed.
void count_thread_exit(std::span<std::byte> arena);

// The consumer's half for tests: reads commit_index (acquire) and stores read_head (release) the way
// the host's drain thread does through device copies.
uint64_t load_commit_index(std::span<std::byte> arena, uint32_t queue);
void store_read_head(std::span<std::byte> arena, uint32_t queue, uint64_t read_head);

}  // namespace barracuda::testing
