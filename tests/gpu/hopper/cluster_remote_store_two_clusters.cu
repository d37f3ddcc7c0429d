// Two clusters of 2 blocks: in each, rank 1 stores into rank 0's shared slot through distributed
// shared memory, cluster.sync(), then rank 0 reads its slot. Each cluster sees its leader's slot at the
// same generic address, but the two stores are to two clusters' memory: race-free.
#include <cooperative_groups.h>
#include "suite.cuh"
namespace cg = cooperative_groups;

__global__ void __cluster_dims__(2, 1, 1) store_to_leader(int* out) {
  __shared__ int slot;
  cg::cluster_group cluster = cg::this_cluster();
  cluster.sync();
  int* leader_slot = cluster.map_shared_rank(&slot, 0);
  if (cluster.block_rank() == 1 && threadIdx.x == 0) *leader_slot = blockIdx.x;
  cluster.sync();
  if (cluster.block_rank() == 0 && threadIdx.x == 0) out[blockIdx.x / 2] = slot;
}

int main() {
  int* out = zeroed<int>(2);
  store_to_leader<<<4, 32>>>(out);
  return finish("cluster_remote_store_two_clusters", fetch(out + 1));
}
// EXPECT: no-race
