// Both blocks of a cluster add into rank 0's shared counter with atomicAdd_block (scope .cta): the
// scope does not cover the remote block, so the atomics race (scoped race in shared memory).
#include <cooperative_groups.h>
#include "suite.cuh"
namespace cg = cooperative_groups;

__global__ void __cluster_dims__(2, 1, 1) count_in_leader(int* out) {
  __shared__ int counter;
  cg::cluster_group cluster = cg::this_cluster();
  if (threadIdx.x == 0) counter = 0;
  cluster.sync();
  if (threadIdx.x == 0) atomicAdd_block(cluster.map_shared_rank(&counter, 0), 1);  // @A
  cluster.sync();
  if (cluster.block_rank() == 0 && threadIdx.x == 0) out[0] = counter;
}

int main() {
  int* out = zeroed<int>(1);
  count_in_leader<<<2, 32>>>(out);
  return finish("cluster_block_scope_atomic", fetch(out));
}
// EXPECT: race scoped shared WAW A A
