#pragma once
// The queue arena (barracuda/queue.h) as the host holds it: page-locked host memory mapped into the
// device, so the GPU logs straight into memory the drain reads in place (no copies, no streams that
// could serialise with the application's). The instrumented module reaches it through its
// `__barracuda_queues` global, which set_module_pointer() fills after each module load.
#include <cstdint>

#include <cuda.h>

#include "runtime/live_arena.h"

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
  // False once the driver freed the arena with its context (a reset the shim did not see: then
  // nothing may touch it); forget() makes the destructor leave it alone.
  bool alive() const;
  void forget() { forgotten_ = true; }
  LiveArena& arena() { return arena_; }

 private:
  static std::byte* allocate(const QueueArenaShape& shape);

  LiveArena arena_;
  CUdeviceptr device_address_ = 0;
  CUcontext context_ = nullptr;
  bool forgotten_ = false;
};

}  // namespace barracuda::runtime
