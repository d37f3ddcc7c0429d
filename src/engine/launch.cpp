#include "engine/launch.h"

namespace barracuda::engine {

uint32_t LaunchInfo::cluster_of(BlockId block_id) const {
  const uint32_t b = raw(block_id);
  if (b >= block_count()) return b;
  const uint32_t bx = b % grid.x, by = (b / grid.x) % grid.y, bz = b / (grid.x * grid.y);
  const uint32_t clusters_x = (grid.x + cluster.x - 1) / cluster.x;
  const uint32_t clusters_y = (grid.y + cluster.y - 1) / cluster.y;
  return bx / cluster.x + (by / cluster.y) * clusters_x + (bz / cluster.z) * clusters_x * clusters_y;
}

}  // namespace barracuda::engine
