#include "engine/child_grids.h"

#include <mutex>
#include <utility>

#include "engine/launch.h"

namespace barracuda::engine {

std::optional<uint64_t> ChildGrids::stream_key(uint64_t stream, uint32_t launching_block, uint32_t launching_grid) {
  // A named stream by its handle (a pointer, below 2^49), the NULL stream by its block, the tail
  // launches of a grid by the grid.
  switch (device_stream_kind(stream)) {
    case DeviceStreamKind::kFireAndForget: return std::nullopt;
    case DeviceStreamKind::kBlockNull: return ~uint64_t{launching_block};
    case DeviceStreamKind::kNamed: return stream;
    case DeviceStreamKind::kTailLaunch: return uint64_t{3} << 60 | launching_grid;
  }
  return std::nullopt;
}

void ChildGrids::note_launch(uint32_t first_block, uint64_t stream, uint32_t launching_block,
                             uint32_t launching_grid) {
  std::unique_lock lock(mutex_);
  Grid& grid = grids_[first_block];
  grid.shape.first_block = BlockId{first_block};
  grid.launched_by = launching_grid;
  grid.tail = device_stream_kind(stream) == DeviceStreamKind::kTailLaunch;
  if (const std::optional<uint64_t> key = stream_key(stream, launching_block, launching_grid)) {
    auto [last, first_in_stream] = last_in_stream_.try_emplace(*key, first_block);
    if (!first_in_stream) grid.after = std::exchange(last->second, first_block);
  }
}

bool ChildGrids::note_shape(const ChildGridShape& shape, uint32_t first_child_block) {
  const Dim3 grid_dims{shape.grid[0], shape.grid[1], shape.grid[2]};
  const Dim3 block_dims{shape.block[0], shape.block[1], shape.block[2]};
  const uint64_t blocks = grid_dims.volume();
  if (blocks == 0 || block_dims.volume() == 0 || block_dims.volume() > LaunchInfo::kMaxBlockThreads ||
      shape.first_block < first_child_block ||
      (shape.first_block + blocks) * LaunchInfo::kMaxBlockThreads > (uint64_t{1} << 32)) {
    return false;
  }
  std::unique_lock lock(mutex_);
  auto [it, inserted] = grids_.try_emplace(shape.first_block);
  Grid& grid = it->second;
  if (grid.shaped) return grid.shape.grid == grid_dims && grid.shape.block == block_dims;
  // Must not overlap the grids around it.
  if (it != grids_.begin()) {
    const Grid& before = std::prev(it)->second;
    if (before.shaped && raw(before.shape.first_block) + before.shape.grid.volume() > shape.first_block) {
      if (inserted) grids_.erase(it);
      return false;
    }
  }
  if (auto after = std::next(it); after != grids_.end() && shape.first_block + blocks > after->first) {
    if (inserted) grids_.erase(it);
    return false;
  }
  grid.shape = {BlockId{shape.first_block}, grid_dims, block_dims};
  grid.shaped = true;
  return true;
}

std::optional<ChildGrids::Grid> ChildGrids::find(uint32_t block) const {
  std::shared_lock lock(mutex_);
  auto it = grids_.upper_bound(block);
  if (it == grids_.begin()) return std::nullopt;
  const Grid& grid = std::prev(it)->second;
  if (!grid.shaped || block - raw(grid.shape.first_block) >= grid.shape.grid.volume()) return std::nullopt;
  return grid;
}

void ChildGrids::clear() {
  std::unique_lock lock(mutex_);
  grids_.clear();
  last_in_stream_.clear();
}

}  // namespace barracuda::engine
