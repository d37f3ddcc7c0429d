#pragma once
// GPU test harness: a queue arena and its producer block, both in device memory, bound to a loaded
// module's __barracuda_queues, drained through copies by the host protocol code
// (runtime/queue_drain.h) while a launch runs. Used by the GPU tests of the device runtime and of
// the instrumentation passes.
#include <cuda_runtime.h>

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "runtime/jit_link.h"
#include "runtime/queue_arena.h"
#include "runtime/queue_record.h"

namespace barracuda::testing {

inline constexpr int kSkippedExitCode = 77;  // ctest SKIP_RETURN_CODE: no GPU here

// Throw std::runtime_error with `what` (and the CUDA error) on failure.
void check_cuda(cudaError_t status, const char* what);
void check(bool condition, const std::string& what);

struct DecodedRecord {
  RecordHeader header;
  runtime::LaneAddresses addresses;
  std::optional<uint64_t> sync_ticket;  // from the RecordOp::kSyncTicket header logged right before it
  uint32_t sync_bucket = 0;             // the ticket's location bucket
  // When the lanes' buckets differ: each lane's lane_ticket_word (barracuda/sync_bucket.h), and no
  // sync_ticket.
  std::vector<uint64_t> lane_tickets;
};
// Records of each warp in the order it logged them, keyed by (block, warp).
using WarpRecords = std::map<std::pair<uint32_t, uint32_t>, std::vector<DecodedRecord>>;

class DeviceArena {
 public:
  DeviceArena(cudaLibrary_t library, const runtime::QueueArenaShape& shape);
  ~DeviceArena();
  DeviceArena(const DeviceArena&) = delete;
  DeviceArena& operator=(const DeviceArena&) = delete;

  // Drains every queue while the kernel launched last into `stream` runs, until it has ended and every
  // record it published is read (60 s at most). Returns the records per warp.
  WarpRecords drain_launch(cudaStream_t stream);

 private:
  void copy_to_host(uint64_t offset, uint64_t bytes);
  bool drain_queue(uint32_t queue, WarpRecords& records);
  // Zeroes the device ring's slots [from, to) (positions), so they read as unwritten again.
  void zero_device_slots(uint64_t ring_offset, uint64_t from, uint64_t to);

  runtime::QueueArenaShape shape_;
  uint64_t bytes_ = 0;
  void* device_ = nullptr;     // the arena (rings in device memory here, not mapped host memory)
  void* producers_ = nullptr;  // the producer block
  void* host_ = nullptr;
  cudaStream_t copy_stream_ = nullptr;
  std::vector<uint64_t> read_heads_;
};

// How the runtime gets into the cubin: as a separate PTX module, or already merged into `modules`.
enum class RuntimeLinking { kSeparateModule, kMerged };

// A GPU test's main: exits 77 without a GPU; otherwise links `modules` (and the runtime) for the
// GPU's architecture, loads the result, runs `body` on it and returns 0, or prints the first
// failure as "`name`: ..." and returns 1.
int run_gpu_test(const char* name, const std::vector<runtime::LinkInput>& modules, RuntimeLinking linking,
                 const std::function<void(cudaLibrary_t)>& body);

// The first record of `warp` logged at `site`; throws when there is none.
const DecodedRecord& find_site(const std::vector<DecodedRecord>& warp, uint32_t site);

}  // namespace barracuda::testing
