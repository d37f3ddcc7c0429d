// Dynamic parallelism: the records of launches from the device and of the child grids they start
// (child_grids.h says what orders what).
#include <bit>

#include "engine/worker.h"

namespace barracuda::engine {

void Worker::apply_device_launch(const RecordHeader& h, BlockState& block) {
  const auto first_block = static_cast<uint32_t>(h.stride);
  if (first_block == kUncheckedChildGrid) {
    ++stats_.unchecked_child_grids;
    return;
  }
  if (!shared_.launch.launches_child_grids || first_block < shared_.launch.block_count() ||
      std::popcount(h.active_mask) != 1) {
    return malformed(h, "device launch record naming no child grid");
  }
  const std::optional<ChildGrids::Grid> launching = shared_.children.find(h.block_id);
  shared_.children.note_launch(first_block, h.base, h.block_id, launching ? raw(launching->shape.first_block) : 0);
  const uint32_t local = h.warp_id * kWarpSize + static_cast<uint32_t>(std::countr_zero(h.active_mask));
  block.release(local, ChildGrids::launch_location(first_block), MemoryScope::kGpu, shared_.sync);
}

void Worker::apply_child_entry(const RecordHeader& h, BlockState& block) {
  // block_for found the grid: apply() noted its shape first.
  const std::optional<ChildGrids::Grid> grid = shared_.children.find(h.block_id);
  WarpState& warp = block.warp(h.warp_id);
  warp.live_mask = warp.path_mask = h.active_mask;
  if (!grid) return;
  for (uint32_t m = h.active_mask; m; m &= m - 1) {
    const uint32_t local = h.warp_id * kWarpSize + static_cast<uint32_t>(std::countr_zero(m));
    block.acquire(local, ChildGrids::launch_location(raw(grid->shape.first_block)), MemoryScope::kGpu, shared_.sync);
    if (grid->after) block.acquire(local, ChildGrids::done_location(*grid->after), MemoryScope::kGpu, shared_.sync);
    if (grid->tail) block.acquire(local, ChildGrids::done_location(grid->launched_by), MemoryScope::kGpu, shared_.sync);
  }
}

void Worker::apply_child_exit(const RecordHeader& h, BlockState& block) {
  if (!shared_.launch.launches_child_grids) return malformed(h, "child grid exit in a launch without child grids");
  // The host-launched grid's blocks: done location 0.
  const std::optional<ChildGrids::Grid> grid =
      h.block_id < shared_.launch.block_count() ? std::nullopt : shared_.children.find(h.block_id);
  for (uint32_t m = h.active_mask; m; m &= m - 1) {
    const uint32_t local = h.warp_id * kWarpSize + static_cast<uint32_t>(std::countr_zero(m));
    block.release(local, ChildGrids::done_location(grid ? raw(grid->shape.first_block) : 0), MemoryScope::kGpu,
                  shared_.sync);
    if (grid) block.release(local, ChildGrids::done_location(grid->launched_by), MemoryScope::kGpu, shared_.sync);
  }
}

}  // namespace barracuda::engine
