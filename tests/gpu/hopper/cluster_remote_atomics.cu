// Every thread of a 4-block cluster adds into rank 0's shared counter with atomicAdd through
// distributed shared memory; rank 0 reads it after cluster.sync(): race-free.
#include <cooperative_groups.h>
#include "suite.cuh"
namespace cg = cooperative_groups;

__global__ void __cluster_dims__(4, 1, 1) count_in_leader(int* out) {
  __shared__ int counter;
  cg::cluster_group cluster = cg::this_cluster();
  if (threadIdx.x == 0) counter = 0;
  cluster.sync();
  atomicAdd(cluster.map_shared_rank(&counter, 0), 1);
  cluster.sync();
  if (cluster.block_rank() == 0 && threadIdx.x == 0) out[blockIdx.x / 4] = counter;
}

int main() {
  int* out = zeroed<int>(2);
  count_in_leader<<<8, 128>>>(out);
  return finish("cluster_remote_atomics", fetch(out));
}
// EXPECT: no-race
