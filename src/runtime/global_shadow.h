#pragma once
// The device memory behind device checking of global memory (barracuda/global_check_launch.h) in one
// context: a GlobalCheckLaunch per launch slot, the race filter, a barrier count per thread of the
// largest grid so far, and one shadow per allocation a checked launch's arguments pointed into (48
// bytes per 4-byte word: barracuda/global_check.h), within a budget of the device's free memory.
//
// Shadows are never cleared between launches: every stamp carries its launch's 16-bit tag. When the
// tag wraps, everything is zeroed in the launch's stream, after every earlier launch that used it
// (only launches nothing runs beside get a tag, so all of them are ordered before). Memory a running
// launch may still use is retired, not freed, until no launch is in flight.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <cuda.h>

#include "barracuda/global_check_launch.h"
#include "barracuda/queue.h"
#include "runtime/tool_device_memory.h"

namespace barracuda::runtime {

class GlobalShadow {
 public:
  struct Request {
    uint64_t blocks = 0;
    uint64_t threads_per_block = 0;
    std::vector<std::pair<uint64_t, uint64_t>> allocations;  // [begin, end) each, distinct
    bool grid_syncs = false;  // the kernel has cooperative-groups grid syncs (ptx/passes/grid_syncs.h)
  };

  // `tool_stream`: the queues' own stream, for copies that must be done before the call returns.
  // `budget_bytes`: the most the shadows and barrier counts may take (0: a quarter of the device's free
  // memory when first needed).
  explicit GlobalShadow(CUstream tool_stream, uint64_t budget_bytes = 0)
      : tool_stream_(tool_stream), budget_bytes_(budget_bytes) {}

  // Before a launch into `stream` that takes `slot` and that nothing can run beside: the device
  // address of its GlobalCheckLaunch, or 0 when the host checks its global memory (declined() says
  // why). Throws std::runtime_error when a copy or memset fails.
  CUdeviceptr prepare(uint32_t slot, const Request& request, CUstream stream);
  // After the launch in `slot` ended, before the slot is taken again: whether its device marked it
  // saturated (GlobalCheckLaunch::saturated: a thread passed more barriers or grid syncs than the
  // stamps count, so some pairs were not compared). Throws std::runtime_error when the copy fails.
  bool saturated(uint32_t slot);
  // No launch in flight: frees the memory retired while launches were running.
  void release_retired();
  const std::string& declined() const { return declined_; }
  // The driver released every allocation with the context: nothing may be freed.
  void forget();

 private:
  struct Shadow {
    uint64_t end = 0;
    std::unique_ptr<ToolDeviceMemory> memory;
    uint64_t bytes = 0;
    uint64_t last_use = 0;  // launches_ when a launch last used it
  };

  // Whether `more_bytes` fit the budget; if not, retires the shadows the launch does not use, oldest
  // first, so that they may once no launch is in flight.
  bool fits(uint64_t more_bytes, const Request& request);
  // The shadow of [begin, end), allocated and zeroed when new; null when it would exceed the budget.
  Shadow* shadow_of(uint64_t begin, uint64_t end, const Request& request);
  // At least `words` barrier words: one per thread of the grid, then kBlockBarrierWords per block.
  bool ensure_barrier_words(uint64_t words, const Request& request);
  void retire(std::unique_ptr<ToolDeviceMemory> memory, uint64_t bytes);
  // New memory: zeroed through the tool stream before the call returns.
  std::unique_ptr<ToolDeviceMemory> zeroed(uint64_t bytes, const char* what);
  // Zeroes every shadow, the barrier words and the filter in `stream` (the tag wrapped).
  void zero_all(CUstream stream);

  CUstream tool_stream_;
  uint64_t budget_bytes_;
  uint64_t bytes_ = 0;  // shadows, barrier words and retired memory
  std::unique_ptr<ToolDeviceMemory> descriptors_;  // kLaunchSlots GlobalCheckLaunch
  std::unique_ptr<ToolDeviceMemory> race_filter_;
  std::unique_ptr<ToolDeviceMemory> barrier_words_;
  uint64_t barrier_word_count_ = 0;
  std::map<uint64_t, Shadow> shadows_;  // by begin
  std::vector<std::pair<std::unique_ptr<ToolDeviceMemory>, uint64_t>> retired_;  // memory, bytes
  uint32_t tag_ = 0;       // of the latest launch; 0 before the first
  uint64_t launches_ = 0;  // prepared so far
  std::string declined_;
};

}  // namespace barracuda::runtime
