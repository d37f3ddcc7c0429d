// Both blocks of a cluster store into the same slot of rank 0's shared memory.
#include <cooperative_groups.h>
#include "suite.cuh"
namespace cg = cooperative_groups;

__global__ void __cluster_dims__(2, 1, 1) store_to_leader(int* out) {
  __shared__ int slot;
  cg::cluster_group cluster = cg::this_cluster();
  cluster.sync();
  int* leader_slot = cluster.map_shared_rank(&slot, 0);
  if (threadIdx.x == 0) *leader_slot = cluster.block_rank() + 1;  // @A
  cluster.sync();
  if (cluster.block_rank() == 0 && threadIdx.x == 0) out[0] = slot;
}

int main() {
  int* out = zeroed<int>(1);
  store_to_leader<<<2, 32>>>(out);
  return finish("cluster_remote_store", fetch(out));
}
// EXPECT: race inter-block shared WAW A A
