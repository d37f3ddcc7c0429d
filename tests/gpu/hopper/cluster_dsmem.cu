// Thread block cluster of 2: each block writes its shared buffer, cluster.sync(), then reads the
// partner's buffer through distributed shared memory, cluster.sync() before exit: race-free.
#include <cooperative_groups.h>
#include "suite.cuh"
namespace cg = cooperative_groups;

__global__ void __cluster_dims__(2, 1, 1) swap_with_partner(int* out) {
  __shared__ int buf[64];
  cg::cluster_group cluster = cg::this_cluster();
  unsigned rank = cluster.block_rank();
  buf[threadIdx.x] = rank * 100 + threadIdx.x;
  cluster.sync();
  int* partner = cluster.map_shared_rank(buf, rank ^ 1);
  out[blockIdx.x * 64 + threadIdx.x] = partner[threadIdx.x];
  cluster.sync();
}

int main() {
  int* out = zeroed<int>(4 * 64);
  swap_with_partner<<<4, 64>>>(out);
  return finish("cluster_dsmem", fetch(out));
}
// EXPECT: no-race
