// libFuzzer target: arbitrary bytes as a record stream. The first 8 bytes pick the launch shape,
// warp model and whether it has child grids; the rest is cut into 32-byte slots and consumed. The engine must never crash,
// hang or read out of bounds, whatever the records say.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "engine/engine.h"

using namespace barracuda;
using namespace barracuda::engine;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 8) return 0;
  LaunchInfo launch;
  launch.launch_id = data[0];
  launch.grid = {1u + data[1] % 4, 1u + data[2] % 2, 1};
  launch.block = {1u + (data[3] | (data[4] & 0x3) << 8), 1, 1};
  launch.cluster = {1u + data[5] % 2, 1, 1};
  launch.warp_model = data[6] & 1 ? WarpModel::kLockstep : WarpModel::kIndependent;
  launch.launches_child_grids = (data[6] & 4) != 0;  // child grids from the device (child_grids.h)
  const uint32_t workers = 1 + (data[7] & 1);
  data += 8;
  size -= 8;
  std::vector<RecordHeader> slots(size / sizeof(RecordHeader));
  if (!slots.empty()) std::memcpy(slots.data(), data, slots.size() * sizeof(RecordHeader));
  // Half of the inputs get launch, block and warp ids that fit the launch (payload slots are
  // rewritten too, harmlessly), so that the fuzzer reaches the semantics and not only validation.
  if (data[-1] & 2) {
    for (RecordHeader& h : slots) {
      h.launch_id = launch.launch_id;
      // With child grids, a few ids past the grid: a kChildEntry may make them a child's blocks, of up
      // to 1024 threads.
      h.block_id %= launch.block_count() + (launch.launches_child_grids ? 4 : 0);
      h.warp_id = static_cast<uint16_t>(h.warp_id % (launch.launches_child_grids ? 32 : launch.warps_per_block()));
      h.op %= 67;  // up to the device findings (record_ops.inc)
    }
  }
  Engine engine(EngineConfig{workers});
  engine.begin_launch(launch);
  // Split at a data-chosen point so that record boundaries between calls are exercised too.
  const size_t cut = slots.empty() ? 0 : data[0] % (slots.size() + 1);
  engine.worker(0).consume(std::span(slots).first(cut));
  engine.worker(workers - 1).consume(std::span(slots).subspan(cut));
  engine.end_launch();
  (void)engine.races();
  (void)engine.diagnostics();
  return 0;
}
