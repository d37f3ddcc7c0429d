#pragma once
// The queue arena (barracuda/queue.h) as the host holds it: page-locked host memory mapped into the
// device, so the GPU logs straight into memory the drain reads in place (no copies, no streams that
// could serialise with the application's). The instrumented module reaches it through its
// `__barracuda_queues` global, which set_module_pointer() fills after each module load.
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include <cuda.h>

#include "barracuda/queue.h"
#include "runtime/queue_arena.h"

namespace barracuda::runtime {

class QueueHost {
 public:
  // Allocates and initialises the arena in the current context; throws std::runtime_error on failure.
  explicit QueueHost(const QueueArenaShape& shape);
  // Frees the arena: only while its context exists, and no kernel may be logging into it.
  ~QueueHost();
  QueueHost(const QueueHost&) = delete;
  QueueHost& operator=(const QueueHost&) = delete;

  CUdeviceptr device_address() const { return device_address_; }
  CUcontext context() const { return context_; }  // the context the arena was allocated in
  const QueueArenaShape& shape() const { return shape_; }

  // Before a launch: the id its records carry, and a fresh count of exited threads.
  void begin_launch(uint16_t launch_id);
  uint64_t threads_exited() const;

  // Hands every committed record of every queue to `consume` (queue index, whole records in order)
  // and frees their slots for the GPU. Returns the number of records; throws on a malformed queue.
  using Consumer = std::function<void(uint32_t queue, std::span<const RecordHeader> records)>;
  uint64_t drain(const Consumer& consume);

 private:
  QueueArenaHeader& header() const;
  QueueControl& control(uint32_t queue) const;

  QueueArenaShape shape_;
  std::byte* host_ = nullptr;
  CUdeviceptr device_address_ = 0;
  CUcontext context_ = nullptr;
  std::vector<QueueSlot> scratch_;
};

}  // namespace barracuda::runtime
