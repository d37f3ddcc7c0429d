#pragma once
// Child grids launched from the device within one launch (dynamic parallelism,
// docs/dynamic_parallelism.md). The device numbers a child's blocks after the host-launched grid's
// (barracuda/device_launch.h); the engine learns which thread launched it, into which stream
// (RecordOp::kDeviceLaunch), and its shape (RecordOp::kChildEntry, logged by each of its warps). The
// ordering CUDA gives is modelled with synchronisation locations of their own, outside any address
// the GPU can have:
//   - the launching thread releases to the child's launch location before the launch, and every
//     thread of the child acquires it at entry (a child sees what its parent did before launching it);
//   - every thread of a grid (the host-launched one too) releases to its grid's done location as it
//     exits, a child's also to its launching grid's (a grid ends after its children), and the next
//     grid launched into the same stream (the block's NULL stream, a named stream) acquires it at
//     entry: it starts after the earlier one ended (and so after every grid before it);
//   - a tail launch acquires its launching grid's done location and the previous tail launch's: it
//     starts after the launching grid (and the children that ended before that grid's last thread;
//     grandchildren are not followed);
//   - fire-and-forget grids follow no grid in a stream: they are ordered with nothing but their parent.
// The launch records are applied in ticket order (kDeviceLaunchBucket), so "the grid before it in its
// stream" is the one whose launch was applied last.
// The parent never learns what its children did (CUDA 12+ has no device-side synchronisation);
// the host learns it all when the launch ends.
#include <cstdint>
#include <map>
#include <optional>
#include <shared_mutex>
#include <vector>

#include "barracuda/device_launch.h"
#include "engine/findings.h"
#include "engine/ids.h"

namespace barracuda::engine {

class ChildGrids {
 public:
  struct Grid {
    ChildGrid shape;
    uint32_t launched_by = 0;       // the first block of the launching grid (0: the host-launched one)
    std::optional<uint32_t> after;  // the first block of the grid before it in its stream
    bool tail = false;              // tail-launched: after its launching grid
    bool shaped = false;            // a kChildEntry of the grid was seen
  };

  // A kDeviceLaunch from block `launching_block`, of the grid whose first block is `launching_grid`:
  // the child whose first block is `first_block` goes into device stream `stream`.
  void note_launch(uint32_t first_block, uint64_t stream, uint32_t launching_block, uint32_t launching_grid);
  // A kChildEntry's shape of its grid; false when it is not possible (empty, above kMaxBlockThreads
  // threads a block, ids past 2^32 thread ids or below `first_child_block`, another shape for the same
  // grid, overlapping another grid).
  bool note_shape(const ChildGridShape& shape, uint32_t first_child_block);
  // The grid block `block` belongs to (a child's block id), if its shape is known.
  std::optional<Grid> find(uint32_t block) const;
  void clear();

  // The synchronisation locations of a child's launch and of its end, above every address a GPU hands
  // out (49-bit virtual addresses).
  static uint64_t launch_location(uint32_t first_block) { return kLaunchLocations | uint64_t{first_block} << 4; }
  static uint64_t done_location(uint32_t first_block) { return kDoneLocations | uint64_t{first_block} << 4; }

 private:
  static constexpr uint64_t kLaunchLocations = 0xfff0'0000'0000'0000ull;
  static constexpr uint64_t kDoneLocations = 0xffe0'0000'0000'0000ull;
  // The stream a launch goes to, as a key of last_in_stream_; nullopt for fire-and-forget.
  static std::optional<uint64_t> stream_key(uint64_t stream, uint32_t launching_block, uint32_t launching_grid);

  mutable std::shared_mutex mutex_;
  std::map<uint32_t, Grid> grids_;  // by first block
  std::map<uint64_t, uint32_t> last_in_stream_;  // the first block of each stream's latest grid
};

}  // namespace barracuda::engine
